import numpy as np


def scaled_scores(Q, K):
    # Q (n_q, d), K (n_k, d) -> (n_q, n_k)
    d = Q.shape[-1]
    return Q @ K.T / np.sqrt(d)
