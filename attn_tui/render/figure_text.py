"""A figure as plain text to copy out of the app (ctrl+g, screens/copying.py): the numbers a
learner pastes into numpy, a spreadsheet or a message.

Columns are aligned with spaces and labelled; a number is written with an ASCII "-" (the
screen's typographic "−" would not parse in Python or a spreadsheet) to a fixed number of
decimals, the precision the screen shows or more. A masked entry is written as it is on
screen's meaning: "-inf" for a score, 0 for a weight.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np

from attn_tui.core import format as fmt
from attn_tui.i18n import t


def number(x: float, places: int) -> str:
    """``x`` to ``places`` decimals, ASCII minus, never "-0.0000"; "-inf"/"inf"/"nan" as such."""
    x = float(x)
    if not math.isfinite(x):
        return "nan" if math.isnan(x) else ("-inf" if x < 0 else "inf")
    text = f"{x:.{places}f}"
    return text[1:] if text.startswith("-") and float(text) == 0 else text


def table(rows: Sequence[Sequence[str]], header: Sequence[str] = ()) -> str:
    """Right-aligned columns (the first, the labels, left-aligned), two spaces apart."""
    every = [list(header), *map(list, rows)] if header else [list(r) for r in rows]
    widths = [max(fmt.cell_len(r[c]) for r in every if c < len(r)) for c in range(len(every[0]))]
    lines = []
    for r in every:
        cells = []
        for c, text in enumerate(r):
            pad = " " * (widths[c] - fmt.cell_len(text))
            cells.append(text + pad if c == 0 else pad + text)
        lines.append("  ".join(cells).rstrip())
    return "\n".join(lines)


def matrix(
    values: np.ndarray,
    row_labels: Sequence[str],
    col_labels: Sequence[str],
    places: int = 4,
    corner: str = "",
) -> str:
    """A labelled matrix, one row per line."""
    m = np.asarray(values, float)
    rows = [[str(label), *(number(v, places) for v in m[i])] for i, label in enumerate(row_labels)]
    return table(rows, [corner, *map(str, col_labels)])


def attention_steps(r) -> str:
    """The calculator's computation (core AttentionSteps): per key its score q·k, the scaled
    score, the weight α; then the output Σ α_i v_i. Eight decimals: the steps show four."""
    scaled = t("app.copy.col.scaled") if r.scale else t("app.copy.col.unscaled")
    header = ["", "q·k", scaled, t("app.copy.col.weight")]
    rows = [[f"k{i + 1}", number(r.scores[i], 8), number(r.scaled[i], 8),
             number(r.weights[i], 8)] for i in range(r.n)]  # fmt: skip
    out = [table(rows, header), ""]
    out.append(t("app.copy.output") + "  " + "  ".join(number(x, 8) for x in r.output))
    settings = [t("app.copy.d", d=r.d), t("app.copy.scaled_on" if r.scale else "copy.scaled_off")]
    if r.hard:
        settings.append(t("app.copy.hard"))
    if r.temperature != 1:
        settings.append(f"T = {fmt.num(r.temperature)}")
    out.append("(" + ", ".join(settings) + ")")
    return "\n".join(out)
