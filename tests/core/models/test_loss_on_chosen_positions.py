"""The Transformer's loss on chosen positions (the induction task reads 7 of 32): the same
number as the loss over those positions of the whole forward pass, and exact gradients for
the architecture of the induction run (two attention-only layers, learned positions, the
causal mask, 64 symbols) and every switch beside it, through both ways the loss is reached:
the last layer querying the chosen positions alone, and the whole pass then a selection."""

from __future__ import annotations

import itertools

import numpy as np
import pytest

from attn_tui.core.models.transformer import Architecture, TinyTransformer


def _model(arch: Architecture, seed: int = 3, B: int = 3):
    rng = np.random.default_rng(seed)
    model = TinyTransformer(arch, dtype=np.float64, rng=rng)
    model.params += rng.normal(0, 0.1, model.params.size)  # biases off 0, gains off 1
    x = rng.integers(0, arch.vocab, (B, arch.length))
    y = rng.integers(0, arch.vocab, (B, arch.length))
    return model, x, y, rng


def _even_rows(B: int, L: int, per: int, rng) -> np.ndarray:
    """``per`` positions of each sequence, a consecutive run as the induction task's."""
    starts = rng.integers(0, L - per + 1, B)
    return (np.arange(B)[:, None] * L + starts[:, None] + np.arange(per)).ravel()


def _uneven_rows(B: int, L: int, rng) -> np.ndarray:
    """Different numbers of positions in different sequences (and none in one)."""
    picks = [np.sort(rng.choice(L, size=k, replace=False)) + b * L
             for b, k in enumerate((2, 0, 3)[:B])]  # fmt: skip
    return np.concatenate(picks).astype(np.int64)


def _by_hand(model: TinyTransformer, x, y, rows) -> float:
    """The loss over ``rows`` from the whole pass's logits, written out: −log softmax."""
    logits, _, _ = model.forward(x)  # every position
    z = logits.T[rows]  # (R, V)
    z = z - z.max(axis=1, keepdims=True)
    logp = z - np.log(np.exp(z).sum(axis=1, keepdims=True))
    return float(-logp[np.arange(len(rows)), y.reshape(-1)[rows]].mean())


INDUCTION = Architecture(length=9, d_model=8, heads=1, layers=2, positions="learned",
                         feed_forward=False, causal=True, vocab=64)  # fmt: skip


@pytest.mark.parametrize("even", [True, False], ids=["even", "uneven"])
def test_the_loss_on_chosen_positions_is_their_cross_entropy(even):
    model, x, y, rng = _model(INDUCTION)
    rows = _even_rows(3, 9, 4, rng) if even else _uneven_rows(3, 9, rng)
    expected = _by_hand(model, x, y, rows)
    assert model.loss(x, y, rows) == pytest.approx(expected, rel=1e-12)
    assert model.loss_and_grads(x, y, rows) == pytest.approx(expected, rel=1e-12)
    # and it is not the loss over every position
    assert abs(model.loss(x, y) - expected) > 1e-3


def test_the_last_layer_querying_chosen_positions_gives_the_whole_pass_numbers():
    """The shortcut (queries, feed-forward and final norm at the chosen positions alone)
    against the whole pass: the same logits there, the same weights in those rows."""
    arch = Architecture(length=9, d_model=8, heads=2, layers=2, feed_forward=True, norm=True,
                        causal=True, vocab=11)  # fmt: skip
    model, x, _, rng = _model(arch)
    rows = _even_rows(3, 9, 4, rng)
    short, caches, (_, _, _, at) = model.forward(x, rows)
    assert at is not None and caches[-1].A.shape == (3, 2, 4, 9)  # the shortcut was taken
    whole, whole_caches, _ = model.forward(x)
    np.testing.assert_allclose(short, whole[:, rows], rtol=0, atol=1e-12)
    A = whole_caches[-1].A  # (B, h, L, L)
    for b in range(3):
        np.testing.assert_allclose(caches[-1].A[b], A[b][:, at[b]], rtol=0, atol=1e-14)
    np.testing.assert_array_equal(caches[0].A, whole_caches[0].A)  # the first layer: all


def _signs(model, x, rows):
    """Which relu units are on: a finite difference across a kink is not a derivative."""
    _, caches, _ = model.forward(x, rows)
    return [c.Hf > 0 for c in caches if c.Hf is not None]


def _fd(model, x, y, rows, u, h):
    """Fourth-order central difference of the loss along ``u``; None if a step crosses a
    relu kink."""
    base = model.params.copy()
    signs = _signs(model, x, rows)
    f = {}
    try:
        for k in (-2, -1, 1, 2):
            model.params[:] = base + k * h * u
            if any((a != b).any() for a, b in zip(_signs(model, x, rows), signs, strict=True)):
                return None
            f[k] = model.loss(x, y, rows)
    finally:
        model.params[:] = base
    return (8 * (f[1] - f[-1]) - (f[2] - f[-2])) / (12 * h)


def _fd_block_check(model, x, y, rows, rng) -> float:
    """Largest relative error of the gradient along one random direction inside each named
    parameter (a wrong entry anywhere in a block shows along a random direction in it)."""
    model.loss_and_grads(x, y, rows)  # a first call, so stale buffers would show below
    model.loss_and_grads(x, y, rows)
    grads = model.grads.copy()
    worst = 0.0
    for name, _ in model.shapes:
        sl = model.slices[name]
        u = np.zeros(model.n_params)
        u[sl] = rng.standard_normal(sl.stop - sl.start)
        u /= np.linalg.norm(u)
        numeric = _fd(model, x, y, rows, u, 1e-4)
        if numeric is None:  # a kink within ±2h: a smaller step
            numeric = _fd(model, x, y, rows, u, 1e-6)
        assert numeric is not None, f"{name}: relu kink at every step size"
        analytic = float(grads @ u)
        worst = max(worst, abs(analytic - numeric) / max(abs(analytic) + abs(numeric), 1e-6))
    assert np.abs(grads).max() > 1e-4  # the check is not vacuous
    return worst


SWITCHES = list(itertools.product(("learned", "sinusoidal", "none"), (1, 2), (1, 2),
                                  (False, True), (False, True)))  # fmt: skip


@pytest.mark.parametrize(
    "positions, layers, heads, feed_forward, norm", SWITCHES,
    ids=["-".join(map(str, s)) for s in SWITCHES],
)  # fmt: skip
@pytest.mark.parametrize("even", [True, False], ids=["even", "uneven"])
def test_gradients_of_the_loss_on_chosen_positions(positions, layers, heads, feed_forward, norm,
                                                   even):  # fmt: skip
    """Causal, as the induction task is."""
    arch = Architecture(length=6, d_model=4, heads=heads, layers=layers, positions=positions,
                        feed_forward=feed_forward, norm=norm, causal=True, vocab=7)  # fmt: skip
    model, x, y, rng = _model(arch, seed=5)
    rows = _even_rows(3, 6, 3, rng) if even else _uneven_rows(3, 6, rng)
    assert _fd_block_check(model, x, y, rows, rng) < 1e-6


def test_every_entry_of_the_gradient_of_the_induction_architecture():
    """Each parameter of a small induction model on its own (no relu: exact differences)."""
    model, x, y, rng = _model(
        Architecture(
            length=7,
            d_model=4,
            layers=2,
            positions="learned",
            feed_forward=False,
            causal=True,
            vocab=9,
        ),
        B=2,
    )
    rows = _even_rows(2, 7, 3, rng)
    model.loss_and_grads(x, y, rows)
    grads = model.grads.copy()
    base = model.params.copy()
    e = np.zeros(model.n_params)
    h = 1e-4
    worst = 0.0
    for i in range(model.n_params):
        f = {}
        for k in (-2, -1, 1, 2):
            e[i] = k * h
            model.params[:] = base + e
            f[k] = model.loss(x, y, rows)
        e[i] = 0.0
        numeric = (8 * (f[1] - f[-1]) - (f[2] - f[-2])) / (12 * h)
        worst = max(worst, abs(grads[i] - numeric) / max(abs(grads[i]) + abs(numeric), 1e-6))
    model.params[:] = base
    assert worst < 1e-6
    # positions the loss never reads still get gradient: they are keys and values
    unread = np.setdiff1d(np.arange(7), rows % 7)
    assert np.abs(model.dP[unread[unread < (rows % 7).max()]]).max() > 1e-6


def test_gradients_do_not_depend_on_the_previous_batch_with_chosen_positions():
    model, x, y, rng = _model(INDUCTION, B=4)
    rows = _even_rows(4, 9, 5, rng)
    loss = model.loss_and_grads(x, y, rows)
    grads = model.grads.copy()
    model.loss_and_grads(rng.integers(0, 64, (4, 9)), rng.integers(0, 64, (4, 9)))  # all rows
    model.loss_and_grads(x[:2], y[:2], _uneven_rows(2, 9, rng))
    assert model.loss_and_grads(x, y, rows) == loss
    np.testing.assert_array_equal(model.grads, grads)


def test_the_causal_mask_with_learned_positions_hides_later_tokens_at_chosen_positions():
    """Changing a token after every chosen position changes none of their logits."""
    model, x, _, rng = _model(INDUCTION)
    rows = np.array([1, 2, 9 + 3, 9 + 4, 18 + 0, 18 + 1])  # 2 per sequence, all before 5
    before = model.forward(x, rows)[0]
    x2 = x.copy()
    x2[:, 6:] = (x2[:, 6:] + 1) % 64
    np.testing.assert_allclose(model.forward(x2, rows)[0], before, rtol=0, atol=1e-13)
    x3 = x.copy()
    x3[:, 0] = (x3[:, 0] + 1) % 64  # but an earlier one does
    assert not np.allclose(model.forward(x3, rows)[0], before)
