"""Exercise 6: The causal mask / 练习 6：因果掩码

In 06_causal_mask.py write causal_mask(T): a (T, T) boolean matrix whose entry (i, j) is
True when query i may look at key j.
In causal (autoregressive) attention position i may see j ≤ i only: itself and what came
before, never the future.
Checked for T = 4, T = 1, T = 7 and random T.

在 06_causal_mask.py 里写 causal_mask(T)：一个 (T, T) 的布尔矩阵，第 i 行第 j 列为 True
表示第 i 个查询可以看第 j 个键。
因果（自回归）注意力里，位置 i 只能看 j ≤ i：它自己和它之前的位置，看不到未来。
检查 T = 4、T = 1、T = 7 和随机的 T。

Check it / 检查：attn-tui code check causal-mask  (or keep `attn-tui code watch` running)
"""

import numpy as np


def causal_mask(T):
    # -> (T, T) bool: row i is True for keys j <= i
    raise NotImplementedError("write causal_mask here / 在这里写 causal_mask")
