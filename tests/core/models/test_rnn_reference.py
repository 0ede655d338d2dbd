"""The readable RNN (core/models/rnn_reference.py) is the model the trainer trains: in float64
its loss and every gradient equal the fast model's (rnn.py) for every variant, and its own
gradient agrees with finite differences, so neither can drift from the other unnoticed."""

from __future__ import annotations

import itertools

import numpy as np
import pytest

from attn_tui.core.models import rnn_reference
from attn_tui.core.models.rnn import ReversalRNN, one_hot_batch
from attn_tui.core.models.trainer import TrainConfig

VARIANTS = [
    (attention, score, feed)
    for attention, score, feed in itertools.product(
        (False, True), ("dot", "general", "qk"), ("previous", "none")
    )
    if attention or score == "dot"
]


def fast_and_params(attention, score, feed, hidden=5, seed=0):
    model = ReversalRNN(
        attention,
        hidden=hidden,
        dtype=np.float64,
        score=score,
        feed=feed,
        rng=np.random.default_rng(seed),
    )
    return model, {name: getattr(model, name).copy() for name, _ in model.shapes}


@pytest.mark.parametrize("attention, score, feed", VARIANTS)
def test_the_readable_model_gives_the_fast_models_loss_and_gradients(attention, score, feed):
    model, params = fast_and_params(attention, score, feed)
    x = np.random.default_rng(1).integers(0, 6, size=(7, 6))
    fast_loss = model.loss_and_grads(one_hot_batch(x, np.float64))
    loss, grads = rnn_reference.loss_and_grads(params, x, attention, score, feed)
    assert loss == pytest.approx(fast_loss, rel=1e-12)
    assert set(grads) == {name for name, _ in model.shapes}
    for name, _ in model.shapes:
        np.testing.assert_allclose(
            grads[name], getattr(model, "d" + name), rtol=1e-9, atol=1e-14, err_msg=name
        )


@pytest.mark.parametrize("attention, score", [(False, "dot"), (True, "dot"), (True, "qk")])
def test_the_readable_gradient_matches_finite_differences(attention, score):
    _, params = fast_and_params(attention, score, "previous", hidden=3, seed=2)
    x = np.random.default_rng(3).integers(0, 6, size=(2, 4))
    _, grads = rnn_reference.loss_and_grads(params, x, attention, score)
    rng = np.random.default_rng(4)
    for name, value in params.items():
        for index in map(tuple, rng.integers(0, value.shape, size=(3, value.ndim))):
            saved = value[index]
            value[index] = saved + 1e-6
            up, _ = rnn_reference.loss_and_grads(params, x, attention, score)
            value[index] = saved - 1e-6
            down, _ = rnn_reference.loss_and_grads(params, x, attention, score)
            value[index] = saved
            assert grads[name][index] == pytest.approx((up - down) / 2e-6, abs=1e-8), name


def test_the_source_shown_is_the_model_and_calls_it_with_the_runs_settings():
    config = TrainConfig(length=10, attention=True, score="qk")
    text = rnn_reference.source(config)
    assert "def loss_and_grads(p, x" in text and "dhnext" in text and "Wxh" in text
    assert "def source" not in text  # the model only, not the code that shows it
    assert "score='qk'" in text and "L 10" in text
    namespace: dict = {}
    exec(compile(text.split("# this run")[0], "shown", "exec"), namespace)  # it runs as shown
    _, params = fast_and_params(True, "qk", "previous")
    x = np.random.default_rng(5).integers(0, 6, size=(3, 4))
    shown = namespace["loss_and_grads"](params, x, True, "qk")[0]
    assert shown == rnn_reference.loss_and_grads(params, x, True, "qk")[0]
    assert len(text.splitlines()) < 140  # short enough to read in one sitting
