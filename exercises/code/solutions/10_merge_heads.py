import numpy as np


def merge_heads(Z):
    # Z (B, h, T, d_k) -> (B, T, h * d_k)
    B, h, T, d_k = Z.shape
    return Z.transpose(0, 2, 1, 3).reshape(B, T, h * d_k)
