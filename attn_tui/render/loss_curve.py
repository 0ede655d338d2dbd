"""Small charts for the trainer: a loss curve in eighth-blocks, and a strip of dots per seed.

    LossCurve(losses, total=2000, height=4)   # the x axis spans the whole run, so a curve
                                              # that is still growing fills it left to right
    strip(values, lo, hi, width, marks)       # one ● per seed on a line, ▲ for a reference

Both measure the width they are given and fit it; neither knows anything about training.
"""

from __future__ import annotations

import math

import numpy as np
from rich.console import Console, ConsoleOptions, RenderResult
from rich.measure import Measurement
from rich.text import Text

from attn_tui.core import format as fmt

EIGHTHS = " ▁▂▃▄▅▆▇█"


def bucket_means(values: np.ndarray, total: int, width: int) -> np.ndarray:
    """Mean of each of ``width`` equal stretches of ``range(total)``; NaN where no value is in
    yet (the run has not reached that stretch)."""
    out = np.full(width, np.nan)
    n = len(values)
    if n == 0 or total <= 0:
        return out
    edges = np.linspace(0, total, width + 1)
    for c in range(width):
        a, b = int(edges[c]), max(int(edges[c + 1]), int(edges[c]) + 1)
        if a >= n:
            break
        chunk = values[a : min(b, n)]
        chunk = chunk[np.isfinite(chunk)]
        if chunk.size:
            out[c] = float(chunk.mean())
    return out


class LossCurve:
    """The loss of every iteration as a bar chart ``height`` rows tall, 0 at the bottom.

    Each column is the mean loss of its stretch of iterations. The left margin names the
    top of the scale and 0; the line under the chart names the first and last iteration.
    """

    def __init__(self, losses: np.ndarray, total: int, height: int = 4, top: float | None = None,
                 style: str = "cyan") -> None:  # fmt: skip
        self.losses = np.asarray(losses, dtype=np.float64)
        self.total = max(int(total), 1)
        self.height = max(int(height), 1)
        finite = self.losses[np.isfinite(self.losses)]
        self.top = top if top is not None else (float(finite.max()) if finite.size else 1.0)
        if not (self.top > 0 and math.isfinite(self.top)):
            self.top = 1.0
        self.style = style

    def _margin(self) -> int:
        return max(len(fmt.fixed(self.top, 2)), 4)

    def __rich_measure__(self, console: Console, options: ConsoleOptions) -> Measurement:
        return Measurement(self._margin() + 10, options.max_width)

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        margin = self._margin()
        width = max(options.max_width - margin - 1, 4)
        means = bucket_means(self.losses, self.total, width)
        levels = np.where(np.isfinite(means), np.clip(means / self.top, 0, 1) * self.height * 8, -1)
        for row in range(self.height - 1, -1, -1):  # top row first
            label = fmt.fixed(self.top, 2) if row == self.height - 1 else ("0" if row == 0 else "")
            line = Text(label.rjust(margin) + "┤" if label else " " * margin + "│", "dim",
                        no_wrap=True, overflow="crop")  # fmt: skip
            cells = []
            for level in levels:
                if level < 0:
                    cells.append(" ")
                    continue
                filled = level - row * 8
                if row == 0 and filled < 1:
                    filled = 1  # a column that has data always shows
                cells.append(EIGHTHS[int(min(max(filled, 0), 8))])
            line.append("".join(cells), self.style)
            yield line
        first, last = "0", f"{self.total:,}"
        axis = " " * (margin + 1) + first + last.rjust(width - len(first))
        yield Text(axis, "dim", no_wrap=True, overflow="crop")


def strip(values, lo: float, hi: float, width: int, marks: dict[str, float] | None = None,
          style: str = "cyan") -> Text:  # fmt: skip
    """Each value as a dot on a line from ``lo`` to ``hi``: ● one value, a digit where several
    share a cell (9 means 9 or more). ``marks`` adds other symbols (e.g. {"▲": 0.93})."""
    width = max(width, 3)
    counts = [0] * width
    span = hi - lo if hi > lo else 1.0

    def cell(v: float) -> int:
        return min(max(round((v - lo) / span * (width - 1)), 0), width - 1)

    for v in values:
        if math.isfinite(v):
            counts[cell(v)] += 1
    chars = ["·" if n == 0 else ("●" if n == 1 else str(min(n, 9))) for n in counts]
    styles = ["dim" if n == 0 else style for n in counts]
    for symbol, v in (marks or {}).items():
        if v is not None and math.isfinite(v):
            k = cell(v)
            chars[k], styles[k] = symbol, "bold yellow"
    text = Text(no_wrap=True, overflow="crop")
    for ch, st in zip(chars, styles, strict=True):
        text.append(ch, st)
    return text
