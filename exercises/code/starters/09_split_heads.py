"""Exercise 9: Splitting into heads / 练习 9：拆成多个头

In 09_split_heads.py write split_heads(X, h): split (B, T, d_model) into h heads,
returning (B, h, T, d_k) with d_k = d_model / h.
Head i takes the i-th block of d_k consecutive columns of X (columns i·d_k to (i+1)·d_k
− 1).
One case numbers the entries of X (0, 1, 2, …), so anything out of place shows at a
glance.

在 09_split_heads.py 里写 split_heads(X, h)：把 (B, T, d_model) 拆成 h 个头，返回 (B, h,
 T, d_k)，d_k = d_model / h。
第 i 个头拿 X 的第 i 块连续的 d_k 列（列 i·d_k 到 (i+1)·d_k − 1）。
检查里有一个编了号的 X（0, 1, 2, …），错位一眼就能看出来。

Check it / 检查：attn-tui code check split-heads  (or keep `attn-tui code watch` running)
"""

import numpy as np


def split_heads(X, h):
    # X (B, T, d_model) -> (B, h, T, d_k), d_k = d_model // h
    raise NotImplementedError("write split_heads here / 在这里写 split_heads")
