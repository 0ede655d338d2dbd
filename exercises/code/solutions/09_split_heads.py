import numpy as np


def split_heads(X, h):
    # X (B, T, d_model) -> (B, h, T, d_k), d_k = d_model // h
    B, T, d_model = X.shape
    d_k = d_model // h
    return X.reshape(B, T, h, d_k).transpose(0, 2, 1, 3)
