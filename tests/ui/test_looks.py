"""The app's looks: --theme / $ATTN_TUI_THEME, a light background read from $COLORFGBG, the
terminal's own 16 colours, and NO_COLOR under any of them."""

from __future__ import annotations

import pytest

from attn_tui import compat
from attn_tui.app import LOOKS, AttnApp, choose_theme
from attn_tui.cli import THEMES, main

from .contrast import unreadable
from .test_contrast_every_screen import ANSI_FLOOR


@pytest.mark.parametrize(
    ("asked", "environ", "sixteen", "theme"),
    [
        (None, {}, False, "textual-dark"),
        (None, {}, True, "ansi-dark"),
        ("light", {}, False, "attn-light"),
        ("light", {}, True, "ansi-light"),
        ("ansi-dark", {}, False, "ansi-dark"),
        (None, {"ATTN_TUI_THEME": "light"}, False, "attn-light"),
        ("dark", {"ATTN_TUI_THEME": "light"}, False, "textual-dark"),  # the option wins
        (None, {"COLORFGBG": "0;15"}, False, "attn-light"),  # dark text on white
        (None, {"COLORFGBG": "15;default;0"}, False, "textual-dark"),
        (None, {"COLORFGBG": "0;7"}, True, "ansi-light"),
        ("auto", {"ATTN_TUI_THEME": "light"}, False, "textual-dark"),  # auto: the terminal
    ],
)
def test_choose_theme(asked, environ, sixteen, theme):
    assert choose_theme(asked, environ, sixteen) == theme


def test_every_look_is_a_choice_of_the_command_line():
    assert set(THEMES) == {"auto", *LOOKS}


def test_theme_is_refused_for_a_command_and_a_bad_environment_value(capsys, monkeypatch):
    assert main(["--lang", "en", "--theme", "light", "calc"]) == 2
    assert "--theme is for the full-screen app" in capsys.readouterr().err
    monkeypatch.setenv("ATTN_TUI_THEME", "pink")
    assert main(["--lang", "en"]) == 2
    err = capsys.readouterr().err
    assert "ATTN_TUI_THEME is “pink”" in err and "ansi-light" in err


async def test_the_app_takes_the_look_asked_for():
    async with AttnApp(lang="en", theme="light").run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        assert pilot.app.theme == "attn-light"


async def test_no_color_under_an_ansi_theme_has_no_colour_at_all_and_no_black_on_black(
    monkeypatch,
):
    """With NO_COLOR Textual chose greys for the theme it started with and kept them when the
    palette turned to an ANSI theme: every letter came out black on black."""
    monkeypatch.setenv("NO_COLOR", "1")
    async with AttnApp(lang="en").run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        assert colours(pilot.app) and all(is_grey(c) for c in colours(pilot.app))
        pilot.app.theme = "ansi-dark"
        await pilot.pause()
        await pilot.pause()
        assert colours(pilot.app) == set()  # the terminal's own colours only
        assert unreadable(pilot.app, ANSI_FLOOR) == []  # (the bar of an ANSI theme)
        pilot.app.theme = "attn-light"
        await pilot.pause()
        await pilot.pause()
        assert colours(pilot.app) and all(is_grey(c) for c in colours(pilot.app))
        assert unreadable(pilot.app) == []


def colours(app) -> set:
    """Every colour the screen is drawn with, but the terminal's default."""
    found = set()
    for strip in compat.screen_strips(app):
        for seg in strip:
            for color in (seg.style.color, seg.style.bgcolor) if seg.style else ():
                if color is not None and not color.is_default:
                    found.add(color)
    return found


def is_grey(color) -> bool:
    r, g, b = color.get_truecolor()
    return r == g == b
