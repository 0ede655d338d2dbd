"""Exercise 14: Attention's backward pass / 练习 14：注意力的反向传播

In 14_attention_backward.py write attention_backward(Q, K, V, dO): with O = softmax(Q Kᵀ
/ √d) V and dO the loss's gradient with respect to O, return (dQ, dK, dV), shaped like
Q, K and V.
Q (B, T_q, d), K (B, T_k, d), V (B, T_k, d_v), dO (B, T_q, d_v). No mask.
Checked by finite differences, including T_q ≠ T_k (where a missing transpose shows as a
wrong shape).

在 14_attention_backward.py 里写 attention_backward(Q, K, V, dO)：O = softmax(Q Kᵀ / √d)
 V，已知 dO（损失对 O 的梯度），返回 (dQ, dK, dV)，形状分别和 Q、K、V 相同。
Q (B, T_q, d)，K (B, T_k, d)，V (B, T_k, d_v)，dO (B, T_q, d_v)。没有掩码。
检查方法是有限差分，包括 T_q ≠ T_k 的情形（这时转置写错会形状不对）。

Check it / 检查：attn-tui code check attention-backward  (or keep `attn-tui code watch` running)
"""

import numpy as np


def attention_backward(Q, K, V, dO):
    # O = softmax(Q K^T / sqrt(d)) V; Q (B, T_q, d), K (B, T_k, d), V (B, T_k, d_v),
    # dO (B, T_q, d_v) -> (dQ, dK, dV) shaped like Q, K, V
    raise NotImplementedError("write attention_backward here / 在这里写 attention_backward")
