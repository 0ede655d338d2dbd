"""The sequence-reversal model: a tanh RNN encoder and decoder, optionally with attention.

Task: read L symbols x_1..x_L from a 6-letter alphabet and write them back reversed.

    encoder   h_t = tanh(x_t Wxh + h_{t-1} Whh + bh)         h_0 = 0,  t = 1..L
    decoder   s_t = tanh(d_t Wxs + s_{t-1} Wss + bs)         s_0 = h_L
              d_t = one-hot of the previous target (teacher forcing), zero at t = 1
    attention a_t = softmax(s_t · [h_1..h_L] / √H)           (optional; no Wq/Wk/Wv:
              c_t = Σ_j a_tj h_j                               query = s_t, keys = values = h_j)
    output    y_t = softmax([s_t ; c_t] Why + by)            ([s_t] alone without attention)

Parameters (H = 16, V = 6): encoder 6·16 + 16·16 + 16 = 368, decoder the same, output
16·6 + 6 = 102, so 838; attention only widens the output layer to 32·6 + 6, so 934.
Row vectors throughout (``x @ W``), the way a batch is laid out in memory.

Why it is fast. For a model this small an iteration costs the *number* of numpy calls, not
the arithmetic, so the code is arranged to make few, large calls:

* all parameters live in one flat vector (and all gradients in another); ``Wxh`` etc. are views,
  so Adam and gradient clipping are a handful of calls over 838 numbers, not 8 × that;
* the input projections, the output layer and the loss run for every time step at once
  (teacher forcing makes all decoder inputs known up front), and attention runs for every
  decoder step at once because the context feeds only the output layer, not the recurrence;
* only the recurrence itself loops over time: three calls per step forward and backward;
* buffers are allocated once per (batch, length) and written with ``out=``.

One buffer ``Hs`` holds the whole chain of states, time-major: rows 0..L are the encoder's
h_0..h_L and rows L+1..2L the decoder's s_1..s_L, so the decoder simply continues from row L
(s_0 = h_L) and backpropagation through time is one loop over 2L rows. With attention each
decoder row also carries its context in columns H..2H, so rows L+1..2L *are* the output
layer's input [s_t ; c_t], with no concatenation.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

ALPHABET = "ABCDEF"  # the 6 symbols, shown as letters
VOCAB = len(ALPHABET)
HIDDEN = 16


def param_shapes(
    attention: bool, hidden: int = HIDDEN, vocab: int = VOCAB
) -> list[tuple[str, tuple[int, ...]]]:
    """Name and shape of every parameter, in the order they sit in the flat vector."""
    features = 2 * hidden if attention else hidden  # the output layer reads [s_t ; c_t] or s_t
    return [
        ("Wxh", (vocab, hidden)), ("Whh", (hidden, hidden)), ("bh", (hidden,)),  # encoder
        ("Wxs", (vocab, hidden)), ("Wss", (hidden, hidden)), ("bs", (hidden,)),  # decoder
        ("Why", (features, vocab)), ("by", (vocab,)),  # output layer
    ]  # fmt: skip


def count_params(attention: bool, hidden: int = HIDDEN, vocab: int = VOCAB) -> int:
    """838 without attention, 934 with it (H = 16, V = 6)."""
    return sum(math.prod(shape) for _, shape in param_shapes(attention, hidden, vocab))


def reverse_task(x: np.ndarray) -> np.ndarray:
    """The targets: each sequence (a row of x) reversed."""
    return x[..., ::-1]


@dataclass(frozen=True)
class Batch:
    """A batch of sequences as the model reads it: one-hot, time-major."""

    x: np.ndarray  # (B, L) int     the sequences
    X: np.ndarray  # (L, B, V)      encoder inputs, one-hot of x
    Y: np.ndarray  # (L, B, V)      targets, one-hot of x reversed
    D: np.ndarray  # (L, B, V)      decoder inputs: zeros at t = 1, then Y shifted by one step


def one_hot_batches(xs: np.ndarray, dtype: np.dtype | type = np.float32) -> list[Batch]:
    """Turn a block of K batches ``xs`` (K, B, L) into K Batches with three numpy calls."""
    eye = np.eye(VOCAB, dtype=dtype)
    X = eye[xs.transpose(0, 2, 1)]  # (K, L, B, V)
    Y = np.ascontiguousarray(X[:, ::-1])  # reversal = the same one-hots in reverse time order
    D = np.zeros_like(X)
    D[:, 1:] = Y[:, :-1]  # teacher forcing: step t sees the target of step t-1
    return [Batch(xs[k], X[k], Y[k], D[k]) for k in range(xs.shape[0])]


def one_hot_batch(x: np.ndarray, dtype: np.dtype | type = np.float32) -> Batch:
    return one_hot_batches(np.asarray(x)[None], dtype)[0]


class _Workspace:
    """Every buffer one training step needs for a given (batch, length), with per-step views."""

    def __init__(self, B: int, L: int, H: int, V: int, attention: bool, dtype: np.dtype) -> None:
        F = 2 * H if attention else H
        self.L, self.B = L, B
        self.Hs = np.zeros((2 * L + 1, B, F), dtype)  # states h_0..h_L, s_1..s_L (+ contexts)
        self.dHs = np.zeros((2 * L + 1, B, F), dtype)  # dLoss/dHs
        self.P = np.empty((2 * L, B, H), dtype)  # input part of each pre-activation
        self.dP = np.empty((2 * L, B, H), dtype)  # dLoss/d(pre-activation)
        self.dtanh = np.empty((2 * L, B, H), dtype)  # 1 - h², for rows 1..2L
        self.tmp = np.empty((B, H), dtype)
        self.dnext = np.empty((B, H), dtype)  # gradient flowing to the previous state
        self.logits = np.empty((L * B, V), dtype)  # becomes the softmax, then dLoss/dlogits
        # Views, made once: h[r] is row r's state (B, H); the flat views feed batched matmuls.
        self.h = [self.Hs[r, :, :H] for r in range(2 * L + 1)]
        self.dh = [self.dHs[r, :, :H] for r in range(2 * L + 1)]
        self.P_enc = self.P[:L].reshape(L * B, H)
        self.P_dec = self.P[L:].reshape(L * B, H)
        self.dP_enc = self.dP[:L].reshape(L * B, H)
        self.dP_dec = self.dP[L:].reshape(L * B, H)
        self.h_prev_enc = self.Hs[:L, :, :H].reshape(L * B, H)  # h_0..h_{L-1}
        self.h_prev_dec = self.Hs[L : 2 * L, :, :H].reshape(L * B, H)  # s_0..s_{L-1}
        self.states = self.Hs[1:, :, :H]  # (2L, B, H) every state after h_0
        self.Z = self.Hs[L + 1 :].reshape(L * B, F)  # output-layer input, all steps
        self.dZ = self.dHs[L + 1 :].reshape(L * B, F)
        if attention:  # batch-first views of the same memory for the batched matmuls
            self.K = self.Hs[1 : L + 1, :, :H].transpose(1, 0, 2)  # (B, Li, H) keys = values
            self.Q = self.Hs[L + 1 :, :, :H].transpose(1, 0, 2)  # (B, Lo, H) queries s_t
            self.C = self.Hs[L + 1 :, :, H:].transpose(1, 0, 2)  # (B, Lo, H) contexts c_t
            self.dK = self.dHs[1 : L + 1, :, :H].transpose(1, 0, 2)
            self.dQ = self.dHs[L + 1 :, :, :H].transpose(1, 0, 2)
            self.dC = self.dHs[L + 1 :, :, H:].transpose(1, 0, 2)
            self.A = np.empty((B, L, L), dtype)  # (B, Lo, Li) attention weights
            self.dA = np.empty((B, L, L), dtype)
            self.tmpA = np.empty((B, L, L), dtype)


class ReversalRNN:
    """Encoder-decoder tanh RNN with hand-written backpropagation through time.

    ``params`` / ``grads`` are flat vectors; ``Wxh``, ``dWxh`` ... are views into them.
    """

    def __init__(
        self,
        attention: bool = False,
        *,
        hidden: int = HIDDEN,
        vocab: int = VOCAB,
        dtype: np.dtype | type = np.float32,
        rng: np.random.Generator | None = None,
    ) -> None:
        self.attention = attention
        self.H, self.V = hidden, vocab
        self.dtype = np.dtype(dtype)
        self.shapes = param_shapes(attention, hidden, vocab)
        n = count_params(attention, hidden, vocab)
        self.params = np.empty(n, self.dtype)
        self.grads = np.zeros(n, self.dtype)
        self.slices: dict[str, slice] = {}
        start = 0
        for name, shape in self.shapes:
            size = math.prod(shape)
            self.slices[name] = slice(start, start + size)
            setattr(self, name, self.params[start : start + size].reshape(shape))
            setattr(self, "d" + name, self.grads[start : start + size].reshape(shape))
            start += size
        self.init(rng if rng is not None else np.random.default_rng(0))
        self._ws: _Workspace | None = None

    # declared for type checkers; set in __init__ as views into params / grads
    Wxh: np.ndarray
    Whh: np.ndarray
    bh: np.ndarray
    Wxs: np.ndarray
    Wss: np.ndarray
    bs: np.ndarray
    Why: np.ndarray
    by: np.ndarray
    dWxh: np.ndarray
    dWhh: np.ndarray
    dbh: np.ndarray
    dWxs: np.ndarray
    dWss: np.ndarray
    dbs: np.ndarray
    dWhy: np.ndarray
    dby: np.ndarray

    @property
    def n_params(self) -> int:
        return int(self.params.size)

    def init(self, rng: np.random.Generator) -> None:
        """Uniform in ±1/√fan_in, as PyTorch's nn.RNN and nn.Linear do."""
        for name, shape in self.shapes:
            fan_in = shape[0] if name == "Why" else self.H
            bound = 1.0 / math.sqrt(fan_in)
            self.params[self.slices[name]] = rng.uniform(-bound, bound, math.prod(shape))

    def _workspace(self, B: int, L: int) -> _Workspace:
        ws = self._ws
        if ws is None or ws.B != B or ws.L != L:
            ws = self._ws = _Workspace(B, L, self.H, self.V, self.attention, self.dtype)
        return ws

    def loss_and_grads(self, batch: Batch) -> float:
        """Teacher-forced forward pass and full BPTT; fills ``self.grads``, returns the loss.

        The loss is the cross-entropy averaged over every predicted symbol (L·B of them).
        """
        X, Y, D = batch.X, batch.Y, batch.D  # (L, B, V) each
        L, B, V = X.shape
        H = self.H
        N = L * B
        ws = self._workspace(B, L)
        h, dh, P = ws.h, ws.dh, ws.P

        # ---- forward -------------------------------------------------------------------
        # input projections of all steps at once; a one-hot row times W picks a row of W
        np.matmul(X.reshape(N, V), self.Wxh, out=ws.P_enc)  # (L·B, H)
        ws.P_enc += self.bh
        np.matmul(D.reshape(N, V), self.Wxs, out=ws.P_dec)  # (L·B, H); d_1 = 0 → only bs
        ws.P_dec += self.bs

        # the recurrence: rows 1..L are the encoder, rows L+1..2L the decoder (s_0 = h_L)
        for r in range(1, 2 * L + 1):
            W = self.Whh if r <= L else self.Wss
            np.matmul(h[r - 1], W, out=ws.tmp)  # (B, H)
            ws.tmp += P[r - 1]
            np.tanh(ws.tmp, out=h[r])  # (B, H) written into Hs[r, :, :H]

        if self.attention:  # all decoder steps at once: (B, Lo, H) · (B, H, Li)
            A, K = ws.A, ws.K
            np.matmul(ws.Q, K.transpose(0, 2, 1), out=A)  # (B, Lo, Li) scores s_t · h_j
            A *= 1.0 / math.sqrt(H)
            # |s_t · h_j| ≤ H since tanh ∈ (-1, 1), so scaled scores lie in [-√H, √H]:
            # exp cannot overflow and the usual max-shift is unnecessary.
            np.exp(A, out=A)
            A /= A.sum(axis=2, keepdims=True)  # softmax over input positions
            np.matmul(A, K, out=ws.C)  # (B, Lo, H) c_t = Σ_j a_tj h_j, into Hs[L+1:, :, H:]

        # output layer and softmax cross-entropy, every step at once
        logits = ws.logits
        np.matmul(ws.Z, self.Why, out=logits)  # (L·B, F) @ (F, V)
        logits += self.by
        logits -= logits.max(axis=1, keepdims=True)  # shift: largest logit 0, exp ≤ 1
        Yf = Y.reshape(N, V)
        target_logit_sum = float(np.vdot(logits, Yf))  # Σ logit of the right symbol
        np.exp(logits, out=logits)
        sumexp = logits.sum(axis=1, keepdims=True)  # (L·B, 1)
        loss = (float(np.log(sumexp).sum()) - target_logit_sum) / N
        prob = logits
        prob /= sumexp  # (L·B, V) softmax

        # ---- backward ------------------------------------------------------------------
        dlogits = prob  # backprop through softmax + cross-entropy: (p − y) / N
        dlogits -= Yf
        dlogits *= 1.0 / N
        np.matmul(ws.Z.T, dlogits, out=self.dWhy)  # (F, V)
        np.sum(dlogits, axis=0, out=self.dby)
        np.matmul(dlogits, self.Why.T, out=ws.dZ)  # (L·B, F) → dHs rows L+1..2L: ds_t, dc_t

        if self.attention:
            A, K, Q, dA = ws.A, ws.K, ws.Q, ws.dA
            np.matmul(ws.dC, K.transpose(0, 2, 1), out=dA)  # (B, Lo, Li) via c = A K
            np.matmul(A.transpose(0, 2, 1), ws.dC, out=ws.dK)  # (B, Li, H) values' share
            # backprop through softmax: dscore = a ⊙ (da − Σ_j a_j da_j)
            np.multiply(dA, A, out=ws.tmpA)
            dA -= ws.tmpA.sum(axis=2, keepdims=True)
            dA *= A
            dA *= 1.0 / math.sqrt(H)  # backprop through the 1/√H scaling
            ws.dQ += dA @ K  # (B, Lo, H) queries' share: the decoder states
            ws.dK += dA.transpose(0, 2, 1) @ Q  # (B, Li, H) keys' share: the encoder states

        # backprop through time, rows 2L..1: dh_r (direct) + dnext (from row r+1)
        np.multiply(ws.states, ws.states, out=ws.dtanh)
        np.subtract(1.0, ws.dtanh, out=ws.dtanh)  # tanh' = 1 − h², all rows at once
        dnext, dP = ws.dnext, ws.dP
        for r in range(2 * L, 0, -1):
            if r < 2 * L:
                dh[r] += dnext
            np.multiply(dh[r], ws.dtanh[r - 1], out=dP[r - 1])  # backprop through tanh
            if r > 1:  # nothing needs dLoss/dh_0
                WT = self.Whh.T if r <= L else self.Wss.T
                np.matmul(dP[r - 1], WT, out=dnext)  # (B, H) to the previous state

        # weight gradients, summed over every step at once
        np.matmul(ws.h_prev_enc.T, ws.dP_enc, out=self.dWhh)  # (H, L·B) @ (L·B, H)
        np.matmul(ws.h_prev_dec.T, ws.dP_dec, out=self.dWss)
        np.matmul(X.reshape(N, V).T, ws.dP_enc, out=self.dWxh)  # (V, L·B) @ (L·B, H)
        np.matmul(D.reshape(N, V).T, ws.dP_dec, out=self.dWxs)
        np.sum(ws.dP_enc, axis=0, out=self.dbh)
        np.sum(ws.dP_dec, axis=0, out=self.dbs)
        return loss

    def greedy(self, x: np.ndarray) -> tuple[np.ndarray, np.ndarray | None]:
        """Decode without teacher forcing: the decoder is fed its own previous prediction.

        Returns the predictions (N, L) and, with attention, the weights (N, Lo, Li).
        Written step by step for clarity; it runs only at evaluation time.
        """
        x = np.asarray(x)
        N, L = x.shape
        H = self.H
        keys = np.empty((N, L, H), self.dtype)  # h_1..h_L
        h = np.zeros((N, H), self.dtype)
        for t in range(L):
            h = np.tanh(self.Wxh[x[:, t]] + h @ self.Whh + self.bh)
            keys[:, t] = h
        s = h  # s_0 = h_L
        d_in = np.zeros((N, H), self.dtype)  # d_1 = 0: no previous symbol
        pred = np.empty((N, L), np.int64)
        attn = np.empty((N, L, L), self.dtype) if self.attention else None
        for t in range(L):
            s = np.tanh(d_in + s @ self.Wss + self.bs)  # (N, H)
            features = s
            if attn is not None:
                scores = np.einsum("nh,njh->nj", s, keys) / math.sqrt(H)  # (N, Li)
                a = np.exp(scores)  # bounded scores, see loss_and_grads
                a /= a.sum(axis=1, keepdims=True)
                attn[:, t] = a
                context = np.einsum("nj,njh->nh", a, keys)  # (N, H)
                features = np.concatenate([s, context], axis=1)  # (N, 2H)
            y = np.argmax(features @ self.Why + self.by, axis=1)  # (N,)
            pred[:, t] = y
            d_in = self.Wxs[y]  # the next step is fed this prediction
        return pred, attn
