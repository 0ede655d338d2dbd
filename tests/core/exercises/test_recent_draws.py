"""Generated practice whose "another one" rarely repeats (issue 26 #14: six draws of the √d
exercise showed d ∈ {16, 64, 256, 512}, two of them twice)."""

from __future__ import annotations

import numpy as np
import pytest

from attn_tui import paths
from attn_tui.core.exercises.generators import RecentDraws, draw, instance
from attn_tui.core.exercises.loader import load_file


def exercise(file: str, ex_id: str):
    ex_set, problems = load_file(paths.shipped_exercises() / "sets" / file, "shipped")
    assert ex_set is not None and not problems
    return next(e for e in ex_set.exercises if e.id == ex_id)


def presses(ex, stream_seed: int, n: int) -> list[int]:
    """The seeds of the first instance and of n − 1 presses of "another one"."""
    rng = np.random.default_rng(stream_seed)
    recent = RecentDraws(seeds=lambda: int(rng.integers(0, 2**31)))
    inst = instance(ex, seed=int(rng.integers(0, 2**31)))
    seeds = [inst.seed]
    recent.seen(inst)
    for _ in range(n - 1):
        seed = recent.fresh_seed(ex, current=inst.seed)
        inst = instance(ex, seed=seed)
        recent.seen(inst)
        seeds.append(seed)
    return seeds


@pytest.mark.parametrize("stream_seed", range(20))
def test_the_sqrt_practice_shows_every_d_before_any_comes_back(stream_seed):
    ex = exercise("03_scaling_and_variance.toml", "sqrt-practice")
    choices = ex.generate["choices"]
    ds = [draw(ex.generate, s).values["d"] for s in presses(ex, stream_seed, 60)]
    for i in range(len(ds) - len(choices) + 1):  # every window of six: the six choices
        assert sorted(ds[i : i + len(choices)]) == sorted(choices), (i, ds)


def test_fewer_choices_than_remembered_draws_still_cycle():
    """cost_ratio has four pairs (fewer than the five draws remembered): no pair twice in any
    four presses in a row, and no press ever shows the pair just shown."""
    ex_set, _ = load_file(paths.shipped_exercises() / "sets" / "09_kinds_and_cost.toml", "shipped")
    assert ex_set is not None
    ex = next(e for e in ex_set.exercises if e.generate and e.generate.get("fn") == "cost_ratio")
    for stream_seed in range(10):
        shown = [str(draw(ex.generate, s).values) for s in presses(ex, stream_seed, 40)]
        n = len({*shown})
        assert n == len(ex.generate["choices"])
        for i in range(len(shown) - n + 1):
            assert len(set(shown[i : i + n])) == n, (stream_seed, i)


def test_a_draw_replays_from_its_seed_alone():
    ex = exercise("03_scaling_and_variance.toml", "sqrt-practice")
    for seed in presses(ex, 7, 12):
        a, b = draw(ex.generate, seed), draw(ex.generate, seed)
        assert a.values == b.values and a.answer == b.answer


def test_independent_draws_would_repeat():
    """The check above can fail: six independent draws of six values repeat almost always."""
    ex = exercise("03_scaling_and_variance.toml", "sqrt-practice")
    rng = np.random.default_rng(0)
    windows = [[draw(ex.generate, int(rng.integers(0, 2**31))).values["d"] for _ in range(6)]
               for _ in range(20)]  # fmt: skip
    assert sum(len(set(w)) < 6 for w in windows) >= 15
