import numpy as np


def scores(Q, K):
    # Q (n_q, d), K (n_k, d) -> (n_q, n_k): row i holds query i's dot product with each key
    return Q @ K.T
