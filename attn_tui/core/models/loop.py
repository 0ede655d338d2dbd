"""The one training loop, for every model the tutor trains, and what it yields.

    for p in train(config, every=50):          # TrainConfig (the RNN), TransformerConfig, …
        show(p.iteration, p.total, p.loss, p.it_per_s)   # p.snapshot: a held-out evaluation
        if p.result: ...                                 # the last Progress carries the result

A model plugs in by implementing :class:`Model` — its parameters and their gradients as two
flat vectors, one training step, its learning rate at a given iteration, a held-out evaluation
(a :class:`Snapshot`), and its :class:`RunResult` — and by giving its settings a ``build()``
that returns one (see :class:`Settings`). The loop owns the rest, the same for every model:
Adam, gradient clipping, when to evaluate, stopping, divergence, timing and the Progress.

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
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

import numpy as np

from attn_tui.core.models.rnn import ALPHABET

# ---- what a run is made of -----------------------------------------------------------------


def letters(seq: Sequence[int]) -> str:
    return "".join(ALPHABET[int(s)] for s in seq)


def json_float(x: float) -> float | None:
    """A figure for JSON: NaN and infinities (a run with no evaluation) become null."""
    return x if math.isfinite(x) else None


@dataclass(frozen=True)
class Decode:
    """One held-out sequence decoded: what went in, what should come out, what came out."""

    x: tuple[int, ...]
    target: tuple[int, ...]
    prediction: tuple[int, ...]
    # The RNN: (Lo, Li), rows = output positions, columns = inputs; None without attention.
    # The Transformer: (layers, heads, L, L).
    attention: np.ndarray | None

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
        return {
            "weight": self.weight,
            "peaks": self.peaks,
            "left": self.left,
            "right": self.right,
            "row_max": self.row_max,
        }


@dataclass(frozen=True)
class Snapshot:
    """A held-out evaluation at one moment of training (never on training sequences)."""

    iteration: int
    seq_acc: float  # fraction of held-out sequences with every output right
    pos_acc: float  # fraction of output symbols that are right
    per_position: np.ndarray  # (L,) accuracy at each output position
    attention_mean: np.ndarray | None  # the held-out average of Decode.attention's shape
    probe: Decode  # the same held-out sequence every time, to watch its attention grow
    sample: Decode  # a different held-out sequence each time
    n_eval: int
    seconds: float  # how long this evaluation took
    heads: tuple[Any, ...] = ()  # the Transformer: what each head measures (HeadStats)

    @property
    def alignment(self) -> Alignment | None:
        """How one attention map sits on the reversal diagonal (None without attention, or
        where there is a map per layer and head: those are measured per head)."""
        a = self.attention_mean
        return Alignment.of(a) if a is not None and a.ndim == 2 else None


@dataclass(frozen=True)
class Outcome:
    """How a run ended. ``code``/``params`` name the sentence that explains it."""

    kind: str  # "finished" | "stopped" | "diverged"
    iteration: int  # iterations completed
    code: str
    params: dict[str, object] = field(default_factory=dict)


@dataclass(frozen=True)
class RunResult:
    """A finished run of any model: its settings, how it ended, and every figure it made."""

    config: Any  # the model's settings (TrainConfig, TransformerConfig)
    outcome: Outcome
    params: int  # parameter count: 838 or 934 for the book's RNN at H = 16
    iters: int  # iterations completed
    seconds: float  # time in training iterations alone
    eval_seconds: float  # time in held-out evaluations
    losses: np.ndarray  # (iters,) the loss of every iteration
    final: Snapshot | None  # the evaluation at the end (None if the run diverged)
    snapshots: tuple[Snapshot, ...]  # every evaluation, in order, for a timeline
    model: Any = None  # the trained weights, where the model keeps them (the Transformer's)
    ceiling: float | None = None  # the best a model blind to positions can do, if it is one

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
        """Plain Python for --json: the settings the model names, then the run's figures."""
        out: dict[str, object] = {
            **self.config.describe(),
            "params": self.params,
            "outcome": self.outcome.kind,
            "iters": self.iters,
            "seq_acc": json_float(self.seq_acc),
            "pos_acc": json_float(self.pos_acc),
            "final_loss": json_float(self.final_loss),
            "seconds": self.seconds,
            "eval_seconds": self.eval_seconds,
        }
        if self.ceiling is not None:
            out["position_blind_ceiling"] = self.ceiling
        final = self.final
        if final is not None:
            out["per_position"] = final.per_position.tolist()
            out["eval_size"] = final.n_eval
            if final.attention_mean is not None:
                # the RNN: rows = output positions; the Transformer: [layer][head][row]
                out["attention"] = final.attention_mean.tolist()
            if final.alignment is not None:
                out["alignment"] = final.alignment.to_dict()
            if final.heads:
                out["head_stats"] = [h.to_dict() for h in final.heads]
            out["probe"] = final.probe.to_dict()
        return out


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


# ---- what a model gives the loop -----------------------------------------------------------


class Settings(Protocol):
    """What the loop reads of a model's settings (a frozen dataclass, validated by the model)."""

    # Read-only (properties), as a frozen dataclass's fields are.
    @property
    def iters(self) -> int: ...  # training iterations
    @property
    def eval_every(self) -> int: ...  # iterations between held-out evaluations; 0 = at the end
    @property
    def clip(self) -> float: ...  # global gradient-norm limit; 0 turns clipping off
    @property
    def lr(self) -> float: ...  # Adam's learning rate (a model may schedule it: learning_rate)
    @property
    def beta1(self) -> float: ...
    @property
    def beta2(self) -> float: ...
    @property
    def eps(self) -> float: ...
    @property
    def seed(self) -> int: ...
    @property
    def length(self) -> int: ...

    def build(self) -> Model:
        """The model these settings describe, initialised from their seed, on its task."""
        ...

    def describe(self) -> dict[str, object]:
        """The settings a --json report names, first in its object."""
        ...


class Model(Protocol):
    """One model on its task, ready to train. The loop calls, per iteration::

        loss = model.step()                  # forward + backward on the next training batch
        clip(model.grads); adam.lr = model.learning_rate(done, total); adam.step(params, grads)

    and ``model.evaluate`` every ``eval_every`` iterations and at the end.
    """

    @property
    def config(self) -> Settings: ...  # read-only: the settings it was built from

    params: np.ndarray  # every parameter in one flat vector; Adam updates it in place
    grads: np.ndarray  # its gradient, the same shape, filled by step()

    def step(self) -> float:
        """One forward and backward pass on the next training batch: returns the loss and
        leaves the gradient in ``grads``."""
        ...

    def learning_rate(self, done: int, total: int) -> float:
        """Adam's learning rate for the step after ``done`` of ``total`` iterations."""
        ...

    def evaluate(self, iteration: int, sample_index: int = 0) -> Snapshot:
        """The held-out evaluation now; ``sample_index`` picks this time's sample sequence."""
        ...

    def result(self, **figures: Any) -> RunResult:
        """The run's result: ``figures`` are RunResult's fields from ``outcome`` to
        ``snapshots``; the model adds its settings, its size and what else it keeps."""
        ...


# ---- the optimiser -------------------------------------------------------------------------


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


# ---- the loop ------------------------------------------------------------------------------


def run(
    model: Model,
    *,
    every: int = 1,
    max_interval: float = 0.05,
    should_stop: Callable[[], bool] | None = None,
    clock: Callable[[], float] = time.perf_counter,
    adam: Adam | None = None,
) -> Iterator[Progress]:
    """Train ``model``, yielding a Progress every ``every`` iterations, at every evaluation, at
    least every ``max_interval`` seconds, and once more at the end (with ``result`` set).

    ``every=1`` gives each iteration (for a watchable or single-step pace: the consumer sleeps
    or waits between items; the clock excludes that time). The numbers do not depend on
    ``every``, ``max_interval`` or how fast the consumer is. ``clock`` is replaceable for
    tests; ``adam``, an optimiser of one's own to look into afterwards.
    """
    cfg = model.config
    params, grads = model.params, model.grads
    if adam is None:
        adam = Adam(params.size, cfg.lr, cfg.beta1, cfg.beta2, cfg.eps, params.dtype)
    every = max(1, int(every))
    total = cfg.iters
    losses = np.empty(total, np.float64)
    snapshots: list[Snapshot] = []
    train_s = eval_s = 0.0
    done = last_yield = 0
    outcome: Outcome | None = None
    t0 = yielded_at = clock()

    # bound once: the loop body runs thousands of times a second
    step, learning_rate, adam_step = model.step, model.learning_rate, adam.step
    clip, eval_every, isfinite = cfg.clip, cfg.eval_every, math.isfinite

    while done < total and outcome is None:
        snap = None
        # iterate until it is time to report; overflow is detected below, not warned about
        with np.errstate(over="ignore", invalid="ignore", divide="ignore"):
            while True:
                if should_stop is not None and should_stop():
                    outcome = Outcome("stopped", done, "train.outcome.stopped", {"iteration": done})
                    break
                loss = step()
                if not isfinite(loss):
                    outcome = _diverged(done + 1, "loss", loss, cfg.lr)
                    break
                norm = clip_global_norm(grads, clip)
                if not isfinite(norm):
                    outcome = _diverged(done + 1, "gradient", norm, cfg.lr)
                    break
                adam.lr = learning_rate(done, total)
                adam_step(params, grads)
                losses[done] = loss
                done += 1
                if done == total:
                    break  # the final Progress reports the last stretch
                now = clock()
                if eval_every and done % eval_every == 0:
                    train_s += now - t0
                    snap = model.evaluate(done, sample_index=len(snapshots))
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
        final = model.evaluate(done, sample_index=len(snapshots))
        snapshots.append(final)
        eval_s += final.seconds
    if outcome is None:
        outcome = Outcome("finished", done, "train.outcome.finished", {"iteration": done})
    result = model.result(
        outcome=outcome,
        iters=done,
        seconds=train_s,
        eval_seconds=eval_s,
        losses=losses[:done].copy(),
        final=final,
        snapshots=tuple(snapshots),
    )
    last = float(losses[done - 1]) if done else math.nan
    yield Progress(
        done, total, last, losses[last_yield:done].copy(), train_s, eval_s, final, outcome, result
    )


def _diverged(iteration: int, what: str, value: float, lr: float) -> Outcome:
    params: dict[str, object] = {
        "iteration": iteration,
        "value": str(value),
        "lr": f"{lr:g}",
        "suggest": f"{lr / 10:g}",
    }
    return Outcome("diverged", iteration - 1, f"train.outcome.diverged_{what}", params)


def train(config: Settings, **run_options: Any) -> Iterator[Progress]:
    """Any model's run from its settings: ``run(config.build(), **run_options)``."""
    return run(config.build(), **run_options)


def run_to_end(config: Settings, should_stop: Callable[[], bool] | None = None) -> RunResult:
    """Train without watching; returns the result."""
    result = None
    quietly = train(config, every=config.iters, max_interval=math.inf, should_stop=should_stop)
    for progress in quietly:
        result = progress.result
    assert result is not None
    return result
