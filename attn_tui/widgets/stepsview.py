"""A scrollable view of one Rich renderable, drawn with Textual's Line API (a RichLog).

Replacing the content renders it once into strips and repaints this widget's own region;
a Static inside a scroll container would instead re-measure and re-lay-out the whole
screen on every keystroke (about 20 ms a key at 120×40 with 32 keys of 64 dimensions).
(A hand-written ScrollView did the same job but, in tmux, left the neighbouring panel's
rows damaged after a step change in Chinese; RichLog's tested drawing does not.)

Three more things keep a keystroke cheap. The steps arrive as finished lines (``Lines``),
turned into strips here without passing through Rich's renderer, and only when a line is
drawn (a panel shows 20 of 200). And the lines are swapped in place: RichLog's ``clear()``
followed by ``write()`` resized the log to nothing and back, and each change of its virtual
size asked Textual to lay out the whole screen again; here the size is set only when the
number of lines really changes.
"""

from __future__ import annotations

from collections.abc import Sequence

from rich.console import RenderableType
from rich.segment import Segment
from rich.style import Style
from textual.events import Resize
from textual.geometry import Size
from textual.strip import Strip
from textual.widgets import RichLog

from attn_tui.core.format import cell_len
from attn_tui.render.steps import AtWidth, Lines, Piece


class _LazyStrips(Sequence):
    """Lines of pieces that become Strips when first drawn."""

    def __init__(self, lines: list[list[Piece]], width: int) -> None:
        self._lines = lines
        self._width = width
        self._made: dict[int, Strip] = {}

    def __len__(self) -> int:
        return len(self._lines)

    def __getitem__(self, y):  # an int, or a slice (a list back)
        if isinstance(y, slice):
            return [self[i] for i in range(*y.indices(len(self)))]
        if y < 0:
            y += len(self)
        strip = self._made.get(y)
        if strip is None:
            pieces = self._lines[y]
            segments = [Segment(text, style) for text, style in pieces]
            length = sum(cell_len(text) for text, _ in pieces)
            strip = Strip(segments, length).adjust_cell_length(self._width)
            self._made[y] = strip
        return strip


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
        """Replace what is shown, rendered at the current content width (or, before the
        widget has been laid out, at the width it has when first drawn)."""
        self._content = content
        width = self.scrollable_content_region.width
        if not width:
            self._drawn_width = 0
            self.lines = []
            self._line_cache.clear()
            self.refresh()
            return
        self._draw_at(width)
        self.refresh()

    def _draw_at(self, width: int, *, painting: bool = False) -> None:
        strips = self._strips(self._content, width)
        self._drawn_width = width
        self.lines = strips  # type: ignore[assignment]  # a lazy sequence of Strips
        self._line_cache.clear()
        self._start_line = 0
        self._widest_line_width = width
        size = Size(width, len(strips))
        if self.virtual_size == size:
            return
        height = self.scrollable_content_region.height
        if painting and max(self.virtual_size.height, size.height) <= height:
            # drawn for the first time at this width, and no scrollbar comes or goes: the
            # size is taken without asking for a layout (another frame, all of it the same)
            self.set_reactive(StepsView.virtual_size, size)
        else:
            self.virtual_size = size  # a relayout only when the height really changes

    def _strips(self, content: RenderableType, width: int) -> Sequence[Strip]:
        if isinstance(content, AtWidth):
            content = content.build(width)
        if isinstance(content, Lines):
            return _LazyStrips(content.lines, width)
        console = self.app.console
        options = console.options.update_width(width)
        lines = list(Segment.split_lines(console.render(content, options)))
        return [strip.adjust_cell_length(width) for strip in Strip.from_lines(lines)] or [
            Strip.blank(width)
        ]

    _line_style: Style | None = None  # this widget's style, worked out once per style change

    def notify_style_update(self) -> None:
        super().notify_style_update()
        self._line_style = None

    def render_line(self, y: int) -> Strip:
        """RichLog's, with the widget's style computed once rather than for every line (it
        walks every ancestor: 40 lines a keystroke made it a visible part of the cost)."""
        scroll_x, scroll_y = self.scroll_offset
        width = self.scrollable_content_region.width
        if width and width != self._drawn_width:
            # first drawn (or drawn at a new width) before its Resize has arrived: the
            # lines are made now, so the first frame has them, not the one after
            self._draw_at(width, painting=True)
        line = self._render_line(scroll_y + y, scroll_x, width)
        if self._line_style is None:
            self._line_style = self.rich_style
        return line.apply_style(self._line_style)

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
