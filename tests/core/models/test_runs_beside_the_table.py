"""A learner's own runs beside the stored table: do they agree within the spread?

The verdict compares the difference of the two means with its standard error (two draws of
seeds from one spread differ by less than about two of them), computed here independently
with ``statistics``; one run is judged against the stored seeds' range.
"""

import dataclasses
import math
import statistics
from types import SimpleNamespace

import pytest

from attn_tui.core.models import figures
from attn_tui.core.models.trainer import TrainConfig

TABLE = figures.load()
ROW = TABLE["L5-none"]  # seq_acc: 0.923 … 1.000 over seeds 0-9


def _values(shift: float = 0.0, seeds=range(10)) -> dict[int, float]:
    stored = dict(zip(TABLE.seeds, ROW.per_seed["seq_acc"], strict=True))
    return {s: stored[s] + shift for s in seeds}


def test_the_stored_runs_themselves_agree_exactly():
    a = figures.agreement(_values(), ROW, TABLE.seeds)
    assert a.kind == "agree" and a.diff == 0 and (a.same, a.shared, a.n) == (10, 10, 10)


def test_the_standard_error_is_that_of_a_difference_of_two_means():
    mine = _values(0.01, seeds=range(6))
    a = figures.agreement(mine, ROW, TABLE.seeds)
    theirs = ROW.per_seed["seq_acc"]
    se = math.sqrt(
        statistics.variance(mine.values()) / len(mine) + statistics.variance(theirs) / len(theirs)
    )
    assert a.se == pytest.approx(se, rel=1e-12)
    assert a.diff == pytest.approx(statistics.fmean(mine.values()) - statistics.fmean(theirs))
    assert a.same == 0 and a.shared == 6


@pytest.mark.parametrize("shift, kind", [(0.005, "agree"), (0.05, "differ"), (-0.05, "differ")])
def test_a_shift_beyond_two_standard_errors_differs(shift, kind):
    a = figures.agreement(_values(shift), ROW, TABLE.seeds)
    assert a.kind == kind
    assert (abs(a.diff) <= figures.AGREE_SE * a.se) == (kind == "agree")


def test_one_run_is_judged_by_the_stored_range():
    assert figures.agreement({0: 0.95}, ROW, TABLE.seeds).kind == "inside"
    assert figures.agreement({0: 0.80}, ROW, TABLE.seeds).kind == "outside"
    one = figures.agreement({0: ROW.per_seed["seq_acc"][0]}, ROW, TABLE.seeds)
    assert (one.same, one.shared) == (1, 1) and math.isnan(one.se)


def test_two_spreads_of_zero_agree_within_one_step_of_the_metric():
    solved = TABLE["L20-qk-nofeed"]  # every seed 1.000
    step = figures.resolution("seq_acc", 20, 1000)
    near = {s: 1.0 for s in range(9)} | {9: 0.999}  # one sequence of 1000 missed in one seed
    assert figures.agreement(near, solved, TABLE.seeds, resolution=step).kind == "agree"
    far = {s: 0.9 for s in range(10)}
    assert figures.agreement(far, solved, TABLE.seeds, resolution=step).kind == "differ"


def test_nothing_to_compare_gives_none():
    assert figures.agreement({0: math.nan}, ROW, TABLE.seeds) is None
    assert figures.agreement({0: 0.5}, ROW, TABLE.seeds, metric="weight") is None  # no attention


def test_only_a_row_trained_with_the_same_settings_is_beside_the_runs():
    cfg = TrainConfig(length=5, iters=2000)
    assert figures.stored_row(TABLE, cfg).id == "L5-none"
    assert figures.stored_row(TABLE, dataclasses.replace(cfg, seed=7, eval_every=0)).id == "L5-none"
    for changed in ({"lr": 0.01}, {"iters": 1000}, {"batch": 32}, {"hidden": 8}):
        assert figures.stored_row(TABLE, dataclasses.replace(cfg, **changed)) is None


def test_beside_table_reads_the_runs_metric():
    runs = [SimpleNamespace(config=TrainConfig(length=5, iters=2000, seed=s), seq_acc=v,
                            pos_acc=v, alignment=None) for s, v in _values().items()]  # fmt: skip
    a = figures.beside_table(TABLE, TrainConfig(length=5, iters=2000), runs)
    assert a.kind == "agree" and a.same == 10
