"""What the book's dot-product model uses after 20 000 iterations: its context vector, but not
where it looks (quiz item sc-myth-peak-why says so; it once said the model relies on the
encoder's last state, not on attention).

Evaluated on the trained model three ways: with its own attention, with every weight set to
1/L (the context becomes the mean of the encoder states), and with the context set to 0.
Measured, seeds 0 and 1, Haswell and SkylakeX: own 0.821-0.910, uniform within 0.008 of it,
zero 0.46-0.60 (0.31-0.39 lower). The bounds below (uniform within 0.03, zero at least 0.15
lower) leave room for another kernel's run landing elsewhere in the seeds' spread.
"""

import dataclasses

import numpy as np
import pytest

from attn_tui.core.models import figures
from attn_tui.core.models.loop import run

pytestmark = pytest.mark.slow


def _trained(config):
    """The RNNRun after the loop has trained it (its model and held-out set to look into)."""
    model = config.build()
    for _ in run(model, every=config.iters, max_interval=float("inf")):
        pass
    return model


def _whole(model, x, context):
    pred, _ = model.greedy(x, context)
    return float((pred == x[:, ::-1]).all(axis=1).mean())


def test_the_long_dot_run_uses_its_context_but_not_where_it_looks():
    experiment = next(e for e in figures.EXPERIMENTS if e.id == "L10-dot-20k")
    trained = _trained(dataclasses.replace(experiment.config(seed=0), eval_every=0))
    x = trained.data.eval_x
    own, uniform, zero = (_whole(trained.model, x, c) for c in ("attention", "uniform", "zero"))
    assert own > 0.75  # the row's seeds: 0.754-0.924 over both kernels
    assert abs(uniform - own) <= 0.03
    assert zero <= own - 0.15


def test_the_ablations_do_what_they_say():
    experiment = next(e for e in figures.EXPERIMENTS if e.id == "L10-dot")
    trained = _trained(dataclasses.replace(experiment.config(seed=0), iters=50, eval_every=0))
    x = trained.data.eval_x[:50]
    _, attn = trained.model.greedy(x, "uniform")
    np.testing.assert_allclose(attn, 1 / x.shape[1])
    with pytest.raises(ValueError):
        trained.model.greedy(x, "random")
