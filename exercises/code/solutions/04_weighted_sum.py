import numpy as np


def weighted_sum(A, V):
    # A (n_q, n_k) weights, V (n_k, d_v) values -> (n_q, d_v)
    return A @ V
