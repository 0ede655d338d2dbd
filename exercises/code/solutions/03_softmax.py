import numpy as np


def softmax(x):
    # x (..., n) -> (..., n), each row along the last axis sums to 1
    shifted = x - x.max(axis=-1, keepdims=True)  # the largest becomes 0: exp cannot overflow
    e = np.exp(shifted)
    return e / e.sum(axis=-1, keepdims=True)
