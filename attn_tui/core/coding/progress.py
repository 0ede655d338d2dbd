"""Code exercises in the progress store: each check of the learner's own code is an attempt
(in the existing ``attempts`` table, under the set id ``code:<set>``), opening the solution a
reveal. A check of the untouched starter is not an attempt: the solution opens only after
the learner has tried something of their own.

For the course (issue 22) and anything else that asks: :func:`passed`.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from attn_tui.core.coding.model import CodeExercise, Report

PREFIX = "code:"


def set_key(exercise: CodeExercise) -> str:
    return PREFIX + exercise.set_id


@dataclass(frozen=True)
class CodeStatus:
    attempts: int = 0
    passed: bool = False  # a check passed at least once
    unaided: bool = False  # passed before the solution was opened
    solution_seen: bool = False
    hints: int = 0  # most hints taken

    @property
    def may_see_solution(self) -> bool:
        return self.attempts > 0 or self.passed


def counts_as_attempt(report: Report) -> bool:
    """Not the starter as it was given (its NotImplementedError): that is no attempt."""
    return not any(d.code == "not_written" for d in report.diagnoses)


def record_check(store: Any, exercise: CodeExercise, report: Report, hints: int = 0) -> bool:
    """Keep one check (when it is an attempt); True when something was recorded."""
    if not counts_as_attempt(report):
        return False
    summary = {
        "ran": report.ran,
        "total": report.total,
        "stopped": report.stopped,
        "mistakes": [d.code for d in report.diagnoses],
    }
    store.record_attempt(
        set_key(exercise),
        exercise.id,
        json.dumps(summary),
        correct=report.passed,
        score=report.ran / max(1, report.total),
        hints_used=hints,
    )
    return True


def record_solution(store: Any, exercise: CodeExercise, hints: int = 0) -> None:
    store.record_attempt(
        set_key(exercise),
        exercise.id,
        "{}",
        correct=False,
        score=0.0,
        hints_used=hints,
        revealed=True,
    )


def status(store: Any, exercise: CodeExercise) -> CodeStatus:
    rows = store.attempts(set_key(exercise), exercise.id) if store is not None else []
    checks = [a for a in rows if not a.revealed]
    first_reveal = next((a.id for a in rows if a.revealed), None)
    return CodeStatus(
        attempts=len(checks),
        passed=any(a.correct for a in checks),
        unaided=any(a.correct and (first_reveal is None or a.id < first_reveal) for a in checks),
        solution_seen=first_reveal is not None,
        hints=max((a.hints_used for a in rows), default=0),
    )


def statuses(store: Any, exercises: list[CodeExercise]) -> dict[str, CodeStatus]:
    return {e.id: status(store, e) for e in exercises}


def passed(store: Any, exercise_id: str) -> bool:
    """Has this code exercise (by id) ever passed its check? For a lesson step."""
    rows = store.attempts(exercise_id=exercise_id) if store is not None else []
    return any(a.correct and not a.revealed and a.set_id.startswith(PREFIX) for a in rows)


def current(exercises: list[CodeExercise], done: dict[str, CodeStatus]) -> CodeExercise | None:
    """The first exercise not passed yet (where watch mode starts and moves on to)."""
    return next((e for e in exercises if not done.get(e.id, CodeStatus()).passed), None)


__all__ = [
    "CodeStatus",
    "current",
    "passed",
    "record_check",
    "record_solution",
    "status",
    "statuses",
]
