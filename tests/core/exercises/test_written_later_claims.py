"""A claim made later in an answer costs the idea it breaks (issue 23, fourth round): a late
turn against an idea said before it, and a role the answer states wrongly. Each answer here is
written for this test (not a dev answer's words); each test failed before its fix."""

from __future__ import annotations

import pytest

from attn_tui.core.exercises.grading import grade
from attn_tui.core.exercises.model import CONTRADICTED, FOUND, SWAPPED

from .shipped_items import item, states

SQRT = (
    "The dot product of two random d-dimensional vectors has variance d, so for large d "
    "softmax saturates and its gradients vanish; dividing by √d brings the variance back to 1."
)
SQRT_ZH = "点积的方差是 d，d 一大 softmax 就饱和、梯度几乎消失；除以 √d 把方差拉回 1。"


@pytest.mark.parametrize(
    "turn",
    [
        " In practice, though, the softmax output is the same with or without the division.",
        " Actually, the gradients are just as large either way, so the division is cosmetic.",
        "不过其实除不除，softmax 的输出都差不多，梯度也一样大。",
        "说实话，梯度不管除不除都一样，只是数字好看些。",
    ],
)
def test_a_late_turn_against_the_ideas_takes_them_back(turn):
    base = SQRT_ZH if "\u4e00" <= turn[0] <= "\u9fff" else SQRT
    assert grade(item("sc-why-sqrt"), base).correct
    g = grade(item("sc-why-sqrt"), base + turn)
    assert not g.correct
    assert CONTRADICTED in states(g).values()


@pytest.mark.parametrize(
    "after",
    [
        " In practice this is done for every head at once.",  # a strong turn, about nothing said
        " But that is the whole story.",  # a plain turn that names no concept
        "不过这一步在每个头里都要做一遍。",
    ],
)
def test_a_turn_that_speaks_of_nothing_said_takes_nothing_back(after):
    base = SQRT_ZH if "\u4e00" <= after[0] <= "\u9fff" else SQRT
    g = grade(item("sc-why-sqrt"), base + after)
    assert g.correct and CONTRADICTED not in states(g).values()


def test_a_plain_but_that_brings_the_second_half_is_no_turn_against_the_first():
    # "but" opening the answer's own second idea, and a caveat about the prompt's own topic
    g = grade(
        item("kinds-cost/what-weights-explain"),
        "The map shows which positions each output took its information from. But a high "
        "weight does not mean that position caused the decision: it is no causal explanation.",
    )
    assert g.correct
    g = grade(
        item("multi-head/why-heads"),
        "一个头的 softmax 只能给出一种加权平均，只能表达一种关系；多个头各有自己的 W_Q、W_K、W_V，"
        "可以同时关注不同的关系，最后拼接起来。不过头也不是越多越好。",
    )
    assert g.correct


@pytest.mark.parametrize(
    "answer",
    [
        "Self-attention: Q, K and V all come from the same sequence. Cross-attention: the "
        "queries and the keys come from the decoder, the values from the encoder.",
        "自注意力：Q、K、V 都来自同一个序列。交叉注意力：Q 和 K 来自解码器，V 来自编码器。",
        "Self-attention: Q, K, V from one sequence. Cross-attention: Q from the decoder, K and "
        "V from the encoder. Come to that, the keys must come from the decoder as well.",
    ],
)
def test_a_role_stated_wrongly_fails_the_answer_though_two_of_three_ideas_stand(answer):
    g = grade(item("bx-cross-text"), answer)
    assert states(g)["cross-kv"] == SWAPPED
    assert not g.correct and g.score < 0.5


def test_a_wrong_role_mended_at_once_is_not_held_against_the_answer():
    g = grade(
        item("bx-cross-text"),
        "Self-attention: Q, K and V all come from one sequence. Cross-attention: the query "
        "comes from the encoder — no, sorry: the query comes from the decoder, and the keys "
        "and values come from the encoder.",
    )
    assert g.correct


@pytest.mark.parametrize(
    "answer",
    [
        "先用 query 和每个 key 比一比，看合不合拍，得到分数；再用 softmax 把分数变成加起来为 1 的"
        "权重；最后按权重把各个 value 混在一起。",
        "First compare the query with each key to get a score; then softmax turns the scores "
        "into weights that add up to 1; last, the values are mixed together by those weights.",
    ],
)
def test_everyday_words_for_mixing_and_matching_name_the_concepts(answer):
    g = grade(item("three-steps/name-steps"), answer)
    assert states(g) == {"score": FOUND, "softmax": FOUND, "sum": FOUND} and g.correct


def test_a_teachers_phrase_holds_with_one_more_word_inside_it():
    # the rubric's misconception "same pattern", said as "the same attention pattern"
    said = (
        "Several heads each have their own projections, so they can attend to different "
        "relations; their outputs are concatenated and mixed by W_O."
    )
    assert grade(item("multi-head/why-heads"), said).correct
    g = grade(item("multi-head/why-heads"), said + " In the end every head learns the same "
              "attention pattern, so they work like an ensemble.")  # fmt: skip
    assert not g.correct and CONTRADICTED in states(g).values()
    # a word that turns or joins the phrase never stands inside it
    g = grade(item("multi-head/why-heads"), said + " Heads may learn the same or a different "
              "pattern, depending on the data.")  # fmt: skip
    assert CONTRADICTED not in states(g).values()


def test_wei_he_asks_why_as_wei_shenme_does():
    # 为何 is the written form of 为什么: "it cannot say why" denies the cause either way
    for why in ("为什么", "为何"):
        g = grade(
            item("kinds-cost/what-weights-explain"),
            f"热力图能看出每个输出从哪些位置取了多少信息，但它说明不了模型{why}这样判断。",
        )
        assert states(g)["cause"] == FOUND, why
