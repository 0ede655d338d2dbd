"""The App: areas as modes, global keys, language switching. Each area lives in screens/."""

from __future__ import annotations

import asyncio
import gc
import importlib
import importlib.util
import inspect
import os
import threading
import time
from collections.abc import Callable, Iterable, Mapping
from pathlib import Path

from textual import events, on
from textual.app import App, SystemCommand
from textual.binding import Binding
from textual.reactive import reactive
from textual.screen import Screen

from attn_tui import compat, i18n, svg
from attn_tui.render import palette
from attn_tui.screens.base import TutorScreen, freeze_heap
from attn_tui.screens.copying import COPY_KEY
from attn_tui.screens.home import HomeScreen

# Every area the tutor knows, in the order the home screen lists them: mode → screen class.
# An area appears once its screen module exists, and is imported in the background once the
# home screen is up (PREFETCH_AFTER_S), so a cold start pays for the home screen alone.
KNOWN_AREAS = {
    "calc": "attn_tui.screens.calculator:CalculatorScreen",
    "train": "attn_tui.screens.trainer:TrainerScreen",
    "exercises": "attn_tui.screens.exercises:ExercisesScreen",
    "quiz": "attn_tui.screens.quiz:QuizScreen",
    "lab": "attn_tui.screens.lab:LabScreen",
    "code": "attn_tui.screens.code:CodeScreen",
}


def _available(target: str) -> bool:
    return importlib.util.find_spec(target.split(":")[0]) is not None


def _screen_class(target: str) -> type[Screen]:
    module, name = target.split(":")
    return getattr(importlib.import_module(module), name)


def _fresh(make: Callable[[], Screen]) -> Screen:
    """A new screen, marked as styled from the current stylesheet, which its widgets are as
    they are registered: showing it re-parses no stylesheet and restyles no screen (compat).
    Not before the first screen is up: the app's first refresh sets the theme's variables."""
    screen = make()
    app = screen.app
    try:
        ready = app.screen.is_mounted
    except Exception:  # no screen yet
        ready = False
    if ready:
        compat.styled_as_now(screen, app)
    return screen


def _loader(target: str) -> Callable[[], Screen]:
    def load() -> Screen:
        return _fresh(_screen_class(target))

    return load


def css_files(screen: type[Screen]) -> list[str]:
    """The CSS files a screen class names (CSS_PATH, relative to its module), as Textual reads
    them (``Stylesheet.read`` keeps a file under its absolute path)."""
    paths = screen.CSS_PATH
    if paths is None:
        return []
    folder = Path(inspect.getfile(screen)).parent
    return [os.path.abspath(folder / path) for path in ([paths] if isinstance(paths, (str, Path))
                                                        else paths)]  # fmt: skip


# Areas whose numbers F9 shows as numpy (attn_tui.screens.numpy_view.source_for).
NUMPY_AREAS = ("calc", "lab")

# Full (generation-2) garbage collections run in the learner's pauses: after this long without
# a key or a mouse event, or after this long of unbroken input (a held key), whichever first.
FULL_GC_PAUSE_S = 0.5
FULL_GC_AT_MOST_EVERY_S = 10.0

# How long keys typed while a screen opens may wait for it (it takes ~0.1 s; this only bounds
# a screen that never finishes mounting).
HOLD_AT_MOST_S = 5.0

# The areas' modules (numpy, the trainer, the widgets) are imported in the background this long
# after the home screen is up: a learner reads it first, and Enter then opens a screen without
# importing it. Not at start, so the cold start to the home screen does not pay for them.
PREFETCH_AFTER_S = 0.3


# Areas that grade written answers: the text libraries they need (jieba's dictionary, the
# stemmer, rapidfuzz; ~0.2–0.8 s) are loaded in the background while home is on show, not as
# the area opens, where that thread took the interpreter from the drawing of its screen.
WRITTEN_AREAS = frozenset({"exercises", "quiz"})


def _warm_written() -> None:
    try:
        from attn_tui.core.exercises.written.text import warm

        warm()
    except Exception:  # (the first written answer loads them, and says what is wrong)
        pass


def _import_areas(areas: Iterable[str]) -> list[type[Screen]]:
    """The areas' screen classes, imported (those that import)."""
    classes = []
    for mode in areas:
        try:
            classes.append(_screen_class(KNOWN_AREAS[mode]))
        except Exception:  # (opening the area says what is wrong, in its own words)
            pass
    return classes


# The looks a learner can ask for (--theme, $ATTN_TUI_THEME) → Textual's theme for a terminal of
# thousands of colours and for one of 16. A 16-colour terminal gets an ANSI theme, drawn in the
# terminal's own palette: an RGB theme squeezed into 16 colours put grey text on a grey that
# became black, and black on black.
LOOKS = {
    "dark": ("textual-dark", "ansi-dark"),
    "light": ("attn-light", "ansi-light"),
    "ansi-dark": ("ansi-dark", "ansi-dark"),
    "ansi-light": ("ansi-light", "ansi-light"),
}
ENV_THEME = "ATTN_TUI_THEME"


def _light_theme():
    """Textual's light theme with its orange, blue and green darkened until letters in them
    read on its greys (at least 4.5:1 on each, a highlighted row's 206 grey too): the accent
    titled the focused panel at 1.5 against the background, the footer's keys at 2.9."""
    from textual.theme import BUILTIN_THEMES, Theme

    base = BUILTIN_THEMES["textual-light"]
    return Theme(
        name="attn-light", primary=base.primary, secondary="#005A9E", accent="#784600",
        warning="#784600", error="#A12B48", success="#2E7043", surface=base.surface,
        panel=base.panel, background=base.background, dark=False,
        variables={"footer-key-foreground": "#005A9E"},
    )  # fmt: skip


def choose_theme(asked: str | None, environ: Mapping[str, str], sixteen_colours: bool) -> str:
    """The Textual theme for ``asked`` (a LOOKS key, "auto" or None; else $ATTN_TUI_THEME).
    "auto" reads the background from $COLORFGBG ("15;0" dark, "0;15" light: set by rxvt,
    Konsole, iTerm2), dark when it says nothing."""
    look = asked or environ.get(ENV_THEME, "").strip().lower() or "auto"
    if look not in LOOKS:
        background = environ.get("COLORFGBG", "").rpartition(";")[2].strip()
        look = "light" if background in ("7", "15") else "dark"
    return LOOKS[look][1 if sixteen_colours else 0]


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
        # Ours rather than Textual's, so that its description follows the language.
        Binding("ctrl+p", "command_palette", "app.key.palette", priority=True, show=False),
        Binding(svg.FIGURE_KEY, "save_figure", "classroom.key.svg", show=False),
        # The numpy behind the screen, on the calculator and the lab (NUMPY_AREAS); listed by
        # the help overlay (F1), not the footer, which is full at 80 columns.
        Binding("f9", "numpy", "code.key.numpy", show=False),
        # The figure or matrix on show, as text, to the clipboard (screens/copying.py).
        Binding(COPY_KEY, "copy_figure", "app.key.copy", show=False),
        # Empties the focused field, however many lines it holds (ctrl+z brings it back).
        Binding("ctrl+l", "clear_field", "app.key.clear", show=False),
    ]

    lang: reactive[str] = reactive("en", init=False)
    # Code exercises run the learner's code (in a bounded child process): on at a terminal;
    # a served session turns them on only when the teacher asked for them (serve --code).
    CODE_EXERCISES = True

    def __init_subclass__(cls, **kwargs: object) -> None:
        """A subclass without code exercises has neither the area nor its mode (decided when
        the class is made: an App's modes are read in its __init__)."""
        super().__init_subclass__(**kwargs)
        if not cls.CODE_EXERCISES:
            cls.AREAS = tuple(area for area in cls.AREAS if area != "code")
            cls.MODES = {mode: screen for mode, screen in cls.MODES.items() if mode != "code"}

    def __init__(
        self,
        lang: str | None = None,
        data_dir: Path | None = None,
        extra_exercises: Iterable[Path] = (),
        theme: str | None = None,
    ) -> None:
        """``theme``: a LOOKS key or "auto" (None: $ATTN_TUI_THEME, else auto)."""
        super().__init__()
        self.register_theme(_light_theme())
        # ANSI colour names ("green", "yellow") on the RGB themes, in palettes that read there
        self.ansi_theme_dark = palette.readable(compat.STOCK_ANSI_DARK, palette.DARK_BACKGROUNDS)
        self.ansi_theme_light = palette.readable(compat.STOCK_ANSI_LIGHT, palette.LIGHT_BACKGROUNDS)
        self._asked_theme = theme
        self.theme = choose_theme(theme, os.environ, sixteen_colours=False)
        compat.inks_follow_theme(self)
        palette.draw_without_colour(self.no_color or self.native_ansi_color)
        self.data_dir = data_dir
        self.extra_exercises = list(extra_exercises)
        self.set_reactive(AttnApp.lang, lang or i18n.default_lang())
        i18n.set_lang(self.lang)
        self._held_keys: list[events.Key] | None = None  # typed while a screen was opening
        self._waiting: asyncio.Task | None = None
        self._released: asyncio.Event | None = None  # set by release_keys()
        # set once the areas are prepared in the background (_prefetch_areas)
        self.prepared = threading.Event()
        # set once the first frame is painted (Ready): what home loads waits for it
        self.first_frame = asyncio.Event()

    # ---- keys typed while a screen opens ------------------------------------------------
    async def on_event(self, event: events.Event) -> None:
        if isinstance(event, (events.Key, events.MouseEvent)):
            self._last_input = time.monotonic()
        if isinstance(event, events.Key) and not event.is_forwarded and self._hold(event):
            return
        await super().on_event(event)

    def _hold(self, event: events.Key) -> bool:
        """Keep a key typed before the screen on show has finished mounting.

        Until its ``on_mount`` has run, a new screen has no focused widget, and Textual hands
        a key to the screen itself, which drops it: the first characters typed into the
        calculator as it opened were lost. Held keys go on, in order, once it is mounted.
        """
        if self._held_keys is not None:
            self._held_keys.append(event)
            return True
        try:
            screen = self.screen
        except Exception:  # no screen (starting or closing): Textual decides
            return False
        if screen.is_mounted:
            return False
        self._held_keys = [event]
        self._wait_for(screen)
        return True

    def hold_keys(self) -> None:
        """Hold the keys typed from now on until :meth:`release_keys` (or HOLD_AT_MOST_S).

        For a key whose effect comes later, in a handler of the message it causes (Enter on a
        list: ``OptionSelected`` opens an exercise and focuses its answer field): what is typed
        straight after it belongs to what it opens, not to the list.
        """
        if self._held_keys is None:
            self._held_keys = []
            self._released = asyncio.Event()
            self._wait(self._released, None)

    def release_keys(self) -> None:
        if self._released is not None:
            self._released.set()
            self._released = None

    def _wait_for(self, screen: Screen) -> None:
        # set once on_mount has run (and given the focus)
        self._wait(compat.mounted_event(screen), screen)

    def _wait(self, done: asyncio.Event, screen: Screen | None) -> None:
        async def wait() -> None:
            try:  # whatever never comes (a screen closed before it mounted) must not keep
                # the keys for ever
                await asyncio.wait_for(done.wait(), HOLD_AT_MOST_S)
            except TimeoutError:
                pass
            self.call_later(self._release_keys, screen)

        self._waiting = asyncio.create_task(wait())

    async def _release_keys(self, waited_for: Screen | None) -> None:
        """Hand the held keys on in the order typed (this runs in the app's own task, so no
        newer key overtakes them); a held key that opens another screen holds the rest again."""
        held, self._held_keys = self._held_keys or [], None
        while held:
            try:
                screen = self.screen
            except Exception:  # the app is closing: nothing to type into
                return
            if not screen.is_mounted and screen is not waited_for:
                self._held_keys = held
                self._wait_for(screen)
                return
            await super().on_event(held.pop(0))

    # ---- garbage collection off the keystroke path ---------------------------------------
    _gc_threshold: tuple[int, int, int] | None = None  # Python's, put back when the app ends
    _last_input = _last_full_gc = 0.0

    def on_ready(self) -> None:
        """Freeze the heap (see :func:`freeze_heap`) and take full collections over.

        Python starts a full collection after every ten generation-1 ones, wherever that
        falls: in the calculator, on about one keystroke in twenty, which then missed its
        frame (6–10 ms with the heap frozen, ~40 ms without). Generations 0 and 1 stay
        automatic (well under a millisecond); generation 2 waits for a pause in the input,
        as often as Python would have run it, and never more than FULL_GC_AT_MOST_EVERY_S
        late, so cyclic garbage is still freed.
        """
        freeze_heap()
        self._gc_threshold = gc.get_threshold()
        young, middle, _ = self._gc_threshold
        gc.set_threshold(young, middle, 1_000_000)  # generation 2 only from _full_gc
        self._last_input = self._last_full_gc = time.monotonic()
        self.set_interval(FULL_GC_PAUSE_S / 2, self._full_gc, name="full gc")
        self.set_timer(PREFETCH_AFTER_S, self._prefetch_areas, name="prefetch")
        self.first_frame.set()

    def _prefetch_areas(self) -> None:
        """Import every area's module and read every area's strings in a thread of its own (a
        daemon: quitting never waits), then read their CSS files into the app's stylesheet (in
        the app's own thread)."""
        areas = [mode for mode in self.AREAS if mode in KNOWN_AREAS]

        def prefetch() -> None:
            try:
                classes = _import_areas(areas)
                i18n.catalogue().load_all()  # the areas' strings (home read only its own)
                try:
                    self.call_from_thread(self._read_css_of, classes)
                except Exception:  # the app closed meanwhile
                    return
                if WRITTEN_AREAS.intersection(areas):
                    _warm_written()
            finally:
                self.prepared.set()

        threading.Thread(target=prefetch, name="prefetch-areas", daemon=True).start()

    def _read_css_of(self, screens: Iterable[type[Screen]]) -> None:
        """Read and parse the screens' CSS files now, while the learner reads the home screen.

        Textual reads a screen's CSS when the screen is first shown, and a file it has not
        read yet makes it re-parse every stylesheet of the app (its widgets' too) and restyle
        every screen: a third of the time an area took to open. Every rule in those files is
        scoped to its screen's type (``CalculatorScreen #query``), so reading them early
        changes the style of no widget on show.
        """
        stylesheet = self.stylesheet
        read = []
        for screen in screens:
            for path in css_files(screen):
                if not stylesheet.has_source(path) and os.path.isfile(path):
                    stylesheet.read(path)
                    read.append(path)
        try:
            stylesheet.parse()
        except Exception:  # a broken file: left for Textual to read, and say so, on opening
            for path in read:
                stylesheet.source.pop((path, ""), None)
        # the widgets' own CSS (DEFAULT_CSS) a screen names in WIDGETS_CSS, parsed into the
        # stylesheet's cache only (no source added: nothing changes on show), so that the
        # screen's first open parses none of it (compat.parse_default_css_early)
        for screen in screens:
            compat.parse_default_css_early(stylesheet, getattr(screen, "WIDGETS_CSS", ()))

    def _full_gc(self) -> None:
        assert self._gc_threshold is not None
        if gc.get_count()[2] < self._gc_threshold[2]:
            return  # fewer generation-1 collections than would make Python run one
        now = time.monotonic()
        if (now - self._last_input >= FULL_GC_PAUSE_S
                or now - self._last_full_gc >= FULL_GC_AT_MOST_EVERY_S):  # fmt: skip
            gc.collect()
            self._last_full_gc = now

    def on_unmount(self) -> None:
        # What was frozen goes back to the collector, and Python's thresholds are put back,
        # so an app that ends without its process (tests, the serve pool's warm-up) leaves
        # nothing behind.
        gc.unfreeze()
        if self._gc_threshold is not None:
            gc.set_threshold(*self._gc_threshold)

    def watch_lang(self, lang: str) -> None:
        i18n.set_lang(lang)

    def on_compose(self) -> None:
        """On a terminal of 16 colours (as Rich reads $TERM and $COLORTERM for the driver), the
        ANSI variant of the look. Decided here, once the driver is known and before any style
        is applied: a headless run (tests, a served session's browser) draws in RGB."""
        if not self.is_headless and self.console.color_system in ("standard", "windows"):
            self.theme = choose_theme(self._asked_theme, os.environ, sixteen_colours=True)

    def watch_theme(self, theme: str) -> None:
        """Under NO_COLOR, the colour filter the new theme needs (greys, or no colour for an
        ANSI theme), whoever changed it (the palette's theme command too)."""
        compat.colour_filter_follows_theme(self)
        compat.inks_follow_theme(self)
        palette.draw_without_colour(self.no_color or self.native_ansi_color)

    _lang_note_pending = False

    def action_toggle_lang(self) -> None:
        self.lang = "en" if self.lang == "zh" else "zh"
        if not self._lang_note_pending:  # held F2: one note for all the switches queued
            self._lang_note_pending = True
            self.call_later(self._say_language)

    def _say_language(self) -> None:
        """Messages in the old language are stale now: they go, and one line says which
        language is on (queued notes run before this, so they go too)."""
        self._lang_note_pending = False
        self.clear_notifications()
        self.notify(i18n.t("app.lang_switched"), timeout=2)

    def action_home(self) -> None:
        """Back one level: out of a screen opened from another (the calculator opened from an
        exercise returns to it), else to the home screen."""
        if len(self.screen_stack) > 1:
            self.pop_screen()
        elif self.current_mode != "home":
            self.switch_mode("home")

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "numpy":  # on the calculator and the lab themselves, not over them
            return self.current_mode in NUMPY_AREAS and len(self.screen_stack) == 1
        return True

    def action_numpy(self) -> None:
        """The short numpy that computes what the calculator or the lab shows."""
        from attn_tui.screens.numpy_view import NumpyScreen, source_for

        source = source_for(self.screen)
        if source:
            self.push_screen(NumpyScreen(source))

    def action_save_figure(self) -> None:
        svg.save_screen(self)

    def action_clear_field(self) -> None:
        """Empty the focused multi-line field. A TextArea is emptied by an edit, so its undo
        (ctrl+z) brings the text back; a one-line Input has no undo, so it is left alone."""
        from textual.widgets import TextArea

        field = self.focused
        if isinstance(field, TextArea) and not field.read_only:
            field.clear()

    def action_copy_figure(self) -> None:
        from attn_tui.screens.copying import copy_figure

        copy_figure(self)

    @on(events.DeliveryComplete)
    def _figure_saved(self, event: events.DeliveryComplete) -> None:
        svg.announce(self, event, ok=True)

    @on(events.DeliveryFailed)
    def _figure_failed(self, event: events.DeliveryFailed) -> None:
        svg.announce(self, event, ok=False)

    def action_help(self) -> None:
        from attn_tui.screens.help import HelpScreen  # not needed for a first screen

        if isinstance(self.screen, HelpScreen):
            self.pop_screen()
            return
        screen = self.screen
        keys = screen.help_keys if isinstance(screen, TutorScreen) else list
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
