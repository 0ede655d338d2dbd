"""Exercise 3: A numerically stable softmax / 练习 3：数值稳定的 softmax

In 03_softmax.py write softmax(x): along the last axis, turn each entry into exp(x_i) /
Σ_j exp(x_j).
x may have any shape (..., n): one row, several rows, a batch of matrices. Return the
same shape, each row summing to 1, without changing x itself.
The cases include large scores (1000, 710: exp(710) is already inf in float64), very
negative ones (−1000), ties, rows of one entry, and square matrices (where a keepdims
slip raises nothing and just computes the wrong thing).

在 03_softmax.py 里写 softmax(x)：沿最后一个轴，把每个数变成 exp(x_i) / Σ_j exp(x_j)。
x 可以是任意形状 (..., n)：一行、几行、一批矩阵。返回同样的形状，每一行的和为 1，不要改
动 x 本身。
检查包括很大的分数（1000、710：exp(710) 在 float64 里已经是 inf）、很负的分数（−1000）、
全部相等的分数、只有一个数的行，以及方阵（keepdims 的错误在方阵上不会报错，只会算错）。

Check it / 检查：attn-tui code check softmax  (or keep `attn-tui code watch` running)
"""

import numpy as np


def softmax(x):
    # x (..., n) -> (..., n), each row along the last axis sums to 1
    raise NotImplementedError("write softmax here / 在这里写 softmax")
