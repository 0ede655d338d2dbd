"""The tiny Transformer: parameter counts, exact gradients for every switch, what masks and
positions do to the computation."""

from __future__ import annotations

import itertools
import math

import numpy as np
import pytest

from attn_tui.core.models.transformer import (
    Architecture,
    TinyTransformer,
    count_params,
    param_shapes,
    sinusoidal,
)

# ---- parameter counts, against arithmetic written out by hand ---------------------------------


def test_the_prototype_count_2454():
    # E 6·16 + P 10·16 + (W_Q W_K W_V W_O) 4·16·16 + W₁ 16·32 + b₁ 32 + W₂ 32·16 + b₂ 16
    # + W_out 16·6 + b_out 6
    expected = 96 + 160 + 1024 + (512 + 32 + 512 + 16) + (96 + 6)
    assert expected == 2454
    assert count_params(Architecture()) == expected
    assert TinyTransformer(Architecture()).n_params == expected


@pytest.mark.parametrize(
    "arch, expected",
    [
        # sinusoidal and none: no P, so 160 fewer
        (Architecture(positions="sinusoidal"), 2454 - 160),
        (Architecture(positions="none"), 2454 - 160),
        # heads only split d: the same count
        (Architecture(heads=4), 2454),
        # no feed-forward: 1072 fewer
        (Architecture(feed_forward=False), 2454 - 1072),
        # layer norm: 2 per layer (gain + bias, 16 each) and a final one: 3·32
        (Architecture(norm=True), 2454 + 3 * 32),
        # a second layer: another 1024 + 1072
        (Architecture(layers=2), 2454 + 1024 + 1072),
        # d = 32, L = 12, 2 layers, norm: E 192, P 384, per layer 4096 + (2048+64+2048+32) + 128,
        # final norm 64, output 198
        (
            Architecture(d_model=32, length=12, layers=2, norm=True),
            192 + 384 + 2 * (4096 + 4192 + 128) + 64 + 198,
        ),
    ],
)
def test_counts_from_shapes(arch, expected):
    assert count_params(arch) == expected
    assert sum(math.prod(s) for _, s in param_shapes(arch)) == expected


def test_named_views_cover_the_flat_vector_once():
    model = TinyTransformer(Architecture(layers=2, norm=True))
    seen = np.zeros(model.n_params, int)
    for name, shape in model.shapes:
        view = model.view(name)
        assert view.shape == shape and np.shares_memory(view, model.params)
        seen[model.slices[name]] += 1
    assert (seen == 1).all()
    layer = model.layers[0]  # W_QKV is [W_Q | W_K | W_V]; the three are views of it
    np.testing.assert_array_equal(layer.W_QKV[:, 16:32], layer.W_K)
    layer.W_QKV[0, 32] = 7.0
    assert layer.W_V[0, 0] == 7.0 and np.shares_memory(layer.dW_V, model.grads)


def test_sinusoidal_encoding_is_the_papers_formula():
    pe = sinusoidal(10, 16)
    for pos in (0, 3, 9):
        for i in range(8):
            angle = pos / 10000 ** (2 * i / 16)
            assert pe[pos, 2 * i] == pytest.approx(math.sin(angle), abs=1e-12)
            assert pe[pos, 2 * i + 1] == pytest.approx(math.cos(angle), abs=1e-12)


# ---- gradients ----------------------------------------------------------------------------------


def _loss_and_relu_signs(model, x, y):
    logits, caches, _ = model.forward(x)
    loss = model._softmax_cross_entropy(logits, y)[0]
    return loss, [c.Hf > 0 for c in caches if c.Hf is not None]


def _fd(model, x, y, direction, h):
    """Fourth-order central difference of the loss along ``direction``; None if a step
    crosses a relu kink (finite differences are not defined across one)."""
    base = model.params.copy()
    _, signs = _loss_and_relu_signs(model, x, y)
    f = {}
    try:
        for k in (-2, -1, 1, 2):
            model.params[:] = base + k * h * direction
            f[k], s = _loss_and_relu_signs(model, x, y)
            if any((a != b).any() for a, b in zip(s, signs, strict=True)):
                return None
    finally:
        model.params[:] = base
    return (8 * (f[1] - f[-1]) - (f[2] - f[-2])) / (12 * h)


def _rel(a: float, n: float) -> float:
    # |a − n| / (|a| + |n|), measured against 1e-6 when both are tinier than that
    return abs(a - n) / max(abs(a) + abs(n), 1e-6)


def _model(arch, seed=1, B=2):
    rng = np.random.default_rng(seed)
    model = TinyTransformer(arch, dtype=np.float64, rng=rng)
    model.params += rng.normal(0, 0.1, model.params.size)  # biases off 0, gains off 1
    x = rng.integers(0, 6, (B, arch.length))
    y = rng.integers(0, 6, (B, arch.length))
    return model, x, y, rng


SWITCHES = list(
    itertools.product(
        ("learned", "sinusoidal", "none"),
        (1, 2),
        (1, 2, 4),
        (True, False),
        (True, False),
        (False, True),
    )
)


def gradient_check_by_block(arch, seed=1) -> float:
    """Largest relative error over one random direction inside each named parameter.

    A wrong entry anywhere in a block shows along a random direction in it (with
    probability 1), so this checks every parameter at the cost of one derivative per block.
    """
    model, x, y, rng = _model(arch, seed)
    model.loss_and_grads(x, y)  # a first call, so stale buffers would show up below
    model.loss_and_grads(x, y)
    grads = model.grads.copy()
    worst = 0.0
    for name, _shape in model.shapes:
        u = np.zeros(model.n_params)
        sl = model.slices[name]
        u[sl] = rng.standard_normal(sl.stop - sl.start)
        u /= np.linalg.norm(u)
        numeric = _fd(model, x, y, u, 1e-3)
        if numeric is None:  # a kink within ±2h: try a smaller step
            numeric = _fd(model, x, y, u, 1e-5)
        assert numeric is not None, f"{name}: relu kink at every step size"
        worst = max(worst, _rel(float(grads @ u), numeric))
    return worst


@pytest.mark.parametrize(
    "positions, layers, heads, feed_forward, norm, causal",
    SWITCHES,
    ids=["-".join(map(str, s)) for s in SWITCHES],
)
def test_gradients_for_every_switch_combination(
    positions, layers, heads, feed_forward, norm, causal
):
    arch = Architecture(
        length=4,
        d_model=4,
        heads=heads,
        layers=layers,
        positions=positions,
        feed_forward=feed_forward,
        norm=norm,
        causal=causal,
    )
    assert gradient_check_by_block(arch) < 1e-6


def gradient_check_every_entry(arch, seed=1) -> tuple[float, int]:
    """Each parameter's derivative on its own; returns the worst relative error and how many
    entries were skipped because a step crossed a relu kink."""
    model, x, y, _ = _model(arch, seed)
    model.loss_and_grads(x, y)
    grads = model.grads.copy()
    worst, skipped = 0.0, 0
    e = np.zeros(model.n_params)
    for i in range(model.n_params):
        e[i] = 1.0
        numeric = _fd(model, x, y, e, 1e-3)
        if numeric is None:  # a kink within ±2h: try a smaller step
            numeric = _fd(model, x, y, e, 1e-5)
        e[i] = 0.0
        if numeric is None:
            skipped += 1
            continue
        worst = max(worst, _rel(float(grads[i]), numeric))
    assert np.abs(grads).max() > 1e-3  # the check is not vacuous
    return worst, skipped


@pytest.mark.parametrize(
    "arch",
    [
        Architecture(length=6, d_model=8),  # the default switches, smaller
        Architecture(
            length=5, d_model=8, heads=2, layers=2, norm=True, causal=True, positions="sinusoidal"
        ),
    ],
    ids=["default", "2-layers-norm-causal"],
)
def test_every_entry_of_the_gradient(arch):
    worst, skipped = gradient_check_every_entry(arch)
    assert worst < 1e-6
    assert skipped <= 0.01 * count_params(arch)


def test_gradients_do_not_depend_on_the_previous_batch():
    model, x, y, rng = _model(Architecture(layers=2, heads=2, norm=True), B=4)
    loss = model.loss_and_grads(x, y)
    grads = model.grads.copy()
    model.loss_and_grads(rng.integers(0, 6, (7, 10)), rng.integers(0, 6, (7, 10)))
    assert model.loss_and_grads(x, y) == loss
    np.testing.assert_array_equal(model.grads, grads)


def test_loss_alone_equals_the_training_loss():
    model, x, y, _ = _model(Architecture(heads=2), B=3)
    assert model.loss(x, y) == pytest.approx(model.loss_and_grads(x, y), rel=1e-12)
    # and against arithmetic: −log softmax of the target, averaged
    logits, _, _ = model.forward(x)
    z = logits.T  # (N, V)
    logp = z - z.max(axis=1, keepdims=True)
    logp -= np.log(np.exp(logp).sum(axis=1, keepdims=True))
    assert model.loss(x, y) == pytest.approx(-logp[np.arange(z.shape[0]), y.reshape(-1)].mean())


# ---- what the switches do ---------------------------------------------------------------------


def test_attention_rows_sum_to_one_and_the_causal_mask_hides_later_inputs():
    model, x, _, _ = _model(Architecture(heads=2, layers=2, causal=True), B=5)
    pred, attn = model.predict(x)
    assert attn.shape == (5, 2, 2, 10, 10)
    np.testing.assert_allclose(attn.sum(axis=-1), 1.0, atol=1e-12)
    assert (attn[..., np.triu_indices(10, 1)[0], np.triu_indices(10, 1)[1]] == 0).all()
    # changing the last input changes no earlier output
    x2 = x.copy()
    x2[:, -1] = (x2[:, -1] + 1) % 6
    logits1, logits2 = model.forward(x)[0], model.forward(x2)[0]
    L = 10
    earlier = np.arange(5 * L).reshape(5, L)[:, :-1].ravel()
    np.testing.assert_allclose(logits1[:, earlier], logits2[:, earlier], atol=1e-12)
    assert not np.allclose(
        logits1[:, ~np.isin(np.arange(5 * L), earlier)],
        logits2[:, ~np.isin(np.arange(5 * L), earlier)],
    )


def test_without_positions_every_copy_of_a_letter_gets_the_same_output():
    """No positions, no mask: permuting the input permutes the outputs, nothing more."""
    model, x, _, rng = _model(Architecture(positions="none", layers=2, heads=2), B=3)
    perm = rng.permutation(10)
    logits = model.forward(x)[0].reshape(6, 3, 10)
    logits_p = model.forward(x[:, perm])[0].reshape(6, 3, 10)
    np.testing.assert_allclose(logits_p, logits[:, :, perm], atol=1e-12)
    # and with learned positions it is not so
    model, x, _, _ = _model(Architecture(positions="learned"), B=3)
    logits = model.forward(x)[0].reshape(6, 3, 10)
    assert not np.allclose(model.forward(x[:, perm])[0].reshape(6, 3, 10), logits[:, :, perm])


def test_float32_and_float64_agree():
    arch = Architecture(heads=2, norm=True)
    m64 = TinyTransformer(arch, dtype=np.float64, rng=np.random.default_rng(4))
    m32 = TinyTransformer(arch, dtype=np.float32, rng=np.random.default_rng(4))
    x = np.random.default_rng(5).integers(0, 6, (16, 10))
    y = x[:, ::-1].copy()
    assert m32.loss_and_grads(x, y) == pytest.approx(m64.loss_and_grads(x, y), rel=1e-5)
    np.testing.assert_allclose(m32.grads, m64.grads, atol=1e-5)
