"""The help overlay names each panel once (issue 26, item 11: the trainer's help said
"Settings" twice and "Training" four times, as if they were six panels)."""

import pytest
from rich.console import Console

from attn_tui import i18n
from attn_tui.app import AttnApp
from attn_tui.screens.help import HelpScreen

from .test_trainer import open_trainer


def headings(help_screen: HelpScreen) -> list[str]:
    """The panel headings as drawn: the unindented lines after the section title."""
    console = Console(width=76, record=True, file=open("/dev/null", "w"), color_system=None)
    console.print(help_screen._render_panels())
    lines = console.export_text().splitlines()
    return [line.strip() for line in lines[1:] if line.strip() and not line.startswith(" ")]


@pytest.mark.parametrize("lang", ["zh", "en"])
async def test_the_trainer_help_names_each_panel_once(lang):
    async with AttnApp(lang=lang).run_test(size=(80, 24)) as pilot:
        screen = await open_trainer(pilot)
        await pilot.press("f1")
        await pilot.pause()
        help_screen = pilot.app.screen
        assert isinstance(help_screen, HelpScreen)
        drawn = headings(help_screen)
        assert len(drawn) == len(set(drawn)), drawn
        # every paragraph is still there, under its panel's one heading
        text = " ".join(
            " ".join(line.split()) for line in _text(help_screen).splitlines() if line.strip()
        )
        for _, body in screen.HELP:
            assert " ".join(i18n.t(body).split())[:20] in text
        assert drawn.index(i18n.t("train.ui.settings")) < drawn.index(i18n.t("train.ui.live"))


def _text(help_screen: HelpScreen) -> str:
    console = Console(width=400, record=True, file=open("/dev/null", "w"), color_system=None)
    console.print(help_screen._render_panels())
    return console.export_text()


def test_every_screen_s_help_names_each_panel_once():
    from attn_tui.screens import base

    screens = [cls for cls in _subclasses(base.TutorScreen) if cls.HELP]
    assert len(screens) >= 6  # calculator, trainer, lab, exercises, quiz, code, ...
    for lang in ("zh", "en"):
        i18n.set_lang(lang)
        for cls in screens:
            drawn = headings(HelpScreen([], cls.HELP))
            assert len(drawn) == len(set(drawn)), (cls.__name__, lang, drawn)


def _subclasses(cls):
    import importlib
    import pkgutil

    import attn_tui.screens as package

    for info in pkgutil.iter_modules(package.__path__):
        importlib.import_module(f"attn_tui.screens.{info.name}")
    seen, todo = [], [cls]
    while todo:
        for sub in todo.pop().__subclasses__():
            if sub not in seen:
                seen.append(sub)
                todo.append(sub)
    return seen
