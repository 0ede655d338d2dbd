"""What a head's weights look like, as numbers: one score per pattern of the chapter.

Every score reads a head's weights a[n, i, j] (sequence n, query row i, key column j, rows sum
to 1) on held-out sequences and is a share of the weight, between 0 and 1:

    previous   mean over n and rows i ≥ 2 of a[i, i−1]              the sub-diagonal
    local      mean over n and rows of Σ_{|j−i| ≤ 1} a[i, j]        a band: itself and neighbours
    stripe     max over columns j of the mean over n and rows of a[i, j]   one column for all
               (``stripe_column`` says which, 1-based)
    block      mean over n and rows of Σ_{j in i's block} a[i, j]   blocks of BLOCK_SIZE
    induction  for sequences with a copied segment (source s, copy c): mean over the copy's
               rows c+k (k = 0..SEGMENT−2) of a[c+k, s+k+1], the weight on the token that
               followed the earlier occurrence of the current token; NaN without copies.

Each score is also worked out for a head that spreads its weight evenly over every column it
may see (``uniform``): the figure that says "nothing learned". A causal head cannot look
ahead, so its even spread still favours early columns (at L 32 a uniform causal head puts
0.12 on column 1 on average), and the baseline says so.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from attn_tui.core.models.tasks import BLOCK_SIZE, SEGMENT, scored_positions

SCORES = ("previous", "local", "stripe", "block", "induction")
# the score that names each pattern task's head (reverse and sort are measured by
# transformer_trainer's mirror and by_symbol)
TASK_SCORE = {"previous": "previous", "local": "local", "first": "stripe", "block": "block",
              "induction": "induction"}  # fmt: skip


def _json(x: float) -> float | None:
    return x if math.isfinite(x) else None


@dataclass(frozen=True)
class HeadScores:
    previous: float
    local: float
    stripe: float
    stripe_column: int  # 1-based column of the stripe
    block: float
    induction: float  # NaN where the sequences hold no copy

    def to_dict(self) -> dict[str, object]:
        return {"previous": _json(self.previous), "local": _json(self.local),
                "stripe": _json(self.stripe), "stripe_column": self.stripe_column,
                "block": _json(self.block), "induction": _json(self.induction)}  # fmt: skip

    def get(self, name: str) -> float:
        return float(getattr(self, name))


def scores(a: np.ndarray, copies: np.ndarray | None = None) -> HeadScores:
    """One head's scores from its weights a (n, L, L) on n sequences (copies (n, 2) for the
    induction score)."""
    a = np.asarray(a)
    n, L, _ = a.shape
    mean = a.mean(axis=0, dtype=np.float64)  # (L, L): every score but induction is linear
    i = np.arange(L)
    previous = float(mean[i[1:], i[1:] - 1].mean()) if L > 1 else math.nan
    near = np.abs(i[:, None] - i[None, :]) <= 1
    local = float(mean[near].sum() / L)
    columns = mean.mean(axis=0)  # (L,) the average row's weight on each column
    column = int(np.argmax(columns))
    blocks = i // BLOCK_SIZE
    same = blocks[:, None] == blocks[None, :]
    block = float(mean[same].sum() / L)
    induction = math.nan
    if copies is not None:
        copies = np.asarray(copies)
        rows = scored_positions(copies)  # (n, SEGMENT − 1)
        cols = copies[:, :1] + 1 + np.arange(SEGMENT - 1)  # the token after the earlier one
        induction = float(a[np.arange(n)[:, None], rows, cols].mean(dtype=np.float64))
    return HeadScores(previous, local, float(columns[column]), column + 1, block, induction)


def eta_squared(a: np.ndarray, x: np.ndarray, vocab: int) -> tuple[float, float]:
    """(by_symbol, by_position): η² of one head's weights a (n, L, L) on the sequences x
    (n, L) of ``vocab`` symbols, grouped by (row i, the symbol at column j) or by (row i,
    column j) — what ``transformer_trainer.variance_explained`` computes with a group id per
    weight, here without building the n·L·L ids (an evaluation of the induction task has a
    million weights per head). NaN for both if nothing varies."""
    n, L, _ = a.shape
    c = np.asarray(a, np.float64)
    c = c - c.mean()  # centred: the group means' squares then sum to the between-group part
    total = float(np.vdot(c, c))
    if total <= 1e-18 * c.size:  # all equal (up to round-off): nothing to explain
        return math.nan, math.nan
    cell = c.sum(axis=0)  # (L, L): each (i, j) group holds n weights
    by_position = float(np.vdot(cell, cell)) / n / total
    symbols = np.asarray(x).ravel()
    counts = np.bincount(symbols, minlength=vocab).astype(np.float64)  # the same for every i
    used = counts > 0
    between = 0.0
    for i in range(L):  # Σ over the (i, s) groups of sum² / count
        sums = np.bincount(symbols, weights=c[:, i, :].ravel(), minlength=vocab)
        between += float((sums[used] ** 2 / counts[used]).sum())
    return between / total, by_position


def uniform_weights(length: int, causal: bool) -> np.ndarray:
    """(L, L) a head that spreads its weight evenly over every column it may see."""
    if causal:
        a = np.tril(np.ones((length, length)))
    else:
        a = np.ones((length, length))
    return a / a.sum(axis=1, keepdims=True)


def uniform(length: int, causal: bool, copies: np.ndarray | None = None) -> HeadScores:
    """The scores of a head that has learned nothing (``uniform_weights``), on the same
    sequences' copies."""
    a = uniform_weights(length, causal)
    n = 1 if copies is None else len(copies)
    return scores(np.broadcast_to(a, (n, length, length)), copies)
