"""transformer_figures.outside_spread: the tolerance a retrained table is held to."""

from __future__ import annotations

import math

from attn_tui.core.models import transformer_figures as tf
from attn_tui.core.models.figures import summarise


def _row(**per_seed: list[float]) -> tf.Row:
    stats = {k: summarise(v) for k, v in per_seed.items()}
    return tf.Row("r", {}, 0, stats, {k: tuple(v) for k, v in per_seed.items()})


def test_a_mean_within_four_standard_errors_agrees_and_one_beyond_does_not():
    values = [0.80, 0.82, 0.84, 0.86, 0.88]  # sd 0.0316, four standard errors 0.0566
    row = _row(score=values)
    assert tf.outside_spread(row, {"score": [v + 0.05 for v in values]}) == []
    (why,) = tf.outside_spread(row, {"score": [v + 0.06 for v in values]})
    assert why.startswith("score: mean 0.9")


def test_the_larger_spread_of_the_two_sets_decides():
    row = _row(score=[0.5] * 5)  # stored with no spread at all
    wide = [0.40, 0.45, 0.50, 0.55, 0.60]  # sd 0.079: four standard errors 0.14
    assert tf.outside_spread(row, {"score": [v + 0.1 for v in wide]}) == []
    assert tf.outside_spread(row, {"score": [v + 0.2 for v in wide]}) != []


def test_never_tighter_than_the_resolution():
    row = _row(score=[0.5] * 5, plateau_end=[300.0] * 5)
    assert tf.outside_spread(row, {"score": [0.5009] * 5, "plateau_end": [301.0] * 5}) == []
    assert len(tf.outside_spread(row, {"score": [0.5011] * 5, "plateau_end": [302.0] * 5})) == 2


def test_a_figure_missing_in_a_different_number_of_seeds_disagrees():
    row = _row(drop_seen=[400.0, 410.0, 420.0, 430.0, 440.0])
    fresh = [400.0, 410.0, math.nan, 430.0, 440.0]  # one seed never dropped
    (why,) = tf.outside_spread(row, {"drop_seen": fresh})
    assert "finite in 4 seeds, stored 5" in why
    nowhere = _row(drop_seen=[math.nan] * 5)
    assert tf.outside_spread(nowhere, {"drop_seen": [math.nan] * 5}) == []
