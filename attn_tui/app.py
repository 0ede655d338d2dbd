"""The App: areas as modes, global keys, language switching. Each area lives in screens/."""

from __future__ import annotations

import importlib
import importlib.util
from collections.abc import Callable, Iterable
from pathlib import Path

from textual import events, on
from textual.app import App, SystemCommand
from textual.binding import Binding
from textual.reactive import reactive
from textual.screen import Screen

from attn_tui import figures, i18n
from attn_tui.screens.base import TutorScreen
from attn_tui.screens.help import HelpScreen
from attn_tui.screens.home import HomeScreen

# Every area the tutor knows, in the order the home screen lists them: mode → screen class.
# An area appears once its screen module exists, and is imported only when first opened,
# so a cold start pays for the home screen alone.
KNOWN_AREAS = {
    "calc": "attn_tui.screens.calculator:CalculatorScreen",
    "train": "attn_tui.screens.trainer:TrainerScreen",
    "exercises": "attn_tui.screens.exercises:ExercisesScreen",
    "quiz": "attn_tui.screens.quiz:QuizScreen",
    "lab": "attn_tui.screens.lab:LabScreen",
}


def _available(target: str) -> bool:
    return importlib.util.find_spec(target.split(":")[0]) is not None


def _loader(target: str) -> Callable[[], Screen]:
    def load() -> Screen:
        module, name = target.split(":")
        return getattr(importlib.import_module(module), name)()

    return load


class AttnApp(App[None]):
    CSS_PATH = "app.tcss"
    TITLE = "attn-tui"
    AREAS: tuple[str, ...] = tuple(m for m, target in KNOWN_AREAS.items() if _available(target))
    MODES = {"home": HomeScreen, **{m: _loader(KNOWN_AREAS[m]) for m in AREAS}}
    DEFAULT_MODE = "home"
    BINDINGS = [
        Binding("f1", "help", "app.key.help"),
        Binding("question_mark", "help", "app.key.help", show=False),
        Binding("f2", "toggle_lang", "app.key.lang"),
        Binding("escape", "home", "app.key.home"),
        Binding("ctrl+q", "quit", "app.key.quit", priority=True, show=False),
        Binding(figures.FIGURE_KEY, "save_figure", "classroom.key.svg", show=False),
    ]

    lang: reactive[str] = reactive("en", init=False)

    def __init__(
        self,
        lang: str | None = None,
        data_dir: Path | None = None,
        extra_exercises: Iterable[Path] = (),
    ) -> None:
        super().__init__()
        self.data_dir = data_dir
        self.extra_exercises = list(extra_exercises)
        self.set_reactive(AttnApp.lang, lang or i18n.default_lang())
        i18n.set_lang(self.lang)

    def watch_lang(self, lang: str) -> None:
        i18n.set_lang(lang)

    def action_toggle_lang(self) -> None:
        self.lang = "en" if self.lang == "zh" else "zh"
        self.notify(i18n.t("app.lang_switched"), timeout=2)

    def action_home(self) -> None:
        if self.current_mode != "home":
            self.switch_mode("home")

    def action_save_figure(self) -> None:
        figures.save_screen(self)

    @on(events.DeliveryComplete)
    def _figure_saved(self, event: events.DeliveryComplete) -> None:
        figures.announce(self, event, ok=True)

    @on(events.DeliveryFailed)
    def _figure_failed(self, event: events.DeliveryFailed) -> None:
        figures.announce(self, event, ok=False)

    def action_help(self) -> None:
        if isinstance(self.screen, HelpScreen):
            self.pop_screen()
            return
        screen = self.screen
        keys = screen.help_keys() if isinstance(screen, TutorScreen) else []
        panels = screen.HELP if isinstance(screen, TutorScreen) else ()
        self.push_screen(HelpScreen(keys, panels))

    def get_system_commands(self, screen: Screen) -> Iterable[SystemCommand]:
        t = i18n.t
        yield SystemCommand(t("app.cmd.lang"), t("app.cmd.lang.help"), self.action_toggle_lang)
        yield SystemCommand(t("app.cmd.help"), t("app.help.global"), self.action_help)
        for mode in self.AREAS:
            yield SystemCommand(
                t("app.cmd.open", area=t(f"app.area.{mode}")),
                t(f"app.area.{mode}.desc"),
                lambda mode=mode: self.switch_mode(mode),
            )
        yield from super().get_system_commands(screen)
