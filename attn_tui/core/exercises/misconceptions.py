"""The misconception bank: a wrong number, vector, matrix or choice, named for what it is.

For an exercise whose answer the core computes — ``check`` (stored) or ``generate`` (drawn) —
each misconception is *recomputed* on that exercise's own numbers: the weights of the unscaled
scores, the scores divided by d instead of √d, the plain average of the values, the mask put
on after the softmax … A wrong answer is diagnosed only when it equals one of those (within the
exercise's own tolerance), the right answer does not, and no other misconception gives the same
numbers. So a diagnosis always fits the answer: "8 is √64, the standard deviation; the
question asks for the variance" is said of 8, never of 7 or 9. A few apply to every numeric
answer (a fraction given as a percent, the answer rounded too coarsely, the sign flipped, a
matrix transposed, a shape's two sizes swapped). For choices, the reason is the teacher's own:
the ``why`` written beside each wrong option.

A :class:`Diagnosis` carries a text key and its numbers (``course.mis.<code>`` in
``attn_tui/text/course.py``), or, for a choice, the option's ``why`` text itself.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from attn_tui.core.attention.steps import hardmax, softmax
from attn_tui.core.exercises.generators import (
    CHECKS,
    Instance,
    _matrix,
    _params,
    _vector,
    fmt_matrix,
    fmt_number,
    fmt_vector,
    rnn_params,
)
from attn_tui.core.exercises.model import Text, Tolerance
from attn_tui.core.parse import InputError


@dataclass(frozen=True)
class Diagnosis:
    """One named mistake: ``code`` (the misconception), numbers to say it with, or the
    teacher's own words for a wrong choice (``text``)."""

    code: str
    params: Mapping[str, Any] = field(default_factory=dict)
    text: Text | None = None

    @property
    def key(self) -> str:
        return f"course.mis.{self.code}"

    def message(self, t: Callable[..., str], lang: str | None = None) -> str:
        if self.text is not None:
            code = lang or ("zh" if t("ex.lang") == "zh" else "en")
            return t("course.mis.choice", lang=lang, why=self.text.get(code), **self.params)
        return t(self.key, lang=lang, **self.params)

    def to_dict(self, t: Callable[..., str], lang: str | None = None) -> dict[str, Any]:
        return {
            "code": self.code,
            "params": {k: v for k, v in self.params.items()},
            "message": self.message(t, lang),
        }


# Every misconception the bank knows, for the docs and the tests: code → what it is.
CODES = {
    "std-for-variance": "the standard deviation where the variance is asked",
    "variance-for-std": "the variance where the standard deviation is asked",
    "variance-after-scaling": "the variance after scaling where the one before is asked",
    "no-root": "a number where its square root is asked",
    "unscaled": "the scores not divided by √d",
    "scaled-anyway": "the scores divided by √d where the question turns scaling off",
    "divided-by-d": "the scores divided by d instead of √d",
    "sqrt-where-d-asked": "the usual √d scaling where the question divides by d",
    "scaled-for-raw": "scaled scores where the plain dot products are asked",
    "temperature-ignored": "the temperature left out",
    "scores-as-weights": "the scores themselves where the weights are asked",
    "no-exp": "scores divided by their sum, without exp",
    "not-normalised": "exp of the scores, not divided by their sum",
    "no-max-shift": "the sum of exp without subtracting the largest score",
    "uniform": "equal weights, as if the scores did not matter",
    "plain-average": "the plain average of the values (uniform weights)",
    "hard-max": "a hard max (one-hot) where softmax is asked",
    "mask-after-softmax": "the mask applied after the softmax",
    "mask-transposed": "the causal mask transposed (the future visible)",
    "mask-no-diagonal": "a causal mask that hides each position from itself",
    "mask-inverted": "the hidden cells marked instead of the visible ones",
    "dmodel-for-dk": "d_model where d_k is meant",
    "heads-times": "d_model times the heads instead of divided",
    "rnn-no-wider-output": "attention without the wider output layer",
    "rnn-no-bias": "the parameter count without the biases",
    "rnn-one-rnn": "the parameter count with one RNN instead of two",
    "rnn-projections": "W_q, W_k, W_v counted in the book's plain dot attention",
    "cost-linear": "the cost growing with n instead of n²",
    "count-linear": "n scores instead of n²",
    "percent": "a fraction and a percent confused (a factor of 100)",
    "rounded": "the answer rounded too coarsely",
    "sign": "the sign flipped",
    "transposed": "the matrix transposed (rows and columns swapped)",
    "shape-swapped": "a shape's sizes in the wrong order",
    "choice": "the reason written beside a wrong option",
}

Candidate = tuple[str, Any, dict[str, Any]]  # code, wrong value, message params


# -- what the exercise computes ----------------------------------------------------------------


def context(inst: Instance) -> tuple[str, dict[str, Any]] | None:
    """The core function an exercise's answer comes from and its inputs (arrays parsed), or
    None when its answer is only written down (no ``check``, not generated)."""
    ex = inst.exercise
    if inst.drawn is not None:
        return inst.drawn.fn, dict(inst.drawn.values)
    if not ex.check:
        return None
    spec = dict(ex.check)
    fn = spec.pop("fn", None)
    if fn not in CHECKS:
        return None
    try:
        p = _params(fn, spec, CHECKS[fn].required, CHECKS[fn].defaults)
        out: dict[str, Any] = dict(p)
        for name in ("query", "a", "b", "scores"):
            if name in p and p[name] is not None:
                out[name] = _vector(fn, p, name)
        for name in ("keys", "values"):
            if name in p and p[name] is not None:
                out[name] = _matrix(fn, p, name)
    except (InputError, KeyError, TypeError, ValueError):
        return None
    return fn, out


# -- the misconceptions, recomputed per core function ----------------------------------------


def _v(x: np.ndarray) -> str:
    return fmt_vector(x)


def _attention(fn: str, p: dict[str, Any]) -> Iterator[Candidate]:
    q = np.asarray(p["query"], dtype=np.float64)
    K = np.asarray(p["keys"], dtype=np.float64)
    V = p.get("values")
    V = K if V is None else np.asarray(V, dtype=np.float64)
    scale = bool(p.get("scale", True))
    T = float(p.get("temperature", 1.0) or 1.0)
    d = q.shape[0]
    n = K.shape[0]
    s = K @ q
    root = math.sqrt(d)
    z = s / root if scale else s
    info = {"d": d, "sqrt_d": fmt_number(root), "n": n}

    def weights(logits: np.ndarray) -> np.ndarray:
        return softmax(logits / T)

    if fn == "attention.scores":
        if d > 1:
            yield "scaled-for-raw", s / root, info
        return
    if fn == "attention.scaled":
        if d > 1:
            yield "unscaled", s, info
            yield "divided-by-d", s / d, info
        return
    # weights and outputs: every wrong set of weights, then (for outputs) what it mixes
    wrong: list[tuple[str, np.ndarray, dict[str, Any]]] = []
    if scale and d > 1:
        wrong.append(("unscaled", weights(s), info))
        wrong.append(("divided-by-d", weights(s / d), info))
    if not scale and d > 1:
        wrong.append(("scaled-anyway", weights(s / root), info))
    if T != 1.0:
        wrong.append(("temperature-ignored", softmax(z), {**info, "T": fmt_number(T)}))
    wrong.append(("uniform", np.full(n, 1.0 / n), info))
    if n > 1 and np.count_nonzero(z == z.max()) == 1:
        wrong.append(("hard-max", hardmax(z), info))
    if fn == "attention.weights":
        yield from wrong
        u = z / T
        e = np.exp(u - u.max())
        yield "not-normalised", e, {**info, "sum": fmt_number(float(e.sum()))}
        if float(np.max(u)) < 50:
            yield "not-normalised", np.exp(u), {**info, "sum": fmt_number(float(np.exp(u).sum()))}
        if abs(float(u.sum())) > 1e-9:
            yield "no-exp", u / u.sum(), info
        yield "scores-as-weights", z, info
        return
    for code, w, params in wrong:
        code = "plain-average" if code == "uniform" else code
        yield code, w @ V, params


def _softmax(p: dict[str, Any]) -> Iterator[Candidate]:
    s = np.asarray(p["scores"], dtype=np.float64)
    n = s.shape[0]
    info = {"n": n}
    e = np.exp(s - s.max())
    yield "not-normalised", e, {**info, "sum": fmt_number(float(e.sum()))}
    if float(s.max()) < 50:
        yield "not-normalised", np.exp(s), {**info, "sum": fmt_number(float(np.exp(s).sum()))}
    if abs(float(s.sum())) > 1e-9:
        yield "no-exp", s / s.sum(), info
    yield "uniform", np.full(n, 1.0 / n), info
    if n > 1 and np.count_nonzero(s == s.max()) == 1:
        yield "hard-max", hardmax(s), info


def _masked_softmax(p: dict[str, Any]) -> Iterator[Candidate]:
    s = np.asarray(p["scores"], dtype=np.float64)
    k = int(p["visible"])
    after = softmax(s)
    after[k:] = 0.0
    yield "mask-after-softmax", after, {"sum": fmt_number(float(after.sum())), "visible": k}
    yield "uniform", np.where(np.arange(len(s)) < k, 1.0 / k, 0.0), {"n": k}


def _sqrt(p: dict[str, Any]) -> Iterator[Candidate]:
    x = float(p["x"] if "x" in p else p["d"])
    if x not in (0.0, 1.0):
        yield "no-root", x, {"x": fmt_number(x)}


def _dot_variance(p: dict[str, Any]) -> Iterator[Candidate]:
    d = float(p["d"])
    yield "std-for-variance", math.sqrt(d), {"d": fmt_number(d)}
    yield "variance-after-scaling", 1.0, {"d": fmt_number(d)}


def _dot_std(p: dict[str, Any]) -> Iterator[Candidate]:
    d = float(p["d"])
    by = p.get("by", "none")
    root = math.sqrt(d)
    info = {"d": fmt_number(d), "sqrt_d": fmt_number(root)}
    if by == "none":
        yield "variance-for-std", d, info
    elif by == "sqrt":
        yield "unscaled", root, info
        yield "variance-for-std", 1.0, info
    else:  # divided by d
        yield "unscaled", root, info
        yield "sqrt-where-d-asked", 1.0, info
        yield "variance-for-std", 1.0 / d, info


def _exp_sum(p: dict[str, Any]) -> Iterator[Candidate]:
    q, K = np.asarray(p["query"]), np.asarray(p["keys"])
    z = (K @ q) / math.sqrt(q.shape[0])
    if float(z.max()) < 50:
        yield "no-max-shift", float(np.exp(z).sum()), {"shift": fmt_number(float(z.max()))}


def _causal(p: dict[str, Any]) -> Iterator[Candidate]:
    n = int(p["n"])
    low = np.tril(np.ones((n, n)))
    yield "mask-transposed", low.T, {"n": n}
    yield "mask-no-diagonal", np.tril(np.ones((n, n)), -1), {"n": n}
    yield "mask-inverted", 1.0 - low, {"n": n}


def _rnn(p: dict[str, Any]) -> Iterator[Candidate]:
    i, h, o = int(p["input"]), int(p["hidden"]), int(p["output"])
    attention = bool(p.get("attention", False))
    right = rnn_params(i, h, o, attention)
    info = {"hidden": h, "wide": 2 * h if attention else h, "right": right}
    if attention:
        yield "rnn-no-wider-output", float(rnn_params(i, h, o, False)), info
        yield "rnn-projections", float(right + 3 * h * h), info
    reads = 2 * h if attention else h
    yield "rnn-no-bias", float(2 * (i * h + h * h) + reads * o), info
    yield "rnn-one-rnn", float(i * h + h * h + h + reads * o + o), info


def _head_dim(p: dict[str, Any]) -> Iterator[Candidate]:
    d_model, heads = int(p["d_model"]), int(p["heads"])
    info = {"d_model": d_model, "heads": heads}
    if heads > 1:
        yield "dmodel-for-dk", float(d_model), info
        yield "heads-times", float(d_model * heads), info


def _score_count(p: dict[str, Any]) -> Iterator[Candidate]:
    n = int(p["n"])
    if n > 1:
        yield "count-linear", float(n), {"n": n}


def _cost_ratio(p: dict[str, Any]) -> Iterator[Candidate]:
    a, b = int(p["n_from"]), int(p["n_to"])
    if a != b:
        yield "cost-linear", b / a, {"n_from": a, "n_to": b}


_BANK: dict[str, Callable[[dict[str, Any]], Iterator[Candidate]]] = {
    "attention.scores": lambda p: _attention("attention.scores", p),
    "attention.scaled": lambda p: _attention("attention.scaled", p),
    "attention.weights": lambda p: _attention("attention.weights", p),
    "attention.output": lambda p: _attention("attention.output", p),
    "softmax": _softmax,
    "masked_softmax": _masked_softmax,
    "sqrt": _sqrt,
    "dot_variance": _dot_variance,
    "dot_std": _dot_std,
    "exp_sum": _exp_sum,
    "causal_mask": _causal,
    "rnn_params": _rnn,
    "head_dim": _head_dim,
    "score_count": _score_count,
    "cost_ratio": _cost_ratio,
}


def _universal(kind: str, answer: np.ndarray, shapes: bool) -> Iterator[Candidate]:
    """What fits any numeric answer: a factor of 100, the sign, a transpose, swapped sizes.
    (Rounding is judged apart: it is about the digits typed, not a value.)"""
    if np.any(answer != 0):
        yield "percent", answer * 100.0, {}
        yield "percent", answer / 100.0, {}
        yield "sign", -answer, {}
    if kind == "matrix" and answer.ndim == 2 and answer.shape[0] == answer.shape[1]:
        if not np.array_equal(answer, answer.T):  # (a non-square one: see diagnose)
            yield "transposed", answer.T, {}
    if kind == "vector" and shapes and answer.ndim == 1 and len(answer) >= 2:
        if not np.array_equal(answer, answer[::-1]):
            yield "shape-swapped", answer[::-1], {}


# -- matching ---------------------------------------------------------------------------------


def _matches(got: np.ndarray, want: np.ndarray, tol: Tolerance) -> bool:
    if got.shape != want.shape or not np.all(np.isfinite(want)):
        return False
    return all(tol.ok(float(g), float(w)) for g, w in zip(got.ravel(), want.ravel(), strict=True))


def _rounded(got: np.ndarray, answer: np.ndarray, tol: Tolerance) -> int | None:
    """The decimals the answer was rounded to, when every entry of ``got`` is the right value
    rounded to that many places (0–3) and at least one of them is then out of tolerance."""
    for places in range(0, 4):
        r = np.round(answer, places)
        if np.allclose(got, r, rtol=0, atol=1e-9) and not _matches(got, answer, tol):
            if places == 0 and np.all(np.abs(answer) < 0.5):
                continue  # every entry rounds to 0: that says nothing of the learner's digits
            return places
    return None


def diagnose(inst: Instance, value: Any) -> tuple[Diagnosis, ...]:
    """The misconception ``value`` (a wrong number, vector or matrix, as graded) shows, if
    exactly one fits; ``()`` otherwise. The caller has graded it wrong already."""
    ex = inst.exercise
    if ex.kind not in ("number", "vector", "matrix") or value is None:
        return ()
    got = np.atleast_1d(np.asarray(value, dtype=np.float64))
    answer = np.atleast_1d(np.asarray(inst.answer, dtype=np.float64))
    if ex.kind == "matrix":
        got, answer = np.atleast_2d(got), np.atleast_2d(answer)
    tol = ex.tolerance
    if not np.all(np.isfinite(got)):
        return ()
    if ex.kind == "matrix" and got.shape != answer.shape and got.shape == answer.T.shape:
        if _matches(got, answer.T, tol):  # a non-square answer written the other way round
            return (Diagnosis("transposed", {"got": _show(got, ex.kind)}),)
    if got.shape != answer.shape:
        return ()
    if _matches(got, answer, tol):
        return ()
    ctx = context(inst)
    specific: list[Candidate] = []
    if ctx is not None and ctx[0] in _BANK:
        try:
            with np.errstate(all="ignore"):
                specific = list(_BANK[ctx[0]](ctx[1]))
        except (KeyError, TypeError, ValueError, ZeroDivisionError, OverflowError):
            specific = []  # an input the bank cannot recompute: no diagnosis, not a wrong one
    # The exercise's own mistakes first (a causal mask transposed is "the future visible",
    # more than "a transposed matrix"); what fits any answer only when none of them does.
    found = _fitting(specific, got, answer, ex.kind, tol)
    if not found:
        found = _fitting(
            list(_universal(ex.kind, answer, "shapes" in ex.topics)), got, answer, ex.kind, tol
        )
        places = _rounded(got, answer, tol)
        if places is not None:
            found.setdefault("rounded", {"places": places})
    if len(found) != 1:
        return ()  # none, or two mistakes that give the same numbers: say neither
    code, params = next(iter(found.items()))
    shown = {"got": _show(got, ex.kind)}
    return (Diagnosis(code, {**shown, **params}),)


def _fitting(
    candidates: list[Candidate], got: np.ndarray, answer: np.ndarray, kind: str, tol: Tolerance
) -> dict[str, dict[str, Any]]:
    """The codes whose wrong value ``got`` equals (and that differ from the right answer)."""
    found: dict[str, dict[str, Any]] = {}
    for code, wrong, params in candidates:
        w = np.asarray(wrong, dtype=np.float64)
        w = np.atleast_2d(w) if kind == "matrix" else np.atleast_1d(w)
        if _matches(w, answer, tol):
            continue  # this mistake gives the right answer here: it cannot be told apart
        if _matches(got, w, tol):
            found.setdefault(code, params)
    return found


def _show(x: np.ndarray, kind: str) -> str:
    if kind == "number":
        return fmt_number(float(x.ravel()[0]))
    if kind == "vector":
        return _v(x.ravel())
    return fmt_matrix(x)


def diagnose_choice(inst: Instance, picked: Any) -> tuple[Diagnosis, ...]:
    """The teacher's reason for each wrong option picked (``choice``: an id; ``multi``: ids)."""
    ex = inst.exercise
    if ex.kind == "choice":
        ids = [picked] if isinstance(picked, str) and picked != inst.answer else []
    elif ex.kind == "multi":
        ids = sorted(set(picked or ()) - set(inst.answer))
    else:
        return ()
    out = []
    for cid in ids:
        c = ex.choice(cid)
        if c is not None and c.why is not None:
            out.append(Diagnosis("choice", {"choice": cid}, c.why))
    return tuple(out)
