"""How numbers and arithmetic are written out, shared by the screens and the headless CLI.

Plain strings only (no Rich), so the tests can read exactly what a learner reads.
"""

from __future__ import annotations

import math
import re
import unicodedata
from collections.abc import Sequence
from functools import cache

MINUS = "\u2212"  # typographic minus: "−2" reads better than "-2" in worked arithmetic
SUBSCRIPTS = str.maketrans("0123456789", "₀₁₂₃₄₅₆₇₈₉")


def sub(i: int) -> str:
    """1 → '₁', 12 → '₁₂': the index of k₁, α₃..."""
    return str(i).translate(SUBSCRIPTS)


def num(x: float, places: int = 4) -> str:
    """A typed or exact number: integers bare ('2', '−1'), others to `places` decimals, trimmed.

    '0.5774', '0.5', '−0.25', '1e+06' for very large magnitudes.
    """
    x = float(x)
    if not math.isfinite(x):
        return str(x)
    if abs(x) >= 1e5:
        text = f"{x:.4g}"
    elif x == int(x):
        text = str(int(x))
    else:
        text = f"{x:.{places}f}".rstrip("0").rstrip(".")
        if text in ("-0", ""):
            text = "0"
    return text.replace("-", MINUS)


def fixed(x: float, places: int = 4, sign: bool = False) -> str:
    """A computed number at fixed precision: '0.5774', '0.0000', '+0.8707' (sign=True)."""
    x = float(x)
    if abs(x) >= 1e5 and math.isfinite(x):
        text = f"{x:+.{places}e}" if sign else f"{x:.{places}e}"
    else:
        text = f"{x:+.{places}f}" if sign else f"{x:.{places}f}"
    if text.lstrip("+-") == f"{0:.{places}f}":  # never print −0.0000
        text = ("+" if sign else "") + text.lstrip("+-")
    return text.replace("-", MINUS)


def vec(
    values: Sequence[float],
    places: int = 4,
    *,
    fixed_places: bool = False,
    sign: bool = False,
    limit: int = 8,
) -> str:
    """'(1, 0, 1)'; long vectors show their first entries, '…' and the last one."""
    fmt = (lambda v: fixed(v, places, sign)) if fixed_places else (lambda v: num(v, places))
    n = len(values)
    if n <= limit:
        items = [fmt(v) for v in values]
    else:  # format only what is shown: 64-entry vectors are common here
        items = [fmt(values[i]) for i in range(limit - 2)] + ["…", fmt(values[n - 1])]
    return "(" + ", ".join(items) + ")"


def factor(x: float) -> str:
    """A factor inside a product: negatives in parentheses, '1×(−2)'."""
    text = num(x)
    return f"({text})" if text.startswith(MINUS) else text


def dot_arithmetic(q: Sequence[float], k: Sequence[float], max_terms: int = 6) -> str:
    """'1×1 + 0×0 + 1×0' — the written-out dot product (without '= result').

    With more than `max_terms` terms, the first few and the last are shown around '…'.
    """
    if len(q) != len(k):
        raise ValueError(f"lengths differ: {len(q)} and {len(k)}")
    n = len(q)
    shown = range(n) if n <= max_terms else [*range(max_terms - 2), n - 1]  # format only these
    terms = [f"{factor(q[i])}×{factor(k[i])}" for i in shown]
    if n > max_terms:
        terms.insert(max_terms - 2, "…")
    return " + ".join(terms)


# ---- text that came from outside ------------------------------------------------------------
# A file name, a typed answer or a teacher's file may hold ESC, BEL, a NUL, bidi overrides or bytes
# that were not UTF-8 (lone surrogates, from surrogateescape). Printed raw, they move the cursor,
# recolour the terminal or fail to encode; shown as escapes, they are visible and harmless.

_UNSEEN = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069\ud800-\udfff]")
_UNSEEN_LINE = re.compile("[\x00-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069\ud800-\udfff]")


def _escape(m: re.Match[str]) -> str:
    code = ord(m.group())
    if 0xDC80 <= code <= 0xDCFF:  # a byte that was not UTF-8, as surrogateescape keeps it
        return f"\\x{code - 0xDC00:02x}"
    if code < 0x100:
        return {0x0A: "\\n", 0x09: "\\t"}.get(code, f"\\x{code:02x}")
    return f"\\u{code:04x}"


def visible(text: str, one_line: bool = False) -> str:
    """``text`` safe to print: control characters, bidi overrides and unpaired surrogates become
    escapes (``\\x1b``, ``\\xff`` for a byte that was not UTF-8). Tabs and new lines stay
    unless ``one_line``."""
    return (_UNSEEN_LINE if one_line else _UNSEEN).sub(_escape, text)


_LONG_RUN = re.compile(r"\S{241,}")


def shorten(text: str, limit: int = 1000) -> str:
    """``text`` with every run of more than 240 non-space characters cut to its start, "…" and
    its end, and then at most ``limit`` characters: a one-line message that quotes what the
    user typed never repeats a megabyte of it (``--host 111…``, a path of a million "a")."""

    def cut(m: re.Match[str]) -> str:
        run = m.group()
        return f"{run[:160]}…{run[-60:]}"

    text = _LONG_RUN.sub(cut, text)
    if len(text) <= limit:
        return text
    keep = limit - 1
    return f"{text[: keep * 2 // 3]}…{text[-(keep - keep * 2 // 3) :]}"


# ---- wrapping prose that mixes Chinese and English ----------------------------------------
# Rich wraps on spaces, so a run of Chinese (which has none) moves whole to the next line and
# is then cut anywhere. Here each CJK character is its own breakable unit, English words stay
# whole, and closing punctuation never starts a line (it pulls the previous unit down with it).

_TOKENS = re.compile(
    r"[\u2e80-\u9fff\u3000-\u303f\uf900-\ufaff\ufe30-\ufe4f\uff00-\uffef]|[^\s\u2e80-\u9fff\u3000-\u303f\uf900-\ufaff\ufe30-\ufe4f\uff00-\uffef]+|\s+"
)
_NO_LINE_START = set("，。、：；！？）」』】》,.;:!?)]”’")
_NO_LINE_END = set("（「『【《“‘")


@cache
def _char_cells(ch: str) -> int:
    return 2 if unicodedata.east_asian_width(ch) in "WF" else 1


def cell_len(text: str) -> int:
    """Terminal cells: wide (CJK) characters take two."""
    return len(text) if text.isascii() else sum(map(_char_cells, text))


# Spaces that must not become line breaks, turned into a stand-in for the length of the
# wrapping: inside a short bracketed group of numbers or symbols "(2 -1 -1)" (not of prose),
# between the numbers of one row
# "-2 -1 0", between a number and the Chinese unit after it "3 维", and around the sign of
# a short equation "d_k = 4". A glued run longer than a whole line is broken at those
# spaces after all.
_GLUE = "\x00"
_BRACKETED = re.compile(r"[\[(][^\[\]()\n\u2e80-\u9fff\uff00-\uffef]{1,40}[\])]")
_BETWEEN_NUMBERS = re.compile(r"(?<=[\d.])[ \t](?=[-+\u2212]?\.?\d)")
_NUMBER_UNIT = re.compile(r"(?<=\d)[ \t](?=[\u2e80-\u9fff])")
_EQUATION = re.compile(r"(?<=[!-~]) (?=[=<>≤≥≈] [!-~])|(?<=[!-~] [=<>≤≥≈]) (?=[!-~])")


_WORD = re.compile(r"[A-Za-z][A-Za-z'’_-]+")


def _glue_group(m: re.Match[str]) -> str:
    """A bracketed group of numbers or symbols, "(2 -1 -1)", "(10, 64)", "(d_k = 16)", stays
    whole; a parenthesis of prose, "(each entry standard normal)" (two words or more between
    two commas), breaks between its words like the sentence around it: glued, it went down
    whole and left the line before it half empty."""
    group = m.group(0)
    if any(len(_WORD.findall(part)) > 1 for part in group.split(",")):
        return group
    return group.replace(" ", _GLUE)


def _glue(paragraph: str) -> str:
    if not any(ch.isdigit() for ch in paragraph) and "(" not in paragraph and "[" not in paragraph:
        return paragraph
    paragraph = _BRACKETED.sub(_glue_group, paragraph)
    paragraph = _BETWEEN_NUMBERS.sub(_GLUE, paragraph)
    paragraph = _NUMBER_UNIT.sub(_GLUE, paragraph)
    return _EQUATION.sub(_GLUE, paragraph) if "=" in paragraph or "≈" in paragraph else paragraph


def _units(paragraph: str, width: int) -> list[str]:
    """The paragraph's breakable units: glued runs whole unless longer than a line."""
    units: list[str] = []
    for token in _TOKENS.findall(paragraph):
        if units and units[-1].endswith(_GLUE):  # "3␀" + "维": one unit
            units[-1] += token
        elif _GLUE in token and cell_len(token) > width:
            parts = token.split(_GLUE)
            for i, part in enumerate(parts):
                if i:
                    units.append(" ")
                units.append(part)
        else:
            units.append(token)
    return units


def wrap(text: str, width: int) -> list[str]:
    """Greedy line breaking for mixed zh/en prose; explicit newlines are kept. A vector's
    numbers, a bracketed group and a number with its unit stay on one line when they fit."""
    lines: list[str] = []
    for paragraph in text.split("\n"):
        line: list[str] = []
        used = 0
        for token in _units(_glue(paragraph), width):
            size = cell_len(token)
            if token.isspace():
                if line:
                    line.append(" ")
                    used += 1
                continue
            if used + size > width and line:
                carried: list[str] = []
                # (a unit after Chinese may be punctuation run together: "”," after "中国")
                if token[0] in _NO_LINE_START and len(line) > 1 and not line[-1].isspace():
                    carried = [line.pop()]
                    # "国" "”" "，": the quote may not start the line either
                    while (
                        carried[0][0] in _NO_LINE_START and len(line) > 1 and not line[-1].isspace()
                    ):
                        carried.insert(0, line.pop())
                while len(line) > 1 and line[-1] in _NO_LINE_END:  # an opening bracket goes down
                    carried.insert(0, line.pop())
                while line and line[-1].isspace():
                    line.pop()
                lines.append("".join(line))
                line = carried
                used = sum(cell_len(tok) for tok in line)
            line.append(token)
            used += size
        while line and line[-1].isspace():
            line.pop()
        lines.append("".join(line))
    return [line.replace(_GLUE, " ") for line in lines]
