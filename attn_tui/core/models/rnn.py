"""The sequence-reversal model: a tanh RNN encoder and decoder, optionally with attention.

Task: read L symbols x_1..x_L from a 6-letter alphabet and write them back reversed.

    encoder   h_t = tanh(x_t Wxh + h_{t-1} Whh + bh)         h_0 = 0,  t = 1..L
    decoder   s_t = tanh(d_t Wxs + s_{t-1} Wss + bs)         s_0 = h_L
              d_t = what the decoder is fed (``feed``):
                    "previous"  one-hot of the previous target (teacher forcing), zero at t = 1
                    "none"      nothing: d_t = 0 always, and Wxs does not exist
    attention a_t = softmax(score(s_t, h_1..h_L))            (optional; keys = values = h_j)
              c_t = Σ_j a_tj h_j
    output    y_t = softmax([s_t ; c_t] Why + by)            ([s_t] alone without attention)

The score (``score``) is one of

    "dot"      s_t · h_j / √H                 the textbook model: no new parameters
    "general"  (s_t Wa) · h_j / √H            one learned H×H matrix (Luong's "general")
    "qk"       (s_t Wq) · (h_j Wk) / √H       a query and a key projection, as in a Transformer

Parameters (H = 16, V = 6): encoder 6·16 + 16·16 + 16 = 368, decoder the same, output
16·6 + 6 = 102, so 838; attention widens the output layer to 32·6 + 6, so 934 with "dot";
"general" adds 16·16 (1190), "qk" 2·16·16 (1446). ``feed="none"`` drops Wxs: 96 fewer.
Every count is computed from the shapes in :func:`param_shapes`.
Row vectors throughout (``x @ W``), the way a batch is laid out in memory.

Why it is fast. For a model this small an iteration costs the *number* of numpy calls, not
the arithmetic, so the code is arranged to make few, large calls:

* all parameters live in one flat vector (and all gradients in another); ``Wxh`` etc. are views,
  so Adam and gradient clipping are a handful of calls over ~1000 numbers, not 8 × that;
* the input projections, the output layer and the loss run for every time step at once
  (teacher forcing makes all decoder inputs known up front), and attention runs for every
  decoder step at once because the context feeds only the output layer, not the recurrence;
* only the recurrence itself loops over time: three calls per step, forward and backward,
  over views made once per (batch, length), so the loop does no indexing of its own;
* buffers are allocated once per (batch, length) and written with ``out=`` (passed
  positionally: a keyword costs a dictionary per call).

One buffer ``S`` holds the whole chain of states, time-major: rows 0..L are the encoder's
h_0..h_L and rows L+1..2L the decoder's s_1..s_L, so the decoder simply continues from row L
(s_0 = h_L) and backpropagation through time is one loop over 2L rows. Other choices come
from measurement: ``np.dot`` costs about half of ``np.matmul`` on 2-D operands; the logits
are kept transposed, (V, N), because reducing over 6 rows is several times faster than over
6 columns; row sums are ``ones @ M``.

The "dot" model's arithmetic is exactly that of the first version of this file, operation for
operation, so a seed gives the same numbers to the last bit (``tests/train/test_pinned.py``).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

ALPHABET = "ABCDEF"  # the 6 symbols, shown as letters
VOCAB = len(ALPHABET)
HIDDEN = 16
SCORES = ("dot", "general", "qk")  # how a decoder state scores an encoder state
FEEDS = ("previous", "none")  # what the decoder reads at each step


def param_shapes(
    attention: bool,
    hidden: int = HIDDEN,
    vocab: int = VOCAB,
    *,
    score: str = "dot",
    feed: str = "previous",
) -> list[tuple[str, tuple[int, ...]]]:
    """Name and shape of every parameter, in the order they sit in the flat vector.

    The textbook model's eight come first, in their original order (so its initial weights,
    drawn in this order, do not depend on the variants); the score's matrices come last.
    """
    features = 2 * hidden if attention else hidden  # the output layer reads [s_t ; c_t] or s_t
    shapes = [
        ("Wxh", (vocab, hidden)), ("Whh", (hidden, hidden)), ("bh", (hidden,)),  # encoder
        ("Wxs", (vocab, hidden)), ("Wss", (hidden, hidden)), ("bs", (hidden,)),  # decoder
        ("Why", (features, vocab)), ("by", (vocab,)),  # output layer
    ]  # fmt: skip
    if feed == "none":
        shapes = [s for s in shapes if s[0] != "Wxs"]  # the decoder reads nothing
    if attention and score == "general":
        shapes.append(("Wa", (hidden, hidden)))
    elif attention and score == "qk":
        shapes += [("Wq", (hidden, hidden)), ("Wk", (hidden, hidden))]
    return shapes


def count_params(
    attention: bool,
    hidden: int = HIDDEN,
    vocab: int = VOCAB,
    *,
    score: str = "dot",
    feed: str = "previous",
) -> int:
    """838 without attention, 934 / 1190 / 1446 with dot / general / qk (H = 16, V = 6);
    96 fewer with ``feed="none"``."""
    shapes = param_shapes(attention, hidden, vocab, score=score, feed=feed)
    return sum(math.prod(shape) for _, shape in shapes)


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

    def __init__(self, model: ReversalRNN, B: int, L: int) -> None:
        H, V, dtype = model.H, model.V, model.dtype
        N = L * B  # predictions per batch
        self.B, self.L = B, L
        self.S = S = np.zeros((2 * L + 1, B, H), dtype)  # h_0..h_L, s_1..s_L  (h_0 stays 0)
        self.dS = dS = np.zeros((2 * L + 1, B, H), dtype)  # dLoss/dS
        self.P = P = np.empty((2 * L, B, H), dtype)  # input part of the pre-activation, rows 1..2L
        self.dP = dP = np.empty((2 * L, B, H), dtype)  # dLoss/d(pre-activation)
        self.dtanh = dtanh = np.empty((2 * L, B, H), dtype)  # 1 − S², rows 1..2L
        self.tmp = np.empty((B, H), dtype)
        self.dnext = np.empty((B, H), dtype)  # gradient flowing back to the previous state
        self.logits = np.empty((V, N), dtype)  # transposed: reductions over 6 rows are fast
        self.colmax = np.empty(N, dtype)
        self.sumexp = np.empty(N, dtype)
        self.ones_N = np.ones(N, dtype)  # ones @ M sums the rows of M, faster than M.sum(0)
        # flat views of the same memory for the all-steps-at-once matmuls
        self.P_enc, self.P_dec = P[:L].reshape(N, H), P[L:].reshape(N, H)
        self.dP_enc, self.dP_dec = dP[:L].reshape(N, H), dP[L:].reshape(N, H)
        self.S_prev_enc = S[:L].reshape(N, H)  # h_0..h_{L-1}, inputs to each encoder step
        self.S_prev_dec = S[L : 2 * L].reshape(N, H)  # s_0..s_{L-1} (s_0 = h_L)
        self.S_dec = S[L + 1 :]  # (Lo, B, H) s_1..s_L
        self.dS_dec = dS[L + 1 :]
        self.S_after, self.dtanh_flat = S[1:], dtanh  # rows 1..2L, for tanh' in one call
        # the recurrence's views, made once: row r reads S[r-1] and P[r-1] and writes S[r]
        Ws = [model.Whh if r <= L else model.Wss for r in range(1, 2 * L + 1)]
        self.forward_steps = [(S[r - 1], Ws[r - 1], P[r - 1], S[r]) for r in range(1, 2 * L + 1)]
        # backward, r = 2L..1: dP[r-1] = dS[r] ⊙ tanh'; then dnext = dP[r-1] Wᵀ (not for r = 1)
        self.backward_steps = [
            (dS[r], dtanh[r - 1], dP[r - 1], Ws[r - 1].T) for r in range(2 * L, 0, -1)
        ]
        if model.attention:
            # the output layer reads Z = [s_t ; c_t]; attention works batch-first
            self.Z = np.empty((L, B, 2 * H), dtype)
            self.dZ = np.empty((L, B, 2 * H), dtype)
            self.K = np.empty((B, L, H), dtype)  # keys = values = h_1..h_L
            self.Q = np.empty((B, L, H), dtype)  # queries s_1..s_L
            self.C = np.empty((B, L, H), dtype)  # contexts c_1..c_L
            self.dK = np.empty((B, L, H), dtype)
            self.dC = np.empty((B, L, H), dtype)
            self.tmpK = np.empty((B, L, H), dtype)
            self.A = np.empty((B, L, L), dtype)  # (B, Lo, Li) weights; rows sum to 1
            self.dA = np.empty((B, L, L), dtype)
            self.tmpA = np.empty((B, L, L), dtype)
            self.rowsum = np.empty((B, L, 1), dtype)
            self.A2, self.tmpA2 = self.A.reshape(B * L, L), self.tmpA.reshape(B * L, L)
            self.rowsum1 = self.rowsum.reshape(B * L)
            self.ones_L = np.ones(L, dtype)
            self.Z_flat, self.dZ_flat = self.Z.reshape(N, 2 * H), self.dZ.reshape(N, 2 * H)
            self.Z_s, self.Z_c = self.Z[:, :, :H], self.Z[:, :, H:]
            self.dZ_s, self.dZ_c = self.dZ[:, :, :H], self.dZ[:, :, H:]
            self.K_src, self.dK_dst = S[1 : L + 1].transpose(1, 0, 2), dS[1 : L + 1]
            self.Q_src = self.S_dec.transpose(1, 0, 2)
            if model.score in ("general", "qk"):
                # projected queries (and keys): flat (B·L, H) views for one matmul each
                self.Qp = np.empty((B, L, H), dtype)
                self.dQp = np.empty((B, L, H), dtype)
                self.dQ = np.empty((B, L, H), dtype)
                self.Q_flat, self.K_flat = self.Q.reshape(N, H), self.K.reshape(N, H)
                self.Qp_flat, self.dQp_flat = self.Qp.reshape(N, H), self.dQp.reshape(N, H)
                self.dQ_flat = self.dQ.reshape(N, H)
                self.tmpK_flat, self.dK_flat = self.tmpK.reshape(N, H), self.dK.reshape(N, H)
            if model.score == "qk":
                self.Kp = np.empty((B, L, H), dtype)
                self.dKp = np.empty((B, L, H), dtype)
                self.Kp_flat, self.dKp_flat = self.Kp.reshape(N, H), self.dKp.reshape(N, H)
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
        score: str = "dot",
        feed: str = "previous",
    ) -> None:
        if score not in SCORES or feed not in FEEDS:
            raise ValueError(f"score {score!r} / feed {feed!r}: expected one of {SCORES} / {FEEDS}")
        self.attention = attention
        self.score = score if attention else "dot"  # no attention: nothing is scored
        self.feed = feed
        self.H, self.V = hidden, vocab
        self.dtype = np.dtype(dtype)
        self.shapes = param_shapes(attention, hidden, vocab, score=self.score, feed=feed)
        n = sum(math.prod(shape) for _, shape in self.shapes)
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
    Wxs: np.ndarray  # (V, H)   decoder input → state (feed "previous" only)
    Wss: np.ndarray  # (H, H)   decoder state → state
    bs: np.ndarray  # (H,)
    Why: np.ndarray  # (F, V)  [s ; c] → logits, F = H or 2H
    by: np.ndarray  # (V,)
    Wa: np.ndarray  # (H, H)   score "general": s_t Wa · h_j
    Wq: np.ndarray  # (H, H)   score "qk": query projection
    Wk: np.ndarray  # (H, H)   score "qk": key projection
    dWxh: np.ndarray
    dWhh: np.ndarray
    dbh: np.ndarray
    dWxs: np.ndarray
    dWss: np.ndarray
    dbs: np.ndarray
    dWhy: np.ndarray
    dby: np.ndarray
    dWa: np.ndarray
    dWq: np.ndarray
    dWk: np.ndarray

    @property
    def n_params(self) -> int:
        return int(self.params.size)

    def init(self, rng: np.random.Generator) -> None:
        """Uniform in ±1/√fan_in, as PyTorch's nn.RNN and nn.Linear do (fan_in = H for the
        recurrent and attention matrices, the output layer's width for Why).

        The draws follow the previous-target model's shapes even when the decoder reads
        nothing (Wxs is drawn and dropped), so for one seed both feeds start from the same
        weights and differ only in what the decoder reads.
        """
        shapes = param_shapes(self.attention, self.H, self.V, score=self.score, feed="previous")
        for name, shape in shapes:
            fan_in = shape[0] if name == "Why" else self.H
            bound = 1.0 / math.sqrt(fan_in)
            values = rng.uniform(-bound, bound, math.prod(shape))
            if name in self.slices:
                self.params[self.slices[name]] = values

    def _workspace(self, B: int, L: int) -> _Workspace:
        ws = self._ws
        if ws is None or ws.B != B or ws.L != L:
            ws = self._ws = _Workspace(self, B, L)
        return ws

    # ---- attention scores: forward and backward side by side ---------------------------------
    # Each forward fills ws.A with the raw scores (B, Lo, Li) from Q = s_1..s_L and K = h_1..h_L
    # (batch first). Each backward receives ws.dA = dLoss/dscores and adds the keys' share to
    # ws.dK and the queries' share to the decoder states' gradient ws.dS_dec (Lo, B, H).

    def _score_dot(self, ws: _Workspace) -> None:
        np.matmul(ws.Q, ws.K.transpose(0, 2, 1), ws.A)  # s_t · h_j

    def _score_dot_backward(self, ws: _Workspace) -> None:
        np.matmul(ws.dA.transpose(0, 2, 1), ws.Q, ws.tmpK)  # keys' share: dscoreᵀ Q
        ws.dK += ws.tmpK
        ws.dS_dec += (ws.dA @ ws.K).transpose(1, 0, 2)  # queries' share: dscore K

    def _score_general(self, ws: _Workspace) -> None:
        np.dot(ws.Q_flat, self.Wa, ws.Qp_flat)  # (B·Lo, H) s_t Wa
        np.matmul(ws.Qp, ws.K.transpose(0, 2, 1), ws.A)  # (s_t Wa) · h_j

    def _score_general_backward(self, ws: _Workspace) -> None:
        np.matmul(ws.dA, ws.K, ws.dQp)  # d(s_t Wa) = dscore K        (B, Lo, H)
        np.matmul(ws.dA.transpose(0, 2, 1), ws.Qp, ws.tmpK)  # keys' share: dscoreᵀ (Q Wa)
        ws.dK += ws.tmpK
        np.dot(ws.Q_flat.T, ws.dQp_flat, self.dWa)  # dWa = Qᵀ d(Q Wa), over batch and steps
        np.dot(ws.dQp_flat, self.Wa.T, ws.dQ_flat)  # queries' share: d(Q Wa) Waᵀ
        ws.dS_dec += ws.dQ.transpose(1, 0, 2)

    def _score_qk(self, ws: _Workspace) -> None:
        np.dot(ws.Q_flat, self.Wq, ws.Qp_flat)  # (B·Lo, H) q_t = s_t Wq
        np.dot(ws.K_flat, self.Wk, ws.Kp_flat)  # (B·Li, H) k_j = h_j Wk
        np.matmul(ws.Qp, ws.Kp.transpose(0, 2, 1), ws.A)  # q_t · k_j

    def _score_qk_backward(self, ws: _Workspace) -> None:
        np.matmul(ws.dA, ws.Kp, ws.dQp)  # dq = dscore k               (B, Lo, H)
        np.matmul(ws.dA.transpose(0, 2, 1), ws.Qp, ws.dKp)  # dk = dscoreᵀ q  (B, Li, H)
        np.dot(ws.Q_flat.T, ws.dQp_flat, self.dWq)  # dWq = Qᵀ dq
        np.dot(ws.K_flat.T, ws.dKp_flat, self.dWk)  # dWk = Kᵀ dk
        np.dot(ws.dKp_flat, self.Wk.T, ws.tmpK_flat)  # keys' share: dk Wkᵀ
        ws.dK += ws.tmpK
        np.dot(ws.dQp_flat, self.Wq.T, ws.dQ_flat)  # queries' share: dq Wqᵀ
        ws.dS_dec += ws.dQ.transpose(1, 0, 2)

    # ---- one training step ---------------------------------------------------------------------

    def loss_and_grads(self, batch: Batch) -> float:
        """Teacher-forced forward pass and full BPTT; fills ``self.grads``, returns the loss.

        The loss is the cross-entropy averaged over every predicted symbol (L·B of them).
        """
        L, B, V = batch.X.shape
        H, N = self.H, L * B
        ws = self._workspace(B, L)
        dot, add, multiply, tanh = np.dot, np.add, np.multiply, np.tanh
        X = batch.X.reshape(N, V)
        Yt = batch.Yt.reshape(V, N)

        # ---- forward -------------------------------------------------------------------
        # input projections of all steps at once (a one-hot row times W picks a row of W)
        dot(X, self.Wxh, ws.P_enc)  # (N, V) @ (V, H)
        ws.P_enc += self.bh
        if self.feed == "previous":
            D = batch.D.reshape(N, V)
            dot(D, self.Wxs, ws.P_dec)  # d_1 = 0, so step 1 gets bs alone
            ws.P_dec += self.bs
        else:  # the decoder reads nothing: its pre-activation is s_{t-1} Wss + bs
            np.copyto(ws.P_dec, self.bs)

        # the recurrence: rows 1..L are the encoder, L+1..2L the decoder, which starts at h_L
        tmp = ws.tmp
        for prev, W, p, state in ws.forward_steps:
            dot(prev, W, tmp)  # (B, H)
            add(tmp, p, tmp)
            tanh(tmp, state)

        if self.attention:  # every decoder step at once, batch first: (B, Lo, H) · (B, H, Li)
            A = ws.A
            np.copyto(ws.K, ws.K_src)  # (B, Li, H)
            np.copyto(ws.Q, ws.Q_src)  # (B, Lo, H)
            if self.score == "dot":
                self._score_dot(ws)
                # |s_t · h_j| < H because tanh ∈ (−1, 1), so the scaled scores stay inside ±√H:
                # exp cannot overflow and softmax needs no max-shift.
                A *= 1.0 / math.sqrt(H)
            else:  # learned scores have no such bound: shift each row's largest to 0
                (self._score_general if self.score == "general" else self._score_qk)(ws)
                A *= 1.0 / math.sqrt(H)
                np.maximum.reduce(A, 2, None, ws.rowsum, True)
                A -= ws.rowsum
            np.exp(A, A)
            dot(ws.A2, ws.ones_L, ws.rowsum1)  # Σ_j over input positions
            A /= ws.rowsum  # softmax: each row of A sums to 1
            np.matmul(A, ws.K, ws.C)  # (B, Lo, H) c_t = Σ_j a_tj h_j
            np.copyto(ws.Z_s, ws.S_dec)  # Z = [s_t ; c_t]  (Lo, B, 2H)
            np.copyto(ws.Z_c, ws.C.transpose(1, 0, 2))

        # output layer and softmax cross-entropy, all steps at once, transposed: (V, N)
        logits = ws.logits
        dot(self.Why.T, ws.Z_flat.T, logits)  # (V, F) @ (F, N)
        logits += self.by_col
        np.maximum.reduce(logits, 0, None, ws.colmax)
        logits -= ws.colmax  # shift each column: largest logit 0, so exp ≤ 1
        target_logits = float(np.vdot(logits, Yt))  # Σ over predictions of the right logit
        np.exp(logits, logits)
        add.reduce(logits, 0, None, ws.sumexp)  # (N,)
        loss = (float(add.reduce(np.log(ws.sumexp))) - target_logits) / N
        logits /= ws.sumexp  # (V, N) softmax probabilities

        # ---- backward ------------------------------------------------------------------
        dlogits = logits  # backprop through softmax + cross-entropy: (p − y) / N
        dlogits -= Yt
        dlogits *= 1.0 / N
        dot(ws.Z_flat.T, dlogits.T, self.dWhy)  # (F, N) @ (N, V)
        add.reduce(dlogits, 1, None, self.dby)
        dot(dlogits.T, self.Why.T, ws.dZ_flat)  # (N, V) @ (V, F) → ds_t (and dc_t)

        dS = ws.dS
        if self.attention:
            A, dA = ws.A, ws.dA
            np.copyto(ws.dS_dec, ws.dZ_s)  # the s_t half of dZ
            np.copyto(ws.dC, ws.dZ_c.transpose(1, 0, 2))  # (B, Lo, H)
            np.matmul(ws.dC, ws.K.transpose(0, 2, 1), dA)  # (B, Lo, Li)   from c = A K
            np.matmul(A.transpose(0, 2, 1), ws.dC, ws.dK)  # (B, Li, H)    values' share
            # backprop through softmax: dscore_tj = a_tj (da_tj − Σ_k a_tk da_tk)
            multiply(dA, A, ws.tmpA)
            dot(ws.tmpA2, ws.ones_L, ws.rowsum1)
            dA -= ws.rowsum
            dA *= A
            dA *= 1.0 / math.sqrt(H)  # backprop through the 1/√H scaling (and the max-shift,
            #                           which moves a whole row and so has no gradient)
            if self.score == "dot":
                self._score_dot_backward(ws)
            elif self.score == "general":
                self._score_general_backward(ws)
            else:
                self._score_qk_backward(ws)
            np.copyto(ws.dK_dst, ws.dK.transpose(1, 0, 2))  # encoder states h_1..h_L
        else:  # encoder states reach the loss only through h_L; clear last batch's sums
            dS[1 : L + 1].fill(0.0)

        # backprop through time, rows 2L..1: gradient from above plus from row r+1
        multiply(ws.S_after, ws.S_after, ws.dtanh)
        np.subtract(1.0, ws.dtanh, ws.dtanh)  # tanh' = 1 − S², every row at once
        dnext = ws.dnext
        steps = ws.backward_steps
        d_state, d_tanh, d_pre, W_T = steps[0]  # row 2L: nothing from a later row
        multiply(d_state, d_tanh, d_pre)
        dot(d_pre, W_T, dnext)  # (B, H)
        for d_state, d_tanh, d_pre, W_T in steps[1:-1]:
            d_state += dnext
            multiply(d_state, d_tanh, d_pre)  # backprop through tanh
            dot(d_pre, W_T, dnext)
        d_state, d_tanh, d_pre, _ = steps[-1]  # row 1 (nothing needs the gradient of h_0)
        d_state += dnext
        multiply(d_state, d_tanh, d_pre)

        # weight gradients, summed over every step at once
        dot(ws.S_prev_enc.T, ws.dP_enc, self.dWhh)  # (H, N) @ (N, H)
        dot(ws.S_prev_dec.T, ws.dP_dec, self.dWss)
        dot(X.T, ws.dP_enc, self.dWxh)  # (V, N) @ (N, H)
        if self.feed == "previous":
            dot(D.T, ws.dP_dec, self.dWxs)
        dot(ws.ones_N, ws.dP_enc, self.dbh)  # Σ over steps and batch
        dot(ws.ones_N, ws.dP_dec, self.dbs)
        return loss

    # ---- decoding ----------------------------------------------------------------------------

    def scores(self, s: np.ndarray, keys: np.ndarray) -> np.ndarray:
        """Scaled scores of decoder states ``s`` (N, H) against encoder states ``keys``
        (N, Li, H): (N, Li), the same formula as in training."""
        if self.score == "general":
            s = s @ self.Wa
        elif self.score == "qk":
            s, keys = s @ self.Wq, keys @ self.Wk
        return np.einsum("nh,njh->nj", s, keys) / math.sqrt(self.H)

    def greedy(self, x: np.ndarray) -> tuple[np.ndarray, np.ndarray | None]:
        """Decode without teacher forcing: the decoder is fed its own previous prediction
        (or nothing, with ``feed="none"``).

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
                scores = self.scores(s, keys)  # (N, Li)
                if self.score != "dot":  # dot scores are bounded, see loss_and_grads
                    scores -= scores.max(axis=1, keepdims=True)
                a = np.exp(scores)
                a /= a.sum(axis=1, keepdims=True)
                attn[:, t] = a
                context = np.einsum("nj,njh->nh", a, keys)  # (N, H)
                features = np.concatenate([s, context], axis=1)  # (N, 2H)
            y = np.argmax(features @ self.Why + self.by, axis=1)  # (N,)
            pred[:, t] = y
            if self.feed == "previous":
                d_in = self.Wxs[y]  # the next step is fed this prediction
        return pred, attn
