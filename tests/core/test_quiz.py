"""The quiz without a screen: grading each kind of question, the rubric in both languages,
the draw, scoring a run, and reading answer files (faults by name and line)."""

from __future__ import annotations

import json

import pytest

from attn_tui import paths
from attn_tui.core import quiz
from attn_tui.core.exercises.generators import instance
from attn_tui.core.exercises.grading import grade


@pytest.fixture(scope="module")
def bank():
    library = paths.load_all()
    assert library.broken == []
    return library.quiz_exercises


@pytest.fixture(scope="module")
def q(bank):
    by_id = {ex.id: ex for ex in bank}
    return lambda qid: instance(by_id[qid])


# -- every kind, right and wrong --------------------------------------------------------------


@pytest.mark.parametrize(
    "qid, right, wrong",
    [
        ("sc-dot", "2", "3"),  # number
        ("sc-exp-sqrt3", "1.732", "3"),  # number with tolerance
        ("sc-myth-peak-why", "c", "a"),  # choice
        ("sc-myth-peak-why", "(C)", "d"),
        ("sc-exp-hardmax-multi", None, "zz"),  # multi: right answer from the key
        ("sc-myth-peak-tf", "f", "t"),  # truefalse
        ("sc-myth-peak-tf", "错", "对"),
        ("sc-steps", None, "I do not know"),  # text
    ],
)
def test_each_kind_graded_right_and_wrong(q, qid, right, wrong):
    inst = q(qid)
    if right is None:
        right = inst.answer.en if inst.exercise.kind == "text" else " ".join(sorted(inst.answer))
    good, bad = grade(inst, right), grade(inst, wrong)
    assert good.correct and good.score == 1.0
    assert not bad.correct and bad.score < 0.5


def test_numbers_tolerate_rounding_and_answer_file_values(q):
    inst = q("sc-exp-sqrt300")  # √300 = 17.3205...
    assert grade(inst, "17.32").correct
    assert grade(inst, 17.3205).correct
    assert not grade(inst, "173.2").correct


def test_multi_partial_credit(q):
    inst = q("sc-exp-hardmax-multi")
    right = sorted(inst.answer)
    half = grade(inst, right[:1])
    assert 0 < half.score < 1 and half.status == "partial" and not half.correct


@pytest.mark.parametrize("typed", ["", "   ", "???", "asdfgh qwerty"])
def test_empty_or_nonsense_scores_zero_without_error(q, bank, typed):
    for ex in bank:
        g = grade(instance(ex), typed)
        assert g.score == 0.0 and not g.correct


# -- the rubric: both languages, negation, partial credit -------------------------------------


def test_rubric_english_partial_then_full(q):
    inst = q("sc-why-sqrt")
    g = grade(inst, "The variance grows with d and the softmax saturates.")
    assert g.score == pytest.approx(0.5) and not g.correct and g.status == "partial"
    assert len(g.found_ideas("en")) == 2 and len(g.missing_ideas("en")) == 2
    assert any("gradient" in m for m in g.missing_ideas("en"))
    full = grade(inst, g.value + " Then gradients vanish; dividing by √d gives unit variance.")
    assert full.correct and full.score == 1.0


def test_rubric_chinese_partial_and_found_ideas_named_in_chinese(q):
    inst = q("sc-steps")
    g = grade(inst, "先算点积，再做 softmax。")
    assert 0 < g.score < 1 and not g.correct
    assert len(g.found_ideas("zh")) == 2
    assert any("加权" in m for m in g.missing_ideas("zh"))


def test_rubric_negation_does_not_earn_the_idea(q):
    inst = q("sc-steps")
    assert grade(inst, "用点积打分").found
    negated = grade(inst, "不是点积")
    assert negated.score == 0 and not negated.found
    en = grade(q("sc-why-sqrt"), "the softmax does not saturate")
    assert all("saturat" not in i for i in en.found_ideas("en"))


def test_rubric_mixed_language_answer_counts_both(q):
    g = grade(q("sc-steps"), "dot product 打分, then softmax, 最后加权求和")
    assert g.correct


# -- the three self-test questions --------------------------------------------------------------

SELF_TEST = ("sc-steps", "sc-why-sqrt", "sc-why-lost")
PLAUSIBLY_WRONG = {
    "sc-steps": "Attention looks at the input and picks the most important word for the output.",
    "sc-why-sqrt": "To make the computation faster and save memory.",
    "sc-why-lost": "Attention always needs longer sequences, and the learning rate was too high.",
}
PLAUSIBLY_WRONG_ZH = {
    "sc-steps": "注意力就是找出最重要的那个词，然后输出它。",
    "sc-why-sqrt": "为了让计算更快、更省内存。",
    "sc-why-lost": "因为学习率太大，训练不稳定。",
}


@pytest.mark.parametrize("qid", SELF_TEST)
@pytest.mark.parametrize("lang", ["zh", "en"])
def test_self_test_reference_answers_score_full_marks(q, qid, lang):
    inst = q(qid)
    g = grade(inst, inst.answer.get(lang))
    assert g.correct and g.score == 1.0 and not g.missing


@pytest.mark.parametrize("qid", SELF_TEST)
def test_self_test_plausible_wrong_answers_score_low(q, qid):
    for wrong in (PLAUSIBLY_WRONG[qid], PLAUSIBLY_WRONG_ZH[qid]):
        g = grade(q(qid), wrong)
        assert g.score <= 0.3 and not g.correct, (wrong, g.found_ideas("en"))


# -- drawing and scoring ------------------------------------------------------------------------


def test_quick_draw_is_seeded_spread_and_distinct(bank):
    a, b = quiz.draw_quick(bank, seed=7), quiz.draw_quick(bank, seed=7)
    assert [e.id for e in a] == [e.id for e in b]
    assert len(a) == quiz.QUICK_SIZE and len({e.id for e in a}) == quiz.QUICK_SIZE
    assert [e.id for e in quiz.draw_quick(bank, seed=8)] != [e.id for e in a]
    topics = {t for e in a for t in e.topics}
    assert len(topics) >= 10  # spread across topics, not ten on one
    kinds = [e.kind for e in a]
    assert max(kinds.count(k) for k in set(kinds)) <= 3  # and a mix of kinds


def test_quick_draw_of_a_small_bank_takes_it_all(bank):
    assert len(quiz.draw_quick(bank[:4], seed=0)) == 4
    assert quiz.draw_full(bank) == list(bank)


def test_score_run_total_per_topic_and_missed(q):
    run = [
        quiz.answer(q("sc-dot"), "2"),  # dot-product: right
        quiz.answer(q("sc-why-sqrt"), "variance grows with d, softmax saturates"),  # half
        quiz.answer(q("sc-myth-peak-tf"), ""),  # blank
    ]
    res = quiz.score_run(run)
    assert res.total == 3 and res.score == pytest.approx(1.5)
    assert res.missed == ("sc-why-sqrt", "sc-myth-peak-tf")
    assert res.per_topic["dot-product"] == (1.0, 1.0)
    assert res.per_topic["softmax"] == pytest.approx((0.5, 2.0))  # sc-why-sqrt + sc-myth-peak-tf
    assert res.per_topic["variance"] == pytest.approx((0.5, 1.0))
    assert res.weakest_topics(1) == ["alignment"]
    assert [a.id for a in res.missed_answers] == list(res.missed)


# -- answer files ---------------------------------------------------------------------------------


def test_toml_and_json_answer_files(tmp_path, bank):
    ids = [e.id for e in bank]
    (tmp_path / "a.toml").write_text('sc-dot = 2\n"sc-myth-peak-tf" = false\n', "utf-8")
    (tmp_path / "b.json").write_text(json.dumps({"sc-dot": "2"}), "utf-8")
    a = quiz.read_answers(tmp_path / "a.toml", ids)
    b = quiz.read_answers(tmp_path / "b.json", ids)
    assert a.answers == {"sc-dot": 2, "sc-myth-peak-tf": False} and a.problems == ()
    assert b.answers == {"sc-dot": "2"}


def test_the_json_template_shape_is_read(tmp_path):
    data = {"questions": {"sc-dot": {"kind": "number", "prompt": "…", "answer": 2}}}
    (tmp_path / "t.json").write_text(json.dumps(data), "utf-8")
    assert quiz.read_answers(tmp_path / "t.json").answers == {"sc-dot": 2}


@pytest.mark.parametrize(
    "name, text, line, code",
    [
        ("bad.toml", 'sc-dot = 2\nsc-steps = "unclosed\nsc-x = 1\n', 2, "ex.toml_syntax"),
        ("bad.json", '{\n  "sc-dot": 2,\n}\n', 3, "quiz.json_syntax"),
        ("list.json", "[1, 2]", 1, "quiz.not_a_table"),
    ],
)
def test_malformed_files_are_reported_by_name_and_line(tmp_path, name, text, line, code):
    (tmp_path / name).write_text(text, "utf-8")
    found = quiz.read_answers(tmp_path / name)
    assert found.answers is None
    (problem,) = found.problems
    assert problem.line == line and problem.code == code and problem.path.endswith(name)


def test_unknown_ids_are_warned_about_with_their_line(tmp_path, bank):
    (tmp_path / "a.toml").write_text("sc-dot = 2\n\nsc-dott = 3\n", "utf-8")
    found = quiz.read_answers(tmp_path / "a.toml", [e.id for e in bank])
    assert found.answers is not None
    (warning,) = found.problems
    assert warning.code == "quiz.unknown_id" and warning.line == 3


def test_grade_path_keeps_broken_files_beside_the_others(tmp_path, bank):
    (tmp_path / "ok.toml").write_text("sc-dot = 2\n", "utf-8")
    (tmp_path / "broken.toml").write_text("sc-dot = \n", "utf-8")
    (tmp_path / "notes.txt").write_text("not an answer file", "utf-8")
    learners = quiz.grade_path(bank, tmp_path)
    assert [r.file.path.name for r in learners] == ["broken.toml", "ok.toml"]
    assert not learners[0].ok and learners[1].ok
    res = learners[1].result
    assert res.score == 1.0 and res.total == len(bank)
    assert learners[1].unanswered == len(bank) - 1
    summary = quiz.summarise(bank, learners)
    assert summary.graded == 1 and summary.broken == 1
    assert summary.per_question["sc-dot"] == 1.0


def test_toml_key_quotes_only_when_needed():
    assert quiz.toml_key("sc-dot") == "sc-dot"
    assert quiz.toml_key("my q") == '"my q"'
