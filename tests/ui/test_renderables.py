"""Renderables shared by several screens, read as plain text at a given width."""

import numpy as np
from rich.console import Console

from attn_tui.render.heatmap import Heatmap
from attn_tui.render.steps import Fit, bar, columns


def plain(renderable, width: int) -> str:
    console = Console(width=width, record=True, file=open("/dev/null", "w"), color_system=None)
    console.print(renderable)
    return console.export_text()


WEIGHTS = np.array([[0.11, 0.09, 0.10, 0.12, 0.08, 0.10, 0.09, 0.11, 0.10, 0.10]] * 3)


def rows(text: str) -> list[str]:
    """The matrix rows without their labels (the first line is the column header)."""
    return [line[2:] for line in text.splitlines()[1:4]]


def test_heatmap_drops_decimals_to_fit_by_default():
    text = plain(Heatmap(WEIGHTS, places=2), 40)
    assert "0.11" not in text and all("0" in row for row in rows(text))  # 0.11 and 0.09 both read 0


def test_heatmap_all_or_shade_never_shows_fewer_decimals():
    wide = plain(Heatmap(WEIGHTS, places=2, all_or_shade=True), 80)
    assert "0.11" in wide and "0.09" in wide
    narrow = plain(Heatmap(WEIGHTS, places=2, all_or_shade=True), 40)
    assert not any(ch.isdigit() for row in rows(narrow) for ch in row), narrow  # shading alone


def test_columns_align_and_fit_picks_the_layout_that_fits():
    table = columns([["k₁", "1"], ["k₁₂", "−0.25"]], "lr")
    assert plain(table, 40).splitlines()[:2] == ["k₁       1", "k₁₂  −0.25"]
    wide, narrow = columns([["a" * 30]], "l"), columns([["b" * 10]], "l")
    assert "a" * 30 in plain(Fit(wide, narrow), 40)
    assert "b" * 10 in plain(Fit(wide, narrow), 20)


def test_bar_resolution():
    assert bar(0.5, 4) == "██  " and bar(1.0, 3) == "███" and bar(0.0, 2) == "  "
    assert bar(0.5, 1) == "▌" and bar(1 / 16, 1) == " "  # half a cell; under an eighth rounds away


def test_row_bar_has_half_cell_resolution_and_half_height():
    from attn_tui.render.steps import row_bar

    assert row_bar(0.5, 4) == "▄▄  " and row_bar(1.0, 3) == "▄▄▄" and row_bar(0.0, 2) == "  "
    assert row_bar(0.4, 4) == "▄▖  "  # 0.4 × 4 cells = 1.6 → 3 half cells
    assert all(len(row_bar(k / 16, 8)) == 8 for k in range(17))
    assert [row_bar(k / 16, 8).count("▄") * 2 + row_bar(k / 16, 8).count("▖")
            for k in range(17)] == list(range(17))  # fmt: skip


def test_the_softmax_bars_of_neighbouring_keys_stay_apart():
    """Issue 26 #24: full-height block bars in rows one under another merged into one block in
    the browser (xterm.js draws block glyphs to the cell's edges, with no gap between lines);
    the α bars are half-height, so every row's bar stands apart, and still in proportion."""
    from attn_tui.core.attention.steps import attend
    from attn_tui.render.steps import render_steps

    q = np.array([1.0, 0, 1])
    K = np.array([[1.0, 0, 0], [0, 1, 0], [1, 0, 1], [1, 1, 0]])
    s = attend(q, K)
    text = plain(render_steps(s, 3, show_all=False), 60)
    lines = [line for line in text.splitlines() if line.lstrip().startswith("k")]
    bars = [line.split()[-1] for line in lines if "▄" in line]
    assert len(bars) == 4, text
    assert not any(ch in "█▉▊▋▌▍▎▏" for line in lines for ch in line), text
    top = float(s.weights.max())
    for b, w in zip(bars, s.weights, strict=True):
        assert b.count("▄") * 2 + b.count("▖") == round(w / top * 16), (b, w)
