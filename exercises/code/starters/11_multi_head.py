"""Exercise 11: A multi-head attention layer / 练习 11：多头注意力层

In 11_multi_head.py write multi_head_attention(X_q, X_kv, W_Q, W_K, W_V, W_O, h).
X_q (B, T_q, d_model) gives the queries, X_kv (B, T_k, d_model) the keys and values (the
same array in self-attention); the four W are (d_model, d_model).
Q = X_q W_Q, K = X_kv W_K, V = X_kv W_V, each split into h heads; each head does scaled
dot-product attention (divided by √d_k, d_k = d_model / h); join the heads and multiply
by W_O. Return (B, T_q, d_model).
Checked with 1, 2, 3 and 4 heads, self- and cross-attention, and a batch of one.

在 11_multi_head.py 里写 multi_head_attention(X_q, X_kv, W_Q, W_K, W_V, W_O, h)。
X_q (B, T_q, d_model) 提供查询，X_kv (B, T_k, d_model) 提供键和值（自注意力时二者相同）；
四个 W 都是 (d_model, d_model)。
Q = X_q W_Q，K = X_kv W_K，V = X_kv W_V，各拆成 h 个头，每个头做缩放点积注意力（除以 √d_
k，d_k = d_model / h），拼回来，再乘 W_O。返回 (B, T_q, d_model)。
检查有 1、2、3、4 个头，自注意力和交叉注意力，只有一个序列。

Check it / 检查：attn-tui code check multi-head  (or keep `attn-tui code watch` running)
"""

import numpy as np


def multi_head_attention(X_q, X_kv, W_Q, W_K, W_V, W_O, h):
    # X_q (B, T_q, d_model), X_kv (B, T_k, d_model), W_* (d_model, d_model), h heads
    raise NotImplementedError("write multi_head_attention here / 在这里写 multi_head_attention")
