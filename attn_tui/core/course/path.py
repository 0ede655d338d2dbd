"""The path through the lessons: each lesson's state, where to continue, and one lesson's
steps as the learner goes through them.

A lesson is *locked* until the one before it is passed (the first is always open), *open*
until a step is done, *started* then, and *passed* once its check is. Home's
"Continue: lesson N" is the first lesson not passed that is open. A locked lesson can still be
read ("learners may still roam"), but it does not count as passed until its own check is.

Everything a learner does in a lesson is kept in its :class:`LessonRecord` the moment it
happens (the step done, what was typed into a do-task or a check before submitting it), so
quitting half-way loses nothing: the record reopens the lesson where it was left.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, replace
from typing import Any

from attn_tui.core.course.lessons import Course, Lesson, Step
from attn_tui.core.progress import LessonRecord

LOCKED, OPEN, STARTED, PASSED = "locked", "open", "started", "passed"


@dataclass(frozen=True)
class LessonStatus:
    lesson: Lesson
    number: int  # 1-based place on the path
    state: str
    done: tuple[str, ...]  # step ids done
    at_step: str
    passed_at: float | None

    @property
    def steps_done(self) -> int:
        return sum(1 for s in self.lesson.steps if s.id in self.done)

    def to_dict(self) -> dict[str, Any]:
        return {
            "id": self.lesson.id,
            "number": self.number,
            "chapter": self.lesson.chapter,
            "title_zh": self.lesson.title.zh,
            "title_en": self.lesson.title.en,
            "state": self.state,
            "steps": [s.id for s in self.lesson.steps],
            "steps_done": [s.id for s in self.lesson.steps if s.id in self.done],
            "at_step": self.at_step,
        }


@dataclass(frozen=True)
class PathStatus:
    lessons: tuple[LessonStatus, ...]

    @property
    def next(self) -> LessonStatus | None:
        """Where to continue: the first lesson not passed that is open (None: all passed)."""
        return next((s for s in self.lessons if s.state in (OPEN, STARTED)), None)

    @property
    def passed(self) -> int:
        return sum(s.state == PASSED for s in self.lessons)

    def get(self, lesson_id: str) -> LessonStatus | None:
        return next((s for s in self.lessons if s.lesson.id == lesson_id), None)


def path_status(course: Course, records: Mapping[str, LessonRecord]) -> PathStatus:
    out: list[LessonStatus] = []
    before_passed = True
    for n, lesson in enumerate(course.lessons, 1):
        rec = records.get(lesson.id)
        done = rec.done if rec else ()
        if rec is not None and rec.passed:
            state = PASSED
        elif not before_passed:
            state = LOCKED
        elif done:
            state = STARTED
        else:
            state = OPEN
        at = rec.at_step if rec and lesson.step(rec.at_step) else lesson.steps[0].id
        out.append(LessonStatus(lesson, n, state, done, at, rec.passed_at if rec else None))
        before_passed = state == PASSED
    return PathStatus(tuple(out))


# -- one lesson, step by step ------------------------------------------------------------------


def start(lesson: Lesson, record: LessonRecord | None, now: float) -> LessonRecord:
    """The record to resume from (a new one at the first step)."""
    if record is not None and lesson.step(record.at_step) is not None:
        return record
    first = lesson.steps[0].id
    if record is not None:
        return replace(record, at_step=first, updated_at=now)
    return LessonRecord(lesson.id, (), first, {}, None, now)


def goto(record: LessonRecord, step_id: str, now: float) -> LessonRecord:
    return replace(record, at_step=step_id, updated_at=now)


def mark_done(lesson: Lesson, record: LessonRecord, step_id: str, now: float) -> LessonRecord:
    """Step ``step_id`` done; the lesson moves to the next step not done (or stays)."""
    done = tuple(dict.fromkeys((*record.done, step_id)))
    ids = [s.id for s in lesson.steps]
    later = ids[ids.index(step_id) + 1 :] if step_id in ids else []
    nxt = next((i for i in later if i not in done), None)
    nxt = nxt or next((i for i in ids if i not in done), step_id)
    return replace(record, done=done, at_step=nxt, updated_at=now)


def keep_draft(record: LessonRecord, step_id: str, value: Any, now: float) -> LessonRecord:
    """What the learner typed in a step and has not submitted (kept across quitting)."""
    draft = dict(record.draft)
    if value in (None, "", {}):
        draft.pop(step_id, None)
    else:
        draft[step_id] = value
    return replace(record, draft=draft, updated_at=now)


def next_step(lesson: Lesson, step_id: str) -> Step | None:
    ids = [s.id for s in lesson.steps]
    i = ids.index(step_id) if step_id in ids else -1
    return lesson.steps[i + 1] if 0 <= i < len(ids) - 1 else None


def practised(step: Step, solved: Iterable[str]) -> int:
    """How many of a practise step's items are solved (``solved``: "set/id" keys)."""
    have = set(solved)
    return sum(1 for item in step.items if item in have)


@dataclass(frozen=True)
class CheckRound:
    """One try at a lesson's check: each item answered once; ``pass`` right ones pass."""

    answers: Mapping[str, bool]  # item → right

    def right(self) -> int:
        return sum(self.answers.values())

    def complete(self, step: Step) -> bool:
        return all(item in self.answers for item in step.items)

    def passed(self, step: Step) -> bool:
        return self.complete(step) and self.right() >= step.need


def check_round(record: LessonRecord, step: Step) -> CheckRound:
    raw = record.draft.get(f"{step.id}:round", {})
    answers = (
        {k: bool(v) for k, v in raw.items() if k in step.items} if isinstance(raw, dict) else {}
    )
    return CheckRound(answers)


def answer_check(
    lesson: Lesson, record: LessonRecord, step: Step, item: str, right: bool, now: float
) -> LessonRecord:
    """Record one check answer; a complete round that passes passes the lesson, a complete
    one that does not starts a fresh round on the next answer."""
    current = check_round(record, step)
    answers = {} if current.complete(step) else dict(current.answers)
    answers[item] = bool(right)
    rnd = CheckRound(answers)
    draft = {**record.draft, f"{step.id}:round": dict(answers)}
    record = replace(record, draft=draft, updated_at=now)
    if rnd.passed(step):
        record = mark_done(lesson, record, step.id, now)
        record = replace(record, passed_at=record.passed_at or now)
    return record
