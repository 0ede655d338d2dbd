import numpy as np


def attention(Q, K, V, mask=None):
    # Q (B, T_q, d), K (B, T_k, d), V (B, T_k, d_v), mask -> (B, T_q, T_k) -> (B, T_q, d_v)
    d = Q.shape[-1]
    S = Q @ K.swapaxes(-1, -2) / np.sqrt(d)  # (B, T_q, T_k)
    if mask is not None:
        S = np.where(mask, S, -np.inf)  # before the softmax: masked keys get weight 0
    S = S - S.max(axis=-1, keepdims=True)
    e = np.exp(S)
    A = e / e.sum(axis=-1, keepdims=True)  # (B, T_q, T_k)
    return A @ V  # (B, T_q, d_v)
