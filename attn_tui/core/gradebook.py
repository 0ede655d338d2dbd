"""A teacher's gradebook: a class folder's marks, with the teacher's own marks laid over them.

Each answer file is one student, and each student has one *name*, unique in the class, used
everywhere the student appears: the class table, the CSV's first column, the ``[name]`` table of
an overrides file, the feedback file ``<name>.txt`` and ``student`` in ``--json``. The name is
the file's name without its extension (``alice.toml`` → ``alice``), or the whole file name when
that is ambiguous: when another file has the same stem (``alice.toml``, ``alice.json``) or its
stem is another file's whole name (``alice.json.toml`` beside ``alice.json``). Names are
compared as a case-blind disk compares file names (:func:`fold`: Unicode NFC, case folded), since
feedback files land on such disks too; two files whose whole names still fold alike
(``Alice.toml``, ``alice.toml``) would be one student there, and both are refused by name
(:data:`SAME_STUDENT`), never merged. An *overrides* file is TOML,
one table per student, a mark per question, with an optional comment::

    [alice]
    sc-dot = 1
    sc-why-sqrt = { mark = 0.5, comment = "right idea, no formula" }

A mark is from 0 to 1, like every question's. An overridden question carries the teacher's mark
into the total, the per-topic marks and the class means, and it stays marked as overridden
(with the grader's own mark beside it) wherever it is shown. Every fault of an overrides file
(a student or question that is not in the class, a mark out of range, a key that means nothing)
is reported by line, and none of it is applied: a gradebook half-corrected is worse than one
not corrected.

:func:`table` lays the class out as rows of plain values for a CSV: one row per student
(total, percent, each question, each topic) and one per broken file with its fault.
Standard library only; the words (column names, messages) come from the caller.
"""

from __future__ import annotations

import re
import tomllib
import unicodedata
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from attn_tui.core import files
from attn_tui.core.exercises.grading import CORRECT, INCORRECT, PARTIAL, Grade
from attn_tui.core.exercises.loader import display_path
from attn_tui.core.exercises.model import Problem
from attn_tui.core.quiz import Answered, LearnerResult, score_run

MAX_OVERRIDES_BYTES = 1 << 20  # a class's hand marks are a few kilobytes


@dataclass(frozen=True)
class Override:
    """The teacher's mark for one question of one student."""

    student: str
    question: str
    mark: float  # 0 … 1
    comment: str = ""
    line: int = 1


@dataclass(frozen=True)
class Student:
    """One answer file of the class after the teacher's marks: what the gradebook shows."""

    name: str  # unique in the class (see student_names): the same in every file written
    learner: LearnerResult  # with the overrides applied to its grades
    overrides: dict[str, Override]  # question id → the teacher's mark that replaced the grader's
    auto: dict[str, float]  # question id → the grader's own mark, for each overridden question

    @property
    def ok(self) -> bool:
        return self.learner.ok


SAME_STUDENT = "classroom.same_student"  # the code of a file refused as another's double


def fold(name: str) -> str:
    """A name as a case-blind file system compares it (APFS, NTFS): NFC, case folded."""
    return unicodedata.normalize("NFC", name).casefold()


def student_names(paths: Sequence[Path]) -> list[str]:
    """Each answer file's student name (see the module's doc): its stem, or its whole name
    when the stem would be ambiguous. Unique under :func:`fold` except where two whole names
    fold alike, which :func:`same_students` finds."""
    stems = [fold(p.stem) for p in paths]
    whole = [fold(p.name) for p in paths]
    stem_count = Counter(stems)
    whole_names = Counter(whole)
    names = []
    for path, stem in zip(paths, stems, strict=True):
        clear = stem_count[stem] == 1 and whole_names[stem] == 0
        names.append(path.stem if clear else path.name)
    return names


def same_students(names: Sequence[str]) -> dict[int, list[int]]:
    """index → the other indices whose name folds to the same: files that would be one student."""
    by_key: dict[str, list[int]] = {}
    for i, name in enumerate(names):
        by_key.setdefault(fold(name), []).append(i)
    return {i: [j for j in group if j != i] for group in by_key.values() if len(group) > 1
            for i in group}  # fmt: skip


def _refuse_doubles(learners: Sequence[LearnerResult], names: Sequence[str]) -> list[LearnerResult]:
    """The class with each file that shares its student's name with another made unmarkable,
    naming the other file: a mark or a feedback file would land on both."""
    doubles = same_students(names)
    out = list(learners)
    for i, others in doubles.items():
        file = learners[i].file
        params = {"others": ", ".join(learners[j].file.path.name for j in others)}
        problem = Problem(file.name, 1, SAME_STUDENT, params)
        out[i] = LearnerResult(replace(file, answers=None, problems=(problem,)), None)
    return out


# -- reading an overrides file --------------------------------------------------------------

_HEADER = re.compile(r'^\s*\[\s*("(?:[^"\\]|\\.)*"|\'[^\']*\'|[A-Za-z0-9_-]+)\s*\]')
_KEY = re.compile(r'^\s*("(?:[^"\\]|\\.)*"|\'[^\']*\'|[A-Za-z0-9_-]+)\s*=')


def _unquote(token: str) -> str:
    if token[:1] == '"':
        try:
            return tomllib.loads(f"k = {token}")["k"]
        except tomllib.TOMLDecodeError:
            return token.strip('"')
    return token.strip("'")


def _lines(text: str) -> dict[tuple[str, str | None], int]:
    """(student, None) → the line of ``[student]``; (student, question) → the line of its mark."""
    where: dict[tuple[str, str | None], int] = {}
    table: str | None = None
    for n, line in enumerate(text.splitlines(), 1):
        if m := _HEADER.match(line):
            table = _unquote(m.group(1))
            where.setdefault((table, None), n)
        elif line.lstrip().startswith("["):  # [[group]], [group.students]: no student's
            table = None
        elif table is not None and (m := _KEY.match(line)):
            where.setdefault((table, _unquote(m.group(1))), n)
    return where


def _is_number(value: Any) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def parse_overrides(text: str, name: str) -> tuple[list[Override], list[Problem]]:
    """The marks in an overrides file's text, and its faults (each with its line)."""
    try:  # deep nesting, 20,000-part keys and 5,000-digit numbers are faults too
        data = files.load_toml(text)
    except files.FileFault as fault:
        return [], [Problem.from_fault(name, fault)]
    where = _lines(text)
    overrides: list[Override] = []
    problems: list[Problem] = []
    for student, marks in data.items():
        if student == "group" and isinstance(marks, list):
            continue  # [[group]]: marks per group of answers (core.answer_groups reads them)
        line = where.get((student, None), 1)
        if not isinstance(marks, dict):
            problems.append(Problem(name, line, "classroom.ov.not_table", {"student": student}))
            continue
        for question, value in marks.items():
            at = where.get((student, question), line)
            comment: Any = ""
            if isinstance(value, dict):
                extra = sorted(set(value) - {"mark", "comment"})
                if extra:
                    params = {"keys": ", ".join(extra), "question": question}
                    problems.append(Problem(name, at, "classroom.ov.unknown_key", params))
                    continue
                comment = value.get("comment", "")
                value = value.get("mark")
            params = {"student": student, "question": question}
            if not _is_number(value) or not 0 <= value <= 1:
                problems.append(
                    Problem(name, at, "classroom.ov.bad_mark", {**params, "value": repr(value)})
                )
                continue
            if not isinstance(comment, str):
                problems.append(Problem(name, at, "classroom.ov.bad_comment", params))
                continue
            overrides.append(Override(student, question, float(value), comment.strip(), at))
    return overrides, problems


def read_overrides(path: Path) -> tuple[list[Override], list[Problem]]:
    """An overrides file from disk; never raises on its content (faults come back as Problems)."""
    name = display_path(path)
    try:  # never blocks on a FIFO, never reads /dev/zero without end
        raw = files.read_bytes(path, MAX_OVERRIDES_BYTES)
    except files.FileFault as fault:
        if fault.code == "files.too_large":
            return [], [Problem(name, 1, "classroom.ov.too_big", {"limit": MAX_OVERRIDES_BYTES})]
        return [], [Problem.from_fault(name, fault)]
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError as err:
        return [], [Problem(name, raw[: err.start].count(b"\n") + 1, "ex.not_utf8", {})]
    return parse_overrides(text, name)


# -- applying the teacher's marks -----------------------------------------------------------


def _status(mark: float) -> str:
    return CORRECT if mark >= 1 - 1e-9 else PARTIAL if mark > 1e-9 else INCORRECT


def _overridden(grade: Grade, mark: float) -> Grade:
    """The grader's feedback kept (ideas found and missing), the teacher's mark in force."""
    return replace(grade, score=mark, correct=mark >= 1 - 1e-9, status=_status(mark))


def apply_overrides(
    learners: Sequence[LearnerResult], overrides: Sequence[Override], source: str = ""
) -> tuple[list[Student], list[Problem]]:
    """The class as students with the teacher's marks applied, or, when an override names a
    student or a question that is not in the class, the faults (and the class untouched)."""
    names = student_names([r.file.path for r in learners])
    learners = _refuse_doubles(learners, names)
    by_name = dict(zip(names, learners, strict=True))
    problems: list[Problem] = []
    wanted: dict[str, dict[str, Override]] = {}
    for ov in overrides:
        params = {"student": ov.student, "question": ov.question}
        learner = by_name.get(ov.student)
        if learner is None:
            known = ", ".join(names) if len(names) <= 12 else ", ".join(names[:12]) + ", …"
            problems.append(
                Problem(source, ov.line, "classroom.ov.no_student", {**params, "known": known})
            )
        elif learner.result is None:
            problems.append(Problem(source, ov.line, "classroom.ov.broken_student", params))
        elif ov.question not in {a.id for a in learner.result.answered}:
            problems.append(Problem(source, ov.line, "classroom.ov.no_question", params))
        else:
            wanted.setdefault(ov.student, {})[ov.question] = ov
    if problems:
        return [Student(n, r, {}, {}) for n, r in zip(names, learners, strict=True)], problems
    students = []
    for name, learner in zip(names, learners, strict=True):
        marks = wanted.get(name, {})
        if not marks or learner.result is None:
            students.append(Student(name, learner, {}, {}))
            continue
        answered: list[Answered] = []
        auto: dict[str, float] = {}
        for a in learner.result.answered:
            override = marks.get(a.id)
            if override is not None:
                auto[a.id] = a.grade.score
                a = replace(a, grade=_overridden(a.grade, override.mark))
            answered.append(a)
        result = score_run(answered)
        students.append(Student(name, replace(learner, result=result), marks, auto))
    return students, []


# -- the gradebook as a table -----------------------------------------------------------------


def questions_of(students: Sequence[Student]) -> list[str]:
    """Every question some student's quiz held, in the order first met."""
    seen: dict[str, None] = {}
    for s in students:
        if s.learner.result is not None:
            for a in s.learner.result.answered:
                seen.setdefault(a.id)
    return list(seen)


def topics_of(students: Sequence[Student]) -> list[str]:
    seen: dict[str, None] = {}
    for s in students:
        if s.learner.result is not None:
            for topic in s.learner.result.per_topic:
                seen.setdefault(topic)
    return list(seen)


def _round(x: float, places: int = 4) -> float | int:
    """Marks as a spreadsheet should hold them: 1, 0.5, 0.6667 (no float noise)."""
    value = round(x, places)
    return int(value) if value == int(value) else value


@dataclass(frozen=True)
class Row:
    """One line of the gradebook. Numbers stay numbers; None is an empty cell."""

    student: str
    file: str
    status: str  # "graded" or "broken"
    score: float | int | None
    max: float | int | None
    percent: float | int | None
    questions: dict[str, float | int | None]  # id → mark; None when the quiz did not hold it
    topics: dict[str, float | int | None]  # tag → percent; None when no question had the tag
    overridden: tuple[Override, ...]
    auto: dict[str, float]
    problems: tuple[Problem, ...]


def table(students: Sequence[Student]) -> tuple[list[str], list[str], list[Row]]:
    """(question ids, topic tags, rows): graded students in file order, then broken files."""
    questions = questions_of(students)
    topics = topics_of(students)
    graded, broken = [], []
    for s in students:
        res = s.learner.result
        file = s.learner.file.name
        if res is None:
            broken.append(
                Row(
                    s.name,
                    file,
                    "broken",
                    None,
                    None,
                    None,
                    {},
                    {},
                    (),
                    {},
                    s.learner.file.problems,
                )
            )
            continue
        marks = {a.id: a.grade.score for a in res.answered}
        graded.append(
            Row(
                student=s.name,
                file=file,
                status="graded",
                score=_round(res.score),
                max=_round(res.total),
                percent=_round(100 * res.fraction, 1),
                questions={q: _round(marks[q]) if q in marks else None for q in questions},
                topics={
                    t: _round(100 * res.per_topic[t][0] / res.per_topic[t][1], 1)
                    if t in res.per_topic and res.per_topic[t][1]
                    else None
                    for t in topics
                },
                overridden=tuple(s.overrides[q] for q in marks if q in s.overrides),
                auto=dict(s.auto),
                problems=s.learner.file.problems,
            )
        )
    return questions, topics, graded + broken


__all__ = [
    "SAME_STUDENT",
    "Override",
    "Row",
    "Student",
    "apply_overrides",
    "parse_overrides",
    "questions_of",
    "fold",
    "read_overrides",
    "same_students",
    "student_names",
    "table",
    "topics_of",
]
