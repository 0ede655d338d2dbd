"""A paragraph that wraps Chinese between characters and English between words."""

from __future__ import annotations

from rich.console import Console, ConsoleOptions, RenderResult
from rich.measure import Measurement
from rich.style import StyleType
from rich.text import Text

from attn_tui.core.format import cell_len, wrap


class Prose:
    def __init__(self, text: str, style: StyleType = "") -> None:
        self.text = text
        self.style = style

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        for line in wrap(self.text, max(options.max_width, 8)):
            yield Text(line, style=self.style, no_wrap=True, overflow="crop")

    def __rich_measure__(self, console: Console, options: ConsoleOptions) -> Measurement:
        longest = max((cell_len(line) for line in self.text.split("\n")), default=0)
        return Measurement(min(8, longest), min(longest, options.max_width))


def fit_words(text: str, width: int) -> str:
    """`text` on one line of at most `width` cells: whole when it fits, else cut between words
    (between characters in Chinese) and marked " …" — an elision, never a number cut in two."""
    if cell_len(text) <= width:
        return text
    first = wrap(text, max(width - 2, 1))[0]
    return first + " …"
