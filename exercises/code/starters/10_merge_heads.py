"""Exercise 10: Joining the heads / 练习 10：把头拼回来

In 10_merge_heads.py write merge_heads(Z): the inverse of split_heads.
Z (B, h, T, d_k) holds each head's output; return (B, T, h·d_k), each token's heads side
by side (head 0 first).

在 10_merge_heads.py 里写 merge_heads(Z)：split_heads 的逆运算。
Z (B, h, T, d_k) 是每个头的输出；返回 (B, T, h·d_k)，每个词的各个头的输出并排放在一起（
头 0 在最前）。

Check it / 检查：attn-tui code check merge-heads  (or keep `attn-tui code watch` running)
"""

import numpy as np


def merge_heads(Z):
    # Z (B, h, T, d_k) -> (B, T, h * d_k)
    raise NotImplementedError("write merge_heads here / 在这里写 merge_heads")
