import numpy as np


def rnn_attention(s, H):
    # s (B, Hd) decoder states, H (B, L, Hd) encoder states -> context (B, Hd), weights (B, L)
    scores = np.einsum("bh,blh->bl", s, H) / np.sqrt(s.shape[-1])  # (B, L)
    e = np.exp(scores - scores.max(axis=-1, keepdims=True))
    a = e / e.sum(axis=-1, keepdims=True)  # (B, L)
    context = np.einsum("bl,blh->bh", a, H)  # (B, Hd)
    return context, a
