"""Checking a code set the way a teacher needs: the file's faults (``file:line``), then each
exercise's solution run against its own check (it must pass) and its starter (it must not:
a starter that passes teaches nothing). Both run in the sandbox, like a learner's file."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from attn_tui.core.coding.engine import check_file
from attn_tui.core.coding.loader import load_file
from attn_tui.core.coding.model import CodeSet, Report
from attn_tui.core.coding.sandbox import Sandbox
from attn_tui.core.exercises.loader import display_path
from attn_tui.core.exercises.model import Problem


def _why(report: Report) -> dict[str, Any]:
    failure = report.failure
    line = 1
    if report.load_error and report.load_error.get("frames"):
        line = int(report.load_error["frames"][-1][0])
    elif failure is not None and failure.error and failure.error.get("frames"):
        line = int(failure.error["frames"][-1][0])
    elif report.where:
        line = report.where[0][0]
    return {
        "line": line,
        "case": failure.case.name if failure else "",
        "reason": report.stopped or (failure.reason if failure else "load"),
        "mistakes": ", ".join(d.code for d in report.diagnoses) or "-",
    }


def run_files(loaded: CodeSet) -> list[Problem]:
    problems: list[Problem] = []
    with Sandbox(warm=True, folder=loaded.path.parent if loaded.path else None) as sandbox:
        for ex in loaded.exercises:
            solved = check_file(ex, ex.solution, sandbox=sandbox)
            if not solved.passed:
                why = _why(solved)
                problems.append(
                    Problem(
                        display_path(ex.solution),
                        int(why.pop("line")),
                        "code.solution_fails",
                        why,
                        ex.id,
                    )
                )
            started = check_file(ex, ex.starter, sandbox=sandbox)
            if started.passed:
                problems.append(
                    Problem(display_path(ex.starter), 1, "code.starter_passes", {}, ex.id)
                )
    return problems


def validate(path: Path, run: bool = True) -> tuple[CodeSet | None, list[Problem]]:
    """Every fault of one code set file; with ``run``, its solutions and starters run too."""
    loaded, problems = load_file(Path(path), source="extra")
    if loaded is None or not run:
        return loaded, problems
    return loaded, problems + run_files(loaded)


__all__ = ["validate"]
