"""The shapes of code-exercise data: sets, exercises, and what one check reports."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from attn_tui.core.coding.checks import Case
from attn_tui.core.exercises.model import Problem, Text


@dataclass(frozen=True)
class CodeExercise:
    """One function to write: in ``file`` of the workspace, named ``function``, checked by
    the check ``check`` (``checks.CHECKS``) on its cases."""

    id: str
    title: Text
    prompt: Text  # what to write, with which shapes, and how it is checked
    explanation: Text  # shown once it passes
    check: str
    function: str
    file: str  # the workspace file's name, e.g. "03_softmax.py"
    starter: Path
    solution: Path
    hints: tuple[Text, ...] = ()
    seed: int = 0  # of the random cases: the same cases every run, so a failure can be re-read
    random: int | None = None  # how many random cases (None: the check's default)
    cases: tuple[str, ...] | None = None  # which named cases (None: all of them)
    own_cases: tuple[Case, ...] = ()  # a teacher's own, run first
    topics: tuple[str, ...] = ()
    set_id: str = ""
    line: int = 0


@dataclass(frozen=True)
class CodeSet:
    id: str
    title: Text
    summary: Text
    exercises: tuple[CodeExercise, ...]
    order: int = 1000
    path: Path | None = None
    source: str = "shipped"

    @property
    def ids(self) -> list[str]:
        return [e.id for e in self.exercises]


@dataclass
class CodeLibrary:
    sets: list[CodeSet] = field(default_factory=list)
    broken: list[tuple[Path, tuple[Problem, ...]]] = field(default_factory=list)

    @property
    def exercises(self) -> list[CodeExercise]:
        """Every exercise, in order: set by set, each set in its own order."""
        return [e for s in self.sets for e in s.exercises]

    def get(self, exercise_id: str) -> CodeExercise | None:
        return next((e for e in self.exercises if e.id == exercise_id), None)


# -- what a check reports ------------------------------------------------------------------------


@dataclass(frozen=True)
class Diagnosis:
    """A mistake named: ``code`` is a text key (``code.mistake.<code>``), ``params`` fill it."""

    code: str
    params: Mapping[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class Failure:
    """The first case that went wrong, with everything needed to show it side by side."""

    index: int  # 0-based, of Report.total
    case: Case
    inputs: tuple[tuple[str, Any], ...]  # (argument name, value)
    reason: str  # values, shape, type, count, error, in_place, stopped
    output: str = ""  # which output (of several) differs: "dK"
    expected: Any = None
    received: Any = None
    differ: Any = None  # bool array shaped like expected: True where an entry is wrong
    error: Mapping[str, Any] | None = None  # their exception: type, message, frames
    changed: tuple[str, ...] = ()  # arguments their function changed in place
    diagnoses: tuple[Diagnosis, ...] = ()


@dataclass(frozen=True)
class Report:
    exercise: str
    passed: bool
    total: int  # cases
    ran: int  # cases that came back right before the first failure (all, when passed)
    failure: Failure | None = None
    stopped: str | None = None  # why the run ended early: time, memory, output, crashed ...
    where: tuple[tuple[int, str], ...] = ()  # the line(s) a stopped run was at
    load_error: Mapping[str, Any] | None = None  # their file did not load
    missing: str | None = None  # their file has no such function
    defined: tuple[str, ...] = ()
    output: str = ""  # what their code printed
    seconds: float = 0.0
    landlock: int = 0
    signal: int | None = None  # the signal that ended a crashed run
    by_differences: bool = False
    file: str = ""

    @property
    def diagnoses(self) -> tuple[Diagnosis, ...]:
        return self.failure.diagnoses if self.failure else ()


__all__ = ["CodeExercise", "CodeLibrary", "CodeSet", "Diagnosis", "Failure", "Report"]
