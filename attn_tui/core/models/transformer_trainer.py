"""Training the tiny Transformer: tasks, settings, the run, and what its heads learned.

The same sequences and held-out set as the reversal RNN (``trainer.py``): sequences of L
symbols from 6, 1,000 of them held out and never drawn for training; and the same loop, the
one every model shares (:mod:`attn_tui.core.models.loop`: Adam, clipping, the Progress the
screen and the headless command both iterate)::

    for p in train(TransformerConfig(task="sort"), every=50):
        show(p.iteration, p.loss)          # p.snapshot: a held-out evaluation; p.result at the end

``TransformerConfig.build()`` gives the loop its :class:`TransformerRun` (the loop's ``Model``).

Two tasks. *Reverse* (y_i = x_{L+1−i}) is solved by position: output i must find input
L+1−i, which it can only tell apart from the others by its position vector. *Sort* (y = the
symbols in increasing order) is solved by content: output 1 looks for the smallest symbols,
output L for the largest, wherever they stand.

The recipe differs from the RNN's in two places, both measured: a larger learning rate
(0.01) that decays linearly to 0 over the run, and Adam's β₂ = 0.98 (as in the Transformer
paper). Reversal at L 10 then reaches 1.000 whole-sequence in 300 iterations; sorting in 3,000.

What the heads learned is measured on the held-out set, per layer and head:

* ``mirror``: the average weight output i puts on input L+1−i (reversal's answer);
* ``by_symbol`` and ``by_position``: how much of the variance of the head's weights a_nij
  (sequence n, output i, input j) is explained by the *symbol* at input j, or by input j's
  *position*, each within the same output position i. Formally η² = 1 − SS_within / SS_total,
  grouping the weights by (i, x_nj) or by (i, j). A position head (reversal) scores ≈ 1 by
  position; a content head (sorting) scores high by symbol and ≈ 0 by position.

Without positions (and without the causal mask, which leaks position) the model cannot tell
two copies of a letter apart: output i sees only its own letter x_i and how many of each letter
the sequence holds. ``position_blind_ceiling`` is the best such a model can expect.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, fields, replace
from typing import Any, ClassVar

import numpy as np

from attn_tui.core.models import loop, tasks
from attn_tui.core.models.ablation import Ablation, ablate
from attn_tui.core.models.head_scores import HeadScores, eta_squared, scores, uniform
from attn_tui.core.models.loop import RunResult, Snapshot, json_float, run_to_end
from attn_tui.core.models.phases import Phases, detect
from attn_tui.core.models.tasks import Batch, targets
from attn_tui.core.models.trainer import BLOCK, Stats, TrainConfig
from attn_tui.core.models.transformer import (
    POSITIONS,
    Architecture,
    TinyTransformer,
    count_params,
)
from attn_tui.core.parse import InputError

MAX_LAYERS, MAX_HEADS = 2, 4
MIN_D_MODEL, MAX_D_MODEL = 4, 32

# Settings each task starts from (TransformerConfig.for_task); the rest are the class's
# defaults. Iterations: enough for every one of seeds 0–4 (the stored tables and the tests).
TASK_DEFAULTS: dict[str, dict[str, Any]] = {  # per task: its settings (int, float, bool)
    "reverse": {"iters": 300},
    "sort": {"iters": 3000},
    "previous": {"iters": 300},
    "local": {"iters": 600},
    "first": {"iters": 300},
    "block": {"iters": 600, "length": 12},
    # the measured recipe: 2 attention-only layers of one head, causal, d 32
    "induction": {"iters": 2000, "length": 32, "layers": 2, "heads": 1, "d_model": 32,
                  "feed_forward": False, "causal": True, "lr": 0.003, "batch": 32,
                  "eval_size": 500, "eval_every": 50},
}  # fmt: skip


# The tasks the trainer screen offers: every one (reversal, sorting, the four whose heads show a
# pattern, and the induction run with its two layers, its plateau and drop and its ablation).
TASKS = tasks.TASKS


def default_iters(task: str) -> int:
    return int(TASK_DEFAULTS[tasks.check(task)]["iters"])


# What a run costs, roughly (within about a factor of two: enough to refuse a run of hours and
# to say how long a long one takes; measured on the project's 2-core machine, numpy float32):
# per layer per iteration a fixed part, a part per head, and the products over B × L tokens
# (d² for the projections and the feed-forward, L·d for the scores and the weighted sums).
COST_LAYER = 4e-4  # s
COST_HEAD = 1e-4  # s
COST_TOKEN = 3e-9  # s per (token × d × (d + L)), training (forward and backward)
COST_EVAL = 0.02  # s per held-out evaluation, fixed
COST_EVAL_TOKEN = 2.5e-9  # s per (held-out token × d × (d + L)) per layer


def estimate_seconds(config: TransformerConfig) -> float:
    """About how long ``config`` takes to train here (training and evaluations), as
    ``attn_tui.core.models.trainer.estimate_seconds`` is for the RNN."""
    L, B, d, layers = config.length, config.batch, config.d_model, config.layers
    width = d * (d + L)
    step = layers * (COST_LAYER + COST_HEAD * config.heads + COST_TOKEN * B * L * width)
    evals = config.iters // config.eval_every + 1 if config.eval_every else 1
    n_eval = min(config.eval_size, tasks.vocab(config.task) ** L // 2)
    per_eval = COST_EVAL + COST_EVAL_TOKEN * n_eval * L * layers * width
    return config.iters * step + evals * per_eval


@dataclass(frozen=True)
class TransformerConfig:
    kind: ClassVar[str] = "transformer"  # which model these settings are for (a name, for the UI)

    task: str = "reverse"  # "reverse" (needs positions) or "sort" (needs content)
    length: int = 10  # symbols per sequence (2..20, the RNN's range)
    layers: int = 1  # attention layers, 1 or 2
    heads: int = 1  # heads per layer, 1..4; d_model must divide evenly
    d_model: int = 16  # width of each token's vector
    positions: str = "learned"  # "learned", "sinusoidal" or "none"
    feed_forward: bool = True  # the relu block after attention (d_ff = 2·d_model)
    norm: bool = False  # pre-norm layer norms; measured: no gain at this size, and slower
    causal: bool = False  # output i sees only inputs j ≤ i
    iters: int = 300  # training iterations (default_iters: 300 reverse, 3000 sort)
    seed: int = 0  # fixes the initial weights and every training draw
    lr: float = 0.01  # Adam's learning rate at the start; it decays linearly to 0
    batch: int = 16
    clip: float = 5.0  # global gradient-norm limit; 0 turns clipping off
    dtype: str = "float32"
    eval_size: int = 1000  # held-out sequences (the RNN's, at the same length)
    eval_every: int = 100  # iterations between held-out evaluations; 0 = only at the end
    eval_seed: int = 2024
    beta1: float = 0.9
    beta2: float = 0.98
    eps: float = 1e-8

    @classmethod
    def for_task(cls, task: str, **given: object) -> TransformerConfig:
        """The task's own defaults (``TASK_DEFAULTS``), then whatever is given."""
        return cls(**({"task": tasks.check(task)} | TASK_DEFAULTS[task] | given))

    def validate(self) -> TransformerConfig:
        """Refuse settings that cannot run; returns self so it can be chained."""
        if self.task not in tasks.TASKS:
            raise InputError(
                "transformer.bad_task", value=self.task, choices=", ".join(tasks.TASKS)
            )
        # the settings the RNN shares are checked by its own rules, with its messages
        shared = {f.name for f in fields(TrainConfig)} & {f.name for f in fields(self)}
        if self.task == "induction":  # longer sequences than the RNN's; checked below
            shared.discard("length")
        TrainConfig(**{name: getattr(self, name) for name in shared}).validate()
        if self.task == "induction":
            lo, hi = tasks.MIN_INDUCTION_LENGTH, tasks.MAX_INDUCTION_LENGTH
            length = self.length
            if isinstance(length, bool) or not isinstance(length, int) or not lo <= length <= hi:
                raise InputError("transformer.bad_induction_length", value=length, lo=lo, hi=hi)
            if self.causal is not True:  # it predicts the next token, which it would see
                raise InputError("transformer.induction_causal")
        if self.positions not in POSITIONS:
            raise InputError(
                "transformer.bad_positions", value=self.positions, choices=", ".join(POSITIONS)
            )
        for name, value, lo, hi in (
            ("layers", self.layers, 1, MAX_LAYERS),
            ("heads", self.heads, 1, MAX_HEADS),
            ("d_model", self.d_model, MIN_D_MODEL, MAX_D_MODEL),
        ):
            if isinstance(value, bool) or not isinstance(value, int) or not lo <= value <= hi:
                raise InputError(f"transformer.bad_{name}", value=value, lo=lo, hi=hi)
        if self.d_model % self.heads:
            raise InputError("transformer.heads_divide", heads=self.heads, d_model=self.d_model)
        for name in ("feed_forward", "norm", "causal"):
            if not isinstance(getattr(self, name), bool):
                raise InputError("transformer.bad_switch", name=name, value=getattr(self, name))
        return self

    @property
    def arch(self) -> Architecture:
        return Architecture(
            length=self.length, d_model=self.d_model, heads=self.heads, layers=self.layers,
            positions=self.positions, feed_forward=self.feed_forward, norm=self.norm,
            causal=self.causal, vocab=tasks.vocab(self.task),
        )  # fmt: skip

    @property
    def n_params(self) -> int:
        return count_params(self.arch)

    @property
    def position_blind(self) -> bool:
        """No position vectors and no mask: every copy of a letter gets the same output."""
        return self.positions == "none" and not self.causal

    def to_dict(self) -> dict[str, object]:
        """Every setting by name, in the class's order: what a --json report names, what a
        saved model keeps (``transformer_file``) and, but for the seed, what a row of the
        stored table was trained with (``transformer_figures``). One table, the dataclass's
        fields, so a new setting is in all three without being listed anywhere."""
        return {name: getattr(self, name) for name in setting_names()}

    @property
    def variant(self) -> str:
        """What a comparison of Transformers varies (F9, F10): the positional encoding."""
        return self.positions

    def with_variant(self, variant: str) -> TransformerConfig:
        """The same settings with other positions ("learned", "sinusoidal", "none")."""
        return replace(self, positions=variant)

    @property
    def recommended_iters(self) -> int:
        """Enough for this task with its own settings (:func:`default_iters`)."""
        return default_iters(self.task)

    def build(self) -> TransformerRun:
        """The model, its data and its draws, ready for the loop (``loop.train(config)``)."""
        return TransformerRun(self)

    def describe(self) -> dict[str, object]:
        """What a --json report names of these settings, before the run's figures."""
        return {"model": "transformer", **self.to_dict()}


def setting_names() -> tuple[str, ...]:
    """The names of TransformerConfig's settings, in order (its dataclass fields)."""
    return tuple(f.name for f in fields(TransformerConfig))


# ---- what the heads learned --------------------------------------------------------------


def variance_explained(values: np.ndarray, groups: np.ndarray) -> float:
    """η²: the share of the variance of ``values`` that the mean of each group accounts for
    (1 = the group decides the value, 0 = the group says nothing). NaN if nothing varies."""
    v = np.asarray(values, np.float64).ravel()
    g = np.asarray(groups).ravel()
    centred = v - v.mean()
    total = float(centred @ centred)
    if total <= 1e-18 * v.size:  # all equal (up to round-off): nothing to explain
        return math.nan
    counts = np.bincount(g)
    sums = np.bincount(g, weights=centred)
    used = counts > 0
    between = float((sums[used] ** 2 / counts[used]).sum())  # Σ n_g · mean_g²
    return between / total


@dataclass(frozen=True)
class HeadStats:
    """One head, measured on the held-out set (see the module docstring, and
    ``head_scores`` for ``scores``)."""

    layer: int  # 1-based
    head: int  # 1-based
    mirror: float  # mean weight output i puts on input L+1−i
    by_symbol: float  # η² of the weights grouped by (output i, symbol at input j)
    by_position: float  # η² grouped by (output i, input j)
    scores: HeadScores | None = None  # previous, local, stripe, block, induction

    def score(self, name: str) -> float:
        """Any of the head's figures by name: mirror, by_symbol, by_position or a pattern
        score of ``head_scores.SCORES``."""
        if name in ("mirror", "by_symbol", "by_position"):
            return float(getattr(self, name))
        return self.scores.get(name) if self.scores is not None else math.nan

    def to_dict(self) -> dict[str, object]:
        return {"layer": self.layer, "head": self.head, "mirror": json_float(self.mirror),
                "by_symbol": json_float(self.by_symbol),
                "by_position": json_float(self.by_position),
                **(self.scores.to_dict() if self.scores is not None else {})}  # fmt: skip


def head_stats(
    attn: np.ndarray, x: np.ndarray, copies: np.ndarray | None = None, vocab: int = tasks.LETTERS
) -> tuple[HeadStats, ...]:
    """attn (n, layers, heads, L, L) weights on the sequences x (n, L) of ``vocab`` symbols
    (copies (n, 2): the induction task's copied segments)."""
    n, layers, heads, L, _ = attn.shape
    mirror_cols = L - 1 - np.arange(L)
    out = []
    for layer in range(layers):
        for head in range(heads):
            a = attn[:, layer, head]  # (n, L, L)
            mean = a.mean(axis=0, dtype=np.float64)
            by_symbol, by_position = eta_squared(a, x, vocab)  # = variance_explained's
            out.append(HeadStats(
                layer + 1, head + 1, float(mean[np.arange(L), mirror_cols].mean()),
                by_symbol, by_position, scores(a, copies),
            ))  # fmt: skip
    return tuple(out)


def position_blind_ceiling(task: str, x: np.ndarray) -> float:
    """The per-position accuracy a model without positions can expect on the sequences x.

    Such a model answers alike for every copy of a letter, so at best it bets on the most
    likely answer given its own letter a = x_i and the counts M of each letter. Positions are
    interchangeable, so: for reversal at even L, the answer stands at another position, a
    random draw from M without one a, right max(M − a)/(L − 1) of the time; at odd L, output
    i may be the middle (its own letter), which makes it M/L overall, so max(M)/L. For
    sorting, output i is a random place in sorted order, so again max(M)/L.
    """
    x = np.asarray(x)
    n, L = x.shape
    M = (x[:, :, None] == np.arange(tasks.LETTERS)).sum(axis=1)  # (n, 6) letter counts
    if task == "reverse" and L % 2 == 0:
        rest = np.repeat(M[:, None, :], L, axis=1)  # (n, L, V): counts without own letter
        np.subtract.at(rest, (np.arange(n)[:, None], np.arange(L)[None, :], x), 1)
        return float((rest.max(axis=2) / (L - 1)).mean())
    return float((M.max(axis=1) / L).mean())


# ---- evaluation --------------------------------------------------------------------------


@dataclass(frozen=True)
class Decode(loop.Decode):
    """One held-out sequence of a task, with its symbols named as the task names them (the
    induction task's 64 tokens) and, for induction, where its copy lies."""

    task: str = "reverse"
    copy: tuple[int, int] | None = None  # induction: (source, copy) start, 0-based

    @property
    def scored(self) -> tuple[int, ...]:
        """The positions (0-based) whose output the task scores: all, or for induction the
        copy's first 7 (they predict its tokens 2–8)."""
        if self.copy is None:
            return tuple(range(len(self.x)))
        return tuple(range(self.copy[1], self.copy[1] + tasks.SEGMENT - 1))

    def to_dict(self) -> dict[str, object]:
        assert self.attention is not None  # a Transformer always has its weights
        out: dict[str, object] = {"input": tasks.labels(self.task, self.x),
                                  "target": tasks.labels(self.task, self.target),
                                  "prediction": tasks.labels(self.task, self.prediction),
                                  "attention": self.attention.tolist()}  # fmt: skip
        if self.copy is not None:
            out["copy"] = {"source": self.copy[0] + 1, "start": self.copy[1] + 1,
                           "scored": [i + 1 for i in self.scored]}  # fmt: skip
        return out


def evaluate(
    model: TinyTransformer,
    task: str,
    x: np.ndarray | Batch,
    iteration: int = 0,
    sample_index: int = 0,
) -> Snapshot:
    """The model on held-out sequences ``x`` (or a Batch of them, which the induction task
    needs for its copies). For induction, seq_acc and pos_acc count the scored positions
    alone (the copy's tokens 2–8), and per_position has one entry for each of them."""
    start = time.perf_counter()
    batch = x if isinstance(x, Batch) else Batch(np.asarray(x), targets(task, np.asarray(x)))
    x, target, copies = batch.x, batch.y, batch.copies
    n = len(x)
    shown = (0, sample_index % n)  # the probe and the sample: every position predicted
    if copies is None:
        pred, attn = model.predict(x)  # (n, L), (n, layers, heads, L, L)
        right = pred == target
        shown_pred = pred[list(shown)]
    else:  # only the copy's tokens 2–8 can be known: predict those alone
        seq = np.arange(n)[:, None]
        scored = tasks.scored_positions(copies)
        pred, attn = model.predict(x, (seq * x.shape[1] + scored).ravel())
        right = pred.reshape(scored.shape) == target[seq, scored]  # (n, 7)
        shown_pred = model.predict(x[list(shown)])[0]

    def decode(k: int) -> Decode:
        i = shown[k]
        copy = None if copies is None else (int(copies[i, 0]), int(copies[i, 1]))
        return Decode(tuple(int(s) for s in x[i]), tuple(int(s) for s in target[i]),
                      tuple(int(s) for s in shown_pred[k]), attn[i].astype(np.float64), task,
                      copy)  # fmt: skip

    return Snapshot(
        iteration=iteration, seq_acc=float(right.all(axis=1).mean()), pos_acc=float(right.mean()),
        per_position=right.mean(axis=0), attention_mean=attn.mean(axis=0, dtype=np.float64),
        probe=decode(0), sample=decode(1), n_eval=n, seconds=time.perf_counter() - start,
        heads=head_stats(attn, x, copies, tasks.vocab(task)),
    )  # fmt: skip


@dataclass(frozen=True)
class TransformerResult(RunResult):
    """A Transformer's finished run: the loop's figures, and what its heads were found to do
    beyond the held-out evaluation."""

    ablation: Ablation | None = None  # induction: the layer-1 previous-token head switched off
    uniform_head: HeadScores | None = None  # what a head that learned nothing would score

    @property
    def phases(self) -> Phases:
        """The loss curve's plateau and drop (``phases.detect``), if it has them."""
        return detect(self.losses)

    def to_dict(self) -> dict[str, object]:
        out = super().to_dict()
        if self.final is not None and self.uniform_head is not None:
            out["uniform_head"] = self.uniform_head.to_dict()
        out["phases"] = self.phases.to_dict()
        if self.ablation is not None:
            out["ablation"] = self.ablation.to_dict()
        return out


# ---- the run -----------------------------------------------------------------------------


class TransformerRun:
    """The tiny Transformer on its task, as the loop trains it (a ``loop.Model``): the model,
    the task's targets, the held-out set, the training draws and the learning-rate decay."""

    def __init__(self, config: TransformerConfig) -> None:
        self.config = config.validate()
        init_seq, data_seq = np.random.SeedSequence(config.seed).spawn(2)
        self.model = TinyTransformer(
            config.arch, dtype=np.dtype(config.dtype), rng=np.random.default_rng(init_seq)
        )
        self.data_rng = np.random.default_rng(data_seq)
        self.data = tasks.data_for(config.task, config.length, config.eval_size, config.eval_seed)
        self.params, self.grads = self.model.params, self.model.grads
        self._next_batch = self._draw().__next__  # nothing is drawn before the first step

    def _draw(self) -> Iterator[Batch]:
        while True:
            yield from self.data.draw(self.data_rng, BLOCK, self.config.batch)

    def step(self) -> float:
        batch = self._next_batch()
        return self.model.loss_and_grads(batch.x, batch.y, batch.rows)

    def learning_rate(self, done: int, total: int) -> float:
        return self.config.lr * (1.0 - done / total)  # linear decay to 0

    def evaluate(self, iteration: int, sample_index: int = 0) -> Snapshot:
        return evaluate(self.model, self.config.task, self.data.eval, iteration, sample_index)

    def result(self, **figures) -> TransformerResult:
        cfg = self.config
        # the bound is worked out for reversal and sorting alone (its docstring): no figure
        # for the pattern tasks rather than a wrong one
        blind = cfg.position_blind and cfg.task in ("reverse", "sort")
        ceiling = position_blind_ceiling(cfg.task, self.data.eval_x) if blind else None
        held_out = self.data.eval
        ablation = ablate(self.model, held_out) if figures.get("final") is not None else None
        return TransformerResult(
            config=cfg, params=self.model.n_params, model=self.model, ceiling=ceiling,
            ablation=ablation, uniform_head=uniform(cfg.length, cfg.causal, held_out.copies),
            **figures,
        )  # fmt: skip


# ---- over seeds ----------------------------------------------------------------------------


@dataclass(frozen=True)
class SeedRuns:
    """One setting over several seeds: is a figure typical or one lucky draw?"""

    config: TransformerConfig
    runs: tuple[RunResult, ...]

    def stats(self, metric: str = "seq_acc") -> Stats:
        return Stats.of([getattr(r, metric) for r in self.runs])

    def head_stats(self, metric: str, pick: str) -> Stats:
        """Over seeds, ``metric`` of each run's head with the highest ``pick`` (``mirror``
        for the position head, ``by_symbol`` for the content head): which head learns what
        differs between seeds, so each seed counts by its most telling head."""

        def key(h: HeadStats) -> float:
            value = getattr(h, pick)
            return value if math.isfinite(value) else -math.inf

        return Stats.of(
            [getattr(max(r.final.heads, key=key), metric) for r in self.runs if r.final is not None]
        )

    def head_summary(self) -> dict[str, dict[str, object]]:
        return {
            "position_head": {
                m: self.head_stats(m, "mirror").to_dict()
                for m in ("mirror", "by_position", "by_symbol")
            },
            "content_head": {
                m: self.head_stats(m, "by_symbol").to_dict()
                for m in ("by_symbol", "by_position", "mirror")
            },
        }

    def to_dict(self) -> dict[str, object]:
        return {
            "model": "transformer",
            **self.config.to_dict(),
            "params": self.config.n_params,
            "seeds": [r.config.seed for r in self.runs],
            "seq_acc": self.stats("seq_acc").to_dict(),
            "pos_acc": self.stats("pos_acc").to_dict(),
            "seconds": self.stats("seconds").to_dict(),
            **self.head_summary(),
            "runs": [
                {
                    "seed": r.config.seed,
                    "seq_acc": json_float(r.seq_acc),
                    "pos_acc": json_float(r.pos_acc),
                    "seconds": r.seconds,
                    "outcome": r.outcome.kind,
                    "head_stats": [h.to_dict() for h in r.final.heads] if r.final else [],
                }
                for r in self.runs
            ],
        }


def over_seeds(
    base: TransformerConfig,
    seeds: Sequence[int] = range(5),
    *,
    should_stop: Callable[[], bool] | None = None,
    on_result: Callable[[RunResult], None] | None = None,
) -> SeedRuns:
    runs = []
    for seed in seeds:
        if should_stop is not None and should_stop():
            break
        result = run_to_end(replace(base, seed=int(seed)), should_stop)
        runs.append(result)
        if on_result is not None:
            on_result(result)
    return SeedRuns(base, tuple(runs))
