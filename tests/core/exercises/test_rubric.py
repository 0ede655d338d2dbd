"""Free text graded by a rubric of key ideas: zh and en phrases, weights and partial credit,
forbid phrases for negations, and matching that ignores case, spaces and punctuation."""

from __future__ import annotations

import pytest

from attn_tui.core.exercises.grading import grade, normalise_text
from attn_tui.core.exercises.loader import load_text
from attn_tui.i18n import t


def test_full_marks_in_english_and_in_chinese(ex):
    why = ex("why")
    en = grade(why, "We score each key with a dot product, then softmax turns scores into weights.")
    zh = grade(why, "先用点积给每个键打分，再用 softmax 归一化成权重。")
    for g in (en, zh):
        assert g.correct and g.score == 1.0 and g.status == "correct" and g.missing == ()
        assert [i.text.en for i in g.found] == ["score with a dot product", "softmax normalises"]


def test_mixed_languages_and_synonyms_count(ex):
    g = grade(ex("why"), "用 inner product 打分，然后 normalize")
    assert g.correct and g.score == 1.0


def test_partial_credit_follows_the_weights(ex):
    why = ex("why")  # dot product weighs 2, softmax 1; pass 0.6
    only_dot = grade(why, "The scores are dot products.")
    assert only_dot.score == pytest.approx(2 / 3) and only_dot.correct
    only_softmax = grade(why, "然后做 softmax。")
    assert only_softmax.score == pytest.approx(1 / 3)
    assert not only_softmax.correct and only_softmax.status == "partial"
    assert only_softmax.missing_ideas("zh") == ["用点积打分"]
    lines = only_softmax.lines(t, "en")
    # the phrase that carries the idea, not the keyword alone
    assert "✓ softmax normalises (you wrote “然后做 softmax”)" in lines
    assert "· Not found: score with a dot product" in lines
    assert "· 没有找到：用点积打分" in only_softmax.lines(t, "zh")


@pytest.mark.parametrize(
    "answer",
    [
        "它不是点积，而是 softmax",
        "不用点积，只用 softmax",
        "It is not a dot product; softmax only.",
        "NO dot-product here, just softmax",
    ],
)
def test_forbid_phrases_cancel_the_idea(ex, answer):
    g = grade(ex("why"), answer)
    assert [i.text.en for i in g.found] == ["softmax normalises"]
    assert g.score == pytest.approx(1 / 3) and not g.correct


@pytest.mark.parametrize(
    "answer", ["DOT PRODUCT", "dot-product", "dot\tproduct", "Dot　Product！", "点　积", "“点积”"]
)
def test_case_space_and_punctuation_are_ignored(ex, answer):
    g = grade(ex("why"), answer)
    assert [i.text.en for i in g.found] == ["score with a dot product"]


@pytest.mark.parametrize("answer", ["", "   ", "asdfgh", "？？？", "12345", "🙂🙂"])
def test_empty_or_nonsense_scores_zero_and_lists_everything_missing(ex, answer):
    g = grade(ex("why"), answer)
    assert g.score == 0 and not g.correct
    assert len(g.missing) == 2 and g.found == ()
    assert all(line.startswith("· Not found: ") for line in g.lines(t, "en")[1:3])


def test_normalise_keeps_symbols_so_sqrt_d_stays_itself():
    assert normalise_text("√d , Not d!") == "√dnotd"
    assert normalise_text("ＡＢＣ　ｄｅｆ") == "abcdef"


def test_pass_mark_from_the_file_decides_correctness():
    text = """
[set]
id = "p"
title = { zh = "题", en = "t" }
summary = { zh = "题", en = "t" }
[[exercise]]
id = "x"
kind = "text"
prompt = { zh = "为什么？", en = "Why?" }
answer = { zh = "方差、饱和。", en = "Variance, saturation." }
explanation = { zh = "略", en = "-" }
topics = ["variance"]
pass = 1.0
[[exercise.rubric]]
idea = { zh = "方差", en = "variance" }
phrases = { zh = ["方差"], en = ["variance"] }
[[exercise.rubric]]
idea = { zh = "饱和", en = "saturation" }
phrases = { zh = ["饱和"], en = ["saturat"] }
"""
    s, problems = load_text(text, "p.toml")
    assert problems == [] and s is not None
    x = s.exercises[0]
    assert not grade(x, "the variance grows").correct
    assert grade(x, "the variance grows, softmax saturates").correct
