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
                                              (computed as s_t (Wq Wkᵀ) · h_j / √H)

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
  positionally: a keyword costs a dictionary per call);
* attention reads the states and writes its gradients through strided views of ``S`` and
  ``dS`` (a batched matmul takes a matrix with any row stride), so the states are not copied
  into batch-first buffers and back; the input projections are rows of a small table
  (Wxh + bh, Wxs + bs, bs) taken for all 2L steps in one call;
* the learned scores keep their weights transposed, (Li, B·Lo), so the softmax's row maximum
  and sums run along the long axis (reducing 160 rows of 10 is ~7× slower than 10 of 160).

For "dot" (and no attention) the order of any sum cannot change: BLAS gives different last
bits for a matrix product when its rows are permuted or stacked, or a gemv is replaced by a
gemm, so every product keeps its original shape and operands; only copies, views and
elementwise steps move. "general" and "qk" were reordered once for speed (issue 14): both
compute (s_t M/√H) · h_j with M = Wa or Wq Wkᵀ, the 1/√H folded into that small matrix, and
skip the softmax's max-shift when M's norm proves every score small (see ``SAFE_SCORE``):
the same model, equal up to float32 rounding, with pins of their own.

One buffer ``S`` holds the whole chain of states, time-major: rows 0..L are the encoder's
h_0..h_L and rows L+1..2L the decoder's s_1..s_L, so the decoder simply continues from row L
(s_0 = h_L) and backpropagation through time is one loop over 2L rows. Other choices come
from measurement: a 2-D product is ``a.dot(b, out)``, the method (``np.dot`` costs about half
of ``np.matmul`` on 2-D operands, and the method a quarter less again: no dispatch), and so
are ``a.take`` and ``a[...] = b`` for copies; elementwise steps call the ufunc with ``out``
(``a += b`` costs ~60 ns more); the logits are kept transposed, (V, N), because reducing over
6 rows is several times faster than over 6 columns; row sums are ``ones @ M``.

The "dot" model's arithmetic is exactly that of the first version of this file, operation for
operation, so a seed gives the same numbers to the last bit (``tests/core/models/test_pinned.py``).
"""

from __future__ import annotations

import math
from typing import NamedTuple

import numpy as np

ALPHABET = "ABCDEF"  # the 6 symbols, shown as letters
VOCAB = len(ALPHABET)
HIDDEN = 16
SCORES = ("dot", "general", "qk")  # how a decoder state scores an encoder state
FEEDS = ("previous", "none")  # what the decoder reads at each step
# A learned score proven smaller than this in size needs no max-shift before its softmax:
# e^80 times a few thousand positions is far below float32's largest number (3.4e38), and
# e^−80 ≈ 1.8e−35 is still a normal float32, so no row's sum can overflow or vanish.
SAFE_SCORE = 80.0


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


class Batch(NamedTuple):
    """A batch of sequences as the model reads it: one-hot, time-major. (A NamedTuple: a block
    of 64 is made at once, and a tuple is ten times cheaper to build than a dataclass.)"""

    x: np.ndarray  # (B, L) int     the sequences
    X: np.ndarray  # (L, B, V)      encoder inputs, one-hot of x
    D: np.ndarray  # (L, B, V)      decoder inputs: zeros at t = 1, then the target of step t-1
    Yt: np.ndarray  # (V, L, B)     targets (x reversed), one-hot, symbol axis first
    rows: np.ndarray  # (2L, B) intp  which row of the input table each step reads (see below)
    XT: np.ndarray  # (V, L·B)      X and D flattened and transposed, for the weight gradients
    DT: np.ndarray


class OneHotBlocks:
    """Blocks of K batches as one-hot Batches, written into the same buffers every time.

    ``make(xs)`` turns (K, B, L) sequences into K Batches with a few numpy calls: inputs are
    rows of an identity matrix taken in the layout the model reads (row V is all zeros: "no
    symbol", what the decoder reads at t = 1); targets, symbol axis first, are the inputs'
    one-hot in reverse time order. Values are exactly 0 and 1, as a matrix product with a
    one-hot row needs. ``rows`` indexes the model's input table (see ``loss_and_grads``):
    encoder step t reads row x_t, decoder step t row V + d_t, where d_t = V means "nothing".

    The Batches are views into buffers made once per (K, B, L) and overwritten by the next
    ``make``: a caller uses each Batch before asking for the next block, as the trainer does.
    (Fresh arrays of this size cost more in page faults than the arithmetic; measured.)
    """

    def __init__(self, dtype: np.dtype | type = np.float32) -> None:
        self.dtype = np.dtype(dtype)
        self.eye = np.eye(VOCAB + 1, VOCAB, dtype=self.dtype)  # row V: zeros
        self.shape: tuple[int, ...] = ()

    def _allocate(self, K: int, B: int, L: int) -> None:
        V, dtype = VOCAB, self.dtype
        self.shape = (K, B, L)
        self.xs = np.empty((K, B, L), np.intp)
        self.rows = np.empty((K, 2 * L, B), np.intp)  # encoder rows, then decoder rows
        self.X = np.empty((K, L, B, V), dtype)
        self.D = np.empty((K, L, B, V), dtype)
        self.Yt = np.empty((K, V, L, B), dtype)
        self.rows[:, L] = 2 * V  # d_1 = nothing: the table's last row
        XT = self.X.reshape(K, L * B, V).transpose(0, 2, 1)
        DT = self.D.reshape(K, L * B, V).transpose(0, 2, 1)
        self.batches = [
            Batch(*parts)
            for parts in zip(self.xs, self.X, self.D, self.Yt, self.rows, XT, DT, strict=True)
        ]

    def make(self, xs: np.ndarray) -> list[Batch]:
        K, B, L = xs.shape
        if self.shape != (K, B, L):
            self._allocate(K, B, L)
        np.copyto(self.xs, xs)
        x_t = self.rows[:, :L]  # (K, L, B) time-major symbols: the encoder's rows
        np.copyto(x_t, self.xs.transpose(0, 2, 1))
        # teacher forcing: decoder step t ≥ 2 is fed the target of step t-1, i.e. x_{L+2-t}
        np.add(x_t[:, :0:-1], VOCAB, self.rows[:, L + 1 :])
        np.take(self.eye, x_t, 0, self.X, "clip")  # (K, L, B, V)
        np.take(self.eye, self.rows[:, L:] - VOCAB, 0, self.D, "clip")  # row V: zeros
        np.copyto(self.Yt, self.X[:, ::-1].transpose(0, 3, 1, 2))  # the reversal, symbol first
        return self.batches


def one_hot_batches(xs: np.ndarray, dtype: np.dtype | type = np.float32) -> list[Batch]:
    """Turn a block of K batches ``xs`` (K, B, L) into K Batches (arrays of their own)."""
    return list(OneHotBlocks(dtype).make(np.asarray(xs)))


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
        # input table: rows 0..V−1 Wxh + bh, V..2V−1 Wxs + bs, 2V bs alone ("no input")
        self.table = np.empty((2 * V + 1, H), dtype)
        self.table_enc, self.table_dec = self.table[:V], self.table[V : 2 * V]
        self.table_none = self.table[2 * V]
        self.table_in = self.table[: 2 * V].reshape(2, V, H)
        self.dP = dP = np.empty((2 * L, B, H), dtype)  # dLoss/d(pre-activation)
        self.dtanh = dtanh = np.empty((2 * L, B, H), dtype)  # 1 − S², rows 1..2L
        self.tmp = np.empty((B, H), dtype)
        self.dnext = np.empty((B, H), dtype)  # gradient flowing back to the previous state
        self.logits = np.empty((V, N), dtype)  # transposed: reductions over 6 rows are fast
        self.logitsT = self.logits.T
        self.logits3 = self.logits.reshape(V, L, B)  # the targets' layout
        self.colmax = np.empty(N, dtype)
        self.sumexp = np.empty(N, dtype)
        self.logsum = np.empty(N, dtype)
        self.ones_N = np.ones(N, dtype)  # ones @ M sums the rows of M, faster than M.sum(0)
        # flat views of the same memory for the all-steps-at-once matmuls
        self.P_enc, self.P_dec = P[:L].reshape(N, H), P[L:].reshape(N, H)
        self.dP_enc, self.dP_dec = dP[:L].reshape(N, H), dP[L:].reshape(N, H)
        self.S_prev_enc = S[:L].reshape(N, H)  # h_0..h_{L-1}, inputs to each encoder step
        self.S_prev_dec = S[L : 2 * L].reshape(N, H)  # s_0..s_{L-1} (s_0 = h_L)
        self.S_prev_encT, self.S_prev_decT = self.S_prev_enc.T, self.S_prev_dec.T
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
        self.backward_middle = self.backward_steps[1:-1]  # rows 2L−1..2, sliced once
        if model.attention:
            # the output layer reads Z = [s_t ; c_t]; attention works batch-first, on views
            # (a batched matmul reads and writes strided matrices as they are, no copies)
            self.Z = np.empty((L, B, 2 * H), dtype)
            self.dZ = np.empty((L, B, 2 * H), dtype)
            self.Kv = S[1 : L + 1].transpose(1, 0, 2)  # (B, Li, H) keys = values = h_1..h_L
            self.KvT = self.Kv.transpose(0, 2, 1)  # (B, H, Li)
            self.Qv = self.S_dec.transpose(1, 0, 2)  # (B, Lo, H) queries s_1..s_L
            self.dK_tm = dS[1 : L + 1]  # (Li, B, H) the keys' gradient lands in dS ...
            self.dKv = self.dK_tm.transpose(1, 0, 2)  # ... written batch first
            self.dK_values = self.dKv  # where the values' share goes (q·k: dK_bf, below)
            self.tmpK = np.empty((B, L, H), dtype)
            self.tmpK_tm = np.empty((L, B, H), dtype)  # time-major: adds to dK_tm row by row
            self.tmpKv = self.tmpK_tm.transpose(1, 0, 2)
            self.tmpQ = np.empty((L, B, H), dtype)  # the queries' share, time-major
            self.tmpQv = self.tmpQ.transpose(1, 0, 2)
            self.A = np.empty((B, L, L), dtype)  # (B, Lo, Li) weights; rows sum to 1
            self.dA = np.empty((B, L, L), dtype)
            self.tmpA = np.empty((B, L, L), dtype)
            self.rowsum = np.empty((B, L, 1), dtype)
            self.A2, self.tmpA2 = self.A.reshape(B * L, L), self.tmpA.reshape(B * L, L)
            self.AT, self.dAT = self.A.transpose(0, 2, 1), self.dA.transpose(0, 2, 1)
            self.rowsum1 = self.rowsum.reshape(B * L)
            self.ones_L = np.ones(L, dtype)
            self.Z_flat, self.dZ_flat = self.Z.reshape(N, 2 * H), self.dZ.reshape(N, 2 * H)
            self.Z_s, self.Z_c = self.Z[:, :, :H], self.Z[:, :, H:]
            self.dZ_s, self.dZ_c = self.dZ[:, :, :H], self.dZ[:, :, H:]
            self.Cv, self.dCv = self.Z_c.transpose(1, 0, 2), self.dZ_c.transpose(1, 0, 2)
            if model.score in ("general", "qk"):
                # the queries projected all at once, time-major like S (s_1..s_L are rows
                # L+1..2L of S, contiguous): no copies; the batched products read them batch
                # first through transposed views
                self.Q_flat = self.S_dec.reshape(N, H)  # (Lo·B, H) s_t, time-major
                self.Q_flatT = self.Q_flat.T
                self.Qp_tm = np.empty((L, B, H), dtype)  # projected queries
                self.dQp_tm = np.empty((L, B, H), dtype)
                self.dQ_tm = np.empty((L, B, H), dtype)  # the queries' share, to add to dS_dec
                self.Qp, self.dQp = self.Qp_tm.transpose(1, 0, 2), self.dQp_tm.transpose(1, 0, 2)
                self.Qp_flat, self.dQp_flat = self.Qp_tm.reshape(N, H), self.dQp_tm.reshape(N, H)
                self.dQ_flat = self.dQ_tm.reshape(N, H)
                # The weights are kept transposed, (Li, B·Lo): row j holds every (b, t)'s
                # weight on input j, so the softmax (and its max-shift, when learned scores
                # need one) reduces and broadcasts along the long axis. A, dA and their
                # transposes become views of these (a batched matmul takes either layout).
                self.At2, self.dAt2, self.tmpAt2 = (np.empty((L, B * L), dtype) for _ in "abc")
                self.A = self.At2.reshape(L, B, L).transpose(1, 2, 0)  # (B, Lo, Li)
                self.dA = self.dAt2.reshape(L, B, L).transpose(1, 2, 0)
                self.AT, self.dAT = self.A.transpose(0, 2, 1), self.dA.transpose(0, 2, 1)
                self.QpT = self.Qp.transpose(0, 2, 1)  # (B, H, Lo)
                self.dCvT = self.dCv.transpose(0, 2, 1)
                self.colsum = np.empty(B * L, dtype)  # one number per (b, t)
                # the query's matrix M/√H, M = Wa or Wq Wkᵀ (so the products give the scaled
                # scores), and the gradient with respect to it
                self.Wm, self.dWm = np.empty((H, H), dtype), np.empty((H, H), dtype)
                self.WmT, self.dWmT, self.Wm_flat = self.Wm.T, self.dWm.T, self.Wm.reshape(-1)
                self.WkT = model.Wk.T if model.score == "qk" else None
        else:
            self.Z_flat = self.S_dec.reshape(N, H)  # the output layer reads s_t alone
            self.dZ_flat = dS[L + 1 :].reshape(N, H)
        self.Z_flatT = self.Z_flat.T
        self.WhyT = model.Why.T  # views of the parameters stay valid: they change in place


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
        if feed == "previous":  # (Wxh, Wxs) and (bh, bs) as pairs: one add makes both tables
            self._W_in = self._pair("Wxh", "Wxs", (vocab, hidden))
            self._b_in = self._pair("bh", "bs", (1, hidden))
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

    def _pair(self, first: str, second: str, shape: tuple[int, ...]) -> np.ndarray:
        """Two parameters of one shape as a (2, *shape) view into the flat vector."""
        a, b = self.slices[first].start, self.slices[second].start
        step = self.params.itemsize
        strides = ((b - a) * step, *(step * math.prod(shape[i + 1 :]) for i in range(len(shape))))
        return np.lib.stride_tricks.as_strided(
            self.params[a:], (2, *shape), strides, writeable=False
        )

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
    # Each forward fills ws.A with the raw scores (B, Lo, Li) from the queries s_1..s_L and the
    # keys h_1..h_L (batch first). Each backward receives ws.dA = dLoss/dscores, adds the keys'
    # share to ws.dKv (the encoder states' gradient, which holds the values' share already) and
    # writes the decoder states' gradient ws.dS_dec (Lo, B, H): the output layer's ws.dZ_s plus
    # the queries' share.

    def _score_dot(self, ws: _Workspace) -> None:
        np.matmul(ws.Qv, ws.KvT, ws.A)  # s_t · h_j

    def _score_dot_backward(self, ws: _Workspace) -> None:
        np.matmul(ws.dAT, ws.Qv, ws.tmpKv)  # keys' share: dscoreᵀ Q
        np.add(ws.dK_tm, ws.tmpK_tm, ws.dK_tm)
        np.matmul(ws.dA, ws.Kv, ws.tmpQv)  # queries' share: dscore K
        np.add(ws.dZ_s, ws.tmpQ, ws.dS_dec)

    # "general" and "qk" share one form, (s M · h) / √H with M = Wa or M = Wq Wkᵀ (H × H):
    # q·k projects each query once and each key not at all. The scale is folded into the
    # small matrix, Wm = M / √H, and the gradients come back through it: dM = dWm / √H, and
    # for q·k dWq = dM Wk, dWk = dMᵀ Wq.

    def _score_learned(self, ws: _Workspace) -> None:
        scale = 1.0 / math.sqrt(self.H)
        if self.score == "qk":
            assert self.Wq is not None and ws.WkT is not None
            self.Wq.dot(ws.WkT, ws.Wm)  # M = Wq Wkᵀ
            np.multiply(ws.Wm, scale, ws.Wm)
        else:
            np.multiply(self.Wa, scale, ws.Wm)
        ws.Q_flat.dot(ws.Wm, ws.Qp_flat)  # (Lo·B, H) s_t M / √H, every step at once
        np.matmul(ws.Kv, ws.QpT, ws.AT)  # (B, Li, Lo) scaled scores h_j · (s_t M / √H)

    def _score_learned_backward(self, ws: _Workspace) -> None:
        np.matmul(ws.dA, ws.Kv, ws.dQp)  # d(s_t Wm) = dscore K        (B, Lo, H)
        np.matmul(ws.dAT, ws.Qp, ws.tmpKv)  # keys' share: dscoreᵀ (Q Wm)
        np.add(ws.dK_tm, ws.tmpK_tm, ws.dK_tm)
        ws.Q_flatT.dot(ws.dQp_flat, ws.dWm)  # dWm = Qᵀ d(Q Wm), over steps and batch
        ws.dQp_flat.dot(ws.WmT, ws.dQ_flat)  # queries' share: d(Q Wm) Wmᵀ
        np.add(ws.dZ_s, ws.dQ_tm, ws.dS_dec)
        scale = 1.0 / math.sqrt(self.H)
        if self.score == "qk":
            np.multiply(ws.dWm, scale, ws.dWm)  # dM
            ws.dWm.dot(self.Wk, self.dWq)  # dWq = dM Wk
            ws.dWmT.dot(self.Wq, self.dWk)  # dWk = dMᵀ Wq
        else:
            np.multiply(ws.dWm, scale, self.dWa)  # dWa = dM

    # ---- one training step ---------------------------------------------------------------------

    def loss_and_grads(self, batch: Batch) -> float:
        """Teacher-forced forward pass and full BPTT; fills ``self.grads``, returns the loss.

        The loss is the cross-entropy averaged over every predicted symbol (L·B of them).
        """
        L, B, V = batch.X.shape
        H, N = self.H, L * B
        ws = self._workspace(B, L)
        add, multiply, tanh, matmul = np.add, np.multiply, np.tanh, np.matmul
        exp, subtract, divide = np.exp, np.subtract, np.divide
        Yt = batch.Yt  # (V, L, B)

        # ---- forward -------------------------------------------------------------------
        # input projections of all steps at once: a one-hot row times W is a row of W, so
        # each step's x_t Wxh + bh is a row of a small table (Wxh + bh, Wxs + bs, bs alone)
        ws.table_none[...] = self.bs  # d_1 = 0, so step 1 gets bs alone
        if self.feed == "previous":
            add(self._W_in, self._b_in, ws.table_in)  # Wxh + bh and Wxs + bs in one call
            ws.table.take(batch.rows, 0, ws.P, "clip")  # (2L, B, H)
        else:  # the decoder reads nothing: its pre-activation is s_{t-1} Wss + bs
            add(self.Wxh, self.bh, ws.table_enc)
            ws.table.take(batch.rows[:L], 0, ws.P[:L], "clip")
            ws.P_dec[...] = self.bs

        # the recurrence: rows 1..L are the encoder, L+1..2L the decoder, which starts at h_L
        tmp = ws.tmp
        for prev, W, p, state in ws.forward_steps:
            prev.dot(W, tmp)  # (B, H)
            add(tmp, p, tmp)
            tanh(tmp, state)

        if self.attention:  # every decoder step at once, batch first: (B, Lo, H) · (B, H, Li)
            A = ws.A
            if self.score == "dot":
                self._score_dot(ws)
                # |s_t · h_j| < H because tanh ∈ (−1, 1), so the scaled scores stay inside ±√H:
                # exp cannot overflow and softmax needs no max-shift.
                multiply(A, 1.0 / math.sqrt(H), A)
                exp(A, A)
                ws.A2.dot(ws.ones_L, ws.rowsum1)  # Σ_j over input positions
                divide(A, ws.rowsum, A)  # softmax: each row of A sums to 1
            else:  # learned scores, transposed: At2 (Li, B·Lo), see _Workspace
                self._score_learned(ws)  # scaled already
                At2, colsum = ws.At2, ws.colsum
                # |s M hᵀ| ≤ |s| |M| |h| < H |M| (Frobenius norm; |s|², |h|² < H as tanh ∈
                # (−1, 1)), so the scaled scores are below H |Wm|. Under SAFE_SCORE exp needs
                # no shift, as with "dot"; otherwise shift each (b, t)'s largest score to 0.
                if float(ws.Wm_flat.dot(ws.Wm_flat)) * (H * H) > SAFE_SCORE * SAFE_SCORE:
                    np.maximum.reduce(At2, 0, out=colsum)
                    subtract(At2, colsum, At2)
                exp(At2, At2)
                ws.ones_L.dot(At2, colsum)  # Σ_j over input positions
                divide(At2, colsum, At2)  # softmax: each column of At2 sums to 1
            matmul(ws.A, ws.Kv, ws.Cv)  # (B, Lo, H) c_t = Σ_j a_tj h_j, into Z's second half
            ws.Z_s[...] = ws.S_dec  # Z = [s_t ; c_t]  (Lo, B, 2H)

        # output layer and softmax cross-entropy, all steps at once, transposed: (V, N)
        logits = ws.logits
        ws.WhyT.dot(ws.Z_flatT, logits)  # (V, F) @ (F, N)
        add(logits, self.by_col, logits)
        np.maximum.reduce(logits, 0, out=ws.colmax)
        subtract(logits, ws.colmax, logits)  # shift each column: largest logit 0, so exp ≤ 1
        target_logits = float(np.vdot(logits, Yt))  # Σ over predictions of the right logit
        exp(logits, logits)
        add.reduce(logits, 0, out=ws.sumexp)  # (N,)
        loss = (float(add.reduce(np.log(ws.sumexp, ws.logsum))) - target_logits) / N
        divide(logits, ws.sumexp, logits)  # (V, N) softmax probabilities

        # ---- backward ------------------------------------------------------------------
        dlogits = logits  # backprop through softmax + cross-entropy: (p − y) / N
        subtract(ws.logits3, Yt, ws.logits3)
        multiply(dlogits, 1.0 / N, dlogits)
        ws.Z_flatT.dot(ws.logitsT, self.dWhy)  # (F, N) @ (N, V)
        add.reduce(dlogits, 1, out=self.dby)
        ws.logitsT.dot(ws.WhyT, ws.dZ_flat)  # (N, V) @ (V, F) → ds_t (and dc_t)

        dS = ws.dS
        if self.attention:
            A, dA = ws.A, ws.dA
            matmul(ws.AT, ws.dCv, ws.dK_values)  # (B, Li, H)    values' share
            if self.score == "dot":
                matmul(ws.dCv, ws.KvT, dA)  # (B, Lo, Li)   from c = A K; dCv: dZ's c half
                # backprop through softmax: dscore_tj = a_tj (da_tj − Σ_k a_tk da_tk)
                multiply(dA, A, ws.tmpA)
                ws.tmpA2.dot(ws.ones_L, ws.rowsum1)
                subtract(dA, ws.rowsum, dA)
                multiply(dA, A, dA)
                # backprop through the 1/√H scaling
                multiply(dA, 1.0 / math.sqrt(H), dA)
            else:  # the same, transposed: (Li, B·Lo); the max-shift moves a whole row of
                # scores and so has no gradient; the scaling is inside Wm
                At2, dAt2, colsum = ws.At2, ws.dAt2, ws.colsum
                matmul(ws.Kv, ws.dCvT, ws.dAT)  # (B, Li, Lo)  daᵀ = K dcᵀ
                multiply(dAt2, At2, ws.tmpAt2)
                ws.ones_L.dot(ws.tmpAt2, colsum)
                subtract(dAt2, colsum, dAt2)
                multiply(dAt2, At2, dAt2)
            if self.score == "dot":
                self._score_dot_backward(ws)
            else:
                self._score_learned_backward(ws)
        else:  # encoder states reach the loss only through h_L; clear last batch's sums
            dS[1 : L + 1].fill(0.0)

        # backprop through time, rows 2L..1: gradient from above plus from row r+1
        multiply(ws.S_after, ws.S_after, ws.dtanh)
        subtract(1.0, ws.dtanh, ws.dtanh)  # tanh' = 1 − S², every row at once
        dnext = ws.dnext
        steps = ws.backward_steps
        d_state, d_tanh, d_pre, W_T = steps[0]  # row 2L: nothing from a later row
        multiply(d_state, d_tanh, d_pre)
        d_pre.dot(W_T, dnext)  # (B, H)
        for d_state, d_tanh, d_pre, W_T in ws.backward_middle:
            add(d_state, dnext, d_state)
            multiply(d_state, d_tanh, d_pre)  # backprop through tanh
            d_pre.dot(W_T, dnext)
        d_state, d_tanh, d_pre, _ = steps[-1]  # row 1 (nothing needs the gradient of h_0)
        add(d_state, dnext, d_state)
        multiply(d_state, d_tanh, d_pre)

        # weight gradients, summed over every step at once
        ws.S_prev_encT.dot(ws.dP_enc, self.dWhh)  # (H, N) @ (N, H)
        ws.S_prev_decT.dot(ws.dP_dec, self.dWss)
        batch.XT.dot(ws.dP_enc, self.dWxh)  # (V, N) @ (N, H)
        if self.feed == "previous":
            batch.DT.dot(ws.dP_dec, self.dWxs)
        ws.ones_N.dot(ws.dP_enc, self.dbh)  # Σ over steps and batch
        ws.ones_N.dot(ws.dP_dec, self.dbs)
        return loss

    # ---- decoding ----------------------------------------------------------------------------

    def scores(self, s: np.ndarray, keys: np.ndarray) -> np.ndarray:
        """Scaled scores of decoder states ``s`` (N, H) against encoder states ``keys``
        (N, Li, H): (N, Li), the same formula as in training."""
        return self._scores(s, self._project_keys(keys))

    def _project_keys(self, keys: np.ndarray) -> np.ndarray:
        """What the queries are compared with: h_j, or h_j Wk with "qk" (the same at every
        decoder step, so decoding projects them once)."""
        return keys @ self.Wk if self.score == "qk" else keys

    def _scores(self, s: np.ndarray, keys: np.ndarray) -> np.ndarray:
        if self.score == "general":
            s = s @ self.Wa
        elif self.score == "qk":
            s = s @ self.Wq
        return np.einsum("nh,njh->nj", s, keys) / math.sqrt(self.H)

    def greedy(
        self, x: np.ndarray, context: str = "attention"
    ) -> tuple[np.ndarray, np.ndarray | None]:
        """Decode without teacher forcing: the decoder is fed its own previous prediction
        (or nothing, with ``feed="none"``).

        Returns the predictions (N, L) and, with attention, the weights (N, Lo, Li).
        Written step by step for clarity; it runs only at evaluation time. ``context`` asks
        what a trained model does without its attention: "uniform" replaces the weights by
        1/L (the context becomes the mean of the encoder states), "zero" the context by 0.
        """
        if context not in ("attention", "uniform", "zero"):
            raise ValueError(f"context must be attention, uniform or zero, not {context!r}")
        x = np.asarray(x)
        N, L = x.shape
        H = self.H
        keys = np.empty((N, L, H), self.dtype)  # h_1..h_L
        h = np.zeros((N, H), self.dtype)
        for t in range(L):
            h = np.tanh(self.Wxh[x[:, t]] + h @ self.Whh + self.bh)
            keys[:, t] = h
        s = h  # s_0 = h_L
        compared = self._project_keys(keys) if self.attention else keys
        d_in = np.zeros((N, H), self.dtype)  # d_1 = 0: no previous symbol
        pred = np.empty((N, L), np.int64)
        attn = np.empty((N, L, L), self.dtype) if self.attention else None
        for t in range(L):
            s = np.tanh(d_in + s @ self.Wss + self.bs)  # (N, H)
            features = s
            if attn is not None:
                scores = self._scores(s, compared)  # (N, Li)
                if self.score != "dot":  # dot scores are bounded, see loss_and_grads
                    # each row's largest (exact), reduced along the long axis: much faster
                    scores -= np.maximum.reduce(np.ascontiguousarray(scores.T), 0)[:, None]
                a = np.exp(scores)
                a /= a.sum(axis=1, keepdims=True)
                if context == "uniform":
                    a[:] = 1.0 / L
                attn[:, t] = a
                c = np.einsum("nj,njh->nh", a, keys)  # (N, H)
                if context == "zero":
                    c[:] = 0.0
                features = np.concatenate([s, c], axis=1)  # (N, 2H)
            y = np.argmax(features @ self.Why + self.by, axis=1)  # (N,)
            pred[:, t] = y
            if self.feed == "previous":
                d_in = self.Wxs[y]  # the next step is fed this prediction
        return pred, attn
