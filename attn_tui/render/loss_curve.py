"""Small charts for the trainer: a loss curve in eighth-blocks, and a strip of dots per seed.

    LossCurve(losses, total=2000, height=4)   # the x axis spans the whole run, so a curve
                                              # that is still growing fills it left to right
    LossCurve(..., marks=[Mark(25, 339, "━", "yellow"), Mark(339, 339, "▼", "red")])
                                              # a line under the bars marks those steps
    strip(values, lo, hi, width, marks)       # one ● per seed on a line (a number where
                                              # several share a cell), ▲ for a reference

Both measure the width they are given and fit it; neither knows anything about training.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

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


@dataclass(frozen=True)
class Mark:
    """Steps ``first``–``last`` (1-based iterations) marked with ``char`` under the chart."""

    first: int
    last: int
    char: str
    style: str = "yellow"


def column_of(step: int, total: int, width: int) -> int:
    """The chart column whose stretch of iterations holds ``step`` (1-based)."""
    return min(max((step - 1) * width // max(total, 1), 0), width - 1)


class LossCurve:
    """The loss of every iteration as a bar chart ``height`` rows tall, 0 at the bottom.

    Each column is the mean loss of its stretch of iterations. The left margin names the
    top of the scale and 0; the line under the chart names the first and last iteration.
    ``marks`` (a plateau's steps, a drop's) are drawn on a line of their own between the two,
    each over the columns of its steps, later marks over earlier ones.
    """

    def __init__(self, losses: np.ndarray, total: int, height: int = 4, top: float | None = None,
                 style: str = "cyan", marks: Sequence[Mark] = ()) -> None:  # fmt: skip
        self.losses = np.asarray(losses, dtype=np.float64)
        self.total = max(int(total), 1)
        self.height = max(int(height), 1)
        finite = self.losses[np.isfinite(self.losses)]
        self.top = top if top is not None else (float(finite.max()) if finite.size else 1.0)
        if not (self.top > 0 and math.isfinite(self.top)):
            self.top = 1.0
        self.style = style
        self.marks = tuple(marks)

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
        if self.marks:
            yield self._mark_line(margin, width)
        first, last = "0", f"{self.total:,}"
        axis = " " * (margin + 1) + first + last.rjust(width - len(first))
        yield Text(axis, "dim", no_wrap=True, overflow="crop")

    def _mark_line(self, margin: int, width: int) -> Text:
        chars, styles = [" "] * width, [""] * width
        for mark in self.marks:
            a = column_of(mark.first, self.total, width)
            b = column_of(max(mark.last, mark.first), self.total, width)
            for c in range(a, b + 1):
                chars[c], styles[c] = mark.char, mark.style
        line = Text(" " * margin + "│", "dim", no_wrap=True, overflow="crop")
        for ch, st in zip(chars, styles, strict=True):
            line.append(ch, st)
        return line


def strip(values, lo: float, hi: float, width: int, marks: dict[str, float] | None = None,
          style: str = "cyan") -> Text:  # fmt: skip
    """Each value as a dot on a line from ``lo`` to ``hi``: ● one value, the true count where
    several share a cell. A count of 10 or more takes the empty cells beside it; with no room,
    it joins its neighbour and shows their sum over the cells both cover, so every number is
    how many values fall under it. ``marks`` adds other symbols (e.g. {"▲": 0.93}) on a free
    cell nearest their value."""
    width = max(width, 3)
    counts = [0] * width
    span = hi - lo if hi > lo else 1.0

    def cell(v: float) -> int:
        return min(max(round((v - lo) / span * (width - 1)), 0), width - 1)

    for v in values:
        if math.isfinite(v):
            counts[cell(v)] += 1
    groups = _label_groups(counts)
    chars = ["·"] * width
    styles = ["dim"] * width
    for first, last, n in groups:
        label = "●" if n == 1 else str(n)
        for k in range(first, last + 1):
            chars[k] = label[k - first] if k - first < len(label) else " "
            styles[k] = style
    taken = {k for first, last, _ in groups if last > first for k in range(first, last + 1)}
    for symbol, v in (marks or {}).items():
        if v is not None and math.isfinite(v):
            k = cell(v)  # over a one-cell dot as before; beside a wider number, not through it
            free = [j for j in range(width) if j not in taken]
            k = min(free, key=lambda j: (abs(j - k), j)) if free else k
            chars[k], styles[k] = symbol, "bold yellow"
    text = Text(no_wrap=True, overflow="crop")
    for ch, st in zip(chars, styles, strict=True):
        text.append(ch, st)
    return text


def _label_groups(counts: list[int]) -> list[tuple[int, int, int]]:
    """(first cell, last cell, count) of every label: a cell's count, widened into empty cells
    (right, then left) when its number needs more room, merged with a neighbour when both
    sides are taken."""
    groups = [[k, k, n] for k, n in enumerate(counts) if n]
    changed = True
    while changed:
        changed = False
        for i, (first, last, n) in enumerate(groups):
            need = 1 if n == 1 else len(str(n))
            if last - first + 1 >= need:
                continue
            right_free = last + 1 < len(counts) and (
                i + 1 == len(groups) or groups[i + 1][0] > last + 1
            )
            left_free = first > 0 and (i == 0 or groups[i - 1][1] < first - 1)
            if right_free:
                groups[i][1] += 1
            elif left_free:
                groups[i][0] -= 1
            else:  # hemmed in: join the nearer-sided neighbour (the right one if it exists)
                j = i + 1 if i + 1 < len(groups) else i - 1
                a, b = sorted((i, j))
                groups[a] = [groups[a][0], groups[b][1], groups[a][2] + groups[b][2]]
                del groups[b]
            changed = True
            break
    return [tuple(g) for g in groups]
