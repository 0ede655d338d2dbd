"""Rubric tests: every ``[[exercise.example]]`` graded, each disagreement a file:line fault.

A teacher writes answers with the mark they expect (``expect = "pass"``, ``"fail"`` or a score)
beside a rubric; ``attn-tui exercises validate`` grades them all and reports, at the example's
line, each one the grader marks differently. Loading a set for the app does not run them.
"""

from __future__ import annotations

from attn_tui.core.exercises.grading import grade
from attn_tui.core.exercises.model import EXAMPLE_SCORE_TOLERANCE, ExerciseSet, Msg, Problem

PREVIEW = 60  # characters of the answer quoted in the fault


def check_examples(exercise_set: ExerciseSet, path: str) -> list[Problem]:
    """One problem per example the grader disagrees with, at the example's line."""
    problems = []
    for ex in exercise_set.exercises:
        for example in ex.examples:
            g = grade(ex, example.answer)
            if example.agrees(g.score, g.correct):
                continue
            expected: Msg | str
            if isinstance(example.expect, str):
                expected = Msg(f"ex.example.{example.expect}")
            else:
                expected = f"{example.expect:g} ± {EXAMPLE_SCORE_TOLERANCE:g}"
            answer = " ".join(example.answer.split())
            if len(answer) > PREVIEW:
                answer = answer[: PREVIEW - 1] + "…"
            problems.append(
                Problem(
                    path,
                    example.line,
                    "ex.example_disagrees",
                    {
                        "expected": expected,
                        "got": Msg("ex.example.pass" if g.correct else "ex.example.fail"),
                        "score": round(100 * g.score),
                        "answer": answer,
                    },
                    ex.id,
                )
            )
    return problems
