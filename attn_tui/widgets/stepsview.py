"""A scrollable view of one Rich renderable, drawn with Textual's Line API (a RichLog).

Replacing the content renders it once into strips and repaints this widget's own region;
a Static inside a scroll container would instead re-measure and re-lay-out the whole
screen on every keystroke (about 20 ms a key at 120×40 with 32 keys of 64 dimensions).
(A hand-written ScrollView did the same job but, in tmux, left the neighbouring panel's
rows damaged after a step change in Chinese; RichLog's tested drawing does not.)
"""

from __future__ import annotations

from rich.console import RenderableType
from textual.events import Resize
from textual.widgets import RichLog


class StepsView(RichLog, can_focus=True):
    DEFAULT_CSS = """
    StepsView {
        height: 1fr;
        background: transparent;
        border: none;
        padding: 0;
        overflow-x: hidden;
        scrollbar-size-vertical: 1;
        /* Content is rendered at the content width; a scrollbar appearing later would
           cover its last column, so the gutter is always reserved. */
        scrollbar-gutter: stable;
    }
    """

    def __init__(self, *, id: str | None = None, classes: str | None = None) -> None:
        super().__init__(id=id, classes=classes, wrap=True, auto_scroll=False, markup=False)
        self._content: RenderableType = ""
        self._drawn_width = 0

    def show(self, content: RenderableType) -> None:
        """Replace what is shown, rendered at the current content width."""
        self._content = content
        width = self.scrollable_content_region.width
        self.clear()
        self.write(content, width=width or None, scroll_end=False)
        self._drawn_width = width

    @property
    def content(self) -> RenderableType:
        return self._content

    @property
    def text(self) -> str:
        """The plain text shown, one line per row (what a learner reads)."""
        return "\n".join(strip.text.rstrip() for strip in self.lines)

    def on_resize(self, event: Resize) -> None:
        super().on_resize(event)
        if self.scrollable_content_region.width != self._drawn_width:
            self.show(self._content)
