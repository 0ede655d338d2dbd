"""The seed strip (F10's dots, one per seed) shows how many seeds share a cell, however many.

It capped the count at 9: ten seeds at 1.000 printed "9" beside a legend saying "a digit =
that many seeds in one cell".
"""

import re

from hypothesis import given, settings
from hypothesis import strategies as st

from attn_tui.i18n import t
from attn_tui.render.loss_curve import _label_groups, strip


def test_ten_seeds_in_one_cell_print_10():
    assert strip([1.0] * 10, 0.9, 1.0, 20).plain == "·" * 18 + "10"
    assert strip([0.9] * 12, 0.9, 1.0, 20).plain == "12" + "·" * 18


def test_a_count_hemmed_in_by_neighbours_is_summed_over_the_cells_it_covers():
    # 10 seeds at 1.0 (cell 9) and 3 at 0.99 (cell 8): "13" over cells 8-9, nothing hidden
    assert strip([1.0] * 10 + [0.99] * 3, 0.9, 1.0, 10).plain == "········13"


def test_a_mark_does_not_cut_through_a_number():
    line = strip([0.95] * 12, 0.9, 1.0, 21, {"▲": 0.95}).plain
    assert "12" in line and line.count("▲") == 1


@settings(max_examples=300, deadline=None)
@given(
    st.lists(st.sampled_from([0.9, 0.91, 0.95, 0.97, 0.98, 0.99, 1.0]), min_size=1, max_size=60),
    st.integers(3, 30),
)
def test_every_value_is_counted_once_under_the_label_that_covers_its_cell(values, width):
    line = strip(values, 0.9, 1.0, width).plain
    assert len(line) == width
    cells = [min(max(round((v - 0.9) / 0.1 * (width - 1)), 0), width - 1) for v in values]
    groups = _label_groups([cells.count(k) for k in range(width)])
    assert sum(n for _, _, n in groups) == len(values)
    for first, last, n in groups:
        assert n == sum(first <= c <= last for c in cells)
        shown = line[first : last + 1].strip()
        assert shown == ("●" if n == 1 else str(n))
    covered = {k for first, last, _ in groups for k in range(first, last + 1)}
    assert all(ch == "·" for k, ch in enumerate(line) if k not in covered)


def test_the_legends_no_longer_say_digit():
    for lang in ("en", "zh"):
        for key in ("train.ui.strip_legend", "transformer.ui.strip_legend"):
            text = t(key, lang=lang, lo="0.90", hi="1.00")
            assert not re.search("digit|数字 =", text), text
