"""``attn-tui exercises try SET/ID --answer A [--json]`` grades every kind, and its JSON
carries the diagnosis (generated items from --seed, with the drawn prompt)."""

from __future__ import annotations

import json

import pytest

from attn_tui.cli import main


def run(capsys, *args):
    code = main(["exercises", "try", *args, "--json"])
    out = capsys.readouterr().out
    assert code == 0
    return json.loads(out)


@pytest.mark.parametrize(
    ("item", "answer", "kind", "passed"),
    [
        ("scaling-variance/variance-dk", "64", "number", True),
        ("hand-example/dots", "1 0 2 1", "vector", True),
        ("qkv-self-attention/mask-4", "1 0 0 0; 1 1 0 0; 1 1 1 0; 1 1 1 1", "matrix", True),
        ("scaling-variance/why-sqrt-not-d", "a", "choice", True),
        ("softmax/properties", "z", "multi", False),
        ("quiz-selfcheck/sc-never-zero-tf", "true", "truefalse", False),
        (
            "quiz-selfcheck/sc-steps",
            "q·k for each key, softmax, then a weighted sum of v",
            "text",
            True,
        ),
    ],
)
def test_every_kind_is_graded(capsys, item, answer, kind, passed):
    data = run(capsys, item, "--answer", answer)
    assert data["kind"] == kind and data["passed"] is passed
    assert data["feedback"] and isinstance(data["diagnoses"], list)


def test_the_diagnosis_is_in_the_json(capsys):
    data = run(capsys, "scaling-variance/variance-dk", "--answer", "8")
    assert [d["code"] for d in data["diagnoses"]] == ["std-for-variance"]
    assert "√64" in data["diagnoses"][0]["message"]


def test_a_generated_item_is_drawn_from_the_seed_and_diagnosed_on_its_numbers(capsys):
    from attn_tui import paths
    from attn_tui.core.attention.steps import softmax
    from attn_tui.core.exercises.generators import fmt_vector, instance

    ex = paths.load_all().get("hand-example").exercise("weights-practice")
    inst = instance(ex, 5)
    scores = inst.drawn.values["keys"] @ inst.drawn.values["query"]
    unscaled = fmt_vector(softmax(scores))  # the weights of the unscaled scores, this draw
    data = run(capsys, "hand-example/weights-practice", "--seed", "5", "--answer", unscaled)
    assert data["seed"] == 5 and data["prompt"] == inst.prompt("en")
    assert [d["code"] for d in data["diagnoses"]] == ["unscaled"]
    other = run(capsys, "hand-example/weights-practice", "--seed", "7", "--answer", unscaled)
    assert other["diagnoses"] == [] or other["passed"]  # another draw: it does not fit


def test_a_wrong_choice_says_why(capsys):
    data = run(capsys, "patterns-context/diagonal", "--answer", "a")
    assert data["passed"] is False
    assert [d["code"] for d in data["diagnoses"]] == ["choice"]
    assert "vertical stripe" in data["diagnoses"][0]["message"]
