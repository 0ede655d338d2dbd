"""Exercise 13: The softmax's backward pass / 练习 13：softmax 的反向传播

In 13_softmax_backward.py write softmax_backward(y, dy): given y = softmax(x) (along the
last axis) and the loss's gradient dy with respect to y, return its gradient dx with
respect to x (a vector-Jacobian product).
y, dy and dx share one shape (..., n).
Checked by finite differences: each entry of x = log y is moved by ±10⁻⁶, the change in
the loss is measured, and compared with your dx.

在 13_softmax_backward.py 里写 softmax_backward(y, dy)：已知 y = softmax(x)（沿最后一个
轴）和损失对 y 的梯度 dy，返回损失对 x 的梯度 dx（向量-雅可比积）。
y、dy、dx 形状相同 (..., n)。
检查方法是有限差分：把 x = log y 的每个数挪动 ±10⁻⁶，看损失怎么变，和你的 dx 比较。

Check it / 检查：attn-tui code check softmax-backward  (or keep `attn-tui code watch` running)
"""

import numpy as np


def softmax_backward(y, dy):
    # y = softmax(x) (..., n), dy = dL/dy (..., n) -> dL/dx (..., n)
    raise NotImplementedError("write softmax_backward here / 在这里写 softmax_backward")
