"""Grading what a learner types: tolerance borders, forgiving input, entry-by-entry feedback,
choices, true/false, and answers that are empty or nonsense (0 points, never an exception)."""

from __future__ import annotations

import numpy as np
import pytest

from attn_tui.core.exercises.generators import instance
from attn_tui.core.exercises.grading import grade, read_truefalse, reveal
from attn_tui.core.exercises.model import Tolerance
from attn_tui.i18n import t

# -- numbers ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "typed",
    ["0.2303", ".2303", "０．２３０３", "0.2313", "0.2293", " 0.2303 ", "[0.2303]", "0。2303"],
)
def test_number_forgiving_input_and_inclusive_border(ex, typed):
    g = grade(ex("weight-one"), typed)  # tolerance abs = 1e-3 exactly
    assert g.correct and g.score == 1.0 and g.status == "correct"


@pytest.mark.parametrize("typed", ["0.2314", "0.2292", "0.22", "-0.2303"])
def test_number_just_outside_tolerance_is_wrong(ex, typed):
    g = grade(ex("weight-one"), typed)
    assert not g.correct and g.score == 0.0 and g.status == "incorrect"


def test_abs_only_tolerance_does_not_borrow_the_default_rel():
    # Given only abs, rel is 0: a large answer is not loosened by 1e-3·|a|.
    tol = Tolerance(abs=1e-3, rel=0.0)
    assert tol.ok(1000.0009, 1000.0) and not tol.ok(1000.5, 1000.0)
    assert Tolerance().ok(1000.9, 1000.0)  # default: max(1e-3, 1e-3·1000) = 1


def test_relative_tolerance_border(ex):
    big = ex("big")  # 934 with rel = 0.01 → ±9.34
    assert grade(big, "943.34").correct
    assert grade(big, "924.66").correct
    assert not grade(big, "943.4").correct


def test_number_accepts_thousands_separators_and_fractions(ex):
    assert grade(ex("big"), "934").correct
    assert grade(ex("big"), "9,34").status == "unreadable"  # not a thousands grouping: two numbers
    assert grade(ex("weight-one"), "3/13").correct  # 0.23077 is within 1e-3 of 0.2303


def test_number_with_two_numbers_is_unreadable_with_a_reason(ex):
    g = grade(ex("weight-one"), "0.2 0.3")
    assert g.status == "unreadable" and g.score == 0 and g.error is not None
    assert g.error.code == "ex.one_number"
    lines = g.lines(t, "en")
    assert "one number is wanted here; you typed 2." in lines


@pytest.mark.parametrize("typed", ["", "   ", None, "\n"])
def test_empty_answer_scores_zero_without_error(ex, typed):
    for exercise_id in ("weight-one", "weights", "mask", "pick", "several", "never-zero", "why"):
        g = grade(ex(exercise_id), typed)
        assert g.status == "empty" and g.score == 0 and not g.correct


@pytest.mark.parametrize("typed", ["banana", "1,,2", "nan", "∞", "1e999", "🙂"])
def test_nonsense_numeric_answers_score_zero_with_a_message(ex, typed):
    for exercise_id in ("weight-one", "weights", "mask"):
        g = grade(ex(exercise_id), typed)
        assert g.score == 0 and not g.correct and g.status == "unreadable"
        assert len(g.lines(t, "zh")) == 3 and len(g.lines(t, "en")) == 3  # + what is readable


# -- vectors and matrices -----------------------------------------------------------------


@pytest.mark.parametrize(
    "typed",
    [
        "0.2303 0.1293 0.4102 0.2303",
        ".2303, .1293, .4102, .2303",
        "[0.2303, 0.1293, 0.4102, 0.2303]",
        "0.2303，0.1293，0.4102，0.2303",  # full-width commas
        "０.２３０３ ０.１２９３ ０.４１０２ ０.２３０３",  # full-width digits
        "0.23031 0.12932 0.41025 0.23031",  # more decimals than stored
    ],
)
def test_vector_forgiving_input(ex, typed):
    assert grade(ex("weights"), typed).correct


def test_vector_names_the_entries_off_and_gives_partial_credit(ex):
    g = grade(ex("weights"), "0.2303 0.2 0.4102 0.3")
    assert not g.correct and g.status == "partial"
    assert g.off == ((2,), (4,))
    assert g.score == pytest.approx(0.5)
    lines = g.lines(t, "en")
    assert "Entries off: 2, 4." in lines and "2 of 4 entries right." in lines
    assert "有偏差的位置：2, 4。" in g.lines(t, "zh")


def test_vector_too_short_is_partial_and_says_the_length(ex):
    g = grade(ex("weights"), "0.2303 0.1293 0.4102")
    assert not g.correct
    assert g.score == pytest.approx(3 / 4)
    assert g.off == ()  # the three given are right
    assert "You gave 3 numbers; the answer has 4." in g.lines(t, "en")


def test_vector_too_long_is_not_correct_even_when_prefix_matches(ex):
    g = grade(ex("weights"), "0.2303 0.1293 0.4102 0.2303 0")
    assert not g.correct and g.score == pytest.approx(4 / 5)
    assert "You gave 5 numbers; the answer has 4." in g.lines(t, "en")


def test_matrix_entries_off_are_row_column_pairs(ex):
    g = grade(ex("mask"), "1 0 0; 1 1 1; 1 1 1")
    assert g.off == ((2, 3),) and not g.correct
    assert g.score == pytest.approx(8 / 9)
    assert "Entries off: (2,3)." in g.lines(t, "en")
    assert grade(ex("mask"), "[[1,0,0],[1,1,0],[1,1,1]]").correct
    assert grade(ex("mask"), "1 0 0\n1 1 0\n1 1 1").correct


def test_matrix_of_the_wrong_shape(ex):
    g = grade(ex("mask"), "1 0; 1 1")
    assert not g.correct and "Your matrix is 2×2; the answer is 3×3." in g.lines(t, "en")
    ragged = grade(ex("mask"), "1 0 0; 1 1")
    assert ragged.status == "unreadable" and ragged.error.code == "ragged"


def test_values_from_an_answer_file_are_graded_too(ex):
    assert grade(ex("weights"), [0.2303, 0.1293, 0.4102, 0.2303]).correct
    assert grade(ex("mask"), [[1, 0, 0], [1, 1, 0], [1, 1, 1]]).correct
    assert grade(ex("weight-one"), 0.2303).correct
    assert grade(ex("weight-one"), True).status == "unreadable"


# -- choices ------------------------------------------------------------------------------


@pytest.mark.parametrize("typed", ["b", "B", " (b) ", "b.", "2", "点积", "Dot Product"])
def test_choice_by_id_number_or_text(ex, typed):
    assert grade(ex("pick"), typed).correct


def test_choice_wrong_and_unknown(ex):
    wrong = grade(ex("pick"), "a")
    assert not wrong.correct and wrong.status == "incorrect" and wrong.value == "a"
    unknown = grade(ex("pick"), "z")
    assert unknown.score == 0 and "“z” is not one of the choices (a, b, c)." in unknown.lines(
        t, "en"
    )
    assert grade(ex("pick"), "4").score == 0  # no fourth choice


@pytest.mark.parametrize("typed", ["a c", "a,c", "c, a", "a、c", "ac", "A and C", ["a", "c"]])
def test_multi_right_in_every_spelling(ex, typed):
    g = grade(ex("several"), typed)
    assert g.correct and g.score == 1.0


def test_multi_partial_credit_and_penalty(ex):
    only_a = grade(ex("several"), "a")
    assert only_a.status == "partial" and only_a.score == pytest.approx(0.5)
    # Saying how many are missing would tell the count of right choices for nothing (issue 11).
    assert "Not every right choice is picked yet." in only_a.lines(t, "en")
    assert not any(ch.isdigit() for line in only_a.lines(t, "en")[1:] for ch in line)
    with_wrong = grade(ex("several"), "a b c")
    assert not with_wrong.correct and with_wrong.score == pytest.approx(0.5)
    assert "Should not be chosen: b." in with_wrong.lines(t, "en")
    assert grade(ex("several"), "b").score == 0  # wrong picks never go below zero
    assert grade(ex("several"), "a b").score == 0


@pytest.mark.parametrize(
    "typed", ["f", "F", "false", "no", "n", "错", "否", "×", "错误", "不对", "False."]
)
def test_truefalse_false_synonyms(ex, typed):
    assert grade(ex("never-zero"), typed).correct


@pytest.mark.parametrize("typed", ["t", "true", "Yes", "对", "是", "√", "✓", "正确"])
def test_truefalse_true_synonyms_are_wrong_here(ex, typed):
    g = grade(ex("never-zero"), typed)
    assert not g.correct and g.value is True


def test_truefalse_unknown_word_scores_zero_with_advice(ex):
    g = grade(ex("never-zero"), "maybe")
    assert g.score == 0 and g.value is None
    assert read_truefalse("perhaps") is None and read_truefalse(False) is False
    assert any("t/f" in line for line in g.lines(t, "en"))


# -- reveal and headlines -----------------------------------------------------------------


def test_reveal_gives_no_credit_and_says_so(ex):
    g = reveal(ex("weights"))
    assert g.status == "revealed" and g.score == 0 and not g.correct
    assert g.lines(t, "en")[0] == "Answer shown (recorded as revealed)."


def test_reference_answer_text(ex):
    assert instance(ex("weights")).answer_text(t, "en") == "0.2303 0.1293 0.4102 0.2303"
    assert instance(ex("mask")).answer_text(t, "en") == "1 0 0; 1 1 0; 1 1 1"
    assert instance(ex("never-zero")).answer_text(t, "zh") == "错"
    assert instance(ex("several")).answer_text(t, "en") == (
        "a. weights sum to 1; c. every weight is above 0"
    )
    assert instance(ex("big")).answer_text(t, "en") == "934"


def test_generated_exercise_must_be_graded_through_its_instance(ex):
    gen = ex("gen-weights")
    with pytest.raises(ValueError):
        grade(gen, "0.3 0.3 0.4")
    inst = instance(gen, seed=5)
    typed = " ".join(f"{w:.4f}" for w in inst.answer)
    assert grade(inst, typed).correct
    assert isinstance(inst.answer, np.ndarray)


@pytest.mark.parametrize(
    "typed, value",
    [
        ("√3", 3**0.5),
        ("1/√3", 3**-0.5),
        ("√3/3", 3**0.5 / 3),
        ("2√3", 2 * 3**0.5),
        ("−√2/2", -(2**0.5) / 2),
        ("sqrt(3)", 3**0.5),
        ("√(2)", 2**0.5),
        ("3/4", 0.75),
    ],
)
def test_a_number_may_be_typed_as_a_root_or_a_simple_fraction(typed, value):
    """1/√d is printed so; a learner types it so (issue 11)."""
    from attn_tui.core.exercises.grading import _read_number

    assert _read_number(typed) == pytest.approx(value)


@pytest.mark.parametrize("typed", ["√", "√x", "1/√0", "3×", "√(2", "1/2/3"])
def test_a_broken_root_is_unreadable_and_says_what_can_be_read(ex, typed):
    g = grade(ex("weight-one"), typed)
    assert g.status == "unreadable" and not g.is_answer
    assert "√3" in g.lines(t, "en")[-1]


def test_one_rule_for_answers_that_are_not_answers(ex):
    """Unreadable numbers, unknown true/false words and unknown choices are all not answers."""
    assert grade(ex("never-zero"), "ture").is_answer is False
    assert grade(ex("never-zero"), "false").is_answer is True  # False is an answer
    assert grade(ex("pick"), "zz").is_answer is False
    assert grade(ex("weight-one"), "banana").is_answer is False
    assert grade(ex("weight-one"), "0.3").is_answer is True
    assert grade(ex("several"), "zz").is_answer is False
    assert grade(ex("several"), "a").is_answer is True
