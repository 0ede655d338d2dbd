"""Kinds of failure the fifth round's independent teachers (A9–A12) showed the grader (issue
23): a role given to "all three" at once, a focus or view said in place of a "relation", a step
named through its comparison, a division of labour said to be assigned by hand. Each answer
here is written for this test (not a teacher's words); each test failed before its fix."""

from __future__ import annotations

import pytest

from attn_tui.core.exercises.grading import grade
from attn_tui.core.exercises.model import CONTRADICTED, FOUND, SWAPPED

from .shipped_items import item, states


@pytest.mark.parametrize(
    "answer",
    [
        "Self-attention draws Q, K and V from one sequence; cross-attention takes Q from the "
        "decoder and K and V from the encoder. Really, though, in cross-attention all three "
        "come from the encoder.",
        "Self-attention: Q, K, V from the same sequence. Cross-attention: Q from the decoder, "
        "K and V from the encoder, but in the end all three are taken from the encoder.",
        "自注意力的 Q、K、V 都来自同一个序列；交叉注意力里查询来自解码器，键和值来自编码器。"
        "说到底交叉注意力里三个都来自编码器。",
    ],
)
def test_all_three_from_one_source_swaps_the_query(answer):
    g = grade(item("bx-cross-text"), answer)
    assert states(g)["cross-q"] == SWAPPED
    assert not g.correct


@pytest.mark.parametrize(
    "answer",
    [
        "In self-attention all three come from the same sequence; in cross-attention the "
        "queries come from the decoder and the keys and values all come from the encoder.",
        "自注意力里三个都来自同一个序列；交叉注意力里查询来自解码器，键和值都来自编码器。",
    ],
)
def test_all_said_of_the_right_roles_stays_right(answer):
    g = grade(item("bx-cross-text"), answer)
    assert states(g)["cross-q"] == FOUND
    assert g.correct


@pytest.mark.parametrize(
    "answer",
    [
        "Yes. Five letters fit easily in the 16-d hidden state, so there is no bottleneck, and "
        "the extra parameters just add noise that pulls the accuracy down.",
        "是的。5 个字母装得进 16 维隐状态，没有瓶颈；多出来的参数只会带来噪声。",
    ],
)
def test_a_bare_yes_affirms_what_the_prompt_asks(answer):
    g = grade(item("rnn-attention/why-worse"), answer)
    assert states(g)["noise"] == CONTRADICTED
    assert not g.correct


@pytest.mark.parametrize(
    "answer",
    [
        "No. Five letters fit in the 16-d hidden state, so there is no bottleneck, and the "
        "book's drop is one run's noise: over ten seeds it does not appear.",
        "没有。5 个字母装得进 16 维隐状态，没有瓶颈；"
        "课本那次只是一次运行，多跑几个种子下降就不见了。",
    ],
)
def test_a_bare_no_keeps_the_credit(answer):
    assert grade(item("rnn-attention/why-worse"), answer).correct


@pytest.mark.parametrize(
    "answer",
    [
        "像查字典：先看每个词条和要查的词合不合（打分），再把这些分数换成加起来是 1 的比例，"
        "最后按比例把词条的解释混成一段（对值加权求和）。",
        "就像挑餐馆：先给每家和我想吃的东西打个匹配分，再用 softmax 把分数换成加起来为 1 的权重，"
        "最后按权重把各家的值加权求和。",
    ],
)
def test_a_step_named_through_its_comparison_scores(answer):
    g = grade(item("three-steps/name-steps"), answer)
    assert states(g)["score"] == FOUND


@pytest.mark.parametrize(
    "answer",
    [
        "点积越大说明越相关，方差随 d 变大，softmax 就会饱和，梯度几乎为 0，所以要除以 √d。"
        "不过除以 √d 以后 softmax 反而更尖锐，注意力更集中。",
    ],
)
def test_a_but_sentence_that_reverses_is_a_claim_against(answer):
    g = grade(item("scaling-variance/why-scale"), answer)
    assert not g.correct


def test_a_caveat_with_a_reversal_about_the_topic_keeps_the_credit():
    answer = (
        "每个头有自己的投影，在不同子空间里关注不同的关系，最后拼接再经 W_O 融合。"
        "不过头也不是越多越好，头太多时每个头的维度太小，反而学不好。"
    )
    assert grade(item("multi-head/why-heads"), answer).correct


@pytest.mark.parametrize(
    "answer",
    [
        "第一步查询和键做点积打分，第二步 softmax 变成权重，第三步对值加权求和。"
        "不过 softmax 其实就是把最大的分数变成 1，别的全变成 0。",
        "First the query is dotted with each key, then softmax turns the scores into weights, "
        "then the values are summed with those weights. But the softmax actually just keeps the "
        "top score and sets the rest to 0.",
    ],
)
def test_but_then_actually_a_word_on_is_a_strong_turn(answer):
    g = grade(item("sc-steps"), answer)
    assert not g.correct


@pytest.mark.parametrize("ref", ["sc-steps", "three-steps/name-steps"])
def test_an_output_beyond_the_values_is_a_contradiction(ref):
    answer = (
        "先用查询和键点积打分，再用 softmax 变成加起来为 1 的权重，最后对值加权求和。"
        "所以输出常常超出所有值的范围。"
    )
    assert not grade(item(ref), answer).correct
    right = (
        "先用查询和键点积打分，再用 softmax 变成加起来为 1 的权重，最后对值加权求和，"
        "输出不会超出这些值的范围。"
    )
    assert grade(item(ref), right).correct


@pytest.mark.parametrize(
    "answer",
    [
        "点积的方差约为 d，d 大时 softmax 饱和、梯度几乎为 0；除以 √d（而不是 d）把方差拉回 1。",
        "The dot product's variance is about d, so softmax saturates and the gradients vanish; "
        "dividing by √d (not by d) brings the variance back to 1.",
    ],
)
def test_a_denial_in_brackets_denies_only_what_they_hold(answer):
    g = grade(item("sc-why-sqrt"), answer)
    assert states(g)["unit"] == FOUND
    assert states(g)["variance"] == FOUND
    assert g.correct


def test_a_denial_said_of_the_other_task_takes_nothing_back():
    answer = (
        "两个任务里查询的位置都告诉输出自己是第几个；反转时键的位置告诉它去哪找。"
        "排序找的是第几小的字母，不靠键的位置。"
    )
    g = grade(item("transformer/why-positions"), answer)
    assert states(g)["reverse"] == FOUND
    assert g.correct


@pytest.mark.parametrize(
    "answer",
    [
        "Every key keeps a little weight, so later the model can still shift its attention "
        "there; a hard max would cut the others off, so no gradient reaches them.",
        "每个键都留着一点权重，之后还能把注意力挪过去；要是换成 argmax，别的键就收不到梯度。",
    ],
)
def test_no_gradient_under_a_hard_max_says_the_gradient_flows_under_softmax(answer):
    g = grade(item("softmax/why-nonzero-helps"), answer)
    assert states(g)["flow"] == FOUND
    assert g.correct


def test_a_hard_max_said_to_be_no_different_is_no_counterfactual():
    answer = (
        "Every key keeps a little weight, so the model can shift its attention later. In "
        "practice, though, a tiny weight gets no gradient either, so softmax behaves just like "
        "a hard max."
    )
    assert not grade(item("softmax/why-nonzero-helps"), answer).correct


@pytest.mark.parametrize("ref", ["sc-why-sqrt", "scaling-variance/why-scale"])
def test_dividing_by_d_said_to_be_right_is_a_contradiction(ref):
    wrong = (
        "The variance of q·k grows like d, so softmax saturates and the gradients vanish; "
        "really one should divide by d rather than √d, since dividing by d makes the "
        "variance 1."
    )
    assert not grade(item(ref), wrong).correct
    right = (
        "The variance of q·k grows like d, so softmax saturates and the gradients vanish; "
        "dividing by √d brings the variance back to 1, while dividing by d would squash the "
        "scores far too much."
    )
    assert grade(item(ref), right).correct


def test_computing_in_parallel_for_speed_is_not_order_blindness():
    answer = "Transformer 可以并行计算，所以训练快；RNN 只能一步一步算，所以慢。"
    g = grade(item("tf-why-order"), answer)
    assert states(g)["attention"] != FOUND
    assert not g.correct


def test_a_clause_that_turns_with_though_really_takes_back_what_it_speaks_of():
    answer = (
        "First the query is dotted with each key to score them, then softmax turns the scores "
        "into weights, and the values are summed with those weights, though really the raw "
        "scores are used as the weights and the softmax is skipped."
    )
    assert not grade(item("three-steps/name-steps"), answer).correct
