"""Exercise 1: Dot-product scores / 练习 1：点积打分

In 01_scores.py write scores(Q, K): every query's dot product with every key.
Q is (n_q, d), one query per row; K is (n_k, d), one key per row. Return (n_q, n_k): row
i, column j holds q_i · k_j.
Checked on the textbook example first (q = (1, 0, 1) and four keys give 1 0 2 1), then
on random queries and keys, a single key, a single query and d = 1.

在 01_scores.py 里写 scores(Q, K)：每个查询与每个键的点积。
Q 的形状是 (n_q, d)，每行一个查询；K 的形状是 (n_k, d)，每行一个键。返回 (n_q, n_k)：第
i 行第 j 列是 q_i · k_j。
检查：先用课本的例子（q = (1, 0, 1) 和四个键，应得 1 0 2 1），再用随机的查询和键、只有一
个键、只有一个查询、d = 1 的情形。

Check it / 检查：attn-tui code check scores  (or keep `attn-tui code watch` running)
"""

import numpy as np


def scores(Q, K):
    # Q (n_q, d), K (n_k, d) -> (n_q, n_k): row i holds query i's dot product with each key
    raise NotImplementedError("write scores here / 在这里写 scores")
