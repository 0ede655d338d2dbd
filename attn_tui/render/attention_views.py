"""Two pictures of attention weights as Rich renderables, made for a terminal.

    ModelView(weights)        every head of every layer side by side, small (BertViz's "model
                              view"): weights (layers, heads, n_q, n_k), one map per head
    HeadLines(weights, …)     one head's weights as lines between the tokens (BertViz's "head
                              view"): queries on the left, keys on the right, a line from
                              query i to key j as bright as a_ij; the focused query's lines
                              in colour, with its weights written beside the keys

ModelView packs two rows of a map into one line with the upper-half block "▀" (its colour
is one row, its background the next), so a 10 × 10 map takes 10 × 5 cells. HeadLines draws
on a Braille canvas: a terminal cell holds 2 × 4 dots, so lines between ten tokens stay
apart in ten lines of text. Both use the absolute 0–1 scale of ``heatmap.shade``: the same
colour means the same weight in every map. Under NO_COLOR or an ANSI theme
(``heatmap.in_colour``) ModelView draws one row of a map per line, each weight a shade glyph
░▒▓█, and HeadLines's weights beside the keys carry the values.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
from rich.color import Color
from rich.console import Console, ConsoleOptions, RenderResult
from rich.measure import Measurement
from rich.style import Style
from rich.text import Text

from attn_tui.core import format as fmt
from attn_tui.render.heatmap import glyph, in_colour, shade

GAP = 2  # cells between two maps


def _rgb(weight: float) -> Color:
    return Color.from_rgb(*shade(weight))


class ModelView:
    """Every head of every layer, side by side: rows = layers, columns = heads."""

    def __init__(
        self,
        weights: np.ndarray,
        *,
        layer_label: str = "{layer}",
        head_label: str = "{head}",
        masked: np.ndarray | None = None,
    ) -> None:
        self.weights = np.asarray(weights, float)  # (layers, heads, n_q, n_k)
        if self.weights.ndim != 4:
            raise ValueError("ModelView needs (layers, heads, n_q, n_k)")
        self.layer_label = layer_label
        self.head_label = head_label
        self.masked = masked  # (n_q, n_k) True where hidden (drawn as the lowest colour)

    def _map_width(self) -> int:
        head_w = max(fmt.cell_len(self.head_label.format(head=h + 1))
                     for h in range(self.weights.shape[1]))  # fmt: skip
        return max(self.weights.shape[3], head_w)

    def __rich_measure__(self, console: Console, options: ConsoleOptions) -> Measurement:
        heads = self.weights.shape[1]
        width = heads * self._map_width() + (heads - 1) * GAP
        return Measurement(self._map_width(), width)

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        layers, heads, n_q, n_k = self.weights.shape
        map_w = self._map_width()
        per_row = max(1, (options.max_width + GAP) // (map_w + GAP))  # heads that fit a line
        colour = in_colour(console)
        for layer in range(layers):
            if self.layer_label:  # (none: a caller titles the layer itself)
                yield Text(self.layer_label.format(layer=layer + 1), "bold")
            for first in range(0, heads, per_row):
                shown = range(first, min(heads, first + per_row))
                title = Text(no_wrap=True, overflow="crop")
                for h in shown:
                    title.append(f"{self.head_label.format(head=h + 1):<{map_w}}", "dim")
                    title.append(" " * GAP)
                if self.head_label:
                    yield title
                if not colour:  # one row per line, each weight a shade glyph
                    for i in range(n_q):
                        line = Text(no_wrap=True, overflow="crop")
                        for h in shown:
                            line.append("".join(glyph(w) for w in self.weights[layer, h, i]))
                            line.append(" " * (map_w - n_k + GAP))
                        yield line
                    continue
                for i in range(0, n_q, 2):  # two rows of each map per line of text
                    line = Text(no_wrap=True, overflow="crop")
                    for h in shown:
                        a = self.weights[layer, h]
                        for j in range(n_k):
                            top = _rgb(a[i, j])
                            bottom = _rgb(a[i + 1, j]) if i + 1 < n_q else None
                            line.append("▀", Style(color=top, bgcolor=bottom))
                        line.append(" " * (map_w - n_k + GAP))
                    yield line


# Braille: bit of the dot at (column, row) of a cell's 2 × 4 grid
_DOT = ((0x01, 0x02, 0x04, 0x40), (0x08, 0x10, 0x20, 0x80))
FOCUS_RAMP = ((40, 70, 90), (80, 200, 255))  # the focused query's lines: dim → bright cyan
OTHER_RAMP = ((45, 45, 45), (170, 170, 170))  # every other line: dark → light grey


def _mix(ramp, w: float) -> Color:
    (r0, g0, b0), (r1, g1, b1) = ramp
    w = min(max(w, 0.0), 1.0)
    return Color.from_rgb(round(r0 + (r1 - r0) * w), round(g0 + (g1 - g0) * w),
                          round(b0 + (b1 - b0) * w))  # fmt: skip


class HeadLines:
    """One head: a line from query i (left) to key j (right), brighter for a larger a_ij.

    ``focus``: the query whose lines are drawn in colour, with its weights printed after the
    keys; other queries' lines are grey, and hidden below ``floor``. Masked cells (weight 0)
    draw no line.
    """

    def __init__(
        self,
        weights: np.ndarray,
        q_labels: Sequence[str],
        k_labels: Sequence[str],
        *,
        focus: int | None = 0,
        floor: float = 0.3,
        max_canvas: int = 40,
    ) -> None:
        self.weights = np.asarray(weights, float)  # (n_q, n_k)
        self.q_labels = [str(x) for x in q_labels]
        self.k_labels = [str(x) for x in k_labels]
        self.focus = focus
        self.floor = floor
        self.max_canvas = max_canvas

    def _sides(self) -> tuple[int, int]:
        left = max(fmt.cell_len(x) for x in self.q_labels)
        right = max(fmt.cell_len(x) for x in self.k_labels) + (6 if self.focus is not None else 0)
        return left, right

    def __rich_measure__(self, console: Console, options: ConsoleOptions) -> Measurement:
        left, right = self._sides()
        return Measurement(left + right + 2 + 6, left + right + 2 + self.max_canvas)

    def _canvas(self, cells_w: int, rows: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Per cell: the Braille bits, the strongest weight and whether the focus drew there."""
        bits = np.zeros((rows, cells_w), np.int32)
        strength = np.full((rows, cells_w), -1.0)
        focused = np.zeros((rows, cells_w), bool)
        dots_w = 2 * cells_w
        n_q, n_k = self.weights.shape
        order = [(i, j) for i in range(n_q) for j in range(n_k) if i != self.focus]
        if self.focus is not None:
            order += [(self.focus, j) for j in range(n_k)]  # drawn last, so on top
        for i, j in order:
            w = float(self.weights[i, j])
            is_focus = i == self.focus
            if w <= 0 or (not is_focus and w < self.floor) or (is_focus and w < 0.02):
                continue
            y0, y1 = 4 * i + 1.5, 4 * j + 1.5  # the middle of the token's text row
            prev = None
            for x in range(dots_w):
                y = round(y0 + (y1 - y0) * x / (dots_w - 1))
                ys = [y] if prev is None else range(min(prev, y), max(prev, y) + 1)
                for yy in ys:  # a steep line fills the rows between two columns
                    r, c = yy // 4, x // 2
                    bits[r, c] |= _DOT[x % 2][yy % 4]
                    if is_focus and not focused[r, c]:
                        focused[r, c], strength[r, c] = True, w
                    elif is_focus or not focused[r, c]:
                        strength[r, c] = max(strength[r, c], w)
                prev = y
        return bits, strength, focused

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        left, right = self._sides()
        cells_w = max(6, min(self.max_canvas, options.max_width - left - right - 2))
        n_q, n_k = self.weights.shape
        rows = max(n_q, n_k)
        bits, strength, focused = self._canvas(cells_w, rows)
        for r in range(rows):
            line = Text(no_wrap=True, overflow="crop")
            if r < n_q:
                label = self.q_labels[r]
                pad = " " * (left - fmt.cell_len(label))
                line.append(pad + label, "bold reverse" if r == self.focus else "bold")
            else:
                line.append(" " * left)
            line.append(" ")
            for c in range(cells_w):
                if bits[r, c]:
                    ramp = FOCUS_RAMP if focused[r, c] else OTHER_RAMP
                    line.append(
                        chr(0x2800 + int(bits[r, c])), Style(color=_mix(ramp, strength[r, c]))
                    )
                else:
                    line.append(" ")
            line.append(" ")
            if r < n_k:
                line.append(self.k_labels[r], "bold")
                if self.focus is not None:
                    w = float(self.weights[self.focus, r])
                    line.append(" " * (right - 4 - fmt.cell_len(self.k_labels[r])))
                    line.append(fmt.fixed(w, 2))  # the terminal's own ink: it reads on any theme
            yield line
