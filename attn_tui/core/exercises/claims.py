"""Checked claims: figures written in exercise prose that the core recomputes on load.

A text in an exercise file may mark a figure as a claim, in one of two forms:

    {= 0.5614 + 0.3152 + 1 + 0.5614 ≈ 2.4380}      the claim is shown as written
    {= 0.41 | weights((1,0,1), ((1,0,0),(0,1,0),(1,0,1),(1,1,0)))[3]}
                                                    only "0.41" is shown; the core computes it

The learner sees the text without the braces (``display``). The loader checks every claim
(``check``) and reports a false one as a fault of the file, so a wrong figure in a hint fails
``attn-tui exercises validate`` and the shipped-file tests.

What the two relations mean:

- ``=`` is exact: the written numbers, taken as exact, give exactly the other side. Rounding
  written as equality (0.2303 + 0.4102 + 0.2303 = 0.8707, when they add to 0.8708) is false.
- ``≈`` allows rounding: each written decimal stands for anything that rounds to it
  (0.5614 is 0.56135 … 0.56145), and the two sides must be able to meet. A lone whole number
  on one side (≈ 23) is read as rounded to a unit; whole numbers inside an expression are exact.
- ``<``, ``>``, ``≤``, ``≥`` compare the exact values.

In the second form the shown part may hold words (约 0.41, "about 2.5 times"); its numbers,
in order, must match the expression's value, each to the precision it is written with.

Expressions are arithmetic as prose writes it: ``+ − × · / ÷``, powers written ``²``, ``⁻⁴``
or ``^``, ``√3`` or ``√(x)``, ``%``, ``e``, ``π``, tuples ``(1, 0, 1)`` (a vector; tuples of
tuples are a matrix), ``[i]`` to take entry i (from 1), and the functions in ``FUNCTIONS``.
``·`` between two vectors is their dot product. Nothing is ``eval``-ed: the parser below
knows only these forms, and every size is bounded (text length, number of literals, exponent).
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass
from functools import cache

import numpy as np

from attn_tui.core.attention.steps import attend, softmax

MAX_CLAIM = 600  # characters in one claim
MAX_LITERALS = 64  # numbers written in one claim
MAX_EXPONENT = 400  # |n| in x^n
MAX_DEPTH = 40  # nesting of brackets
_EPS = 1e-9

# A claim starts with "{=" and runs to the next "}" (claims hold no braces).
MARK = re.compile(r"\{=([^{}]*)\}")
_OPEN = re.compile(r"\{=")


class ClaimError(ValueError):
    """A claim that cannot be read (``code`` = "syntax") or is false ("false").

    ``reason`` names what is wrong (a text key ``ex.claim.<reason>`` says it in words) and
    ``params`` fill that text in; the core itself writes no sentences.
    """

    def __init__(self, code: str, claim: str, reason: str, **params: object) -> None:
        self.code = code
        self.claim = claim
        self.reason = reason
        self.params = params
        super().__init__(f"{code}: {claim!r}: {reason} {params}")


class _Bad(ValueError):
    """A value that cannot be computed: becomes a ClaimError with the claim's text."""

    def __init__(self, reason: str, **params: object) -> None:
        self.reason = reason
        self.params = params
        super().__init__(reason)


# -- marks in a text ------------------------------------------------------------------------


@dataclass(frozen=True)
class Claim:
    source: str  # between "{=" and "}", as written
    shown: str  # what the learner reads in its place
    hidden: str | None  # the expression of the second form, or None


def find(text: str) -> list[Claim]:
    """Every claim marked in ``text``; an unclosed ``{=`` raises ClaimError."""
    claims = []
    for m in MARK.finditer(text):
        source = m.group(1)
        if "|" in source:
            shown, hidden = source.split("|", 1)
            claims.append(Claim(source, shown.strip(), hidden.strip()))
        else:
            claims.append(Claim(source, source.strip(), None))
    if len(_OPEN.findall(text)) != len(claims):
        start = next(m.start() for m in _OPEN.finditer(text) if not MARK.match(text, m.start()))
        raise ClaimError("syntax", text[start : start + 40], "unclosed")
    return claims


def display(text: str) -> str:
    """The text as the learner reads it: each claim replaced by what it shows."""

    def shown(m: re.Match[str]) -> str:
        source = m.group(1)
        return (source.split("|", 1)[0] if "|" in source else source).strip()

    return MARK.sub(shown, text)


def check_text(text: str) -> list[ClaimError]:
    """Every fault of every claim in ``text`` (empty when all hold)."""
    try:
        claims = find(text)
    except ClaimError as err:
        return [err]
    faults = []
    for claim in claims:
        try:
            check(claim)
        except ClaimError as err:
            faults.append(err)
    return faults


def check(claim: Claim) -> None:
    """Raise ClaimError unless the claim holds."""
    if len(claim.source) > MAX_CLAIM:
        raise ClaimError("syntax", claim.source[:40] + "…", "too_long", limit=MAX_CLAIM)
    if claim.hidden is None:
        check_relation(claim.shown)
    else:
        check_shown(claim.shown, claim.hidden)


# -- tokens ---------------------------------------------------------------------------------

MAX_POWER_DIGITS = 4  # a superscript power: 10⁻⁹⁹⁹⁹ … 10⁹⁹⁹⁹ say all a claim needs
_SUPERSCRIPT = {
    "⁰": "0", "¹": "1", "²": "2", "³": "3", "⁴": "4",
    "⁵": "5", "⁶": "6", "⁷": "7", "⁸": "8", "⁹": "9", "⁻": "-",
}  # fmt: skip
_OPS = {
    "+": "+", "-": "-", "−": "-", "×": "*", "*": "*", "·": "·", "⋅": "·", "/": "/", "÷": "/",
    "^": "^", "√": "√", "(": "(", ")": ")", "[": "[", "]": "]", ",": ",", "，": ",", "%": "%",
}  # fmt: skip
_RELATIONS = {"=": "=", "＝": "=", "≈": "≈", "<": "<", ">": ">", "≤": "≤", "≥": "≥"}
# 10 000 and 10,000 are one number (groups of three after a space or a comma with no space);
# a tuple is written with ", " so (1, 000) stays two numbers.
_NUM = re.compile(r"\d{1,3}(?:[ ,]\d{3})+(?![\d.])|\d+(?:\.\d+)?|\.\d+")
_NAME = re.compile(r"[A-Za-z_π][A-Za-z0-9_]*")
_STRING = re.compile(r"'([^'\n]{0,40})'")  # 'L10-qk': a name given to a function


@dataclass(frozen=True)
class Token:
    kind: str  # num, name, op, sup, rel, end
    text: str
    value: float = 0.0
    half: float = 0.0  # half a unit of the last written digit (0 for whole numbers)


def tokenize(text: str) -> list[Token]:
    out: list[Token] = []
    i = 0
    while i < len(text):
        ch = text[i]
        if ch.isspace():
            i += 1
            continue
        m = _NUM.match(text, i)
        if m:
            s = m.group(0)
            decimals = len(s.split(".")[1]) if "." in s else 0
            half = 0.5 * 10.0**-decimals if decimals else 0.0
            out.append(Token("num", s, float(re.sub("[ ,]", "", s)), half))
            i = m.end()
            continue
        if ch in _SUPERSCRIPT:
            j = i
            while j < len(text) and text[j] in _SUPERSCRIPT:
                j += 1
            digits = "".join(_SUPERSCRIPT[c] for c in text[i:j])
            if not re.fullmatch(r"-?\d+", digits):
                raise ClaimError("syntax", text, "superscript", found=text[i:j])
            if len(digits.lstrip("-")) > MAX_POWER_DIGITS:  # 2⁹⁹⁹… : int → float overflowed
                found = text[i : i + 8] + ("…" if j - i > 8 else "")
                raise ClaimError("syntax", text, "power_too_long", found=found,
                                 limit=MAX_POWER_DIGITS)  # fmt: skip
            out.append(Token("sup", text[i:j], float(int(digits))))
            i = j
            continue
        m = _NAME.match(text, i)
        if m:
            out.append(Token("name", m.group(0)))
            i = m.end()
            continue
        m = _STRING.match(text, i) if ch == "'" else None
        if m:
            out.append(Token("str", m.group(1)))
            i = m.end()
            continue
        if ch in _OPS:
            out.append(Token("op", _OPS[ch]))
            i += 1
            continue
        if ch in _RELATIONS:
            out.append(Token("rel", _RELATIONS[ch]))
            i += 1
            continue
        raise ClaimError("syntax", text, "cannot_read", found=ch)
    out.append(Token("end", ""))
    return out


# -- parsing --------------------------------------------------------------------------------
# Nodes are tuples: ("num", index), ("const", name), ("neg", x), ("bin", op, a, b),
# ("pow", a, b), ("sqrt", x), ("pct", x), ("call", name, args), ("tuple", items),
# ("index", x, i).


class _Parser:
    def __init__(self, text: str, tokens: list[Token]) -> None:
        self.text = text
        self.tokens = tokens
        self.pos = 0
        self.literals: list[Token] = []
        self.depth = 0

    def peek(self) -> Token:
        return self.tokens[self.pos]

    def take(self) -> Token:
        tok = self.tokens[self.pos]
        self.pos += 1
        return tok

    def fail(self, reason: str, **params: object) -> ClaimError:
        return ClaimError("syntax", self.text, reason, **params)

    def expect(self, op: str) -> None:
        tok = self.take()
        if tok.kind != "op" or tok.text != op:
            raise self.fail("expected", want=op, found=tok.text or "…")

    def is_op(self, *ops: str) -> bool:
        tok = self.peek()
        return tok.kind == "op" and tok.text in ops

    def expr(self):
        self.deeper()
        node = self.term()
        while self.is_op("+", "-"):
            op = self.take().text
            node = ("bin", op, node, self.term())
        self.depth -= 1
        return node

    def term(self):
        node = self.unary()
        while self.is_op("*", "·", "/"):
            op = self.take().text
            node = ("bin", op, node, self.unary())
        return node

    def deeper(self) -> None:
        self.depth += 1
        if self.depth > MAX_DEPTH:
            raise self.fail("too_deep", limit=MAX_DEPTH)

    def unary(self):
        if self.is_op("-", "+"):
            negate = self.take().text == "-"
            self.deeper()
            node = self.unary()
            self.depth -= 1
            return ("neg", node) if negate else node
        return self.power()

    def power(self):
        node = self.postfix(self.atom())
        if self.is_op("^"):
            self.take()
            return ("pow", node, self.unary())
        return node

    def postfix(self, node):
        while True:
            tok = self.peek()
            if tok.kind == "sup":
                self.take()
                node = ("pow", node, ("exact", tok.value))
            elif self.is_op("%"):
                self.take()
                node = ("pct", node)
            elif self.is_op("["):
                self.take()
                index = self.take()
                if index.kind != "num" or index.half or index.value < 1:
                    raise self.fail("bad_index")
                self.expect("]")
                node = ("index", node, int(index.value))
            else:
                return node

    def atom(self):
        tok = self.take()
        if tok.kind == "num":
            if len(self.literals) >= MAX_LITERALS:
                raise self.fail("too_many", limit=MAX_LITERALS)
            self.literals.append(tok)
            return ("num", len(self.literals) - 1)
        if tok.kind == "op" and tok.text == "√":
            self.deeper()
            node = ("sqrt", self.postfix(self.atom()))
            self.depth -= 1
            return node
        if tok.kind == "op" and tok.text in "([":
            close = ")" if tok.text == "(" else "]"
            items = [self.expr()]
            while self.is_op(","):
                self.take()
                items.append(self.expr())
            self.expect(close)
            if len(items) == 1 and close == ")":
                return items[0]
            return ("tuple", items)
        if tok.kind == "name":
            if tok.text in CONSTANTS:
                return ("const", tok.text)
            if tok.text in FUNCTIONS:
                self.expect("(")
                args = [] if self.is_op(")") else [self.expr()]
                while self.is_op(","):
                    self.take()
                    args.append(self.expr())
                self.expect(")")
                return ("call", tok.text, args)
            raise self.fail(
                "unknown_name", found=tok.text, known=", ".join([*FUNCTIONS, *CONSTANTS])
            )
        if tok.kind == "str":
            return ("str", tok.text)
        raise self.fail("unexpected", found=tok.text or "…")


def parse(text: str) -> tuple[list, list[str], list[Token]]:
    """A claim as its sides and the relations between them, plus the literals written."""
    if len(text) > MAX_CLAIM:
        raise ClaimError("syntax", text[:40] + "…", "too_long", limit=MAX_CLAIM)
    parser = _Parser(text, tokenize(text))
    sides = [parser.expr()]
    relations: list[str] = []
    while parser.peek().kind == "rel":
        relations.append(parser.take().text)
        sides.append(parser.expr())
    if parser.peek().kind != "end":
        raise parser.fail(f"unexpected {parser.peek().text!r}")
    return sides, relations, parser.literals


def parse_expression(text: str) -> tuple[object, list[Token]]:
    sides, relations, literals = parse(text)
    if relations:
        raise ClaimError("syntax", text, "not_expression")
    return sides[0], literals


# -- evaluating -----------------------------------------------------------------------------

Value = float | np.ndarray


def _array(x: Value, name: str, ndim: int) -> np.ndarray:
    a = np.asarray(x, dtype=np.float64)
    if a.ndim != ndim:
        raise _Bad("want_vector" if ndim == 1 else "want_matrix", name=name)
    return a


def _rnn_params(inputs: Value, hidden: Value, outputs: Value, attention: Value) -> float:
    from attn_tui.core.exercises.generators import rnn_params

    counts = [float(inputs), float(hidden), float(outputs)]
    if any(c != int(c) or not 1 <= c <= 10**4 for c in counts):
        raise _Bad("rnn_sizes")
    i, h, o = (int(c) for c in counts)
    return float(rnn_params(i, h, o, bool(attention)))


def _attention(part: str) -> Callable[..., np.ndarray]:
    def run(q: Value, K: Value, V: Value | None = None) -> np.ndarray:
        qv, Km = _array(q, "q", 1), _array(K, "K", 2)
        Vm = None if V is None else _array(V, "V", 2)
        if Km.shape[1] != qv.shape[0] or (Vm is not None and Vm.shape[0] != Km.shape[0]):
            raise _Bad("shapes")
        return getattr(attend(qv, Km, Vm), part)

    return run


FUNCTIONS: dict[str, Callable[..., Value]] = {
    "exp": lambda x: np.exp(x),
    "ln": lambda x: np.log(x),
    "sin": lambda x: np.sin(x),
    "cos": lambda x: np.cos(x),
    "sqrt": lambda x: np.sqrt(x),
    "sum": lambda *x: np.sum(np.concatenate([np.ravel(v) for v in x])),
    "max": lambda *x: np.max(np.concatenate([np.ravel(v) for v in x])),
    "min": lambda *x: np.min(np.concatenate([np.ravel(v) for v in x])),
    "softmax": lambda *x: softmax(np.concatenate([np.ravel(v) for v in x]).astype(np.float64)),
    "dot": lambda a, b: float(_array(a, "a", 1) @ _array(b, "b", 1)),
    "scores": _attention("scores"),
    "scaled": _attention("scaled"),
    "weights": _attention("weights"),
    "output": _attention("output"),
    "rnn_params": _rnn_params,
    "trainer": lambda *a: _trainer(*a),
    "book": lambda *a: _book(*a),
    "book_attention": lambda: _BOOK_ATTENTION_L10.copy(),
    "aligned": lambda *a: _aligned(*a),
    "under": lambda x, bound: _bound(x, bound, np.less),
    "over": lambda x, bound: _bound(x, bound, np.greater),
    "transformer": lambda *a: _transformer(*a),
    # (mypy cannot type a @cache function named before its def; the lambda looks it up late)
    "blind_ceiling": lambda *a: _blind_ceiling(*a),  # type: ignore[has-type]
}
CONSTANTS = {"e": math.e, "π": math.pi, "pi": math.pi}


# -- the reversal experiment: the app's own table, and the book's single run ----------------


@cache
def _figures():
    from attn_tui.core.models import figures

    return figures.load()


# Tables to check against instead of the shipped ones: (trainer table, transformer table),
# either None for the shipped one. Set by ``tables`` (the test that retrains the stored rows
# under two BLAS kernels checks every claim against each kernel's tables).
_TABLES: ContextVar[tuple[object, object] | None] = ContextVar("claim_tables", default=None)


@contextmanager
def tables(trainer: object = None, transformer: object = None) -> Iterator[None]:
    """Within the block, trainer(...) and transformer(...) read these tables (a
    ``figures.Figures`` and a ``transformer_figures`` table) instead of the shipped ones."""
    token = _TABLES.set((trainer, transformer))
    try:
        yield
    finally:
        _TABLES.reset(token)


def _table(which: int, shipped: Callable[[], object]):
    override = _TABLES.get()
    return override[which] if override is not None and override[which] is not None else shipped()


def _trainer(row_id: str, metric: str, stat: str = "mean") -> float:
    """trainer('L10-qk', 'seq_acc') is the mean over the table's seeds; a third argument picks
    'sd', 'min', 'max' or 'n'; trainer('L10-qk', 'params') is the model's parameter count.
    The table is exercises/trainer_figures.toml, written by scripts/trainer_figures.py."""
    if not all(isinstance(x, str) for x in (row_id, metric, stat)):
        raise _Bad("trainer_args")
    table = _table(0, _figures)
    if row_id not in table.rows:
        raise _Bad("trainer_row", row=row_id, known=", ".join(table.rows))
    row = table[row_id]
    if metric in ("params", "iters", "length"):
        return float(getattr(row, metric))
    if metric not in row.stats or stat not in ("mean", "sd", "min", "max", "n"):
        known = ", ".join([*row.stats, "params", "iters", "length"])
        raise _Bad("trainer_metric", row=row_id, metric=f"{metric} {stat}", known=known)
    return float(getattr(row.stats[metric], stat))


@cache
def _transformer_figures():
    from attn_tui.core.models import transformer_figures

    return transformer_figures.load()


def _transformer(row_id: str, metric: str, stat: str = "mean") -> float:
    """transformer('sort', 'content_head_by_symbol') is the mean over the seeds of the tiny
    Transformer's stored table (exercises/transformer_figures.toml, written by
    scripts/transformer_figures.py); a third argument picks 'sd', 'min', 'max' or 'n';
    transformer('reverse', 'params') is the model's parameter count."""
    if not all(isinstance(x, str) for x in (row_id, metric, stat)):
        raise _Bad("transformer_args")
    table = _table(1, _transformer_figures)
    if row_id not in table.rows:
        raise _Bad("transformer_row", row=row_id, known=", ".join(table.rows))
    row = table[row_id]
    if metric == "params":
        return float(row.params)
    if metric not in row.stats or stat not in ("mean", "sd", "min", "max", "n"):
        known = ", ".join([*row.stats, "params"])
        raise _Bad("transformer_metric", row=row_id, metric=f"{metric} {stat}", known=known)
    return float(getattr(row.stats[metric], stat))


@cache
def _blind_ceiling(task: str, length: float) -> float:
    """blind_ceiling('reverse', 10): the per-position accuracy a model that does not know
    positions can expect at best on the trainer's held-out sequences of that length."""
    from attn_tui.core.models.trainer import ReversalData
    from attn_tui.core.models.transformer_trainer import position_blind_ceiling

    if task not in ("reverse", "sort") or not isinstance(length, float | int):
        raise _Bad("blind_args")
    if length != int(length) or not 2 <= length <= 20:
        raise _Bad("blind_args")
    return position_blind_ceiling(task, ReversalData(int(length)).eval_x)


def _bound(x: Value, bound: Value, holds: Callable) -> float:
    """under(x, 2) is 2 when x < 2 and NaN (which no shown number matches) otherwise: a claim
    "less than {=2 | under(z, 2)}" shows the bound and holds only while x stays below it."""
    x, bound = float(np.asarray(x)), float(np.asarray(bound))
    return bound if holds(x, bound) else math.nan


def _aligned(matrix: Value, name: str) -> float:
    """aligned(book_attention(), 'peaks'): the trainer's alignment measure of an attention
    matrix (rows = outputs): 'weight', 'peaks', 'left', 'right' or 'row_max'."""
    from attn_tui.core.models.loop import Alignment

    a = np.asarray(matrix, dtype=np.float64)
    if a.ndim != 2 or a.shape[0] != a.shape[1] or not isinstance(name, str):
        raise _Bad("aligned_args")
    value = getattr(Alignment.of(a), name, None)
    if not isinstance(value, float):
        raise _Bad("aligned_args")
    return value


def _book(length: float, variant: str, metric: str) -> float:
    """book(5, 'dot', 'seq_acc'): the book's single run (its model), as the trainer stores it."""
    from attn_tui.core.models.trainer import book_reference

    row = book_reference(int(length), str(variant)) if isinstance(variant, str) else None
    value = row.get(metric) if row is not None and isinstance(metric, str) else None
    if not isinstance(value, (int, float)):
        raise _Bad("book_figure", figure=f"{length} {variant} {metric}")
    return float(value)


# The book's length-10 run (3000 iterations): the attention matrix it prints, rows = output
# positions 1-10, columns = input positions 1-10 (seed text 000, section 五).
_BOOK_ATTENTION_L10: np.ndarray = np.array(
    [
        [0.08, 0.11, 0.10, 0.06, 0.10, 0.08, 0.07, 0.08, 0.18, 0.15],
        [0.11, 0.11, 0.05, 0.10, 0.08, 0.09, 0.07, 0.20, 0.12, 0.06],
        [0.09, 0.08, 0.11, 0.06, 0.06, 0.08, 0.25, 0.11, 0.09, 0.07],
        [0.09, 0.08, 0.09, 0.06, 0.09, 0.21, 0.13, 0.07, 0.06, 0.13],
        [0.08, 0.07, 0.07, 0.09, 0.22, 0.15, 0.08, 0.04, 0.10, 0.09],
        [0.08, 0.08, 0.09, 0.16, 0.17, 0.08, 0.06, 0.06, 0.12, 0.10],
        [0.09, 0.10, 0.13, 0.17, 0.09, 0.05, 0.07, 0.10, 0.11, 0.10],
        [0.11, 0.12, 0.13, 0.08, 0.07, 0.07, 0.10, 0.13, 0.11, 0.09],
        [0.11, 0.11, 0.11, 0.07, 0.07, 0.11, 0.12, 0.08, 0.10, 0.11],
        [0.10, 0.09, 0.11, 0.10, 0.12, 0.10, 0.08, 0.07, 0.11, 0.12],
    ]
)


def evaluate(node, literals: list[Token], shift: dict[int, float] | None = None) -> Value:
    """The value of a parsed node; ``shift`` moves literal i by shift[i] (for rounding)."""
    shift = shift or {}

    def ev(n) -> Value:
        tag = n[0]
        if tag == "num":
            return literals[n[1]].value + shift.get(n[1], 0.0)
        if tag == "exact":
            return n[1]
        if tag == "str":
            return n[1]
        if tag == "const":
            return CONSTANTS[n[1]]
        if tag == "neg":
            return -ev(n[1])
        if tag == "pct":
            return ev(n[1]) / 100.0
        if tag == "sqrt":
            x = ev(n[1])
            if np.any(np.asarray(x) < 0):
                raise _Bad("negative_root")
            return np.sqrt(x)
        if tag == "pow":
            base, power = ev(n[1]), ev(n[2])
            if np.ndim(power) or abs(float(power)) > MAX_EXPONENT:
                raise _Bad("power", limit=MAX_EXPONENT)
            return np.power(np.asarray(base, dtype=np.float64), power)
        if tag == "tuple":
            items = [np.asarray(ev(x), dtype=np.float64) for x in n[1]]
            if len({i.shape for i in items}) != 1:
                raise _Bad("shapes")
            return np.stack(items)
        if tag == "index":
            x = np.asarray(ev(n[1]))
            if x.ndim == 0 or not 1 <= n[2] <= x.shape[0]:
                raise _Bad("no_entry", index=n[2])
            return x[n[2] - 1]
        if tag == "call":
            return FUNCTIONS[n[1]](*(ev(a) for a in n[2]))
        op, a, b = n[1], ev(n[2]), ev(n[3])
        if op == "+":
            return _same(a, b) + b
        if op == "-":
            return _same(a, b) - b
        if op == "/":
            if np.any(np.asarray(b) == 0):
                raise _Bad("division_by_zero")
            return np.asarray(a) / b
        if op == "·" and np.ndim(a) == 1 and np.ndim(b) == 1:
            if np.shape(a) != np.shape(b):
                raise _Bad("shapes")
            return float(np.dot(a, b))
        if np.ndim(a) and np.ndim(b) and np.shape(a) != np.shape(b):
            raise _Bad("shapes")
        return np.asarray(a) * b

    with np.errstate(all="raise"):
        try:
            value = ev(node)
        except _Bad:
            raise
        except (FloatingPointError, OverflowError, ZeroDivisionError):
            raise _Bad("not_finite") from None
        except (ValueError, TypeError, IndexError):  # a function given the wrong arguments
            raise _Bad("arguments") from None
    value = np.asarray(value, dtype=np.float64)
    if not np.all(np.isfinite(value)):
        raise _Bad("not_finite")
    return float(value) if value.ndim == 0 else value


def _same(a: Value, b: Value) -> np.ndarray:
    if np.ndim(a) and np.ndim(b) and np.shape(a) != np.shape(b):
        raise _Bad("shapes")
    return np.asarray(a, dtype=np.float64)


def _slack(node, literals: list[Token], rounded: set[int]) -> np.ndarray:
    """How far the value can move when each rounded literal moves within its half unit."""
    base = np.asarray(evaluate(node, literals), dtype=np.float64)
    total = np.zeros_like(base)
    for i in rounded:
        h = literals[i].half or 0.5
        moved = [np.asarray(evaluate(node, literals, {i: s}), dtype=np.float64) for s in (h, -h)]
        total = total + np.maximum(*(np.abs(m - base) for m in moved))
    return total


def _literal_indices(node) -> set[int]:
    if not isinstance(node, tuple):
        return set()
    if node[0] == "num":
        return {node[1]}
    found: set[int] = set()
    for part in node[1:]:
        if isinstance(part, list):
            for item in part:
                found |= _literal_indices(item)
        elif isinstance(part, tuple):
            found |= _literal_indices(part)
    return found


def _rounded(node, literals: list[Token]) -> set[int]:
    """Literals read as rounded under ≈: decimals, and a side that is one whole number."""
    mine = _literal_indices(node)
    lone = node[0] == "num" or (node[0] == "neg" and node[1][0] == "num")
    return {i for i in mine if literals[i].half or lone}


def _show(x: Value) -> str:
    a = np.asarray(x, dtype=np.float64).ravel()
    return ", ".join(f"{v:.6g}" for v in a) if a.size > 1 else f"{float(a[0]):.6g}"


def check_relation(text: str) -> None:
    """Raise ClaimError unless every relation in ``a = b ≈ c < d`` holds."""
    sides, relations, literals = parse(text)
    if not relations:
        raise ClaimError("syntax", text, "no_relation")
    try:
        _check_relations(text, sides, relations, literals)
    except _Bad as err:
        raise ClaimError("syntax", text, err.reason, **err.params) from None


def _check_relations(text: str, sides: list, relations: list[str], literals: list[Token]) -> None:
    values = [evaluate(s, literals) for s in sides]
    for k, rel in enumerate(relations):
        left, right = values[k], values[k + 1]
        if np.shape(left) != np.shape(right):
            raise ClaimError("false", text, "shapes_differ", left=_show(left), right=_show(right))
        a, b = np.asarray(left), np.asarray(right)
        if rel == "=":
            ok = np.all(np.abs(a - b) <= _EPS * np.maximum(1.0, np.maximum(np.abs(a), np.abs(b))))
        elif rel == "≈":
            room = _slack(sides[k], literals, _rounded(sides[k], literals)) + _slack(
                sides[k + 1], literals, _rounded(sides[k + 1], literals)
            )
            ok = np.all(np.abs(a - b) <= room + _EPS * np.maximum(1.0, np.abs(a)))
        else:
            compare = {"<": np.less, ">": np.greater, "≤": np.less_equal, "≥": np.greater_equal}
            ok = np.all(compare[rel](a, b))
        if not ok:
            raise ClaimError(
                "false", text, "does_not_hold", left=_show(left), rel=rel, right=_show(right)
            )


_SHOWN_NUMBER = re.compile(
    r"(?<![A-Za-z0-9_.])[-−]?(?:\d{1,3}(?:[ ,]\d{3})+(?![\d.])|\d+(?:\.\d+)?|\.\d+)%?"
)


def shown_numbers(shown: str) -> list[Token]:
    """The numbers a shown part holds, in order, with their precision (a % divides by 100)."""
    out = []
    for m in _SHOWN_NUMBER.finditer(shown):
        s = re.sub("[ ,]", "", m.group(0).replace("−", "-"))
        pct = s.endswith("%")
        core = s.rstrip("%")
        decimals = len(core.split(".")[1]) if "." in core else 0
        value, half = float(core), 0.5 * 10.0**-decimals
        if pct:
            value, half = value / 100, half / 100
        out.append(Token("num", s, value, half))
    return out


def check_shown(shown: str, expression: str) -> None:
    """Raise ClaimError unless the numbers in ``shown`` are the expression's value, rounded."""
    node, literals = parse_expression(expression)
    try:
        value = np.asarray(evaluate(node, literals), dtype=np.float64).ravel()
        room = _slack(node, literals, {i for i, t in enumerate(literals) if t.half})
    except _Bad as err:
        raise ClaimError("syntax", expression, err.reason, **err.params) from None
    numbers = shown_numbers(shown)
    claim = f"{shown} | {expression}"
    if len(numbers) != value.size:
        raise ClaimError(
            "false", claim, "count", shown=len(numbers), computed=value.size, value=_show(value)
        )
    room = np.broadcast_to(room.ravel() if room.ndim else room, value.shape)
    for number, v, r in zip(numbers, value, room, strict=True):
        integral = abs(v - round(v)) <= _EPS * max(1.0, abs(v))
        whole = not number.half or number.half == 0.5 and "." not in number.text
        if whole and integral and not r:
            ok = abs(number.value - v) <= _EPS * max(1.0, abs(v))
        else:
            ok = abs(number.value - v) <= number.half + r + _EPS * max(1.0, abs(v))
        if not ok:
            raise ClaimError("false", claim, "shown_value", shown=number.text, value=f"{v:.6g}")
