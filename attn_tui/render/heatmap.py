"""A labelled matrix as a Rich renderable: cells shaded by value, numbers when they fit.

    Heatmap(weights, row_labels=queries, col_labels=keys, masked=~allowed, cursor=(i, j),
            extra=row_sums, extra_title="sum")

Rows are labelled on the left and columns on top (both may be Chinese: widths are counted
in terminal cells). The renderable measures the room it is given and picks the most precise
form that fits: every value to ``places`` decimals (or as ``cell_text`` writes it), then fewer
decimals, then shading alone (two cells per entry, column labels cut to two cells), then
shading without the gaps between cells. Under NO_COLOR and on an ANSI theme (the
terminal's 16 colours) no cell is coloured: the numbers carry the value, or, for shading
alone, the glyphs ░▒▓█ (see :func:`in_colour`). Masked cells show ``masked_text``
(−∞ for scores, 0 for weights) unshaded, so a mask's pattern reads at a glance. A cursor
cell keeps its colour (so it never looks like the strongest cell) and is framed by ▕ ▏ in
the gaps beside it, its row and column labels inverted; ``highlight`` cells and the
``diagonal`` are underlined (the trainer uses that for the reversal anti-diagonal). When
fewer decimals than ``places`` had to be shown, ``rounded_note`` (if given) says so below.

Used by the lab screen for scores, weights, Q/K/V and outputs; nothing lab-specific here.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Sequence

import numpy as np
from rich.color import Color
from rich.console import Console, ConsoleOptions, RenderResult
from rich.measure import Measurement
from rich.style import Style
from rich.text import Text

from attn_tui.core import format as fmt
from attn_tui.render import palette
from attn_tui.render.prose import Prose

# Low → high: a cividis-like ramp (Nuñez, Anderton & Renslow 2018): dark blue, grey, yellow.
# Its lightness rises steadily from end to end, and does so too as a reader with protanopia,
# deuteranopia or tritanopia sees it (tests/ui/test_heatmap_palette.py simulates each), so a
# larger value is a lighter cell for every reader; no red against green anywhere.
RAMP = ((0, 34, 78), (59, 73, 108), (124, 123, 120), (188, 175, 111), (254, 232, 56))
BLACK, WHITE = (0, 0, 0), (255, 255, 255)
LABEL = Style(bold=True)
CURSOR_LABEL = Style(bold=True, reverse=True)
CURSOR_FRAME = Style(bold=True)
MASKED = Style(dim=True)
SPARK = "░▒▓█"


def shade(fraction: float) -> tuple[int, int, int]:
    """The ramp's colour at ``fraction`` (0 → low end, 1 → high end), linear between stops."""
    f = min(max(fraction, 0.0), 1.0) * (len(RAMP) - 1)
    k = min(int(f), len(RAMP) - 2)
    a, b = RAMP[k], RAMP[k + 1]
    u = f - k
    r, g, bl = (round(x + (y - x) * u) for x, y in zip(a, b, strict=True))
    return (r, g, bl)


def luminance(rgb: tuple[int, int, int]) -> float:
    """WCAG's relative luminance of an sRGB colour (0 black … 1 white)."""

    def linear(c: int) -> float:
        c = c / 255
        return c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4

    r, g, b = rgb
    return 0.2126 * linear(r) + 0.7152 * linear(g) + 0.0722 * linear(b)


def contrast(a: tuple[int, int, int], b: tuple[int, int, int]) -> float:
    """WCAG's contrast ratio of two colours, 1 to 21."""
    hi, lo = sorted((luminance(a), luminance(b)), reverse=True)
    return (hi + 0.05) / (lo + 0.05)


def ink_on(rgb: tuple[int, int, int]) -> tuple[int, int, int]:
    """Black or white, whichever reads better on ``rgb`` (at least 4.58:1 on any colour)."""
    return BLACK if contrast(BLACK, rgb) >= contrast(WHITE, rgb) else WHITE


def in_colour(console: Console) -> bool:
    """Whether cells may be told apart by colour: not under NO_COLOR, nor on an ANSI theme,
    which draws in the terminal's own 16 colours (``palette.draw_without_colour``: squeezed
    into 16, the ramp put numbers on a background of their own colour). Without colour the
    numbers, or the shade glyphs ░▒▓█, carry the value."""
    return not console.no_color and not palette.without_colour()


def glyph(fraction: float) -> str:
    """The shade glyph for ``fraction`` of the scale: ░ ▒ ▓ █, low to high."""
    return SPARK[min(len(SPARK) - 1, max(0, int(min(max(fraction, 0.0), 1.0) * len(SPARK))))]


def _cell_style(fraction: float, colour: bool = True) -> Style:
    if not colour:
        return Style()
    rgb = shade(fraction)
    return Style(color=Color.from_rgb(*ink_on(rgb)), bgcolor=Color.from_rgb(*rgb))


def _fit(text: str, width: int, justify: str = "right") -> str:
    """Pad (or cut) ``text`` to exactly ``width`` terminal cells."""
    size = fmt.cell_len(text)
    if size > width:
        out, used = "", 0
        for ch in text:
            w = fmt.cell_len(ch)
            if used + w > width:
                break
            out += ch
            used += w
        return out + " " * (width - used)
    pad = width - size
    if justify == "left":
        return text + " " * pad
    if justify == "center":
        return " " * (pad // 2) + text + " " * (pad - pad // 2)
    return " " * pad + text


class Heatmap:
    """A matrix with labelled rows and columns, shaded low → high.

    values: (rows, cols). masked: same shape, True where the cell is hidden (its value is
    ignored for the colour scale). cursor: (row, col) drawn inverted. highlight: cells to
    underline; diagonal underlines (i, i). extra: one string per row shown after the matrix
    under ``extra_title`` (row sums, say). vmin/vmax fix the colour scale (default: the
    unmasked finite values' range). legend adds a line with the scale's two ends.
    all_or_shade: when `places` decimals do not fit, show shading alone rather than fewer
    decimals (weights near 1/L would all read "0.1" and hide the differences that matter).
    cell_text: writes a cell's value instead of `places` decimals (e.g. weights as whole
    percents); implies all_or_shade. extra_styles: one style per row for `extra` (default dim).
    legend_note: text after the legend's scale (what the scale is, a reference level).
    cut_text: where ``places`` decimals do not fit, write each cell this way (e.g. a weight as
    whole percents: 0.1242 → "12") before giving up to shading alone, and say ``cut_note``
    below; fewer decimals are never shown then (0.12 and 0.08 would both read "0.1").
    """

    def __init__(
        self,
        values: np.ndarray | Sequence[Sequence[float]],
        row_labels: Sequence[str] | None = None,
        col_labels: Sequence[str] | None = None,
        *,
        title: str | Text | None = None,
        masked: np.ndarray | None = None,
        masked_text: str = "−∞",
        cursor: tuple[int, int] | None = None,
        highlight: Iterable[tuple[int, int]] = (),
        diagonal: bool = False,
        places: int = 2,
        sign: bool = False,
        extra: Sequence[str] | None = None,
        extra_title: str = "",
        vmin: float | None = None,
        vmax: float | None = None,
        legend: bool = False,
        all_or_shade: bool = False,
        cell_text: Callable[[float], str] | None = None,
        extra_styles: Sequence[str] | None = None,
        legend_note: str = "",
        rounded_note: Callable[[int], str] | None = None,
        cut_text: Callable[[float], str] | None = None,
        cut_note: str = "",
    ) -> None:
        self.values = np.asarray(values, dtype=float)
        if self.values.ndim != 2:
            raise ValueError("a heatmap needs a 2-D matrix")
        n_rows, n_cols = self.values.shape
        self.row_labels = [str(x) for x in (row_labels or range(1, n_rows + 1))]
        self.col_labels = [str(x) for x in (col_labels or range(1, n_cols + 1))]
        self.title = title
        self.masked = (
            np.zeros(self.values.shape, dtype=bool) if masked is None else np.asarray(masked, bool)
        )
        self.masked_text = masked_text
        self.cursor = cursor
        self.highlight = set(highlight)
        if diagonal:
            self.highlight |= {(i, i) for i in range(min(n_rows, n_cols))}
        self.places = places
        self.sign = sign
        self.extra = list(extra) if extra is not None else None
        self.extra_title = extra_title
        self.legend = legend
        self.cell_text = cell_text
        self.all_or_shade = all_or_shade or cell_text is not None
        self.extra_styles = list(extra_styles) if extra_styles is not None else None
        self.legend_note = legend_note
        self.rounded_note = rounded_note  # decimals shown → the sentence saying so
        self.cut_text = cut_text
        self.cut_note = cut_note
        if cut_text is not None:
            self.all_or_shade = True
        shown = self.values[~self.masked & np.isfinite(self.values)]
        lo = float(shown.min()) if shown.size else 0.0
        hi = float(shown.max()) if shown.size else 1.0
        self.vmin = lo if vmin is None else vmin
        self.vmax = hi if vmax is None else vmax

    # ---- sizes ---------------------------------------------------------------------------
    def _label_width(self) -> int:
        return max((fmt.cell_len(label) for label in self.row_labels), default=0)

    def _extra_width(self) -> int:
        if self.extra is None:
            return 0
        return max([fmt.cell_len(self.extra_title), *(fmt.cell_len(e) for e in self.extra)])

    def _texts(self, places: int | None, cut: bool = False) -> list[list[str]]:
        """Each cell's text at ``places`` decimals (or as ``cut_text`` writes it, ``cut``), or
        '' for shading alone (places=None)."""
        rows = []
        for i, row in enumerate(self.values):
            texts = []
            for j, v in enumerate(row):
                if self.masked[i, j] or not math.isfinite(v):
                    texts.append(self.masked_text if places is not None else "··")
                elif places is None:
                    texts.append("")
                elif cut and self.cut_text is not None:
                    texts.append(self.cut_text(float(v)))
                elif self.cell_text is not None:
                    texts.append(self.cell_text(float(v)))
                else:
                    texts.append(fmt.fixed(v, places, sign=self.sign))
            rows.append(texts)
        return rows

    def _cell_width(self, texts: list[list[str]], full_labels: bool) -> int:
        widths = [fmt.cell_len(x) for row in texts for x in row] or [1]
        if full_labels:
            widths += [fmt.cell_len(c) for c in self.col_labels]
        return max(2, *widths)

    def _width(self, cell: int, gap: int = 1) -> int:
        n_cols = self.values.shape[1]
        extra = self._extra_width()
        # the last cell's gap separates the extra column (one space when there are no gaps)
        return self._label_width() + 1 + n_cols * (cell + gap) + (extra + 1 - gap if extra else 0)

    def _layout(self, max_width: int) -> tuple[list[list[str]], int, bool, int, int | None]:
        """The most precise (texts, cell width, full labels, gap, decimals) that fits; decimals
        -1 when the cells are written by ``cut_text``."""
        for places in [self.places] if self.all_or_shade else range(self.places, -1, -1):
            texts = self._texts(places)
            cell = self._cell_width(texts, full_labels=True)
            if self._width(cell) <= max_width:
                return texts, cell, True, 1, places
        if self.cut_text is not None:
            texts = self._texts(self.places, cut=True)
            cell = self._cell_width(texts, full_labels=True)
            if self._width(cell) <= max_width:
                return texts, cell, True, 1, -1
        texts = self._texts(None)
        gap = 1 if self._width(2) <= max_width else 0  # many columns: shading edge to edge
        return texts, 2, False, gap, None

    # ---- Rich protocol -------------------------------------------------------------------
    def __rich_measure__(self, console: Console, options: ConsoleOptions) -> Measurement:
        full = self._width(self._cell_width(self._texts(self.places), full_labels=True))
        smallest = self._width(2, gap=0)
        title = fmt.cell_len(self.title.plain if isinstance(self.title, Text) else self.title or "")
        return Measurement(smallest, max(full, min(title, options.max_width)))

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        texts, cell, full_labels, gap, places = self._layout(options.max_width)
        colour = in_colour(console)
        sep = " " * gap
        if self.title:
            title = self.title if isinstance(self.title, Text) else Text(self.title, "bold")
            yield title
        label_w = self._label_width()
        extra_w = self._extra_width()
        cur_i, cur_j = self.cursor if self.cursor is not None else (-1, -1)

        header = Text(" " * (label_w + 1), no_wrap=True, overflow="crop")
        for j, label in enumerate(self.col_labels):
            style = CURSOR_LABEL if j == cur_j else LABEL
            header.append(_fit(label, cell, "right" if full_labels else "left"), style)
            header.append(sep)
        if self.extra is not None:
            header.append(" " * (1 - gap) + _fit(self.extra_title, extra_w), "dim")
        yield header

        span = self.vmax - self.vmin
        for i, row in enumerate(texts):
            line = Text(no_wrap=True, overflow="crop")
            line.append(_fit(self.row_labels[i], label_w, "left"),
                        CURSOR_LABEL if i == cur_i else LABEL)  # fmt: skip
            line.append(" ")
            for j, text in enumerate(row):
                v = float(self.values[i, j])
                if self.masked[i, j] or not math.isfinite(v):
                    style = MASKED
                else:
                    fraction = (v - self.vmin) / span if span > 0 else 0.5
                    style = _cell_style(fraction, colour)
                    if not colour and not text.strip():  # shading alone, without colour
                        text = glyph(fraction) * cell
                if (i, j) in self.highlight:
                    style += Style(underline=True, bold=True)
                if (i, j) == (cur_i, cur_j):  # the colour stays the value's; framed in the gaps
                    style += Style(bold=True)
                    if not text.strip() or (not colour and not gap and places is None):
                        text = "◆"  # (without colour or gaps a frame could not show it)
                    if gap:
                        line.right_crop(1)
                        line.append("▕", CURSOR_FRAME)
                        line.append(_fit(text, cell), style)
                        line.append("▏", CURSOR_FRAME)
                        continue
                line.append(_fit(text, cell), style)
                line.append(sep)
            if self.extra is not None:
                extra_style = self.extra_styles[i] if self.extra_styles is not None else "dim"
                line.append(" " * (1 - gap) + _fit(self.extra[i], extra_w), extra_style)
            yield line
        if self.legend:
            yield self._legend(colour)
        if self.legend_note:  # a line of its own, so a long note wraps instead of being cut
            yield Text(self.legend_note, "dim")
        if places == -1 and self.cut_note:
            yield Prose(self.cut_note, "dim")  # (Chinese wraps between characters)
        elif self.rounded_note and places is not None and 0 <= places < self.places:
            yield Text(self.rounded_note(places), "dim")

    def _legend(self, colour: bool = True) -> Text:
        text = Text(no_wrap=True, overflow="crop")
        write = self.cell_text or (lambda v: fmt.fixed(v, 2))  # the ends as the cells read
        text.append(write(self.vmin) + " ", "dim")
        for k in range(8):
            text.append(" " if colour else glyph(k / 7), _cell_style(k / 7, colour))
        text.append(" " + write(self.vmax), "dim")
        if self.masked.any():
            text.append(f"   {self.masked_text}", MASKED)
        return text
