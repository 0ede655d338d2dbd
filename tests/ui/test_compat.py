"""One test per private Textual hook in attn_tui/compat.py, each against the real Textual: a
release that renames, moves or changes what the hook relies on fails here, by name, before a
screen misbehaves somewhere less obvious."""

from __future__ import annotations

import os
import sys

import pytest
from textual.app import App, ComposeResult
from textual.binding import Binding
from textual.reactive import reactive
from textual.screen import Screen
from textual.widget import Widget
from textual.widgets import Footer, Select, Static

from attn_tui import compat


async def test_mounted_event_is_set_just_after_the_screens_on_mount():
    seen: list[bool] = []

    class Probe(Screen):
        def on_mount(self) -> None:
            seen.append(compat.mounted_event(self).is_set())

    async with App().run_test() as pilot:
        screen = Probe()
        event = compat.mounted_event(screen)
        assert not event.is_set()
        pilot.app.push_screen(screen)
        await pilot.pause()
        assert seen == [False]  # not yet while on_mount runs (the app waits for it to end)
        assert event.is_set() and compat.mounted_event(screen) is event


class Counter(Widget):
    value = reactive(0)


class Watcher(Widget):
    def __init__(self, target: Counter) -> None:
        super().__init__()
        self.target = target

    def on_mount(self) -> None:
        self.watch(self.target, "value", self.changed, init=False)

    def changed(self, _value: int) -> None:
        pass


async def test_watchers_hold_each_watch_and_a_removed_widgets_is_dropped_only_by_us():
    class Host(App):
        def compose(self) -> ComposeResult:
            yield Counter(id="counter")

    async with Host().run_test() as pilot:
        counter = pilot.app.query_one(Counter)
        watcher = Watcher(counter)
        await pilot.app.mount(watcher)
        await pilot.pause()
        assert [owner for owner, _ in compat.watchers(counter)["value"]] == [watcher]
        await watcher.remove()
        await pilot.pause()
        # Textual forgets a removed widget's watcher only when the value next changes: this is
        # the leak compat.drop_closed_watchers mends (if Textual drops it itself one day, the
        # mend is no longer needed and this line says so).
        assert [owner for owner, _ in compat.watchers(counter)["value"]] == [watcher]
        compat.drop_closed_watchers(counter)
        assert compat.watchers(counter)["value"] == []


async def test_footer_keys_are_footer_key_widgets_that_watch_the_footer():
    class Keys(App):
        BINDINGS = [Binding("f5", "bell", "Ring")]

        def compose(self) -> ComposeResult:
            yield Footer(compact=True)

    async with Keys().run_test() as pilot:
        await pilot.pause()
        keys = list(pilot.app.screen.query(compat.FooterKey))
        assert "f5" in {key.key for key in keys}
        footer = pilot.app.query_one(Footer)
        owners = [owner for pairs in compat.watchers(footer).values() for owner, _ in pairs]
        assert any(isinstance(owner, compat.FooterKey) for owner in owners)


async def test_a_footer_composes_its_keys_at_once_only_when_told_its_bindings_are_ready():
    composed: dict[str, set[str]] = {}

    class Keys(App):
        BINDINGS = [Binding("f5", "bell", "Ring")]

        def compose(self) -> ComposeResult:
            yield Footer(id="plain")
            ready = Footer(id="ready")
            compat.footer_composes_now(ready)
            yield ready

        def on_mount(self) -> None:  # the footers have composed, nothing is drawn yet
            for footer in self.query(Footer):
                composed[str(footer.id)] = {key.key for key in footer.query(compat.FooterKey)}

    async with Keys().run_test() as pilot:
        await pilot.pause()
        # Textual's own: none until the screen's bindings are published (and a refresh later)
        assert composed["plain"] == set()
        assert "f5" in composed["ready"]  # told: composed with the screen


async def test_default_css_parsed_early_is_not_parsed_again_when_its_widget_first_mounts(
    monkeypatch,
):
    import textual.css.stylesheet as stylesheet_module

    class Early(Static):
        DEFAULT_CSS = "Early { height: 3; color: red; }"

    class Late(Static):
        DEFAULT_CSS = "Late { height: 2; }"

    parsed: list[str] = []
    original = stylesheet_module.parse

    def counted(scope, css, *args, **kwargs):
        parsed.append(css)
        return original(scope, css, *args, **kwargs)

    class Host(App):
        async def on_mount(self) -> None:
            compat.parse_default_css_early(self.stylesheet, [Early])
            assert Early.DEFAULT_CSS in parsed  # (and Static's, Widget's, as Early's bases)
            parsed.clear()
            await self.mount(Early("e"), Late("l"))

    monkeypatch.setattr(stylesheet_module, "parse", counted)
    async with Host().run_test() as pilot:
        await pilot.pause()
        assert Early.DEFAULT_CSS not in parsed and Late.DEFAULT_CSS in parsed
        assert pilot.app.query_one(Early).styles.height.value == 3  # its rules are in force


async def test_a_select_has_one_menu_and_one_current_line_with_a_label():
    class Menu(App):
        def compose(self) -> ComposeResult:
            yield Select([("one", 1), ("two", 2), ("three", 3)], value=2, allow_blank=False)

    async with Menu().run_test() as pilot:
        select = pilot.app.query_one(Select)
        overlay = select.query_one(compat.SelectOverlay)
        assert overlay.option_count == 3
        current = select.query_one(compat.SelectCurrent)
        assert str(current.label) == "two"
        assert isinstance(select.query_one("SelectCurrent #label"), Static)


async def test_a_selects_own_watcher_opens_the_menu_before_a_subclasss_watch_expanded():
    opened: list[bool] = []

    class Fitted(Select):
        def watch_expanded(self, expanded: bool) -> None:
            if expanded:
                opened.append(self.has_class("-expanded"))

    class Menu(App):
        def compose(self) -> ComposeResult:
            yield Fitted([("one", 1), ("two", 2)], value=1)

    async with Menu().run_test() as pilot:
        pilot.app.query_one(Fitted).expanded = True
        await pilot.pause()
        assert opened == [True]


async def test_a_notification_is_a_toast_on_screen():
    async with App().run_test(notifications=True) as pilot:
        pilot.app.notify("hello", timeout=30)
        await pilot.pause(0.1)
        toasts = list(pilot.app.screen.query(compat.Toast))
        assert len(toasts) == 1


async def test_a_frame_reaches_the_display_as_a_compositor_update_with_segments():
    frames: list[object] = []

    class Shown(App):
        def compose(self) -> ComposeResult:
            yield Static("hello")

    app = Shown()
    async with app.run_test() as pilot:
        display = app._display

        def spy(screen: object, renderable: object) -> None:
            frames.append(renderable)
            display(screen, renderable)

        app._display = spy
        app.query_one(Static).update("world")
        await pilot.pause()
        updates = [f for f in frames if isinstance(f, compat.CompositorUpdate)]
        assert updates and all(callable(u.render_segments) for u in updates)


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="parked sessions are Linux-only")
async def test_the_web_driver_has_every_member_a_parked_session_uses(monkeypatch):
    from textual.drivers.web_driver import WebDriver

    read, write = os.pipe()  # its InputReader watches stdin: a pipe, as a served session has
    monkeypatch.setattr(sys, "__stdin__", os.fdopen(read))
    os.close(write)
    driver = WebDriver(App())
    try:
        for name in compat.WEB_DRIVER_HOOKS:
            assert hasattr(driver, name), name
        assert isinstance(driver._input_reader, compat.InputReader)
        assert callable(driver._input_reader.close)
        assert callable(driver._input_reader._selector.close)
    finally:
        driver._input_reader.close()


async def test_colour_filter_follows_theme_swaps_greys_for_no_colour_under_ansi(monkeypatch):
    from textual.filter import Monochrome, NoColor

    monkeypatch.setenv("NO_COLOR", "1")
    async with App().run_test() as pilot:
        app = pilot.app
        assert app.no_color and any(isinstance(f, Monochrome) for f in app._filters)
        app.theme = "ansi-dark"
        compat.colour_filter_follows_theme(app)
        assert any(isinstance(f, NoColor) for f in app._filters)
        assert not any(isinstance(f, Monochrome) for f in app._filters)
        app.theme = "textual-dark"
        compat.colour_filter_follows_theme(app)
        assert any(isinstance(f, Monochrome) for f in app._filters)


async def test_screen_strips_are_the_lines_on_show():
    class One(App):
        def compose(self) -> ComposeResult:
            yield Static("hello there")

    async with One().run_test(size=(30, 4)) as pilot:
        await pilot.pause()
        strips = compat.screen_strips(pilot.app)
        assert len(strips) == 4 and strips[0].text.startswith("hello there")
        assert all(strip.cell_length == 30 for strip in strips)


def test_the_stock_ansi_palettes_are_textuals_defaults():
    """The palettes the app makes readable start from the ones Textual itself would use."""
    from rich.terminal_theme import TerminalTheme

    assert isinstance(compat.STOCK_ANSI_DARK, TerminalTheme)
    assert isinstance(compat.STOCK_ANSI_LIGHT, TerminalTheme)
    app = App()
    assert app.ansi_theme_dark is compat.STOCK_ANSI_DARK
    assert app.ansi_theme_light is compat.STOCK_ANSI_LIGHT


async def test_inks_follow_theme_turns_yellow_to_magenta_on_a_light_ansi_theme_only():
    from rich.color import ColorType
    from rich.segment import Segment
    from rich.style import Style
    from textual.color import Color

    yellow = [Segment("hint", Style(color="yellow", bold=True))]

    class One(App):
        pass

    app = One()
    async with app.run_test() as pilot:
        for theme, want in (("ansi-light", "magenta"), ("ansi-dark", "yellow"),
                            ("textual-light", "yellow")):  # fmt: skip
            app.theme = theme
            await pilot.pause()
            compat.inks_follow_theme(app)
            out = yellow
            for line_filter in app.get_line_filters():  # the filters Textual applies
                out = line_filter.apply(out, Color(255, 255, 255))
            color = out[0].style.color
            magenta = color.type == ColorType.STANDARD and color.number == 5
            assert magenta == (want == "magenta"), (theme, color)
            assert out[0].style.bold
        assert sum(isinstance(f, compat.InkOnLightTerminal) for f in app._filters) == 1


async def test_styled_as_now_spares_a_new_modes_screen_textuals_refresh(monkeypatch):
    """Textual marks a new screen as unstyled (-1) and refreshes all CSS on its first switch;
    a screen marked by styled_as_now is switched to without that refresh."""
    refreshes: list[int] = []
    original = App.refresh_css

    def counted(self, animate: bool = True) -> None:
        refreshes.append(1)
        original(self, animate)

    class Area(Screen):
        def compose(self) -> ComposeResult:
            yield Static("area")

    def marked() -> Screen:
        screen = Area()
        compat.styled_as_now(screen, screen.app)
        return screen

    class Host(App):
        MODES = {"home": Area, "plain": Area, "marked": marked}
        DEFAULT_MODE = "home"

    assert Area()._css_update_count == -1  # what the hook relies on
    async with Host().run_test() as pilot:
        await pilot.pause()
        monkeypatch.setattr(App, "refresh_css", counted)
        pilot.app.switch_mode("plain")
        await pilot.pause()
        assert refreshes  # Textual's own way: refreshed on the first switch
        refreshes.clear()
        pilot.app.switch_mode("marked")
        await pilot.pause()
        assert refreshes == []
        assert pilot.app.screen._css_update_count == pilot.app._css_update_count
