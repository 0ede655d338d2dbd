import numpy as np


def attention_one(q, K, V):
    # q (d,), K (n, d), V (n, d_v) -> (d_v,)
    s = K @ q / np.sqrt(q.shape[0])  # (n,) scaled scores
    e = np.exp(s - s.max())
    a = e / e.sum()  # (n,) weights, sum 1
    return a @ V  # (d_v,) a convex combination of the values
