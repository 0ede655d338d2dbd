"""The stored table of the trainer's own multi-seed figures (exercises/trainer_figures.toml).

Everything the content quotes about the reversal experiment comes from this table, so it must
be what the trainer produces: each row's summary is recomputed from its per-seed values, its
parameter count from the model's shapes, and a few of its runs are retrained from scratch and
must give the stored figures exactly.
"""

import math

import pytest

from attn_tui.core.models import figures
from attn_tui.core.models.loop import run_to_end
from attn_tui.core.models.rnn import count_params
from attn_tui.core.models.trainer import Stats, metric

TABLE = figures.load()


def test_every_experiment_has_its_row_over_ten_seeds():
    assert [row.id for row in TABLE] == [e.id for e in figures.EXPERIMENTS]
    assert TABLE.seeds == tuple(range(10))
    assert TABLE.settings == figures.shared_settings()  # the app's defaults have not moved


@pytest.mark.parametrize("row", list(TABLE), ids=lambda r: r.id)
def test_each_summary_is_the_summary_of_its_seeds(row):
    experiment = next(e for e in figures.EXPERIMENTS if e.id == row.id)
    cfg = experiment.config()
    assert (row.length, row.variant, row.feed, row.iters) == (
        cfg.length,
        cfg.variant,
        cfg.feed,
        cfg.iters,
    )
    assert row.params == count_params(cfg.attention, score=cfg.score, feed=cfg.feed)
    assert set(row.stats) == set(row.per_seed) == set(figures.metrics_of(row.variant))
    for name, values in row.per_seed.items():
        assert len(values) == len(TABLE.seeds)
        s, independent = row.stats[name], Stats.of(values)  # numpy's mean and sd, not ours
        assert s.n == independent.n
        for mine, theirs in (
            (s.mean, independent.mean),
            (s.sd, independent.sd),
            (s.min, independent.lo),
            (s.max, independent.hi),
        ):
            assert math.isclose(mine, theirs, rel_tol=1e-12, abs_tol=1e-15)


# A cheap run of each kind: no attention, the book's model, and q·k, one seed each.
RETRAINED = [("L5-none", 0), ("L5-dot", 3), ("L10-qk", 7)]


@pytest.mark.slow  # retrains
@pytest.mark.parametrize("row_id, seed", RETRAINED)
def test_a_fresh_run_gives_the_stored_figures(row_id, seed):
    experiment = next(e for e in figures.EXPERIMENTS if e.id == row_id)
    result = run_to_end(experiment.config(seed))
    row = TABLE[row_id]
    k = TABLE.seeds.index(seed)
    for name, values in row.per_seed.items():
        assert metric(result, name) == pytest.approx(values[k], rel=1e-9, abs=1e-12), name


def test_the_table_round_trips_through_its_writer(tmp_path):
    rows = [
        {
            "id": r.id,
            "length": r.length,
            "variant": r.variant,
            "feed": r.feed,
            "iters": r.iters,
            "params": r.params,
            "stats": {k: v.__dict__ for k, v in r.stats.items()},
            "per_seed": {k: list(v) for k, v in r.per_seed.items()},
        }
        for r in TABLE
    ]
    path = tmp_path / "t.toml"
    path.write_text(figures.to_toml(TABLE.settings, TABLE.seeds, rows), encoding="utf-8")
    assert figures.load(path) == TABLE
    assert path.read_text(encoding="utf-8") == figures.shipped_path().read_text(encoding="utf-8")
