import numpy as np


def attention_backward(Q, K, V, dO):
    # O = softmax(Q K^T / sqrt(d)) V; Q (B, T_q, d), K (B, T_k, d), V (B, T_k, d_v),
    # dO (B, T_q, d_v) -> (dQ, dK, dV) shaped like Q, K, V
    c = 1 / np.sqrt(Q.shape[-1])
    S = Q @ K.swapaxes(-1, -2) * c  # (B, T_q, T_k)
    e = np.exp(S - S.max(axis=-1, keepdims=True))
    A = e / e.sum(axis=-1, keepdims=True)
    dV = A.swapaxes(-1, -2) @ dO  # (B, T_k, d_v)
    dA = dO @ V.swapaxes(-1, -2)  # (B, T_q, T_k)
    dS = A * (dA - (A * dA).sum(axis=-1, keepdims=True)) * c  # softmax's backward, then 1/sqrt(d)
    dQ = dS @ K  # (B, T_q, d)
    dK = dS.swapaxes(-1, -2) @ Q  # (B, T_k, d)
    return dQ, dK, dV
