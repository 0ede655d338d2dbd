"""Exercise 7: The padding mask / 练习 7：填充掩码

In 07_padding_mask.py write padding_mask(lengths, T): a batch of sequences of different
lengths was padded to T, and the padding must not be looked at.
lengths (B,) holds each sequence's real length. Return a (B, 1, T) boolean array:
position j (counted from 0) of sequence b is True when j < lengths[b].
The middle axis of size 1 lets one row of the mask serve every query (it broadcasts to
(B, T_q, T)).

在 07_padding_mask.py 里写 padding_mask(lengths, T)：一批长度不同的序列被补齐到 T，补上
的位置不该被看。
lengths (B,) 是每个序列的真实长度。返回 (B, 1, T) 的布尔数组：第 b 个序列的位置 j（从 0
数）在 j < lengths[b] 时为 True。
中间那一维长度为 1，是为了让同一行掩码对所有查询都适用（广播到 (B, T_q, T)）。

Check it / 检查：attn-tui code check padding-mask  (or keep `attn-tui code watch` running)
"""

import numpy as np


def padding_mask(lengths, T):
    # lengths (B,) -> (B, 1, T) bool: True at the real positions j < lengths[b]
    raise NotImplementedError("write padding_mask here / 在这里写 padding_mask")
