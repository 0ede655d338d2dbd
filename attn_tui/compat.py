"""Every use of Textual's private API, in one place, each with a test that fails when Textual
changes it (tests/ui/test_compat.py).

Textual is pinned in pyproject.toml to the releases these hooks were checked on. Before moving
the pin, run ``pytest tests/ui/test_compat.py`` against the new release: a failure names the
hook that moved, and this module is the only place to mend (no other module of the app, the
tests or the benchmarks imports a private Textual module; tests/test_layers.py enforces it).

The hooks, and why a public API does not do:

- :func:`mounted_event`: the event a screen sets once its ``on_mount`` has run. The app holds
  keys typed before a new screen has mounted (``AttnApp._hold``) and must wait for exactly
  that moment; Textual has no public awaitable for it (``is_mounted`` can only be polled).
- :func:`drop_closed_watchers`: Textual keeps an object's watchers in its ``__watchers``
  dict and drops those of closed widgets only when the watched value changes. Footer keys
  ``data_bind`` the footer's ``compact``, which never changes, so every footer rebuild leaked
  its keys (Textual 8.2.8; holding F2 grew memory by hundreds of MB). Nothing public clears
  them.
- ``SelectOverlay``, ``SelectCurrent``: a Select's drop-down menu and its current-value line,
  which Textual does not export. ``PanelSelect`` sizes the menu to its panel; tests read both.
- ``InputReader`` and :data:`WEB_DRIVER_HOOKS`: a parked session (attn_tui/serve/parked.py)
  starts a ``WebDriver`` before its tab exists and re-points its input at the tab's stdin when
  one arrives, through the driver's private members.
- ``FooterKey``, ``Toast``, ``CompositorUpdate``: the footer's key widgets and a notification
  widget (tests find them on screen), and a frame update (the calculator benchmark turns it
  into terminal bytes, as a terminal run does).
- :func:`colour_filter_follows_theme`: with ``NO_COLOR`` set, Textual picks its colour filter
  once, in ``App.__init__``, for the theme of that moment (greys for an RGB theme, no colour at
  all for an ANSI one) and keeps it when the theme changes: an app that then turned to an ANSI
  theme drew every letter black on black. The filters are the app's private ``_filters``.
- ``STOCK_ANSI_DARK``, ``STOCK_ANSI_LIGHT``: the palettes Textual draws ANSI colour names in on
  an RGB theme (Monokai, Alabaster), which it does not export. The app starts from them
  (render/palette.py); the contrast tests measure the ANSI themes in them, as stand-ins for the
  terminal's own palette.
- :func:`inks_follow_theme`: adds :class:`InkOnLightTerminal` to the app's ``_filters`` (the
  public ``LineFilter`` has no public way onto an app) and turns it on for a light ANSI theme.
- :func:`screen_strips`: the lines of the screen as drawn, with their styles (the compositor's
  ``render_strips``): the copy key's fallback writes them as text, tests measure contrast.
- :func:`styled_as_now`: Textual marks a new screen's styles as out of date (its private
  ``_css_update_count`` is -1), so the first switch to a mode re-parses every stylesheet of the
  app and restyles every screen, twice (``_init_mode`` and ``switch_mode`` each call
  ``refresh_css``), and the first Esc back home did it again. A new screen's widgets are styled
  from the current stylesheet as they are registered, so a new screen is marked up to date.
- :func:`parse_default_css_early`: a widget type's DEFAULT_CSS is added to the stylesheet and
  parsed (the whole stylesheet's parse, its cache aside) when the first widget of that type is
  registered: the trainer's first open parsed nine such sources one by one (~15 ms). The app
  parses them into the stylesheet's parse cache (its private ``_parse_rules``, keyed as
  ``DOMNode._get_default_css`` gives them) while home is on show; no source is added, so no
  style changes. The cache holds 64 sources (Textual's LRUCache): name only what a screen
  would otherwise parse on opening, or home's own are pushed out.
- :func:`footer_composes_now`: a Footer composes no key until the screen first publishes its
  bindings (its private ``_bindings_ready``), then rebuilds itself after the next refresh, so
  every screen's first frame had an empty footer and a second frame (a recompose, ~15 ms at
  120×40) followed. Nothing public composes it at once.
"""

from __future__ import annotations

import asyncio
from collections.abc import Iterable
from functools import lru_cache

from rich.color import Color as RichColor
from rich.color import ColorType
from rich.segment import Segment
from rich.style import Style
from textual._ansi_theme import ALABASTER as STOCK_ANSI_LIGHT
from textual._ansi_theme import MONOKAI as STOCK_ANSI_DARK
from textual._compositor import CompositorUpdate
from textual.app import App
from textual.color import Color as TextualColor
from textual.css.stylesheet import Stylesheet
from textual.dom import DOMNode
from textual.drivers._input_reader import InputReader
from textual.filter import LineFilter, Monochrome, NoColor
from textual.message_pump import MessagePump
from textual.widgets._footer import FooterKey
from textual.widgets._select import SelectCurrent, SelectOverlay
from textual.widgets._toast import Toast

__all__ = [
    "STOCK_ANSI_DARK",
    "STOCK_ANSI_LIGHT",
    "WEB_DRIVER_HOOKS",
    "CompositorUpdate",
    "FooterKey",
    "InkOnLightTerminal",
    "InputReader",
    "SelectCurrent",
    "SelectOverlay",
    "Toast",
    "colour_filter_follows_theme",
    "drop_closed_watchers",
    "footer_composes_now",
    "inks_follow_theme",
    "mounted_event",
    "parse_default_css_early",
    "screen_strips",
    "styled_as_now",
    "watchers",
]

# The private members of textual.drivers.web_driver.WebDriver that ParkedDriver uses.
WEB_DRIVER_HOOKS = (
    "_input_reader",  # its InputReader, replaced when a tab arrives
    "_key_thread",  # the thread reading keys, started when a tab arrives
    "_write",  # raw bytes to the tab
    "_enable_mouse_support",
    "_request_terminal_sync_mode_support",
    "_enable_bracketed_paste",
)


def mounted_event(node: MessagePump) -> asyncio.Event:
    """Set once ``node``'s Mount handlers (its ``on_mount`` included) have run."""
    return node._mounted_event


def watchers(node: DOMNode) -> dict[str, list[tuple[object, object]]]:
    """``node``'s watchers by reactive name: (the node that registered it, the callback)."""
    return node.__dict__.get("__watchers") or {}


def drop_closed_watchers(node: DOMNode) -> None:
    """Forget the watchers of ``node``'s reactives that were registered by widgets since
    removed (closing or closed), as Textual itself does only when the watched value changes."""
    for pairs in watchers(node).values():
        pairs[:] = [(owner, callback) for owner, callback in pairs if not _gone(owner)]


def _gone(node: object) -> bool:
    return bool(getattr(node, "_closing", False) or getattr(node, "_closed", False))


def colour_filter_follows_theme(app: App) -> None:
    """Under ``NO_COLOR``: the filter for the theme now on (Monochrome for an RGB theme,
    NoColor for an ANSI one), as ``App.__init__`` would have chosen for it."""
    if not app.no_color:
        return
    wanted = NoColor() if app.native_ansi_color else Monochrome()
    filters = app._filters
    for n, line_filter in enumerate(filters):
        if isinstance(line_filter, (Monochrome, NoColor)) and type(line_filter) is not type(wanted):
            filters[n] = wanted


class InkOnLightTerminal(LineFilter):
    """On a light ANSI theme, text in the terminal's yellow is drawn in its magenta instead:
    yellow on a light background is unreadable in nearly every palette (xterm's 1.4:1,
    Tango's 2.2:1, Textual's stand-in 2.6:1), magenta reads on light and dark ones alike. The
    app writes hints and notes in yellow, which read on the dark themes."""

    def apply(self, segments: list[Segment], background: TextualColor) -> list[Segment]:
        return [Segment(text, _magenta_for_yellow(style), control)
                if style is not None and style.color is not None else Segment(text, style, control)
                for text, style, control in segments]  # fmt: skip


_YELLOWS = (3, 11)  # yellow, bright yellow
_MAGENTA = RichColor.from_ansi(5)


@lru_cache(256)
def _magenta_for_yellow(style: Style) -> Style:
    color = style.color
    if color is not None and color.type == ColorType.STANDARD and color.number in _YELLOWS:
        return style + Style(color=_MAGENTA)
    return style


def inks_follow_theme(app: App) -> None:
    """Turn :class:`InkOnLightTerminal` on for a light ANSI theme, off for any other (the
    filter is one of the app's private ``_filters``)."""
    wanted = app.native_ansi_color and not app.current_theme.dark
    filters = app._filters
    mine = [f for f in filters if isinstance(f, InkOnLightTerminal)]
    if not mine:
        mine = [InkOnLightTerminal(enabled=False)]
        filters.insert(0, mine[0])  # before NO_COLOR's filter, which would drop the colour
    mine[0].enabled = wanted


def screen_strips(app: App) -> list:
    """The screen on show, line by line (Textual ``Strip``s of Rich segments), as drawn now:
    overlays and notifications included, the app's colour filters applied."""
    return list(app.screen._compositor.render_strips())


def styled_as_now(screen: object, app: App) -> None:
    """Mark a screen as styled from the app's current stylesheet (see the module's note), as
    its widgets are when they are registered, once the app's first refresh has set the
    theme's variables. A refresh the app has pending (a theme just set) still reaches it when
    it is on show, as it reaches every screen there. A screen already marked keeps its mark."""
    if getattr(screen, "_css_update_count", None) == -1:
        screen._css_update_count = app._css_update_count


def footer_composes_now(footer: object) -> None:
    """Let a Footer compose its keys the first time it composes, not only after its screen has
    published its bindings once (``Footer._bindings_ready``)."""
    footer._bindings_ready = True  # type: ignore[attr-defined]


def parse_default_css_early(stylesheet: Stylesheet, widget_types: Iterable[type[DOMNode]]) -> None:
    """Parse these widget types' DEFAULT_CSS (their bases' too) into ``stylesheet``'s parse
    cache, as registering a widget of each type will look it up; a broken one is left for
    Textual to parse, and report, then."""
    for widget_type in widget_types:
        node = widget_type.__new__(widget_type)  # (only its class is read)
        for read_from, css, tie_breaker, scope in node._get_default_css():
            try:
                stylesheet._parse_rules(css, read_from, is_default_rules=True,
                                        tie_breaker=tie_breaker, scope=scope)  # fmt: skip
            except Exception:
                continue
