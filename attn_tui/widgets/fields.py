"""Input fields tuned for a screen that recomputes on every keystroke."""

from __future__ import annotations

from collections.abc import Callable

from rich.console import RenderableType
from textual.geometry import Size
from textual.reactive import Reactive
from textual.widgets import Checkbox, Input, Static


def say(line: Static, text: str, render: Callable[[str], RenderableType] | None = None) -> None:
    """Show `text` in a message line (class `-shown` while non-empty), optionally drawn by
    `render` (e.g. Prose, so Chinese wraps well).

    An unchanged message is left alone: every Static.update asks for a full relayout, and
    message lines are refreshed on every keystroke, which cost ~20 ms a key at 120×40.
    """
    if line.__dict__.get("_said") == text:
        return
    line.__dict__["_said"] = text
    line.update(render(text) if render is not None and text else text)
    line.set_class(bool(text), "-shown")


class LineInput(Input):
    """An Input whose typing repaints itself instead of re-laying-out the whole screen.

    Textual's Input stores its text width in `virtual_size`, which on Widget is a reactive
    with `layout=True`: every keystroke that changes the length reflows every widget on the
    screen. A one-line field with a fixed size only needs a repaint; scrolling still follows
    the cursor, since the value is stored all the same.
    """

    virtual_size = Reactive(Size(0, 0), repaint=True)


class Tick(Checkbox):
    """A compact checkbox whose state reads in plain text too: ✓ when on, blank when off."""

    @property
    def BUTTON_INNER(self) -> str:  # type: ignore[override]  # noqa: N802 (Textual's name)
        return "✓" if self.value else " "
