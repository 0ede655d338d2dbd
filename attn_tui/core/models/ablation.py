"""Switching a head off: does the induction head still work without the previous-token head?

An induction head (layer 2) finds, at a repeated token, the token that followed its earlier
occurrence. It can only find it if every position's vector already says which token came
before it — what a previous-token head in layer 1 writes into the residual stream. Switch
that head off and the induction head loses what it matches on: its score and the copy
accuracy fall. That the two heads work only together is what "composition" means.

Switched off = zero ablation: the head's output is replaced by zeros, so nothing it computed
reaches the residual stream (the rows of W_O that read its d_k columns are set to 0 in a copy
of the model). Every other weight is the trained one.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from attn_tui.core.models import tasks
from attn_tui.core.models.head_scores import scores
from attn_tui.core.models.tasks import Batch
from attn_tui.core.models.transformer import TinyTransformer


def without_head(
    model: TinyTransformer, layer: int, head: int, dtype: np.dtype | type | None = None
) -> TinyTransformer:
    """A copy of ``model`` (in ``dtype``, or the model's own) in which head ``head`` of layer
    ``layer`` (both 1-based) adds nothing to the residual stream."""
    copy = TinyTransformer(model.arch, dtype=model.dtype if dtype is None else dtype)
    copy.params[:] = model.params
    dk = model.arch.d_k
    copy.layers[layer - 1].W_O[(head - 1) * dk : head * dk, :] = 0.0
    return copy


@dataclass(frozen=True)
class CopyFigures:
    """How well a model copies on held-out induction sequences."""

    copy_acc: float  # share of the copy's tokens 2–8 predicted right
    seq_acc: float  # share of sequences with all seven right
    induction: float  # the induction head's score (the head of ``Ablation.induction_head``)
    previous: float  # the previous-token head's score


def copy_figures(model: TinyTransformer, batch: Batch, prev_head: tuple[int, int],
                 ind_head: tuple[int, int]) -> CopyFigures:  # fmt: skip
    assert batch.copies is not None, "an induction batch carries its copies"
    n, L = batch.x.shape
    seq = np.arange(n)[:, None]
    scored = tasks.scored_positions(batch.copies)
    pred, attn = model.predict(batch.x, (seq * L + scored).ravel())
    right = pred.reshape(scored.shape) == batch.y[seq, scored]
    ind = scores(attn[:, ind_head[0] - 1, ind_head[1] - 1], batch.copies).induction
    prev = scores(attn[:, prev_head[0] - 1, prev_head[1] - 1]).previous
    return CopyFigures(float(right.mean()), float(right.all(axis=1).mean()), ind, prev)


@dataclass(frozen=True)
class Ablation:
    """The trained model, and the same with its layer-1 previous-token head switched off."""

    off: tuple[int, int]  # (layer, head) switched off: layer 1's best previous-token head
    induction_head: tuple[int, int]  # (layer, head): the last layer's best induction head
    before: CopyFigures
    after: CopyFigures

    def to_dict(self) -> dict[str, object]:
        def num(x: float) -> float | None:
            return x if math.isfinite(x) else None

        names = ("copy_acc", "seq_acc", "induction", "previous")
        figures = {
            k: {"before": num(getattr(self.before, k)), "after": num(getattr(self.after, k))}
            for k in names
        }
        return {
            "off": {"layer": self.off[0], "head": self.off[1]},
            "induction_head": {"layer": self.induction_head[0], "head": self.induction_head[1]},
            **figures,
        }


def pick_heads(model: TinyTransformer, batch: Batch) -> tuple[tuple[int, int], tuple[int, int]]:
    """(layer-1 head with the highest previous-token score, last-layer head with the highest
    induction score), each (layer, head), 1-based, measured on ``batch``."""
    _, attn = model.predict(batch.x)
    heads = model.arch.heads
    prev = [scores(attn[:, 0, h]).previous for h in range(heads)]
    last = model.arch.layers - 1
    ind = [scores(attn[:, last, h], batch.copies).induction for h in range(heads)]
    return (1, int(np.argmax(prev)) + 1), (last + 1, int(np.argmax(ind)) + 1)


def weights_without(model: TinyTransformer, off: tuple[int, int], x: np.ndarray) -> np.ndarray:
    """Every layer's weights (layers, heads, L, L) on the one sequence ``x`` with head ``off``
    switched off, worked out in float64 from the trained weights (what a screen draws: no
    float32 rounding that differs between CPUs)."""
    _, attn = without_head(model, *off, dtype=np.float64).predict(np.asarray(x)[None, :])
    return attn[0]


def ablate(model: TinyTransformer, batch: Batch) -> Ablation | None:
    """The ablation on held-out induction sequences; None for a model of one layer (its only
    heads are the ones that would have to do the induction)."""
    if model.arch.layers < 2 or batch.copies is None:
        return None
    off, ind_head = pick_heads(model, batch)
    before = copy_figures(model, batch, off, ind_head)
    after = copy_figures(without_head(model, *off), batch, off, ind_head)
    return Ablation(off, ind_head, before, after)
