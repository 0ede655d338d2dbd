"""Every screen readable under every look the app offers, and under NO_COLOR (issue 26, item 31).

Each area is walked through its main states; at each stop the screen is redrawn under each of
the app's themes (dark, light, and the two ANSI themes a 16-colour terminal gets) and every
letter's contrast is measured (tests/ui/contrast.py): text at least 4.5:1 (WCAG AA for body
text; a terminal has no "large" text), UI glyphs (▼, ◆, ✓, arrows) at least 3:1. On an ANSI
theme the colours are the terminal's own palette, which the app cannot know: they are measured
in Textual's stand-in palettes (Monokai dark, Alabaster light; not the app's own, which only
the RGB themes use), at 3:1 for every character, both as a 16-colour terminal draws them (RGB
squeezed to the 16 standard colours) and as a true-colour one does (a learner may ask for an
ANSI theme anywhere). With NO_COLOR set, Textual draws an RGB theme in greys and an ANSI
theme in the terminal's default colours alone. Findings judged not worth a change are in
ACCEPTED, each with its reason.

Slow but for the home screen: each area is drawn under six looks at every stop.
"""

from __future__ import annotations

import time

import pytest
from textual.widgets import Input, Select

from attn_tui import compat, coursebook
from attn_tui.app import AttnApp

from .contrast import unreadable

ANSI_FLOOR = 3.0

# Findings judged not worth a change, each (where, what the finding line contains): why.
ACCEPTED = {
    ("menu #preset", "'Preset' 4.38"): "Textual's Select writes its blank option's prompt dim "
    "(in a private method); on the light theme's open menu that is 4.38:1, over the 3:1 of a "
    "UI part, and the option is the menu's title, not a choice",
}


def accepted(finding: str) -> bool:
    return any(where in finding and what in finding for where, what in ACCEPTED)


# (theme, measured as a 16-colour terminal draws it)
LOOKS = [
    ("textual-dark", False),
    ("attn-light", False),
    ("ansi-dark", True),
    ("ansi-dark", False),
    ("ansi-light", True),
    ("ansi-light", False),
]


async def measure(pilot, where: str, found: list[str]) -> None:
    """The findings of the screen now, under every look; the app's theme is put back."""
    app = pilot.app
    start = app.theme
    await pilot.pause()
    for theme, sixteen in LOOKS:
        if app.theme != theme:
            app.theme = theme
            await pilot.pause()
            await pilot.pause()
        if theme.startswith("ansi"):  # the terminal's palette: Textual's stand-in, at 3:1
            stand_in = compat.STOCK_ANSI_LIGHT if "light" in theme else compat.STOCK_ANSI_DARK
            lines = unreadable(app, ANSI_FLOOR, sixteen_colours=sixteen, palette=stand_in)
        else:
            lines = unreadable(app)
        for line in lines:
            finding = f"{where} [{theme}{' 16' if sixteen else ''}]: {line}"
            if not accepted(finding):
                found.append(finding)
    app.theme = start
    await pilot.pause()


async def _still(pilot) -> None:
    for widget in pilot.app.screen.query("Input, TextArea"):
        widget.cursor_blink = False  # type: ignore[attr-defined]
    await pilot.pause()


async def _until(pilot, condition, seconds: float = 30.0) -> None:
    deadline = time.monotonic() + seconds
    while not condition():
        assert time.monotonic() < deadline, "timed out"
        await pilot.pause(0.05)


async def _menus(pilot, where: str, found: list[str]) -> None:
    for select in list(pilot.app.screen.query(Select)):
        if select.disabled or not all(node.display for node in select.ancestors_with_self):
            continue
        select.expanded = True
        await pilot.pause()
        await measure(pilot, f"{where}, menu #{select.id}", found)
        select.expanded = False
        await pilot.pause()


async def _help(pilot, where: str, found: list[str]) -> None:
    await pilot.press("f1")
    await measure(pilot, f"{where}, help", found)
    await pilot.press("f1")
    await pilot.pause()


async def walk_home(pilot, found):
    await measure(pilot, "home", found)
    await pilot.press("down")  # a highlighted option row: its dim second line
    await measure(pilot, "home, second option", found)
    await _help(pilot, "home", found)


async def walk_calculator(pilot, found):
    await pilot.app.switch_mode("calc")
    screen = pilot.app.screen
    await _still(pilot)
    for step in (1, 2, 3, 4):
        screen.step = step
        await measure(pilot, f"calculator step {step}", found)
    await _menus(pilot, "calculator", found)
    await pilot.press("f4")
    await measure(pilot, "calculator, √d", found)
    await _help(pilot, "calculator", found)


async def walk_lab(pilot, found):
    await pilot.app.switch_mode("lab")
    await _still(pilot)
    from attn_tui.widgets.lab.views import VIEWS

    for view in range(len(VIEWS)):
        await measure(pilot, f"lab view {view + 1}", found)
        await pilot.press("f4")
    await _menus(pilot, "lab", found)
    await _help(pilot, "lab", found)


async def walk_exercises(pilot, found):
    await pilot.app.switch_mode("exercises")
    screen = pilot.app.screen
    await _still(pilot)
    await measure(pilot, "exercise sets", found)
    await pilot.press("down")
    await measure(pilot, "exercise sets, second row", found)
    screen.open_set("hand-example")
    await _still(pilot)
    await measure(pilot, "exercise", found)
    screen.query_one("#ex-answer", Input).value = "9 9 9 9"
    await pilot.press("enter")
    await pilot.press("f3")
    await measure(pilot, "exercise, wrong answer and a hint", found)
    screen.action_items()
    await measure(pilot, "exercise list", found)


async def walk_quiz(pilot, found):
    await pilot.app.switch_mode("quiz")
    screen = pilot.app.screen
    await measure(pilot, "quiz start", found)
    screen.start("quick", screen.bank[:2])
    await _still(pilot)
    await measure(pilot, "quiz question", found)
    screen.skip()
    await measure(pilot, "quiz answered", found)
    screen.next_question()
    screen.skip()
    screen.next_question()
    await measure(pilot, "quiz summary", found)


async def walk_trainer(pilot, found):
    from pathlib import Path

    from attn_tui.core.models import stored_run

    await pilot.app.switch_mode("train")
    screen = pilot.app.screen
    await _still(pilot)
    await measure(pilot, "trainer before a run", found)
    stored = Path(__file__).parent / "stored_runs"
    screen.show_finished(stored_run.load(stored / "rnn_default.json"))
    await measure(pilot, "trainer after the default run", found)
    await _help(pilot, "trainer", found)


async def walk_code(pilot, found):
    await pilot.app.switch_mode("code")
    await _still(pilot)
    await measure(pilot, "code", found)


async def walk_course(pilot, found):
    await _until(pilot, lambda: coursebook.loaded(pilot.app) is not None)
    await pilot.pause()
    await pilot.press("c")
    await _until(pilot, lambda: type(pilot.app.screen).__name__ == "LessonScreen")
    await _still(pilot)
    await measure(pilot, "lesson", found)
    await pilot.press("escape")
    await pilot.pause()
    await pilot.press("p")
    await _still(pilot)
    await measure(pilot, "course path", found)


WALKS = {
    "home": walk_home,
    "calculator": walk_calculator,
    "lab": walk_lab,
    "exercises": walk_exercises,
    "quiz": walk_quiz,
    "trainer": walk_trainer,
    "code": walk_code,
    "course": walk_course,
}


@pytest.mark.parametrize("no_color", [False, True], ids=["colour", "NO_COLOR"])
@pytest.mark.parametrize(
    "area",  # the home screen in the fast tier, every other area in the slow one
    [a if a == "home" else pytest.param(a, marks=pytest.mark.slow) for a in WALKS],
)
async def test_every_letter_reads_under_every_look(area, no_color, monkeypatch, tmp_path):
    if no_color:
        monkeypatch.setenv("NO_COLOR", "1")
    else:
        monkeypatch.delenv("NO_COLOR", raising=False)
    found: list[str] = []
    app = AttnApp(lang="en", data_dir=tmp_path / "data")
    async with app.run_test(size=(100, 32)) as pilot:
        await pilot.pause()
        await WALKS[area](pilot, found)
    assert not found, "\n".join(found)
