"""Single-query attention, kept step by step so every intermediate number can be shown.

    scores  s_i = q · k_i                      step 1
    scaled  z_i = s_i / √d   (or s_i)          step 2
    logits  u_i = z_i / T                      (temperature, 1 by default)
    weights α_i = exp(u_i − max u) / Σ_j exp(u_j − max u)    step 3 (or one-hot argmax)
    output  o   = Σ_i α_i v_i                  step 4 — a convex combination of the v_i

Everything is float64 and vectorised; one ``attend`` call on d = 64, N = 64 is a few µs.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from attn_tui.core.parse import InputError, normalise

MIN_TEMPERATURE = 0.01
MAX_TEMPERATURE = 100.0

# Where exp stops being representable in float64 (the calculator's note on an underflowed weight):
SMALLEST_POSITIVE = float(np.finfo(np.float64).smallest_subnormal)  # 2⁻¹⁰⁷⁴ ≈ 4.9e-324
SMALLEST_NORMAL = float(np.finfo(np.float64).tiny)  # 2⁻¹⁰²² ≈ 2.2e-308; below it, subnormals
EXP_UNDERFLOW = -1075 * math.log(2)  # ≈ −745.13: exp(x) below half of 2⁻¹⁰⁷⁴ rounds to 0


def softmax(x: np.ndarray, axis: int = -1) -> np.ndarray:
    """Max-shifted softmax: finite for any finite input, and each slice sums to 1."""
    shifted = x - np.max(x, axis=axis, keepdims=True)  # largest exponent is exp(0) = 1
    e = np.exp(shifted)
    return e / np.sum(e, axis=axis, keepdims=True)


def row_dots(K: np.ndarray, q: np.ndarray) -> np.ndarray:
    """q · k_i for every row of K, each row summed in the same order, so equal keys get equal
    scores to the last bit. ``K @ q`` does not promise that: BLAS hands rows to SIMD lanes and
    a tail loop that round differently (42 copies of one key gave two different scores, and
    the hard max then picked key 41 instead of the first)."""
    return np.sum(K * q, axis=-1)  # (N,)  equal entries give equal products; one sum a row


def hardmax(x: np.ndarray) -> np.ndarray:
    """One-hot at the first largest entry (np.argmax breaks ties by the lowest index)."""
    w = np.zeros_like(x, dtype=np.float64)
    w[int(np.argmax(x))] = 1.0
    return w


def entropy(w: np.ndarray) -> float:
    """Shannon entropy in nats; 0·log 0 counts as 0. Uniform over N gives log N."""
    p = w[w > 0]
    return float(-np.sum(p * np.log(p)))


@dataclass(frozen=True)
class AttentionSteps:
    """Every number of one attention computation, in the order the calculator reveals them."""

    q: np.ndarray  # (d,)
    K: np.ndarray  # (N, d)
    V: np.ndarray  # (N, dv)
    values_are_keys: bool
    scale: bool  # divide by √d?
    hard: bool  # argmax instead of softmax
    temperature: float
    scores: np.ndarray  # (N,)  q·k_i
    scaled: np.ndarray  # (N,)  scores / √d, or scores when scale is off
    logits: np.ndarray  # (N,)  scaled / T
    shift: float  # max of logits, subtracted before exp
    exps: np.ndarray  # (N,)  exp(logits − shift)
    exp_sum: float
    weights: np.ndarray  # (N,)  sums to 1
    terms: np.ndarray  # (N, dv)  α_i · v_i
    output: np.ndarray  # (dv,)
    lo: np.ndarray  # (dv,)  min over values, per component
    hi: np.ndarray  # (dv,)  max over values, per component

    @property
    def d(self) -> int:
        return int(self.q.shape[0])

    @property
    def n(self) -> int:
        return int(self.K.shape[0])

    @property
    def sqrt_d(self) -> float:
        return math.sqrt(self.d)

    @property
    def factor(self) -> float:
        """The multiplier applied to the scores: 1/√d when scaling, else 1."""
        return 1.0 / self.sqrt_d if self.scale else 1.0

    @property
    def inside(self) -> np.ndarray:
        """Per component: does the output lie within [min, max] of the values? (convexity)

        Σ αᵢ vᵢ in floating point carries a rounding error of about eps · N · max|v| (N terms,
        each exact to half an ulp of the largest), so that much slack is allowed; a fixed
        slack would call identical values of 999999.7 "outside" their own range.
        """
        magnitude = np.maximum(np.abs(self.lo), np.abs(self.hi))
        tol = 4 * np.finfo(np.float64).eps * self.n * np.maximum(magnitude, 1e-300)
        return (self.output >= self.lo - tol) & (self.output <= self.hi + tol)

    def to_dict(self) -> dict[str, object]:
        """Plain-Python form for --json: full float precision."""
        return {
            "d": self.d,
            "n": self.n,
            "scaling": self.scale,
            "sqrt_d": self.sqrt_d,
            "scale": self.factor,
            "temperature": self.temperature,
            "mode": "hard" if self.hard else "softmax",
            "scores": self.scores.tolist(),
            "scaled": self.scaled.tolist(),
            "weights": self.weights.tolist(),
            "output": self.output.tolist(),
            "inside": self.inside.tolist(),
        }


def check_shapes(q: np.ndarray, K: np.ndarray, V: np.ndarray | None) -> None:
    """Raise InputError when the query, keys and values do not fit together."""
    if K.shape[1] != q.shape[0]:
        raise InputError("dim_mismatch", query=int(q.shape[0]), keys=int(K.shape[1]))
    if V is not None and V.shape[0] != K.shape[0]:
        raise InputError("values_count", values=int(V.shape[0]), keys=int(K.shape[0]))


def parse_temperature(text: str) -> float:
    """A typed temperature ("0.5", "２", " 1 "), checked; InputError names what is wrong."""
    body = normalise(text).strip()
    try:
        value = float(body)
    except ValueError:
        raise InputError(
            "temperature", value=body or "∅", lo=MIN_TEMPERATURE, hi=MAX_TEMPERATURE
        ) from None
    check_temperature(value)
    return value


def check_temperature(temperature: float) -> None:
    if not (math.isfinite(temperature) and MIN_TEMPERATURE <= temperature <= MAX_TEMPERATURE):
        raise InputError(
            "temperature", value=f"{temperature:g}", lo=MIN_TEMPERATURE, hi=MAX_TEMPERATURE
        )


def attend(
    q: np.ndarray,
    K: np.ndarray,
    V: np.ndarray | None = None,
    *,
    scale: bool = True,
    hard: bool = False,
    temperature: float = 1.0,
) -> AttentionSteps:
    """All four steps for one query. ``V`` defaults to ``K`` (values = keys, as in the seed)."""
    q = np.asarray(q, dtype=np.float64)
    K = np.atleast_2d(np.asarray(K, dtype=np.float64))
    check_shapes(q, K, None if V is None else np.atleast_2d(V))
    check_temperature(temperature)
    values_are_keys = V is None
    V = K if V is None else np.atleast_2d(np.asarray(V, dtype=np.float64))

    scores = row_dots(K, q)  # (N,)  step 1: q·k_i, equal keys giving equal scores
    scaled = scores / math.sqrt(q.shape[0]) if scale else scores.copy()  # step 2
    logits = scaled / temperature
    shift = float(np.max(logits))
    exps = np.exp(logits - shift)  # every entry in (0, 1], the largest exactly 1
    exp_sum = float(np.sum(exps))
    weights = hardmax(logits) if hard else exps / exp_sum  # step 3
    terms = weights[:, None] * V  # (N, dv)  step 4: α_i v_i
    output = weights @ V  # (dv,)  Σ α_i v_i
    return AttentionSteps(
        q=q,
        K=K,
        V=V,
        values_are_keys=values_are_keys,
        scale=scale,
        hard=hard,
        temperature=float(temperature),
        scores=scores,
        scaled=scaled,
        logits=logits,
        shift=shift,
        exps=exps,
        exp_sum=exp_sum,
        weights=weights,
        terms=terms,
        output=output,
        lo=V.min(axis=0),
        hi=V.max(axis=0),
    )


@dataclass(frozen=True)
class DimensionExperiment:
    """Random q, K ~ N(0, 1) at dimension d: how peaked are the weights with and without √d?"""

    d: int
    n: int
    seed: int
    q: np.ndarray  # (d,)
    K: np.ndarray  # (n, d)
    score_std: float  # std of q·k over `pairs` independent pairs (theory: √d)
    pairs: int  # how many (q, k) pairs score_std was measured on
    unscaled: np.ndarray  # (n,) weights of softmax(q·k)
    scaled: np.ndarray  # (n,) weights of softmax(q·k / √d)

    @property
    def max_unscaled(self) -> float:
        return float(self.unscaled.max())

    @property
    def max_scaled(self) -> float:
        return float(self.scaled.max())

    @property
    def entropy_unscaled(self) -> float:
        return entropy(self.unscaled)

    @property
    def entropy_scaled(self) -> float:
        return entropy(self.scaled)

    @property
    def entropy_uniform(self) -> float:
        return math.log(self.n)


MAX_EXPERIMENT_DIM = 4096
# Draws spent measuring σ(q·k): about 2 × pairs × d normals. The sample std of N pairs is off
# by about 1/√(2N) (1.6 % at 2000 pairs, 3 % at 500), so the figure sits near √d.
SIGMA_DRAWS = 2_000_000
MIN_PAIRS, MAX_PAIRS = 500, 4000


def experiment_pairs(d: int) -> int:
    """How many independent (q, k) pairs measure σ(q·k) at dimension d (bounded cost)."""
    return int(min(MAX_PAIRS, max(MIN_PAIRS, SIGMA_DRAWS // (2 * d))))


def dimension_experiment(d: int, n: int = 8, seed: int = 0) -> DimensionExperiment:
    """Draw q and n keys with i.i.d. N(0, 1) entries; q·k then has variance d.

    The weights come from that one q and its n keys; σ(q·k) is measured apart, over
    ``experiment_pairs(d)`` fresh pairs, because 8 scores of one q say little about a spread
    (one draw at d = 3 gave 0.44 beside √d = 1.73).
    """
    if not (1 <= d <= MAX_EXPERIMENT_DIM):
        raise InputError("experiment_dim", value=d, limit=MAX_EXPERIMENT_DIM)
    if not (2 <= n <= 64):
        raise InputError("too_many_rows", field="keys", count=n, limit=64)
    rng = np.random.default_rng(seed)
    q = rng.standard_normal(d)
    K = rng.standard_normal((n, d))
    scores = row_dots(K, q)
    pairs = experiment_pairs(d)
    a = rng.standard_normal((pairs, d), dtype=np.float32)  # float32: half the cost, and
    b = rng.standard_normal((pairs, d), dtype=np.float32)  # σ needs 2 digits, not 16
    sample = np.einsum("ij,ij->i", a, b, dtype=np.float64)  # (pairs,)  one q·k per pair
    return DimensionExperiment(
        d=d,
        n=n,
        seed=seed,
        q=q,
        K=K,
        score_std=float(np.std(sample)),
        pairs=pairs,
        unscaled=softmax(scores),
        scaled=softmax(scores / math.sqrt(d)),
    )
