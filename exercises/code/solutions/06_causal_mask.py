import numpy as np


def causal_mask(T):
    # -> (T, T) bool: row i is True for keys j <= i
    return np.tril(np.ones((T, T), dtype=bool))
