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
* only the recurrence itself loops over time: three calls per step, forward and backward;
* buffers are allocated once per (batch, length) and written with ``out=``.

One buffer ``S`` holds the whole chain of states, time-major: rows 0..L are the encoder's
h_0..h_L and rows L+1..2L the decoder's s_1..s_L, so the decoder simply continues from row L
(s_0 = h_L) and backpropagation through time is one loop over 2L rows. Other choices come
from measurement: ``np.dot`` costs about half of ``np.matmul`` on 2-D operands; the logits
are kept transposed, (V, N), because reducing over 6 rows is several times faster than over
6 columns; row sums are ``ones @ M``.
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
    D: np.ndarray  # (L, B, V)      decoder inputs: zeros at t = 1, then the target of step t-1
    Yt: np.ndarray  # (V, L, B)     targets (x reversed), one-hot, symbol axis first


def one_hot_batches(xs: np.ndarray, dtype: np.dtype | type = np.float32) -> list[Batch]:
    """Turn a block of K batches ``xs`` (K, B, L) into K Batches with a few numpy calls."""
    eye = np.eye(VOCAB, dtype=dtype)
    X = eye[xs.transpose(0, 2, 1)]  # (K, L, B, V)
    Y = X[:, ::-1]  # reversal = the same one-hots in reverse time order
    D = np.zeros_like(X)
    D[:, 1:] = Y[:, :-1]  # teacher forcing: step t is fed the target of step t-1
    Yt = np.ascontiguousarray(Y.transpose(0, 3, 1, 2))  # (K, V, L, B)
    return [Batch(xs[k], X[k], D[k], Yt[k]) for k in range(xs.shape[0])]


def one_hot_batch(x: np.ndarray, dtype: np.dtype | type = np.float32) -> Batch:
    """One batch ``x`` (B, L) as a Batch."""
    return one_hot_batches(np.asarray(x)[None], dtype)[0]


class _Workspace:
    """Every buffer one training step needs for a given (batch, length), and views into them.

    Time-major, so that the state of step r, ``S[r]`` (B, H), is one contiguous block.
    """

    def __init__(self, B: int, L: int, H: int, V: int, attention: bool, dtype: np.dtype) -> None:
        N = L * B  # predictions per batch
        self.B, self.L = B, L
        self.S = np.zeros((2 * L + 1, B, H), dtype)  # h_0..h_L, s_1..s_L  (h_0 stays 0)
        self.dS = np.zeros((2 * L + 1, B, H), dtype)  # dLoss/dS
        self.P = np.empty((2 * L, B, H), dtype)  # input part of the pre-activation, rows 1..2L
        self.dP = np.empty((2 * L, B, H), dtype)  # dLoss/d(pre-activation)
        self.dtanh = np.empty((2 * L, B, H), dtype)  # 1 − S², rows 1..2L
        self.tmp = np.empty((B, H), dtype)
        self.dnext = np.empty((B, H), dtype)  # gradient flowing back to the previous state
        self.logits = np.empty((V, N), dtype)  # transposed: reductions over 6 rows are fast
        self.colmax = np.empty(N, dtype)
        self.sumexp = np.empty(N, dtype)
        self.ones_N = np.ones(N, dtype)  # ones @ M sums the rows of M, faster than M.sum(0)
        # flat views of the same memory for the all-steps-at-once matmuls
        self.P_enc, self.P_dec = self.P[:L].reshape(N, H), self.P[L:].reshape(N, H)
        self.dP_enc, self.dP_dec = self.dP[:L].reshape(N, H), self.dP[L:].reshape(N, H)
        self.S_prev_enc = self.S[:L].reshape(N, H)  # h_0..h_{L-1}, inputs to each encoder step
        self.S_prev_dec = self.S[L : 2 * L].reshape(N, H)  # s_0..s_{L-1} (s_0 = h_L)
        self.S_dec = self.S[L + 1 :]  # (Lo, B, H) s_1..s_L
        self.dS_dec = self.dS[L + 1 :]
        if attention:
            # the output layer reads Z = [s_t ; c_t]; attention works batch-first
            self.Z = np.empty((L, B, 2 * H), dtype)
            self.dZ = np.empty((L, B, 2 * H), dtype)
            self.K = np.empty((B, L, H), dtype)  # keys = values = h_1..h_L
            self.Q = np.empty((B, L, H), dtype)  # queries s_1..s_L
            self.C = np.empty((B, L, H), dtype)  # contexts c_1..c_L
            self.dK = np.empty((B, L, H), dtype)
            self.dC = np.empty((B, L, H), dtype)
            self.A = np.empty((B, L, L), dtype)  # (B, Lo, Li) weights; rows sum to 1
            self.dA = np.empty((B, L, L), dtype)
            self.tmpA = np.empty((B, L, L), dtype)
            self.rowsum = np.empty((B, L, 1), dtype)
            self.A2, self.tmpA2 = self.A.reshape(B * L, L), self.tmpA.reshape(B * L, L)
            self.rowsum1 = self.rowsum.reshape(B * L)
            self.ones_L = np.ones(L, dtype)
            self.Z_flat, self.dZ_flat = self.Z.reshape(N, 2 * H), self.dZ.reshape(N, 2 * H)
        else:
            self.Z_flat = self.S_dec.reshape(N, H)  # the output layer reads s_t alone
            self.dZ_flat = self.dS_dec.reshape(N, H)


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
        self.by_col = self.by.reshape(vocab, 1)  # for the transposed logits
        self.init(rng if rng is not None else np.random.default_rng(0))
        self._ws: _Workspace | None = None

    # views into params / grads, set in __init__ (declared for type checkers)
    Wxh: np.ndarray  # (V, H)   encoder input → state
    Whh: np.ndarray  # (H, H)   encoder state → state
    bh: np.ndarray  # (H,)
    Wxs: np.ndarray  # (V, H)   decoder input → state
    Wss: np.ndarray  # (H, H)   decoder state → state
    bs: np.ndarray  # (H,)
    Why: np.ndarray  # (F, V)  [s ; c] → logits, F = H or 2H
    by: np.ndarray  # (V,)
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
        L, B, V = batch.X.shape
        H, N = self.H, L * B
        ws = self._workspace(B, L)
        S, dS, P, dP = ws.S, ws.dS, ws.P, ws.dP
        X = batch.X.reshape(N, V)
        D = batch.D.reshape(N, V)
        Yt = batch.Yt.reshape(V, N)

        # ---- forward -------------------------------------------------------------------
        # input projections of all steps at once (a one-hot row times W picks a row of W)
        np.dot(X, self.Wxh, out=ws.P_enc)  # (N, V) @ (V, H)
        ws.P_enc += self.bh
        np.dot(D, self.Wxs, out=ws.P_dec)  # d_1 = 0, so step 1 gets bs alone
        ws.P_dec += self.bs

        # the recurrence: rows 1..L are the encoder, L+1..2L the decoder, which starts at h_L
        for r in range(1, 2 * L + 1):
            np.dot(S[r - 1], self.Whh if r <= L else self.Wss, out=ws.tmp)  # (B, H)
            ws.tmp += P[r - 1]
            np.tanh(ws.tmp, out=S[r])

        if self.attention:  # every decoder step at once, batch first: (B, Lo, H) · (B, H, Li)
            A, K, Q = ws.A, ws.K, ws.Q
            np.copyto(K, S[1 : L + 1].transpose(1, 0, 2))  # (B, Li, H)
            np.copyto(Q, ws.S_dec.transpose(1, 0, 2))  # (B, Lo, H)
            np.matmul(Q, K.transpose(0, 2, 1), out=A)  # (B, Lo, Li) scores s_t · h_j
            # |s_t · h_j| < H because tanh ∈ (−1, 1), so the scaled scores stay inside ±√H:
            # exp cannot overflow and softmax needs no max-shift.
            A *= 1.0 / math.sqrt(H)
            np.exp(A, out=A)
            np.dot(ws.A2, ws.ones_L, out=ws.rowsum1)  # Σ_j over input positions
            A /= ws.rowsum  # softmax: each row of A sums to 1
            np.matmul(A, K, out=ws.C)  # (B, Lo, H) c_t = Σ_j a_tj h_j
            np.copyto(ws.Z[:, :, :H], ws.S_dec)  # Z = [s_t ; c_t]  (Lo, B, 2H)
            np.copyto(ws.Z[:, :, H:], ws.C.transpose(1, 0, 2))

        # output layer and softmax cross-entropy, all steps at once, transposed: (V, N)
        logits = ws.logits
        np.dot(self.Why.T, ws.Z_flat.T, out=logits)  # (V, F) @ (F, N)
        logits += self.by_col
        np.maximum.reduce(logits, axis=0, out=ws.colmax)
        logits -= ws.colmax  # shift each column: largest logit 0, so exp ≤ 1
        target_logits = float(np.vdot(logits, Yt))  # Σ over predictions of the right logit
        np.exp(logits, out=logits)
        np.add.reduce(logits, axis=0, out=ws.sumexp)  # (N,)
        loss = (float(np.add.reduce(np.log(ws.sumexp))) - target_logits) / N
        logits /= ws.sumexp  # (V, N) softmax probabilities

        # ---- backward ------------------------------------------------------------------
        dlogits = logits  # backprop through softmax + cross-entropy: (p − y) / N
        dlogits -= Yt
        dlogits *= 1.0 / N
        np.dot(ws.Z_flat.T, dlogits.T, out=self.dWhy)  # (F, N) @ (N, V)
        np.add.reduce(dlogits, axis=1, out=self.dby)
        np.dot(dlogits.T, self.Why.T, out=ws.dZ_flat)  # (N, V) @ (V, F) → ds_t (and dc_t)

        if self.attention:
            A, K, Q, dA, dK, dC = ws.A, ws.K, ws.Q, ws.dA, ws.dK, ws.dC
            np.copyto(ws.dS_dec, ws.dZ[:, :, :H])  # the s_t half of dZ
            np.copyto(dC, ws.dZ[:, :, H:].transpose(1, 0, 2))  # (B, Lo, H)
            np.matmul(dC, K.transpose(0, 2, 1), out=dA)  # (B, Lo, Li)   from c = A K
            np.matmul(A.transpose(0, 2, 1), dC, out=dK)  # (B, Li, H)    values' share
            # backprop through softmax: dscore_tj = a_tj (da_tj − Σ_k a_tk da_tk)
            np.multiply(dA, A, out=ws.tmpA)
            np.dot(ws.tmpA2, ws.ones_L, out=ws.rowsum1)
            dA -= ws.rowsum
            dA *= A
            dA *= 1.0 / math.sqrt(H)  # backprop through the 1/√H scaling
            dK += dA.transpose(0, 2, 1) @ Q  # (B, Li, H)  keys' share
            ws.dS_dec += (dA @ K).transpose(1, 0, 2)  # (Lo, B, H)  queries' share
            np.copyto(dS[1 : L + 1], dK.transpose(1, 0, 2))  # encoder states h_1..h_L
        else:  # encoder states reach the loss only through h_L; clear last batch's sums
            dS[1 : L + 1].fill(0.0)

        # backprop through time, rows 2L..1: gradient from above plus from row r+1
        np.multiply(S[1:], S[1:], out=ws.dtanh)
        np.subtract(1.0, ws.dtanh, out=ws.dtanh)  # tanh' = 1 − S², every row at once
        dnext = ws.dnext
        for r in range(2 * L, 0, -1):
            if r < 2 * L:
                dS[r] += dnext
            np.multiply(dS[r], ws.dtanh[r - 1], out=dP[r - 1])  # backprop through tanh
            if r > 1:  # (nothing needs the gradient of h_0)
                np.dot(dP[r - 1], (self.Whh if r <= L else self.Wss).T, out=dnext)  # (B, H)

        # weight gradients, summed over every step at once
        np.dot(ws.S_prev_enc.T, ws.dP_enc, out=self.dWhh)  # (H, N) @ (N, H)
        np.dot(ws.S_prev_dec.T, ws.dP_dec, out=self.dWss)
        np.dot(X.T, ws.dP_enc, out=self.dWxh)  # (V, N) @ (N, H)
        np.dot(D.T, ws.dP_dec, out=self.dWxs)
        np.dot(ws.ones_N, ws.dP_enc, out=self.dbh)  # Σ over steps and batch
        np.dot(ws.ones_N, ws.dP_dec, out=self.dbs)
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
