"""Input fields tuned for a screen that recomputes on every keystroke."""

from __future__ import annotations

from textual.geometry import Size
from textual.reactive import Reactive
from textual.widgets import Input


class LineInput(Input):
    """An Input whose typing repaints itself instead of re-laying-out the whole screen.

    Textual's Input stores its text width in `virtual_size`, which on Widget is a reactive
    with `layout=True`: every keystroke that changes the length reflows every widget on the
    screen. A one-line field with a fixed size only needs a repaint; scrolling still follows
    the cursor, since the value is stored all the same.
    """

    virtual_size = Reactive(Size(0, 0), repaint=True)
