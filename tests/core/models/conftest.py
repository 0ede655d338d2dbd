"""Runs shared by the Transformer's tests: the five-seed figures the issue asks for, which the
shipped exercises and quiz items also quote. Trained once per session (about 10 s)."""

from __future__ import annotations

import pytest

from attn_tui.core.models.transformer_trainer import TransformerConfig, over_seeds

SEEDS = range(5)


@pytest.fixture(scope="session")
def reversal():
    """Reversal at L 10 with the defaults (learned positions, 300 iterations)."""
    return over_seeds(TransformerConfig(eval_every=0), SEEDS)


@pytest.fixture(scope="session")
def reversal_blind():
    """The same without positions."""
    return over_seeds(TransformerConfig(eval_every=0, positions="none"), SEEDS)


@pytest.fixture(scope="session")
def sorting():
    """Sorting at L 10, 3000 iterations."""
    return over_seeds(TransformerConfig(task="sort", iters=3000, eval_every=0), SEEDS)


@pytest.fixture(scope="session")
def causal():
    """Reversal with the causal mask, the defaults otherwise."""
    return over_seeds(TransformerConfig(eval_every=0, causal=True), SEEDS)
