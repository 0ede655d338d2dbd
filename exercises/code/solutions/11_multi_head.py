import numpy as np


def softmax(x):
    e = np.exp(x - x.max(axis=-1, keepdims=True))
    return e / e.sum(axis=-1, keepdims=True)


def multi_head_attention(X_q, X_kv, W_Q, W_K, W_V, W_O, h):
    # X_q (B, T_q, d_model), X_kv (B, T_k, d_model), W_* (d_model, d_model), h heads
    B, T_q, d_model = X_q.shape
    T_k = X_kv.shape[1]
    d_k = d_model // h

    def split(X, T):  # (B, T, d_model) -> (B, h, T, d_k)
        return X.reshape(B, T, h, d_k).transpose(0, 2, 1, 3)

    Q = split(X_q @ W_Q, T_q)  # (B, h, T_q, d_k)
    K = split(X_kv @ W_K, T_k)  # (B, h, T_k, d_k)
    V = split(X_kv @ W_V, T_k)  # (B, h, T_k, d_k)
    A = softmax(Q @ K.swapaxes(-1, -2) / np.sqrt(d_k))  # (B, h, T_q, T_k)
    Z = (A @ V).transpose(0, 2, 1, 3).reshape(B, T_q, d_model)  # heads side by side
    return Z @ W_O  # (B, T_q, d_model)
