"""Every shipped exercise set and quiz bank loads cleanly and every stored answer is right."""

from __future__ import annotations

import pytest

from attn_tui import paths
from attn_tui.core.exercises.generators import instance
from attn_tui.core.exercises.grading import grade
from attn_tui.core.exercises.loader import load_file
from attn_tui.i18n import t

SHIPPED = paths.shipped_files()


def test_there_are_shipped_files():
    assert SHIPPED, "no *.toml under exercises/sets or exercises/quiz"


@pytest.mark.parametrize("path", SHIPPED, ids=lambda p: f"{p.parent.name}/{p.name}")
def test_shipped_file_validates(path):
    loaded, problems = load_file(path)
    assert [p.format(t, "en") for p in problems] == []
    assert loaded is not None and loaded.exercises


@pytest.mark.parametrize("path", SHIPPED, ids=lambda p: f"{p.parent.name}/{p.name}")
def test_shipped_reference_answers_grade_as_correct(path):
    """The stored answer, typed back as a learner would, is graded correct (for text: its own
    reference answer earns a pass by its rubric) — in both languages for text."""
    loaded, _ = load_file(path)
    if loaded is None:
        pytest.skip("reported by test_shipped_file_validates")
    for ex in loaded.exercises:
        inst = instance(ex, seed=7)
        if ex.kind == "text":
            for lang in ("zh", "en"):
                g = grade(inst, ex.answer.get(lang))
                assert g.correct, f"{ex.id} ({lang}): reference answer scores {g.score:.2f}"
        else:
            typed = inst.answer_text(t, "en")
            if ex.kind in ("choice", "multi"):
                typed = ex.answer if ex.kind == "choice" else " ".join(ex.answer)
            if ex.kind == "truefalse":
                typed = "true" if ex.answer else "false"
            assert grade(inst, typed).correct, f"{ex.id}: {typed!r}"


def test_library_loads_without_broken_files(tmp_path):
    lib = paths.load_all((), tmp_path)
    assert [b.path.name for b in lib.broken] == []
    ids = [s.id for s in lib.sets + lib.quizzes]
    assert len(ids) == len(set(ids))
