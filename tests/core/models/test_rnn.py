"""The reversal model: parameter counts, exact gradients, teacher forcing vs greedy decoding."""

import math

import numpy as np
import pytest

from attn_tui.core.models import rnn
from attn_tui.core.models.rnn import ReversalRNN, count_params, one_hot_batch, param_shapes


def test_param_counts_match_the_seed():
    assert count_params(False) == 838
    assert count_params(True) == 934
    shapes = dict(param_shapes(True))
    # the only difference: the output layer reads [s_t ; c_t], 32 wide instead of 16
    assert shapes["Why"] == (32, 6) and dict(param_shapes(False))["Why"] == (16, 6)
    assert count_params(True) - count_params(False) == 16 * 6
    assert sum(math.prod(s) for _, s in param_shapes(False)) == ReversalRNN(False).n_params


# (attention, score) → parameters with the previous target fed, worked out by hand:
# encoder 6·16 + 16·16 + 16 = 368, decoder 368, output (16 or 32)·6 + 6, Wa 256, Wq + Wk 512
BY_HAND = {(False, "dot"): 838, (True, "dot"): 934, (True, "general"): 1190, (True, "qk"): 1446}


@pytest.mark.parametrize("attention, score", list(BY_HAND))
@pytest.mark.parametrize("feed", ["previous", "none"])
def test_param_counts_of_every_variant(attention, score, feed):
    expected = BY_HAND[attention, score] - (96 if feed == "none" else 0)  # no Wxs: 6·16
    assert count_params(attention, score=score, feed=feed) == expected
    model = ReversalRNN(attention, score=score, feed=feed)
    assert model.n_params == expected
    names = [name for name, _ in model.shapes]
    assert ("Wxs" in names) == (feed == "previous")
    assert ("Wa" in names) == (attention and score == "general")
    assert ("Wq" in names and "Wk" in names) == (attention and score == "qk")


def test_the_variants_start_from_the_textbook_models_weights():
    """The book's eight parameter arrays come first and are drawn first, so a learned score only
    adds weights, and feeding the decoder nothing only removes Wxs: every shared array starts
    the same for the same seed."""
    dot = ReversalRNN(True, rng=np.random.default_rng(7))
    for score in ("dot", "general", "qk"):
        for feed in ("previous", "none"):
            other = ReversalRNN(True, score=score, feed=feed, rng=np.random.default_rng(7))
            for name in dot.slices:
                if name in other.slices:
                    np.testing.assert_array_equal(getattr(other, name), getattr(dot, name))


def _numeric_grad(model, batch, i, h=1e-3):
    """Fourth-order central difference in parameter i: truncation O(h⁴), so float64 agrees
    to ~1e-8."""
    p = model.params
    old = p[i]
    f = {}
    for k in (-2, -1, 1, 2):
        p[i] = old + k * h
        f[k] = model.loss_and_grads(batch)
    p[i] = old
    return (8 * (f[1] - f[-1]) - (f[2] - f[-2])) / (12 * h)


PER_ARRAY = 40  # entries checked in each parameter array (all of them when it is smaller)


def gradient_errors(model, batch, rng) -> dict[str, float]:
    """Largest relative error between BPTT and finite differences, per parameter array.

    Each array gets PER_ARRAY entries at random plus its largest analytic gradient, so every
    piece of the backward pass is checked (a missing term shows as 0 against a finite
    difference) at a fraction of the cost of all ~1400 entries. Relative error is
    |a − n| / (|a| + |n|); a gradient smaller than 1e-6 (a few are ~1e-9) is measured against
    1e-6 instead, since round-off alone leaves ~1e-13 of absolute error.
    """
    model.loss_and_grads(batch)  # a first call, so stale buffers would show up below
    model.loss_and_grads(batch)
    analytic = model.grads.copy()
    errors = {}
    for name, sl in model.slices.items():
        size = sl.stop - sl.start
        picks = set(rng.choice(size, min(size, PER_ARRAY), replace=False).tolist())
        picks.add(int(np.abs(analytic[sl]).argmax()))
        worst = 0.0
        for k in picks:
            a, n = analytic[sl.start + k], _numeric_grad(model, batch, sl.start + k)
            worst = max(worst, abs(a - n) / max(abs(a) + abs(n), 1e-6))
        errors[name] = worst
    return errors


def gradient_check_model(attention, score, feed, length):
    rng = np.random.default_rng(length + attention)
    model = ReversalRNN(attention, score=score, feed=feed, dtype=np.float64, rng=rng)
    if score != "dot":  # larger learned weights, so scores are far from uniform and the
        for name in ("Wa", "Wq", "Wk"):  # softmax's curvature is tested, not just its centre
            if name in model.slices:
                model.params[model.slices[name]] *= 4
    batch = one_hot_batch(rng.integers(0, 6, (3, length)), np.float64)
    return model, batch, rng


VARIANTS = [(False, "dot"), (True, "dot"), (True, "general"), (True, "qk")]


@pytest.mark.parametrize("attention, score", VARIANTS, ids=["none", "dot", "general", "qk"])
@pytest.mark.parametrize("feed", ["previous", "none"])
@pytest.mark.parametrize("length", [5, 10])
def test_bptt_matches_finite_differences(attention, score, feed, length):
    model, batch, rng = gradient_check_model(attention, score, feed, length)
    errors = gradient_errors(model, batch, rng)
    assert set(errors) == {name for name, _ in model.shapes}
    assert max(errors.values()) < 1e-6, errors
    for name in model.slices:  # the check is not vacuous: every array has a real gradient
        assert np.abs(getattr(model, "d" + name)).max() > 1e-6, name


@pytest.mark.parametrize("score", ["general", "qk"])
def test_learned_scores_skip_the_max_shift_only_where_it_changes_nothing(score, monkeypatch):
    """Learned scores are shifted before exp only when the weights cannot prove them small
    (rnn.SAFE_SCORE). Both ways give the same loss and gradients up to rounding, and the
    gradient check passes on the shifted path too."""
    model, batch, rng = gradient_check_model(True, score, "previous", 6)
    if score == "qk":
        model.Wq[...] /= 2  # (both matrices ×4 there would put the bound just above 80)
    loss = model.loss_and_grads(batch)
    grads = model.grads.copy()
    ws = model._ws
    bound = model.H * math.sqrt(float(ws.Wm_flat @ ws.Wm_flat))  # H |M/√H|, see loss_and_grads
    assert bound < rnn.SAFE_SCORE  # so the first pass took the unshifted way
    monkeypatch.setattr(rnn, "SAFE_SCORE", 0.0)  # now every row is shifted
    assert model.loss_and_grads(batch) == pytest.approx(loss, rel=1e-13)
    np.testing.assert_allclose(model.grads, grads, rtol=1e-11, atol=1e-15)
    errors = gradient_errors(model, batch, rng)
    assert max(errors.values()) < 1e-6, errors


@pytest.mark.parametrize("attention, score", VARIANTS, ids=["none", "dot", "general", "qk"])
@pytest.mark.parametrize("feed", ["previous", "none"])
def test_gradients_do_not_depend_on_the_previous_batch(attention, score, feed):
    rng = np.random.default_rng(3)
    model = ReversalRNN(attention, score=score, feed=feed, rng=rng)
    a = one_hot_batch(rng.integers(0, 6, (16, 5)))
    b = one_hot_batch(rng.integers(0, 6, (16, 5)))
    loss_a = model.loss_and_grads(a)
    grads_a = model.grads.copy()
    model.loss_and_grads(b)
    assert model.loss_and_grads(a) == loss_a
    np.testing.assert_array_equal(model.grads, grads_a)


@pytest.mark.parametrize("attention, score", VARIANTS, ids=["none", "dot", "general", "qk"])
def test_greedy_first_step_equals_teacher_forcing(attention, score):
    """Step 1 sees no previous symbol either way, so both passes predict the same letter."""
    rng = np.random.default_rng(5)
    model = ReversalRNN(attention, score=score, dtype=np.float64, rng=rng)
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


@pytest.mark.parametrize("attention, score", VARIANTS, ids=["none", "dot", "general", "qk"])
def test_without_decoder_input_greedy_equals_teacher_forcing_everywhere(attention, score):
    """With feed "none" the decoder reads nothing, so decoding its own predictions and being
    told the targets are the same computation: every step's prediction must agree."""
    rng = np.random.default_rng(11)
    model = ReversalRNN(attention, score=score, feed="none", dtype=np.float64, rng=rng)
    for name in ("Wa", "Wq", "Wk"):
        if name in model.slices:
            model.params[model.slices[name]] *= 4
    x = rng.integers(0, 6, (8, 7))
    batch = one_hot_batch(x, np.float64)
    model.loss_and_grads(batch)
    probs = model._ws.logits * (7 * 8) + batch.Yt.reshape(6, -1)  # undo (p − y)/N
    pred, attn = model.greedy(x)
    np.testing.assert_array_equal(pred, probs.reshape(6, 7, 8).argmax(axis=0).T)
    if attention:
        np.testing.assert_allclose(
            attn.transpose(1, 0, 2), model._ws.A.transpose(1, 0, 2), rtol=1e-12
        )


def test_learned_scores_do_not_overflow():
    """Learned scores are unbounded; the softmax shifts each row, so huge weights give
    one-hot rows, not NaN."""
    rng = np.random.default_rng(2)
    model = ReversalRNN(True, score="qk", rng=rng)
    model.Wq[...] = 1e4
    batch = one_hot_batch(rng.integers(0, 6, (4, 6)))
    with np.errstate(over="raise", invalid="raise", divide="raise"):  # (underflow is fine)
        loss = model.loss_and_grads(batch)
    assert np.isfinite(loss) and np.isfinite(model.grads).all()
    _, attn = model.greedy(rng.integers(0, 6, (4, 6)))
    assert np.isfinite(attn).all()


def test_one_hot_batches_match_their_definition_and_are_contiguous():
    """Written out with loops: X[t, b] is x[b, t], the targets are x reversed, and the decoder
    reads nothing at t = 1 and the previous target after; every array C-contiguous, so the
    model's reshapes are views."""
    from attn_tui.core.models.rnn import one_hot_batches

    rng = np.random.default_rng(9)
    xs = rng.integers(0, 6, (3, 4, 7))  # K, B, L
    for k, batch in enumerate(one_hot_batches(xs)):
        x = xs[k]
        for b in range(4):
            for t in range(7):
                assert list(batch.X[t, b]) == [float(v == x[b, t]) for v in range(6)]
                target = x[b, 6 - t]
                assert list(batch.Yt[:, t, b]) == [float(v == target) for v in range(6)]
                fed = [0.0] * 6 if t == 0 else [float(v == x[b, 7 - t]) for v in range(6)]
                assert list(batch.D[t, b]) == fed
        for array in (batch.X, batch.D, batch.Yt):
            assert array.flags.c_contiguous and array.dtype == np.float32


def test_one_hot_blocks_name_each_steps_table_row_and_refill_their_buffers():
    """``rows`` picks the model's input-table row of every step: x_t for the encoder, V + d_t
    for the decoder (2V, "nothing", at t = 1); a second block overwrites the first's buffers
    and reads exactly like a fresh one."""
    from attn_tui.core.models.rnn import VOCAB, OneHotBlocks, one_hot_batches

    rng = np.random.default_rng(4)
    blocks = OneHotBlocks()
    first = blocks.make(rng.integers(0, 6, (2, 3, 5)))
    xs = rng.integers(0, 6, (2, 3, 5))
    second = blocks.make(xs)
    assert second is first  # the same Batches, refilled
    for batch, fresh, x in zip(second, one_hot_batches(xs), xs, strict=True):
        for name in ("x", "X", "D", "Yt", "rows"):
            assert np.array_equal(getattr(batch, name), getattr(fresh, name)), name
        for b in range(3):
            assert list(batch.rows[:5, b]) == list(x[b])  # encoder: x_1..x_L
            fed = [2 * VOCAB] + [VOCAB + int(x[b, 5 - t]) for t in range(1, 5)]
            assert list(batch.rows[5:, b]) == fed  # decoder: nothing, then x_L, x_{L-1} ...


@pytest.mark.parametrize("score", ["dot", "general", "qk"])
def test_the_input_table_gives_each_step_x_w_plus_b(score):
    """The pre-activations' input part, taken from the table, equals x_t Wxh + bh and
    d_t Wxs + bs computed as matrix products (exactly: a one-hot row picks a row)."""
    rng = np.random.default_rng(8)
    model = ReversalRNN(True, score=score, rng=rng)
    batch = one_hot_batch(rng.integers(0, 6, (4, 5)))
    model.loss_and_grads(batch)
    P = model._ws.P
    assert np.array_equal(P[:5], batch.X @ model.Wxh + model.bh)
    assert np.array_equal(P[5:], batch.D @ model.Wxs + model.bs)
