"""Training the reversal model: settings, data, Adam, held-out evaluation, and the generator.

The UI and the headless command share one loop::

    for p in train(TrainConfig(length=10, attention=True, iters=3000), every=50):
        show(p.iteration, p.total, p.loss, p.it_per_s)   # p.snapshot: a held-out evaluation
        if p.result: ...                                 # the last Progress carries the result

Stopping. Either pass ``should_stop`` (checked before every iteration, so a stop lands within
one iteration, well under a millisecond), or simply stop iterating: the generator yields at
least every ``max_interval`` seconds (default 0.05 s), so a consumer regains control that
often even when it asked for a Progress only every N iterations.

Nothing here raises on a bad run: a loss or gradient that turns NaN/inf ends the run with
``Outcome(kind="diverged")``, whose ``code``/``params`` name a sentence in ``text/train.py``.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field, replace

import numpy as np

from attn_tui.core.models.rnn import (
    ALPHABET,
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


# ---- optimiser ---------------------------------------------------------------------------


def clip_global_norm(grads: np.ndarray, max_norm: float) -> float:
    """Scale ``grads`` in place so its norm is at most ``max_norm`` (0: no limit); returns the
    norm before clipping (inf/NaN when the gradients overflowed)."""
    norm = math.sqrt(float(grads.dot(grads)))
    if max_norm > 0 and norm > max_norm:
        grads *= max_norm / norm
    return norm


class Adam:
    """Adam on one flat parameter vector, in PyTorch's form (bias-corrected, eps outside √).

    The two running averages sit in one (2, n) buffer, so their decay and their update are one
    call each for both (the arithmetic of each number is unchanged).
    """

    def __init__(self, n: int, lr: float, beta1: float, beta2: float, eps: float, dtype) -> None:
        self.lr, self.beta1, self.beta2, self.eps = lr, beta1, beta2, eps
        self.mv = np.zeros((2, n), dtype)
        self.m, self.v = self.mv  # running averages of the gradient and of its square
        self.decay = np.array([[beta1], [beta2]], dtype)  # (2, 1): β₁ for m, β₂ for v
        self.gain = np.array([[1.0 - beta1], [1.0 - beta2]], dtype)
        self.g2 = np.empty((2, n), dtype)  # g and g², then their weighted shares
        self.g_row, self.gg_row = self.g2
        self.tmp = self.g_row
        self.t = 0

    def step(self, params: np.ndarray, grads: np.ndarray) -> None:
        self.t += 1
        b1, b2, mv, g2, tmp = self.beta1, self.beta2, self.mv, self.g2, self.tmp
        multiply, add = np.multiply, np.add  # ufunc calls: a little cheaper than *= and +=
        multiply(mv, self.decay, mv)  # β₁m, β₂v
        self.g_row[...] = grads
        multiply(grads, grads, self.gg_row)
        multiply(g2, self.gain, g2)  # (1−β₁)g, (1−β₂)g²
        add(mv, g2, mv)  # m ← β₁m + (1−β₁)g,  v ← β₂v + (1−β₂)g²
        # p ← p − lr/(1−β₁ᵗ) · m / (√v / √(1−β₂ᵗ) + ε)
        np.sqrt(self.v, tmp)
        multiply(tmp, 1.0 / math.sqrt(1.0 - b2**self.t), tmp)
        add(tmp, self.eps, tmp)
        np.divide(self.m, tmp, tmp)
        multiply(tmp, self.lr / (1.0 - b1**self.t), tmp)
        np.subtract(params, tmp, params)


# ---- evaluation --------------------------------------------------------------------------


def letters(seq: Sequence[int]) -> str:
    return "".join(ALPHABET[int(s)] for s in seq)


@dataclass(frozen=True)
class Decode:
    """One sequence decoded greedily: what went in, what should come out, what came out."""

    x: tuple[int, ...]
    target: tuple[int, ...]
    prediction: tuple[int, ...]
    attention: np.ndarray | None  # (Lo, Li) rows = output positions, cols = input positions

    @property
    def correct(self) -> tuple[bool, ...]:
        return tuple(p == t for p, t in zip(self.prediction, self.target, strict=True))

    def to_dict(self) -> dict[str, object]:
        out: dict[str, object] = {
            "input": letters(self.x),
            "target": letters(self.target),
            "prediction": letters(self.prediction),
        }
        if self.attention is not None:
            out["attention"] = self.attention.tolist()
        return out


@dataclass(frozen=True)
class Snapshot:
    """Held-out evaluation at one moment of training (greedy decoding, no teacher forcing)."""

    iteration: int
    seq_acc: float  # fraction of held-out sequences reversed without a single mistake
    pos_acc: float  # fraction of output symbols that are right
    per_position: np.ndarray  # (L,) accuracy at each output position
    attention_mean: np.ndarray | None  # (Lo, Li) averaged over the held-out set
    probe: Decode  # the same held-out sequence every time, to watch its attention grow
    sample: Decode  # a different held-out sequence each time
    n_eval: int
    seconds: float  # how long this evaluation took

    @property
    def alignment(self) -> Alignment | None:
        """How the held-out average attention sits on the reversal diagonal (None without
        attention)."""
        return None if self.attention_mean is None else Alignment.of(self.attention_mean)


@dataclass(frozen=True)
class Alignment:
    """Where attention looks, against where reversal needs it: output t reads input L+1−t.

    All come from the held-out average attention (rows = output positions t = 1..L).
    """

    weight: float  # mean over rows of the weight on input L+1−t (uniform: 1/L)
    peaks: float  # share of rows whose largest weight is on input L+1−t
    left: float  # share of rows peaking one column left of it, on input L−t
    right: float  # share of rows peaking one column right of it, on input L+2−t
    row_max: float  # mean over rows of the largest weight (uniform: 1/L)

    @classmethod
    def of(cls, attention: np.ndarray) -> Alignment:
        rows = np.arange(attention.shape[0])
        target = attention.shape[1] - 1 - rows  # 0-based column of input L+1−t
        peak = attention.argmax(axis=1)
        return cls(
            weight=float(attention[rows, target].mean()),
            peaks=float((peak == target).mean()),
            left=float((peak == target - 1).mean()),
            right=float((peak == target + 1).mean()),
            row_max=float(attention.max(axis=1).mean()),
        )

    def to_dict(self) -> dict[str, float]:
        return {"weight": self.weight, "peaks": self.peaks, "left": self.left,
                "right": self.right, "row_max": self.row_max}  # fmt: skip


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
            tuple(int(s) for s in x[i]), tuple(int(s) for s in target[i]),
            tuple(int(s) for s in pred[i]), None if attn is None else attn[i].astype(np.float64),
        )  # fmt: skip

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


@dataclass(frozen=True)
class Outcome:
    """How a run ended. ``code``/``params`` name the sentence that explains it."""

    kind: str  # "finished" | "stopped" | "diverged"
    iteration: int  # iterations completed
    code: str
    params: dict[str, object] = field(default_factory=dict)


@dataclass(frozen=True)
class RunResult:
    config: TrainConfig
    outcome: Outcome
    params: int  # parameter count: 838 or 934 at H = 16
    iters: int  # iterations completed
    seconds: float  # time in training iterations alone
    eval_seconds: float  # time in held-out evaluations
    losses: np.ndarray  # (iters,) the loss of every iteration
    final: Snapshot | None  # the evaluation at the end (None if the run diverged)
    snapshots: tuple[Snapshot, ...]  # every evaluation, in order, for a timeline

    @property
    def final_loss(self) -> float:
        """Mean loss of the last 50 iterations (one batch's loss is noisy)."""
        tail = self.losses[-50:]
        return float(tail.mean()) if len(tail) else math.nan

    @property
    def seq_acc(self) -> float:
        return self.final.seq_acc if self.final else math.nan

    @property
    def pos_acc(self) -> float:
        return self.final.pos_acc if self.final else math.nan

    @property
    def alignment(self) -> Alignment | None:
        return self.final.alignment if self.final else None

    def to_dict(self) -> dict[str, object]:
        """Plain Python for --json."""
        out: dict[str, object] = {
            "length": self.config.length,
            "with_attention": self.config.attention,
            "score": self.config.score if self.config.attention else None,
            "feed": self.config.feed,
            "seed": self.config.seed,
            "params": self.params,
            "outcome": self.outcome.kind,
            "iters": self.iters,
            "seq_acc": _json_float(self.seq_acc),
            "pos_acc": _json_float(self.pos_acc),
            "final_loss": _json_float(self.final_loss),
            "seconds": self.seconds,
            "eval_seconds": self.eval_seconds,
        }
        if self.final is not None:
            out["per_position"] = self.final.per_position.tolist()
            out["eval_size"] = self.final.n_eval
            if self.final.attention_mean is not None:
                out["attention"] = self.final.attention_mean.tolist()
                out["alignment"] = Alignment.of(self.final.attention_mean).to_dict()
            out["probe"] = self.final.probe.to_dict()
        return out


def _json_float(x: float) -> float | None:
    return x if math.isfinite(x) else None


@dataclass(frozen=True)
class Progress:
    iteration: int  # iterations completed
    total: int
    loss: float  # the latest iteration's loss (nan before the first)
    losses: np.ndarray  # every iteration's loss since the previous Progress
    elapsed: float  # seconds spent in training iterations (not evaluation, not the consumer)
    eval_seconds: float
    snapshot: Snapshot | None = None  # a held-out evaluation made since the previous Progress
    outcome: Outcome | None = None  # set on the last Progress only
    result: RunResult | None = None  # set on the last Progress only

    @property
    def it_per_s(self) -> float:
        return self.iteration / self.elapsed if self.elapsed > 0 else 0.0

    @property
    def fraction(self) -> float:
        return self.iteration / self.total

    @property
    def eta(self) -> float:
        """Seconds of training left at the current speed."""
        rate = self.it_per_s
        return (self.total - self.iteration) / rate if rate > 0 else math.nan

    @property
    def done(self) -> bool:
        return self.result is not None


class Trainer:
    """One run: the model, its data and its optimiser, built from a TrainConfig."""

    def __init__(self, config: TrainConfig) -> None:
        self.config = config.validate()
        init_seq, data_seq = np.random.SeedSequence(config.seed).spawn(2)
        self.model = ReversalRNN(
            config.attention, hidden=config.hidden, dtype=np.dtype(config.dtype),
            rng=np.random.default_rng(init_seq), score=config.score, feed=config.feed,
        )  # fmt: skip
        self.data_rng = np.random.default_rng(data_seq)
        self.data = ReversalData(config.length, config.eval_size, config.eval_seed)
        self.adam = Adam(
            self.model.n_params, config.lr, config.beta1, config.beta2, config.eps,
            self.model.dtype,
        )  # fmt: skip

    def _batches(self) -> Iterator:
        cfg = self.config
        blocks = OneHotBlocks(self.model.dtype)  # one set of buffers, refilled every block
        while True:
            xs = self.data.draw(self.data_rng, BLOCK, cfg.batch)
            yield from blocks.make(xs)

    # What another model's trainer replaces (the Transformer's, in transformer_trainer.py),
    # so that both share one loop:
    def _loss(self, batch) -> float:
        """One forward and backward pass on a batch; fills the model's gradients."""
        return self.model.loss_and_grads(batch)

    def _before_step(self, done: int, total: int) -> None:
        """Called before each optimiser step; the RNN's learning rate stays as it is."""

    def evaluate(self, iteration: int, sample_index: int = 0) -> Snapshot:
        return evaluate(self.model, self.data, iteration, sample_index=sample_index)

    def _result(self, outcome, iters, seconds, eval_seconds, losses, final, snapshots):
        return RunResult(
            config=self.config, outcome=outcome, params=self.model.n_params, iters=iters,
            seconds=seconds, eval_seconds=eval_seconds, losses=losses, final=final,
            snapshots=snapshots,
        )  # fmt: skip

    def run(
        self,
        *,
        every: int = 1,
        max_interval: float = 0.05,
        should_stop: Callable[[], bool] | None = None,
        clock: Callable[[], float] = time.perf_counter,
    ) -> Iterator[Progress]:
        """Train, yielding a Progress every ``every`` iterations, at every evaluation, at least
        every ``max_interval`` seconds, and once more at the end (with ``result`` set).

        ``every=1`` gives each iteration (for a watchable or single-step pace: the consumer
        sleeps or waits between items; the clock excludes that time). The numbers do not
        depend on ``every``, ``max_interval`` or how fast the consumer is. ``clock`` is
        replaceable for tests.
        """
        cfg, model, adam = self.config, self.model, self.adam
        every = max(1, int(every))
        total = cfg.iters
        losses = np.empty(total, np.float64)
        batches = self._batches()
        snapshots: list[Snapshot] = []
        train_s = eval_s = 0.0
        done = last_yield = 0
        outcome: Outcome | None = None
        t0 = yielded_at = clock()

        # bound once: the loop body runs thousands of times a second
        loss_of, before_step, adam_step = self._loss, self._before_step, adam.step
        params, grads, clip, eval_every = model.params, model.grads, cfg.clip, cfg.eval_every
        isfinite = math.isfinite

        while done < total and outcome is None:
            snap = None
            # iterate until it is time to report; overflow is detected below, not warned about
            with np.errstate(over="ignore", invalid="ignore", divide="ignore"):
                while True:
                    if should_stop is not None and should_stop():
                        outcome = Outcome(
                            "stopped", done, "train.outcome.stopped", {"iteration": done}
                        )
                        break
                    loss = loss_of(next(batches))
                    if not isfinite(loss):
                        outcome = _diverged(done + 1, "loss", loss, cfg)
                        break
                    norm = clip_global_norm(grads, clip)
                    if not isfinite(norm):
                        outcome = _diverged(done + 1, "gradient", norm, cfg)
                        break
                    before_step(done, total)
                    adam_step(params, grads)
                    losses[done] = loss
                    done += 1
                    if done == total:
                        break  # the final Progress reports the last stretch
                    now = clock()
                    if eval_every and done % eval_every == 0:
                        train_s += now - t0
                        snap = self.evaluate(done, sample_index=len(snapshots))
                        snapshots.append(snap)
                        eval_s += snap.seconds
                        t0 = now = clock()
                        break
                    if done - last_yield >= every or now - yielded_at >= max_interval:
                        break
            if outcome is not None or done == total:
                break
            train_s += clock() - t0
            yield Progress(done, total, loss, losses[last_yield:done].copy(), train_s, eval_s, snap)
            last_yield = done
            t0 = yielded_at = clock()
        train_s += clock() - t0

        final = None
        if outcome is None or outcome.kind == "stopped":
            final = self.evaluate(done, sample_index=len(snapshots))
            snapshots.append(final)
            eval_s += final.seconds
        if outcome is None:
            outcome = Outcome("finished", done, "train.outcome.finished", {"iteration": done})
        result = self._result(outcome, done, train_s, eval_s, losses[:done].copy(), final,
                              tuple(snapshots))  # fmt: skip
        last = float(losses[done - 1]) if done else math.nan
        yield Progress(
            done, total, last, losses[last_yield:done].copy(), train_s, eval_s,
            final, outcome, result,
        )  # fmt: skip


def _diverged(iteration: int, what: str, value: float, cfg: TrainConfig) -> Outcome:
    params: dict[str, object] = {
        "iteration": iteration, "value": str(value), "lr": f"{cfg.lr:g}",
        "suggest": f"{cfg.lr / 10:g}",
    }  # fmt: skip
    return Outcome("diverged", iteration - 1, f"train.outcome.diverged_{what}", params)


def train(config: TrainConfig, **run_options) -> Iterator[Progress]:
    """``Trainer(config).run(**run_options)``: see :meth:`Trainer.run`."""
    return Trainer(config).run(**run_options)


def run_to_end(config: TrainConfig, should_stop: Callable[[], bool] | None = None) -> RunResult:
    """Train without watching; returns the result."""
    run = train(config, every=config.iters, max_interval=math.inf, should_stop=should_stop)
    result = None
    for progress in run:
        result = progress.result
    assert result is not None
    return result


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
        return {"n": self.n, "mean": _json_float(self.mean), "sd": _json_float(self.sd),
                "min": _json_float(self.lo), "max": _json_float(self.hi)}  # fmt: skip


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
                "variant": v, "attention": cfg.attention,
                "score": cfg.score if cfg.attention else None, "params": cfg.n_params,
            }  # fmt: skip
            names = METRICS if cfg.attention else METRICS[:2]
            for name in names:
                entry[name] = self.stats(v, name).to_dict()
            entry["runs"] = [
                {"seed": r.config.seed, "outcome": r.outcome.kind}
                | {name: _json_float(metric(r, name)) for name in names}
                for r in runs
            ]
            entry["reference"] = book_reference(self.length, v, self.base.feed)
            variants.append(entry)
        return {"length": self.length, "iters": self.iters, "feed": self.base.feed,
                "seeds": list(self.seeds), "variants": variants}  # fmt: skip


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
