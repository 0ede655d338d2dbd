import numpy as np


def positions(T, d_model):
    # -> (T, d_model): P[p, 2i] = sin(p / 10000^(2i/d_model)), P[p, 2i+1] = cos(same)
    p = np.arange(T)[:, None]  # (T, 1), positions from 0
    freq = 10000.0 ** (-np.arange(0, d_model, 2) / d_model)  # one per sin/cos pair
    P = np.zeros((T, d_model))
    P[:, 0::2] = np.sin(p * freq)
    P[:, 1::2] = np.cos(p * freq[: d_model // 2])
    return P
