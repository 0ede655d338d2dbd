"""Grading one answer to one exercise: numbers with tolerance, entry-by-entry feedback for
vectors and matrices, choices, true/false, and free text by a rubric of key ideas.

Grading never raises on what a learner typed: an empty, unreadable or nonsensical answer
scores 0 and says why. The result, :class:`Grade`, carries text keys and parameters (no
sentences), so the core stays free of the UI; ``grade.lines(attn_tui.i18n.t)`` gives the
feedback in the learner's language.
"""

from __future__ import annotations

import math
import re
import unicodedata
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from typing import Any

import numpy as np

from attn_tui.core.exercises.generators import Instance, fmt_number, instance
from attn_tui.core.exercises.glossary import shipped as shipped_glossary
from attn_tui.core.exercises.misconceptions import Diagnosis, diagnose, diagnose_choice
from attn_tui.core.exercises.model import FOUND, MISSING, SELF_MARKED, Exercise, Idea, IdeaResult
from attn_tui.core.exercises.written import normalise_text, unsure
from attn_tui.core.exercises.written.judge import judge
from attn_tui.core.exercises.written.text import MAX_CHARS as MAX_ANSWER_CHARS
from attn_tui.core.parse import (
    MAX_ABS,
    InputError,
    normalise,
    parse_matrix,
    parse_vector,
    shown,
)

CORRECT, PARTIAL, INCORRECT, EMPTY, UNREADABLE, REVEALED = (
    "correct",
    "partial",
    "incorrect",
    "empty",
    "unreadable",
    "revealed",
)

TRUE_WORDS = frozenset("t true yes y right correct 1 对 是 对的 是的 正确 真 √ ✓ ✔ ☑".split())
FALSE_WORDS = frozenset(
    "f false no n wrong incorrect 0 错 否 错的 不对 不是 错误 假 × ✗ ✘ x ☒".split()
)


@dataclass(frozen=True)
class Note:
    """One line of feedback: a text key and its parameters."""

    key: str
    params: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class Grade:
    kind: str
    status: str  # correct, partial, incorrect, empty, unreadable, revealed
    score: float  # 0 … 1
    correct: bool
    notes: tuple[Note, ...] = ()
    off: tuple[tuple[int, ...], ...] = ()  # 1-based positions of the entries off: (i,) or (r, c)
    found: tuple[Idea, ...] = ()  # rubric ideas found / missing
    missing: tuple[Idea, ...] = ()
    value: Any = None  # the answer as understood: float, array, id, set of ids, bool, text
    error: InputError | None = None  # why the answer could not be read, if it could not
    ideas: tuple[IdeaResult, ...] = ()  # text: every idea's state and the words that matched
    uncertain: bool = False  # text: near the pass mark, or many words the grader does not know
    keyword_list: bool = False  # text: a bare list of keywords (capped at half the pass mark)
    self_marked: tuple[Idea, ...] = ()  # text: ideas the learner marked "I said this"
    diagnoses: tuple[Diagnosis, ...] = ()  # the mistake a wrong answer shows, when known

    def headline(self, t: Callable[..., str], lang: str | None = None) -> str:
        """One line: correct / partly right (n%) / not right / empty / unreadable / revealed."""
        percent = round(100 * self.score)
        return t(f"ex.fb.{self.status}", lang=lang, percent=percent)

    @property
    def is_answer(self) -> bool:
        """False when nothing in it could be read as an answer of this kind: an unreadable
        number, or not one choice or true/false word recognised. Such a slip is not an attempt
        (the screens neither count nor store it); it is said what can be read instead."""
        if self.status == UNREADABLE:
            return False
        if self.kind in ("choice", "truefalse", "multi") and self.status not in (EMPTY, REVEALED):
            return self.value is not None and self.value != frozenset()  # False is an answer
        return True

    def lines(self, t: Callable[..., str], lang: str | None = None) -> list[str]:
        """The headline, then every note (entries off, ideas found and missing ...)."""
        out = [self.headline(t, lang)]
        if self.error is not None:
            out.append(_describe_input_error(self.error, t, lang))
        if self.status == UNREADABLE:
            out.append(t(f"ex.fb.readable.{self.kind}", lang=lang))
        out += [t(n.key, lang=lang, **n.params) for n in self.notes]
        out += [d.message(t, lang) for d in self.diagnoses]
        if self.ideas:
            out += idea_lines(self, t, lang)
            return out
        if self.found:
            out.append(t("ex.fb.ideas_found", lang=lang, ideas=self._ideas(self.found, t, lang)))
        if self.missing:
            out.append(
                t("ex.fb.ideas_missing", lang=lang, ideas=self._ideas(self.missing, t, lang))
            )
        return out

    @staticmethod
    def _ideas(ideas: tuple[Idea, ...], t: Callable[..., str], lang: str | None) -> str:
        sep = t("ex.list_sep", lang=lang)
        code = lang or ("zh" if t("ex.lang") == "zh" else "en")
        return sep.join(i.text.get(code) for i in ideas)

    def found_ideas(self, lang: str) -> list[str]:
        return [i.text.get(lang) for i in self.found]

    def missing_ideas(self, lang: str) -> list[str]:
        return [i.text.get(lang) for i in self.missing]


def _describe_input_error(err: InputError, t: Callable[..., str], lang: str | None) -> str:
    """The parser's message, with its field named "answer" (what i18n.describe does)."""
    params = dict(err.params)
    params.pop("field", None)
    field_name = t("common.field.answer", lang=lang)
    if "row" in params and err.code != "ragged":
        field_name = t("common.field_row", lang=lang, field=field_name, row=params["row"])
    key = err.code if "." in err.code else f"err.{err.code}"
    try:
        return t(key, lang=lang, field=field_name, **params)
    except KeyError:
        return str(err)


# -- numbers --------------------------------------------------------------------------------

_THOUSANDS = re.compile(r"[+-]?\d{1,3}(?:,\d{3})+(?:\.\d+)?")
_FRACTION = re.compile(r"([+-]?(?:\d+(?:\.\d*)?|\.\d+))\s*/\s*(\d+(?:\.\d*)?|\.\d+)")
# (read only for answers of at most 40 characters)
# One side of a simple surd: 3, √3, 2√3, 2×√3, √(3), sqrt(3) — a number times a root, or either.
_SURD_TERM = re.compile(
    r"(?P<coef>[+-]?(?:\d+(?:\.\d*)?|\.\d+))?"
    r"(?:\s*[×*·]?\s*(?:√|sqrt)\s*(?P<open>\()?\s*(?P<root>\d+(?:\.\d*)?|\.\d+)\s*(?(open)\)))?"
)


def _is_blank(answer: Any) -> bool:
    return (
        answer is None
        or (isinstance(answer, str) and not normalise(answer).strip())
        or (isinstance(answer, (list, tuple)) and len(answer) == 0)
    )


# A number may carry a word of unit after it (6 points, 6 个百分点, 100 scores, 100 倍, 6%) and
# "about" before it; the unit is dropped. Anything with a second number in it is not one number.
_APPROX = re.compile(r"^(?:about|approx\.?|approximately|roughly|around|约|大约|≈|~)\s*", re.I)
_UNIT_TAIL = re.compile(
    r"^(?P<number>[^A-Za-z\u3400-\u9fff%]+?)"
    r"(?P<unit>\s*%|\s*[\u3400-\u9fff][A-Za-z\u3400-\u9fff .\-]{0,30}"
    r"|\s+[A-Za-z][A-Za-z\u3400-\u9fff .\-]{0,30})$"
)


def _read_number_with_unit(answer: Any) -> tuple[float, bool]:
    """The number, and whether it was written with a % (so 6% may also mean 0.06)."""
    try:
        return _read_number(answer), False
    except InputError as err:
        if not isinstance(answer, str):
            raise
        text = _APPROX.sub("", normalise(answer).strip())
        m = _UNIT_TAIL.match(text)
        if m is None or any(c.isdigit() for c in m.group("unit")):
            raise err from None
        return _read_number(m.group("number")), m.group("unit").strip() == "%"


def _read_number(answer: Any) -> float:
    """One number: 0.2303, .2303, ０.２３０３, 1,000,000, 3/4. Raises InputError otherwise."""
    if isinstance(answer, bool):
        raise InputError("not_a_number", field="answer", entry=1, token=str(answer))
    if isinstance(answer, (int, float)):
        if isinstance(answer, int) and abs(answer) > MAX_ABS:  # float() would overflow
            raise InputError(
                "too_large", field="answer", entry=1, token=shown(str(answer)), limit=f"{MAX_ABS:g}"
            )
        return float(parse_vector(repr(float(answer)), "answer")[0])
    text = normalise(str(answer)).strip()
    if _THOUSANDS.fullmatch(text):
        text = text.replace(",", "")
    m = _FRACTION.fullmatch(text)
    if m:
        den = float(m.group(2))
        if den != 0:
            return float(m.group(1)) / den
    surd = _read_surd(text) if ("√" in text or "sqrt" in text) and len(text) <= 40 else None
    if surd is not None:
        return surd
    values = parse_vector(text, "answer")
    if len(values) != 1:
        raise InputError("ex.one_number", count=len(values))
    return float(values[0])


def _surd_term(text: str) -> float | None:
    m = _SURD_TERM.fullmatch(text.strip())
    if m is None or (m.group("coef") is None and m.group("root") is None):
        return None
    coef = m.group("coef")
    value = float(coef) if coef not in (None, "+", "-") else (-1.0 if coef == "-" else 1.0)
    if m.group("root") is not None:
        value *= math.sqrt(float(m.group("root")))
    return value


def _read_surd(text: str) -> float | None:
    """√3, 2√3, 1/√3, √3/3, −√2/2 as numbers (a learner writes 1/√d as it is printed)."""
    if text.startswith(("-", "+")) and text[1:2] in ("√", "s"):
        text = text[0] + "1" + text[1:]  # "−√2/2" → "-1√2/2"
    top, _, bottom = text.partition("/")
    num = _surd_term(top)
    den = _surd_term(bottom) if bottom else 1.0
    if num is None or den is None or den == 0:
        return None
    return num / den


def _as_text(answer: Any) -> str:
    """Lists from an answer file (JSON/TOML) become the text a learner would type."""
    if isinstance(answer, (list, tuple)):
        if answer and all(isinstance(r, (list, tuple)) for r in answer):
            return "; ".join(" ".join(str(v) for v in r) for r in answer)
        return " ".join(str(v) for v in answer)
    return str(answer)


def _grade_number(inst: Instance, answer: Any) -> Grade:
    tol = inst.exercise.tolerance
    try:
        got, percent = _read_number_with_unit(answer)
    except InputError as err:
        return Grade("number", UNREADABLE, 0.0, False, error=err)
    ok = tol.ok(got, float(inst.answer))
    if not ok and percent and tol.ok(got / 100, float(inst.answer)):
        got, ok = got / 100, True  # 6% for an answer of 0.06
    return Grade("number", CORRECT if ok else INCORRECT, float(ok), ok, value=got)


def _grade_entries(inst: Instance, answer: Any) -> Grade:
    """Vectors and matrices: entry by entry; partial credit is the share of entries right."""
    kind = inst.exercise.kind
    tol = inst.exercise.tolerance
    expected = np.atleast_2d(np.asarray(inst.answer, dtype=np.float64))
    try:
        if kind == "vector":
            got = np.atleast_2d(parse_vector(_as_text(answer), "answer"))
        else:
            got = parse_matrix(_as_text(answer), "answer")
    except InputError as err:
        return Grade(kind, UNREADABLE, 0.0, False, error=err)
    rows, cols = min(got.shape[0], expected.shape[0]), min(got.shape[1], expected.shape[1])
    ok = np.zeros((rows, cols), dtype=bool)
    for r in range(rows):
        for c in range(cols):
            ok[r, c] = tol.ok(float(got[r, c]), float(expected[r, c]))
    size = max(got.shape[0], expected.shape[0]) * max(got.shape[1], expected.shape[1])
    score = float(ok.sum()) / size
    notes: list[Note] = []
    same_shape = got.shape == expected.shape
    if kind == "vector":
        off: tuple[tuple[int, ...], ...] = tuple((c + 1,) for c in range(cols) if not ok[0, c])
        if not same_shape:
            notes.append(
                Note("ex.fb.wrong_length", {"got": got.shape[1], "expected": expected.shape[1]})
            )
        shown = ", ".join(str(p[0]) for p in off)
    else:
        off = tuple((r + 1, c + 1) for r in range(rows) for c in range(cols) if not ok[r, c])
        if not same_shape:
            notes.append(
                Note("ex.fb.wrong_shape", {"got": _shape(got), "expected": _shape(expected)})
            )
        shown = ", ".join(f"({r},{c})" for r, c in off)
    if off:
        notes.append(Note("ex.fb.entries_off", {"entries": shown, "count": len(off)}))
    if off or not same_shape:
        notes.append(Note("ex.fb.entries_right", {"right": int(ok.sum()), "total": expected.size}))
    correct = same_shape and not off
    if inst.exercise.whole and not correct:
        score = 0.0  # a shape (10, 64) for (10, 10) is a wrong shape, not half of one
    status = CORRECT if correct else PARTIAL if score > 0 else INCORRECT
    value = got[0] if kind == "vector" else got
    return Grade(kind, status, 1.0 if correct else score, correct, tuple(notes), off, value=value)


def _shape(a: np.ndarray) -> str:
    return f"{a.shape[0]}×{a.shape[1]}"


# -- choices --------------------------------------------------------------------------------

_SPLIT = re.compile(r"[\s,;/、，；]+|\band\b|和|及")
MAX_PICKS = 64  # distinct tokens of a multi answer looked up; more are all unknown


def _token(text: str) -> str:
    folded = unicodedata.normalize("NFKC", text).casefold().strip()
    return folded.strip("".join(sorted(set("()[]{}<>.:：。)）（【】 \t"))))


def _choice_id(ex: Exercise, token: str) -> str | None:
    """A typed token as a choice id: the id itself, any case, in brackets; or its number
    (1, 2 ...) when the ids are not numbers; or the choice's whole text."""
    tok = _token(token)
    if not tok:
        return None
    for c in ex.choices:
        if c.id.casefold() == tok:
            return c.id
    ids_numeric = any(c.id.isdigit() for c in ex.choices)
    # isdecimal, not isdigit: int("፩") fails; and a pasted million digits is no position
    if tok.isdecimal() and len(tok) <= 4 and not ids_numeric and 1 <= int(tok) <= len(ex.choices):
        return ex.choices[int(tok) - 1].id
    flat = normalise_text(token)
    for c in ex.choices:
        if flat and flat in (normalise_text(c.text.zh), normalise_text(c.text.en)):
            return c.id
    return None


def _grade_choice(inst: Instance, answer: Any) -> Grade:
    ex = inst.exercise
    picked = _choice_id(ex, str(answer))
    if picked is None:
        notes = (Note("ex.fb.unknown_choice", {"answer": str(answer).strip(), "known": _ids(ex)}),)
        return Grade("choice", INCORRECT, 0.0, False, notes)
    ok = picked == inst.answer
    return Grade("choice", CORRECT if ok else INCORRECT, float(ok), ok, value=picked)


def _ids(ex: Exercise) -> str:
    return ", ".join(c.id for c in ex.choices)


def _grade_multi(inst: Instance, answer: Any) -> Grade:
    """Score = (right picks − wrong picks) / number right, floored at 0."""
    ex = inst.exercise
    if isinstance(answer, (list, tuple, set, frozenset)):
        tokens = [str(a) for a in answer]
    else:
        text = unicodedata.normalize("NFKC", str(answer)).strip()
        tokens = [tok for tok in _SPLIT.split(text) if tok and tok.strip()]
        single = all(len(c.id) == 1 for c in ex.choices)
        if len(tokens) == 1 and single and _choice_id(ex, tokens[0]) is None:
            tokens = list(_token(tokens[0]))  # "ac" → a, c
    picked: set[str] = set()
    unknown: list[str] = []
    # Each distinct token once, and at most MAX_PICKS of them looked up: a pasted megabyte of
    # "1 1 1 …" or "a1 a2 a3 …" is one or many wrong picks, not a minute of lookups.
    distinct = list(dict.fromkeys(tokens))
    for tok in distinct[:MAX_PICKS]:
        cid = _choice_id(ex, tok)
        if cid is None:
            unknown.append(tok)
        else:
            picked.add(cid)
    unknown += distinct[MAX_PICKS:]
    right = set(inst.answer)
    hits, wrong = picked & right, picked - right
    score = max(0, len(hits) - len(wrong)) / len(right)
    notes: list[Note] = []
    if unknown:
        listed = ", ".join(shown(u) for u in unknown[:10]) + (", …" if len(unknown) > 10 else "")
        notes.append(Note("ex.fb.unknown_choice", {"answer": listed, "known": _ids(ex)}))
    if wrong:
        notes.append(Note("ex.fb.not_right", {"ids": ", ".join(sorted(wrong))}))
    if right - picked:
        notes.append(Note("ex.fb.missing_choices", {"count": len(right - picked)}))
    correct = picked == right and not unknown
    status = CORRECT if correct else PARTIAL if score > 0 else INCORRECT
    return Grade(
        "multi", status, 1.0 if correct else score, correct, tuple(notes), value=frozenset(picked)
    )


def read_truefalse(answer: Any) -> bool | None:
    """t/f, true/false, yes/no, 对/错, 是/否, √/× ... → bool; anything else → None."""
    if isinstance(answer, bool):
        return answer
    tok = _token(str(answer)).replace(" ", "")
    tok = tok.rstrip("!！")
    if tok in TRUE_WORDS:
        return True
    if tok in FALSE_WORDS:
        return False
    return None


def _grade_truefalse(inst: Instance, answer: Any) -> Grade:
    got = read_truefalse(answer)
    if got is None:
        return Grade("truefalse", INCORRECT, 0.0, False, (Note("ex.fb.unknown_truefalse"),))
    ok = got == inst.answer
    return Grade("truefalse", CORRECT if ok else INCORRECT, float(ok), ok, value=got)


# -- text by rubric -------------------------------------------------------------------------


def idea_found(idea: Idea, flat_answer: str) -> bool:
    """The old substring test (any phrase present, no forbid phrase): kept for callers that
    want it; grading uses :func:`attn_tui.core.exercises.written.judge.judge`."""
    if any(f and f in flat_answer for f in map(normalise_text, idea.all_forbid())):
        return False
    return any(p and p in flat_answer for p in map(normalise_text, idea.all_phrases()))


def _grade_text(inst: Instance, answer: Any) -> Grade:
    ex = inst.exercise
    glossary = shipped_glossary()
    j = judge(ex, _as_text(answer), glossary)
    found = tuple(r.idea for r in j.results if r.state == FOUND)
    missing = tuple(r.idea for r in j.results if r.state != FOUND)
    correct = j.score >= ex.pass_mark - 1e-9
    status = CORRECT if correct else PARTIAL if j.score > 0 else INCORRECT
    notes = []
    if j.keyword_list:
        notes.append(Note("ex.fb.keyword_list"))
    if j.cut:
        notes.append(Note("ex.fb.cut", {"chars": MAX_ANSWER_CHARS}))
    # Flagged by a small logistic model of the judge's own signals (written/unsure.py),
    # fitted on judged answers; never for an answer that only says it does not know.
    uncertain = unsure.unsure(
        unsure.of_judgement(ex, j, answer=_as_text(answer), glossary=glossary), j.dont_know
    )
    return Grade(
        "text",
        status,
        j.score,
        correct,
        tuple(notes),
        found=found,
        missing=missing,
        value=_as_text(answer),  # what was read: an answer file's list joined, not its repr
        ideas=j.results,
        uncertain=uncertain,
        keyword_list=j.keyword_list,
    )


def self_check(g: Grade, marked: Any) -> Grade:
    """The grade with the ideas the learner marked "I said this" (indices into ``g.ideas``,
    missing ones only) recorded apart: the score stays the grader's own."""
    chosen = {int(k) for k in marked}
    ideas = tuple(
        IdeaResult(r.idea, SELF_MARKED, r.matched, r.against)
        if k in chosen and r.state == MISSING
        else r
        for k, r in enumerate(g.ideas)
    )
    picked = tuple(r.idea for r in ideas if r.state == SELF_MARKED)
    return replace(g, ideas=ideas, self_marked=picked)


def self_score(g: Grade) -> float:
    """The score the learner claims: the grader's plus the weight of the ideas self-marked."""
    total = sum(r.idea.weight for r in g.ideas if not r.idea.bonus)
    if not total:
        return g.score
    return min(1.0, g.score + sum(i.weight for i in g.self_marked) / total)


def idea_lines(g: Grade, t: Callable[..., str], lang: str | None) -> list[str]:
    """One line per idea: found (with the words that matched), missing, negated, with roles
    swapped, out of order, cancelled by a contradiction, or marked by the learner."""
    code = lang or ("zh" if t("ex.lang") == "zh" else "en")
    out = []
    for r in g.ideas:
        words = t("ex.list_sep", lang=lang).join(f"“{w}”" for w in r.matched[:3])
        out.append(
            t(
                f"ex.fb.idea.{r.state}",
                lang=lang,
                idea=r.idea.text.get(code),
                words=words,
                against=f"“{r.against}”" if r.against else "",
            )
        )
    if g.uncertain:
        # with ideas not found it offers the self-check; a grade it doubts with every idea
        # found (a pass that may contradict itself) says so and points to the reference
        offer = any(r.state == MISSING for r in g.ideas)
        out.append(t("ex.fb.uncertain" if offer else "ex.fb.uncertain_pass", lang=lang))
    return out


_GRADERS = {
    "number": _grade_number,
    "vector": _grade_entries,
    "matrix": _grade_entries,
    "choice": _grade_choice,
    "multi": _grade_multi,
    "truefalse": _grade_truefalse,
    "text": _grade_text,
}


def grade(item: Instance | Exercise, answer: Any) -> Grade:
    """Grade ``answer`` (what was typed, or a value from an answer file) against ``item``.

    Pass the :class:`Instance` that was shown (a generated exercise's answer depends on its
    seed); a stored Exercise is accepted as a shorthand.
    """
    inst = item if isinstance(item, Instance) else _stored(item)
    kind = inst.exercise.kind
    if _is_blank(answer):
        missing = inst.exercise.rubric if kind == "text" else ()
        ideas = tuple(IdeaResult(i, MISSING) for i in missing)
        return Grade(kind, EMPTY, 0.0, False, missing=missing, ideas=ideas)
    g = _GRADERS[kind](inst, answer)
    if g.correct or g.value is None:
        return g
    if kind in ("number", "vector", "matrix"):
        found = diagnose(inst, g.value)
    elif kind in ("choice", "multi"):
        found = diagnose_choice(inst, g.value)
    else:
        found = ()
    return replace(g, diagnoses=found) if found else g


def _stored(ex: Exercise) -> Instance:
    if ex.generated:
        raise ValueError(f"exercise {ex.id!r} is generated: grade the Instance that was shown")
    return instance(ex)


def reveal(item: Instance | Exercise) -> Grade:
    """The grade recorded when the learner asks to see the answer: no credit."""
    inst = item if isinstance(item, Instance) else _stored(item)
    missing = inst.exercise.rubric if inst.exercise.kind == "text" else ()
    ideas = tuple(IdeaResult(i, MISSING) for i in missing)
    return Grade(inst.exercise.kind, REVEALED, 0.0, False, missing=missing, ideas=ideas)


__all__ = [
    "Diagnosis",
    "Grade",
    "Note",
    "grade",
    "reveal",
    "normalise_text",
    "idea_found",
    "idea_lines",
    "read_truefalse",
    "self_check",
    "self_score",
    "fmt_number",
]
