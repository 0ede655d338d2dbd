"""Every kind of check a code exercise can name: its reference, its cases, its mistakes.

A :class:`Check` says which arguments the learner's function takes (in order), how the
expected result is computed (``references``, or finite differences for a backward pass),
which cases it is run on — a readable one first, seeded random ones, then the cases that
catch the classic mistakes (scores ≥ 710, ties, one key, a row with a single key left, cross
attention, d_k ≠ d_model, a batch of one) — and which mistakes it can name.

A :class:`Mistake` is claimed only where it fits: its ``variant`` recomputes what the
mistaken code returns on the same inputs, and the diagnosis stands only when the learner's
result equals it (on the first failing case and on every other case where both exist);
``when`` is a test on one failing case (non-finite results on scores past 709.78, where
exp overflows); ``error`` a test on an exception and the line that raised it.

A teacher's exercise picks one of these by name (``check = "softmax"``) and may choose its
cases: how many random ones, their seed, which named ones, and cases of their own.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from attn_tui.core.coding import references as ref

OVERFLOW = math.log(np.finfo(np.float64).max)  # 709.78: exp of more is inf
HAND_Q = np.array([[1.0, 0.0, 1.0]])
HAND_K = np.array([[1.0, 0, 0], [0, 1, 0], [1, 0, 1], [1, 1, 0]])


@dataclass(frozen=True)
class Case:
    name: str  # the text key code.case.<name>: what this case is for
    args: tuple[Any, ...]
    info: Mapping[str, Any] = field(default_factory=dict)  # e.g. {"big": True}


@dataclass(frozen=True)
class Mistake:
    code: str  # the text key code.mistake.<code>
    variant: Callable[..., Any] | None = None
    when: Callable[[Case, Any, Any], bool] | None = None  # (case, expected, received)
    error: Callable[[Mapping[str, Any], Case], bool] | None = None  # (exception, case)
    params: Callable[[Case], Mapping[str, Any]] = lambda case: {}


@dataclass(frozen=True)
class Check:
    name: str
    params: tuple[str, ...]  # the learner's arguments, in order
    kinds: tuple[str, ...]  # per argument: "array", "int", "mask", "mask?" (may be None)
    outputs: tuple[str, ...]  # one name: a single array; more: a tuple in that order
    reference: Callable[..., Any]
    builders: Mapping[str, Callable[[np.random.Generator], Case]]  # the named cases, in order
    random: Callable[[np.random.Generator], Case]
    mistakes: tuple[Mistake, ...] = ()
    rtol: float = 1e-5
    atol: float = 1e-8
    by_differences: bool = False  # the expected values are finite differences
    default_random: int = 6

    def cases(
        self, seed: int = 0, random: int | None = None, names: tuple[str, ...] | None = None
    ) -> list[Case]:
        """The first named case, the random ones, then the other named ones (the readable
        case first, so a first failure is easy to read; the adversarial ones last)."""
        rng = np.random.default_rng(seed)
        chosen = list(self.builders) if names is None else [n for n in self.builders if n in names]
        built = [self.builders[n](rng) for n in chosen]
        count = self.default_random if random is None else random
        randoms = [self.random(rng) for _ in range(count)]
        return built[:1] + randoms + built[1:]

    def expected(self, case: Case) -> Any:
        return self.reference(*case.args)


# -- drawing numbers: one decimal, so what is shown is what was used ---------------------------


def _r(rng: np.random.Generator, *shape: int, scale: float = 1.0) -> np.ndarray:
    return np.round(rng.normal(0.0, scale, size=shape), 1)


def _dims(rng: np.random.Generator, lo: int = 1, hi: int = 5) -> int:
    return int(rng.integers(lo, hi + 1))


class NotApplicable(Exception):
    """A mistake that cannot show on these inputs (its code would fail, or give the right
    answer): it is not claimed."""


def _has_nonfinite(received: Any) -> bool:
    try:
        return not np.all(np.isfinite(np.asarray(received, dtype=np.float64)))
    except (TypeError, ValueError):
        return False


def _overflowed(case: Case, expected: Any, received: Any) -> bool:
    return bool(case.info.get("big")) and _has_nonfinite(received)


def _underflowed(case: Case, expected: Any, received: Any) -> bool:
    return bool(case.info.get("tiny")) and _has_nonfinite(received)


def _needs(ok: bool) -> None:
    if not ok:
        raise NotApplicable


def _t_on_3d(err: Mapping[str, Any], case: Case) -> bool:
    """``K.T`` on a (B, T, d) array reverses all three axes: matmul then fails."""
    line = " ".join(str(f[2]) for f in err.get("frames", [])[-1:])
    return ".T" in line and err.get("type") == "ValueError" and "matmul" in err.get("message", "")


def _matmul_on(text: str):
    """A matmul that failed on a line that uses ``text`` (``A.T``): the shapes say which."""

    def test(err: Mapping[str, Any], case: Case) -> bool:
        line = " ".join(str(f[2]) for f in err.get("frames", [])[-1:])
        return (
            text in line and err.get("type") == "ValueError" and "matmul" in err.get("message", "")
        )

    return test


def _no_keepdims(err: Mapping[str, Any], case: Case) -> bool:
    return err.get("type") == "ValueError" and "broadcast" in err.get("message", "")


OVERFLOWS = Mistake("overflow", when=_overflowed)
UNDERFLOWS = Mistake("underflow", when=_underflowed)


# -- 1 scores, 2 scaled scores -----------------------------------------------------------------


def _qk_random(rng: np.random.Generator) -> Case:
    n_q, n_k, d = _dims(rng, 1, 3), _dims(rng, 2, 5), _dims(rng, 2, 4)
    return Case("random", (_r(rng, n_q, d), _r(rng, n_k, d)))


_QK_CASES: dict[str, Callable[[np.random.Generator], Case]] = {
    "hand": lambda rng: Case("hand", (HAND_Q, HAND_K)),
    "cross": lambda rng: Case("cross", (_r(rng, 2, 3), _r(rng, 5, 3))),
    "one_key": lambda rng: Case("one_key", (_r(rng, 3, 4), _r(rng, 1, 4))),
    "one_query": lambda rng: Case("one_query", (_r(rng, 1, 2), _r(rng, 6, 2))),
    "d_one": lambda rng: Case("d_one", (_r(rng, 2, 1), _r(rng, 3, 1))),
}

SCORES = Check(
    name="scores",
    params=("Q", "K"),
    kinds=("array", "array"),
    outputs=("S",),
    reference=ref.scores,
    builders=_QK_CASES,
    random=_qk_random,
    mistakes=(
        Mistake("scaled_too_soon", variant=ref.scaled_scores),
        Mistake("softmaxed_too_soon", variant=lambda Q, K: ref.stable_softmax(Q @ K.T)),
    ),
)


def _d(case: Case) -> dict[str, Any]:
    d = int(case.args[0].shape[-1])
    return {"d": d, "sqrt_d": f"{math.sqrt(d):.4g}", "n": int(case.args[1].shape[-2])}


SCALED = Check(
    name="scaled_scores",
    params=("Q", "K"),
    kinds=("array", "array"),
    outputs=("S",),
    reference=ref.scaled_scores,
    builders={k: v for k, v in _QK_CASES.items() if k != "d_one"},
    random=_qk_random,
    mistakes=(
        Mistake("not_scaled", variant=ref.scores, params=_d),
        Mistake("divided_by_d", variant=lambda Q, K: Q @ K.T / Q.shape[-1], params=_d),
        Mistake(
            "divided_by_sqrt_n", variant=lambda Q, K: Q @ K.T / math.sqrt(K.shape[0]), params=_d
        ),
        Mistake(
            "multiplied_by_sqrt_d", variant=lambda Q, K: Q @ K.T * math.sqrt(Q.shape[-1]), params=_d
        ),
    ),
)


# -- 3 softmax ---------------------------------------------------------------------------------


def _softmax_random(rng: np.random.Generator) -> Case:
    shape = [
        (_dims(rng, 2, 5),),
        (_dims(rng, 1, 3), _dims(rng, 2, 5)),
        (2, _dims(rng, 1, 3), _dims(rng, 2, 4)),
    ][int(rng.integers(0, 3))]
    return Case("random", (_r(rng, *shape, scale=2.0),))


def _unstable(x: np.ndarray) -> np.ndarray:
    with np.errstate(all="ignore"):
        e = np.exp(x)
        return e / e.sum(axis=-1, keepdims=True)


def _no_keepdims_variant(x: np.ndarray) -> np.ndarray:
    """``x - x.max(axis=-1)`` and ``e / e.sum(axis=-1)`` without keepdims: on a square matrix
    the row statistics line up with the columns, and nothing fails."""
    _needs(x.ndim == 2 and x.shape[0] == x.shape[1])  # else the mistake raises instead
    e = np.exp(x - x.max(axis=-1))
    return e / e.sum(axis=-1)


def _softmax_axis0(x: np.ndarray) -> np.ndarray:
    _needs(x.ndim > 1)
    return ref.softmax(x, axis=0)


SOFTMAX = Check(
    name="softmax",
    params=("x",),
    kinds=("array",),
    outputs=("y",),
    reference=ref.stable_softmax,
    builders={
        "hand_scaled": lambda rng: Case("hand_scaled", (np.array([0.5774, 0.0, 1.1547, 0.5774]),)),
        "rows": lambda rng: Case("rows", (np.array([[1.0, 2.0, 3.0], [1.0, 1.0, 1.0]]),)),
        "square": lambda rng: Case(
            "square", (np.array([[1.0, 2.0, 0.0], [0.0, 3.0, 1.0], [2.0, 2.0, 5.0]]),)
        ),
        "large": lambda rng: Case(
            "large", (np.array([[1000.0, 999.0, 0.0], [710.0, 0.0, 1.0]]),), {"big": True}
        ),
        "very_negative": lambda rng: Case(
            "very_negative", (np.array([-1000.0, -1001.0, -1000.0]),), {"tiny": True}
        ),
        "ties": lambda rng: Case("ties", (np.array([[2.0, 2.0, 2.0, 2.0]]),)),
        "one_key": lambda rng: Case("one_key", (np.array([[3.5], [-7.0]]),)),
        "batch": lambda rng: Case("batch", (_r(rng, 2, 2, 3, scale=2.0),)),
    },
    random=_softmax_random,
    mistakes=(
        OVERFLOWS,
        UNDERFLOWS,
        Mistake("not_normalised", variant=lambda x: np.exp(x - x.max(axis=-1, keepdims=True))),
        Mistake("whole_array", variant=lambda x: np.exp(x - x.max()) / np.exp(x - x.max()).sum()),
        Mistake("wrong_axis", variant=_softmax_axis0),
        Mistake("no_keepdims", variant=_no_keepdims_variant, error=_no_keepdims),
    ),
)


# -- 4 weighted sum, 5 one query end to end ----------------------------------------------------


def _weights(rng: np.random.Generator, n_q: int, n_k: int) -> np.ndarray:
    return np.round(ref.stable_softmax(_r(rng, n_q, n_k)), 2)


def _av_random(rng: np.random.Generator) -> Case:
    n_q, n_k, d_v = _dims(rng, 1, 3), _dims(rng, 2, 4), _dims(rng, 1, 3)
    return Case("random", (_weights(rng, n_q, n_k), _r(rng, n_k, d_v)))


def _weights_transposed(A: np.ndarray, V: np.ndarray) -> np.ndarray:
    _needs(A.shape[0] == A.shape[1])
    return A.T @ V


WEIGHTED = Check(
    name="weighted_sum",
    params=("A", "V"),
    kinds=("array", "array"),
    outputs=("Z",),
    reference=ref.weighted_sum,
    builders={
        "hand_weights": lambda rng: Case(
            "hand_weights", (np.array([[0.2303, 0.1293, 0.4102, 0.2303]]), HAND_K)
        ),
        "one_hot": lambda rng: Case("one_hot", (np.array([[0.0, 1.0, 0.0]]), _r(rng, 3, 2))),
        "cross": lambda rng: Case("cross", (_weights(rng, 2, 5), _r(rng, 5, 3))),
        "square": lambda rng: Case("square", (_weights(rng, 3, 3), _r(rng, 3, 3))),
        "one_key": lambda rng: Case("one_key", (np.ones((2, 1)), _r(rng, 1, 3))),
    },
    random=_av_random,
    mistakes=(
        Mistake(
            "plain_average",
            variant=lambda A, V: np.broadcast_to(V.mean(axis=0), (A.shape[0], V.shape[1])),
        ),
        Mistake("weights_transposed", variant=_weights_transposed, error=_matmul_on("A.T")),
    ),
)


def _one_random(rng: np.random.Generator) -> Case:
    n, d, d_v = _dims(rng, 2, 5), _dims(rng, 2, 4), _dims(rng, 1, 3)
    return Case("random", (_r(rng, d), _r(rng, n, d), _r(rng, n, d_v)))


def _one_d(case: Case) -> dict[str, Any]:
    d = int(case.args[0].shape[-1])
    return {"d": d, "sqrt_d": f"{math.sqrt(d):.4g}"}


def _attend_with(scale: Callable[[int], float], values: str = "V"):
    def variant(q: np.ndarray, K: np.ndarray, V: np.ndarray) -> np.ndarray:
        a = ref.stable_softmax(K @ q * scale(q.shape[-1]))
        return a @ (K if values == "K" else V)

    return variant


ONE_QUERY = Check(
    name="attention_one",
    params=("q", "K", "V"),
    kinds=("array", "array", "array"),
    outputs=("o",),
    reference=ref.attention_one,
    builders={
        "hand": lambda rng: Case("hand", (HAND_Q[0], HAND_K, HAND_K)),
        "values": lambda rng: Case("values", (_r(rng, 3), _r(rng, 4, 3), _r(rng, 4, 3))),
        "d_v": lambda rng: Case("d_v", (_r(rng, 2), _r(rng, 3, 2), _r(rng, 3, 4))),
        "one_key": lambda rng: Case("one_key", (_r(rng, 3), _r(rng, 1, 3), _r(rng, 1, 2))),
        "ties": lambda rng: Case("ties", (np.ones(2), np.ones((3, 2)), _r(rng, 3, 2))),
        "large": lambda rng: Case(
            "large",
            (
                np.full(4, 40.0),
                np.array([[40.0, 40, 40, 40], [40, 40, 40, 39], [0, 0, 0, 0]]),
                _r(rng, 3, 2),
            ),
            {"big": True},
        ),
    },
    random=_one_random,
    mistakes=(
        OVERFLOWS,
        Mistake("not_scaled", variant=_attend_with(lambda d: 1.0), params=_one_d),
        Mistake("divided_by_d", variant=_attend_with(lambda d: 1.0 / d), params=_one_d),
        Mistake("summed_keys", variant=_attend_with(lambda d: d**-0.5, "K")),
        Mistake("plain_average", variant=lambda q, K, V: V.mean(axis=0)),
        Mistake("hard_max", variant=lambda q, K, V: V[int(np.argmax(K @ q))]),
        Mistake(
            "returned_weights",
            variant=lambda q, K, V: ref.stable_softmax(K @ q / math.sqrt(q.shape[-1])),
        ),
    ),
)


# -- 6 causal mask, 7 padding mask, 8 batched attention ----------------------------------------


CAUSAL = Check(
    name="causal_mask",
    params=("T",),
    kinds=("int",),
    outputs=("mask",),
    reference=ref.causal_mask,
    builders={
        "four": lambda rng: Case("four", (4,)),
        "one_token": lambda rng: Case("one_token", (1,)),
        "seven": lambda rng: Case("seven", (7,)),
    },
    random=lambda rng: Case("random", (_dims(rng, 2, 6),)),
    mistakes=(
        Mistake("mask_inverted", variant=lambda T: ~ref.causal_mask(T)),
        Mistake("mask_future", variant=lambda T: ref.causal_mask(T).T),
        Mistake("mask_strict", variant=lambda T: np.tril(np.ones((T, T), bool), k=-1)),
    ),
    default_random=2,
)


def _lengths_random(rng: np.random.Generator) -> Case:
    T = _dims(rng, 2, 6)
    B = _dims(rng, 1, 3)
    return Case("random", (rng.integers(1, T + 1, size=B), T))


PADDING = Check(
    name="padding_mask",
    params=("lengths", "T"),
    kinds=("array", "int"),
    outputs=("mask",),
    reference=ref.padding_mask,
    builders={
        "two": lambda rng: Case("two", (np.array([3, 1]), 4)),
        "full": lambda rng: Case("full", (np.array([5]), 5)),
        "batch_one": lambda rng: Case("batch_one", (np.array([2]), 3)),
    },
    random=_lengths_random,
    mistakes=(
        Mistake(
            "padding_off_by_one",
            variant=lambda lengths, T: ref.padding_mask(np.asarray(lengths) + 1, T),
        ),
        Mistake("padding_inverted", variant=lambda lengths, T: ~ref.padding_mask(lengths, T)),
        Mistake(
            "padding_no_query_axis",
            variant=lambda lengths, T: ref.padding_mask(lengths, T)[:, 0, :],
        ),
    ),
    default_random=3,
)


def _batch(rng: np.random.Generator, B: int, T_q: int, T_k: int, d: int, d_v: int) -> tuple:
    return _r(rng, B, T_q, d), _r(rng, B, T_k, d), _r(rng, B, T_k, d_v)


def _attention_random(rng: np.random.Generator) -> Case:
    B, T_q, T_k = _dims(rng, 1, 3), _dims(rng, 1, 4), _dims(rng, 1, 4)
    return Case("random", (*_batch(rng, B, T_q, T_k, _dims(rng, 2, 4), _dims(rng, 1, 3)), None))


def _single_key_rows(rng: np.random.Generator) -> Case:
    Q, K, V = _batch(rng, 2, 3, 4, 2, 2)
    mask = np.zeros((2, 3, 4), bool)
    mask[:, np.arange(3), [1, 3, 0]] = True  # each query may see exactly one key
    mask[1, 2] = [True, True, False, False]  # and one row two
    return Case("single_key", (Q, K, V, mask))


def _attention_d(case: Case) -> dict[str, Any]:
    d, d_v = int(case.args[0].shape[-1]), int(case.args[2].shape[-1])
    return {"d": d, "sqrt_d": f"{math.sqrt(d):.4g}", "d_v": d_v}


def _masked_with(fill: str):
    def variant(Q, K, V, mask=None):
        S = Q @ K.swapaxes(-1, -2) / math.sqrt(Q.shape[-1])
        _needs(mask is not None)
        with np.errstate(all="ignore"):
            if fill == "zero":
                return ref.softmax(np.where(mask, S, 0.0), axis=-1) @ V
            if fill == "after":
                return np.where(mask, ref.softmax(S, axis=-1), 0.0) @ V
            return ref.softmax(np.where(mask, -np.inf, S), axis=-1) @ V  # inverted

    return variant


def _scaled_attention(scale: Callable[[np.ndarray, np.ndarray], float]):
    def variant(Q, K, V, mask=None):
        S = Q @ K.swapaxes(-1, -2) * scale(Q, V)
        if mask is not None:
            S = np.where(mask, S, -np.inf)
        with np.errstate(all="ignore"):
            return ref.softmax(S, axis=-1) @ V

    return variant


ATTENTION = Check(
    name="attention",
    params=("Q", "K", "V", "mask"),
    kinds=("array", "array", "array", "mask?"),
    outputs=("O",),
    reference=ref.attention,
    builders={
        "small": lambda rng: Case("small", (*_batch(rng, 2, 2, 3, 2, 2), None)),
        "batch_one": lambda rng: Case("batch_one", (*_batch(rng, 1, 3, 3, 3, 2), None)),
        "cross": lambda rng: Case("cross", (*_batch(rng, 2, 2, 5, 3, 3), None)),
        "d_v": lambda rng: Case("d_v", (*_batch(rng, 2, 3, 3, 4, 2), None)),
        "causal": lambda rng: Case("causal", (*_batch(rng, 2, 4, 4, 2, 3), ref.causal_mask(4))),
        "padding": lambda rng: Case(
            "padding", (*_batch(rng, 2, 3, 4, 2, 2), ref.padding_mask(np.array([4, 2]), 4))
        ),
        "single_key": _single_key_rows,
        "ties": lambda rng: Case(
            "ties", (np.ones((1, 2, 2)), np.ones((1, 3, 2)), _r(rng, 1, 3, 2), None)
        ),
        "large": lambda rng: Case(
            "large",
            (
                np.full((1, 2, 4), 40.0),
                np.full((1, 3, 4), 40.0) + np.arange(3.0)[None, :, None],
                _r(rng, 1, 3, 2),
                None,
            ),
            {"big": True},
        ),
    },
    random=_attention_random,
    mistakes=(
        OVERFLOWS,
        Mistake("mask_after_softmax", variant=_masked_with("after")),
        Mistake("mask_zero", variant=_masked_with("zero")),
        Mistake("mask_inverted_use", variant=_masked_with("inverted")),
        Mistake("not_scaled", variant=_scaled_attention(lambda Q, V: 1.0), params=_attention_d),
        Mistake(
            "divided_by_d",
            variant=_scaled_attention(lambda Q, V: 1 / Q.shape[-1]),
            params=_attention_d,
        ),
        Mistake(
            "divided_by_sqrt_d_v",
            variant=_scaled_attention(lambda Q, V: V.shape[-1] ** -0.5),
            params=_attention_d,
        ),
        Mistake("t_on_3d", error=_t_on_3d),
    ),
)


# -- 9 split heads, 10 merge heads, 11 multi-head attention ------------------------------------


def _split_random(rng: np.random.Generator) -> Case:
    h, d_k = _dims(rng, 1, 3), _dims(rng, 1, 3)
    return Case("random", (_r(rng, _dims(rng, 1, 2), _dims(rng, 1, 4), h * d_k), h))


def _split_interleaved(X: np.ndarray, h: int) -> np.ndarray:
    B, T, width = X.shape
    return X.reshape(B, T, width // h, h).transpose(0, 3, 1, 2)


SPLIT = Check(
    name="split_heads",
    params=("X", "h"),
    kinds=("array", "int"),
    outputs=("heads",),
    reference=ref.split_heads,
    builders={
        "numbered": lambda rng: Case("numbered", (np.arange(24.0).reshape(1, 3, 8), 2)),
        "one_head": lambda rng: Case("one_head", (_r(rng, 2, 3, 4), 1)),
        "many": lambda rng: Case("many", (np.arange(48.0).reshape(2, 2, 12), 4)),
    },
    random=_split_random,
    mistakes=(
        Mistake(
            "reshape_only",
            variant=lambda X, h: X.reshape(X.shape[0], h, X.shape[1], X.shape[2] // h),
        ),
        Mistake("heads_interleaved", variant=_split_interleaved),
    ),
    default_random=3,
)


MERGE = Check(
    name="merge_heads",
    params=("Z",),
    kinds=("array",),
    outputs=("X",),
    reference=ref.merge_heads,
    builders={
        "numbered": lambda rng: Case("numbered", (np.arange(24.0).reshape(1, 2, 3, 4),)),
        "one_head": lambda rng: Case("one_head", (_r(rng, 2, 1, 3, 2),)),
        "many": lambda rng: Case("many", (np.arange(48.0).reshape(2, 4, 2, 3),)),
    },
    random=lambda rng: Case(
        "random", (_r(rng, _dims(rng, 1, 2), _dims(rng, 1, 3), _dims(rng, 1, 4), _dims(rng, 1, 3)),)
    ),
    mistakes=(
        Mistake(
            "merge_reshape_only",
            variant=lambda Z: Z.reshape(Z.shape[0], Z.shape[2], Z.shape[1] * Z.shape[3]),
        ),
    ),
    default_random=3,
)


def _layer(
    rng: np.random.Generator, B: int, T_q: int, T_k: int, d: int, h: int, cross: bool = True
) -> tuple:
    X_q = _r(rng, B, T_q, d)
    X_kv = _r(rng, B, T_k, d) if cross else X_q
    W = [np.round(rng.normal(0, 1 / math.sqrt(d), size=(d, d)), 2) for _ in range(4)]
    return (X_q, X_kv, *W, h)


def _mha_d(case: Case) -> dict[str, Any]:
    d, h = int(case.args[0].shape[-1]), int(case.args[6])
    return {
        "d_model": d,
        "sqrt_d_model": f"{math.sqrt(d):.4g}",
        "h": h,
        "d_k": d // h,
        "sqrt_d_k": f"{math.sqrt(d / h):.4g}",
    }


def _mha_variant(scale: str = "d_k", keys: str = "X_kv", out: bool = True, split=None):
    def variant(X_q, X_kv, W_Q, W_K, W_V, W_O, h):
        split_ = split or ref.split_heads
        src = X_q if keys == "X_q" else X_kv
        Q, K, V = split_(X_q @ W_Q, h), split_(src @ W_K, h), split_(src @ W_V, h)
        d = Q.shape[-1] * (h if scale == "d_model" else 1)
        S = Q @ K.swapaxes(-1, -2) / math.sqrt(d)
        Z = ref.merge_heads(ref.softmax(S, axis=-1) @ V)
        return Z @ W_O if out else Z

    return variant


MULTI_HEAD = Check(
    name="multi_head_attention",
    params=("X_q", "X_kv", "W_Q", "W_K", "W_V", "W_O", "h"),
    kinds=("array", "array", "array", "array", "array", "array", "int"),
    outputs=("O",),
    reference=ref.multi_head_attention,
    builders={
        "two_heads": lambda rng: Case("two_heads", _layer(rng, 1, 3, 3, 4, 2, cross=False)),
        "one_head": lambda rng: Case("one_head", _layer(rng, 2, 2, 2, 4, 1, cross=False)),
        "cross": lambda rng: Case("cross", _layer(rng, 2, 2, 5, 4, 2)),
        "four_heads": lambda rng: Case("four_heads", _layer(rng, 1, 3, 4, 8, 4)),
        "batch_one": lambda rng: Case("batch_one", _layer(rng, 1, 1, 3, 6, 3)),
    },
    random=lambda rng: Case(
        "random",
        _layer(
            rng, _dims(rng, 1, 2), _dims(rng, 1, 3), _dims(rng, 1, 4), 6, int(rng.choice([1, 2, 3]))
        ),
    ),
    mistakes=(
        Mistake("divided_by_sqrt_d_model", variant=_mha_variant(scale="d_model"), params=_mha_d),
        Mistake("forgot_w_o", variant=_mha_variant(out=False)),
        Mistake("keys_from_queries", variant=_mha_variant(keys="X_q")),
        Mistake(
            "reshape_only",
            variant=_mha_variant(
                split=lambda X, h: X.reshape(X.shape[0], h, X.shape[1], X.shape[2] // h)
            ),
        ),
    ),
    default_random=3,
)


# -- 12 sinusoidal positions -------------------------------------------------------------------


def _pe_variant(kind: str):
    def variant(T: int, d: int) -> np.ndarray:
        pos = np.arange(T, dtype=np.float64)[:, None] + (1.0 if kind == "from_one" else 0.0)
        if kind == "column_index":  # every column its own frequency, not one per sin/cos pair
            freq = 10000.0 ** (-np.arange(d) / d)
            pe = np.sin(pos * freq)
            pe[:, 1::2] = np.cos(pos * freq)[:, 1::2]
            return pe
        freq = 10000.0 ** (-np.arange(0, d, 2) / d)  # (⌈d/2⌉,)
        if kind == "halves":  # all the sines, then all the cosines
            return np.concatenate([np.sin(pos * freq), np.cos(pos * freq)], axis=1)[:, :d]
        first, second = (np.cos, np.sin) if kind == "swapped" else (np.sin, np.cos)
        pe = np.zeros((T, d))
        pe[:, 0::2] = first(pos * freq)
        pe[:, 1::2] = second(pos * freq[: d // 2])
        return pe

    return variant


POSITIONS = Check(
    name="positions",
    params=("T", "d_model"),
    kinds=("int", "int"),
    outputs=("P",),
    reference=ref.positions,
    builders={
        "small": lambda rng: Case("small", (4, 4)),
        "one_position": lambda rng: Case("one_position", (1, 6)),
        "wide": lambda rng: Case("wide", (5, 16)),
        "odd": lambda rng: Case("odd", (3, 5)),
    },
    random=lambda rng: Case("random", (_dims(rng, 2, 8), 2 * _dims(rng, 1, 6))),
    mistakes=(
        Mistake("pe_halves", variant=_pe_variant("halves")),
        Mistake("pe_swapped", variant=_pe_variant("swapped")),
        Mistake("pe_from_one", variant=_pe_variant("from_one")),
        Mistake("pe_column_index", variant=_pe_variant("column_index")),
    ),
    default_random=2,
)


# -- 13 the softmax's backward, 14 attention's backward ----------------------------------------


def _y(rng: np.random.Generator, *shape: int) -> np.ndarray:
    return ref.stable_softmax(_r(rng, *shape))


def _vjp_axis0(y: np.ndarray, dy: np.ndarray) -> np.ndarray:
    _needs(y.ndim > 1)
    return y * (dy - (y * dy).sum(axis=0, keepdims=True))


def _vjp_no_keepdims(y: np.ndarray, dy: np.ndarray) -> np.ndarray:
    _needs(y.ndim == 2 and y.shape[0] == y.shape[1])
    return y * (dy - (y * dy).sum(axis=-1))


SOFTMAX_BACKWARD = Check(
    name="softmax_backward",
    params=("y", "dy"),
    kinds=("array", "array"),
    outputs=("dx",),
    reference=ref.softmax_backward_fd,
    builders={
        "row": lambda rng: Case(
            "row", (ref.stable_softmax(np.array([1.0, 2.0, 3.0])), np.array([1.0, 0.0, 0.0]))
        ),
        "rows": lambda rng: Case("rows", (_y(rng, 3, 4), _r(rng, 3, 4))),
        "square": lambda rng: Case("square", (_y(rng, 3, 3), _r(rng, 3, 3))),
        "uniform_dy": lambda rng: Case("uniform_dy", (_y(rng, 2, 3), np.ones((2, 3)))),
        "batch": lambda rng: Case("batch", (_y(rng, 2, 2, 3), _r(rng, 2, 2, 3))),
    },
    random=lambda rng: Case(
        "random", (lambda s: (_y(rng, *s), _r(rng, *s)))((_dims(rng, 1, 3), _dims(rng, 2, 4)))
    ),
    mistakes=(
        Mistake("diagonal_only", variant=lambda y, dy: y * dy),
        Mistake("subtracted_sum_dy", variant=lambda y, dy: y * (dy - dy.sum(-1, keepdims=True))),
        Mistake("sum_wrong_axis", variant=_vjp_axis0),
        Mistake("no_keepdims", variant=_vjp_no_keepdims, error=_no_keepdims),
    ),
    rtol=1e-4,
    atol=1e-7,
    by_differences=True,
    default_random=3,
)


def _backward_variant(kind: str):
    def variant(Q, K, V, dO):
        c = 1.0 / math.sqrt(Q.shape[-1])
        A = ref.softmax(Q @ K.swapaxes(-1, -2) * c, axis=-1)
        dV = A.swapaxes(-1, -2) @ dO if kind != "dv_not_transposed" else A @ dO
        dA = dO @ V.swapaxes(-1, -2)
        if kind == "forgot_softmax_sum":
            dS = A * dA * c
        else:
            dS = ref.softmax_backward(A, dA) * (1.0 if kind == "forgot_scale" else c)
        dK = dS.swapaxes(-1, -2) @ Q if kind != "dk_not_transposed" else dS @ Q
        return dS @ K, dK, dV

    return variant


def _backward_random(rng: np.random.Generator) -> Case:
    B, T_q, T_k, d, d_v = _dims(rng, 1, 2), _dims(rng, 1, 3), _dims(rng, 1, 3), 2, _dims(rng, 1, 3)
    return Case("random", (*_batch(rng, B, T_q, T_k, d, d_v), _r(rng, B, T_q, d_v)))


ATTENTION_BACKWARD = Check(
    name="attention_backward",
    params=("Q", "K", "V", "dO"),
    kinds=("array", "array", "array", "array"),
    outputs=("dQ", "dK", "dV"),
    reference=ref.attention_backward_fd,
    builders={
        "small": lambda rng: Case("small", (*_batch(rng, 1, 2, 2, 2, 2), _r(rng, 1, 2, 2))),
        "square": lambda rng: Case("square", (*_batch(rng, 2, 3, 3, 2, 3), _r(rng, 2, 3, 3))),
        "cross": lambda rng: Case("cross", (*_batch(rng, 1, 2, 4, 3, 2), _r(rng, 1, 2, 2))),
        "batch_one": lambda rng: Case("batch_one", (*_batch(rng, 1, 1, 3, 2, 1), _r(rng, 1, 1, 1))),
    },
    random=_backward_random,
    mistakes=(
        Mistake("dv_not_transposed", variant=_backward_variant("dv_not_transposed")),
        Mistake("dk_not_transposed", variant=_backward_variant("dk_not_transposed")),
        Mistake("forgot_scale_backward", variant=_backward_variant("forgot_scale")),
        Mistake("diagonal_only", variant=_backward_variant("forgot_softmax_sum")),
        Mistake("t_on_3d", error=_t_on_3d),
    ),
    rtol=1e-4,
    atol=1e-7,
    by_differences=True,
    default_random=2,
)


# -- 15 the book's RNN: one attention step -----------------------------------------------------


def _states(rng: np.random.Generator, *shape: int) -> np.ndarray:
    return np.round(np.tanh(rng.normal(0, 1.0, size=shape)), 2)  # tanh states lie in (−1, 1)


def _book_states(rng: np.random.Generator) -> Case:
    """States of the book's own model (H = 16, L = 5), freshly initialised, on a real sequence:
    the encoder's h_1..h_5 and the decoder's first state s_1."""
    from attn_tui.core.models.rnn import ReversalRNN

    model = ReversalRNN(attention=True, dtype=np.float64)
    model.init(rng)
    x = rng.integers(0, 6, size=(2, 5))
    h = np.zeros((2, 16))
    H = np.empty((2, 5, 16))
    for t in range(5):
        h = np.tanh(model.Wxh[x[:, t]] + h @ model.Whh + model.bh)
        H[:, t] = h
    s = np.tanh(h @ model.Wss + model.bs)  # s_1: fed nothing (d_1 = 0), starting from h_L
    return Case("book", (s, H))


def _rnn_variant(kind: str):
    def variant(s, H):
        scale = 1.0 if kind == "not_scaled" else 1 / math.sqrt(s.shape[-1])
        scores = np.einsum("bh,blh->bl", s, H) * scale
        a = ref.softmax(scores, axis=0 if kind == "wrong_axis" else -1)
        return np.einsum("bl,blh->bh", a, H), a

    return variant


def _rnn_d(case: Case) -> dict[str, Any]:
    H = int(case.args[0].shape[-1])
    return {"d": H, "sqrt_d": f"{math.sqrt(H):.4g}"}


RNN_STEP = Check(
    name="rnn_attention",
    params=("s", "H"),
    kinds=("array", "array"),
    outputs=("context", "weights"),
    reference=ref.rnn_attention,
    builders={
        "book": _book_states,
        "small": lambda rng: Case("small", (_states(rng, 2, 4), _states(rng, 2, 3, 4))),
        "one_input": lambda rng: Case("one_input", (_states(rng, 2, 4), _states(rng, 2, 1, 4))),
        "batch_one": lambda rng: Case("batch_one", (_states(rng, 1, 16), _states(rng, 1, 10, 16))),
    },
    random=lambda rng: Case(
        "random",
        (lambda B, L: (_states(rng, B, 16), _states(rng, B, L, 16)))(
            _dims(rng, 1, 3), _dims(rng, 2, 6)
        ),
    ),
    mistakes=(
        Mistake("not_scaled", variant=_rnn_variant("not_scaled"), params=_rnn_d),
        Mistake("wrong_axis_batch", variant=_rnn_variant("wrong_axis")),
    ),
    default_random=3,
)


CHECKS: dict[str, Check] = {
    c.name: c
    for c in (
        SCORES,
        SCALED,
        SOFTMAX,
        WEIGHTED,
        ONE_QUERY,
        CAUSAL,
        PADDING,
        ATTENTION,
        SPLIT,
        MERGE,
        MULTI_HEAD,
        POSITIONS,
        SOFTMAX_BACKWARD,
        ATTENTION_BACKWARD,
        RNN_STEP,
    )
}

# Mistakes any check can name (the engine tests for them itself, before a check's own).
GENERIC_MISTAKES = (
    "not_written",
    "returned_none",
    "not_an_array",
    "transposed",
    "in_place",
    "wrong_count",
)


__all__ = ["CHECKS", "GENERIC_MISTAKES", "OVERFLOW", "Case", "Check", "Mistake", "NotApplicable"]
