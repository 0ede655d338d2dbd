"""The numpy behind the screen: short, readable code that computes what the calculator or the
lab shows, with the numbers on show written into it, so reading code and writing it meet.

Each function returns Python source. Run as it is (``exec``), it leaves ``output`` (and the
intermediate names the screen shows: ``scores``, ``weights``, ``A`` …) equal to the core's own
result — ``tests/core/attention/test_as_numpy.py`` runs it on many settings and compares. It
is a twin of the core's code, written for reading: the core's is arranged for speed and for
showing every step.
"""

from __future__ import annotations

import math

import numpy as np

from attn_tui.core.attention.lab import LabResult
from attn_tui.core.attention.steps import AttentionSteps


def _num(x: float) -> str:
    """A float as Python reads it back exactly (integers bare)."""
    x = float(x)
    return str(int(x)) if x.is_integer() and abs(x) < 1e15 else repr(x)


def array(a: np.ndarray) -> str:
    """``np.array([...])`` of ``a``, one row per line for a matrix."""
    a = np.asarray(a, dtype=np.float64)
    if a.ndim == 1:
        return "np.array([" + ", ".join(_num(x) for x in a) + "])"
    rows = ["    [" + ", ".join(_num(x) for x in row) + "]," for row in a]
    return "np.array([\n" + "\n".join(rows) + "\n])"


def calculator(steps: AttentionSteps) -> str:
    """The calculator's four steps for the query, keys and values on show."""
    lines = [
        "import numpy as np",
        "",
        f"q = {array(steps.q)}  # the query, d = {steps.d}",
        f"K = {array(steps.K)}  # one key per row",
        "V = K  # values = keys" if steps.values_are_keys else f"V = {array(steps.V)}",
        "",
        "scores = K @ q  # step 1: q · k_i for every key",
    ]
    if steps.scale:
        lines.append("scaled = scores / np.sqrt(len(q))  # step 2: divide by √d")
    else:
        lines.append("scaled = scores  # step 2 switched off: no division by √d")
    if steps.temperature != 1.0:
        lines.append(f"scaled = scaled / {_num(steps.temperature)}  # temperature T")
    if steps.hard:
        lines += [
            "weights = np.zeros(len(K))  # step 3, hard max: all weight on the largest",
            "weights[np.argmax(scaled)] = 1.0",
        ]
    else:
        lines += [
            "e = np.exp(scaled - scaled.max())  # step 3: softmax, the largest shifted to 0",
            "weights = e / e.sum()  # non-negative, sum 1",
        ]
    lines += [
        "output = weights @ V  # step 4: Σ α_i v_i, a convex combination of the values",
        "print(scores, scaled, weights, output, sep='\\n')",
    ]
    return "\n".join(lines) + "\n"


def lab(result: LabResult) -> str:
    """The lab's layer: projections, heads, scaled scores, the mask, softmax, Z, W_O."""
    p = result.proj
    cross = result.cross
    lines = ["import numpy as np", ""]
    if cross:
        lines += [
            f"X_q = {array(result.queries.X)}  # the queries' tokens, one per row",
            f"X_kv = {array(result.memory.X)}  # the keys' and values' tokens",
        ]
    else:
        lines.append(f"X = {array(result.queries.X)}  # one token per row")
        lines.append("X_q = X_kv = X  # self-attention: one sequence")
    lines += [
        f"W_Q = {array(p.W_Q)}",
        f"W_K = {array(p.W_K)}",
        f"W_V = {array(p.W_V)}",
        f"W_O = {array(p.W_O)}",
        f"h = {result.heads}  # heads",
        "",
        "Q, K, V = X_q @ W_Q, X_kv @ W_K, X_kv @ W_V  # (n, h·d_k) each",
        "",
        "def split(M):  # (n, h·d_k) -> (h, n, d_k): head i takes the i-th block of columns",
        "    return M.reshape(len(M), h, -1).transpose(1, 0, 2)",
        "",
        "Qh, Kh, Vh = split(Q), split(K), split(V)",
        "d_k = Qh.shape[-1]",
        "S = Qh @ Kh.transpose(0, 2, 1) / np.sqrt(d_k)  # (h, n_q, n_k) scaled scores",
    ]
    if result.causal or result.window is not None:
        lines.append("i, j = np.indices((len(Q), len(K)))  # query i, key j")
        allowed = []
        if result.causal:
            allowed.append("(j <= i)")
        if result.window is not None:
            allowed.append(f"(np.abs(i - j) <= {result.window})")
        lines += [
            f"allowed = {' & '.join(allowed)}  # causal: no key after the query",
            "S = np.where(allowed, S, -np.inf)  # masked before the softmax: weight exactly 0",
        ]
    lines += [
        "A = np.exp(S - S.max(axis=-1, keepdims=True))",
        "A = A / A.sum(axis=-1, keepdims=True)  # the weights: each row sums to 1",
        "Z = A @ Vh  # (h, n_q, d_v) one output per head",
        "concat = Z.transpose(1, 0, 2).reshape(len(Q), -1)  # the heads side by side",
        "output = concat @ W_O  # (n_q, d_model)",
        "print(A.round(4), output.round(4), sep='\\n')",
    ]
    return "\n".join(lines) + "\n"


def run(source: str) -> dict[str, object]:
    """Execute ``source`` (one of the above, never the learner's) and return its names, for
    the tests that keep the twin equal to the screen. Its print() goes nowhere."""
    namespace: dict[str, object] = {"print": lambda *a, **k: None, "math": math}
    exec(compile(source, "<numpy behind the screen>", "exec"), namespace)
    return namespace


__all__ = ["array", "calculator", "lab", "run"]
