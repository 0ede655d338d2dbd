"""The self-attention lab: from a few word vectors X to Q, K, V, masks, heads and cost.

Everything a learner can read on one screen (n ≤ 8 tokens, d_model ≤ 16), computed the
way a Transformer layer does it, with every intermediate kept so the UI can show it:

    Q = X_q · W_Q      K = X_kv · W_K      V = X_kv · W_V          projections
    Q → (h, n_q, d_k)  K → (h, n_k, d_k)   V → (h, n_k, d_v)        split into heads
    S = Q Kᵀ / √d_k                                                 (h, n_q, n_k)
    S[mask] = −∞       (causal: key after query; local: |i − j| > w)
    A = softmax(S)     each row sums to 1, masked cells exactly 0   (h, n_q, n_k)
    Z = A · V          one output per head                          (h, n_q, d_v)
    C = concat(Z)      heads side by side                           (n_q, h·d_v)
    O = C · W_O        back to d_model                              (n_q, d_model)

Self-attention uses one sequence for X_q and X_kv; cross-attention takes the queries from
one sequence and the keys and values from another, so the weights are n_q × n_k.

All heads are computed at once (one batched matmul over the head axis); the tests check
this against a per-head loop. ``shapes_trace`` does the same bookkeeping without numbers,
for sizes too large to show (the seed's n = 10, d_model = 512, h = 8), and ``cost`` gives
the quadratic-cost and sequential-step figures.

Pure: numpy and the standard library, plus ``attn_tui.core``.
"""

from __future__ import annotations

import math
import zlib
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from attn_tui.core.attention.steps import softmax
from attn_tui.core.parse import InputError, parse_matrix

MIN_TOKENS = 1  # a single token is a valid (if dull) sequence: its weight row is [1]
MAX_TOKENS = 8  # rows of X the lab shows; more do not fit a readable heatmap
MAX_D_MODEL = 16  # columns of X; enough for h = 1, 2, 4, 8, 16
MAX_SHAPES_TOKENS = 1_000_000  # the shapes trace computes no numbers, so it can go large
MAX_SHAPES_D_MODEL = 65_536

# Presets: the seeds' example sentences. Embeddings are drawn per token, so the same word
# with the same seed always gets the same vector (there is no position information, as in
# attention without positional encodings).
PRESETS: dict[str, tuple[str, ...]] = {
    "cat": ("猫", "坐", "在", "垫子", "上"),
    "love": ("I", "love", "China"),
    "love_zh": ("我", "爱", "中国"),
}

_STREAM_WEIGHTS = 1  # separate random streams, so typing X never changes the seeded W
_X_DECIMALS = 1  # X and W are rounded so that the numbers shown are the numbers used
_W_DECIMALS = 2

# ---------------------------------------------------------------------------- inputs


@dataclass(frozen=True)
class Tokens:
    """A sequence: labels for the heatmap axes and one embedding row per token."""

    labels: tuple[str, ...]  # n labels
    X: np.ndarray  # (n, d_model)

    @property
    def n(self) -> int:
        return int(self.X.shape[0])

    @property
    def d_model(self) -> int:
        return int(self.X.shape[1])

    def to_dict(self) -> dict[str, object]:
        return {"labels": list(self.labels), "X": self.X.tolist()}


@dataclass(frozen=True)
class Projections:
    """W_Q, W_K, W_V, W_O. Seeded ones are d_model × d_model; typed ones may be narrower."""

    W_Q: np.ndarray  # (d_model, h·d_k)
    W_K: np.ndarray  # (d_model, h·d_k)
    W_V: np.ndarray  # (d_model, h·d_v)
    W_O: np.ndarray  # (h·d_v, d_model)

    @property
    def d_model(self) -> int:
        return int(self.W_Q.shape[0])

    @property
    def count(self) -> int:
        """Number of parameters (no biases, as in the seeds' formulas)."""
        return int(self.W_Q.size + self.W_K.size + self.W_V.size + self.W_O.size)

    def to_dict(self) -> dict[str, object]:
        return {name: getattr(self, name).tolist() for name in ("W_Q", "W_K", "W_V", "W_O")}


def _check_count(n: int) -> None:
    if n < MIN_TOKENS:
        raise InputError("lab.empty")
    if n > MAX_TOKENS:
        raise InputError("lab.too_many_tokens", count=n, limit=MAX_TOKENS)


def _check_d_model(d_model: int) -> None:
    if isinstance(d_model, bool) or not isinstance(d_model, int | np.integer):
        raise InputError("lab.d_model", value=d_model, limit=MAX_D_MODEL)
    if not 1 <= d_model <= MAX_D_MODEL:
        raise InputError("lab.d_model", value=d_model, limit=MAX_D_MODEL)


def _check_seed(seed: int) -> None:
    """numpy takes a seed from 0 to 2⁶⁴ − 1; a negative one would raise deep inside it."""
    if isinstance(seed, bool) or not isinstance(seed, int | np.integer) or not 0 <= seed < 2**64:
        raise InputError("lab.bad_seed", value=seed, hi=f"{2**64 - 1:,}")


def _embedding(label: str, d_model: int, seed: int) -> np.ndarray:
    # crc32, not hash(): Python salts str hashes per process, and a preset must not change.
    rng = np.random.default_rng([seed, zlib.crc32(label.encode("utf-8"))])
    # + 0.0 turns −0.0 into 0.0, which would otherwise print as "-0.0"
    return rng.standard_normal(d_model).round(_X_DECIMALS) + 0.0  # (d_model,)


def embed(labels: Sequence[str], d_model: int = 8, seed: int = 0) -> Tokens:
    """Seeded embeddings for the given words: one N(0, 1) row per word, rounded to 0.1."""
    labels = tuple(str(w) for w in labels if str(w).strip())
    _check_count(len(labels))
    _check_d_model(d_model)
    _check_seed(seed)
    X = np.vstack([_embedding(w, d_model, seed) for w in labels])  # (n, d_model)
    return Tokens(labels=labels, X=X)


def numbered(n: int, d_model: int = 8, seed: int = 0, prefix: str = "x") -> Tokens:
    """n tokens labelled x1 … xn with seeded embeddings (``attn-tui lab --tokens 5``)."""
    _check_count(n)
    return embed([f"{prefix}{i + 1}" for i in range(n)], d_model, seed)


def preset(name: str, d_model: int = 8, seed: int = 0) -> Tokens:
    """One of PRESETS (the seeds' 猫 坐 在 垫子 上, "I love China", 我 爱 中国)."""
    if name not in PRESETS:
        raise InputError("lab.preset", name=name, names=", ".join(PRESETS))
    return embed(PRESETS[name], d_model, seed)


def _parse(text: str, matrix: str) -> np.ndarray:
    """parse_matrix, its faults naming the matrix (X, W_Q, ...) as the field."""
    return parse_matrix(text, field=matrix)


def _as_matrix(value: str | np.ndarray, matrix: str) -> np.ndarray:
    if isinstance(value, str):
        return _parse(value, matrix)
    arr = np.asarray(value, dtype=np.float64)
    if arr.ndim != 2 or arr.size == 0 or not np.all(np.isfinite(arr)):
        raise InputError("lab.bad_matrix", matrix=matrix)
    return arr


def typed(rows: str | np.ndarray, labels: Sequence[str] | None = None) -> Tokens:
    """A sequence the learner typed: one row of X per token (labels default to x1 … xn)."""
    X = _as_matrix(rows, "X")
    _check_count(int(X.shape[0]))
    _check_d_model(int(X.shape[1]))
    if labels is None:
        labels = [f"x{i + 1}" for i in range(X.shape[0])]
    labels = tuple(str(w) for w in labels)
    if len(labels) != X.shape[0]:
        raise InputError("lab.labels", rows=int(X.shape[0]), labels=len(labels))
    return Tokens(labels=labels, X=X)


def _shape_error(name: str, got: np.ndarray, rows: int | str, cols: int | str) -> InputError:
    return InputError(
        "lab.shape",
        matrix=name,
        rows=int(got.shape[0]),
        cols=int(got.shape[1]),
        want_rows=rows,
        want_cols=cols,
    )


def projections(
    d_model: int,
    seed: int = 0,
    *,
    W_Q: str | np.ndarray | None = None,
    W_K: str | np.ndarray | None = None,
    W_V: str | np.ndarray | None = None,
    W_O: str | np.ndarray | None = None,
) -> Projections:
    """W_Q, W_K, W_V, W_O: each typed (text or array) or, when None, seeded.

    Seeded entries are N(0, 1/d_model) (keeps Q·K of order 1), rounded to 0.01. All four are
    always drawn in the same order, so typing one matrix leaves the seeded others unchanged;
    a seeded matrix takes its width from a typed partner (W_K from W_Q, W_O from W_V).
    """
    _check_d_model(d_model)
    _check_seed(seed)
    typed_ = {
        name: None if value is None else _as_matrix(value, name)
        for name, value in (("W_Q", W_Q), ("W_K", W_K), ("W_V", W_V), ("W_O", W_O))
    }
    # Width of Q and K (h·d_k) and of V (h·d_v): d_model unless a typed matrix says otherwise.
    given_qk = typed_["W_Q"] if typed_["W_Q"] is not None else typed_["W_K"]
    p = d_model if given_qk is None else int(given_qk.shape[1])
    if typed_["W_V"] is not None:
        pv = int(typed_["W_V"].shape[1])
    elif typed_["W_O"] is not None:
        pv = int(typed_["W_O"].shape[0])
    else:
        pv = d_model
    want = {"W_Q": (d_model, p), "W_K": (d_model, p), "W_V": (d_model, pv), "W_O": (pv, d_model)}

    rng = np.random.default_rng([seed, _STREAM_WEIGHTS])
    scale = 1.0 / math.sqrt(d_model)
    out: dict[str, np.ndarray] = {}
    for name, shape in want.items():
        drawn = (rng.standard_normal(shape) * scale).round(_W_DECIMALS) + 0.0  # no −0.0
        given = typed_[name]
        if given is None:
            out[name] = drawn
        elif given.shape != shape:
            raise _shape_error(name, given, *shape)
        else:
            out[name] = given
    return Projections(**out)


# ---------------------------------------------------------------------------- masks


def check_window(window: int | None) -> None:
    if window is None:
        return
    if isinstance(window, bool) or not isinstance(window, int | np.integer) or window < 0:
        raise InputError("lab.window", value=window)


def mask(n_q: int, n_k: int, *, causal: bool = False, window: int | None = None) -> np.ndarray:
    """Which keys each query may see: True = allowed. (n_q, n_k)

    causal: key j ≤ query i (no peeking at later tokens); window w: |i − j| ≤ w.
    """
    check_window(window)
    i = np.arange(n_q)[:, None]  # (n_q, 1)
    j = np.arange(n_k)[None, :]  # (1, n_k)
    allowed = np.ones((n_q, n_k), dtype=bool)
    if causal:
        allowed &= j <= i
    if window is not None:
        allowed &= np.abs(i - j) <= window
    return allowed


# ---------------------------------------------------------------------------- attention


@dataclass(frozen=True)
class LabResult:
    """Every number of one (multi-head, possibly masked, possibly cross) attention layer."""

    queries: Tokens  # X_q (n_q, d_model)
    memory: Tokens  # X_kv (n_k, d_model); the same object as queries for self-attention
    proj: Projections
    heads: int  # h
    causal: bool
    window: int | None
    Q: np.ndarray  # (n_q, h·d_k)   X_q · W_Q
    K: np.ndarray  # (n_k, h·d_k)   X_kv · W_K
    V: np.ndarray  # (n_k, h·d_v)   X_kv · W_V
    Qh: np.ndarray  # (h, n_q, d_k)  Q split into heads
    Kh: np.ndarray  # (h, n_k, d_k)
    Vh: np.ndarray  # (h, n_k, d_v)
    raw: np.ndarray  # (h, n_q, n_k)  Q Kᵀ per head, before scaling and masking
    allowed: np.ndarray  # (n_q, n_k) bool: True where the query may see the key
    scores: np.ndarray  # (h, n_q, n_k)  raw / √d_k, −inf where masked
    weights: np.ndarray  # (h, n_q, n_k)  softmax rows: sum 1, exactly 0 where masked
    Z: np.ndarray  # (h, n_q, d_v)  weights · V per head
    concat: np.ndarray  # (n_q, h·d_v)  heads side by side
    output: np.ndarray  # (n_q, d_model)  concat · W_O

    @property
    def cross(self) -> bool:
        return self.memory is not self.queries

    @property
    def n_q(self) -> int:
        return self.queries.n

    @property
    def n_k(self) -> int:
        return self.memory.n

    @property
    def d_model(self) -> int:
        return self.queries.d_model

    @property
    def d_k(self) -> int:
        return int(self.Qh.shape[2])

    @property
    def d_v(self) -> int:
        return int(self.Vh.shape[2])

    @property
    def sqrt_d_k(self) -> float:
        return math.sqrt(self.d_k)

    @property
    def row_sums(self) -> np.ndarray:
        """(h, n_q): each is 1 up to rounding — the check shown beside each weight row."""
        return self.weights.sum(axis=-1)

    @property
    def shapes(self) -> dict[str, tuple[int, ...]]:
        """Name → shape, in the order of the computation."""
        return {
            "X_q": self.queries.X.shape, "X_kv": self.memory.X.shape,
            "W_Q": self.proj.W_Q.shape, "W_K": self.proj.W_K.shape,
            "W_V": self.proj.W_V.shape,
            "Q": self.Q.shape, "K": self.K.shape, "V": self.V.shape,
            "Q_heads": self.Qh.shape, "K_heads": self.Kh.shape, "V_heads": self.Vh.shape,
            "scores": self.scores.shape, "weights": self.weights.shape,
            "Z": self.Z.shape, "concat": self.concat.shape,
            "W_O": self.proj.W_O.shape, "output": self.output.shape,
        }  # fmt: skip

    def to_dict(self) -> dict[str, object]:
        """Plain-Python form for --json. Masked scores (−∞) become null: JSON has no infinity."""
        scores = [
            [[None if math.isinf(s) else s for s in row] for row in head]
            for head in self.scores.tolist()
        ]
        return {
            "mode": "cross" if self.cross else "self",
            "tokens": {"queries": list(self.queries.labels), "keys": list(self.memory.labels)},
            "n_q": self.n_q,
            "n_k": self.n_k,
            "d_model": self.d_model,
            "heads": self.heads,
            "d_k": self.d_k,
            "d_v": self.d_v,
            "sqrt_d_k": self.sqrt_d_k,
            "causal": self.causal,
            "window": self.window,
            "shapes": {name: list(shape) for name, shape in self.shapes.items()},
            "inputs": {
                "X_q": self.queries.X.tolist(),
                "X_kv": self.memory.X.tolist(),
                **self.proj.to_dict(),
            },
            "Q": self.Q.tolist(),
            "K": self.K.tolist(),
            "V": self.V.tolist(),
            "allowed": self.allowed.tolist(),
            "scores": scores,
            "weights": self.weights.tolist(),
            "row_sums": self.row_sums.tolist(),
            "heads_output": self.Z.tolist(),
            "concat": self.concat.tolist(),
            "output": self.output.tolist(),
            "parameters": self.proj.count,
        }


def _divisors(n: int) -> str:
    return ", ".join(str(k) for k in range(1, n + 1) if n % k == 0)


def check_heads(heads: int, d_model: int) -> None:
    """h must be a positive divisor of d_model, so that d_k = d_model / h is whole."""
    ok = not isinstance(heads, bool) and isinstance(heads, int | np.integer)
    if not ok or heads < 1 or d_model % heads:
        raise InputError("lab.heads", heads=heads, d_model=d_model, divisors=_divisors(d_model))


def compute(
    queries: Tokens,
    memory: Tokens | None = None,
    proj: Projections | None = None,
    *,
    heads: int = 1,
    causal: bool = False,
    window: int | None = None,
    seed: int = 0,
) -> LabResult:
    """Multi-head scaled dot-product attention, all heads at once.

    ``memory=None`` is self-attention (keys and values from ``queries``); otherwise it is
    cross-attention. ``proj=None`` draws seeded d_model × d_model projections. Masks apply
    to self-attention only: in cross-attention the two sequences have no shared positions.
    """
    cross = memory is not None and memory is not queries
    memory = queries if memory is None else memory
    d_model = queries.d_model
    if memory.d_model != d_model:
        raise InputError("lab.cross_dim", queries=d_model, memory=memory.d_model)
    if cross and (causal or window is not None):
        raise InputError("lab.cross_mask")
    check_window(window)
    proj = projections(d_model, seed) if proj is None else proj
    if proj.d_model != d_model:
        raise _shape_error("W_Q", proj.W_Q, d_model, proj.W_Q.shape[1])
    width, width_v = proj.W_Q.shape[1], proj.W_V.shape[1]
    if width == d_model and width_v == d_model:
        check_heads(heads, d_model)
    else:  # typed projections narrower than d_model: h must divide their widths instead
        for name, w in (("W_Q", width), ("W_V", width_v)):
            if isinstance(heads, bool) or heads < 1 or w % heads:
                raise InputError(
                    "lab.heads_width", heads=heads, matrix=name, width=w, divisors=_divisors(w)
                )
    h, n_q, n_k = heads, queries.n, memory.n
    d_k, d_v = width // h, width_v // h

    Q = queries.X @ proj.W_Q  # (n_q, h·d_k)
    K = memory.X @ proj.W_K  # (n_k, h·d_k)
    V = memory.X @ proj.W_V  # (n_k, h·d_v)
    # Split: column block i of Q belongs to head i.  (n, h·d) → (n, h, d) → (h, n, d)
    Qh = Q.reshape(n_q, h, d_k).transpose(1, 0, 2)  # (h, n_q, d_k)
    Kh = K.reshape(n_k, h, d_k).transpose(1, 0, 2)  # (h, n_k, d_k)
    Vh = V.reshape(n_k, h, d_v).transpose(1, 0, 2)  # (h, n_k, d_v)
    raw = Qh @ Kh.transpose(0, 2, 1)  # (h, n_q, n_k)  every head's Q Kᵀ in one matmul
    allowed = mask(n_q, n_k, causal=causal, window=window)  # (n_q, n_k)
    # A query always sees itself under causal/window masks, so no row is all −∞.
    scores = np.where(allowed, raw / math.sqrt(d_k), -np.inf)  # (h, n_q, n_k)
    weights = softmax(scores, axis=-1)  # exp(−∞) = 0 exactly; the rest renormalise
    Z = weights @ Vh  # (h, n_q, d_v)
    concat = Z.transpose(1, 0, 2).reshape(n_q, h * d_v)  # (n_q, h·d_v)  inverse of the split
    output = concat @ proj.W_O  # (n_q, d_model)
    return LabResult(
        queries=queries,
        memory=memory,
        proj=proj,
        heads=h,
        causal=causal,
        window=window,
        Q=Q,
        K=K,
        V=V,
        Qh=Qh,
        Kh=Kh,
        Vh=Vh,
        raw=raw,
        allowed=allowed,
        scores=scores,
        weights=weights,
        Z=Z,
        concat=concat,
        output=output,
    )


@dataclass(frozen=True)
class LabConfig:
    """The lab screen's settings; ``dataclasses.replace`` gives the next state on a toggle."""

    preset: str = "cat"  # sentence whose tokens ask the queries (see PRESETS)
    d_model: int = 8  # embedding size, 1 … MAX_D_MODEL
    heads: int = 2  # h, a divisor of d_model; d_k = d_model / h
    causal: bool = False  # hide later tokens from each query
    window: int | None = None  # local attention: keys at most w positions away; None = all
    seed: int = 0  # draws X (per token) and W_Q, W_K, W_V, W_O
    cross: str | None = None  # preset supplying keys and values (cross-attention); None = self


def build(config: LabConfig = LabConfig()) -> LabResult:
    """Presets, seeded projections and the layer, from one settings object."""
    queries = preset(config.preset, config.d_model, config.seed)
    memory = None if config.cross is None else preset(config.cross, config.d_model, config.seed)
    return compute(
        queries,
        memory,
        heads=config.heads,
        causal=config.causal,
        window=config.window,
        seed=config.seed,
    )


# ---------------------------------------------------------------------------- one cell


@dataclass(frozen=True)
class ScoreCell:
    """The arithmetic behind scores[head, i, j]: row i of Q_head against row j of K_head."""

    head: int
    i: int  # query position (row)
    j: int  # key position (column)
    query: str  # token label of row i
    key: str  # token label of column j
    q_row: np.ndarray  # (d_k,)  Q[i, head·d_k : (head+1)·d_k]
    k_row: np.ndarray  # (d_k,)  K[j, same columns]
    products: np.ndarray  # (d_k,)  q_row * k_row
    dot: float  # Σ products = raw[head, i, j]
    sqrt_d_k: float
    scaled: float  # dot / √d_k, or −inf if masked
    masked: bool
    weight: float  # weights[head, i, j]

    def to_dict(self) -> dict[str, object]:
        return {
            "head": self.head,
            "i": self.i,
            "j": self.j,
            "query": self.query,
            "key": self.key,
            "q_row": self.q_row.tolist(),
            "k_row": self.k_row.tolist(),
            "products": self.products.tolist(),
            "dot": self.dot,
            "sqrt_d_k": self.sqrt_d_k,
            "scaled": None if self.masked else self.scaled,
            "masked": self.masked,
            "weight": self.weight,
        }


def score_cell(result: LabResult, head: int, i: int, j: int) -> ScoreCell:
    q_row = result.Qh[head, i]  # (d_k,)
    k_row = result.Kh[head, j]  # (d_k,)
    products = q_row * k_row
    return ScoreCell(
        head=head,
        i=i,
        j=j,
        query=result.queries.labels[i],
        key=result.memory.labels[j],
        q_row=q_row,
        k_row=k_row,
        products=products,
        dot=float(result.raw[head, i, j]),
        sqrt_d_k=result.sqrt_d_k,
        scaled=float(result.scores[head, i, j]),
        masked=not bool(result.allowed[i, j]),
        weight=float(result.weights[head, i, j]),
    )


@dataclass(frozen=True)
class OutputCell:
    """Z[head, i, c] = Σ_j weights[head, i, j] · V_head[j, c]: one weighted sum, term by term."""

    head: int
    i: int  # query position
    c: int  # component of the head's output
    weights: np.ndarray  # (n_k,)  row i of the head's weights
    values: np.ndarray  # (n_k,)  column c of V_head
    terms: np.ndarray  # (n_k,)  weights * values
    total: float  # Σ terms = Z[head, i, c]

    def to_dict(self) -> dict[str, object]:
        return {
            "head": self.head,
            "i": self.i,
            "c": self.c,
            "weights": self.weights.tolist(),
            "values": self.values.tolist(),
            "terms": self.terms.tolist(),
            "total": self.total,
        }


def output_cell(result: LabResult, head: int, i: int, c: int) -> OutputCell:
    w = result.weights[head, i]  # (n_k,)
    v = result.Vh[head, :, c]  # (n_k,)
    return OutputCell(
        head=head, i=i, c=c, weights=w, values=v, terms=w * v, total=float(result.Z[head, i, c])
    )


@dataclass(frozen=True)
class ProjectionCell:
    """Q[i, c] (or K, V) = row i of X times column c of W: which numbers make one entry."""

    matrix: str  # "Q", "K" or "V"
    i: int
    c: int
    x_row: np.ndarray  # (d_model,)
    w_col: np.ndarray  # (d_model,)
    products: np.ndarray  # (d_model,)
    total: float

    def to_dict(self) -> dict[str, object]:
        return {
            "matrix": self.matrix,
            "i": self.i,
            "c": self.c,
            "x_row": self.x_row.tolist(),
            "w_col": self.w_col.tolist(),
            "products": self.products.tolist(),
            "total": self.total,
        }


def projection_cell(result: LabResult, matrix: str, i: int, c: int) -> ProjectionCell:
    X = result.queries.X if matrix == "Q" else result.memory.X
    W = {"Q": result.proj.W_Q, "K": result.proj.W_K, "V": result.proj.W_V}[matrix]
    out = {"Q": result.Q, "K": result.K, "V": result.V}[matrix]
    x_row, w_col = X[i], W[:, c]
    return ProjectionCell(
        matrix=matrix,
        i=i,
        c=c,
        x_row=x_row,
        w_col=w_col,
        products=x_row * w_col,
        total=float(out[i, c]),
    )


# ---------------------------------------------------------------------------- shapes, cost


@dataclass(frozen=True)
class ShapeStep:
    key: str  # names the step: lab.step.<key> in the text catalogue
    formula: str  # language-neutral, e.g. "Q = X · W_Q"
    shape: tuple[int, ...]


@dataclass(frozen=True)
class ShapesTrace:
    """The shapes of a multi-head layer at any size, with no numbers computed."""

    n: int
    d_model: int
    heads: int
    d_k: int  # d_model / h
    steps: tuple[ShapeStep, ...]
    scores_per_head: int  # n²
    scores_total: int  # h · n²
    parameters: int  # 4 · d_model² (W_Q, W_K, W_V, W_O; no biases)

    @property
    def sqrt_d_k(self) -> float:
        return math.sqrt(self.d_k)

    def to_dict(self) -> dict[str, object]:
        return {
            "n": self.n,
            "d_model": self.d_model,
            "heads": self.heads,
            "d_k": self.d_k,
            "sqrt_d_k": self.sqrt_d_k,
            "steps": [
                {"step": s.key, "formula": s.formula, "shape": list(s.shape)} for s in self.steps
            ],
            "scores_per_head": self.scores_per_head,
            "scores_total": self.scores_total,
            "parameters": self.parameters,
        }


def shapes_trace(n: int = 10, d_model: int = 512, heads: int = 8) -> ShapesTrace:
    """(n, d_model) → (n, h, d_k) → (h, n, n) per head → (n, d_model); seed: 10, 512, 8."""
    for name, value, limit in (
        ("n", n, MAX_SHAPES_TOKENS),
        ("d_model", d_model, MAX_SHAPES_D_MODEL),
    ):
        if isinstance(value, bool) or not isinstance(value, int | np.integer):
            raise InputError("lab.shapes_size", name=name, value=value, limit=limit)
        if not 1 <= value <= limit:
            raise InputError("lab.shapes_size", name=name, value=value, limit=limit)
    check_heads(heads, d_model)
    h, d_k = heads, d_model // heads
    steps = (
        ShapeStep("x", "X", (n, d_model)),
        ShapeStep("w_qkv", "W_Q, W_K, W_V", (d_model, d_model)),
        ShapeStep("qkv", "X·W_Q, X·W_K, X·W_V", (n, d_model)),
        ShapeStep("split", "(n, d_model) → (n, h, d_k)", (n, h, d_k)),
        ShapeStep("heads", "(n, h, d_k) → (h, n, d_k)", (h, n, d_k)),
        ShapeStep("scores", "Q_i·K_iᵀ / √d_k", (h, n, n)),
        ShapeStep("weights", "softmax", (h, n, n)),
        ShapeStep("head_out", "A_i·V_i", (h, n, d_k)),
        ShapeStep("concat", "Concat(head_1 … head_h)", (n, h * d_k)),
        ShapeStep("w_o", "W_O", (h * d_k, d_model)),
        ShapeStep("output", "Concat · W_O", (n, d_model)),
    )
    return ShapesTrace(
        n=n,
        d_model=d_model,
        heads=h,
        d_k=d_k,
        steps=steps,
        scores_per_head=n * n,
        scores_total=h * n * n,
        parameters=4 * d_model * d_model,
    )


@dataclass(frozen=True)
class Cost:
    """Why long sequences are expensive, and why attention is still fast to train."""

    n: int
    scores: int  # n² query–key pairs for one head
    rnn_steps: int  # n: an RNN must wait for h_{t−1} before h_t
    attention_steps: int  # 1: every score is one matrix product, all at once
    short: int  # reference lengths from the seed: 100 …
    long: int  # … and 1000
    short_scores: int  # 10 000
    long_scores: int  # 1 000 000
    ratio: int  # (long/short)² = 100: ten times the length, a hundred times the scores

    def to_dict(self) -> dict[str, object]:
        return {f: getattr(self, f) for f in self.__dataclass_fields__}


def cost(n: int, short: int = 100, long: int = 1000) -> Cost:
    for value in (n, short, long):
        if isinstance(value, bool) or not isinstance(value, int | np.integer) or value < 1:
            raise InputError("lab.shapes_size", name="n", value=value, limit=MAX_SHAPES_TOKENS)
    return Cost(
        n=n,
        scores=n * n,
        rnn_steps=n,
        attention_steps=1,
        short=short,
        long=long,
        short_scores=short * short,
        long_scores=long * long,
        ratio=(long * long) // (short * short),
    )
