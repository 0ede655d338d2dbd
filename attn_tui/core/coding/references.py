"""The answers the learner's code is checked against: the core's own functions where it has
them, and, where it has none, short readable numpy tested equal to the core's layers.

Each takes the learner's arguments in the same order and returns what their function must.
Shapes use B batch, T_q / T_k queries / keys, d (= d_k) key width, d_v value width, h heads.
"""

from __future__ import annotations

import math

import numpy as np

from attn_tui.core.attention.lab import mask as lab_mask
from attn_tui.core.attention.steps import attend, softmax
from attn_tui.core.models.rnn import ReversalRNN
from attn_tui.core.models.transformer import sinusoidal

# -- one query, then a batch of queries --------------------------------------------------------


def scores(Q: np.ndarray, K: np.ndarray) -> np.ndarray:
    """(n_q, d), (n_k, d) → (n_q, n_k): every query's dot product with every key."""
    return Q @ K.T


def scaled_scores(Q: np.ndarray, K: np.ndarray) -> np.ndarray:
    """The same, divided by √d (d = the width of a query and a key)."""
    return Q @ K.T / math.sqrt(Q.shape[-1])


def stable_softmax(x: np.ndarray) -> np.ndarray:
    """Along the last axis, max-shifted: the calculator's own softmax."""
    return softmax(np.asarray(x, dtype=np.float64), axis=-1)


def weighted_sum(A: np.ndarray, V: np.ndarray) -> np.ndarray:
    """(n_q, n_k) weights, (n_k, d_v) values → (n_q, d_v): each row a convex combination."""
    return A @ V


def attention_one(q: np.ndarray, K: np.ndarray, V: np.ndarray) -> np.ndarray:
    """One query, end to end: the calculator's four steps (steps.attend)."""
    return attend(q, K, V).output


# -- masks and the batched layer ---------------------------------------------------------------


def causal_mask(T: int) -> np.ndarray:
    """(T, T) bool: query i may see key j when j ≤ i (the lab's causal mask)."""
    return lab_mask(int(T), int(T), causal=True)


def padding_mask(lengths: np.ndarray, T: int) -> np.ndarray:
    """(B,) real lengths → (B, 1, T) bool: key j is real when j < length; the middle axis
    lets one row of the mask serve every query."""
    return (np.arange(int(T))[None, :] < np.asarray(lengths)[:, None])[:, None, :]


def attention(
    Q: np.ndarray, K: np.ndarray, V: np.ndarray, mask: np.ndarray | None = None
) -> np.ndarray:
    """(B, T_q, d), (B, T_k, d), (B, T_k, d_v), mask broadcastable to (B, T_q, T_k) with True
    where the query may see the key → (B, T_q, d_v)."""
    S = Q @ K.swapaxes(-1, -2) / math.sqrt(Q.shape[-1])  # (B, T_q, T_k)
    if mask is not None:
        S = np.where(mask, S, -np.inf)  # exp(−∞) = 0: a masked key gets no weight
    return softmax(S, axis=-1) @ V  # (B, T_q, d_v)


def split_heads(X: np.ndarray, h: int) -> np.ndarray:
    """(B, T, h·d_k) → (B, h, T, d_k): head i takes the i-th block of d_k columns."""
    B, T, width = X.shape
    return X.reshape(B, T, int(h), width // int(h)).transpose(0, 2, 1, 3)


def merge_heads(Z: np.ndarray) -> np.ndarray:
    """(B, h, T, d_k) → (B, T, h·d_k): the heads' outputs side by side (split's inverse)."""
    B, h, T, d_k = Z.shape
    return Z.transpose(0, 2, 1, 3).reshape(B, T, h * d_k)


def multi_head_attention(
    X_q: np.ndarray,
    X_kv: np.ndarray,
    W_Q: np.ndarray,
    W_K: np.ndarray,
    W_V: np.ndarray,
    W_O: np.ndarray,
    h: int,
) -> np.ndarray:
    """(B, T_q, d_model) queries' tokens, (B, T_k, d_model) keys' tokens → (B, T_q, d_model).
    Tested equal to the lab's layer (``lab.compute``), batch element by batch element."""
    Q = split_heads(X_q @ W_Q, h)  # (B, h, T_q, d_k)
    K = split_heads(X_kv @ W_K, h)  # (B, h, T_k, d_k)
    V = split_heads(X_kv @ W_V, h)  # (B, h, T_k, d_v)
    return merge_heads(attention(Q, K, V)) @ W_O  # (B, T_q, d_model)


def positions(T: int, d_model: int) -> np.ndarray:
    """Sinusoidal positions (T, d_model): the tiny Transformer's own."""
    return sinusoidal(int(T), int(d_model))


# -- backward passes ---------------------------------------------------------------------------


def softmax_backward(y: np.ndarray, dy: np.ndarray) -> np.ndarray:
    """dL/dx from y = softmax(x) and dL/dy: dx = y ⊙ (dy − Σ_j y_j dy_j), per row."""
    return y * (dy - np.sum(y * dy, axis=-1, keepdims=True))


def attention_backward(
    Q: np.ndarray, K: np.ndarray, V: np.ndarray, dO: np.ndarray
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Gradients of O = softmax(Q Kᵀ/√d) V: (dQ, dK, dV), shaped like Q, K, V."""
    c = 1.0 / math.sqrt(Q.shape[-1])
    A = softmax(Q @ K.swapaxes(-1, -2) * c, axis=-1)  # (B, T_q, T_k)
    dV = A.swapaxes(-1, -2) @ dO  # (B, T_k, d_v): each value is read by every query
    dA = dO @ V.swapaxes(-1, -2)  # (B, T_q, T_k)
    dS = softmax_backward(A, dA) * c  # through the softmax, then the 1/√d
    return dS @ K, dS.swapaxes(-1, -2) @ Q, dV


def numerical_gradients(
    forward, args: tuple[np.ndarray, ...], upstream: np.ndarray, eps: float = 1e-6
) -> tuple[np.ndarray, ...]:
    """Central differences of ⟨forward(*args), upstream⟩ with respect to each argument."""
    grads = []
    for k, a in enumerate(args):
        g = np.zeros_like(a, dtype=np.float64)
        for idx in np.ndindex(a.shape):
            plus = [x.copy() for x in args]
            minus = [x.copy() for x in args]
            plus[k][idx] += eps
            minus[k][idx] -= eps
            g[idx] = (np.sum(forward(*plus) * upstream) - np.sum(forward(*minus) * upstream)) / (
                2 * eps
            )
        grads.append(g)
    return tuple(grads)


def softmax_backward_fd(y: np.ndarray, dy: np.ndarray) -> np.ndarray:
    """The softmax's backward by finite differences at x = log y (softmax(log y) = y)."""
    return numerical_gradients(stable_softmax, (np.log(y),), dy)[0]


def attention_backward_fd(
    Q: np.ndarray, K: np.ndarray, V: np.ndarray, dO: np.ndarray
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    return numerical_gradients(attention, (Q, K, V), dO)  # type: ignore[return-value]


# -- the book's RNN ----------------------------------------------------------------------------


def rnn_attention(s: np.ndarray, H: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The attention step of the 934-parameter reversal RNN: decoder states s (B, Hd) against
    encoder states H (B, L, Hd) → (context (B, Hd), weights (B, L)), scores s·h_j/√Hd.
    The scores are the model's own (``ReversalRNN.scores``)."""
    model = ReversalRNN(attention=True, hidden=int(s.shape[-1]), dtype=np.float64)
    a = softmax(model.scores(s, H), axis=-1)  # (B, L)
    return np.einsum("bl,blh->bh", a, H), a
