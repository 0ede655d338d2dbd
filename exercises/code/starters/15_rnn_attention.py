"""Exercise 15: The attention step of the book's RNN / 练习 15：书中 RNN 的注意力一步

In 15_rnn_attention.py write rnn_attention(s, H): the attention the book's 934-parameter
reversal RNN does at decoding step t.
s (B, Hd) is the decoder's current state (the query), H (B, L, Hd) all the encoder's
states h_1 … h_L (the keys, and the values). Scores s · h_j / √Hd, softmax along L,
context c = Σ_j a_j h_j. Return (c, a): c (B, Hd), a (B, L).
This model has no W_Q, W_K, W_V: that is why it has only 96 parameters more than the
model without attention (the output layer reads [s; c]). The cases include states
computed by the book's own model (Hd = 16, L = 5).

在 15_rnn_attention.py 里写 rnn_attention(s, H)：书中 934 个参数的倒序 RNN 在解码第 t 步
做的注意力。
s (B, Hd) 是解码器当前的状态（查询），H (B, L, Hd) 是编码器的全部状态 h_1 … h_L（键，也
是值）。分数 s · h_j / √Hd，softmax 沿 L，上下文 c = Σ_j a_j h_j。返回 (c, a)：c (B, Hd)，
a (B, L)。
这个模型没有 W_Q、W_K、W_V：这正是它只比不加注意力的模型多 96 个参数（输出层读 [s; c]）
的原因。检查包括用书中模型（Hd = 16，L = 5）真实算出的状态。

Check it / 检查：attn-tui code check rnn-attention  (or keep `attn-tui code watch` running)
"""

import numpy as np


def rnn_attention(s, H):
    # s (B, Hd) decoder states, H (B, L, Hd) encoder states -> context (B, Hd), weights (B, L)
    raise NotImplementedError("write rnn_attention here / 在这里写 rnn_attention")
