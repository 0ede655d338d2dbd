"""A Static that lays the screen out again only when its height can have changed.

Every ``Static.update`` asks for a full layout by default, and a layout reflows every widget on
the screen: ~20× a repaint, twenty times a second while a run trains. A :class:`Panel` knows
what decides its height and repaints alone while that stays the same:

- ``show(renderable, shape)``: ``shape`` is whatever decides the height (the width, the
  language, whether there is data yet); a layout only when it changes;
- ``show_counted(renderable, width)``: for a panel whose height follows its numbers (a figure
  one digit longer can wrap a line), the lines it takes at ``width`` are counted and the
  height set to them; a layout only when the count changes.

:class:`MessageLine` is the one-line (or wrapped) message under a form: shown while it has
text (class ``-shown``), left alone when the text is unchanged.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable

from rich.console import RenderableType
from textual.widgets import Static


class Panel(Static):
    """A Static whose updates repaint, and lay out only when its height can change."""

    _shape: Hashable = None  # what decided the height at the last update
    _lines = -1  # the height set by the last show_counted

    def show(self, renderable: RenderableType, shape: Hashable) -> None:
        layout = shape != self._shape
        self._shape = shape
        self.update(renderable, layout=layout)

    def show_counted(self, renderable: RenderableType, width: int) -> None:
        console = self.app.console
        options = console.options.update_width(max(width, 1))
        lines = len(console.render_lines(renderable, options, pad=False))
        if lines != self._lines:
            self._lines = lines
            self.styles.height = lines
        self.update(renderable, layout=False)

    def forget(self) -> None:
        """Lay out at the next update (after a resize, or when shown again)."""
        self._shape, self._lines = None, -1


class MessageLine(Static):
    """A message under a form: shown (class ``-shown``) while it has text, optionally drawn
    by ``render`` (e.g. Prose, so Chinese wraps well); an unchanged text is left alone (every
    update relays the screen out, and message lines are refreshed on every keystroke)."""

    _said: str | None = None

    def __init__(
        self,
        render: Callable[[str], RenderableType] | None = None,
        *,
        id: str | None = None,
        classes: str | None = None,
    ) -> None:
        super().__init__(id=id, classes=classes)
        self._draw_with = render

    @property
    def said(self) -> str:
        return self._said or ""

    def say(self, text: str) -> None:
        if text == self._said:
            return
        self._said = text
        self.update(self._draw_with(text) if self._draw_with is not None and text else text)
        self.set_class(bool(text), "-shown")
