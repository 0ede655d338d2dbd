"""A shape is right or wrong (item 13 of issue 26): `whole = true` on a vector or matrix
exercise gives no partial credit for a wrong answer; every shipped shape question has it."""

from __future__ import annotations

from pathlib import Path

import pytest

from attn_tui.core.exercises.generators import instance
from attn_tui.core.exercises.grading import CORRECT, INCORRECT, PARTIAL, grade
from attn_tui.core.exercises.loader import load_file, load_text

SETS = Path(__file__).resolve().parents[3] / "exercises" / "sets"

SET = """
[set]
id = "shapes-test"
title = {{ zh = "形状", en = "Shapes" }}
summary = {{ zh = "形状", en = "Shapes" }}

[[exercise]]
id = "one"
kind = "{kind}"
{whole}
topics = ["shapes"]
answer = {answer}
prompt = {{ zh = "形状？", en = "Shape?" }}
explanation = {{ zh = "(10, 10)。", en = "(10, 10)." }}
"""


def one(kind="vector", whole="whole = true", answer="[10, 10]"):
    loaded, problems = load_text(SET.format(kind=kind, whole=whole, answer=answer))
    return loaded, problems


@pytest.mark.parametrize(
    ("answer", "status", "score"),
    [("10 64", INCORRECT, 0.0), ("64 10", INCORRECT, 0.0), ("10 10 10", INCORRECT, 0.0),
     ("(10, 10)", CORRECT, 1.0)],
)  # fmt: skip
def test_a_whole_answer_is_right_or_wrong(answer, status, score):
    loaded, problems = one()
    assert problems == []
    g = grade(loaded.exercise("one"), answer)
    assert (g.status, g.score) == (status, score)


def test_without_whole_a_vector_keeps_its_partial_credit():
    loaded, problems = one(whole="")
    assert problems == []
    g = grade(loaded.exercise("one"), "10 64")
    assert (g.status, g.score) == (PARTIAL, 0.5)


@pytest.mark.parametrize(
    ("kind", "whole", "answer", "code"),
    [("number", "whole = true", "3", "ex.whole_kind"),
     ("vector", 'whole = "yes"', "[10, 10]", "ex.want_bool")],
)  # fmt: skip
def test_whole_is_refused_where_it_means_nothing(kind, whole, answer, code):
    loaded, problems = one(kind, whole, answer)
    assert loaded is None and [p.code for p in problems] == [code]


SHAPE_ITEMS = {
    "07_qkv_self_attention.toml": ["shape-q", "shape-scores", "shape-output"],
    "08_multi_head.toml": ["head-shape", "head-scores", "concat-shape", "wo-shape"],
}


@pytest.mark.parametrize(("file", "ids"), SHAPE_ITEMS.items())
def test_every_shipped_shape_question_is_whole(file, ids):
    loaded, problems = load_file(SETS / file)
    assert problems == []
    for exercise in loaded.exercises:
        asks_a_shape = exercise.kind == "vector" and "shape" in exercise.prompt.en.lower()
        assert exercise.whole == asks_a_shape == (exercise.id in ids), exercise.id
    g = grade(instance(loaded.exercise(ids[1]), 0), "10 64")  # both a shape of (10, 10)
    assert g.status == INCORRECT and g.score == 0.0
