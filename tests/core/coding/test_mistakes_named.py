"""Each code exercise: its solution passes, and the typical wrong ones are each caught — with
the mistake named where the check claims one, and with nothing named where none fits.

These run the learner's function in this process (``run_here``: trusted code only) so that
the diagnoses are tested quickly; the real child process is tested in
``test_sandbox_limits.py``, where every shipped solution also passes through it."""

from __future__ import annotations

import pytest

from attn_tui.core.coding.engine import check_file

from .conftest import run_here

IMPORT = "import numpy as np\n"

# (exercise id, label, the function's source, the mistake it must be named as — or None:
# caught, with no mistake named)
WRONG = [
    # scores
    (
        "scores",
        "transposed",
        """
def scores(Q, K):
    return K @ Q.T
""",
        "transposed",
    ),
    (
        "scores",
        "scaled",
        """
def scores(Q, K):
    return Q @ K.T / np.sqrt(Q.shape[1])
""",
        "scaled_too_soon",
    ),
    (
        "scores",
        "softmaxed",
        """
def scores(Q, K):
    s = Q @ K.T
    e = np.exp(s - s.max(1, keepdims=True))
    return e / e.sum(1, keepdims=True)
""",
        "softmaxed_too_soon",
    ),
    (
        "scores",
        "no return",
        """
def scores(Q, K):
    Q @ K.T
""",
        "returned_none",
    ),
    (
        "scores",
        "a list",
        """
def scores(Q, K):
    return "scores"
""",
        "not_an_array",
    ),
    (
        "scores",
        "sum of all",
        """
def scores(Q, K):
    return np.full((Q.shape[0], K.shape[0]), (Q @ K.T).sum())
""",
        None,
    ),
    # scaled-scores
    (
        "scaled-scores",
        "not scaled",
        """
def scaled_scores(Q, K):
    return Q @ K.T
""",
        "not_scaled",
    ),
    (
        "scaled-scores",
        "by d",
        """
def scaled_scores(Q, K):
    return Q @ K.T / Q.shape[1]
""",
        "divided_by_d",
    ),
    (
        "scaled-scores",
        "by sqrt n",
        """
def scaled_scores(Q, K):
    return Q @ K.T / np.sqrt(len(K))
""",
        "divided_by_sqrt_n",
    ),
    (
        "scaled-scores",
        "times sqrt d",
        """
def scaled_scores(Q, K):
    return Q @ K.T * np.sqrt(Q.shape[1])
""",
        "multiplied_by_sqrt_d",
    ),
    (
        "scaled-scores",
        "by 2",
        """
def scaled_scores(Q, K):
    return Q @ K.T / 2
""",
        None,
    ),
    # softmax
    (
        "softmax",
        "unstable",
        """
def softmax(x):
    e = np.exp(x)
    return e / e.sum(axis=-1, keepdims=True)
""",
        "overflow",
    ),
    (
        "softmax",
        "min shift",
        """
def softmax(x):
    e = np.exp(x - x.min(axis=-1, keepdims=True))
    return e / e.sum(axis=-1, keepdims=True)
""",
        "overflow",
    ),
    (
        "softmax",
        "no keepdims",
        """
def softmax(x):
    e = np.exp(x - x.max(axis=-1))
    return e / e.sum(axis=-1)
""",
        "no_keepdims",
    ),
    (
        "softmax",
        "not normalised",
        """
def softmax(x):
    return np.exp(x - x.max(axis=-1, keepdims=True))
""",
        "not_normalised",
    ),
    (
        "softmax",
        "whole array",
        """
def softmax(x):
    e = np.exp(x - x.max())
    return e / e.sum()
""",
        "whole_array",
    ),
    (
        "softmax",
        "axis 0",
        """
def softmax(x):
    e = np.exp(x - x.max(axis=0, keepdims=True))
    return e / e.sum(axis=0, keepdims=True)
""",
        "wrong_axis",
    ),
    (
        "softmax",
        "in place",
        """
def softmax(x):
    x -= x.max(axis=-1, keepdims=True)
    np.exp(x, out=x)
    x /= x.sum(axis=-1, keepdims=True)
    return x
""",
        "in_place",
    ),
    (
        "softmax",
        "starter",
        """
def softmax(x):
    raise NotImplementedError("write me")
""",
        "not_written",
    ),
    (
        "softmax",
        "square of the weights",
        """
def softmax(x):
    e = np.exp(x - x.max(axis=-1, keepdims=True))
    y = e / e.sum(axis=-1, keepdims=True)
    return y * y
""",
        None,
    ),
    (
        "softmax",
        "shifts only positive rows",
        """
def softmax(x):
    m = x.max(axis=-1, keepdims=True)
    e = np.exp(x - np.maximum(m, 0))
    return e / e.sum(axis=-1, keepdims=True)
""",
        "underflow",
    ),
    # weighted-sum
    (
        "weighted-sum",
        "average",
        """
def weighted_sum(A, V):
    return np.tile(V.mean(axis=0), (A.shape[0], 1))
""",
        "plain_average",
    ),
    (
        "weighted-sum",
        "A transposed",
        """
def weighted_sum(A, V):
    return A.T @ V
""",
        "weights_transposed",
    ),
    (
        "weighted-sum",
        "transposed result",
        """
def weighted_sum(A, V):
    return (A @ V).T
""",
        "transposed",
    ),
    # attention-one
    (
        "attention-one",
        "not scaled",
        """
def attention_one(q, K, V):
    s = K @ q
    e = np.exp(s - s.max())
    return (e / e.sum()) @ V
""",
        "not_scaled",
    ),
    (
        "attention-one",
        "by d",
        """
def attention_one(q, K, V):
    s = K @ q / len(q)
    e = np.exp(s - s.max())
    return (e / e.sum()) @ V
""",
        "divided_by_d",
    ),
    (
        "attention-one",
        "keys summed",
        """
def attention_one(q, K, V):
    s = K @ q / np.sqrt(len(q))
    e = np.exp(s - s.max())
    return (e / e.sum()) @ K
""",
        "summed_keys",
    ),
    (
        "attention-one",
        "unstable",
        """
def attention_one(q, K, V):
    e = np.exp(K @ q / np.sqrt(len(q)))
    return (e / e.sum()) @ V
""",
        "overflow",
    ),
    (
        "attention-one",
        "average",
        """
def attention_one(q, K, V):
    return V.mean(axis=0)
""",
        "plain_average",
    ),
    (
        "attention-one",
        "hard max",
        """
def attention_one(q, K, V):
    return V[np.argmax(K @ q)]
""",
        "hard_max",
    ),
    (
        "attention-one",
        "weights",
        """
def attention_one(q, K, V):
    s = K @ q / np.sqrt(len(q))
    e = np.exp(s - s.max())
    return e / e.sum()
""",
        "returned_weights",
    ),
    # causal-mask
    (
        "causal-mask",
        "inverted",
        """
def causal_mask(T):
    return ~np.tril(np.ones((T, T), bool))
""",
        "mask_inverted",
    ),
    (
        "causal-mask",
        "future",
        """
def causal_mask(T):
    return np.triu(np.ones((T, T), bool))
""",
        "mask_future",
    ),
    (
        "causal-mask",
        "strict",
        """
def causal_mask(T):
    return np.tril(np.ones((T, T), bool), k=-1)
""",
        "mask_strict",
    ),
    (
        "causal-mask",
        "all true",
        """
def causal_mask(T):
    return np.ones((T, T), bool)
""",
        None,
    ),
    # padding-mask
    (
        "padding-mask",
        "off by one",
        """
def padding_mask(lengths, T):
    return (np.arange(T)[None, :] <= np.asarray(lengths)[:, None])[:, None, :]
""",
        "padding_off_by_one",
    ),
    (
        "padding-mask",
        "inverted",
        """
def padding_mask(lengths, T):
    return (np.arange(T)[None, :] >= np.asarray(lengths)[:, None])[:, None, :]
""",
        "padding_inverted",
    ),
    (
        "padding-mask",
        "no query axis",
        """
def padding_mask(lengths, T):
    return np.arange(T)[None, :] < np.asarray(lengths)[:, None]
""",
        "padding_no_query_axis",
    ),
    # attention
    (
        "attention",
        "mask after softmax",
        """
def attention(Q, K, V, mask=None):
    S = Q @ K.swapaxes(-1, -2) / np.sqrt(Q.shape[-1])
    e = np.exp(S - S.max(-1, keepdims=True))
    A = e / e.sum(-1, keepdims=True)
    if mask is not None:
        A = np.where(mask, A, 0.0)
    return A @ V
""",
        "mask_after_softmax",
    ),
    (
        "attention",
        "mask with zero",
        """
def attention(Q, K, V, mask=None):
    S = Q @ K.swapaxes(-1, -2) / np.sqrt(Q.shape[-1])
    if mask is not None:
        S = np.where(mask, S, 0.0)
    e = np.exp(S - S.max(-1, keepdims=True))
    return (e / e.sum(-1, keepdims=True)) @ V
""",
        "mask_zero",
    ),
    (
        "attention",
        "K.T on 3-D",
        """
def attention(Q, K, V, mask=None):
    S = Q @ K.T / np.sqrt(Q.shape[-1])
    e = np.exp(S - S.max(-1, keepdims=True))
    return (e / e.sum(-1, keepdims=True)) @ V
""",
        "t_on_3d",
    ),
    (
        "attention",
        "by sqrt d_v",
        """
def attention(Q, K, V, mask=None):
    S = Q @ K.swapaxes(-1, -2) / np.sqrt(V.shape[-1])
    if mask is not None:
        S = np.where(mask, S, -np.inf)
    e = np.exp(S - S.max(-1, keepdims=True))
    return (e / e.sum(-1, keepdims=True)) @ V
""",
        "divided_by_sqrt_d_v",
    ),
    (
        "attention",
        "unstable",
        """
def attention(Q, K, V, mask=None):
    S = Q @ K.swapaxes(-1, -2) / np.sqrt(Q.shape[-1])
    if mask is not None:
        S = np.where(mask, S, -np.inf)
    e = np.exp(S)
    return (e / e.sum(-1, keepdims=True)) @ V
""",
        "overflow",
    ),
    (
        "attention",
        "mask ignored",
        """
def attention(Q, K, V, mask=None):
    S = Q @ K.swapaxes(-1, -2) / np.sqrt(Q.shape[-1])
    e = np.exp(S - S.max(-1, keepdims=True))
    return (e / e.sum(-1, keepdims=True)) @ V
""",
        None,
    ),
    (
        "attention",
        "mask used the wrong way round",
        """
def attention(Q, K, V, mask=None):
    S = Q @ K.swapaxes(-1, -2) / np.sqrt(Q.shape[-1])
    if mask is not None:
        S = np.where(mask, -np.inf, S)
    e = np.exp(S - S.max(-1, keepdims=True))
    return (e / e.sum(-1, keepdims=True)) @ V
""",
        "mask_inverted_use",
    ),
    (
        "attention",
        "not scaled",
        """
def attention(Q, K, V, mask=None):
    S = Q @ K.swapaxes(-1, -2)
    if mask is not None:
        S = np.where(mask, S, -np.inf)
    e = np.exp(S - S.max(-1, keepdims=True))
    return (e / e.sum(-1, keepdims=True)) @ V
""",
        "not_scaled",
    ),
    (
        "attention",
        "by d",
        """
def attention(Q, K, V, mask=None):
    S = Q @ K.swapaxes(-1, -2) / Q.shape[-1]
    if mask is not None:
        S = np.where(mask, S, -np.inf)
    e = np.exp(S - S.max(-1, keepdims=True))
    return (e / e.sum(-1, keepdims=True)) @ V
""",
        "divided_by_d",
    ),
    # split-heads
    (
        "split-heads",
        "reshape only",
        """
def split_heads(X, h):
    B, T, d = X.shape
    return X.reshape(B, h, T, d // h)
""",
        "reshape_only",
    ),
    (
        "split-heads",
        "interleaved",
        """
def split_heads(X, h):
    B, T, d = X.shape
    return X.reshape(B, T, d // h, h).transpose(0, 3, 1, 2)
""",
        "heads_interleaved",
    ),
    # merge-heads
    (
        "merge-heads",
        "reshape only",
        """
def merge_heads(Z):
    B, h, T, d = Z.shape
    return Z.reshape(B, T, h * d)
""",
        "merge_reshape_only",
    ),
    # multi-head
    (
        "multi-head",
        "sqrt d_model",
        """
def multi_head_attention(X_q, X_kv, W_Q, W_K, W_V, W_O, h):
    B, Tq, d = X_q.shape
    Tk = X_kv.shape[1]
    sp = lambda X, T: X.reshape(B, T, h, d // h).transpose(0, 2, 1, 3)
    Q, K, V = sp(X_q @ W_Q, Tq), sp(X_kv @ W_K, Tk), sp(X_kv @ W_V, Tk)
    S = Q @ K.swapaxes(-1, -2) / np.sqrt(d)
    e = np.exp(S - S.max(-1, keepdims=True))
    Z = (e / e.sum(-1, keepdims=True)) @ V
    return Z.transpose(0, 2, 1, 3).reshape(B, Tq, d) @ W_O
""",
        "divided_by_sqrt_d_model",
    ),
    (
        "multi-head",
        "no W_O",
        """
def multi_head_attention(X_q, X_kv, W_Q, W_K, W_V, W_O, h):
    B, Tq, d = X_q.shape
    Tk = X_kv.shape[1]
    sp = lambda X, T: X.reshape(B, T, h, d // h).transpose(0, 2, 1, 3)
    Q, K, V = sp(X_q @ W_Q, Tq), sp(X_kv @ W_K, Tk), sp(X_kv @ W_V, Tk)
    S = Q @ K.swapaxes(-1, -2) / np.sqrt(d // h)
    e = np.exp(S - S.max(-1, keepdims=True))
    Z = (e / e.sum(-1, keepdims=True)) @ V
    return Z.transpose(0, 2, 1, 3).reshape(B, Tq, d)
""",
        "forgot_w_o",
    ),
    (
        "multi-head",
        "keys from the queries",
        """
def multi_head_attention(X_q, X_kv, W_Q, W_K, W_V, W_O, h):
    B, Tq, d = X_q.shape
    sp = lambda X, T: X.reshape(B, T, h, d // h).transpose(0, 2, 1, 3)
    Q, K, V = sp(X_q @ W_Q, Tq), sp(X_q @ W_K, Tq), sp(X_q @ W_V, Tq)
    S = Q @ K.swapaxes(-1, -2) / np.sqrt(d // h)
    e = np.exp(S - S.max(-1, keepdims=True))
    Z = (e / e.sum(-1, keepdims=True)) @ V
    return Z.transpose(0, 2, 1, 3).reshape(B, Tq, d) @ W_O
""",
        "keys_from_queries",
    ),
    (
        "multi-head",
        "reshape straight to heads",
        """
def multi_head_attention(X_q, X_kv, W_Q, W_K, W_V, W_O, h):
    B, Tq, d = X_q.shape
    Tk = X_kv.shape[1]
    sp = lambda X, T: X.reshape(B, h, T, d // h)
    Q, K, V = sp(X_q @ W_Q, Tq), sp(X_kv @ W_K, Tk), sp(X_kv @ W_V, Tk)
    S = Q @ K.swapaxes(-1, -2) / np.sqrt(d // h)
    e = np.exp(S - S.max(-1, keepdims=True))
    Z = (e / e.sum(-1, keepdims=True)) @ V
    return Z.transpose(0, 2, 1, 3).reshape(B, Tq, d) @ W_O
""",
        "reshape_only",
    ),
    # positions
    (
        "positions",
        "halves",
        """
def positions(T, d_model):
    p = np.arange(T)[:, None]
    f = 10000.0 ** (-np.arange(0, d_model, 2) / d_model)
    return np.concatenate([np.sin(p * f), np.cos(p * f)], axis=1)[:, :d_model]
""",
        "pe_halves",
    ),
    (
        "positions",
        "swapped",
        """
def positions(T, d_model):
    p = np.arange(T)[:, None]
    f = 10000.0 ** (-np.arange(0, d_model, 2) / d_model)
    P = np.zeros((T, d_model))
    P[:, 0::2] = np.cos(p * f)
    P[:, 1::2] = np.sin(p * f[: d_model // 2])
    return P
""",
        "pe_swapped",
    ),
    (
        "positions",
        "from one",
        """
def positions(T, d_model):
    p = np.arange(1, T + 1)[:, None]
    f = 10000.0 ** (-np.arange(0, d_model, 2) / d_model)
    P = np.zeros((T, d_model))
    P[:, 0::2] = np.sin(p * f)
    P[:, 1::2] = np.cos(p * f[: d_model // 2])
    return P
""",
        "pe_from_one",
    ),
    (
        "positions",
        "column index",
        """
def positions(T, d_model):
    p = np.arange(T)[:, None]
    f = 10000.0 ** (-np.arange(d_model) / d_model)
    P = np.sin(p * f)
    P[:, 1::2] = np.cos(p * f)[:, 1::2]
    return P
""",
        "pe_column_index",
    ),
    # softmax-backward
    (
        "softmax-backward",
        "diagonal only",
        """
def softmax_backward(y, dy):
    return y * dy
""",
        "diagonal_only",
    ),
    (
        "softmax-backward",
        "sum of dy",
        """
def softmax_backward(y, dy):
    return y * (dy - dy.sum(-1, keepdims=True))
""",
        "subtracted_sum_dy",
    ),
    (
        "softmax-backward",
        "axis 0",
        """
def softmax_backward(y, dy):
    return y * (dy - (y * dy).sum(0, keepdims=True))
""",
        "sum_wrong_axis",
    ),
    (
        "softmax-backward",
        "no keepdims",
        """
def softmax_backward(y, dy):
    return y * (dy - (y * dy).sum(-1))
""",
        "no_keepdims",
    ),
    # attention-backward
    (
        "attention-backward",
        "dV not transposed",
        """
def attention_backward(Q, K, V, dO):
    c = 1 / np.sqrt(Q.shape[-1])
    S = Q @ K.swapaxes(-1, -2) * c
    e = np.exp(S - S.max(-1, keepdims=True))
    A = e / e.sum(-1, keepdims=True)
    dA = dO @ V.swapaxes(-1, -2)
    dS = A * (dA - (A * dA).sum(-1, keepdims=True)) * c
    return dS @ K, dS.swapaxes(-1, -2) @ Q, A @ dO
""",
        "dv_not_transposed",
    ),
    (
        "attention-backward",
        "no 1/sqrt(d)",
        """
def attention_backward(Q, K, V, dO):
    c = 1 / np.sqrt(Q.shape[-1])
    S = Q @ K.swapaxes(-1, -2) * c
    e = np.exp(S - S.max(-1, keepdims=True))
    A = e / e.sum(-1, keepdims=True)
    dA = dO @ V.swapaxes(-1, -2)
    dS = A * (dA - (A * dA).sum(-1, keepdims=True))
    return dS @ K, dS.swapaxes(-1, -2) @ Q, A.swapaxes(-1, -2) @ dO
""",
        "forgot_scale_backward",
    ),
    (
        "attention-backward",
        "dK not transposed",
        """
def attention_backward(Q, K, V, dO):
    c = 1 / np.sqrt(Q.shape[-1])
    S = Q @ K.swapaxes(-1, -2) * c
    e = np.exp(S - S.max(-1, keepdims=True))
    A = e / e.sum(-1, keepdims=True)
    dA = dO @ V.swapaxes(-1, -2)
    dS = A * (dA - (A * dA).sum(-1, keepdims=True)) * c
    return dS @ K, dS @ Q, A.swapaxes(-1, -2) @ dO
""",
        "dk_not_transposed",
    ),
    (
        "attention-backward",
        "two gradients",
        """
def attention_backward(Q, K, V, dO):
    return np.zeros_like(Q), np.zeros_like(K)
""",
        "wrong_count",
    ),
    (
        "attention-backward",
        "softmax's backward without its sum",
        """
def attention_backward(Q, K, V, dO):
    c = 1 / np.sqrt(Q.shape[-1])
    S = Q @ K.swapaxes(-1, -2) * c
    e = np.exp(S - S.max(-1, keepdims=True))
    A = e / e.sum(-1, keepdims=True)
    dA = dO @ V.swapaxes(-1, -2)
    dS = A * dA * c
    return dS @ K, dS.swapaxes(-1, -2) @ Q, A.swapaxes(-1, -2) @ dO
""",
        "diagonal_only",
    ),
    (
        "attention-backward",
        "A.T on 3-D",
        """
def attention_backward(Q, K, V, dO):
    c = 1 / np.sqrt(Q.shape[-1])
    S = Q @ K.swapaxes(-1, -2) * c
    e = np.exp(S - S.max(-1, keepdims=True))
    A = e / e.sum(-1, keepdims=True)
    dV = A.T @ dO
    dA = dO @ V.swapaxes(-1, -2)
    dS = A * (dA - (A * dA).sum(-1, keepdims=True)) * c
    return dS @ K, dS.swapaxes(-1, -2) @ Q, dV
""",
        "t_on_3d",
    ),
    # rnn-attention
    (
        "rnn-attention",
        "not scaled",
        """
def rnn_attention(s, H):
    sc = np.einsum("bh,blh->bl", s, H)
    e = np.exp(sc - sc.max(-1, keepdims=True))
    a = e / e.sum(-1, keepdims=True)
    return np.einsum("bl,blh->bh", a, H), a
""",
        "not_scaled",
    ),
    (
        "rnn-attention",
        "softmax over the batch",
        """
def rnn_attention(s, H):
    sc = np.einsum("bh,blh->bl", s, H) / np.sqrt(s.shape[-1])
    e = np.exp(sc - sc.max(0, keepdims=True))
    a = e / e.sum(0, keepdims=True)
    return np.einsum("bl,blh->bh", a, H), a
""",
        "wrong_axis_batch",
    ),
]


def test_every_mistake_a_check_can_name_is_caught_by_a_wrong_solution_here(library):
    from attn_tui.core.coding.checks import CHECKS

    covered = {(library.get(e).check, m) for e, _, _, m in WRONG if m}
    claimed = {(c.name, m.code) for c in CHECKS.values() for m in c.mistakes}
    assert claimed - covered == set()


def test_every_shipped_exercise_has_wrong_solutions_here(library):
    assert {e.id for e in library.exercises} <= {w[0] for w in WRONG} | {"positions"}
    assert len(library.exercises) == 15


@pytest.mark.parametrize(
    "exercise_id",
    [
        *(
            "scores scaled-scores softmax weighted-sum attention-one causal-mask padding-mask"
            " attention split-heads merge-heads multi-head positions softmax-backward"
            " attention-backward rnn-attention"
        ).split()
    ],
)
def test_the_solution_passes_and_the_starter_does_not(library, exercise_id):
    ex = library.get(exercise_id)
    passed = check_file(ex, ex.solution, runner=run_here)
    assert passed.passed, passed.failure
    assert passed.ran == passed.total >= 5
    started = check_file(ex, ex.starter, runner=run_here)
    assert not started.passed
    assert [d.code for d in started.diagnoses] == ["not_written"]


@pytest.mark.parametrize(
    ("exercise_id", "label", "source", "mistake"), WRONG, ids=[f"{w[0]}:{w[1]}" for w in WRONG]
)
def test_a_wrong_solution_is_caught_and_named_only_where_it_fits(
    library, learner_file, exercise_id, label, source, mistake
):
    ex = library.get(exercise_id)
    report = check_file(ex, learner_file(IMPORT + source), runner=run_here)
    assert not report.passed
    named = [d.code for d in report.diagnoses]
    if mistake is None:
        assert named == [], f"{label}: named {named} though no known mistake fits"
    else:
        assert mistake in named, f"{label}: expected {mistake}, named {named}"
        assert len(named) <= 2, named  # one mistake, perhaps with the shape fact beside it


def test_the_first_failure_shows_inputs_expected_received_and_marks_the_differences(
    library, learner_file
):
    import numpy as np

    ex = library.get("softmax")
    source = IMPORT + "def softmax(x):\n    e = np.exp(x)\n    return e / e.sum(-1, keepdims=1)\n"
    report = check_file(ex, learner_file(source), runner=run_here)
    f = report.failure
    assert f.case.name == "large" and f.reason == "values"
    assert [name for name, _ in f.inputs] == ["x"]
    assert f.expected.shape == f.received.shape == f.differ.shape == (2, 3)
    # exactly the entries that overflowed to nan are marked
    assert f.differ.tolist() == np.isnan(f.received).tolist()
    assert report.ran == f.index  # the cases before it passed


def test_the_hand_example_comes_out_of_the_one_query_solution(library):
    import numpy as np

    from attn_tui.core.coding.checks import CHECKS

    case = CHECKS["attention_one"].cases(0)[0]
    assert case.name == "hand"
    out = CHECKS["attention_one"].expected(case)
    assert np.allclose(out, [0.8707, 0.3595, 0.4102], atol=5e-5)
