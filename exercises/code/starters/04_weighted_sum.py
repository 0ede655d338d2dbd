"""Exercise 4: The weighted sum / 练习 4：加权和

In 04_weighted_sum.py write weighted_sum(A, V): each query's output is the value vectors
added up with its weights.
A (n_q, n_k) holds the weights, each row summing to 1; V (n_k, d_v) holds one value
vector per row. Return (n_q, d_v), row i being Σ_j A[i, j] · v_j.
The textbook's weights 0.2303 0.1293 0.4102 0.2303 (values = keys) must give (0.8707,
0.3595, 0.4102).

在 04_weighted_sum.py 里写 weighted_sum(A, V)：每个查询的输出是值向量按它的权重相加。
A (n_q, n_k) 是权重，每行和为 1；V (n_k, d_v) 每行一个值向量。返回 (n_q, d_v)，第 i 行是
 Σ_j A[i, j] · v_j。
课本例子的权重 0.2303 0.1293 0.4102 0.2303（值等于键）应得 (0.8707, 0.3595, 0.4102)。

Check it / 检查：attn-tui code check weighted-sum  (or keep `attn-tui code watch` running)
"""

import numpy as np


def weighted_sum(A, V):
    # A (n_q, n_k) weights, V (n_k, d_v) values -> (n_q, d_v)
    raise NotImplementedError("write weighted_sum here / 在这里写 weighted_sum")
