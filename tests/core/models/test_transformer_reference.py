"""The readable Transformer (core/models/transformer_reference.py) is the model the trainer
trains: in float64 its loss and every gradient equal the fast model's (transformer.py) for the
same weights, over every option the trainer offers (positions, layers, heads, feed-forward,
norm, causal mask, a loss on chosen positions), and on the trainer's own batches.

The tolerance: both compute the same sums in float64 in another order (the fast one fuses Q, K,
V into one matmul, sums over the batch with a vector of ones, skips the softmax's max-shift when
the scores are small, queries the chosen positions alone), so they part by rounding alone: a few
units of 2⁻⁵² times the size of the terms, over chains of some tens of operations — 1e-9 of each
gradient's largest entry leaves a margin of about a thousand over what was seen (≤ 1e-13), while
a wrong line (a missed residual, a transposed product, a gain left out) is off by order one."""

from __future__ import annotations

import itertools

import numpy as np
import pytest

from attn_tui.core.models import transformer_reference as ref
from attn_tui.core.models.tasks import targets
from attn_tui.core.models.transformer import Architecture, TinyTransformer
from attn_tui.core.models.transformer_trainer import TransformerConfig

RTOL = 1e-9  # of each gradient's largest entry (the docstring says why)


def readable_params(model: TinyTransformer) -> dict[str, np.ndarray]:
    """The fast model's weights by the readable model's names: W_QKV as W_Q, W_K, W_V."""
    out = {}
    for name, _ in model.shapes:
        if name.endswith(".W_QKV"):
            n = name.split(".")[0]
            for part in ("W_Q", "W_K", "W_V"):
                out[f"{n}.{part}"] = model.view(f"{n}.{part}").copy()
        else:
            out[name] = model.view(name).copy()
    return out


def fast_grads(model: TinyTransformer) -> dict[str, np.ndarray]:
    """The gradient the fast model left in ``model.grads``, by the readable names."""
    d = model.arch.d_model
    out = {}
    for name, shape in model.shapes:
        g = model.grads[model.slices[name]].reshape(shape)
        if name.endswith(".W_QKV"):
            n = name.split(".")[0]
            for i, part in enumerate(("W_Q", "W_K", "W_V")):
                out[f"{n}.{part}"] = g[:, i * d : (i + 1) * d]
        else:
            out[name] = g
    return out


def assert_same(model, x, y, rows=None):
    arch = model.arch
    fast_loss = model.loss_and_grads(x, y, rows)
    loss, grads = ref.loss_and_grads(
        readable_params(model), x, y, heads=arch.heads, positions=arch.positions,
        causal=arch.causal, norm=arch.norm, rows=rows,
    )  # fmt: skip
    assert loss == pytest.approx(fast_loss, rel=1e-12)
    expected = fast_grads(model)
    assert set(grads) == set(expected)
    for name, g in expected.items():
        scale = np.abs(g).max()
        assert scale > 0, name  # every weight gets a gradient here, so each is checked
        assert np.abs(grads[name] - g).max() <= RTOL * scale, name


def random_model(arch: Architecture, seed: int) -> TinyTransformer:
    """Random float64 weights of order 1, gains and biases too (the trained ones are not the
    init's ones and zeros, and a gain left out of a backward line must show)."""
    model = TinyTransformer(arch, dtype=np.float64)
    model.params[:] = np.random.default_rng(seed).normal(0, 0.5, model.n_params)
    return model


# Every option the trainer offers, each met with each of the others at least once: the three
# positional encodings × feed-forward × norm × mask, with layers and heads taking turns.
CASES = [
    (positions, ff, norm, causal, 1 + i % 2, (1, 2, 4)[i % 3])
    for i, (positions, ff, norm, causal) in enumerate(
        itertools.product(("learned", "sinusoidal", "none"), (True, False), (False, True),
                          (False, True))
    )
]  # fmt: skip


@pytest.mark.parametrize("positions, ff, norm, causal, layers, heads", CASES)
def test_the_readable_model_gives_the_fast_models_loss_and_gradients(
    positions, ff, norm, causal, layers, heads
):
    arch = Architecture(length=5, d_model=8, heads=heads, layers=layers, positions=positions,
                        feed_forward=ff, norm=norm, causal=causal)  # fmt: skip
    model = random_model(arch, seed=len(CASES) + heads)
    x = np.random.default_rng(1).integers(0, 6, size=(3, 5))
    assert_same(model, x, targets("sort", x))


@pytest.mark.parametrize("layers", [1, 2])
def test_a_loss_on_chosen_positions_alone(layers):
    """The induction task's loss reads a few positions of each sequence; the fast model then
    queries only those in its last layer (and, with uneven counts, all of them)."""
    arch = Architecture(length=6, d_model=8, heads=2, layers=layers, causal=True, vocab=9)
    model = random_model(arch, seed=5)
    x = np.random.default_rng(2).integers(0, 9, size=(3, 6))
    y = np.roll(x, -1, axis=1)
    assert_same(model, x, y, rows=np.array([2, 3, 8, 9, 14, 15]))  # two in each sequence
    assert_same(model, x, y, rows=np.array([1, 7, 8, 16]))  # uneven


@pytest.mark.parametrize("task", ["reverse", "sort", "block", "induction"])
def test_on_the_trainers_own_batches(task):
    """The trainer's model and batch as a run would start (float64), every task's data."""
    run = TransformerConfig.for_task(task, dtype="float64", eval_size=20).build()
    batch = run._next_batch()
    run.model.params[:] += np.random.default_rng(3).normal(0, 0.1, run.model.n_params)
    assert_same(run.model, batch.x, batch.y, batch.rows)


@pytest.mark.parametrize("task", ["reverse", "induction"])
def test_the_shown_last_line_runs_the_model_with_the_runs_settings(task):
    """What ctrl+n shows is this module up to its last line, which calls it with the run's
    settings; run as shown it gives the loss of the model with those settings."""
    config = TransformerConfig.for_task(task, dtype="float64", eval_size=20, heads=2)
    text = ref.source(config)
    assert text.startswith('"""The tiny Transformer written to be read')
    assert "what the trainer shows" not in text
    last = text.rstrip().splitlines()[-1]
    assert f"heads=2, positions={config.positions!r}, causal={config.causal!r}" in last
    run = config.build()
    batch = run._next_batch()
    names = {"p": readable_params(run.model), "x": batch.x, "y": batch.y, "rows": batch.rows}
    exec(compile(text, "<shown>", "exec"), names)
    assert names["loss"] == pytest.approx(run.model.loss(batch.x, batch.y, batch.rows), rel=1e-12)
