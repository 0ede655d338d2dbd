"""What the tiny Transformer is asked to do: its inputs, its targets, where the loss looks.

Two families of task.

**Letter tasks** read L letters of the RNN's alphabet A–F and write L letters, every output at
once. Their sequences are the RNN's (``ReversalData``: every sequence of L letters, 1,000 of them
held out and never drawn for training). Two are solved by where a letter stands or what it is,
and four have an answer that *is* one of the chapter's attention patterns::

    reverse   y_i = x_{L+1−i}                        (by position: the anti-diagonal)
    sort      y = the letters in increasing order    (by content)
    previous  y_i = x_{i−1},  y_1 = x_1              a previous-token head: the sub-diagonal
    local     y_i = max(x_{i−1}, x_i, x_{i+1})        a diagonal band: itself and its neighbours
    first     y_i = x_1                              a vertical stripe: every row on column 1
    block     y_i = the largest letter of i's block  blocks: each token within its segment
              (blocks of BLOCK_SIZE positions: 1–4, 5–8, 9–12, …)

("max" of letters is the one latest in the alphabet, so the answer is always a letter.)

**Induction** reads L = 32 tokens from a vocabulary of 64 (``TOKENS``) and predicts, at every
position, the next token (so the model must be causal: without the mask it would read the
answer). The tokens are random, except that a segment of SEGMENT = 8 tokens starting at a random
position reappears at a random later one. Only the copy's tokens 2–8 can be predicted — the
first comes out of nowhere — and the loss reads those seven predictions alone. A model that
has learned the trick predicts them by *induction*: at the copy's k-th token, find where the
same token stood before, and say what followed it there. Both offsets vary from sequence to
sequence, so no fixed distance does the job (with the copy always at L/2 a model learns that
distance instead, see the issue that asked for this task). The held-out set is a fixed draw of
its own seed; with 64³² possible sequences a training draw repeats it with probability ~10⁻⁵⁰.
"""

from __future__ import annotations

import string
from dataclasses import dataclass

import numpy as np

from attn_tui.core.models.rnn import VOCAB as LETTERS
from attn_tui.core.models.trainer import ReversalData
from attn_tui.core.parse import InputError

LETTER_TASKS = ("reverse", "sort", "previous", "local", "first", "block")
TASKS = (*LETTER_TASKS, "induction")
PATTERN_TASKS = ("previous", "local", "first", "block", "induction")
BLOCK_SIZE = 4  # positions per block of the block task (and of the block score)
SEGMENT = 8  # tokens of the induction task's copied segment
INDUCTION_VOCAB = 64
# 64 tokens, one character each so a 32-token sequence fits one line: A–Z, a–z, 0–9, + and *
TOKENS = string.ascii_uppercase + string.ascii_lowercase + string.digits + "+*"
assert len(TOKENS) == INDUCTION_VOCAB
MIN_INDUCTION_LENGTH = 2 * SEGMENT + 2  # room for the copy to land at several offsets
MAX_INDUCTION_LENGTH = 64


def check(task: str) -> str:
    if task not in TASKS:
        raise InputError("transformer.bad_task", value=task, choices=", ".join(TASKS))
    return task


def vocab(task: str) -> int:
    """How many symbols the task's sequences use (in and out)."""
    return INDUCTION_VOCAB if check(task) == "induction" else LETTERS


def block_of(length: int) -> np.ndarray:
    """(L,) the block each position belongs to (0-based): 0 0 0 0 1 1 1 1 2 …"""
    return np.arange(length) // BLOCK_SIZE


def targets(task: str, x: np.ndarray) -> np.ndarray:
    """What the model must write for the sequences x (..., L)."""
    check(task)
    x = np.asarray(x)
    if task == "reverse":
        return np.ascontiguousarray(x[..., ::-1])
    if task == "sort":
        return np.sort(x, axis=-1)
    if task == "previous":
        y = np.empty_like(x)
        y[..., 0] = x[..., 0]
        y[..., 1:] = x[..., :-1]
        return y
    if task == "local":
        y = x.copy()
        np.maximum(y[..., 1:], x[..., :-1], out=y[..., 1:])  # the left neighbour
        np.maximum(y[..., :-1], x[..., 1:], out=y[..., :-1])  # the right neighbour
        return y
    if task == "first":
        return np.ascontiguousarray(np.broadcast_to(x[..., :1], x.shape))
    if task == "block":
        L = x.shape[-1]
        y = np.empty_like(x)
        for start in range(0, L, BLOCK_SIZE):
            part = x[..., start : start + BLOCK_SIZE]
            y[..., start : start + BLOCK_SIZE] = part.max(axis=-1, keepdims=True)
        return y
    # induction: the next token; the last position has none and is never scored (itself)
    y = np.empty_like(x)
    y[..., :-1] = x[..., 1:]
    y[..., -1] = x[..., -1]
    return y


@dataclass(frozen=True)
class Batch:
    """Sequences with what to write and where the loss reads it."""

    x: np.ndarray  # (B, L) inputs
    y: np.ndarray  # (B, L) targets
    rows: np.ndarray | None = None  # flat indices into B·L the loss reads (sorted); None = all
    copies: np.ndarray | None = None  # (B, 2) start of the copied segment and of its copy

    def __len__(self) -> int:
        return len(self.x)


# ---- the induction task's data ---------------------------------------------------------------


def copy_pairs(length: int) -> np.ndarray:
    """(P, 2) every (source, destination) start of the copied segment, 0-based: the copy lands
    wholly after its source and wholly inside the sequence. At L 32: 153 pairs."""
    pairs = [(s, d) for s in range(length) for d in range(s + SEGMENT, length - SEGMENT + 1)]
    return np.array(pairs, np.int64).reshape(-1, 2)


def scored_positions(copies: np.ndarray) -> np.ndarray:
    """(B, SEGMENT − 1) the positions (0-based) whose next token is one of the copy's tokens
    2..SEGMENT: the copy's first SEGMENT − 1 positions."""
    return copies[:, 1:2] + np.arange(SEGMENT - 1)


def draw_induction(rng: np.random.Generator, n: int, length: int,
                   vocab_size: int = INDUCTION_VOCAB) -> Batch:  # fmt: skip
    """n sequences of random tokens, each with one segment copied to a later place."""
    x = rng.integers(0, vocab_size, (n, length), dtype=np.int64)
    pairs = copy_pairs(length)
    copies = pairs[rng.integers(0, len(pairs), n)]
    k = np.arange(SEGMENT)
    seq = np.arange(n)[:, None]
    x[seq, copies[:, 1:2] + k] = x[seq, copies[:, :1] + k]
    rows = (seq * length + scored_positions(copies)).ravel()
    return Batch(x, targets("induction", x), rows, copies)


def find_copy(x: np.ndarray) -> tuple[int, int] | None:
    """(source, destination), 0-based, of the longest segment of ``x`` (at least 2 tokens)
    that reappears later without overlapping itself, the earliest such if several tie; None if
    none. For a sequence of the induction task this is its copy (up to the rare chance that a
    random token before or after extends it)."""
    xs = [int(s) for s in np.asarray(x).ravel()]
    L = len(xs)
    best: tuple[int, int, int] | None = None  # (length, source, destination)
    for d in range(1, L):
        for s in range(0, d):
            n = 0
            while d + n < L and s + n < d and xs[s + n] == xs[d + n]:
                n += 1
            if n >= 2 and (best is None or n > best[0]):
                best = (n, s, d)
    return None if best is None else (best[1], best[2])


class InductionData:
    """The induction task's held-out set (a fixed draw) and its training draws."""

    def __init__(self, length: int, eval_size: int = 1000, eval_seed: int = 2024) -> None:
        self.length = length
        self.eval = draw_induction(np.random.default_rng([eval_seed, length, 64]), eval_size,
                                   length)  # fmt: skip
        self.eval_x = self.eval.x

    def draw(self, rng: np.random.Generator, n_batches: int, batch: int) -> list[Batch]:
        """n_batches training batches, drawn at once (one call per block of batches)."""
        drawn = draw_induction(rng, n_batches * batch, self.length)
        assert drawn.copies is not None
        L = self.length
        out = []
        for b in range(n_batches):
            part = slice(b * batch, (b + 1) * batch)
            copies = drawn.copies[part]
            rows = (np.arange(batch)[:, None] * L + scored_positions(copies)).ravel()
            out.append(Batch(drawn.x[part], drawn.y[part], rows, copies))
        return out


class LetterData:
    """A letter task's data: the RNN's sequences (``ReversalData``) and the task's targets."""

    def __init__(self, task: str, length: int, eval_size: int = 1000, eval_seed: int = 2024):
        self.task = task
        self.sequences = ReversalData(length, eval_size, eval_seed)
        self.eval_x = self.sequences.eval_x
        self.eval = Batch(self.eval_x, targets(task, self.eval_x))

    def draw(self, rng: np.random.Generator, n_batches: int, batch: int) -> list[Batch]:
        xs = self.sequences.draw(rng, n_batches, batch)  # (n_batches, B, L)
        ys = targets(self.task, xs)
        return [Batch(x, y) for x, y in zip(xs, ys, strict=True)]


def data_for(task: str, length: int, eval_size: int = 1000, eval_seed: int = 2024):
    """The held-out set and training draws of ``task`` at ``length``."""
    if check(task) == "induction":
        return InductionData(length, eval_size, eval_seed)
    return LetterData(task, length, eval_size, eval_seed)


def held_out(task: str, length: int, eval_size: int = 1000, eval_seed: int = 2024) -> Batch:
    return data_for(task, length, eval_size, eval_seed).eval


def label(task: str, symbol: int) -> str:
    """One symbol as the screen writes it: a letter A–F, or one of the 64 TOKENS."""
    return (TOKENS if task == "induction" else "ABCDEF")[int(symbol)]


def labels(task: str, seq) -> str:
    return "".join(label(task, s) for s in seq)


def parse(task: str, text: str, length: int) -> np.ndarray:
    """A learner's sequence for a model of ``length`` positions: letters A–F (any case) for a
    letter task, the 64 TOKENS (case matters) for induction; spaces are ignored."""
    chars = "".join(str(text).split())
    alphabet = TOKENS if task == "induction" else "ABCDEF"
    if task != "induction":
        chars = chars.upper()
    if len(chars) != length or any(c not in alphabet for c in chars):
        shown = alphabet if task != "induction" else "A–Z a–z 0–9 + *"
        raise InputError("transformer.bad_sequence", value=str(text)[:40], length=length,
                         letters=shown)  # fmt: skip
    return np.array([alphabet.index(c) for c in chars], np.int64)
