"""Forgiving parsing of the vectors and matrices a learner types.

Accepted: ``1 0 1``, ``1,0,1``, ``[1, 0, 1]``, ``(1; ...)``, ``1，0，1`` (full-width comma),
``１ ０ １`` (full-width digits), ``−2`` (Unicode minus), ``.5``, ``1e-3``. A matrix is
rows separated by new lines or ``;`` (also ``；``); ``[[1, 0], [0, 1]]`` works too.

Anything else raises :class:`InputError`, whose ``code`` and ``params`` say what is wrong
and where; the UI and the CLI turn that into a sentence in the learner's language
(``err.<code>`` in ``attn_tui/text/err.py``). Nothing here ever raises anything else.
"""

from __future__ import annotations

import math
import re
import unicodedata

import numpy as np

from attn_tui.core.errors import InputError

MAX_DIM = 64  # longest vector the calculator accepts
MAX_ROWS = 64  # most keys / values
MAX_ABS = 1e6  # largest magnitude of one entry; keeps every dot product finite


# Every pattern here runs on whatever was pasted, so each is linear in its input: no two
# quantifiers may share the same characters (``\d+\.?\d*`` tries every split of a digit run:
# 32,000 digits took 20 s), and separators are split bare, their spaces stripped afterwards
# (``\s*;`` tries again from every space of a long run).
_ROW_SEP = re.compile(r";|\n|\]\s*+,?\s*+\[")
_ENTRY_SEP = re.compile(r"[,、]")
_NUMBER = re.compile(r"[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?")
_NOT_FINITE = re.compile(r"[+-]?(?:nan|inf|infinity)", re.IGNORECASE)
_MINUS_SIGNS = str.maketrans({"\u2212": "-", "\u2013": "-", "\u2014": "-", "\ufe63": "-"})
_BRACKETS = "[]()【】{}"


def normalise(text: str) -> str:
    """Full-width to ASCII, every minus sign to '-', full stops used as decimals left alone."""
    return unicodedata.normalize("NFKC", text).translate(_MINUS_SIGNS).replace("。", ".")


def _strip_brackets(text: str) -> str:
    return text.strip().strip(_BRACKETS).strip()


def shown(token: str, width: int = 40) -> str:
    """A token as a message quotes it: a pasted megabyte is cut to its two ends."""
    return token if len(token) <= width else f"{token[: width // 2]}…{token[-(width // 4) :]}"


def _parse_number(token: str, field: str, row: int | None, entry: int) -> float:
    where = {"field": field, "entry": entry} | ({"row": row} if row is not None else {})
    if _NOT_FINITE.fullmatch(token):
        raise InputError("not_finite", token=token, **where)
    if not _NUMBER.fullmatch(token):
        raise InputError("not_a_number", token=shown(token), **where)
    value = float(token)
    if not math.isfinite(value) or abs(value) > MAX_ABS:
        raise InputError("too_large", token=shown(token), limit=f"{MAX_ABS:g}", **where)
    return value


def _split_entries(text: str, field: str, row: int | None) -> list[str]:
    body = _strip_brackets(text).rstrip(",、 ")  # a trailing comma is forgiven, as in Python
    if not body:
        raise InputError("empty", field=field, **({"row": row} if row is not None else {}))
    # Split on commas one by one so that "1,,2" is caught as an empty entry between commas.
    tokens: list[str] = []
    for i, chunk in enumerate(_ENTRY_SEP.split(body)):
        parts = chunk.split()
        if not parts:
            where = {"field": field, "entry": i + 1} | ({"row": row} if row is not None else {})
            raise InputError("empty_entry", **where)
        tokens.extend(parts)
    return tokens


def parse_vector(text: str, field: str = "query", *, row: int | None = None) -> np.ndarray:
    """One vector, as float64. ``field``/``row`` only label errors."""
    tokens = _split_entries(normalise(text), field, row)
    if len(tokens) > MAX_DIM:
        raise InputError("too_many_dims", field=field, count=len(tokens), limit=MAX_DIM)
    fast = _fast_values(tokens)
    if fast is not None:
        return fast
    # Something is off: find the first faulty entry and name it.
    values = [_parse_number(tok, field, row, i + 1) for i, tok in enumerate(tokens)]
    return np.array(values, dtype=np.float64)


_PLAIN = re.compile(r"[^0-9.eE+-]")


def _fast_values(tokens: list[str]) -> np.ndarray | None:
    """All entries at once, in C, when they are plainly numbers; None to go entry by entry.

    Over the characters 0-9 . e E + -, what float() accepts is exactly what _NUMBER accepts
    (its only extras, "nan", "inf", "1_0", other scripts' digits, use other characters), so
    this gives the same numbers and the same refusals as the loop it replaces (2.5 ms for
    64 × 32 entries, in Python) without a regex per entry.
    """
    joined = "".join(tokens)
    if _PLAIN.search(joined):
        return None
    try:
        values = np.array(tokens, dtype=np.float64)
    except ValueError:
        return None
    if not np.isfinite(values).all() or float(np.abs(values).max(initial=0.0)) > MAX_ABS:
        return None
    return values


def parse_matrix(text: str, field: str = "keys") -> np.ndarray:
    """Rows separated by new lines or ';' (blank lines ignored); all rows the same length."""
    body = normalise(text).strip()
    if body.startswith("[[") or body.startswith("(("):
        body = body[1:-1] if body[-1:] in "])" else body[1:]
    if "[" in body or "]" in body:
        parts = _ROW_SEP.split(body)
    else:  # the common case, split without a regex (it tried every blank as a separator)
        parts = body.replace(";", "\n").split("\n")
    lines = [line for line in parts if _strip_brackets(line)]
    if not lines:
        raise InputError("empty", field=field)
    if len(lines) > MAX_ROWS:
        raise InputError("too_many_rows", field=field, count=len(lines), limit=MAX_ROWS)
    fast = _fast_matrix(lines, field)
    if fast is not None:
        return fast
    # Something is off: parse row by row, so the first fault is named as it always was.
    rows = [parse_vector(line, field, row=i + 1) for i, line in enumerate(lines)]
    first = len(rows[0])
    for i, r in enumerate(rows[1:], start=2):
        if len(r) != first:
            raise InputError("ragged", field=field, row=i, length=len(r), expected=first)
    return np.vstack(rows)


def _fast_matrix(lines: list[str], field: str) -> np.ndarray | None:
    """Every row at once when all is well (one conversion for 64 × 64 entries, not one per
    row); None when anything needs the row-by-row path and its message."""
    try:
        rows = [_split_entries(line, field, i + 1) for i, line in enumerate(lines)]
    except InputError:
        return None
    width = len(rows[0])
    if width > MAX_DIM or any(len(r) != width for r in rows):
        return None
    values = _fast_values([token for r in rows for token in r])
    return None if values is None else values.reshape(len(rows), width)
