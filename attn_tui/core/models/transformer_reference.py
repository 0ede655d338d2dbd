"""The tiny Transformer written to be read: the numpy behind a Transformer run.

This is the model ``transformer.py`` trains, computed the plain way: one line per equation, a
loop over the layers and over the heads, a comment on every line of the backward pass.
``transformer.py`` gives the same loss and gradients (tests/core/models/
test_transformer_reference.py checks it in float64); it is arranged for speed instead (one flat
vector of weights, Q, K and V from one matmul, every head at once, arrays reused in place).

    p = {"E": …, "P": …, "1.W_Q": …, "1.W_K": …, "1.W_V": …, "1.W_O": …,
         "1.W1": …, "1.b1": …, "1.W2": …, "1.b2": …, "W_out": …, "b_out": …}
    loss, grads = loss_and_grads(p, x, y, heads=1)    # x, y: (B, L) symbols 0..5

Row vectors, batch first: the residual stream H is (B, L, d), one row per position.
"""

import numpy as np


def softmax(z):
    e = np.exp(z - z.max(axis=-1, keepdims=True))  # shifting by the largest changes nothing
    return e / e.sum(axis=-1, keepdims=True)


def layer_norm(x, g, b):
    """Each row of x to mean 0 and variance 1, then scaled by g and shifted by b."""
    xhat = (x - x.mean(axis=-1, keepdims=True)) / np.sqrt(x.var(axis=-1, keepdims=True) + 1e-5)
    return xhat * g + b, xhat


def norm_back(dy, xhat, gain, x, g, name):
    """Back through layer_norm(x): fills g[name + "g"], g[name + "b"]; returns dx."""
    g[name + "g"] = (dy * xhat).sum(axis=(0, 1))  # y = xhat · gain + bias
    g[name + "b"] = dy.sum(axis=(0, 1))
    dxhat = dy * gain
    rstd = 1 / np.sqrt(x.var(axis=-1, keepdims=True) + 1e-5)  # xhat = (x − mean) · rstd
    m1 = dxhat.mean(axis=-1, keepdims=True)  # the mean moves with every entry of the row
    m2 = (dxhat * xhat).mean(axis=-1, keepdims=True)  # ... and so does the variance
    return rstd * (dxhat - m1 - xhat * m2)


def sinusoidal(L, d):
    """The Transformer paper's fixed positions: sin and cos of the position at d/2 rates."""
    angle = np.arange(L)[:, None] * 10000.0 ** (-np.arange(0, d, 2) / d)  # (L, d/2)
    pe = np.zeros((L, d))
    pe[:, 0::2], pe[:, 1::2] = np.sin(angle), np.cos(angle[:, : d // 2])
    return pe


def loss_and_grads(p, x, y, heads=1, positions="learned", causal=False, norm=False, rows=None):
    """Cross-entropy of the targets y (B, L) over every position (or over the flat positions
    ``rows`` alone), and its gradient by name. positions: "learned" (p["P"]), "sinusoidal"
    (fixed) or "none"; causal: position i sees j ≤ i only; norm: a layer norm before attention,
    before the feed-forward and before the output."""
    B, L = x.shape
    V, d = p["E"].shape
    dk = d // heads  # each head's width
    n_layers = sum(1 for k in p if k.endswith(".W_Q"))
    hidden = np.triu(np.full((L, L), -np.inf), 1) if causal else np.zeros((L, L))  # j > i

    # ---- forward ------------------------------------------------------------------------
    H = p["E"][x]  # (B, L, d) each symbol's row of E
    if positions == "learned":
        H = H + p["P"]  # the same position vectors in every sequence
    elif positions == "sinusoidal":
        H = H + sinusoidal(L, d)
    cache = []
    for n in range(1, n_layers + 1):
        w = {k.split(".")[1]: v for k, v in p.items() if k.startswith(f"{n}.")}  # this layer's
        c = {"H": H, "A": []}
        c["Y"], c["xhat1"] = layer_norm(H, w["ln1_g"], w["ln1_b"]) if norm else (H, None)
        Q, K, Vs = c["Y"] @ w["W_Q"], c["Y"] @ w["W_K"], c["Y"] @ w["W_V"]  # (B, L, d) each
        Z = np.zeros((B, L, d))  # the heads' outputs side by side
        for i in range(heads):
            h = slice(i * dk, (i + 1) * dk)  # head i's columns of Q, K, V
            S = Q[..., h] @ K[..., h].transpose(0, 2, 1) / np.sqrt(dk) + hidden  # (B, L, L)
            c["A"].append(softmax(S))  # row i: how much output i reads of each input j
            Z[..., h] = c["A"][i] @ Vs[..., h]  # the weighted sum of the values
        c.update(Q=Q, K=K, Vs=Vs, Z=Z)
        H = H + Z @ w["W_O"]  # the residual stream plus what attention brought
        if "W1" in w:  # the feed-forward block: relu(Y2 W1 + b1) W2 + b2, added to the stream
            c["H_mid"] = H
            c["Y2"], c["xhat2"] = layer_norm(H, w["ln2_g"], w["ln2_b"]) if norm else (H, None)
            c["F"] = c["Y2"] @ w["W1"] + w["b1"]  # (B, L, 2d)
            H = H + np.maximum(c["F"], 0) @ w["W2"] + w["b2"]
        cache.append(c)
    U, xhatf = layer_norm(H, p["lnf_g"], p["lnf_b"]) if norm else (H, None)
    probs = softmax(U @ p["W_out"] + p["b_out"])  # (B, L, V) each position's next symbol
    read = np.ones((B, L))  # which positions the loss reads
    if rows is not None:
        read = np.zeros(B * L)
        read[rows] = 1
        read = read.reshape(B, L)
    Yt = np.eye(V)[y]  # (B, L, V) one-hot targets
    loss = -(read * np.log((probs * Yt).sum(axis=-1))).sum() / read.sum()

    # ---- backward -----------------------------------------------------------------------
    g = {k: np.zeros_like(v) for k, v in p.items()}
    dlogits = (probs - Yt) * read[..., None] / read.sum()  # through softmax + cross-entropy
    g["W_out"] = np.einsum("bld,blv->dv", U, dlogits)  # the output layer's weights
    g["b_out"] = dlogits.sum(axis=(0, 1))  # ... and biases
    dH = dlogits @ p["W_out"].T  # back into the stream
    if norm:
        dH = norm_back(dH, xhatf, p["lnf_g"], H, g, "lnf_")
    for n in range(n_layers, 0, -1):
        w = {k.split(".")[1]: v for k, v in p.items() if k.startswith(f"{n}.")}
        c = cache[n - 1]
        if "W1" in w:
            R = np.maximum(c["F"], 0)
            g[f"{n}.W2"] = np.einsum("blf,bld->fd", R, dH)  # H_out = H_mid + R W2 + b2
            g[f"{n}.b2"] = dH.sum(axis=(0, 1))  # ... every position adds b2
            dF = (dH @ w["W2"].T) * (c["F"] > 0)  # back through the relu: 0 where it was off
            g[f"{n}.W1"] = np.einsum("bld,blf->df", c["Y2"], dF)  # F = Y2 W1 + b1
            g[f"{n}.b1"] = dF.sum(axis=(0, 1))
            dY2 = dF @ w["W1"].T  # into the block's input
            if norm:
                dY2 = norm_back(dY2, c["xhat2"], w["ln2_g"], c["H_mid"], g, f"{n}.ln2_")
            dH = dH + dY2  # the residual carries dH past the block as well
        g[f"{n}.W_O"] = np.einsum("blz,bld->zd", c["Z"], dH)  # O = Z W_O
        dZ = dH @ w["W_O"].T  # into the heads' outputs
        dQ, dK, dV = np.zeros((B, L, d)), np.zeros((B, L, d)), np.zeros((B, L, d))
        for i in range(heads):
            h, A = slice(i * dk, (i + 1) * dk), c["A"][i]
            dA = dZ[..., h] @ c["Vs"][..., h].transpose(0, 2, 1)  # Z = A V: da_ij = dz_i · v_j
            dV[..., h] = A.transpose(0, 2, 1) @ dZ[..., h]  # ... and v_j gets Σ_i a_ij dz_i
            dS = A * (dA - (A * dA).sum(axis=-1, keepdims=True))  # through the softmax
            dS /= np.sqrt(dk)  # through the 1/√d_k scaling (a hidden a_ij = 0 gets none)
            dQ[..., h] = dS @ c["K"][..., h]  # s_ij = q_i · k_j, so dq_i = Σ_j ds_ij k_j
            dK[..., h] = dS.transpose(0, 2, 1) @ c["Q"][..., h]  # ... and dk_j = Σ_i ds_ij q_i
        for name, dM in (("W_Q", dQ), ("W_K", dK), ("W_V", dV)):
            g[f"{n}.{name}"] = np.einsum("bld,blk->dk", c["Y"], dM)  # Q = Y W_Q, and K, V
        dY = dQ @ w["W_Q"].T + dK @ w["W_K"].T + dV @ w["W_V"].T  # Y feeds all three
        if norm:
            dY = norm_back(dY, c["xhat1"], w["ln1_g"], c["H"], g, f"{n}.ln1_")
        dH = dH + dY  # the residual: the layer's input reaches its output directly too
    np.add.at(g["E"], x, dH)  # each symbol's row gathers the gradient of every place it is
    if positions == "learned":
        g["P"] = dH.sum(axis=0)  # each position's vector, summed over the sequences
    return loss, g


# ---- what the trainer shows (not part of the model) ------------------------------------------

SHOWN_UNTIL = "# ---- what the trainer shows"


def source(config=None) -> str:
    """This model's code as the trainer shows it ("the numpy behind this run"), with a last
    line calling it with the settings of ``config`` (a TransformerConfig) when one is given."""
    from pathlib import Path

    text = Path(__file__).read_text("utf-8").split(SHOWN_UNTIL)[0].rstrip() + "\n"
    if config is not None:
        rows = config.task == "induction"  # its loss reads the copy's positions alone
        text += (
            f"\n\n# this run: {config.task}, L {config.length}, d {config.d_model}, "
            f"{config.layers} layer{'s' * (config.layers > 1)} of {config.heads} "
            f"head{'s' * (config.heads > 1)}, batch {config.batch}\n"
            f"loss, grads = loss_and_grads(p, x, y, heads={config.heads!r}, "
            f"positions={config.positions!r}, causal={config.causal!r}, norm={config.norm!r}"
            + (", rows=rows)  # rows: the positions the loss reads\n" if rows else ")\n")
        )
    return text
