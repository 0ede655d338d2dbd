"""The self-check quiz, without a screen: drawing a quiz, scoring a run, and grading answer files.

A *run* is a list of questions (exercises of the quiz banks) answered one by one. Every question
is worth 1 mark; a partly right answer earns its share (a rubric's weight found, the share of
entries right, ...). A question counts towards every topic it is tagged with, so the per-topic
marks add up to more than the total when questions carry several tags — each row answers
"how did I do on questions about softmax?".

A teacher's *answer file* maps question id → answer, as TOML (``sc-dot = 2``) or JSON
(``{"sc-dot": 2}``, or the filled-in ``attn-tui quiz template --json`` object). A file that
cannot be read is reported by name and line, as a
:class:`~attn_tui.core.exercises.model.Problem`, and the rest of a class is graded all the same.

A teacher *composes* a quiz (:func:`compose`: chosen ids, topics, a seeded draw of N); its
template records the questions it holds under the key ``_quiz`` (no question id can start
with ``_``), and an answer file that carries the record is marked on those questions only.
"""

from __future__ import annotations

import bisect
import json
import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

import numpy as np

from attn_tui.core.exercises.generators import Instance, instance
from attn_tui.core.exercises.grading import EMPTY, Grade, grade
from attn_tui.core.exercises.loader import display_path
from attn_tui.core.exercises.model import Exercise, Problem
from attn_tui.core.files import ANSWER_FILE_LIMIT, FileFault, load_json, load_toml, read_text
from attn_tui.core.parse import shown

QUICK_SIZE = 10  # questions in a quick quiz
MAX_WARNINGS = 20  # unknown ids named per answer file; the rest are counted
FILE_SEED = 0  # a generated question in an answer file is drawn from this seed (template = grading)
ANSWER_SUFFIXES = (".toml", ".json")
RECORD_KEY = "_quiz"  # an answer file's list of the questions its quiz holds


# -- drawing --------------------------------------------------------------------------------


def draw_quick(
    bank: Sequence[Exercise], size: int = QUICK_SIZE, seed: int | None = None
) -> list[Exercise]:
    """``size`` questions spread across topics and kinds, reproducible from ``seed``.

    Greedy: after a seeded shuffle, each pick is a question that brings a topic not yet covered,
    of the kind seen least so far, first in the shuffled order. (Counting *how many* new topics
    would always pick the written answers first: they carry the most tags.) So a quick quiz
    touches many topics and mixes numbers, choices, true/false and written answers.
    """
    rng = np.random.default_rng(seed)
    pool = [bank[i] for i in rng.permutation(len(bank))]
    covered: set[str] = set()
    kinds: dict[str, int] = {}
    chosen: list[Exercise] = []
    while pool and len(chosen) < size:
        best = min(
            range(len(pool)),
            key=lambda i: (set(pool[i].topics) <= covered, kinds.get(pool[i].kind, 0), i),
        )
        ex = pool.pop(best)
        chosen.append(ex)
        covered |= set(ex.topics)
        kinds[ex.kind] = kinds.get(ex.kind, 0) + 1
    return chosen


def draw_full(bank: Sequence[Exercise]) -> list[Exercise]:
    """Every question, in bank order."""
    return list(bank)


def compose(
    bank: Sequence[Exercise],
    ids: Sequence[str] = (),
    topics: Sequence[str] = (),
    sets: Sequence[str] = (),
    count: int | None = None,
    seed: int | None = None,
) -> list[Exercise]:
    """A teacher's quiz: the questions of ``sets`` (quiz bank ids; default every bank) that are
    named in ``ids`` or tagged with one of ``topics`` (neither: all of them), then, with
    ``count``, that many drawn from those by :func:`draw_quick` with ``seed``.

    Chosen ids alone keep the order they were given in; anything else keeps bank order.
    A name that matches nothing raises :class:`InputError` naming it.
    """
    from attn_tui.core.parse import InputError

    known_sets = list(dict.fromkeys(ex.set_id for ex in bank))
    for set_id in sets:
        if set_id not in known_sets:
            raise InputError(
                "classroom.compose.unknown_set", name=set_id, known=", ".join(known_sets)
            )
    pool = [ex for ex in bank if not sets or ex.set_id in sets]
    by_id = {ex.id: ex for ex in pool}
    chosen_ids = list(dict.fromkeys(ids))
    for qid in chosen_ids:
        if qid not in by_id:
            raise InputError("classroom.compose.unknown_id", name=qid)
    known_topics = list(dict.fromkeys(t for ex in pool for t in ex.topics))
    for topic in topics:
        if topic not in known_topics:
            raise InputError(
                "classroom.compose.unknown_topic", name=topic, known=", ".join(sorted(known_topics))
            )
    if chosen_ids or topics:
        wanted = set(chosen_ids)
        picked = [ex for ex in pool if ex.id in wanted or set(ex.topics) & set(topics)]
        if chosen_ids and not topics:
            picked = [by_id[qid] for qid in chosen_ids]
    else:
        picked = list(pool)
    if count is not None:
        if count < 1 or count > len(picked):
            raise InputError("classroom.compose.count", count=count, available=len(picked))
        drawn = {ex.id for ex in draw_quick(picked, count, seed)}
        picked = [ex for ex in picked if ex.id in drawn]
    return picked


# -- scoring a run --------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Answered:
    """One question of a run: what was shown, what was typed, how it was graded."""

    inst: Instance
    answer: Any
    grade: Grade

    @property
    def id(self) -> str:
        return self.inst.exercise.id

    @property
    def topics(self) -> tuple[str, ...]:
        return self.inst.exercise.topics


@dataclass(frozen=True)
class QuizResult:
    answered: tuple[Answered, ...]
    score: float  # marks earned, partial credit included
    total: float  # one mark per question
    per_topic: dict[str, tuple[float, float]]  # topic → (score, total), in first-seen order
    missed: tuple[str, ...]  # ids of the questions not answered correctly, in run order

    @property
    def fraction(self) -> float:
        return self.score / self.total if self.total else 0.0

    @property
    def missed_answers(self) -> list[Answered]:
        return [a for a in self.answered if not a.grade.correct]

    def weakest_topics(self, n: int = 3) -> list[str]:
        """Topics with the lowest share of marks (below full marks only), weakest first."""
        weak = [(s / m, t) for t, (s, m) in self.per_topic.items() if m and s < m - 1e-9]
        return [t for _, t in sorted(weak, key=lambda x: x[0])[:n]]


def score_run(answered: Iterable[Answered]) -> QuizResult:
    """Total, per-topic marks and missed ids of a run (one mark per question)."""
    items = tuple(answered)
    per_topic: dict[str, tuple[float, float]] = {}
    for a in items:
        for topic in a.topics:
            s, m = per_topic.get(topic, (0.0, 0.0))
            per_topic[topic] = (s + a.grade.score, m + 1.0)
    return QuizResult(
        answered=items,
        score=float(sum(a.grade.score for a in items)),
        total=float(len(items)),
        per_topic=per_topic,
        missed=tuple(a.id for a in items if not a.grade.correct),
    )


def answer(inst: Instance, typed: Any) -> Answered:
    return Answered(inst, typed, grade(inst, typed))


# -- answer files ---------------------------------------------------------------------------

_BARE_KEY = re.compile(r"[A-Za-z0-9_-]+")


@dataclass(frozen=True)
class AnswerFile:
    """One learner's answers (``None`` when the file could not be read) and what was wrong."""

    path: Path
    answers: dict[str, Any] | None
    problems: tuple[Problem, ...] = ()  # fatal when answers is None; warnings otherwise
    questions: tuple[str, ...] | None = None  # the ``_quiz`` record: the quiz's question ids
    record_line: int = 1  # where the record is, for a fault in it

    @property
    def name(self) -> str:
        return display_path(self.path)


def toml_key(question_id: str) -> str:
    """A question id as a TOML key: bare when it can be (``sc-dot``), quoted otherwise."""
    return question_id if _BARE_KEY.fullmatch(question_id) else json.dumps(question_id)


# A key defined at the start of a line (TOML ``key =``, ``"key" =``; YAML-ish ``key:``), and a
# JSON object key anywhere ("key": ...). Neither pattern can backtrack far: a string ends at its
# first unescaped quote.
_LINE_KEY = re.compile(
    r"""^[ \t]*(?:"((?:[^"\\\n]|\\.)*)"|'([^'\n]*)'|([^\s=:"']+))[ \t]*[=:]""", re.M
)
_JSON_KEY = re.compile(r'"((?:[^"\\]|\\.)*)"\s*:')


def _key_lines(text: str, keys: Iterable[str]) -> dict[str, int]:
    """The line where each of ``keys`` is first defined (1 when it cannot be found), in one
    pass over the text however many keys are asked for."""
    wanted = set(keys)
    found: dict[str, int] = {}
    if not wanted:
        return found
    newlines = [m.start() for m in re.finditer("\n", text)]
    for pattern in (_LINE_KEY, _JSON_KEY):
        for m in pattern.finditer(text):
            raw = next((g for g in m.groups() if g is not None), "")
            key = _unquote(raw) if m.group(0).lstrip().startswith('"') else raw
            if key in wanted and key not in found:
                found[key] = bisect.bisect_left(newlines, m.start()) + 1
        if len(found) == len(wanted):
            break
    return found


def _unquote(raw: str) -> str:
    """A quoted key's escapes (``\\u00e9``, ``\\"``) as the parser read them."""
    if "\\" not in raw:
        return raw
    try:
        return json.loads(f'"{raw}"')
    except ValueError:
        return raw


def _unwrap(data: dict[str, Any]) -> dict[str, Any]:
    """The template's ``{"questions": {id: {..., "answer": x}}}`` (or ``[questions.id]``
    tables) become ``{id: x}``; a plain ``{id: answer}`` mapping is kept as it is."""
    inner = data.get("questions")
    if isinstance(inner, dict) and len(data) == 1:
        return {qid: (v.get("answer") if isinstance(v, dict) else v) for qid, v in inner.items()}
    return data


def parse_answers(text: str, name: str, suffix: str, known: Iterable[str] = ()) -> AnswerFile:
    """Read an answer file's text; ``suffix`` ".json" means JSON, anything else TOML."""
    path = Path(name)
    try:
        data = load_json(text) if suffix.lower() == ".json" else load_toml(text)
    except FileFault as fault:
        return AnswerFile(path, None, (Problem.from_fault(name, fault),))
    if not isinstance(data, dict):
        return AnswerFile(path, None, (Problem(name, 1, "quiz.not_a_table", {}),))
    questions = data.pop(RECORD_KEY, None)
    if questions is not None:
        if not isinstance(questions, list) or not all(isinstance(q, str) for q in questions):
            line = _key_lines(text, [RECORD_KEY]).get(RECORD_KEY, 1)
            return AnswerFile(path, None, (Problem(name, line, "classroom.bad_record", {}),))
        questions = tuple(dict.fromkeys(questions))
    record_line = _key_lines(text, [RECORD_KEY]).get(RECORD_KEY, 1) if questions is not None else 1
    answers = _unwrap(data)
    known_ids = set(known if questions is None else questions)
    unknown = [qid for qid in answers if known_ids and qid not in known_ids]
    lines = _key_lines(text, unknown[:MAX_WARNINGS])
    warnings = [
        Problem(name, lines.get(qid, 1), "quiz.unknown_id", {"id": shown(qid)})
        for qid in unknown[:MAX_WARNINGS]
    ]
    if len(unknown) > MAX_WARNINGS:  # 200,000 stray keys: name a few, count the rest
        more = {"count": len(unknown) - MAX_WARNINGS}
        warnings.append(Problem(name, warnings[-1].line, "files.more_problems", more))
    return AnswerFile(path, answers, tuple(warnings), questions, record_line)


def read_answers(path: Path, known: Iterable[str] = (), within: Path | None = None) -> AnswerFile:
    """Read one answer file (at most ANSWER_FILE_LIMIT bytes, a regular file only; with
    ``within``, one inside that folder once links are followed); never raises on its content
    (faults come back as Problems)."""
    name = display_path(path)
    try:
        text = read_text(path, ANSWER_FILE_LIMIT, within)
    except FileFault as fault:
        return AnswerFile(path, None, (Problem.from_fault(name, fault),))
    return replace(parse_answers(text, name, path.suffix, known), path=path)


def answer_files(folder: Path) -> list[Path]:
    """The answer files directly in ``folder`` (``*.toml``, ``*.json``), by name. Not only regular
    files: a FIFO or a link to /dev/zero named so is reported as unreadable, not skipped."""
    return sorted(
        p for p in folder.iterdir() if not p.is_dir() and p.suffix.lower() in ANSWER_SUFFIXES
    )


def file_instance(ex: Exercise) -> Instance:
    """The question as a template shows it and an answer file is graded against it."""
    return instance(ex, seed=FILE_SEED if ex.generated else None)


@dataclass(frozen=True)
class LearnerResult:
    """One file of a class: its result, or None when it could not be read."""

    file: AnswerFile
    result: QuizResult | None

    @property
    def ok(self) -> bool:
        return self.result is not None

    @property
    def unanswered(self) -> int:
        if self.result is None:
            return 0
        return sum(a.grade.status == EMPTY for a in self.result.answered)


class AnswerMemo:
    """A class's grades by question and answer: each distinct answer is graded once per run,
    however many learners gave it (the reference copied, the same "I don't know", choice "b",
    the right number). It is what makes a class cheap: a written answer costs the concept
    grader about a millisecond, and learners share one frozen Grade instead of a copy each.

    Grading is a pure function of the question's instance (one per class, ``shown``) and the
    answer (a text or a number, with its type: 2 is not 2.0 nor "2") — once every rubric
    of the run is compiled, since compiling teaches the segmenter the rubric's Chinese words:
    the constructor compiles them all before the first file, so a memo changes no mark."""

    def __init__(self, bank: Iterable[Exercise] = ()) -> None:
        self.grades: dict[tuple[str, str, object], Grade] = {}
        self.hits = 0
        written = [ex for ex in bank if ex.kind == "text" and ex.rubric]
        if written:
            from attn_tui.core.exercises.glossary import shipped as shipped_glossary
            from attn_tui.core.exercises.written.judge import compile_rubric

            for ex in written:
                compile_rubric(ex, shipped_glossary())

    def answer(self, inst: Instance, typed: Any) -> Answered:
        of = type(typed)
        if of is float:  # by repr: -0.0 is not 0.0 here
            key: tuple[str, str, object] = (inst.exercise.id, "float", repr(typed))
        elif of is str or of is int or of is bool or typed is None:
            key = (inst.exercise.id, of.__name__, typed)
        else:  # a list or a table: rarely shared, and never worth a repr of a hostile depth
            return answer(inst, typed)
        found = self.grades.get(key)
        if found is None:
            found = self.grades[key] = grade(inst, typed)
        else:
            self.hits += 1
        return Answered(inst, typed, found)


def grade_answers(
    bank: Sequence[Exercise],
    file: AnswerFile,
    shown: Mapping[str, Instance] | None = None,
    memo: AnswerMemo | None = None,
) -> LearnerResult:
    """Grade every question of ``bank`` or, when the file records its quiz, the recorded
    questions only (in the record's order); one the file leaves out counts as unanswered.
    A recorded id the bank lacks makes the file unmarkable (a total out of the wrong number
    of questions would mislead), reported like any other fault. ``shown``: the questions'
    file instances by id, when already drawn (a class shares them); ``memo``: the class's
    answers graded so far (a class shares them, see :class:`AnswerMemo`)."""
    if file.answers is None:
        return LearnerResult(file, None)
    questions = list(bank)
    if file.questions is not None:
        by_id = {ex.id: ex for ex in bank}
        absent = [qid for qid in file.questions if qid not in by_id]
        if absent:
            params = {"ids": ", ".join(absent)}
            problem = Problem(file.name, file.record_line, "classroom.record_unknown", params)
            broken = replace(file, answers=None, problems=(*file.problems, problem))
            return LearnerResult(broken, None)
        questions = [by_id[qid] for qid in file.questions]
    drawn = shown or {}
    mark = memo.answer if memo is not None else answer
    answered = [
        mark(drawn.get(ex.id) or file_instance(ex), file.answers.get(ex.id)) for ex in questions
    ]
    return LearnerResult(file, score_run(answered))


def grade_path(bank: Sequence[Exercise], path: Path) -> list[LearnerResult]:
    """One file → one learner; a folder → every answer file in it. Broken files are kept, so
    they can be reported by name and line beside the others; a file whose grading fails
    unexpectedly is reported the same way, and the rest of the class is still graded."""
    folder = path if path.is_dir() else None  # a class: no file read from outside it
    files = answer_files(path) if folder is not None else [path]
    ids = [ex.id for ex in bank]
    shown = {ex.id: file_instance(ex) for ex in bank}  # drawn once for the whole class
    memo = AnswerMemo(bank)  # every rubric compiled before the first file
    results = []
    for p in files:
        file = read_answers(p, ids, folder)
        try:
            results.append(grade_answers(bank, file, shown, memo))
        except Exception as err:  # one learner's file must not stop the class
            fault = Problem(file.name, 1, "files.check_failed", {"error": type(err).__name__})
            results.append(LearnerResult(AnswerFile(p, None, (fault,)), None))
    return results


@dataclass(frozen=True)
class ClassSummary:
    graded: int
    broken: int
    mean_fraction: float
    per_question: dict[str, float] = field(default_factory=dict)  # id → mean score (0..1)
    per_topic: dict[str, tuple[float, float]] = field(default_factory=dict)  # summed over learners


def summarise(bank: Sequence[Exercise], learners: Sequence[LearnerResult]) -> ClassSummary:
    """Class means; a question's mean is over the learners whose quiz held it."""
    results = [r.result for r in learners if r.result is not None]
    scores: dict[str, list[float]] = {ex.id: [] for ex in bank}
    for res in results:
        for a in res.answered:
            scores.setdefault(a.id, []).append(a.grade.score)
    per_question = {qid: float(np.mean(s)) if s else 0.0 for qid, s in scores.items()}
    per_topic: dict[str, tuple[float, float]] = {}
    for res in results:
        for topic, (s, m) in res.per_topic.items():
            s0, m0 = per_topic.get(topic, (0.0, 0.0))
            per_topic[topic] = (s0 + s, m0 + m)
    mean = float(np.mean([r.fraction for r in results])) if results else 0.0
    return ClassSummary(len(results), len(learners) - len(results), mean, per_question, per_topic)


__all__ = [
    "QUICK_SIZE",
    "RECORD_KEY",
    "Answered",
    "AnswerFile",
    "ClassSummary",
    "LearnerResult",
    "QuizResult",
    "AnswerMemo",
    "answer",
    "answer_files",
    "compose",
    "draw_full",
    "draw_quick",
    "file_instance",
    "grade_answers",
    "grade_path",
    "parse_answers",
    "read_answers",
    "score_run",
    "summarise",
    "toml_key",
]
