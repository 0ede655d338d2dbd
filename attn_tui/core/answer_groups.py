"""A class's written answers in groups, so a teacher marks a group once (Powergrading-style),
and how often the teacher's marks disagree with the grader's.

**Grouping.** For each written question, the answers the grader passed and the ones it failed
are grouped apart (a group has one grader verdict, so the teacher's mark confirms it or turns
it). Within a verdict, answers written alike (the same words, the same Chinese characters, the
same formulas) and credited with the same ideas go together: each answer is a vector of its
words and character pairs (hashed, tf-idf weighted over the question's answers) beside the
ideas the grader found in it, and groups are joined by average similarity (agglomerative, like
Basu, Jacobs & Vanderwende's Powergrading, 2013) until no two groups are alike enough.
Identical answers (after folding case, width and spaces) are one point with a weight.

The cost is bounded whatever a class hands in: each answer is read up to
:data:`FEATURE_CHARS` characters for its vector (its fingerprint reads it whole, linearly);
the :data:`FULL_GROUPING` most common distinct answers of a verdict are grouped in full
(quadratic in that bound), and every rarer one joins the group it is most like in one matrix
product, or stands alone.

**Group marks.** An overrides file (:mod:`attn_tui.core.gradebook`) may carry a mark per
group, as an array of tables named ``group``::

    [[group]]
    question = "sc-why-sqrt"
    mark = 1
    comment = "right, and the variance is said"
    [group.students]
    alice = "3fa2b1c40d"
    bob = "9bc1d07e21"

Each student is named with the fingerprint of the answer the teacher saw (:func:`fingerprint`):
a mark never lands on an answer that changed since it was grouped. A ``[[group]]`` without a
``mark`` is a group not marked yet, and marks nothing. A mark a teacher set for one student
(``[alice] sc-why-sqrt = …``) wins over their group's. Every fault is reported by line, and then
nothing is applied, as for the rest of the file.

Standard library and numpy only; the words come from the caller.
"""

from __future__ import annotations

import hashlib
import math
import re
import tomllib
import unicodedata
import zlib
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from attn_tui.core import files
from attn_tui.core.exercises.loader import display_path
from attn_tui.core.exercises.model import FOUND, Problem
from attn_tui.core.gradebook import MAX_OVERRIDES_BYTES, Override, Student, parse_overrides
from attn_tui.core.quiz import Answered

GROUP_KEY = "group"  # the array of tables in an overrides file that holds group marks
FEATURE_CHARS = 600  # an answer's first characters make its vector (a megabyte reads as these)
FULL_GROUPING = 400  # distinct answers of one verdict grouped in full; rarer ones join or stand
DIM = 1024  # hashed features of the words
TEXT_SHARE = 0.7  # of a similarity: the words; the rest is the ideas the grader found
JOIN = 0.5  # two groups this alike on average (cosine) or more are one
FINGERPRINT_HEX = 10


# -- the answers and their groups -----------------------------------------------------------


@dataclass(frozen=True)
class Answer:
    """One student's written answer to one question, as the grader marked it."""

    student: str
    question: str
    text: str
    score: float
    passed: bool
    uncertain: bool = False
    found: tuple[str, ...] = ()  # the ids of the ideas the grader found


@dataclass(frozen=True)
class Group:
    """Answers to one question the grader gave one verdict and that are written alike."""

    question: str
    number: int  # 1, 2, … in the order shown: the largest first
    answers: tuple[Answer, ...]  # the most typical first, then the others as handed in
    wordings: int  # distinct answers in it (after folding case, width and spaces)

    @property
    def typical(self) -> Answer:
        return self.answers[0]

    @property
    def passed(self) -> bool:
        return self.answers[0].passed

    @property
    def scores(self) -> tuple[float, float]:
        marks = [a.score for a in self.answers]
        return min(marks), max(marks)

    @property
    def flagged(self) -> int:
        """How many of its answers the grader was not sure of."""
        return sum(a.uncertain for a in self.answers)

    @property
    def students(self) -> list[str]:
        return [a.student for a in self.answers]


def fold(text: str) -> str:
    """An answer as it is compared: width and case folded, runs of space made one."""
    return " ".join(unicodedata.normalize("NFKC", text).casefold().split())


def fingerprint(text: str) -> str:
    """A short digest of an answer (folded), to tell later whether it is still the same."""
    digest = hashlib.blake2b(fold(text).encode("utf-8", "surrogatepass"), digest_size=8)
    return digest.hexdigest()[:FINGERPRINT_HEX]


def answer_text(a: Answered) -> str:
    """The text the grader read for a written answer (an answer file's list is joined)."""
    value = a.grade.value
    return str(value if value is not None else a.answer)


def class_answers(students: Sequence[Student]) -> list[Answer]:
    """Every written answer of the class that is not blank, with the grader's own verdict
    (before any teacher's mark)."""
    out = []
    for s in students:
        if s.learner.result is None:
            continue
        for a in s.learner.result.answered:
            g = a.grade
            if g.kind != "text" or g.status == "empty":
                continue
            auto = s.auto.get(a.id, g.score)
            ex = a.inst.exercise
            out.append(
                Answer(
                    s.name,
                    a.id,
                    answer_text(a),
                    auto,
                    auto >= ex.pass_mark - 1e-9,
                    g.uncertain,
                    tuple(r.idea.id for r in g.ideas if r.state == FOUND),
                )
            )
    return out


def blanks(students: Sequence[Student]) -> dict[str, int]:
    """question id → how many students left that written question blank."""
    out: dict[str, int] = {}
    for s in students:
        if s.learner.result is not None:
            for a in s.learner.result.answered:
                if a.grade.kind == "text" and a.grade.status == "empty":
                    out[a.id] = out.get(a.id, 0) + 1
    return out


def group_answers(answers: Iterable[Answer]) -> dict[str, list[Group]]:
    """question id → its groups, the largest first (questions in the order first met)."""
    by_question: dict[str, list[Answer]] = {}
    for a in answers:
        by_question.setdefault(a.question, []).append(a)
    return {q: _group_question(q, xs) for q, xs in by_question.items()}


def _group_question(question: str, answers: list[Answer]) -> list[Group]:
    # one point per distinct answer (a verdict, the ideas found and the words folded alike)
    distinct: dict[tuple[bool, tuple[str, ...], str], list[Answer]] = {}
    for a in answers:
        distinct.setdefault((a.passed, a.found, fold(a.text[: 4 * FEATURE_CHARS])), []).append(a)
    # each distinct text once, the commonest first (a stable order: the first handed in)
    keys = sorted(distinct, key=lambda k: -len(distinct[k]))
    ideas = sorted({i for a in answers for i in a.found})
    points = _Points([k[2] for k in keys], [k[1] for k in keys], ideas)
    weights = np.array([len(distinct[k]) for k in keys], dtype=np.float64)
    verdicts = np.array([k[0] for k in keys])
    found: list[list[int]] = []
    for verdict in (True, False):
        (idx,) = np.nonzero(verdicts == verdict)
        if len(idx):
            found += [[int(idx[i]) for i in c] for c in _cluster(points, idx, weights[idx])]
    groups = []
    for members in found:
        x = points.dense(np.asarray(members[:FULL_GROUPING]))
        pull = x @ (weights[members[:FULL_GROUPING]] @ x)  # each one's likeness to the group
        # the most typical of its commonest answers first, then the rest as they come
        order = sorted(range(len(pull)), key=lambda i: (-round(float(pull[i]), 9), members[i]))
        order += range(len(pull), len(members))
        chosen = [a for i in order for a in distinct[keys[members[i]]]]
        groups.append((chosen, len(members)))
    groups.sort(key=lambda g: (-len(g[0]), -g[0][0].score, fold(g[0][0].text[:FEATURE_CHARS])))
    return [
        Group(question, n, tuple(chosen), wordings)
        for n, (chosen, wordings) in enumerate(groups, 1)
    ]


# -- the vectors ----------------------------------------------------------------------------

_HAN = "\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff"
_HAN_RUN = re.compile(rf"[{_HAN}]+")
_OTHER = re.compile(rf"[^\W_{_HAN}]+|[^\w\s]")


def _tokens(text: str) -> list[str]:
    """Latin words and numbers, single symbols (√, =, ·), and Chinese characters with each
    pair of neighbours (Chinese has no spaces: a pair is the nearest thing to a word)."""
    out = _OTHER.findall(text)
    for run in _HAN_RUN.findall(text):
        out += run
        out += [run[i : i + 2] for i in range(len(run) - 1)]
    return out


class _Points:
    """The distinct answers of one question as unit vectors: their words (hashed, tf-idf)
    beside the ideas the grader found in them. Kept sparse; rows are made dense only a
    block at a time (:meth:`dense`), so a class of any size costs memory in proportion."""

    def __init__(self, texts: list[str], found: list[tuple[str, ...]], ideas: list[str]) -> None:
        memo: dict[str, int] = {}
        cells: list[int] = []  # row * DIM + bucket, once per token
        starts = [0]
        for row, text in enumerate(texts):
            base = row * DIM
            for token in _tokens(text[:FEATURE_CHARS]):
                hit = memo.get(token)
                if hit is None:  # crc32, not hash(): the same buckets in every process
                    hit = memo[token] = zlib.crc32(token.encode("utf-8", "surrogatepass")) % DIM
                cells.append(base + hit)
            starts.append(len(cells))
        self.cells = np.asarray(cells, dtype=np.int64)
        self.starts = np.asarray(starts, dtype=np.int64)
        cells_sorted = np.sort(self.cells)  # each (row, bucket) once: in how many rows a bucket is
        first = np.ones(len(cells_sorted), dtype=bool)
        first[1:] = cells_sorted[1:] != cells_sorted[:-1]
        df = np.bincount(cells_sorted[first] % DIM, minlength=DIM)
        self.idf = np.log((1.0 + len(texts)) / (1.0 + df)) + 1.0
        column = {idea: k for k, idea in enumerate(ideas)}
        said = np.zeros((len(texts), len(ideas) + 1), dtype=np.float64)
        for row, ids in enumerate(found):
            for idea in ids:
                said[row, column[idea]] = 1.0
            if not ids:
                said[row, -1] = 1.0  # nothing found: alike with every other answer of nothing
        self.said = said / np.linalg.norm(said, axis=1, keepdims=True)
        self.n = len(texts)

    def dense(self, rows: np.ndarray) -> np.ndarray:
        """The unit vectors of ``rows`` (cosine = TEXT_SHARE · words + the rest · ideas)."""
        rows = np.asarray(rows, dtype=np.int64)
        lengths = self.starts[rows + 1] - self.starts[rows]
        local = np.repeat(np.arange(len(rows)), lengths)  # which of ``rows`` each token is of
        offsets = np.arange(int(lengths.sum())) - np.repeat(np.cumsum(lengths) - lengths, lengths)
        cells = self.cells[np.repeat(self.starts[rows], lengths) + offsets] % DIM
        words = np.bincount(local * DIM + cells, minlength=len(rows) * DIM).astype(np.float64)
        words = np.log1p(words.reshape(len(rows), DIM)) * self.idf
        words /= np.maximum(np.linalg.norm(words, axis=1, keepdims=True), 1e-12)
        ideas = self.said[rows]
        return np.hstack([math.sqrt(TEXT_SHARE) * words, math.sqrt(1 - TEXT_SHARE) * ideas])


BLOCK = 1024  # rows made dense at once when the rarer answers join their groups


def _cluster(points: _Points, rows: np.ndarray, w: np.ndarray) -> list[list[int]]:
    """Weighted average-linkage groups of ``rows`` (indices into ``points``, commonest
    first): the first :data:`FULL_GROUPING` in full, each later one joined to the group it is
    most like (or alone when none is alike enough). Returns lists of positions in ``rows``."""
    n = len(rows)
    head = min(n, FULL_GROUPING)
    sums = points.dense(rows[:head]) * w[:head, None]  # each group's weighted sum of vectors
    dots = sums @ sums.T  # dot products of the sums: average likeness = dots / (w_a w_b)
    size = w[:head].copy()
    like = dots / np.outer(size, size)
    np.fill_diagonal(like, -np.inf)
    members: list[list[int]] = [[i] for i in range(head)]
    alive = np.ones(head, dtype=bool)
    while head > 1:
        a, b = np.unravel_index(int(np.argmax(like)), like.shape)
        if like[a, b] < JOIN:
            break
        a, b = min(a, b), max(a, b)
        dots[a, :] += dots[b, :]
        dots[:, a] += dots[:, b]
        sums[a] += sums[b]
        size[a] += size[b]
        alive[b] = False
        members[a] += members[b]
        members[b] = []
        row = dots[a] / (size[a] * size)
        row[~alive] = -np.inf
        row[a] = -np.inf
        like[a, :] = row
        like[:, a] = row
        like[b, :] = -np.inf
        like[:, b] = -np.inf
    live = np.nonzero(alive)[0]
    groups = [members[i] for i in live]
    if n > head:
        live_sums, live_size = sums[live], size[live]
        for start in range(head, n, BLOCK):  # a block at a time: bounded memory
            block = rows[start : start + BLOCK]
            near = (points.dense(block) @ live_sums.T) / live_size
            best = near.argmax(axis=1)
            for k, j in enumerate(best):
                if near[k, j] >= JOIN:
                    groups[int(j)].append(start + k)
                else:
                    groups.append([start + k])
    return groups


# -- marks a teacher set for groups ---------------------------------------------------------


@dataclass(frozen=True)
class GroupMark:
    """One ``[[group]]`` of an overrides file: a mark for each of its students' answers."""

    question: str
    mark: float | None  # None: not marked yet
    comment: str
    students: tuple[tuple[str, str, int], ...]  # (student, fingerprint, line)
    line: int


_TABLE = re.compile(r"^\s*\[")
_GROUP_HEADER = re.compile(r"^\s*\[\[\s*(?:group|\"group\"|'group')\s*\]\]")
_KEY_AT = re.compile(r'^\s*("(?:[^"\\]|\\.)*"|\'[^\']*\'|[A-Za-z0-9_-]+)\s*=')


def _group_lines(text: str) -> list[dict[str | None, int]]:
    """For each ``[[group]]`` in order: None → its header's line, key → the line of each key
    in it or in its ``[group.students]`` table."""
    out: list[dict[str | None, int]] = []
    inside = False
    for n, line in enumerate(text.splitlines(), 1):
        if _GROUP_HEADER.match(line):
            out.append({None: n})
            inside = True
        elif _TABLE.match(line):
            inside = inside and bool(re.match(r"^\s*\[\s*group\s*\.", line))
        elif inside and (m := _KEY_AT.match(line)):
            key = m.group(1)
            if key[:1] == '"':
                try:
                    key = tomllib.loads(f"k = {key}")["k"]
                except tomllib.TOMLDecodeError:
                    key = key.strip('"')
            out[-1].setdefault(key.strip("'"), n)
    return out


def _number(value: Any) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def parse_group_marks(text: str, name: str) -> tuple[list[GroupMark], list[Problem]]:
    """The ``[[group]]`` marks of an overrides file's text, and their faults (by line); a file
    TOML cannot read is :func:`attn_tui.core.gradebook.parse_overrides`'s to report."""
    try:
        data = files.load_toml(text)
    except files.FileFault:
        return [], []
    raw = data.get(GROUP_KEY)
    if raw is None or isinstance(raw, dict):  # a student named "group"
        return [], []
    if not isinstance(raw, list):
        return [], [Problem(name, 1, "groups.ov.not_groups", {})]
    where = _group_lines(text)
    marks: list[GroupMark] = []
    problems: list[Problem] = []
    for k, entry in enumerate(raw):
        lines: dict[str | None, int] = where[k] if k < len(where) else {None: 1}
        at = lines[None]
        if not isinstance(entry, dict):
            problems.append(Problem(name, at, "groups.ov.not_groups", {}))
            continue
        extra = sorted(set(entry) - {"question", "mark", "comment", "students"})
        if extra:
            problems.append(Problem(name, at, "groups.ov.unknown_key", {"keys": ", ".join(extra)}))
            continue
        question, mark = entry.get("question"), entry.get("mark")
        comment, students = entry.get("comment", ""), entry.get("students", {})
        if not isinstance(question, str) or not question:
            problems.append(Problem(name, at, "groups.ov.no_question", {}))
            continue
        params = {"question": question}
        if mark is not None and (not _number(mark) or not 0 <= mark <= 1):
            problems.append(
                Problem(name, lines.get("mark", at), "groups.ov.bad_mark",
                        {**params, "value": repr(mark)})
            )  # fmt: skip
            continue
        if not isinstance(comment, str):
            problems.append(
                Problem(name, lines.get("comment", at), "groups.ov.bad_comment", params)
            )
            continue
        if not isinstance(students, dict) or not students:
            problems.append(
                Problem(name, lines.get("students", at), "groups.ov.no_students", params)
            )
            continue
        bad = [s for s, fp in students.items() if not isinstance(fp, str)]
        if bad:
            problems.append(
                Problem(name, lines.get(bad[0], at), "groups.ov.bad_fingerprint",
                        {**params, "student": bad[0]})
            )  # fmt: skip
            continue
        who = tuple((s, fp.strip(), lines.get(s, at)) for s, fp in students.items())
        value = None if mark is None else float(mark)
        marks.append(GroupMark(question, value, comment.strip(), who, at))
    return marks, problems


def read_marks(path: Path) -> tuple[list[Override], list[GroupMark], list[Problem]]:
    """An overrides file from disk, read once: the marks per student, the marks per group and
    every fault (never raises on its content)."""
    name = display_path(path)
    try:  # never blocks on a FIFO, never reads /dev/zero without end
        raw = files.read_bytes(path, MAX_OVERRIDES_BYTES)
    except files.FileFault as fault:
        if fault.code == "files.too_large":
            return (
                [],
                [],
                [Problem(name, 1, "classroom.ov.too_big", {"limit": MAX_OVERRIDES_BYTES})],
            )
        return [], [], [Problem.from_fault(name, fault)]
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError as err:
        return [], [], [Problem(name, raw[: err.start].count(b"\n") + 1, "ex.not_utf8", {})]
    overrides, problems = parse_overrides(text, name)
    groups, group_problems = parse_group_marks(text, name)
    return overrides, groups, problems + group_problems


def expand_group_marks(
    marks: Sequence[GroupMark],
    students: Sequence[Student],
    own: Sequence[Override] = (),
    source: str = "",
) -> tuple[list[Override], list[Problem]]:
    """The group marks as one :class:`Override` per student, checked against the class: the
    student and the question are there, and the answer is still the one the teacher saw. A
    student's own mark (in ``own``) wins over their group's; two groups that give one answer
    two different marks are a fault."""
    answers: dict[tuple[str, str], str] = {}
    names: list[str] = []
    for s in students:
        names.append(s.name)
        if s.learner.result is not None:
            for a in s.learner.result.answered:
                if a.grade.kind == "text":
                    answers[(s.name, a.id)] = answer_text(a)
    known = set(names)
    mine = {(o.student, o.question) for o in own}
    given: dict[tuple[str, str], Override] = {}
    problems: list[Problem] = []
    for gm in marks:
        if gm.mark is None:
            continue
        for student, fp, line in gm.students:
            params = {"student": student, "question": gm.question}
            if student not in known:
                shown = ", ".join(names[:12]) + (", …" if len(names) > 12 else "")
                problems.append(
                    Problem(source, line, "classroom.ov.no_student", {**params, "known": shown})
                )
                continue
            text = answers.get((student, gm.question))
            if text is None:
                problems.append(Problem(source, line, "groups.ov.no_answer", params))
                continue
            if fp != fingerprint(text):
                problems.append(Problem(source, line, "groups.ov.changed", params))
                continue
            if (student, gm.question) in mine:
                continue  # the teacher's mark for this one student wins
            ov = Override(student, gm.question, gm.mark, gm.comment, line)
            before = given.get((student, gm.question))
            if before is not None and before.mark != ov.mark:
                problems.append(
                    Problem(source, line, "groups.ov.two_marks", {**params, "line": before.line})
                )
                continue
            given.setdefault((student, gm.question), ov)
    return list(given.values()), problems


# -- how often the teacher's marks disagree with the grader's -------------------------------


@dataclass(frozen=True)
class Agreement:
    """One question's answers the teacher marked, against the grader's marks of them."""

    question: str
    marked: int  # answers with a teacher's mark
    disagreed: int  # the teacher's mark on the other side of the pass mark from the grader's
    raised: int  # of those: the teacher passed what the grader failed
    lowered: int  # … failed what the grader passed
    flagged: int  # of the disagreements, how many the grader had said it was unsure of
    changed: int  # teacher's mark ≠ grader's mark at all (same side or not)

    @property
    def share(self) -> float:
        """The share of the teacher's marks that agree with the grader's verdict."""
        return 1 - self.disagreed / self.marked if self.marked else 1.0


def agreement(students: Sequence[Student]) -> list[Agreement]:
    """Per question (in the order first met), the teacher's marks against the grader's."""
    tally: dict[str, list[int]] = {}
    for s in students:
        if s.learner.result is None or not s.overrides:
            continue
        for a in s.learner.result.answered:
            if a.id not in s.overrides:
                continue
            ex = a.inst.exercise
            bar = ex.pass_mark if ex.kind == "text" else 1.0
            teacher, grader = s.overrides[a.id].mark, s.auto[a.id]
            t_pass, g_pass = teacher >= bar - 1e-9, grader >= bar - 1e-9
            row = tally.setdefault(a.id, [0] * 6)
            row[0] += 1
            if t_pass != g_pass:
                row[1] += 1
                row[2] += t_pass
                row[3] += g_pass
                row[4] += bool(a.grade.uncertain)
            row[5] += abs(teacher - grader) > 1e-9
    return [Agreement(q, *row) for q, row in tally.items()]


__all__ = [
    "Agreement",
    "Answer",
    "GROUP_KEY",
    "Group",
    "GroupMark",
    "agreement",
    "answer_text",
    "blanks",
    "class_answers",
    "expand_group_marks",
    "fingerprint",
    "fold",
    "group_answers",
    "parse_group_marks",
    "read_marks",
]
