"""Exercise 2: Scaling by √d / 练习 2：除以 √d

In 02_scaled.py write scaled_scores(Q, K): the same dot products, divided by √d, where d
is the length of a query (and of a key).
Q (n_q, d), K (n_k, d), return (n_q, n_k). In the textbook example d = 3, giving 0.5774
0 1.1547 0.5774.
The cases have d ≠ n_k, so dividing by the number of keys, or by d instead of √d, is
caught.

在 02_scaled.py 里写 scaled_scores(Q, K)：和上一题一样的点积，再除以 √d，d 是查询（也是
键）的长度。
Q (n_q, d)，K (n_k, d)，返回 (n_q, n_k)。课本的例子中 d = 3，得 0.5774 0 1.1547 0.5774。
检查用 d ≠ n_k 的情形，所以除以键的个数、除以 d 而不是 √d 都会被发现。

Check it / 检查：attn-tui code check scaled-scores  (or keep `attn-tui code watch` running)
"""

import numpy as np


def scaled_scores(Q, K):
    # Q (n_q, d), K (n_k, d) -> (n_q, n_k)
    raise NotImplementedError("write scaled_scores here / 在这里写 scaled_scores")
