"""Exercise 8: Batched scaled dot-product attention / 练习 8：批量缩放点积注意力

In 08_attention.py write attention(Q, K, V, mask=None) for a whole batch at once.
Q (B, T_q, d), K (B, T_k, d), V (B, T_k, d_v); mask is None or a boolean array that
broadcasts to (B, T_q, T_k), True where the query may look. Return (B, T_q, d_v).
Scores are Q Kᵀ / √d; masked scores become −∞ before the softmax. The cases include a
batch of one, cross-attention (T_q ≠ T_k), d_v ≠ d, a causal mask, a padding mask, a
mask that leaves a single key in a row, ties, and scores past 710.

在 08_attention.py 里写 attention(Q, K, V, mask=None)，一批序列一起算。
Q (B, T_q, d)，K (B, T_k, d)，V (B, T_k, d_v)；mask 为 None，或能广播到 (B, T_q, T_k) 的
布尔数组，True 表示可以看。返回 (B, T_q, d_v)。
分数是 Q Kᵀ / √d，被掩住的分数在 softmax 之前设成 −∞。检查包括：只有一个序列、交叉注意力
（T_q ≠ T_k）、d_v ≠ d、因果掩码、填充掩码、每行只剩一个键的掩码、分数全部相同、分数超过
 710。

Check it / 检查：attn-tui code check attention  (or keep `attn-tui code watch` running)
"""

import numpy as np


def attention(Q, K, V, mask=None):
    # Q (B, T_q, d), K (B, T_k, d), V (B, T_k, d_v), mask -> (B, T_q, T_k) -> (B, T_q, d_v)
    raise NotImplementedError("write attention here / 在这里写 attention")
