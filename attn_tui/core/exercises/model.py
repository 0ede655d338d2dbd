"""The shapes of exercise data: sets, exercises, rubric ideas, faults and the library.

Every other module of ``core.exercises`` reads these; this module imports none of them, so
the loader, the generators and the grader form no cycle.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from attn_tui.core.format import visible


class Msg(str):
    """A text key used as a parameter value: whoever formats the message translates it too."""


LANGS = ("zh", "en")
KINDS = ("number", "vector", "matrix", "choice", "multi", "truefalse", "text")
NUMERIC_KINDS = ("number", "vector", "matrix")
TOPICS = (
    "dot-product",
    "scaling",
    "softmax",
    "weighted-sum",
    "convex",
    "variance",
    "saturation",
    "qkv",
    "shapes",
    "self-cross",
    "causal-mask",
    "multi-head",
    "params",
    "bottleneck",
    "alignment",
    "soft-hard",
    "global-local",
    "scoring",
    "cost",
    "interpretability",
    "rnn",
    "positions",
    "patterns",  # reading heatmaps: diagonal, vertical stripes, blocks, sparse
    "context",  # static word vectors vs weights that depend on the context
    "lineage",  # each architecture fixes its predecessor's defect
    "mlm",  # BERT's masked-language-model objective
)
DEFAULT_TOLERANCE = 1e-3
DEFAULT_PASS = 0.6
DEFAULT_ORDER = 1000  # sets without an ``order`` go last, by id
_ID = re.compile(r"[A-Za-z0-9][A-Za-z0-9_-]*")

SET_KEYS = {"id", "order", "quiz", "topics", "title", "summary"}
EXERCISE_KEYS = {
    "id",
    "kind",
    "prompt",
    "answer",
    "tolerance",
    "hints",
    "explanation",
    "topics",
    "check",
    "generate",
    "calculator",
    "whole",
    "choices",
    "rubric",
    "pass",
    "order",
    "contradiction",
    "example",
}
IDEA_KEYS = {
    "id",
    "idea",
    "weight",
    "bonus",
    "phrases",
    "forbid",
    "match",
    "with",
    "against",
    "from",
    "scope",
    "unless",
}
CONTRADICTION_KEYS = {"idea", "match", "phrases", "unless", "cancels"}
EXAMPLE_KEYS = {"answer", "expect", "note", "kind"}
# What an example of a written item shows (``kind = "…"``): right answers said another way,
# and wrong answers of the kinds a teacher meets. Every shipped written item has one of each
# of EXAMPLE_KINDS_REQUIRED (a test checks it), graded as its ``expect`` says.
EXAMPLE_KINDS_RIGHT = (
    "paraphrase",
    "analogy",
    "formula",
    "short",
    "mixed-language",
    "plain",
    "thorough",
)
EXAMPLE_KINDS_WRONG = (
    "swap",
    "negation",
    "contradiction",
    "keyword-list",
    "misconception",
    "partial",
    "order",
    "vague",
    "off-topic",
    "dont-know",
)
EXAMPLE_KINDS = EXAMPLE_KINDS_RIGHT + EXAMPLE_KINDS_WRONG
EXAMPLE_KINDS_REQUIRED = (
    "paraphrase",
    "analogy",
    "formula",
    "short",
    "mixed-language",
    "swap",
    "negation",
    "contradiction",
    "keyword-list",
    "misconception",
    "partial",
)


# -- the data -------------------------------------------------------------------------------


@dataclass(frozen=True)
class Text:
    """One text in both languages."""

    zh: str
    en: str

    def get(self, lang: str) -> str:
        return self.zh if lang == "zh" else self.en


@dataclass(frozen=True)
class Tolerance:
    """``|x − a| ≤ max(abs, rel·|a|)``: absolute near zero, relative for large answers."""

    abs: float = DEFAULT_TOLERANCE
    rel: float = DEFAULT_TOLERANCE

    def bound(self, expected: float) -> float:
        return max(self.abs, self.rel * abs(expected))

    def ok(self, got: float, expected: float) -> bool:
        return abs(got - expected) <= self.bound(expected) * (1 + 1e-12)  # float fuzz at the border


@dataclass(frozen=True)
class Choice:
    id: str
    text: Text
    why: Text | None = None  # a wrong option: why it is wrong (shown when it is picked)


@dataclass(frozen=True)
class Idea:
    """One key idea of a rubric.

    Found when one of its alternatives appears as the rubric says: ``match`` holds them as
    written (``"VARIANCE INCREASE"``: both glossary terms in one sentence; ``"!BOTTLENECK"``:
    the term denied; ``"'back to 1'"``: a phrase), ``phrases`` adds plain phrases. ``forbid``
    phrases cancel it. ``source`` ("from") names where the anchor must come from
    (QUERY from DECODER), ``scope`` the part of the answer it must sit in (after
    CROSS_ATTENTION), ``with_roles``/``against`` the roles its clause may name.
    A ``bonus`` idea adds its weight when found but is left out of the total: an answer may
    earn full marks without it (a consequence the reference adds to a reason it already gave).
    """

    text: Text
    weight: float
    phrases: Mapping[str, tuple[str, ...]]  # lang → phrases
    forbid: Mapping[str, tuple[str, ...]]
    id: str = ""
    match: tuple[str, ...] = ()
    with_roles: tuple[str, ...] = ()
    against: tuple[str, ...] = ()
    source: str | None = None
    scope: str | None = None
    unless: tuple[str, ...] = ()
    line: int = 0
    bonus: bool = False

    def all_phrases(self) -> tuple[str, ...]:
        return tuple(p for lang in LANGS for p in self.phrases.get(lang, ()))

    def all_forbid(self) -> tuple[str, ...]:
        return tuple(p for lang in LANGS for p in self.forbid.get(lang, ()))


@dataclass(frozen=True)
class Contradiction:
    """A claim that cancels credit ("the variance shrinks as d grows"): when the answer makes
    it, the ideas named in ``cancels`` (all when empty) earn nothing."""

    text: Text
    match: tuple[str, ...]
    phrases: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    unless: tuple[str, ...] = ()
    cancels: tuple[str, ...] = ()
    line: int = 0


@dataclass(frozen=True)
class Example:
    """An answer with the mark its teacher expects: ``"pass"``, ``"fail"`` or a score 0…1."""

    answer: str
    expect: str | float
    note: str = ""
    line: int = 0
    kind: str = ""  # one of EXAMPLE_KINDS, or "" when not said

    def agrees(self, score: float, passed: bool) -> bool:
        if self.expect == "pass":
            return passed
        if self.expect == "fail":
            return not passed
        return abs(score - float(self.expect)) <= EXAMPLE_SCORE_TOLERANCE


EXAMPLE_SCORE_TOLERANCE = 0.05

# What became of one idea in one answer.
FOUND, MISSING, NEGATED, SWAPPED, OUT_OF_ORDER, CONTRADICTED, SELF_MARKED = (
    "found",
    "missing",
    "negated",
    "swapped",
    "out_of_order",
    "contradicted",
    "self_marked",
)
IDEA_STATES = (FOUND, MISSING, NEGATED, SWAPPED, OUT_OF_ORDER, CONTRADICTED, SELF_MARKED)


@dataclass(frozen=True)
class IdeaResult:
    """One idea of a graded answer: its state, the learner's words that matched it, and the
    words that went against it (a swapped role, the other scope, a contradicting claim)."""

    idea: Idea
    state: str
    matched: tuple[str, ...] = ()
    against: str = ""

    @property
    def credited(self) -> bool:
        return self.state == FOUND


@dataclass(frozen=True)
class Exercise:
    id: str
    kind: str
    prompt: Text
    explanation: Text
    topics: tuple[str, ...]
    answer: Any = (
        None  # float, list, list of lists, str, list of str, bool, or Text; None if generated
    )
    tolerance: Tolerance = Tolerance()
    hints: tuple[Text, ...] = ()
    choices: tuple[Choice, ...] = ()
    rubric: tuple[Idea, ...] = ()
    pass_mark: float = DEFAULT_PASS
    order: tuple[str, ...] = ()  # idea ids, in the order the steps must come
    contradictions: tuple[Contradiction, ...] = ()
    examples: tuple[Example, ...] = ()
    check: Mapping[str, Any] | None = None
    generate: Mapping[str, Any] | None = None
    calculator: Mapping[str, str] | None = None
    whole: bool = False  # vector/matrix: right or wrong as a whole (a shape), no partial credit
    set_id: str = ""
    line: int = 0

    @property
    def generated(self) -> bool:
        return self.generate is not None

    def choice(self, choice_id: str) -> Choice | None:
        return next((c for c in self.choices if c.id == choice_id), None)


@dataclass(frozen=True)
class ExerciseSet:
    id: str
    title: Text
    summary: Text
    exercises: tuple[Exercise, ...]
    order: int = DEFAULT_ORDER
    quiz: bool = False
    topics: tuple[str, ...] = ()
    path: Path | None = None
    source: str = "shipped"  # "shipped", "extra" (--exercises DIR) or "data" (<data dir>/exercises)
    id_line: int = 1  # where set.id is written: a fault about the whole set points here

    def exercise(self, exercise_id: str) -> Exercise | None:
        return next((e for e in self.exercises if e.id == exercise_id), None)

    def index(self, exercise_id: str) -> int | None:
        return next((i for i, e in enumerate(self.exercises) if e.id == exercise_id), None)

    @property
    def ids(self) -> list[str]:
        return [e.id for e in self.exercises]


@dataclass(frozen=True)
class Problem:
    """One fault in a file: ``code`` is an ``ex.*`` (or parser) text key, ``params`` fill it."""

    path: str
    line: int
    code: str
    params: Mapping[str, Any] = field(default_factory=dict)
    exercise: str | None = None

    @classmethod
    def from_fault(cls, path: str, fault: Any) -> Problem:
        """A :class:`attn_tui.core.files.FileFault` (why a file could not be read) as a Problem."""
        params = {k: Msg(v) if k in fault.texts else v for k, v in fault.params.items()}
        return cls(path, fault.line, fault.code, params)

    def message(self, t: Callable[..., str], lang: str | None = None) -> str:
        """The fault in words; ``t`` is ``attn_tui.i18n.t`` (passed in: the core imports no UI)."""
        params = {k: t(v, lang=lang) if isinstance(v, Msg) else v for k, v in self.params.items()}
        key = self.code if "." in self.code else f"err.{self.code}"
        try:
            text = t(key, lang=lang, **params)
        except KeyError:
            text = f"{self.code} {params}"
        if self.exercise is not None:
            text = t("ex.in_exercise", lang=lang, id=self.exercise, message=text)
        return text

    def format(self, t: Callable[..., str], lang: str | None = None) -> str:
        """``file:line: message`` on one line, whatever the file name or the file held."""
        return visible(f"{self.path}:{self.line}: {self.message(t, lang)}", one_line=True)

    def to_dict(self, t: Callable[..., str], lang: str | None = None) -> dict[str, Any]:
        return {
            "path": self.path,
            "line": self.line,
            "code": self.code,
            "exercise": self.exercise,
            "message": self.message(t, lang),
        }


@dataclass(frozen=True)
class BrokenFile:
    """A file that did not load: shown as one entry, with every problem found in it."""

    path: Path
    problems: tuple[Problem, ...]
    source: str = "shipped"


@dataclass
class Library:
    """Every set that loaded, the quiz banks apart, and the files that did not."""

    sets: list[ExerciseSet] = field(default_factory=list)  # quiz = false, by (order, id)
    quizzes: list[ExerciseSet] = field(default_factory=list)  # quiz = true
    broken: list[BrokenFile] = field(default_factory=list)

    def get(self, set_id: str) -> ExerciseSet | None:
        return next((s for s in self.sets + self.quizzes if s.id == set_id), None)

    @property
    def quiz_exercises(self) -> list[Exercise]:
        """Every question of every quiz bank, in bank order."""
        return [e for bank in self.quizzes for e in bank.exercises]
