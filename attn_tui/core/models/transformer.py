"""A tiny Transformer encoder: every output position reads every input position at once.

Task: read L symbols x_1..x_L (6-letter alphabet) and write L symbols y_1..y_L, all positions
in one pass (no recurrence, no decoding loop): reversal (y_i = x_{L+1−i}) or sorting.

    embedding    H⁰ = E[x] + P                    E (V, d); P (L, d) learned, sinusoidal or 0
    per layer    Y  = LN₁(H)                      (pre-norm; Y = H with the norm switched off)
                 Q, K, V = Y W_Q, Y W_K, Y W_V    (N, d) each, split into h heads of d_k = d/h
                 A  = softmax(Q Kᵀ / √d_k [+ M])  (B, h, L, L); M = −∞ above the diagonal (causal)
                 O  = concat(A V) W_O             no biases on the four projections
                 H  ← H + O                       residual
                 H  ← H + relu(LN₂(H) W₁ + b₁) W₂ + b₂       (optional feed-forward, d_ff = 2d)
    output       logits = LN_f(H) W_out + b_out   (N, V), one softmax per position

Parameters (V = 6, L = 10, d = 16, 1 layer, learned positions, feed-forward, no norm):
E 96 + P 160 + W_Q W_K W_V W_O 4·256 + W₁ b₁ W₂ b₂ 1,072 + W_out b_out 102 = 2,454; each layer
norm adds 2d (a gain and a bias). The number of heads changes no count: it only splits d.

Row vectors throughout (``x @ W``), batch first: a batch is (B, L, d), flattened to (N, d) with
N = B·L for every position-wise step. As in ``rnn.py``, all parameters live in one flat vector
(gradients in another) with named views, so Adam and clipping are a handful of numpy calls, and
each step runs for the whole batch, every position and every head at once. W_Q, W_K and W_V
are stored side by side as one parameter W_QKV = [W_Q | W_K | W_V] (d, 3d), so one matmul makes
Q, K and V (and one more their gradient); ``W_Q`` etc. are views of its column blocks.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

VOCAB = 6  # the RNN's alphabet, so both models train on the same sequences
POSITIONS = ("learned", "sinusoidal", "none")
LN_EPS = 1e-5
# Scores proven smaller than this in size need no max-shift before their softmax: e^80 times
# 64 positions is far below float32's largest number (3.4e38), and e^−80 ≈ 1.8e−35 is still a
# normal float32, so no row's sum can overflow or vanish (as ``rnn.SAFE_SCORE``).
SAFE_SCORE = 80.0


@dataclass(frozen=True)
class Architecture:
    """The shape of a model: everything that decides which parameters exist."""

    length: int = 10  # L, positions per sequence (learned positions need it)
    d_model: int = 16  # d, the width of every token's vector
    heads: int = 1  # h; d_k = d / h
    layers: int = 1
    positions: str = "learned"  # "learned" | "sinusoidal" | "none"
    feed_forward: bool = True  # the position-wise block after attention
    norm: bool = False  # pre-norm layer norms (and a final one before the output)
    causal: bool = False  # position i sees only j ≤ i
    vocab: int = VOCAB

    @property
    def d_k(self) -> int:
        return self.d_model // self.heads

    @property
    def d_ff(self) -> int:
        return 2 * self.d_model


def param_shapes(arch: Architecture) -> list[tuple[str, tuple[int, ...]]]:
    """Name and shape of every parameter, in the order they sit in the flat vector."""
    V, L, d = arch.vocab, arch.length, arch.d_model
    shapes: list[tuple[str, tuple[int, ...]]] = [("E", (V, d))]
    if arch.positions == "learned":
        shapes.append(("P", (L, d)))
    for n in range(1, arch.layers + 1):
        if arch.norm:
            shapes += [(f"{n}.ln1_g", (d,)), (f"{n}.ln1_b", (d,))]
        shapes.append((f"{n}.W_QKV", (d, 3 * d)))  # [W_Q | W_K | W_V], each (d, d)
        shapes.append((f"{n}.W_O", (d, d)))
        if arch.feed_forward:
            if arch.norm:
                shapes += [(f"{n}.ln2_g", (d,)), (f"{n}.ln2_b", (d,))]
            F = arch.d_ff
            shapes += [
                (f"{n}.W1", (d, F)),
                (f"{n}.b1", (F,)),
                (f"{n}.W2", (F, d)),
                (f"{n}.b2", (d,)),
            ]
    if arch.norm:
        shapes += [("lnf_g", (d,)), ("lnf_b", (d,))]
    shapes += [("W_out", (d, V)), ("b_out", (V,))]
    return shapes


def count_params(arch: Architecture) -> int:
    return sum(math.prod(shape) for _, shape in param_shapes(arch))


def sinusoidal(length: int, d_model: int) -> np.ndarray:
    """The original paper's encoding: PE[p, 2i] = sin(p / 10000^(2i/d)), PE[p, 2i+1] = cos(…).

    Positions count from 0, so position 1 of the screen is row 0 (sin 0 = 0, cos 0 = 1)."""
    pos = np.arange(length, dtype=np.float64)[:, None]  # (L, 1)
    freq = 10000.0 ** (-np.arange(0, d_model, 2, dtype=np.float64) / d_model)  # (⌈d/2⌉,)
    pe = np.zeros((length, d_model))
    pe[:, 0::2] = np.sin(pos * freq)
    pe[:, 1::2] = np.cos(pos * freq[: d_model // 2])
    return pe


class Layer:
    """Views of one layer's parameters (``W_Q`` …) and gradients (``dW_Q`` …)."""

    ln1_g: np.ndarray  # (d,)          gain and bias of the norm before attention
    ln1_b: np.ndarray
    W_QKV: np.ndarray  # (d, 3d)       [W_Q | W_K | W_V]
    W_Q: np.ndarray  # (d, d)           views into W_QKV; columns grouped by head: head i is
    W_K: np.ndarray  #                  columns i·d_k … (i+1)·d_k − 1
    W_V: np.ndarray
    W_O: np.ndarray  # (d, d)           concat of the heads → d
    ln2_g: np.ndarray
    ln2_b: np.ndarray
    W1: np.ndarray  # (d, F)           feed-forward
    b1: np.ndarray  # (F,)
    W2: np.ndarray  # (F, d)
    b2: np.ndarray  # (d,)
    # the gradients, the same shapes: views into TinyTransformer.grads
    dln1_g: np.ndarray
    dln1_b: np.ndarray
    dW_QKV: np.ndarray
    dW_Q: np.ndarray
    dW_K: np.ndarray
    dW_V: np.ndarray
    dW_O: np.ndarray
    dln2_g: np.ndarray
    dln2_b: np.ndarray
    dW1: np.ndarray
    db1: np.ndarray
    dW2: np.ndarray
    db2: np.ndarray


@dataclass
class _LayerCache:
    """What one layer's forward keeps for its backward, (N, d) unless noted."""

    H_in: np.ndarray  # the residual stream entering the layer
    Y: np.ndarray  # LN₁(H_in), the attention's input
    ln1: tuple | None  # (xhat, rstd) of LN₁
    QKV: np.ndarray  # (N, 3d) = [Q | K | V]; [K | V] (N, 2d) when ``at`` is set
    A: np.ndarray  # (B, h, L, L) weights; (B, h, r, L) when ``at`` is set
    Zc: np.ndarray  # (N, d) heads' outputs side by side; (B·r, d)
    H_mid: np.ndarray  # H_in + O (at the queried positions: (B·r, d))
    Y2: np.ndarray | None = None  # LN₂(H_mid), the feed-forward input
    ln2: tuple | None = None
    Hf: np.ndarray | None = None  # (N, F) pre-activation of the hidden layer
    R: np.ndarray | None = None  # (N, F) relu(Hf)
    q: np.ndarray | None = None  # (B, h, L, d_k) views of the queries, keys, values
    k: np.ndarray | None = None
    v: np.ndarray | None = None
    Yq: np.ndarray | None = None  # the queries' input rows: Y, or Y at ``at``
    at: np.ndarray | None = None  # (B, r) the positions a last layer queried; None = all


class TinyTransformer:
    """Encoder-only Transformer with hand-written backward passes.

    ``params`` / ``grads`` are flat vectors; ``E``, ``layers[0].W_Q``, ``dW_out`` … are views.
    """

    def __init__(
        self,
        arch: Architecture = Architecture(),
        *,
        dtype: np.dtype | type = np.float32,
        rng: np.random.Generator | None = None,
    ) -> None:
        self.arch = arch
        self.dtype = np.dtype(dtype)
        self.shapes = param_shapes(arch)
        n = count_params(arch)
        self.params = np.zeros(n, self.dtype)
        self.grads = np.zeros(n, self.dtype)
        self.slices: dict[str, slice] = {}
        self.layers = [Layer() for _ in range(arch.layers)]
        start = 0
        for name, shape in self.shapes:
            size = math.prod(shape)
            self.slices[name] = slice(start, start + size)
            owner, attr = self._owner(name)
            setattr(owner, attr, self.params[start : start + size].reshape(shape))
            setattr(owner, "d" + attr, self.grads[start : start + size].reshape(shape))
            start += size
        d = arch.d_model
        for layer in self.layers:  # W_Q, W_K, W_V: column blocks of W_QKV
            for i, name in enumerate(("W_Q", "W_K", "W_V")):
                setattr(layer, name, layer.W_QKV[:, i * d : (i + 1) * d])
                setattr(layer, "d" + name, layer.dW_QKV[:, i * d : (i + 1) * d])
        if arch.positions == "sinusoidal":
            self.P = sinusoidal(arch.length, d).astype(self.dtype)  # fixed: no gradient
        elif arch.positions == "none":
            self.P = None
        self.b_out_col = self.b_out.reshape(arch.vocab, 1)  # for the transposed logits
        # additive mask: −∞ where a query may not look (j > i), 0 elsewhere
        self.eye = np.eye(arch.vocab, dtype=self.dtype)  # rows are the one-hot symbols
        self._ones_cache: dict[int, np.ndarray] = {}
        self.mask = np.triu(np.full((arch.length, arch.length), -np.inf, self.dtype), 1)
        self.init(rng if rng is not None else np.random.default_rng(0))

    # views into params / grads, set in __init__ (declared for type checkers)
    E: np.ndarray  # (V, d)    token embedding
    P: np.ndarray | None  # (L, d)  position embedding (learned), or the fixed sinusoids
    lnf_g: np.ndarray  # (d,)
    lnf_b: np.ndarray
    W_out: np.ndarray  # (d, V)
    b_out: np.ndarray  # (V,)
    dE: np.ndarray
    dP: np.ndarray
    dlnf_g: np.ndarray
    dlnf_b: np.ndarray
    dW_out: np.ndarray
    db_out: np.ndarray

    def _owner(self, name: str) -> tuple[object, str]:
        if "." in name:
            n, attr = name.split(".")
            return self.layers[int(n) - 1], attr
        return self, name

    def view(self, name: str) -> np.ndarray:
        """The parameter called ``name`` ("E", "1.W_QKV", "1.W_Q" …), as its shaped view."""
        owner, attr = self._owner(name)
        return getattr(owner, attr)

    @property
    def n_params(self) -> int:
        return int(self.params.size)

    def init(self, rng: np.random.Generator) -> None:
        """Embeddings N(0, 1); matrices uniform in ±1/√fan_in (PyTorch's nn.Linear); biases 0,
        norm gains 1."""
        for name, shape in self.shapes:
            attr = name.split(".")[-1]
            if attr in ("E", "P"):
                values = rng.standard_normal(math.prod(shape))
            elif attr.endswith("_g"):
                values = np.ones(math.prod(shape))
            elif len(shape) == 1:
                values = np.zeros(math.prod(shape))
            else:
                bound = 1.0 / math.sqrt(shape[0])
                values = rng.uniform(-bound, bound, math.prod(shape))
            self.params[self.slices[name]] = values

    # ---- pieces, each forward beside its backward -----------------------------------------

    def _ones(self, n: int) -> np.ndarray:
        """A vector of n ones: ``M @ ones`` sums the rows of M several times faster than
        ``M.sum(axis=-1)`` (and ``ones @ M`` its columns), which matters at this size."""
        ones = self._ones_cache.get(n)
        if ones is None:
            ones = self._ones_cache[n] = np.ones(n, self.dtype)
        return ones

    def _norm(self, x: np.ndarray, g: np.ndarray, b: np.ndarray) -> tuple[np.ndarray, tuple]:
        """Layer norm over each row of x (N, d): (x − mean) / √(var + ε) · g + b."""
        mean_d = self._ones(x.shape[1]) / x.shape[1]  # x @ mean_d is each row's mean
        xc = x - (x @ mean_d)[:, None]
        rstd = 1.0 / np.sqrt(((xc * xc) @ mean_d)[:, None] + LN_EPS)  # (N, 1)
        xhat = xc * rstd
        return xhat * g + b, (xhat, rstd)

    def _norm_back(
        self, dy: np.ndarray, cache: tuple, g: np.ndarray, dg: np.ndarray, db: np.ndarray
    ) -> np.ndarray:
        """Backprop through the layer norm: fills dg, db; returns dx."""
        xhat, rstd = cache
        ones_N, mean_d = self._ones(len(dy)), self._ones(dy.shape[1]) / dy.shape[1]
        np.dot(ones_N, dy * xhat, out=dg)  # Σ over rows
        np.dot(ones_N, dy, out=db)
        dxhat = dy * g
        # dx = (dxhat − mean(dxhat) − xhat · mean(dxhat · xhat)) / σ
        dxhat -= (dxhat @ mean_d)[:, None]
        dxhat -= xhat * ((dxhat * xhat) @ mean_d)[:, None]
        dxhat *= rstd
        return dxhat

    def _attention(self, Y: np.ndarray, layer: Layer, B: int, L: int, at: np.ndarray | None = None):
        """Multi-head self-attention of Y (N, d): fills the cache's attention part and returns
        O = Zc W_O, (N, d) — or, with ``at`` (B, r) positions, the queries of those positions
        alone (every position still a key and a value), O (B·r, d)."""
        h, dk, d = self.arch.heads, self.arch.d_k, self.arch.d_model
        if at is None:
            QKV = np.dot(Y, layer.W_QKV)  # (N, d) @ (d, 3d) → (N, 3d) = [Q | K | V]
            q, k, v = QKV.reshape(B, L, 3, h, dk).transpose(2, 0, 3, 1, 4)  # (B, h, L, d_k)
            Lq, mask, Yq = L, self.mask, Y
        else:
            r = at.shape[1]
            Yq = Y.reshape(B, L, d)[np.arange(B)[:, None], at].reshape(B * r, d)
            QKV = np.dot(Y, layer.W_QKV[:, d:])  # (N, 2d) = [K | V]
            k, v = QKV.reshape(B, L, 2, h, dk).transpose(2, 0, 3, 1, 4)
            q = np.dot(Yq, layer.W_Q).reshape(B, r, h, dk).transpose(0, 2, 1, 3)  # (B, h, r, d_k)
            Lq = r
            mask = np.where(np.arange(L) > at[:, None, :, None], -np.inf, 0.0).astype(self.dtype)
        S = np.matmul(q, k.transpose(0, 1, 3, 2))  # (B, h, Lq, L) scores q_i · k_j
        S *= 1.0 / math.sqrt(dk)
        # The max-shift (largest score of each row 0, so exp ≤ 1) is only needed for large
        # scores, and a max along each row costs more than the rest of the softmax here;
        # two whole-array reductions prove when it is not (the same result up to rounding).
        shift = not -SAFE_SCORE < S.min() <= S.max() < SAFE_SCORE
        if self.arch.causal:
            S += mask  # −∞ where j > i: exp gives exactly 0
        if shift:
            S -= S.max(axis=-1, keepdims=True)
        A = np.exp(S, out=S)
        A /= (A @ self._ones(L))[..., None]  # softmax: each row sums to 1
        Z = np.matmul(A, v)  # (B, h, Lq, d_k)
        Zc = Z.transpose(0, 2, 1, 3).reshape(B * Lq, h * dk)  # heads side by side
        return (QKV, Yq, q, k, v, A, Zc), np.dot(Zc, layer.W_O)

    def _attention_back(self, dO: np.ndarray, c: _LayerCache, layer: Layer, B: int, L: int):
        """Backprop through attention: fills dW_O, dW_QKV; returns dY (N, d)."""
        h, dk, d = self.arch.heads, self.arch.d_k, self.arch.d_model
        q, k, v, A = c.q, c.k, c.v, c.A
        assert q is not None and k is not None and v is not None
        Lq = A.shape[2]
        np.dot(c.Zc.T, dO, out=layer.dW_O)  # (d, N) @ (N, d)
        dZ = np.dot(dO, layer.W_O.T).reshape(B, Lq, h, dk).transpose(0, 2, 1, 3)  # (B, h, Lq, d_k)
        dQKV = np.empty_like(c.QKV)  # the same layout as QKV: [Q | K | V], or [K | V]
        if c.at is None:
            dq, dk_, dv = dQKV.reshape(B, L, 3, h, dk).transpose(2, 0, 3, 1, 4)
        else:
            dk_, dv = dQKV.reshape(B, L, 2, h, dk).transpose(2, 0, 3, 1, 4)
            dQ = np.empty((B * Lq, d), self.dtype)
            dq = dQ.reshape(B, Lq, h, dk).transpose(0, 2, 1, 3)
        dA = np.matmul(dZ, v.transpose(0, 1, 3, 2))  # (B, h, Lq, L)   from Z = A V
        np.matmul(A.transpose(0, 1, 3, 2), dZ, out=dv)  # (B, h, L, d_k)
        # backprop through softmax: dS_ij = a_ij (da_ij − Σ_k a_ik da_ik); masked a = 0 → 0
        dA -= ((dA * A) @ self._ones(L))[..., None]
        dA *= A
        dA *= 1.0 / math.sqrt(dk)  # backprop through the 1/√d_k scaling
        np.matmul(dA, k, out=dq)  # (B, h, Lq, d_k)  queries' share
        np.matmul(dA.transpose(0, 1, 3, 2), q, out=dk_)  # keys' share
        if c.at is None:
            np.dot(c.Y.T, dQKV, out=layer.dW_QKV)  # (d, N) @ (N, 3d)
            return np.dot(dQKV, layer.W_QKV.T)  # (N, 3d) @ (3d, d): Q's, K's, V's shares summed
        assert c.Yq is not None
        layer.dW_Q[...] = np.dot(c.Yq.T, dQ)  # (d, B·r) @ (B·r, d)
        layer.dW_QKV[:, d:] = np.dot(c.Y.T, dQKV)  # (d, N) @ (N, 2d)
        dY = np.dot(dQKV, layer.W_QKV[:, d:].T)  # (N, 2d) @ (2d, d): K's and V's shares
        dY.reshape(B, L, d)[np.arange(B)[:, None], c.at] += np.dot(dQ, layer.W_Q.T).reshape(
            B, Lq, d
        )  # the queries' share, at their positions (each position once per sequence)
        return dY

    @staticmethod
    def _even_rows(rows: np.ndarray | None, B: int, L: int) -> np.ndarray | None:
        """``rows`` (flat, sorted) as (B, r) positions when every sequence has the same number
        r of them, else None."""
        if rows is None or len(rows) % B:
            return None
        at = np.asarray(rows).reshape(B, -1)
        if not (at // L == np.arange(B)[:, None]).all():
            return None
        return at % L

    # ---- the whole model ------------------------------------------------------------------

    def forward(
        self, x: np.ndarray, rows: np.ndarray | None = None, every_query: bool = False
    ) -> tuple[np.ndarray, list[_LayerCache], tuple]:
        """Logits (V, N) — transposed, as the loss reads them — and what backward needs.

        ``rows``: flat indices into the N = B·L positions (sorted); only their logits are made,
        (V, R). When every sequence has as many (the induction task's loss reads 7 positions of
        32 in each), the last layer computes its queries, its feed-forward and the final norm
        at those positions alone: nothing else reaches the loss (``every_query``: all the same,
        for every layer's whole map of weights)."""
        arch = self.arch
        B, L = x.shape
        N = B * L
        flat = x.reshape(N)
        at = None if every_query else self._even_rows(rows, B, L)
        H = np.take(self.E, flat, axis=0)  # (N, d) each token's row of E
        if self.P is not None:
            H3 = H.reshape(B, L, -1)  # a view of H
            H3 += self.P  # the same position vectors in every sequence
        caches = []
        for n, layer in enumerate(self.layers):
            if arch.norm:
                Y, ln1 = self._norm(H, layer.ln1_g, layer.ln1_b)
            else:
                Y, ln1 = H, None
            last_at = at if n == len(self.layers) - 1 else None
            (QKV, Yq, q, k, v, A, Zc), attended = self._attention(Y, layer, B, L, last_at)
            H_q = H if last_at is None else H[rows]  # the stream at the query positions
            c = _LayerCache(H, Y, ln1, QKV, A, Zc, H_q + attended, q=q, k=k, v=v, Yq=Yq,
                            at=last_at)  # fmt: skip
            H = c.H_mid
            if arch.feed_forward:
                if arch.norm:
                    c.Y2, c.ln2 = self._norm(H, layer.ln2_g, layer.ln2_b)
                else:
                    c.Y2 = H
                c.Hf = np.dot(c.Y2, layer.W1)  # (N, F)
                c.Hf += layer.b1
                c.R = np.maximum(c.Hf, 0.0)  # relu
                F = np.dot(c.R, layer.W2)  # (N, d)
                F += layer.b2
                H = F + H  # residual
            caches.append(c)
        if arch.norm:
            U, lnf = self._norm(H, self.lnf_g, self.lnf_b)
        else:
            U, lnf = H, None
        if rows is not None and at is None:
            U = U[rows]  # (R, d) the positions the loss reads
        logits = np.dot(self.W_out.T, U.T)  # (V, d) @ (d, N): reductions over V rows are fast
        logits += self.b_out_col
        return logits, caches, (flat, U, lnf, at)

    def _softmax_cross_entropy(self, logits: np.ndarray, y: np.ndarray):
        """Softmax of each column of logits (V, N), in place; returns the cross-entropy of
        the targets y (N values) averaged over the N positions, and the targets one-hot
        (V, N)."""
        N = logits.shape[1]
        Yt = self.eye[:, y.reshape(N)]  # (V, N) one-hot targets
        logits -= logits.max(axis=0)  # shift each column: largest logit 0, so exp ≤ 1
        target_logits = float(np.vdot(logits, Yt))  # Σ over positions of the right logit
        np.exp(logits, out=logits)
        sumexp = self._ones(self.arch.vocab) @ logits  # (N,) Σ over the V symbols
        logits /= sumexp  # probabilities
        return (float(np.log(sumexp).sum()) - target_logits) / N, Yt

    @staticmethod
    def _targets(y: np.ndarray, rows: np.ndarray | None) -> np.ndarray:
        flat = np.asarray(y).reshape(-1)
        return flat if rows is None else flat[rows]

    def loss(self, x: np.ndarray, y: np.ndarray, rows: np.ndarray | None = None) -> float:
        """The loss alone (no gradients)."""
        logits, _, _ = self.forward(np.asarray(x), rows)
        return self._softmax_cross_entropy(logits, self._targets(y, rows))[0]

    def loss_and_grads(self, x: np.ndarray, y: np.ndarray, rows: np.ndarray | None = None) -> float:
        """Cross-entropy of the targets y (B, L), averaged over all B·L positions (or over the
        flat positions ``rows`` alone); fills ``self.grads`` and returns the loss."""
        arch = self.arch
        B, L = x.shape
        N = B * L
        logits, caches, (flat, U, lnf, at) = self.forward(x, rows)
        loss, Yt = self._softmax_cross_entropy(logits, self._targets(y, rows))
        R = logits.shape[1]  # the positions the loss reads

        # ---- backward --------------------------------------------------------------------
        dlogits = logits  # backprop through softmax + cross-entropy: (p − y) / R
        dlogits -= Yt
        dlogits *= 1.0 / R
        np.dot(U.T, dlogits.T, out=self.dW_out)  # (d, R) @ (R, V)
        np.dot(dlogits, self._ones(R), out=self.db_out)
        dH = np.dot(dlogits.T, self.W_out.T)  # (R, V) @ (V, d)
        if rows is not None and at is None:  # the other positions' outputs are not read
            dH_all = np.zeros((N, dH.shape[1]), dH.dtype)
            dH_all[rows] = dH
            dH = dH_all
        if arch.norm:
            dH = self._norm_back(dH, lnf, self.lnf_g, self.dlnf_g, self.dlnf_b)

        for layer, c in zip(reversed(self.layers), reversed(caches), strict=True):
            M = len(c.H_mid)  # N, or B·r for a last layer that queried r positions
            if arch.feed_forward:  # H_out = H_mid + relu(Y2 W1 + b1) W2 + b2
                assert c.R is not None and c.Hf is not None and c.Y2 is not None
                np.dot(c.R.T, dH, out=layer.dW2)  # (F, M) @ (M, d)
                np.dot(self._ones(M), dH, out=layer.db2)
                dHf = np.dot(dH, layer.W2.T)  # (M, F)
                dHf *= c.Hf > 0  # backprop through relu
                np.dot(c.Y2.T, dHf, out=layer.dW1)  # (d, M) @ (M, F)
                np.dot(self._ones(M), dHf, out=layer.db1)
                dY2 = np.dot(dHf, layer.W1.T)  # (M, d)
                if arch.norm:
                    assert c.ln2 is not None
                    dY2 = self._norm_back(dY2, c.ln2, layer.ln2_g, layer.dln2_g, layer.dln2_b)
                dY2 += dH  # the residual carries dH past the block
                dH = dY2
            dY = self._attention_back(dH, c, layer, B, L)  # H_mid = H_in + attention(Y)
            if arch.norm:
                assert c.ln1 is not None
                dY = self._norm_back(dY, c.ln1, layer.ln1_g, layer.dln1_g, layer.dln1_b)
            if c.at is None:
                dY += dH  # the residual
            else:  # the residual, at the queried positions
                dY[rows] += dH
            dH = dY

        X1 = self.eye[flat]  # (N, V) one-hot
        np.dot(X1.T, dH, out=self.dE)  # (V, N) @ (N, d): each symbol's rows summed
        if arch.positions == "learned":
            np.dot(self._ones(B), dH.reshape(B, -1), out=self.dP.reshape(-1))  # Σ over sequences
        return loss

    def predict(
        self, x: np.ndarray, rows: np.ndarray | None = None
    ) -> tuple[np.ndarray, np.ndarray]:
        """Predictions (B, L) — or at the flat positions ``rows`` alone, (R,) — and every
        layer's weights (B, layers, heads, L, L)."""
        x = np.asarray(x)
        logits, caches, _ = self.forward(x, rows, every_query=True)
        pred = logits.argmax(axis=0)
        attn = np.stack([c.A for c in caches], axis=1)  # (B, layers, h, L, L)
        return (pred.reshape(x.shape) if rows is None else pred), attn
