"""The core functions exercise files may name: ``check`` recomputes a stored answer, ``generate``
draws fresh numbers from a seed and computes their answer.

Both go through the same :mod:`attn_tui.core.attention.steps` the calculator uses, so a generated
answer cannot disagree with what the calculator shows. Parameters arrive straight from a
teacher's TOML file, so every one is checked here; a bad one raises :class:`InputError` with an
``ex.param_*`` code (or the parser's own code, with ``field`` set to the parameter's name).

An :class:`Instance` is one exercise as the learner sees it: a stored exercise as written, or a
generated one with its drawn numbers, its seed and its computed answer.
"""

from __future__ import annotations

import math
import re
import secrets
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any, TypeGuard

import numpy as np

from attn_tui.core.attention.steps import attend, softmax
from attn_tui.core.exercises.model import Exercise, Msg
from attn_tui.core.exercises.worked import worked
from attn_tui.core.parse import InputError, parse_matrix, parse_vector, shown

# -- reading parameters ---------------------------------------------------------------------


def _bad(fn: str, param: str, value: object, rule: str) -> InputError:
    return InputError("ex.param_invalid", fn=fn, param=param, value=_show(value), rule=Msg(rule))


def _show(value: object) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (list, dict)) and len(value) > 64:  # a message quotes a little of it
        value = [*list(value)[:8], "…"]
    return shown(str(value), 80)


def _is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _is_num(value: object) -> TypeGuard[int | float]:
    """A finite number; an integer too large for a float (TOML allows 10**400) is not one."""
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return False
    return abs(value) <= 1e308 if isinstance(value, int) else math.isfinite(value)


def _as_text(row: list[Any]) -> str:
    return " ".join(repr(float(v)) for v in row)


def _vector(fn: str, p: Mapping[str, Any], name: str) -> np.ndarray:
    """A vector parameter, typed as text or as a TOML list: either way through the parser, so
    the calculator's limits hold (64 entries, |x| ≤ 10⁶: every dot product stays finite)."""
    value = p[name]
    if isinstance(value, str):
        return parse_vector(value, field=name)
    if isinstance(value, list) and value and all(_is_num(v) for v in value):
        return parse_vector(_as_text(value), field=name)
    raise _bad(fn, name, value, "ex.rule.vector")


def _matrix(fn: str, p: Mapping[str, Any], name: str) -> np.ndarray:
    value = p[name]
    if isinstance(value, str):
        return parse_matrix(value, field=name)
    if (
        isinstance(value, list)
        and value
        and all(isinstance(r, list) and r and all(_is_num(v) for v in r) for r in value)
        and len({len(r) for r in value}) == 1
    ):
        return parse_matrix("\n".join(_as_text(r) for r in value), field=name)
    raise _bad(fn, name, value, "ex.rule.matrix")


def _int(fn: str, p: Mapping[str, Any], name: str, lo: int, hi: int) -> int:
    value = p[name]
    if not _is_int(value) or not lo <= value <= hi:
        raise InputError("ex.param_range", fn=fn, param=name, value=_show(value), lo=lo, hi=hi)
    return int(value)


def _number(fn: str, p: Mapping[str, Any], name: str, lo: float = -math.inf) -> float:
    value = p[name]
    if not _is_num(value) or value < lo:
        raise _bad(fn, name, value, "ex.rule.number" if lo == -math.inf else "ex.rule.nonneg")
    return float(value)


def _bool(fn: str, p: Mapping[str, Any], name: str) -> bool:
    value = p[name]
    if not isinstance(value, bool):
        raise _bad(fn, name, value, "ex.rule.bool")
    return value


def _int_list(fn: str, p: Mapping[str, Any], name: str, lo: int = 1, hi: int = 10**6) -> list[int]:
    value = p[name]
    if not (isinstance(value, list) and value and all(_is_int(v) and lo <= v <= hi for v in value)):
        raise _bad(fn, name, value, "ex.rule.int_list")
    return [int(v) for v in value]


def _num_list(fn: str, p: Mapping[str, Any], name: str) -> list[float]:
    value = p[name]
    if not (isinstance(value, list) and value and all(_is_num(v) and v >= 0 for v in value)):
        raise _bad(fn, name, value, "ex.rule.num_list")
    return [float(v) for v in value]


def _pair_list(fn: str, p: Mapping[str, Any], name: str) -> list[tuple[int, int]]:
    value = p[name]
    ok = (
        isinstance(value, list)
        and value
        and all(
            isinstance(pair, list) and len(pair) == 2 and all(_is_int(v) and v >= 1 for v in pair)
            for pair in value
        )
    )
    if not ok:
        raise _bad(fn, name, value, "ex.rule.pair_list")
    return [(int(a), int(b)) for a, b in value]


def _params(
    fn: str, given: Mapping[str, Any], required: tuple[str, ...], defaults: Mapping[str, Any]
) -> dict[str, Any]:
    """Merge defaults, refuse unknown names and report the first missing one."""
    allowed = set(required) | set(defaults)
    for name in given:
        if name not in allowed:
            raise InputError(
                "ex.param_unknown", fn=fn, param=name, known=", ".join(sorted(allowed))
            )
    for name in required:
        if name not in given:
            raise InputError("ex.param_missing", fn=fn, param=name)
    return {**defaults, **given}


# -- check: recompute a stored answer -------------------------------------------------------


def _attention_inputs(fn: str, p: Mapping[str, Any]) -> tuple[np.ndarray, np.ndarray]:
    q = _vector(fn, p, "query")
    K = _matrix(fn, p, "keys")
    return q, K


def _check_dot(p: dict[str, Any]) -> float:
    a, b = _vector("dot", p, "a"), _vector("dot", p, "b")
    if a.shape != b.shape:
        raise InputError("ex.length_mismatch", fn="dot", a=len(a), b=len(b))
    return float(a @ b)


def _check_scores(p: dict[str, Any]) -> np.ndarray:
    return attend(*_attention_inputs("attention.scores", p)).scores


def _check_scaled(p: dict[str, Any]) -> np.ndarray:
    return attend(*_attention_inputs("attention.scaled", p)).scaled


def _weights_or_output(fn: str, p: dict[str, Any], values: bool):
    q, K = _attention_inputs(fn, p)
    V = _matrix(fn, p, "values") if values and p.get("values") is not None else None
    scale = _bool(fn, p, "scale")
    temperature = _number(fn, p, "temperature")
    return attend(q, K, V, scale=scale, temperature=temperature)


def _check_weights(p: dict[str, Any]) -> np.ndarray:
    return _weights_or_output("attention.weights", p, values=False).weights


def _check_output(p: dict[str, Any]) -> np.ndarray:
    return _weights_or_output("attention.output", p, values=True).output


def _check_softmax(p: dict[str, Any]) -> np.ndarray:
    return softmax(_vector("softmax", p, "scores"))


def _check_sqrt(p: dict[str, Any]) -> float:
    return math.sqrt(_number("sqrt", p, "x", lo=0.0))


def causal_mask(n: int) -> np.ndarray:
    """(n, n): 1 where query i may look at key j (j ≤ i), 0 above the diagonal."""
    return np.tril(np.ones((n, n)))


def _check_causal(p: dict[str, Any]) -> np.ndarray:
    return causal_mask(_int("causal_mask", p, "n", 1, 64))


def rnn_params(inputs: int, hidden: int, outputs: int, attention: bool) -> int:
    """Parameters of the seed's reversal RNN: tanh encoder and decoder, one output layer.

    encoder  W_xh (I×H) + W_hh (H×H) + b_h (H); decoder the same; output W_hy + b_y, where the
    output layer reads [h_t ; context] (2H wide) with attention, h_t (H wide) without.
    6, 16, 6 → 838 without attention, 934 with (16×6 → 32×6: 96 more).
    """
    rnn = inputs * hidden + hidden * hidden + hidden
    reads = 2 * hidden if attention else hidden
    return 2 * rnn + reads * outputs + outputs


def _check_rnn(p: dict[str, Any]) -> float:
    fn = "rnn_params"
    return float(
        rnn_params(
            _int(fn, p, "input", 1, 10**4),
            _int(fn, p, "hidden", 1, 10**4),
            _int(fn, p, "output", 1, 10**4),
            _bool(fn, p, "attention"),
        )
    )


def _check_head_dim(p: dict[str, Any]) -> float:
    fn = "head_dim"
    return _int(fn, p, "d_model", 1, 10**6) / _int(fn, p, "heads", 1, 10**4)


def _check_score_count(p: dict[str, Any]) -> float:
    return float(_int("score_count", p, "n", 1, 10**7) ** 2)


def _check_cost_ratio(p: dict[str, Any]) -> float:
    fn = "cost_ratio"
    return (_int(fn, p, "n_to", 1, 10**9) / _int(fn, p, "n_from", 1, 10**9)) ** 2


def masked_softmax(scores: np.ndarray, visible: int) -> np.ndarray:
    """One row of causal attention: softmax over the first ``visible`` scores, 0 after them
    (the mask sets the later scores to −∞ *before* the softmax)."""
    out = np.zeros_like(scores, dtype=np.float64)
    out[:visible] = softmax(scores[:visible])
    return out


def _check_masked(p: dict[str, Any]) -> np.ndarray:
    fn = "masked_softmax"
    scores = _vector(fn, p, "scores")
    return masked_softmax(scores, _int(fn, p, "visible", 1, len(scores)))


def _check_dot_variance(p: dict[str, Any]) -> float:
    """Var(q·k) for d independent components of mean 0 and variance 1: d."""
    return float(_int("dot_variance", p, "d", 1, 10**6))


DIVISORS = ("none", "sqrt", "d")


def _check_dot_std(p: dict[str, Any]) -> float:
    """The standard deviation of q·k (√d), of q·k/√d (1) or of q·k/d (1/√d)."""
    fn = "dot_std"
    d = _int(fn, p, "d", 1, 10**6)
    by = p["by"]
    if by not in DIVISORS:
        raise InputError(
            "ex.param_choice", fn=fn, param="by", value=_show(by), choices=", ".join(DIVISORS)
        )
    return {"none": math.sqrt(d), "sqrt": 1.0, "d": 1 / math.sqrt(d)}[by]


def _check_exp_sum(p: dict[str, Any]) -> float:
    """Σ exp(zᵢ − max z) for z = q·K/√d: the softmax's denominator as the calculator shows it."""
    return float(attend(*_attention_inputs("exp_sum", p)).exp_sum)


@dataclass(frozen=True)
class CheckSpec:
    kind: str  # "number", "vector" or "matrix"
    required: tuple[str, ...]
    defaults: Mapping[str, Any]
    compute: Callable[[dict[str, Any]], Any]


_ATT = ("query", "keys")
CHECKS: dict[str, CheckSpec] = {
    "dot": CheckSpec("number", ("a", "b"), {}, _check_dot),
    "attention.scores": CheckSpec("vector", _ATT, {}, _check_scores),
    "attention.scaled": CheckSpec("vector", _ATT, {}, _check_scaled),
    "attention.weights": CheckSpec(
        "vector", _ATT, {"scale": True, "temperature": 1.0}, _check_weights
    ),
    "attention.output": CheckSpec(
        "vector", _ATT, {"values": None, "scale": True, "temperature": 1.0}, _check_output
    ),
    "softmax": CheckSpec("vector", ("scores",), {}, _check_softmax),
    "sqrt": CheckSpec("number", ("x",), {}, _check_sqrt),
    "causal_mask": CheckSpec("matrix", ("n",), {}, _check_causal),
    "rnn_params": CheckSpec(
        "number", ("input", "hidden", "output"), {"attention": False}, _check_rnn
    ),
    "head_dim": CheckSpec("number", ("d_model", "heads"), {}, _check_head_dim),
    "score_count": CheckSpec("number", ("n",), {}, _check_score_count),
    "cost_ratio": CheckSpec("number", ("n_from", "n_to"), {}, _check_cost_ratio),
    "masked_softmax": CheckSpec("vector", ("scores", "visible"), {}, _check_masked),
    "dot_variance": CheckSpec("number", ("d",), {}, _check_dot_variance),
    "dot_std": CheckSpec("number", ("d",), {"by": "none"}, _check_dot_std),
    "exp_sum": CheckSpec("number", _ATT, {}, _check_exp_sum),
}


def run_check(spec: Mapping[str, Any]) -> float | np.ndarray:
    """Compute ``check = { fn = ..., ... }``: a float for number kinds, an array otherwise."""
    params = dict(spec)
    fn = params.pop("fn", None)
    if not isinstance(fn, str) or fn not in CHECKS:
        raise InputError("ex.unknown_check", fn=_show(fn), known=", ".join(CHECKS))
    check = CHECKS[fn]
    merged = _params(fn, params, check.required, check.defaults)
    with _no_overflow(fn):
        return check.compute(merged)


@contextmanager
def _no_overflow(fn: str) -> Iterator[None]:
    """A computation that overflows is a fault in the file's numbers, said in a sentence (and
    NumPy's RuntimeWarning never reaches the terminal). Underflow (exp of a very negative
    score) is ordinary softmax and stays quiet."""
    try:
        with np.errstate(over="raise", invalid="raise", divide="raise", under="ignore"):
            yield
    except (FloatingPointError, OverflowError, ZeroDivisionError):
        raise InputError("ex.param_overflow", fn=fn) from None


# -- generate: fresh numbers from a seed ----------------------------------------------------


def fmt_number(x: float) -> str:
    """A number as the app writes it: whole numbers bare, others to at most 4 decimals."""
    x = float(x)
    if x == 0:
        return "0"
    if abs(x) < 1e15 and x == round(x):
        return str(int(round(x)))
    text = f"{x:.4f}".rstrip("0").rstrip(".")
    return "0" if text in ("-0", "") else text


def fmt_vector(v: np.ndarray | list[float]) -> str:
    """Calculator form: ``1 0 -1``."""
    return " ".join(fmt_number(x) for x in np.asarray(v, dtype=np.float64).ravel())


def fmt_matrix(m: np.ndarray | list[list[float]]) -> str:
    """Calculator form: rows joined by ``; ``."""
    return "; ".join(fmt_vector(row) for row in np.atleast_2d(np.asarray(m, dtype=np.float64)))


@dataclass(frozen=True)
class Drawn:
    """One draw of a generator: the values the prompt may show, and the answer."""

    fn: str
    seed: int
    kind: str
    values: dict[str, Any]  # raw: ints, lists, bools
    answer: float | np.ndarray
    calculator: dict[str, str] | None = None  # prefill for "try it in the calculator"
    worked: str = ""  # the arithmetic from these numbers to the answer (``{worked}``)

    def display(self, lang: str) -> dict[str, str]:
        """Each placeholder's text. ``{attention}`` reads 加/不加 in zh and with/without in en
        (``{attention}点积注意力``: 加点积注意力, 不加点积注意力)."""
        out: dict[str, str] = {"worked": self.worked}
        for name, value in self.values.items():
            if isinstance(value, bool):
                out[name] = (
                    ("加" if value else "不加")
                    if lang == "zh"
                    else ("with" if value else "without")
                )
            elif isinstance(value, np.ndarray) and value.ndim == 2:
                out[name] = fmt_matrix(value)
            elif isinstance(value, np.ndarray):
                out[name] = fmt_vector(value)
            else:
                out[name] = fmt_number(value) if _is_num(value) else str(value)
        return out


@dataclass(frozen=True)
class GenSpec:
    kind: str
    defaults: Mapping[str, Any]
    draws: tuple[str, ...]  # placeholders a prompt may use
    draw: Callable[[str, dict[str, Any], np.random.Generator], tuple[dict[str, Any], Any]]


def _draw_attention(fn: str, p: dict[str, Any], rng: np.random.Generator):
    n = _int(fn, p, "keys", 1, 10)
    d = _int(fn, p, "dim", 1, 10)
    low, high = _int(fn, p, "low", -100, 100), _int(fn, p, "high", -100, 100)
    if low > high:
        raise InputError("ex.param_order", fn=fn, low="low", high="high")
    q = rng.integers(low, high + 1, size=d).astype(np.float64)
    for _ in range(20):  # an all-zero query gives uniform weights: dull, so draw again
        if np.any(q) or low == high == 0:
            break
        q = rng.integers(low, high + 1, size=d).astype(np.float64)
    K = rng.integers(low, high + 1, size=(n, d)).astype(np.float64)
    values: dict[str, Any] = {"query": q, "keys": K, "d": d, "n": n}
    scale, temperature = True, 1.0
    if "scale" in p:  # weights, outputs and the softmax's sum may switch scaling off
        scale = _bool(fn, p, "scale")
        values["scale"] = scale
    if "temperature" in p:
        temperature = _number(fn, p, "temperature")
        if not 0.01 <= temperature <= 100:
            raise _bad(fn, "temperature", temperature, "ex.rule.temperature")
        values["temperature"] = temperature
    steps = attend(q, K, scale=scale, temperature=temperature)
    answer = {
        "attention.scores": steps.scores,
        "attention.weights": steps.weights,
        "attention.output": steps.output,
        "exp_sum": steps.exp_sum,
    }[fn]
    return values, answer


def _draw_softmax(fn: str, p: dict[str, Any], rng: np.random.Generator):
    n = _int(fn, p, "n", 1, 10)
    low, high = _int(fn, p, "low", -100, 100), _int(fn, p, "high", -100, 100)
    if low > high:
        raise InputError("ex.param_order", fn=fn, low="low", high="high")
    scores = rng.integers(low, high + 1, size=n).astype(np.float64)
    return {"scores": scores, "n": n}, softmax(scores)


def _draw_sqrt(fn: str, p: dict[str, Any], rng: np.random.Generator):
    d = _pick(rng, _num_list(fn, p, "choices"))
    return {"d": d}, math.sqrt(d)


def _draw_causal(fn: str, p: dict[str, Any], rng: np.random.Generator):
    lo, hi = _int(fn, p, "n_min", 1, 16), _int(fn, p, "n_max", 1, 16)
    if lo > hi:
        raise InputError("ex.param_order", fn=fn, low="n_min", high="n_max")
    n = int(rng.integers(lo, hi + 1))
    return {"n": n}, causal_mask(n)


def _draw_rnn(fn: str, p: dict[str, Any], rng: np.random.Generator):
    hidden = _pick(rng, _int_list(fn, p, "hidden", 1, 4096))
    symbols = _pick(rng, _int_list(fn, p, "symbols", 1, 4096))
    fixed = p.get("attention")
    attention = bool(rng.integers(0, 2)) if fixed is None else _bool(fn, p, "attention")
    values = {"input": symbols, "hidden": hidden, "output": symbols, "attention": attention}
    return values, float(rnn_params(symbols, hidden, symbols, attention))


def _draw_head_dim(fn: str, p: dict[str, Any], rng: np.random.Generator):
    d_model = _pick(rng, _int_list(fn, p, "d_model"))
    heads = _pick(rng, _int_list(fn, p, "heads"))
    return {"d_model": d_model, "heads": heads}, d_model / heads


def _draw_score_count(fn: str, p: dict[str, Any], rng: np.random.Generator):
    lo, hi = _int(fn, p, "n_min", 1, 10**6), _int(fn, p, "n_max", 1, 10**6)
    if lo > hi:
        raise InputError("ex.param_order", fn=fn, low="n_min", high="n_max")
    n = int(rng.integers(lo, hi + 1))
    return {"n": n}, float(n * n)


def _draw_cost_ratio(fn: str, p: dict[str, Any], rng: np.random.Generator):
    pairs = _pair_list(fn, p, "choices")
    n_from, n_to = pairs[int(rng.integers(0, len(pairs)))]
    return {"n_from": n_from, "n_to": n_to}, (n_to / n_from) ** 2


def _draw_masked(fn: str, p: dict[str, Any], rng: np.random.Generator):
    lo, hi = _int(fn, p, "n_min", 2, 10), _int(fn, p, "n_max", 2, 10)
    low, high = _int(fn, p, "low", -100, 100), _int(fn, p, "high", -100, 100)
    if lo > hi:
        raise InputError("ex.param_order", fn=fn, low="n_min", high="n_max")
    if low > high:
        raise InputError("ex.param_order", fn=fn, low="low", high="high")
    n = int(rng.integers(lo, hi + 1))
    row = int(rng.integers(2, n)) if n > 2 else 1  # something hidden, and more than one seen
    scores = rng.integers(low, high + 1, size=n).astype(np.float64)
    return {"scores": scores, "n": n, "row": row, "visible": row}, masked_softmax(scores, row)


def _pick(rng: np.random.Generator, options: list[Any]) -> Any:
    value = options[int(rng.integers(0, len(options)))]
    return int(value) if float(value).is_integer() else value


_ATT_DEFAULTS = {"keys": 3, "dim": 3, "low": -2, "high": 2}
_ATT_DRAWS = ("query", "keys", "d", "n", "worked")
# weights and outputs may also switch scaling off or set a temperature (drawn as {temperature})
_SOFT_DEFAULTS = {**_ATT_DEFAULTS, "scale": True, "temperature": 1.0}
_SOFT_DRAWS = (*_ATT_DRAWS, "temperature")


def _dot_d(fn: str, p: dict[str, Any], rng: np.random.Generator) -> int:
    return int(_pick(rng, _int_list(fn, p, "choices", 1, 10**6)))


def _draw_dot_variance(fn: str, p: dict[str, Any], rng: np.random.Generator):
    d = _dot_d(fn, p, rng)
    return {"d": d}, float(d)


def _draw_dot_std(fn: str, p: dict[str, Any], rng: np.random.Generator):
    d = _dot_d(fn, p, rng)
    return {"d": d, "by": p["by"]}, _check_dot_std({"d": d, "by": p["by"]})


_D_CHOICES = [16, 32, 64, 128, 256, 512]
GENERATORS: dict[str, GenSpec] = {
    "attention.scores": GenSpec("vector", _ATT_DEFAULTS, _ATT_DRAWS, _draw_attention),
    "attention.weights": GenSpec("vector", _SOFT_DEFAULTS, _SOFT_DRAWS, _draw_attention),
    "attention.output": GenSpec("vector", _SOFT_DEFAULTS, _SOFT_DRAWS, _draw_attention),
    "exp_sum": GenSpec("number", _SOFT_DEFAULTS, _SOFT_DRAWS, _draw_attention),
    "dot_variance": GenSpec("number", {"choices": _D_CHOICES}, ("d", "worked"), _draw_dot_variance),
    "dot_std": GenSpec(
        "number", {"choices": _D_CHOICES, "by": "none"}, ("d", "worked"), _draw_dot_std
    ),
    "softmax": GenSpec(
        "vector", {"n": 3, "low": -3, "high": 3}, ("scores", "n", "worked"), _draw_softmax
    ),
    "sqrt": GenSpec("number", {"choices": [3, 16, 64, 100, 256, 512]}, ("d", "worked"), _draw_sqrt),
    "causal_mask": GenSpec("matrix", {"n_min": 3, "n_max": 5}, ("n", "worked"), _draw_causal),
    "rnn_params": GenSpec(
        "number",
        {"hidden": [8, 16, 32], "symbols": [4, 6, 8], "attention": None},
        ("input", "hidden", "output", "attention", "worked"),
        _draw_rnn,
    ),
    "head_dim": GenSpec(
        "number",
        {"d_model": [64, 128, 256, 512], "heads": [2, 4, 8]},
        ("d_model", "heads", "worked"),
        _draw_head_dim,
    ),
    "score_count": GenSpec(
        "number", {"n_min": 4, "n_max": 1000}, ("n", "worked"), _draw_score_count
    ),
    "cost_ratio": GenSpec(
        "number",
        {"choices": [[10, 100], [100, 1000], [50, 200]]},
        ("n_from", "n_to", "worked"),
        _draw_cost_ratio,
    ),
    "masked_softmax": GenSpec(
        "vector",
        {"n_min": 3, "n_max": 5, "low": -3, "high": 3},
        ("scores", "n", "row", "worked"),
        _draw_masked,
    ),
}


def new_seed() -> int:
    """A fresh seed for "another one"; stored with the attempt so the draw can be replayed."""
    return secrets.randbelow(2**31)


def _drawn_key(values: Mapping[str, Any]) -> str:
    """What a learner sees of a draw (its numbers, not the worked text), as one string."""
    parts = []
    for name in sorted(values):
        value = values[name]
        if isinstance(value, np.ndarray):
            value = value.tolist()
        parts.append(f"{name}={value!r}")
    return ";".join(parts)


class RecentDraws:
    """The last draws shown of each generated exercise, so that "another one" brings numbers
    not seen lately: a generator choosing among six values of d comes back to one only after
    the other five (six independent draws repeated one in most runs).

    The seed alone still decides a draw (an attempt replays from its seed): only which seed is
    taken depends on what was shown. ``seeds`` gives the candidates (``new_seed``; a seeded
    stream in tests)."""

    KEEP = 5  # draws remembered per exercise
    TRIES = 64  # candidate seeds per level before one fewer recent draw is avoided

    def __init__(self, seeds: Callable[[], int] | None = None) -> None:
        self.seeds = seeds
        self._shown: dict[str, list[str]] = {}

    def seen(self, inst: Instance) -> None:
        """This instance is on show."""
        if inst.drawn is None:
            return
        shown = self._shown.setdefault(inst.exercise.id, [])
        key = _drawn_key(inst.drawn.values)
        if key in shown:
            shown.remove(key)
        shown.append(key)
        del shown[: -self.KEEP]

    def fresh_seed(self, exercise: Exercise, current: int | None = None) -> int:
        """A seed (never ``current``) whose draw is none of the last ones shown; when every
        value has been shown lately (fewer choices than remembered draws), the oldest is let
        back first."""
        seeds = self.seeds or new_seed
        shown = list(self._shown.get(exercise.id, ()))
        assert exercise.generate is not None
        while True:
            for _ in range(self.TRIES):
                seed = seeds()
                if seed == current:
                    continue
                if not shown:
                    return seed
                values = draw(exercise.generate, seed).values
                if _drawn_key(values) not in shown:
                    return seed
            if not shown:  # (only ``current`` came up)
                return seed + 1 if seed == current else seed
            shown.pop(0)


def draw(spec: Mapping[str, Any], seed: int) -> Drawn:
    """Run ``generate = { fn = ..., ... }`` with ``seed``: same seed, same numbers, same answer."""
    params = dict(spec)
    fn = params.pop("fn", None)
    if not isinstance(fn, str) or fn not in GENERATORS:
        raise InputError("ex.unknown_generator", fn=_show(fn), known=", ".join(GENERATORS))
    gen = GENERATORS[fn]
    merged = _params(fn, params, (), gen.defaults)
    rng = np.random.default_rng(seed)
    with _no_overflow(fn):
        values, answer = gen.draw(fn, merged, rng)
    calculator = None
    if "query" in values:
        calculator = {"query": fmt_vector(values["query"]), "keys": fmt_matrix(values["keys"])}
    return Drawn(
        fn=fn,
        seed=seed,
        kind=gen.kind,
        values=values,
        answer=answer,
        calculator=calculator,
        worked=worked(fn, values, answer),
    )


# -- an exercise as the learner sees it -----------------------------------------------------

_PLACEHOLDER = re.compile(r"\{([A-Za-z_][A-Za-z0-9_]*)\}")


def placeholders(text: str) -> set[str]:
    """Names written as ``{name}`` in a text."""
    return set(_PLACEHOLDER.findall(text))


def fill(text: str, values: Mapping[str, str]) -> str:
    """Replace known ``{name}``s only: other braces (``{a, b}``, LaTeX) stay as written."""
    return _PLACEHOLDER.sub(lambda m: values.get(m.group(1), m.group(0)), text)


@dataclass(frozen=True)
class Instance:
    """One exercise ready to show and grade: stored as written, or generated from ``seed``.

    ``answer`` is what grading compares with: a float (number), an array (vector, matrix),
    a choice id (choice), a set of ids (multi), a bool (truefalse) or the reference Text (text).
    """

    exercise: Exercise
    answer: Any
    seed: int | None = None
    drawn: Drawn | None = None

    @property
    def generated(self) -> bool:
        return self.drawn is not None

    def _fill(self, text: str, lang: str) -> str:
        return fill(text, self.drawn.display(lang)) if self.drawn is not None else text

    def prompt(self, lang: str) -> str:
        return self._fill(self.exercise.prompt.get(lang), lang)

    def hints(self, lang: str) -> list[str]:
        return [self._fill(h.get(lang), lang) for h in self.exercise.hints]

    def explanation(self, lang: str) -> str:
        return self._fill(self.exercise.explanation.get(lang), lang)

    @property
    def calculator(self) -> dict[str, str] | None:
        """Prefill for the calculator: the drawn q and K, or the file's ``calculator`` table."""
        if self.drawn is not None and self.drawn.calculator is not None:
            return dict(self.drawn.calculator)
        return dict(self.exercise.calculator) if self.exercise.calculator else None

    def answer_text(self, t: Callable[..., str], lang: str | None = None) -> str:
        """The reference answer as the learner reads it (``t`` is ``attn_tui.i18n.t``)."""
        ex = self.exercise
        if ex.kind == "number":
            return fmt_number(self.answer)
        if ex.kind == "vector":
            return fmt_vector(self.answer)
        if ex.kind == "matrix":
            return fmt_matrix(self.answer)
        if ex.kind == "truefalse":
            return t("ex.true" if self.answer else "ex.false", lang=lang)
        if ex.kind in ("choice", "multi"):
            ids = [self.answer] if ex.kind == "choice" else sorted(self.answer)
            lang_ = lang or _lang_of(t)
            return "; ".join(f"{c.id}. {c.text.get(lang_)}" for c in ex.choices if c.id in ids)
        return self.answer.get(lang or _lang_of(t))


def _lang_of(t: Callable[..., str]) -> str:
    """The current language, asked of ``t`` itself so the core needs no i18n import."""
    return "zh" if t("ex.lang") == "zh" else "en"


def instance(exercise: Exercise, seed: int | None = None) -> Instance:
    """The exercise to show: generated ones are drawn from ``seed`` (a fresh one when None)."""
    if exercise.generate is None:
        answer = exercise.answer
        if exercise.kind in ("vector", "matrix"):
            answer = np.asarray(answer, dtype=np.float64)
        elif exercise.kind == "number":
            answer = float(answer)
        elif exercise.kind == "multi":
            answer = frozenset(answer)
        return Instance(exercise=exercise, answer=answer)
    seed = new_seed() if seed is None else int(seed)
    drawn = draw(exercise.generate, seed)
    return Instance(exercise=exercise, answer=drawn.answer, seed=seed, drawn=drawn)
