"""Every figure the shipped prose states is checked: marked as a claim ``{= …}`` (which the
loader recomputes), or the exercise's own checked answer. Issue 13: "a wrong figure in a hint
fails the suite".

Two rules over the raw text of every shipped file, with the marked claims taken out first:

1. No unmarked arithmetic: a ``=`` or ``≈`` with numbers on both sides (``0.1293 + 0.2303 =
   0.3595``, ``√512 ≈ 22.6``) must be a claim. Matrix-shape products such as
   ``(10, 64)·(64, 10) = (10, 10)`` are the one exception, checked here by the shape rule.
2. No unchecked decimal in a hint, an explanation, a right choice or a reference answer: each
   must be a claim, or equal (to the digits shown) an entry of the exercise's answer when the
   core checks that answer (``check``), or quote a number of the question itself (its prompt
   or its choices: the data the learner is given).

The wrong choices of a choice question are false on purpose, so neither rule reads them.
"""

from __future__ import annotations

import re
import tomllib

import numpy as np
import pytest

from attn_tui import paths
from attn_tui.core.exercises import claims

SHIPPED = paths.shipped_files()
_MATH = set("0123456789.,()[] +−-×·/÷²³¹⁰⁴⁵⁶⁷⁸⁹⁻√%eπ")
_RELATIONS = "=≈＝"
_SHAPE = re.compile(r"\(\d+, ?\d+\)(?:·\(\d+, ?\d+\))+ ?= ?\(\d+, ?\d+\)")
_DECIMAL = re.compile(r"(?<![A-Za-z0-9_.])[-−]?\d*\.\d+")


def _unmarked(text: str) -> str:
    return claims.MARK.sub(" ⟨claim⟩ ", text)


def _run(text: str, i: int, step: int) -> str:
    """The math-looking characters next to position i, walking left (-1) or right (+1)."""
    opening, closing = ("([", ")]") if step > 0 else (")]", "([")
    depth = 0
    j = i
    out = []
    while 0 <= j < len(text):
        ch = text[j]
        depth += (ch in opening) - (ch in closing)
        if ch not in _MATH or (ch == "," and depth == 0) or depth < 0:
            break
        if (
            ch == "e"
            and 0 <= j - 1
            and text[j - 1].isalpha()
            or (ch == "e" and j + 1 < len(text) and text[j + 1].isalpha())
        ):
            break  # the letter e inside a word, not Euler's number
        out.append(ch)
        j += step
    return "".join(out if step > 0 else reversed(out))


def unmarked_relations(text: str) -> list[str]:
    """Spans like "0.1293 + 0.2303 = 0.3595" that are not marked as claims."""
    text = _unmarked(text)
    found = []
    for m in re.finditer(f"[{_RELATIONS}]", text):
        left = _run(text, m.start() - 1, -1)
        right = _run(text, m.end(), +1)
        if any(c in "0123456789" for c in left) and any(c in "0123456789" for c in right):
            span = (left + m.group(0) + right).strip().rstrip(".").strip()
            if _SHAPE.fullmatch(span):
                assert _shape_holds(span), f"a shape product does not hold: {span}"
                continue
            found.append(span)
    return found


def _shape_holds(span: str) -> bool:
    shapes = [tuple(map(int, s)) for s in re.findall(r"\((\d+), ?(\d+)\)", span)]
    *factors, result = shapes
    rows, cols = factors[0]
    for r, c in factors[1:]:
        if r != cols:
            return False
        cols = c
    return (rows, cols) == result


def _texts(ex: dict) -> list[tuple[str, str]]:
    """(where, text) of every learner-facing string of one exercise."""
    out = []
    for key in ("prompt", "explanation"):
        for lang, text in (ex.get(key) or {}).items():
            out.append((f"{key}.{lang}", text))
    for lang, items in (ex.get("hints") or {}).items():
        out += [(f"hints.{lang}", h) for h in items]
    if ex.get("kind") == "text":
        out += [(f"answer.{lang}", a) for lang, a in (ex.get("answer") or {}).items()]
    keyed = ex.get("answer") if isinstance(ex.get("answer"), list) else [ex.get("answer")]
    for c in ex.get("choices") or []:
        if c.get("id") in keyed:  # a distractor is false on purpose
            out += [(f"choice {c['id']}.{lang}", c[lang]) for lang in ("zh", "en") if lang in c]
    for idea in ex.get("rubric") or []:
        out += [(f"rubric idea.{lang}", s) for lang, s in (idea.get("idea") or {}).items()]
    return out


def _checked_answer(ex: dict) -> np.ndarray | None:
    if "check" in ex and ex.get("kind") in ("number", "vector", "matrix"):
        return np.ravel(np.asarray(ex["answer"], dtype=np.float64))
    return None


def _load(path):
    return tomllib.loads(path.read_text("utf-8"))


@pytest.mark.parametrize("path", SHIPPED, ids=lambda p: f"{p.parent.name}/{p.name}")
def test_no_unmarked_arithmetic_in_shipped_prose(path):
    data = _load(path)
    bad = []
    for ex in data.get("exercise", []):
        for where, text in _texts(ex):
            bad += [f"{ex['id']} {where}: {span}" for span in unmarked_relations(text)]
    assert bad == [], "\n".join(bad)


@pytest.mark.parametrize("path", SHIPPED, ids=lambda p: f"{p.parent.name}/{p.name}")
def test_no_unchecked_decimal_in_shipped_hints_and_explanations(path):
    data = _load(path)
    bad = []
    for ex in data.get("exercise", []):
        answer = _checked_answer(ex)
        given = [claims.display(ex["prompt"][lang]) for lang in ("zh", "en")]
        given += [
            claims.display(c.get(lang, ""))
            for c in ex.get("choices") or []
            for lang in "zh en".split()
        ]
        quoted = {float(m.group(0).replace("−", "-")) for g in given for m in _DECIMAL.finditer(g)}
        for where, text in _texts(ex):
            if where.startswith("prompt"):
                continue
            for m in _DECIMAL.finditer(_unmarked(text)):
                token = m.group(0).replace("−", "-")
                value = float(token)
                half = 0.5 * 10.0 ** -len(token.split(".")[1])
                if answer is not None and np.any(np.abs(answer - value) <= half + 1e-12):
                    continue
                if value in quoted:
                    continue
                bad.append(f"{ex['id']} {where}: {token}")
    assert bad == [], "\n".join(bad)


def test_the_detector_finds_what_it_should():
    assert unmarked_relations("第 2 维：0.1293 + 0.2303 = 0.3595；") == ["0.1293 + 0.2303 = 0.3595"]
    assert unmarked_relations("√512 ≈ 22.6。") == ["√512 ≈ 22.6"]
    assert unmarked_relations("2×1+1×0 = 2, 2×0+1×1 = 1") == ["2×1+1×0 = 2", "2×0+1×1 = 1"]
    assert unmarked_relations("{= 0.1293 + 0.2303 = 0.3596}") == []
    assert unmarked_relations("d_k = d_model / h，n × n = n²") == []
    assert unmarked_relations("(10, 64)·(64, 10) = (10, 10)") == []
    with pytest.raises(AssertionError):
        unmarked_relations("(10, 64)·(64, 10) = (10, 64)")


def test_the_text_catalogue_states_no_unchecked_arithmetic():
    """The screens' own prose (attn_tui/text) carries no figures of its own: the numbers the
    screens show are computed by the core and passed in as {placeholders}."""
    from attn_tui.text import load_catalogue

    found = [
        (key, span)
        for key, entry in sorted(load_catalogue().items())
        for text in entry
        for span in unmarked_relations(text)
    ]
    assert found == []
