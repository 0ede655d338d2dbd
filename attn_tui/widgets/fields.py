"""Input fields tuned for a screen that recomputes on every keystroke (the message line under
a field is ``widgets.panel.MessageLine``)."""

from __future__ import annotations

from textual.binding import Binding
from textual.events import Key
from textual.geometry import Region, Size
from textual.reactive import Reactive
from textual.widget import Widget
from textual.widgets import Checkbox, Input, OptionList, Select

from attn_tui.compat import SelectOverlay


class LineInput(Input):
    """An Input whose typing repaints itself instead of re-laying-out the whole screen.

    Textual's Input stores its text width in `virtual_size`, which on Widget is a reactive
    with `layout=True`: every keystroke that changes the length reflows every widget on the
    screen. A one-line field with a fixed size only needs a repaint; scrolling still follows
    the cursor, since the value is stored all the same.
    """

    virtual_size = Reactive(Size(0, 0), repaint=True)


class OpenList(OptionList):
    """A list whose Enter opens something: keys typed straight after Enter go to what it
    opens, and "down down enter" typed at once opens the third item.

    Its moves and Enter are priority keys, handled the moment they arrive rather than after
    the keys already on their way to it; Enter holds the keys typed after it (the app's
    ``hold_keys``) until the screen's ``OptionSelected`` handler, having opened the item and
    moved the focus, calls ``app.release_keys()``.
    """

    BINDINGS = [
        Binding(key, action, show=False, priority=True)
        for key, action in (("down", "cursor_down"), ("up", "cursor_up"), ("home", "first"),
                            ("end", "last"), ("pagedown", "page_down"), ("pageup", "page_up"),
                            ("enter", "select"))
    ]  # fmt: skip

    def action_select(self) -> None:
        if self.highlighted is not None and hasattr(self.app, "hold_keys"):
            self.app.hold_keys()
        super().action_select()


class Tick(Checkbox):
    """A compact checkbox whose state reads in plain text too: ✓ when on, blank when off.

    Typing at it ("1 1", meant for a field) must not flip it: a space straight after a typed
    character is taken as part of that typing, and the learner is told what has the focus.
    """

    _typing = False
    _told = False  # said once per visit, not once per key

    def on_key(self, event: Key) -> None:
        if event.key == "space" and self._typing:
            self._typing = False
            event.stop()
            event.prevent_default()
            return
        char = event.character
        self._typing = bool(char and char.isprintable() and not char.isspace())
        if self._typing and not self._told:
            from attn_tui.i18n import t

            self._told = True
            self.notify(t("app.tick_typing", label=str(self.label)), timeout=4)

    def on_blur(self) -> None:
        self._typing = self._told = False

    @property
    def BUTTON_INNER(self) -> str:  # type: ignore[override]  # Textual's name
        return "✓" if self.value else " "


def panel_of(widget: Widget) -> Widget:
    """The nearest ancestor drawn with a border (the panel a control sits in), else the screen."""
    for node in widget.ancestors:
        if isinstance(node, Widget) and any(edge[0] for edge in node.styles.border):
            return node
    return widget.screen


def inside_border(widget: Widget) -> Region:
    """The part of the screen within a widget's border (its padding included)."""
    return widget.region.shrink(widget.styles.border.spacing)


class PanelSelect(Select, inherit_bindings=False):
    """A drop-down whose menu opens inside the panel it sits in, never over the panel's border
    or the footer: below the control when the choices fit there, above it when there is more
    room above, scrolling when neither has room for all of them.

    Enter or Space opens it; Down and Up move to the next and previous control, as they do
    between a form's fields (Textual's Select opened on Down, so a learner walking down the
    settings landed in a menu)."""

    BINDINGS = [
        Binding("enter,space", "show_overlay", show=False),
        Binding("down", "app.focus_next", show=False),
        Binding("up", "app.focus_previous", show=False),
    ]

    DEFAULT_CSS = """
    PanelSelect > SelectOverlay {
        border: round $border-blurred;
        & > .option-list--option { padding: 0; }
    }
    """

    def watch_expanded(self, expanded: bool) -> None:
        # Textual calls a Select's own (private) watcher first, which shows the menu
        if expanded:
            self.fit_menu()

    def fit_menu(self) -> None:
        overlay = self.query_one(SelectOverlay)
        room = inside_border(panel_of(self))
        top = self.region.y
        need = overlay.option_count + 2  # one row per choice, and the menu's own border
        below = room.bottom - (top + 1)
        above = top - room.y
        if need <= below or below >= above:
            height, offset = min(need, below), 0
        else:  # drop up: the menu ends on the row above the control
            height = min(need, above)
            offset = -(height + 1)
        overlay.styles.max_height = max(height, 3)
        overlay.styles.offset = (0, offset)
