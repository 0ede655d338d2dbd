"""Exercise 5: One query, end to end / 练习 5：一个查询的注意力

In 05_attention_one.py write attention_one(q, K, V): the last four exercises in one.
q (d,) is one query, K (n, d) the keys, V (n, d_v) the values. Score with K q, divide by
√d, softmax, then add up the values with those weights, returning (d_v,).
The first case is the textbook's hand example: q = (1, 0, 1), values = keys, which must
give (0.8707, 0.3595, 0.4102). Then values that differ from the keys, d_v ≠ d, a single
key, all scores equal, and scores past 710.

在 05_attention_one.py 里写 attention_one(q, K, V)：把前四题连起来。
q (d,) 一个查询，K (n, d) 键，V (n, d_v) 值。先打分 K q，除以 √d，softmax，再对值加权求
和，返回 (d_v,)。
第一个检查就是课本的手算例子：q = (1, 0, 1)，值等于键，应得 (0.8707, 0.3595, 0.4102)。之
后还有值和键不同、d_v ≠ d、只有一个键、分数全部相同、分数超过 710 的情形。

Check it / 检查：attn-tui code check attention-one  (or keep `attn-tui code watch` running)
"""

import numpy as np


def attention_one(q, K, V):
    # q (d,), K (n, d), V (n, d_v) -> (d_v,)
    raise NotImplementedError("write attention_one here / 在这里写 attention_one")
