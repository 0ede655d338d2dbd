"""The worked arithmetic of one generated exercise, written out with its own numbers.

A generated exercise's explanation may use ``{worked}``: the steps from the drawn numbers to
the answer, one line each, as the hand-worked example shows them (dot products term by term,
÷√d, the max-shifted exponentials, their sum, each weight, the weighted sum). The lines are
mathematics only, so they read the same in Chinese and English; the exercise file supplies
the words around them.

Every line is a claim in the syntax of :mod:`attn_tui.core.exercises.claims` (``=`` exact,
``≈`` rounded to the digits shown), after an optional label ending in ": ". The tests check
each line with that module, so a worked explanation cannot state a wrong figure.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

import numpy as np

from attn_tui.core.attention.steps import attend, softmax

_SUB = str.maketrans("0123456789", "₀₁₂₃₄₅₆₇₈₉")


def num(x: float) -> str:
    """A figure as shown, minus written −: a whole number bare; others to at most 4 decimals,
    keeping the zeros when they round to a whole number (0.99999997 is 1.0000, not 1, which
    would read as exact); a small non-zero one to two significant digits (0.000047: softmax
    never gives an exact 0), and below half a millionth as 0.000000."""
    x = float(x)
    if x == 0 or (abs(x) >= 0.5 and abs(x - round(x)) < 1e-12):
        text = str(int(round(x)))
    elif abs(x) < 5e-7:
        text = "0.000000"
    elif abs(x) < 0.00005:
        decimals = 1 - math.floor(math.log10(abs(x)))
        text = f"{x:.{decimals}f}".rstrip("0")
    else:
        text = f"{x:.4f}".rstrip("0")
        text = text.rstrip(".") if not text.endswith(".") else f"{x:.4f}"
    if text in ("-0", ""):
        text = "0"
    return text.replace("-", "−")


def factor(x: float) -> str:
    """A figure inside a product: negative ones in brackets, 2×(−1)."""
    text = num(x)
    return f"({text})" if text.startswith("−") else text


def vec(v: np.ndarray | list[str]) -> str:
    """A tuple of figures; given strings (figures already shown), it keeps them as they are."""
    items = v if isinstance(v, list) else [num(x) for x in np.ravel(v)]
    return "(" + ", ".join(items) + ")"


def _value(shown: str) -> float:
    return float(shown.replace("−", "-"))


def _exact(x: float) -> bool:
    """As shown, is the figure the value itself (so '=' and not '≈')?"""
    return _value(num(x)) == x or (x != 0 and abs(_value(num(x)) - x) < 1e-12 * abs(x))


def _rel(values: np.ndarray | float) -> str:
    return "=" if all(_exact(float(v)) for v in np.ravel(values)) else "≈"


def _dots(q: np.ndarray, K: np.ndarray) -> list[str]:
    lines = []
    for i, k in enumerate(K, 1):
        terms = " + ".join(f"{factor(a)}×{factor(b)}" for a, b in zip(q, k, strict=True))
        lines.append(f"q·k{str(i).translate(_SUB)}: {terms} = {num(float(q @ k))}")
    return lines


def _softmax_lines(z: np.ndarray, shown: str) -> list[str]:
    """max shift, exps, their sum, each weight; ``shown`` is how z itself is written."""
    top = float(np.max(z))
    exps = np.exp(z - top)
    total = float(exps.sum())
    weights = exps / total
    shift = f" − {factor(top)}" if top >= 0 else f" + {num(-top)}"
    exps_shown = [num(e) for e in exps]
    exact = all(_exact(float(e)) for e in exps) and _exact(total)
    return [
        f"max = {num(top)}",
        f"exp({shown}{shift}) {_rel(exps)} {vec(exps_shown)}",
        f"Σ: {' + '.join(exps_shown)} {'=' if exact else '≈'} {num(total)}",
        f"α: {vec(exps_shown)}/{num(total)} {_rel(weights)} {vec(weights)}",
    ]


def _scores(v: dict[str, Any], answer: Any) -> list[str]:
    return _dots(v["query"], v["keys"])


def _steps(v: dict[str, Any]):
    return attend(
        v["query"],
        v["keys"],
        scale=bool(v.get("scale", True)),
        temperature=float(v.get("temperature", 1.0)),
    )


def _weights(v: dict[str, Any], answer: Any) -> list[str]:
    q, K, d = v["query"], v["keys"], v["d"]
    steps = _steps(v)
    lines = _dots(q, K)
    z, shown = steps.scores, vec(steps.scores)
    if steps.scale:
        lines.append(f"√{d} {_rel(steps.sqrt_d)} {num(steps.sqrt_d)}")
        lines.append(f"{vec(steps.scores)}/√{d} {_rel(steps.scaled)} {vec(steps.scaled)}")
        z, shown = steps.scaled, vec(steps.scaled)
    if steps.temperature != 1.0:
        lines.append(f"{shown}/{num(steps.temperature)} {_rel(steps.logits)} {vec(steps.logits)}")
        z = steps.logits
        shown = vec(z)
    return lines + _softmax_lines(z, shown)


def _exp_sum(v: dict[str, Any], answer: Any) -> list[str]:
    return _weights(v, answer)[:-1]  # up to the sum of the exps: the weights are not asked


def _dot_variance(v: dict[str, Any], answer: Any) -> list[str]:
    d = v["d"]
    return [f"{d}×1 = {d}"]


def _dot_std(v: dict[str, Any], answer: Any) -> list[str]:
    d, by = v["d"], v.get("by", "none")
    lines = _sqrt({"d": d}, None)
    if by == "sqrt":
        lines.append(f"√{d}/√{d} = 1")
    elif by == "d":
        lines.append(f"√{d}/{d} = 1/√{d} {_rel(1 / math.sqrt(d))} {num(1 / math.sqrt(d))}")
    return lines


def _output(v: dict[str, Any], answer: Any) -> list[str]:
    steps = _steps(v)
    lines = _weights(v, answer)
    terms = " + ".join(f"{num(a)}×{vec(k)}" for a, k in zip(steps.weights, v["keys"], strict=True))
    lines.append(
        f"o: {terms} {_rel(steps.output) if _exact_all(steps.weights) else '≈'} {vec(steps.output)}"
    )
    return lines


def _exact_all(values: np.ndarray) -> bool:
    return all(_exact(float(x)) for x in np.ravel(values))


def _softmax(v: dict[str, Any], answer: Any) -> list[str]:
    scores = np.asarray(v["scores"], dtype=np.float64)
    assert np.allclose(softmax(scores), answer)
    return _softmax_lines(scores, vec(scores))


def _sqrt(v: dict[str, Any], answer: Any) -> list[str]:
    d = v["d"]
    root = math.sqrt(d)
    if float(root).is_integer():
        return [f"√{num(d)} = {num(root)}"]
    low = math.floor(root)
    return [
        f"{low}² = {low * low} < {num(d)} < {(low + 1) ** 2} = {low + 1}²",
        f"√{num(d)} ≈ {num(root)}",
    ]


def _causal(v: dict[str, Any], answer: Any) -> list[str]:
    n = v["n"]
    ones = " + ".join(str(i) for i in range(1, n + 1))
    visible = n * (n + 1) // 2
    return [
        f"{ones} = {n}×{n + 1}/2 = {visible}",
        f"{n}×{n} − {visible} = {n}×{n - 1}/2 = {n * (n - 1) // 2}",
    ]


def _rnn(v: dict[str, Any], answer: Any) -> list[str]:
    i, h, o, att = v["input"], v["hidden"], v["output"], v["attention"]
    rnn = i * h + h * h + h
    reads = 2 * h if att else h
    out = reads * o + o
    return [
        f"{i}×{h} + {h}×{h} + {h} = {rnn}",
        f"{reads}×{o} + {o} = {out}",
        f"2×{rnn} + {out} = {2 * rnn + out}",
    ]


def _head_dim(v: dict[str, Any], answer: Any) -> list[str]:
    d, h = v["d_model"], v["heads"]
    if d % h:  # a teacher's sizes need not divide: then there is no whole head to concatenate
        return [f"{d}/{h} {_rel(d / h)} {num(d / h)}"]
    return [f"{d}/{h} = {d // h}", f"{h}×{d // h} = {d}"]


def _score_count(v: dict[str, Any], answer: Any) -> list[str]:
    n = v["n"]
    return [f"{n}×{n} = {n * n}"]


def _cost_ratio(v: dict[str, Any], answer: Any) -> list[str]:
    a, b = v["n_from"], v["n_to"]
    ratio = b / a
    return [
        f"{b}²/{a}² = {b * b}/{a * a} {_rel((b / a) ** 2)} {num((b / a) ** 2)}",
        f"({b}/{a})² {_rel(ratio)} {num(ratio)}² {_rel(ratio**2)} {num(ratio**2)}",
    ]


def _masked(v: dict[str, Any], answer: Any) -> list[str]:
    scores = np.asarray(v["scores"], dtype=np.float64)
    k = v["visible"]
    seen = scores[:k]
    # the later scores are −∞ before the softmax, so only the first k take part
    return _softmax_lines(seen, vec(seen)) if k > 1 else ["α: exp(0)/exp(0) = 1"]


WORKED: dict[str, Callable[[dict[str, Any], Any], list[str]]] = {
    "attention.scores": _scores,
    "attention.weights": _weights,
    "attention.output": _output,
    "softmax": _softmax,
    "sqrt": _sqrt,
    "causal_mask": _causal,
    "rnn_params": _rnn,
    "head_dim": _head_dim,
    "score_count": _score_count,
    "cost_ratio": _cost_ratio,
    "masked_softmax": _masked,
    "exp_sum": _exp_sum,
    "dot_variance": _dot_variance,
    "dot_std": _dot_std,
}


def worked(fn: str, values: dict[str, Any], answer: Any) -> str:
    """The lines of working for one draw, joined by new lines."""
    return "\n".join(WORKED[fn](values, answer))
