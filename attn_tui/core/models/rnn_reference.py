"""The reversal RNN written to be read: the numpy behind a trainer run, one step at a time.

This is the model ``rnn.py`` trains, computed the plain way (min-char-rnn's way): a loop over
time, one line per equation, a comment on every line of the backward pass. ``rnn.py`` gives
the same loss and gradients (tests/core/models/test_rnn_reference.py checks it in float64
for every variant); it is arranged for speed instead, which hides the lesson.

    p = {"Wxh": …, "Whh": …, "bh": …, "Wxs": …, "Wss": …, "bs": …, "Why": …, "by": …}
    loss, grads = loss_and_grads(p, x, attention=True)    # x: (B, L) symbols 0..5

Row vectors throughout (a batch of B sequences is B rows): x_t Wxh, not Wxh x_t.
"""

import numpy as np


def softmax(z):
    e = np.exp(z - z.max(axis=-1, keepdims=True))  # shifting by the largest changes nothing
    return e / e.sum(axis=-1, keepdims=True)


def loss_and_grads(p, x, attention=False, score="dot", feed="previous"):
    """Teacher-forced loss of reversing the sequences x (B, L), and its gradient by name.

    score: "dot" s·h/√H, "general" (s Wa)·h/√H, "qk" (s Wq)·(h Wk)/√H.
    feed: "previous" (the decoder reads the previous target) or "none" (it reads nothing).
    """
    Wxh, Whh, bh, Wss, bs, Why, by = (p[k] for k in ("Wxh", "Whh", "bh", "Wss", "bs", "Why", "by"))
    B, L = x.shape
    V, H = Wxh.shape
    X = np.eye(V)[x]  # (B, L, V) one-hot inputs
    Y = np.eye(V)[x[:, ::-1]]  # (B, L, V) one-hot targets: the input reversed
    D = np.zeros((B, L, V))  # decoder inputs: nothing at t = 1, then the previous target
    D[:, 1:] = Y[:, :-1]

    # ---- forward ------------------------------------------------------------------------
    hs = {-1: np.zeros((B, H))}  # encoder states, h_0 = 0
    for t in range(L):
        hs[t] = np.tanh(X[:, t] @ Wxh + hs[t - 1] @ Whh + bh)
    K = np.stack([hs[t] for t in range(L)], axis=1)  # (B, L, H) what attention reads
    K_keys = K @ p["Wk"] if score == "qk" else K  # the keys: h_j Wk with "qk"; values stay h_j
    ss, qs, As, zs, ps = {-1: hs[L - 1]}, {}, {}, {}, {}  # the decoder starts from h_L
    loss = 0.0
    for t in range(L):
        d = D[:, t] @ p["Wxs"] if feed == "previous" else 0.0
        ss[t] = np.tanh(d + ss[t - 1] @ Wss + bs)
        zs[t] = ss[t]
        if attention:
            qs[t] = ss[t]  # the query: s_t itself ("dot"), s_t Wa ("general"), s_t Wq ("qk")
            if score == "general":
                qs[t] = ss[t] @ p["Wa"]
            elif score == "qk":
                qs[t] = ss[t] @ p["Wq"]
            e = np.einsum("bh,bjh->bj", qs[t], K_keys) / np.sqrt(H)  # scores of the L inputs
            As[t] = softmax(e)  # attention weights, each row sums to 1
            c = np.einsum("bj,bjh->bh", As[t], K)  # context: the weighted sum of the h_j
            zs[t] = np.concatenate([ss[t], c], axis=1)  # the output layer reads [s_t ; c_t]
        ps[t] = softmax(zs[t] @ Why + by)  # (B, V) the next symbol's probabilities
        loss -= np.log((ps[t] * Y[:, t]).sum(axis=1)).sum()  # cross-entropy of the targets
    loss /= B * L  # the mean over every predicted symbol

    # ---- backward -----------------------------------------------------------------------
    g = {k: np.zeros_like(v) for k, v in p.items()}
    dK = np.zeros_like(K)  # gradient of the encoder states, gathered from every decoder step
    dK_keys = np.zeros_like(K)  # ... of the keys, when they are projected (q·k)
    dsnext = np.zeros((B, H))  # gradient reaching s_t from step t+1
    for t in reversed(range(L)):
        dy = (ps[t] - Y[:, t]) / (B * L)  # backprop into the logits: softmax + cross-entropy
        g["Why"] += zs[t].T @ dy  # the output layer's weights
        g["by"] += dy.sum(axis=0)  # ... and biases
        dz = dy @ Why.T  # back into [s_t ; c_t]
        ds = dz[:, :H] + dsnext  # s_t feeds the output and the next step
        if attention:
            dc = dz[:, H:]  # the context's share
            dA = np.einsum("bh,bjh->bj", dc, K)  # c = Σ_j a_j h_j, so da_j = dc · h_j
            dK += np.einsum("bj,bh->bjh", As[t], dc)  # ... and each value h_j gets a_j dc
            de = As[t] * (dA - (As[t] * dA).sum(axis=1, keepdims=True))  # through softmax
            de /= np.sqrt(H)  # through the 1/√H scaling
            dq = np.einsum("bj,bjh->bh", de, K_keys)  # e_j = q·k_j, so dq = Σ_j de_j k_j
            dK_keys += np.einsum("bj,bh->bjh", de, qs[t])  # ... and each key gets de_j q
            if score == "general":
                g["Wa"] += ss[t].T @ dq  # q = s Wa
                ds += dq @ p["Wa"].T
            elif score == "qk":
                g["Wq"] += ss[t].T @ dq  # q = s Wq
                ds += dq @ p["Wq"].T
            else:
                ds += dq  # q = s
        dpre = (1 - ss[t] ** 2) * ds  # backprop through tanh
        g["Wss"] += ss[t - 1].T @ dpre  # the decoder's recurrent weights
        g["bs"] += dpre.sum(axis=0)  # ... and biases
        if feed == "previous":
            g["Wxs"] += D[:, t].T @ dpre  # ... and input weights
        dsnext = dpre @ Wss.T  # into s_{t-1}
    if score == "qk":
        g["Wk"] += np.einsum("bjh,bjk->hk", K, dK_keys)  # keys = h_j Wk
        dK += dK_keys @ p["Wk"].T  # ... so each h_j gets dk_j Wkᵀ
    else:
        dK += dK_keys  # keys = h_j
    dhnext = dsnext  # s_0 = h_L: the decoder's first state was the encoder's last
    for t in reversed(range(L)):
        dh = dK[:, t] + dhnext  # h_t is read by attention and by step t+1
        dpre = (1 - hs[t] ** 2) * dh  # backprop through tanh
        g["Wxh"] += X[:, t].T @ dpre  # the encoder's input weights
        g["Whh"] += hs[t - 1].T @ dpre  # ... recurrent weights
        g["bh"] += dpre.sum(axis=0)  # ... and biases
        dhnext = dpre @ Whh.T  # into h_{t-1}
    return loss, g


# ---- what the trainer shows (not part of the model) ------------------------------------------

SHOWN_UNTIL = "# ---- what the trainer shows"


def source(config=None) -> str:
    """This model's code as the trainer shows it ("the numpy behind this run"), with a last
    line calling it with the settings of ``config`` (a TrainConfig) when one is given."""
    from pathlib import Path

    text = Path(__file__).read_text("utf-8").split(SHOWN_UNTIL)[0].rstrip() + "\n"
    if config is not None:
        text += (
            f"\n\n# this run: L {config.length}, H {config.hidden}, batch {config.batch}\n"
            f"loss, grads = loss_and_grads(p, x, attention={config.attention!r}, "
            f"score={config.score!r}, feed={config.feed!r})\n"
        )
    return text
