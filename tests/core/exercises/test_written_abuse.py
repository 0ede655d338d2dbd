"""Written answers as a student would abuse them, and the grammar an examiner's blind
calibration set (calibration/blind_dev.toml) found the grader missing. Each test failed before
the fix it names.
"""

from __future__ import annotations

import pytest

from attn_tui import paths
from attn_tui.core.exercises.grading import grade
from attn_tui.core.exercises.model import FOUND, NEGATED

LIBRARY = paths.load_all()
WRITTEN = [e for s in LIBRARY.sets + LIBRARY.quizzes for e in s.exercises if e.kind == "text"]

RIGHT_SQRT = (
    "The variance of the dot product grows with d, so softmax saturates and the gradients "
    "vanish; dividing by √d brings the variance back to 1."
)
RIGHT_SQRT_ZH = "点积的方差随 d 变大，softmax 饱和，梯度消失；除以根号 d 让方差回到 1。"


def item(ex_id: str):
    return next(e for e in WRITTEN if e.id == ex_id)


def states(g) -> dict[str, str]:
    return {r.idea.id: r.state for r in g.ideas}


def test_the_right_answers_used_below_pass_on_their_own():
    assert grade(item("sc-why-sqrt"), RIGHT_SQRT).correct
    assert grade(item("sc-why-sqrt"), RIGHT_SQRT_ZH).correct


# -- retractions ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    "tail",
    [
        " But that is all wrong.",
        " Just kidding, none of this is true.",  # two retractions deny once, not twice
        " All of the above is false.",
        "以上说法都是错的。",
        "开玩笑的，以上都不对。",
    ],
)
def test_a_right_answer_taken_back_fails(tail):
    g = grade(item("sc-why-sqrt"), RIGHT_SQRT + tail)
    assert not g.correct and g.score == 0
    assert set(states(g).values()) == {NEGATED}


def test_that_is_wrong_takes_back_the_sentence_before_it_only():
    # the misconception is taken back, the explanation after it stands
    g = grade(
        item("sc-why-sqrt"),
        "Some say it is for speed, but that is wrong: the variance of q·k grows with d, "
        "softmax saturates and the gradients vanish; √d brings the variance back to 1.",
    )
    assert g.correct
    g = grade(
        item("sc-why-sqrt"),
        "The variance grows with d and the softmax saturates. That is wrong, of course; "
        "the real reason is speed.",
    )
    assert g.score == 0


def test_a_hedge_is_not_a_retraction():
    g = grade(item("sc-why-sqrt"), RIGHT_SQRT_ZH + "我不确定这个对不对。")
    assert g.correct


# -- denials the grader could not read ------------------------------------------------------


def test_a_clause_that_is_only_no_denies_the_clause_before_it():
    ex = item("what-weights-explain")
    assert grade(ex, "where it looks: yes. why it decides: no.").correct
    g = grade(
        ex,
        "Does the heatmap show why the model decided? No. "
        "It shows where the information came from.",
    )
    assert g.correct and states(g)["cause"] == FOUND
    # the same shape, the other way round, is wrong
    assert not grade(
        ex, "Does the heatmap show where the model looked? No. It shows the cause of the decision."
    ).correct


def test_the_chinese_potential_complement_is_a_denial():
    ex = item("why-worse")
    assert states(grade(ex, "5 个字母装不下 16 维隐状态，所以有瓶颈。"))["no-bottleneck"] != FOUND
    assert states(grade(ex, "5 个字母装得下 16 维隐状态。"))["no-bottleneck"] == FOUND
    g = grade(
        item("why-nonzero-helps"),
        "如果用 hard max 直接取最大的，其它位置梯度为 0，再也学不到；"
        "softmax 给每个位置留了一点，梯度都能流过去。",
    )
    assert g.correct and states(g)["later"] == FOUND


def test_a_contradiction_needs_its_predicate_next_to_its_term():
    # "huge" is said of the inputs, not of the derivative: no "gradients grow" here
    ex = item("why-scale")
    g = grade(
        ex,
        "The dot product is a sum of d terms, so its size grows with the dimension; huge inputs "
        "make softmax's output one-hot and its derivative about 0. Dividing by the square root of "
        "d (the std) fixes the scale.",
    )
    assert g.correct
    # said plainly, it still cancels
    assert grade(ex, RIGHT_SQRT + " Also the gradients get larger.").score == 0


# -- keyword lists and stuffing -------------------------------------------------------------


@pytest.mark.parametrize(
    ("ex_id", "answer"),
    [
        # a run-on of every term plus nonsense: "of" and "√" belong to the terms
        (
            "sc-why-sqrt",
            "variance dimension grows dot product softmax saturation one-hot gradient vanishing "
            "square root of d variance one banana rocket purple",
        ),
        ("why-scale", "方差、饱和、梯度消失、根号d"),  # 梯度消失 is still one keyword
        ("what-weights-explain", "where how much information not cause approximate layers heads"),
    ],
)
def test_keyword_stuffing_earns_at_most_half_the_pass_mark(ex_id, answer):
    ex = item(ex_id)
    g = grade(ex, answer)
    assert g.keyword_list and not g.correct and g.score <= ex.pass_mark / 2


def test_telegraphic_statements_are_not_a_keyword_list():
    g = grade(item("why-scale"), "方差变大，softmax 饱和，梯度消失，除以根号d方差回到1")
    assert not g.keyword_list and g.correct


# -- copying the prompt back, shouting, full width, emoji, length ---------------------------


@pytest.mark.parametrize("ex", WRITTEN, ids=lambda e: e.id)
def test_the_prompt_copied_back_fails(ex):
    for lang in ("zh", "en"):
        assert not grade(ex, getattr(ex.prompt, lang)).correct


@pytest.mark.parametrize(
    "answer",
    [
        RIGHT_SQRT.upper(),
        "点积的方差随维度ｄ变大，ｓｏｆｔｍａｘ会饱和，梯度消失；除以根号ｄ让方差回到１。",
        "🤔 " + RIGHT_SQRT.replace(", so", " 👉 so").replace(";", " 📉;") + " ✅",
    ],
)
def test_case_width_and_emoji_do_not_change_a_right_answer(answer):
    assert grade(item("sc-why-sqrt"), answer).correct


def test_a_right_answer_in_a_wall_of_filler_is_read_to_the_cut_only():
    g = grade(item("sc-why-sqrt"), "blah " * 3000 + RIGHT_SQRT)
    assert not g.correct


# -- notation and the synonym classes the blind set found missing ---------------------------


@pytest.mark.parametrize(
    ("ex_id", "answer"),
    [
        (
            "sc-steps",
            "query·key → scores; softmax → weights (≥0, sum 1); Σ weights·values → output",
        ),
        (
            "why-scale",
            "if you don't scale, a 512-dim dot product has a std of about 22.6, so the softmax "
            "gives nearly all the weight to one position and barely any gradient flows back",
        ),
        (
            "sc-why-sqrt",
            "d 大了点积就大，softmax 几乎只选一个，模型很难训练，除以根号 d 把方差归一。",
        ),
        (
            "why-heads",
            "Different heads specialise: one may track the previous word, another the subject of "
            "the sentence. A single head would have to average these patterns into one "
            "distribution.",
        ),
        ("why-heads", "有的头看语法，有的头看指代，从不同的角度理解句子。"),
        (
            "what-weights-explain",
            "It tells you which inputs each output attended to. It does not prove those inputs "
            "were what mattered for the prediction — another part could be decisive.",
        ),
        (
            "why-worse",
            "The book's drop is a single draw. Attention fixes the fixed-size-vector bottleneck, "
            "which only bites for long sequences.",
        ),
        (
            "sc-why-lost",
            "With 5 letters no information is lost in the encoder's state, so attention has "
            "nothing to add; and one run is one random seed, not a trend.",
        ),
    ],
)
def test_right_answers_in_words_the_glossary_lacked(ex_id, answer):
    assert grade(item(ex_id), answer).correct


@pytest.mark.parametrize(
    ("ex_id", "answer"),
    [
        (
            "why-heads",
            "Heads specialise in being faster: each one uses a smaller d, so the total cost drops.",
        ),
        ("why-heads", "Each head runs on its own GPU, so another head can work at the same time."),
        ("sc-why-lost", "Information is lost at length 5 because 16 dimensions are too few."),
        (
            "why-scale",
            "The spread of the dot products shrinks with d, so there is almost no gradient unless "
            "we divide.",
        ),
        (
            "why-nonzero-helps",
            "A little weight on every position makes the output smoother, which looks nicer.",
        ),
        (
            "what-weights-explain",
            "The heatmap is decisive: it shows what mattered, the full reason for the output.",
        ),
    ],
)
def test_the_new_words_do_not_credit_wrong_answers(ex_id, answer):
    assert not grade(item(ex_id), answer).correct


@pytest.mark.parametrize(
    "answer",
    [
        "There is a bottleneck: five letters do not fit in the hidden state.",
        "有瓶颈，5 个字母装不进 16 维隐状态。",
    ],
)
def test_a_denial_of_another_term_does_not_satisfy_a_denied_one(answer):
    # "HIDDEN_STATE !BOTTLENECK" wants the bottleneck denied, not the hidden state
    assert states(grade(item("why-worse"), answer))["no-bottleneck"] == NEGATED
    assert (
        states(grade(item("why-worse"), "There is no bottleneck in the hidden state."))[
            "no-bottleneck"
        ]
        == FOUND
    )
