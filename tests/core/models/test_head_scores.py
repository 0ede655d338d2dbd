"""Head scores against maps whose answer is known by construction, the baseline of a head
that learned nothing against its closed form, and the fast η² against the plain one."""

from __future__ import annotations

import math

import numpy as np
import pytest

from attn_tui.core.models import tasks
from attn_tui.core.models.head_scores import eta_squared, scores, uniform, uniform_weights
from attn_tui.core.models.transformer_trainer import variance_explained

L = 12


def _stack(a: np.ndarray, n: int = 3) -> np.ndarray:
    return np.broadcast_to(a, (n, *a.shape)).copy()


def test_a_previous_token_head_scores_1_on_previous_and_little_elsewhere():
    a = np.zeros((L, L))
    a[0, 0] = 1
    a[np.arange(1, L), np.arange(L - 1)] = 1  # every row on the token before it
    s = scores(_stack(a))
    assert s.previous == 1.0
    assert s.local == 1.0  # the previous token is a neighbour
    assert s.stripe == pytest.approx(2 / L) and s.stripe_column == 1  # row 1 and row 2
    # within its block of 4 except at each block's first row: 3 of 4 rows
    assert s.block == pytest.approx(((L // 4) * 3 + 1) / L)
    assert math.isnan(s.induction)


def test_a_band_a_stripe_and_blocks():
    band = np.zeros((L, L))
    for i in range(L):
        cols = [j for j in (i - 1, i, i + 1) if 0 <= j < L]
        band[i, cols] = 1 / len(cols)
    s = scores(_stack(band))
    assert s.local == pytest.approx(1.0)
    assert s.previous == pytest.approx((1 / 2 + (L - 2) / 3) / (L - 1))  # last row: 1/2
    stripe = np.zeros((L, L))
    stripe[:, 4] = 0.75
    stripe[np.arange(L), np.arange(L)] += 0.25  # and a little on itself
    s = scores(_stack(stripe))
    assert s.stripe_column == 5 and s.stripe == pytest.approx(0.75 + 0.25 / L)
    blocks = np.zeros((L, L))
    for b in range(0, L, 4):
        blocks[b : b + 4, b : b + 4] = 0.25
    s = scores(_stack(blocks))
    assert s.block == pytest.approx(1.0)
    assert s.local == pytest.approx((2 * (L // 4) * 0.5 + 2 * (L // 4) * 0.75) / L)


def test_an_induction_head_on_constructed_copies():
    """A head that looks, from each copy row c+k, at the token after its earlier occurrence
    s+k+1 scores 1; one that looks at the earlier occurrence itself (s+k) scores 0."""
    rng = np.random.default_rng(0)
    batch = tasks.draw_induction(rng, 50, 32)
    ind = np.zeros((50, 32, 32))
    off = np.zeros((50, 32, 32))
    ind[:, np.arange(32), 0] = 1.0  # elsewhere: on token 1
    off[:, np.arange(32), 0] = 1.0
    for n, (s, d) in enumerate(batch.copies):
        for k in range(tasks.SEGMENT - 1):
            ind[n, d + k, :] = 0
            ind[n, d + k, s + k + 1] = 1
            off[n, d + k, :] = 0
            off[n, d + k, s + k] = 1
    assert scores(ind, batch.copies).induction == 1.0
    assert scores(off, batch.copies).induction == 0.0
    half = 0.5 * ind + 0.5 * off
    assert scores(half, batch.copies).induction == pytest.approx(0.5)


def test_a_uniform_head_against_its_closed_form():
    # not causal: every column 1/L
    s = uniform(L, causal=False)
    assert s.previous == pytest.approx(1 / L) and s.stripe == pytest.approx(1 / L)
    assert s.local == pytest.approx((3 * L - 2) / L / L)
    assert s.block == pytest.approx(4 / L)
    # causal: row i (0-based) spreads over i + 1 columns
    s = uniform(L, causal=True)
    assert s.previous == pytest.approx(sum(1 / (i + 1) for i in range(1, L)) / (L - 1))
    assert s.stripe_column == 1
    assert s.stripe == pytest.approx(sum(1 / (i + 1) for i in range(L)) / L)
    w = uniform_weights(L, True)
    np.testing.assert_allclose(w.sum(axis=1), 1.0)
    assert (w[np.triu_indices(L, 1)] == 0).all()
    # the induction baseline: 1 / (c + k + 1) averaged over the copies' rows
    rng = np.random.default_rng(1)
    copies = tasks.draw_induction(rng, 40, 32).copies
    expected = np.mean([1 / (d + k + 1) for _, d in copies for k in range(7)])
    assert uniform(32, True, copies).induction == pytest.approx(expected)


def test_fast_eta_squared_equals_the_plain_one():
    rng = np.random.default_rng(2)
    n, Lx, V = 40, 9, 7
    x = rng.integers(0, V, (n, Lx))
    a = rng.random((n, Lx, Lx))
    a += 3 * (x[:, None, :] == 2)  # some dependence on the symbol
    a /= a.sum(axis=2, keepdims=True)
    i = np.arange(Lx)[None, :, None]
    j = np.arange(Lx)[None, None, :]
    by_symbol = variance_explained(a, np.broadcast_to(i * V + x[:, None, :], a.shape))
    by_position = variance_explained(a, np.broadcast_to(i * Lx + j, a.shape))
    fast = eta_squared(a, x, V)
    assert fast == pytest.approx((by_symbol, by_position), rel=1e-10)
    assert 0.05 < by_symbol < 1 and 0 < by_position < 1
    flat = np.full((n, Lx, Lx), 1 / Lx)
    assert all(math.isnan(v) for v in eta_squared(flat, x, V))
