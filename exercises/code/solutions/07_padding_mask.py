import numpy as np


def padding_mask(lengths, T):
    # lengths (B,) -> (B, 1, T) bool: True at the real positions j < lengths[b]
    real = np.arange(T)[None, :] < np.asarray(lengths)[:, None]  # (B, T)
    return real[:, None, :]  # (B, 1, T): the same row for every query
