"""The reversal RNN's run: its settings, the data both models learn from, its held-out
evaluation, and comparisons of its variants over seeds.

The loop itself is the one every model shares (:mod:`attn_tui.core.models.loop`)::

    for p in train(TrainConfig(length=10, attention=True, iters=3000), every=50):
        show(p.iteration, p.total, p.loss, p.it_per_s)   # p.snapshot: a held-out evaluation

``TrainConfig.build()`` gives the loop its :class:`RNNRun` (the loop's ``Model``).
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, replace
from typing import ClassVar

import numpy as np

from attn_tui.core.models.loop import (
    Decode,
    RunResult,
    Snapshot,
    json_float,
    run_to_end,
)
from attn_tui.core.models.rnn import (
    FEEDS,
    SCORES,
    VOCAB,
    OneHotBlocks,
    ReversalRNN,
    count_params,
)
from attn_tui.core.parse import InputError

VARIANTS = ("none", *SCORES)  # no attention, then each way of scoring
MIN_LENGTH, MAX_LENGTH = 2, 20
MAX_ITERS = 100_000  # more is never needed for this task (see estimate_seconds for the cost)
MAX_BATCH = 1024
MAX_EVAL = 10_000
MAX_HIDDEN = 256
DTYPES = ("float32", "float64")
BLOCK = 64  # batches drawn at once; fixed, so the draws never depend on how a run is consumed
REJECTION_ABOVE = VOCAB**7  # larger spaces: reject held-out draws instead of listing the rest


def default_iters(length: int) -> int:
    """The book's recipe: 2000 iterations, 3000 for the hard case (L ≥ 10); 5000 from L 15,
    where the bottleneck experiment (q·k attention, no decoder input) needs them."""
    return 5000 if length >= 15 else 3000 if length >= 10 else 2000


@dataclass(frozen=True)
class TrainConfig:
    kind: ClassVar[str] = "rnn"  # which model these settings are for (a name, for the UI)

    length: int = 5  # symbols per sequence: 5 is the seed's task, 10 the hard case (2..12)
    attention: bool = False  # attention over the encoder states (838 → 934 params with "dot")
    score: str = "dot"  # how attention scores: "dot" (the book's), "general" (+H²), "qk" (+2H²)
    feed: str = "previous"  # the decoder's input: the "previous" target, or "none" (d_t = 0)
    iters: int = 2000  # training iterations; the seed uses 3000 at length 10 (default_iters)
    seed: int = 0  # fixes the initial weights and every training draw
    lr: float = 0.003  # Adam learning rate
    batch: int = 16  # sequences per iteration
    clip: float = 5.0  # global gradient-norm limit; 0 turns clipping off
    dtype: str = "float32"  # "float64" for gradient checks; float32 is faster and enough
    eval_size: int = 1000  # held-out sequences, never used for training
    eval_every: int = 100  # iterations between held-out evaluations; 0 = only at the end
    eval_seed: int = 2024  # picks the held-out set; independent of `seed`, so all runs at
    #                        one length are scored on the same sequences
    hidden: int = 16  # state size H; the seed's parameter counts assume 16
    beta1: float = 0.9  # Adam: decay of the gradient average
    beta2: float = 0.999  # Adam: decay of the squared-gradient average
    eps: float = 1e-8  # Adam: keeps the step finite where the squared average is ~0

    def validate(self) -> TrainConfig:
        """Refuse settings that cannot run; returns self so it can be chained."""

        def whole(value: object, lo: int, hi: int) -> bool:
            return isinstance(value, int) and not isinstance(value, bool) and lo <= value <= hi

        def real(value: object) -> bool:
            return isinstance(value, int | float) and math.isfinite(value)

        if self.score not in SCORES:
            raise InputError("train.bad_score", value=self.score, choices=", ".join(SCORES))
        if self.feed not in FEEDS:
            raise InputError("train.bad_feed", value=self.feed, choices=", ".join(FEEDS))
        if not whole(self.length, MIN_LENGTH, MAX_LENGTH):
            raise InputError("train.bad_length", value=self.length, lo=MIN_LENGTH, hi=MAX_LENGTH)
        if not whole(self.iters, 1, MAX_ITERS):
            raise InputError("train.bad_iters", value=self.iters, hi=MAX_ITERS)
        if not whole(self.seed, 0, 2**63 - 1):
            raise InputError("train.bad_seed", value=self.seed)
        if not (real(self.lr) and self.lr > 0):
            raise InputError("train.bad_lr", value=self.lr)
        if not whole(self.batch, 1, MAX_BATCH):
            raise InputError("train.bad_batch", value=self.batch, hi=MAX_BATCH)
        if not (real(self.clip) and self.clip >= 0):
            raise InputError("train.bad_clip", value=self.clip)
        if self.dtype not in DTYPES:
            raise InputError("train.bad_dtype", value=self.dtype, choices=", ".join(DTYPES))
        if not whole(self.eval_size, 1, MAX_EVAL):
            raise InputError("train.bad_eval_size", value=self.eval_size, hi=MAX_EVAL)
        if not whole(self.eval_every, 0, MAX_ITERS):
            raise InputError("train.bad_eval_every", value=self.eval_every)
        if not whole(self.eval_seed, 0, 2**63 - 1):
            raise InputError("train.bad_seed", value=self.eval_seed)
        if not whole(self.hidden, 1, MAX_HIDDEN):
            raise InputError("train.bad_hidden", value=self.hidden, hi=MAX_HIDDEN)
        for beta in (self.beta1, self.beta2):
            if not (real(beta) and 0 <= beta < 1):
                raise InputError("train.bad_beta", value=beta)
        if not (real(self.eps) and self.eps > 0):
            raise InputError("train.bad_eps", value=self.eps)
        return self

    @property
    def n_params(self) -> int:
        return count_params(self.attention, self.hidden, score=self.score, feed=self.feed)

    @property
    def variant(self) -> str:
        """The model as one name (one of VARIANTS): "none" or the attention's score."""
        return self.score if self.attention else "none"

    def with_variant(self, variant: str) -> TrainConfig:
        """The same settings with another variant ("none", "dot", "general", "qk")."""
        if variant == "none":
            return replace(self, attention=False)
        return replace(self, attention=True, score=variant)

    @property
    def recommended_iters(self) -> int:
        """The book's recipe for this length (:func:`default_iters`)."""
        return default_iters(self.length)

    def build(self) -> RNNRun:
        """The model, its data and its draws, ready for the loop (``loop.train(config)``)."""
        return RNNRun(self)

    def describe(self) -> dict[str, object]:
        """What a --json report names of these settings, before the run's figures."""
        return {
            "length": self.length,
            "with_attention": self.attention,
            "score": self.score if self.attention else None,
            "feed": self.feed,
            "seed": self.seed,
        }


# ---- what a run costs ------------------------------------------------------------------------

# Seconds per time step of one training iteration (forward and backward), fitted to runs on
# a busy 2-core machine (one BLAS thread): a fixed part (the numpy calls of one step) and a
# part per sequence in the batch; attention adds its own, which grows with the length too (it
# compares every output with every input). Evaluation decodes the held-out set step by step.
# A real run lands within about 2× of the estimate, either way (load, CPU, BLAS).
COST_STEP = 1.2e-5
COST_SYMBOL = 3.5e-7
COST_ATTENTION_STEP = 5e-6
COST_ATTENTION_SYMBOL = 4.5e-8  # per sequence × input position
COST_EVAL_STEP = 3e-4
COST_EVAL_SYMBOL = 3e-7


def estimate_seconds(config: TrainConfig) -> float:
    """About how long ``config`` takes to train here (training and evaluations)."""
    L, B = config.length, config.batch
    step = L * (COST_STEP + COST_SYMBOL * B)
    if config.attention:
        step += L * (COST_ATTENTION_STEP + COST_ATTENTION_SYMBOL * B * L)
    evals = config.iters // config.eval_every + 1 if config.eval_every else 1
    n_eval = min(config.eval_size, VOCAB**L // 2)
    per_eval = L * (COST_EVAL_STEP + COST_EVAL_SYMBOL * n_eval)
    return config.iters * step + evals * per_eval


# ---- data --------------------------------------------------------------------------------


class ReversalData:
    """All sequences of ``length`` symbols, split into a fixed held-out set and the rest.

    A sequence is identified by its code, its digits read in base 6. At L = 5 there are only
    6⁵ = 7,776 sequences, so 1,000 held out is 13 % of them: training draws come only from the
    other 6,776, and held-out accuracy measures generalisation, not memory. For short lengths
    the held-out set is capped at half of all sequences (L = 2 has only 36).
    """

    def __init__(self, length: int, eval_size: int = 1000, eval_seed: int = 2024) -> None:
        self.length = length
        self.space = VOCAB**length
        self.powers = VOCAB ** np.arange(
            length - 1, -1, -1, dtype=np.int64
        )  # most significant first
        n_eval = min(eval_size, self.space // 2)
        rng = np.random.default_rng([eval_seed, length])
        self.eval_codes = np.sort(rng.choice(self.space, size=n_eval, replace=False))
        self.eval_x = self.decode(self.eval_codes)  # (n_eval, L)
        if self.space <= REJECTION_ABOVE:
            # small space: list the allowed codes once and draw among them
            self.allowed: np.ndarray | None = np.setdiff1d(
                np.arange(self.space, dtype=np.int64), self.eval_codes, assume_unique=True
            )
        else:
            self.allowed = None  # huge space: draw anything, redraw the rare held-out hit

    def decode(self, codes: np.ndarray) -> np.ndarray:
        """Codes (...,) → sequences (..., L) of symbols 0..5."""
        return (np.asarray(codes, dtype=np.int64)[..., None] // self.powers) % VOCAB

    def encode(self, x: np.ndarray) -> np.ndarray:
        """Sequences (..., L) → codes (...,)."""
        return np.asarray(x, dtype=np.int64) @ self.powers

    def is_held_out(self, x: np.ndarray) -> np.ndarray:
        return self._held_out_codes(self.encode(x))

    def _held_out_codes(self, codes: np.ndarray) -> np.ndarray:
        i = np.searchsorted(self.eval_codes, codes)
        i[i == len(self.eval_codes)] = 0
        return self.eval_codes[i] == codes

    def draw(self, rng: np.random.Generator, n_batches: int, batch: int) -> np.ndarray:
        """Training sequences (n_batches, batch, L), none of them in the held-out set."""
        shape = (n_batches, batch)
        if self.allowed is not None:
            codes = self.allowed[rng.integers(0, len(self.allowed), size=shape)]
        else:
            codes = rng.integers(0, self.space, size=shape, dtype=np.int64)
            while True:
                hit = self._held_out_codes(codes)
                if not hit.any():
                    break
                codes[hit] = rng.integers(0, self.space, size=int(hit.sum()), dtype=np.int64)
        return self.decode(codes)


# ---- evaluation --------------------------------------------------------------------------


def evaluate(
    model: ReversalRNN, data: ReversalData, iteration: int = 0, sample_index: int = 0
) -> Snapshot:
    start = time.perf_counter()
    x = data.eval_x
    target = x[:, ::-1]
    pred, attn = model.greedy(x)
    right = pred == target  # (n, L)

    def decode(i: int) -> Decode:
        return Decode(
            tuple(int(s) for s in x[i]),
            tuple(int(s) for s in target[i]),
            tuple(int(s) for s in pred[i]),
            None if attn is None else attn[i].astype(np.float64),
        )

    return Snapshot(
        iteration=iteration,
        seq_acc=float(right.all(axis=1).mean()),
        pos_acc=float(right.mean()),
        per_position=right.mean(axis=0),
        attention_mean=None if attn is None else attn.mean(axis=0, dtype=np.float64),
        probe=decode(0),
        sample=decode(sample_index % len(x)),
        n_eval=len(x),
        seconds=time.perf_counter() - start,
    )


# ---- the run -----------------------------------------------------------------------------


class RNNRun:
    """The reversal RNN on its task, as the loop trains it (a ``loop.Model``): the model, its
    held-out set and its training draws, all fixed by the settings' seeds."""

    def __init__(self, config: TrainConfig) -> None:
        self.config = config.validate()
        init_seq, data_seq = np.random.SeedSequence(config.seed).spawn(2)
        self.model = ReversalRNN(
            config.attention,
            hidden=config.hidden,
            dtype=np.dtype(config.dtype),
            rng=np.random.default_rng(init_seq),
            score=config.score,
            feed=config.feed,
        )
        self.data_rng = np.random.default_rng(data_seq)
        self.data = ReversalData(config.length, config.eval_size, config.eval_seed)
        self.params, self.grads = self.model.params, self.model.grads
        # bound once: step() runs thousands of times a second; nothing is drawn before it
        self._next_batch = self._draw().__next__
        self._loss_and_grads = self.model.loss_and_grads

    def _draw(self) -> Iterator:
        blocks = OneHotBlocks(self.model.dtype)  # one set of buffers, refilled every block
        while True:
            xs = self.data.draw(self.data_rng, BLOCK, self.config.batch)
            yield from blocks.make(xs)

    def step(self) -> float:
        return self._loss_and_grads(self._next_batch())

    def learning_rate(self, done: int, total: int) -> float:
        return self.config.lr  # the book's recipe: constant

    def evaluate(self, iteration: int, sample_index: int = 0) -> Snapshot:
        return evaluate(self.model, self.data, iteration, sample_index=sample_index)

    def result(self, **figures) -> RunResult:
        return RunResult(config=self.config, params=self.model.n_params, **figures)


# ---- comparing variants over seeds ---------------------------------------------------------

# The book's single runs: figures from one run with whatever random seed it used; a reference
# only, never a target. All are the book's model: dot-product scores, previous-target input.
BOOK_REFERENCE: tuple[dict, ...] = tuple(
    dict(zip(("length", "variant", "iters", "params", "seq_acc", "pos_acc"), row, strict=True))
    for row in (
        (5, "none", 2000, 838, 0.9900, 0.9980),
        (5, "dot", 2000, 934, 0.9300, 0.9860),
        (10, "dot", 3000, 934, None, 0.6820),  # the book gives no whole-sequence figure here
    )
)


def book_reference(length: int, variant: str, feed: str = "previous") -> dict[str, object] | None:
    """The book's run with this length and variant, if it has one (its model only)."""
    if feed != "previous":
        return None
    for row in BOOK_REFERENCE:
        if row["length"] == length and row["variant"] == variant:
            return row
    return None


@dataclass(frozen=True)
class Stats:
    n: int
    mean: float
    sd: float  # sample standard deviation (n − 1); 0 for a single value
    lo: float
    hi: float

    @classmethod
    def of(cls, values: Sequence[float]) -> Stats:
        a = np.asarray([v for v in values if math.isfinite(v)], dtype=np.float64)
        if a.size == 0:
            return cls(0, math.nan, math.nan, math.nan, math.nan)
        sd = float(a.std(ddof=1)) if a.size > 1 else 0.0
        return cls(int(a.size), float(a.mean()), sd, float(a.min()), float(a.max()))

    def to_dict(self) -> dict[str, object]:
        return {
            "n": self.n,
            "mean": json_float(self.mean),
            "sd": json_float(self.sd),
            "min": json_float(self.lo),
            "max": json_float(self.hi),
        }


METRICS = ("seq_acc", "pos_acc", "weight", "peaks")  # what a comparison summarises per variant


def metric(result: RunResult, name: str) -> float:
    """One figure of a run by name: seq_acc, pos_acc, or (with attention) the alignment's
    weight / peaks / row_max; NaN where the run has none."""
    if name in ("seq_acc", "pos_acc"):
        return getattr(result, name)
    alignment = result.alignment
    return getattr(alignment, name) if alignment is not None else math.nan


def default_variants(config: TrainConfig) -> tuple[str, str]:
    """What --compare sets side by side: no attention against the attention variant asked for
    (the book's dot-product one when none was)."""
    return ("none", config.variant if config.attention else "dot")


@dataclass(frozen=True)
class Comparison:
    """Several variants over the same seeds: is a difference real or one lucky draw?"""

    base: TrainConfig  # everything but the variant and the seed
    variants: tuple[str, ...]
    seeds: tuple[int, ...]
    runs: dict[str, tuple[RunResult, ...]]  # variant → one result per seed, in seed order

    @property
    def length(self) -> int:
        return self.base.length

    @property
    def iters(self) -> int:
        return self.base.iters

    def stats(self, variant: str, name: str = "seq_acc") -> Stats:
        return Stats.of([metric(r, name) for r in self.runs.get(variant, ())])

    def to_dict(self) -> dict[str, object]:
        variants = []
        for v in self.variants:
            cfg = self.base.with_variant(v)
            runs = self.runs.get(v, ())
            entry: dict[str, object] = {
                "variant": v,
                "attention": cfg.attention,
                "score": cfg.score if cfg.attention else None,
                "params": cfg.n_params,
            }
            names = METRICS if cfg.attention else METRICS[:2]
            for name in names:
                entry[name] = self.stats(v, name).to_dict()
            entry["runs"] = [
                {"seed": r.config.seed, "outcome": r.outcome.kind}
                | {name: json_float(metric(r, name)) for name in names}
                for r in runs
            ]
            entry["reference"] = book_reference(self.length, v, self.base.feed)
            variants.append(entry)
        return {
            "length": self.length,
            "iters": self.iters,
            "feed": self.base.feed,
            "seeds": list(self.seeds),
            "variants": variants,
        }


def compare_configs(
    base: TrainConfig, seeds: Sequence[int], variants: Sequence[str]
) -> list[TrainConfig]:
    """Every run of a comparison, seed by seed: seed 0 of each variant, then seed 1 ..."""
    return [replace(base.with_variant(v), seed=int(s)) for s in seeds for v in variants]


def iter_compare(
    base: TrainConfig,
    seeds: Sequence[int],
    variants: Sequence[str] | None = None,
    should_stop: Callable[[], bool] | None = None,
) -> Iterator[RunResult]:
    """Train every variant on each seed in turn, in this process, yielding each finished run;
    ends early once ``should_stop`` says so. (:mod:`parallel` spreads the same runs over
    processes, with the same results.)"""
    for cfg in compare_configs(base, seeds, variants or default_variants(base)):
        if should_stop is not None and should_stop():
            return
        yield run_to_end(cfg, should_stop)


def collect(
    base: TrainConfig, seeds: Sequence[int], variants: Sequence[str], results: Iterable[RunResult]
) -> Comparison:
    """A Comparison of finished runs, whatever order they arrived in."""
    runs: dict[str, list[RunResult]] = {v: [] for v in variants}
    for r in results:
        runs[r.config.variant].append(r)
    ordered = {v: tuple(sorted(rs, key=lambda r: r.config.seed)) for v, rs in runs.items()}
    return Comparison(base, tuple(variants), tuple(int(s) for s in seeds), ordered)


def compare(
    base: TrainConfig,
    seeds: Sequence[int] = range(10),
    variants: Sequence[str] | None = None,
    *,
    should_stop: Callable[[], bool] | None = None,
    on_result: Callable[[RunResult], None] | None = None,
) -> Comparison:
    variants = tuple(variants or default_variants(base))
    results = []
    for result in iter_compare(base, seeds, variants, should_stop):
        results.append(result)
        if on_result is not None:
            on_result(result)
    return collect(base, seeds, variants, results)
