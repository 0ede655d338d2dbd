import numpy as np


def softmax_backward(y, dy):
    # y = softmax(x) (..., n), dy = dL/dy (..., n) -> dL/dx (..., n)
    return y * (dy - (y * dy).sum(axis=-1, keepdims=True))
