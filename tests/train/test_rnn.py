"""The reversal model: parameter counts, exact gradients, teacher forcing vs greedy decoding."""

import math

import numpy as np
import pytest

from attn_tui.core.models.rnn import ReversalRNN, count_params, one_hot_batch, param_shapes


def test_param_counts_match_the_seed():
    assert count_params(False) == 838
    assert count_params(True) == 934
    shapes = dict(param_shapes(True))
    # the only difference: the output layer reads [s_t ; c_t], 32 wide instead of 16
    assert shapes["Why"] == (32, 6) and dict(param_shapes(False))["Why"] == (16, 6)
    assert count_params(True) - count_params(False) == 16 * 6
    assert sum(math.prod(s) for _, s in param_shapes(False)) == ReversalRNN(False).n_params


def _numeric_grads(model, batch, h=1e-3):
    """Fourth-order central differences: truncation O(h⁴), so float64 agrees to ~1e-8."""
    p = model.params
    num = np.empty_like(p)
    for i in range(p.size):
        old = p[i]
        f = {}
        for k in (-2, -1, 1, 2):
            p[i] = old + k * h
            f[k] = model.loss_and_grads(batch)
        p[i] = old
        num[i] = (8 * (f[1] - f[-1]) - (f[2] - f[-2])) / (12 * h)
    return num


@pytest.mark.parametrize("attention", [False, True])
@pytest.mark.parametrize("length", [5, 10])
def test_bptt_matches_finite_differences(attention, length):
    rng = np.random.default_rng(length + attention)
    model = ReversalRNN(attention, dtype=np.float64, rng=rng)
    batch = one_hot_batch(rng.integers(0, 6, (3, length)), np.float64)
    model.loss_and_grads(batch)  # a first call, so stale buffers would show up below
    model.loss_and_grads(batch)
    analytic = model.grads.copy()
    numeric = _numeric_grads(model, batch)
    # Relative error |a − n| / (|a| + |n|); a gradient smaller than 1e-6 (a few are ~1e-9) is
    # measured against 1e-6 instead, since round-off alone leaves ~1e-13 of absolute error.
    denom = np.maximum(np.abs(analytic) + np.abs(numeric), 1e-6)
    rel = np.abs(analytic - numeric) / denom
    assert rel.max() < 1e-6, f"max relative error {rel.max():.2e}"
    assert np.abs(analytic).max() > 1e-3  # the check is not vacuous


@pytest.mark.parametrize("attention", [False, True])
def test_gradients_do_not_depend_on_the_previous_batch(attention):
    rng = np.random.default_rng(3)
    model = ReversalRNN(attention, rng=rng)
    a = one_hot_batch(rng.integers(0, 6, (16, 5)))
    b = one_hot_batch(rng.integers(0, 6, (16, 5)))
    loss_a = model.loss_and_grads(a)
    grads_a = model.grads.copy()
    model.loss_and_grads(b)
    assert model.loss_and_grads(a) == loss_a
    np.testing.assert_array_equal(model.grads, grads_a)


@pytest.mark.parametrize("attention", [False, True])
def test_greedy_first_step_equals_teacher_forcing(attention):
    """Step 1 sees no previous symbol either way, so both passes predict the same letter."""
    rng = np.random.default_rng(5)
    model = ReversalRNN(attention, dtype=np.float64, rng=rng)
    x = rng.integers(0, 6, (8, 6))
    batch = one_hot_batch(x, np.float64)
    model.loss_and_grads(batch)
    ws = model._ws
    probs_first = ws.logits.reshape(6, 6, 8)[:, 0, :]  # (V, B) softmax at output step 1
    # (after backward ws.logits holds (p − y)/N; add y back and undo the scale)
    p = probs_first * (6 * 8) + batch.Yt[:, 0, :]
    pred, attn = model.greedy(x)
    np.testing.assert_array_equal(pred[:, 0], p.argmax(axis=0))
    if attention:
        assert attn.shape == (8, 6, 6)
        np.testing.assert_allclose(attn.sum(axis=2), 1.0)
    else:
        assert attn is None


def test_teacher_forcing_feeds_the_previous_target():
    x = np.array([[0, 1, 2, 3, 4]])
    batch = one_hot_batch(x)
    y = x[0, ::-1]  # 4 3 2 1 0
    np.testing.assert_array_equal(batch.D[0], 0)  # nothing before the first output
    for t in range(1, 5):
        assert batch.D[t, 0].argmax() == y[t - 1]
    assert list(batch.Yt[:, :, 0].argmax(axis=0)) == list(y)
