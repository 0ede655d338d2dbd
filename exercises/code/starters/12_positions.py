"""Exercise 12: Sinusoidal positions / 练习 12：正弦位置编码

In 12_positions.py write positions(T, d_model): return the (T, d_model) position code P.
P[p, 2i] = sin(p / 10000^(2i/d_model)), P[p, 2i+1] = cos(p / 10000^(2i/d_model)),
positions p counted from 0. Even columns hold sin, odd columns cos, and each pair shares
one frequency.
The cases include a single position and an odd d_model (whose last column has a sin
only).

在 12_positions.py 里写 positions(T, d_model)：返回 (T, d_model) 的位置编码 P。
P[p, 2i] = sin(p / 10000^(2i/d_model))，P[p, 2i+1] = cos(p / 10000^(2i/d_model))，位置 p
 从 0 数起。偶数列放 sin，奇数列放 cos，每一对共用一个频率。
检查包括只有一个位置、d_model 为奇数（最后一列只有 sin）的情形。

Check it / 检查：attn-tui code check positions  (or keep `attn-tui code watch` running)
"""

import numpy as np


def positions(T, d_model):
    # -> (T, d_model): P[p, 2i] = sin(p / 10000^(2i/d_model)), P[p, 2i+1] = cos(same)
    raise NotImplementedError("write positions here / 在这里写 positions")
