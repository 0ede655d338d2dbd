"""How the written-answer grader reads an answer that changes its mind, found on the second
round of independent teachers' answers (issue 23). Every answer here is written for the test,
in words of its own (none is a dev answer's); each test failed before its fix."""

from __future__ import annotations

import pytest

from attn_tui.core.exercises.grading import grade
from attn_tui.core.exercises.model import CONTRADICTED, FOUND, NEGATED

from .shipped_items import LIBRARY, item, states

# -- an excuse must be said near the claim it excuses ------------------------------------------


def test_an_excuse_named_far_from_the_claim_does_not_excuse_it():
    # "scores" at the start of the sentence once excused "negative weight" at its end
    answer = (
        "Compare the query with every key to get scores, turn the scores into weights with "
        "softmax and add up the values with those weights, so a key that matches badly ends "
        "up with a negative weight that pulls its value out of the result."
    )
    assert not grade(item("three-steps/name-steps"), answer).correct


def test_an_excuse_said_beside_the_claim_still_excuses_it():
    answer = (
        "Dot the query with each key for a score (a score may be negative), softmax the scores "
        "into weights that sum to 1, then take the weighted sum of the values."
    )
    assert grade(item("three-steps/name-steps"), answer).correct


# -- the last word stands ----------------------------------------------------------------------


def test_an_idea_denied_in_a_later_sentence_is_taken_back():
    answer = (
        "Softmax gives every key a small weight, so the gradient reaches every key. "
        "To be honest the gradient does not reach every key."
    )
    g = grade(item("softmax/why-nonzero-helps"), answer)
    assert states(g)["flow"] == NEGATED
    assert g.uncertain or not g.correct


def test_a_later_sentence_about_another_setting_takes_nothing_back():
    answer = (
        "Every key keeps a little weight, so the gradient flows to every key and a key that is "
        "ignored now can still win later. With a hard max the keys not picked get no gradient."
    )
    g = grade(item("softmax/why-nonzero-helps"), answer)
    assert states(g)["flow"] == FOUND
    assert g.correct


# -- taking it back ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    "answer",
    [
        "维度越大，点积的方差越大，softmax 饱和，梯度消失；除以根号 d 方差回到 1。嗯，不对。",
        "The variance of q·k grows with d, softmax saturates and the gradients vanish; dividing "
        "by √d brings the variance back to 1. Hmm, no, that can't be right.",
    ],
)
def test_a_clause_that_only_says_wrong_takes_back_the_sentence_before(answer):
    assert not grade(item("sc-why-sqrt"), answer).correct


@pytest.mark.parametrize(
    "answer",
    [
        "The RNN reads one token after another, so the order is built in; self-attention sees "
        "the input as a set, so a positional encoding has to be added. Come to think of it, "
        "the heads already see the order, so the positional encoding is optional.",
        "RNN 一个接一个地读，顺序就在里面；自注意力打乱输入也只是打乱输出，所以要加位置编码。"
        "不过转念一想，多个头本来就分得出先后，位置编码可有可无。",
    ],
)
def test_a_self_correction_that_speaks_of_an_idea_again_takes_the_answer_back(answer):
    g = grade(item("tf-why-order"), answer)
    assert not g.correct
    assert CONTRADICTED in states(g).values()


def test_a_self_correction_that_says_the_idea_again_keeps_it():
    answer = (
        "Self-attention: Q, K and V all come from one sequence. Cross-attention: the query "
        "comes from the encoder — wait, no: the query comes from the decoder, and the keys and "
        "values come from the encoder."
    )
    assert grade(item("bx-cross-text"), answer).correct


def test_optional_denies_what_it_is_said_of():
    answer = "RNN 按顺序一步一步读；自注意力把输入当集合，位置编码可有可无。"
    assert states(grade(item("tf-why-order"), answer))["encoding"] != FOUND


# -- every shipped written item shows each kind of answer, graded as expected -----------------

from attn_tui.core.exercises.examples import check_examples  # noqa: E402
from attn_tui.core.exercises.model import (  # noqa: E402
    EXAMPLE_KINDS_REQUIRED,
    EXAMPLE_KINDS_RIGHT,
)

WRITTEN = [e for e in LIBRARY.quiz_exercises if e.kind == "text"] + [
    e for s in LIBRARY.sets for e in s.exercises if e.kind == "text"
]


@pytest.mark.parametrize("ex", WRITTEN, ids=lambda e: f"{e.set_id}/{e.id}")
def test_every_written_item_has_an_example_of_each_kind_graded_as_expected(ex):
    kinds = {x.kind for x in ex.examples}
    assert set(EXAMPLE_KINDS_REQUIRED) <= kinds, sorted(set(EXAMPLE_KINDS_REQUIRED) - kinds)
    for x in ex.examples:
        if not x.kind:
            continue
        g = grade(ex, x.answer)
        assert g.correct == (x.kind in EXAMPLE_KINDS_RIGHT), (x.kind, x.answer, g.score)


def test_a_teachers_example_the_grader_disagrees_with_fails_validate(tmp_path):
    from attn_tui.core.exercises.loader import load_text

    text = """
[set]
id = "mine"
title = { zh = "题", en = "t" }
summary = { zh = "题", en = "t" }

[[exercise]]
id = "why"
kind = "text"
prompt = { zh = "为什么？", en = "Why?" }
answer = { zh = "方差随 d 变大。", en = "The variance grows with d." }
explanation = { zh = "略", en = "-" }
topics = ["variance"]

[[exercise.rubric]]
idea = { zh = "方差随 d 变大", en = "the variance grows with d" }
match = ["VARIANCE INCREASE"]

[[exercise.example]]
answer = "The variance grows with d."
expect = "pass"
kind = "plain"

[[exercise.example]]
answer = "The variance does not grow with d."
expect = "pass"
kind = "paraphrase"

[[exercise.example]]
answer = "Variance."
expect = "fail"
kind = "banana"
"""
    _, problems = load_text(text, "mine.toml")
    assert [p.code for p in problems] == ["ex.bad_example_kind"]
    _, wrong_side = load_text(text.replace('kind = "banana"', 'kind = "analogy"'), "mine.toml")
    assert [p.code for p in wrong_side] == ["ex.example_kind_side"]
    loaded, problems = load_text(text.replace('kind = "banana"', 'kind = "vague"'), "mine.toml")
    assert problems == []
    assert [x.kind for x in loaded.exercise("why").examples] == ["plain", "paraphrase", "vague"]
    assert len(check_examples(loaded, "mine.toml")) == 1  # the paraphrase that is no such thing
