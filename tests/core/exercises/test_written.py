"""Written answers judged as concepts: negation, roles, order, keyword lists, contradictions,
notation, typos and segmentation — and the rubric tests (examples) every shipped item carries.
"""

from __future__ import annotations

import json
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

from attn_tui import paths
from attn_tui.cli import main
from attn_tui.core.exercises.examples import check_examples
from attn_tui.core.exercises.grading import grade, self_check, self_score
from attn_tui.core.exercises.loader import load_file, load_text
from attn_tui.core.exercises.model import FOUND, MISSING, NEGATED, SELF_MARKED, SWAPPED
from attn_tui.core.exercises.written.text import MAX_CHARS, read
from attn_tui.core.progress import ProgressStore
from attn_tui.i18n import t

CALIBRATION = Path(__file__).parent / "calibration"
LIBRARY = paths.load_all()
WRITTEN = [e for s in LIBRARY.sets + LIBRARY.quizzes for e in s.exercises if e.kind == "text"]


def quiz(qid: str):
    return next(e for e in LIBRARY.quiz_exercises if e.id == qid)


def states(g) -> dict[str, str]:
    return {r.idea.id: r.state for r in g.ideas}


@pytest.fixture(autouse=True)
def _english():
    yield
    from attn_tui import i18n

    i18n.set_lang("en")


# -- the answers --------------------------------------------------------------------


def test_every_role_and_the_order_wrong_fails_and_says_which_role():
    g = grade(
        quiz("sc-steps"),
        "First softmax the keys into weights, then take the weighted sum of the queries, and "
        "finally compute the dot product with the values to get the output.",
    )
    assert not g.correct and g.score == 0
    assert states(g) == {"score": SWAPPED, "softmax": SWAPPED, "sum": SWAPPED, "scale": MISSING}
    softmax = next(r for r in g.ideas if r.idea.id == "softmax")
    assert softmax.against == "keys"
    assert "roles swapped — you wrote “keys”" in "\n".join(g.lines(t, "en"))


def test_an_answer_that_negates_everything_scores_zero():
    g = grade(quiz("sc-steps"), "不需要点积，softmax也没用，和加权求和无关，也不缩放。")
    assert g.score == 0
    assert set(states(g).values()) == {NEGATED}


@pytest.mark.parametrize(
    "answer",
    [
        "Compare the query with each key to get a relevance number, turn those numbers into "
        "probabilities that add to one, then average the values using those probabilities.",
        "q·kᵢ for each key, then exp and divide by the sum, then Σ αᵢ vᵢ.",
        "softmax(QKᵀ/√d)V",
    ],
)
def test_right_in_other_words_or_in_formulas_passes(answer):
    assert grade(quiz("sc-steps"), answer).correct


def test_cross_attention_negated_or_swapped_fails_and_right_in_other_words_passes():
    ex = quiz("bx-cross-text")
    negated = grade(
        ex,
        "Self-attention: not from the same sequence. Cross-attention: it is false that the "
        "query comes from the decoder, and false that keys and values come from the encoder.",
    )
    assert negated.score == 0 and set(states(negated).values()) == {NEGATED}
    swapped = grade(
        ex, "自注意力的 Q 来自解码器，K、V 来自编码器；交叉注意力的 Q、K、V 都来自同一个序列。"
    )
    assert swapped.score == 0 and set(states(swapped).values()) == {SWAPPED}
    for right in (
        "交叉注意力的查询由解码器给出，键和值取自编码器的输出。",
        "In cross-attention the decoder supplies the queries and the encoder's outputs supply "
        "the keys and values.",
    ):
        g = grade(ex, right)
        assert g.correct and states(g)["cross-q"] == FOUND and states(g)["cross-kv"] == FOUND


def test_a_bare_keyword_list_earns_at_most_half_the_pass_mark():
    ex = quiz("sc-why-lost")
    g = grade(ex, "16 dimensions, no bottleneck, 934.")
    assert g.keyword_list and not g.correct and g.score <= ex.pass_mark / 2
    assert t("ex.fb.keyword_list", lang="en") in g.lines(t, "en")
    # the same ideas in a sentence are found (the answer still needs its other half to pass)
    g = grade(ex, "There is no information bottleneck at length 5, so attention brings no benefit.")
    assert not g.keyword_list and states(g)["no-bottleneck"] == FOUND


def test_a_contradiction_cancels_the_credit():
    ex = quiz("sc-why-sqrt")
    right = "The variance of q·k grows with d, softmax saturates and gradients vanish."
    assert grade(ex, right).correct
    wrong = grade(ex, right + " In fact the variance shrinks as d grows.")
    assert not wrong.correct and "contradicted" in states(wrong).values()


def test_non_zero_weight_stops_gradients_exploding_is_nonsense():
    ex = LIBRARY.get("softmax").exercise("why-nonzero-helps")
    g = grade(
        ex,
        "a non-zero weight stops the gradient from exploding, "
        "which lets us raise the learning rate",
    )
    assert not g.correct


def test_steps_out_of_order_lose_their_credit_only_when_told_as_steps():
    ex = quiz("sc-steps")
    told = grade(
        ex,
        "First take the weighted sum of the values, then apply softmax to the scores, and "
        "finally compute the dot product of the query with each key.",
    )
    assert not told.correct and "out_of_order" in states(told).values()
    described = grade(
        ex,
        "The output is a weighted sum of the values, with weights from a softmax over the "
        "dot products of the query and the keys.",
    )
    assert described.correct


# -- reading ----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "text, keys",
    [
        ("q^T k", ["q", "·", "k"]),
        ("QKᵀ", ["q", "·", "k"]),
        ("<q,k>", ["q", "·", "k"]),
        ("1/sqrt(d_k)", ["1", "/", "√", "d"]),
        ("d^0.5", ["√", "d"]),
        ("exp(x_i)/Σ_j exp(x_j)", ["softmax"]),
        ("Σ αᵢ vᵢ", ["weight", "sum", "of", "v"]),
        ("Queries SATURATE", ["queri", "satur"]),
        ("ＱＵＥＲＹ", ["queri"]),
    ],
)
def test_notation_width_and_case_read_as_one_form(text, keys):
    assert [u.key for u in read(text).units] == keys


def test_a_single_character_term_is_not_found_inside_an_ordinary_word():
    ex = quiz("bx-cross-text")
    g = grade(ex, "交叉注意力里最关键的是数值。")  # 关键 holds 键, 数值 holds 值
    assert states(g)["cross-kv"] == MISSING


def test_a_small_typo_in_a_long_word_is_mended():
    ex = quiz("sc-why-sqrt")
    g = grade(ex, "The varience grows with d, softmax satruates and the gradients vanish.")
    assert states(g)["variance"] == FOUND and states(g)["saturate"] == FOUND


def test_negation_words_that_are_not_negations():
    ex = quiz("sc-steps")
    g = grade(ex, "不同的键得到不同的点积分数，然后softmax，然后对值加权求和。")
    assert states(g)["score"] == FOUND  # 不同 is "different", not "not"


def test_a_megabyte_answer_is_read_up_to_the_limit_and_says_so():
    g = grade(quiz("sc-steps"), "dot product " * 100_000)
    assert any(n.key == "ex.fb.cut" for n in g.notes)
    assert read("x" * (MAX_CHARS * 3)).cut


def test_the_first_written_answer_prints_nothing_even_with_an_unwritable_home(tmp_path):
    home = tmp_path / "home"
    home.mkdir()
    home.chmod(0o500)
    code = (
        "from attn_tui import paths\n"
        "from attn_tui.core.exercises.grading import grade\n"
        "ex = next(e for e in paths.load_all().quiz_exercises if e.id == 'sc-steps')\n"
        "print(grade(ex, '先点积，再 softmax，最后对值加权求和').correct)\n"
    )
    env = {"HOME": str(home), "PATH": "/usr/bin:/bin", "TMPDIR": str(home)}
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env)
    assert out.returncode == 0 and out.stdout.strip() == "True" and out.stderr == ""


# -- uncertainty and the self-check ---------------------------------------------------------


def test_an_uncertain_fail_offers_the_self_check_and_the_self_check_keeps_the_score(tmp_path):
    # a fail one idea short, at length, in words the grader half knows: the flag's model
    # doubts it
    ex = quiz("tf-why-order")
    g = grade(ex, "Attention treats its inputs like a bag of marbles rather than a row: shuffle "
                  "the marbles and every output just moves along with its own marble, and none "
                  "of the weighted sums it computes changes, so on its own it cannot tell which "
                  "marble came first.")  # fmt: skip
    assert g.uncertain and not g.correct
    assert t("ex.fb.uncertain", lang="en") in g.lines(t, "en")
    missing = [k for k, r in enumerate(g.ideas) if r.state == MISSING]
    marked = self_check(g, missing[:1])
    assert marked.score == g.score and marked.correct == g.correct
    assert [r.state for r in marked.ideas].count(SELF_MARKED) == 1
    assert self_score(marked) > g.score
    with ProgressStore.open(tmp_path) as store:
        store.record_attempt(ex.set_id, ex.id, "x", correct=g.correct, score=g.score)
        store.record_self_check(
            ex.set_id,
            ex.id,
            [i.id for i in marked.self_marked],
            score=g.score,
            claimed=self_score(marked),
        )
        (check,) = store.self_checks(ex.set_id)
        assert check.ideas == (g.ideas[missing[0]].idea.id,) and check.claimed > check.score
        assert store.statuses(ex.set_id)[ex.id].best_score == g.score  # kept apart


def test_a_clear_answer_is_not_uncertain():
    assert not grade(quiz("sc-steps"), "dot product, softmax, weighted sum").uncertain
    assert not grade(quiz("sc-steps"), "softmax(QKᵀ/√d)V").uncertain


# -- rubric tests -----------------------------------------------------------------------------


@pytest.mark.parametrize("ex", WRITTEN, ids=lambda e: f"{e.set_id}/{e.id}")
def test_every_shipped_written_item_carries_twelve_varied_examples(ex):
    right = [x for x in ex.examples if x.expect == "pass"]
    wrong = [x for x in ex.examples if x.expect == "fail"]
    assert len(ex.examples) >= 12 and len(right) >= 6 and len(wrong) >= 6
    cjk = [any("\u4e00" <= c <= "\u9fff" for c in x.answer) for x in right]
    assert any(cjk) and not all(cjk), "right answers in both languages"


@pytest.mark.parametrize("path", paths.shipped_files(), ids=lambda p: p.name)
def test_every_shipped_example_is_graded_as_its_teacher_expects(path):
    loaded, problems = load_file(path)
    assert problems == [] and loaded is not None
    assert [p.format(t, "en") for p in check_examples(loaded, path.name)] == []


TEACHER = """
[set]
id = "teacher"
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
idea = { zh = "方差随 d 变大", en = "variance grows with d" }
match = ["VARIANCE INCREASE"]

[[exercise.example]]
answer = "The variance grows with d."
expect = "pass"

[[exercise.example]]
answer = "The variance does not grow with d."
expect = "pass"
"""


def test_validate_fails_at_the_line_of_an_example_the_grader_disagrees_with(tmp_path, capsys):
    path = tmp_path / "teacher.toml"
    path.write_text(TEACHER, "utf-8")
    assert main(["--lang", "en", "exercises", "validate", str(path)]) == 1
    out = capsys.readouterr().out
    line = TEACHER.splitlines().index('answer = "The variance does not grow with d."') + 1
    assert f"teacher.toml:{line}: exercise why: the grader disagrees with this example: " in out
    assert "expected pass, graded fail (0%)" in out


@pytest.mark.parametrize(
    "change, fault",
    [
        ('match = ["VARIANCE INCREASE"]', "is not a term of the glossary"),
        ('expect = "pass"', "an example's expect must be"),
    ],
)
def test_a_bad_term_or_expectation_is_a_file_line_fault(change, fault):
    text = TEACHER.replace('match = ["VARIANCE INCREASE"]', 'match = ["VARIANCE GROWS"]')
    if change.startswith("expect"):
        text = TEACHER.replace('expect = "pass"', 'expect = "maybe"', 1)
    _, problems = load_text(text, "t.toml")
    assert any(fault in p.format(t, "en") for p in problems)
    assert all(p.line > 1 for p in problems)


# -- the commands -------------------------------------------------------------------------------


def test_try_prints_each_idea_and_json_gives_the_documented_fields(capsys):
    answer = "自注意力的 Q 来自解码器，K、V 来自编码器；交叉注意力的 Q、K、V 都来自同一个序列。"
    assert main(["--lang", "en", "exercises", "try", "bx-cross-text", "--answer", answer]) == 0
    out = capsys.readouterr().out
    assert "quiz-beyond/bx-cross-text: score 0 / 1 (0%), pass mark 0.6: fail" in out
    assert "roles swapped" in out
    assert (
        main(["exercises", "try", "quiz-beyond/bx-cross-text", "--answer", answer, "--json"]) == 0
    )
    data = json.loads(capsys.readouterr().out)
    assert {"id", "score", "max", "passed", "ideas"} <= set(data)
    assert data["id"] == "bx-cross-text" and data["passed"] is False and data["max"] == 1.0
    assert [i["state"] for i in data["ideas"]] == ["swapped"] * 3
    assert data["ideas"][1]["matched"] == ["Q", "解码器"]


def test_try_an_unknown_item_or_a_seed_for_a_stored_one_exits_2(capsys):
    assert main(["exercises", "try", "nope", "--answer", "x"]) == 2
    assert main(["exercises", "try", "sc-dot", "--answer", "1", "--seed", "3"]) == 2
    err = capsys.readouterr().err
    assert "no item “nope”" in err and "not a generated item" in err


def test_quiz_grade_json_gives_scores_without_the_key(tmp_path, capsys):
    answers = tmp_path / "a.toml"
    answers.write_text('sc-steps = "softmax(QKᵀ/√d)V"\n', "utf-8")
    assert main(["quiz", "grade", str(answers), "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    q = next(x for x in data["files"][0]["questions"] if x["id"] == "sc-steps")
    assert q["score"] == pytest.approx(1.0) and q["max"] == 1.0 and "key" not in data
    assert [i["state"] for i in q["ideas"]] == ["found"] * 4 and q["uncertain"] is False


# -- what the second blind round's dev part found (blind2_dev.toml) ----------------------------


def item(path: str):
    set_id, ex_id = path.split("/")
    return LIBRARY.get(set_id).exercise(ex_id)


@pytest.mark.parametrize("word", ["分别", "区别", "特别"])
def test_words_with_bie_inside_deny_nothing(word):
    """别 ("don't") inside 分别 / 区别 / 特别 once denied the rest of its clause."""
    g = grade(
        quiz("sc-steps"),
        f"第一步查询{word}和每个键做点积得到分数，第二步 softmax 成权重，第三步对值加权求和。",
    )
    assert states(g)["score"] == FOUND and g.correct


@pytest.mark.parametrize(
    "answer", ["heads, separate subspaces, concatenation", "方差 d，饱和，梯度消失"]
)
def test_a_list_of_two_word_labels_is_still_a_keyword_list(answer):
    ex = quiz("sc-why-sqrt") if "方差" in answer else item("multi-head/why-heads")
    g = grade(ex, answer)
    assert g.keyword_list and not g.correct


def test_yushi_inside_dengyushi_starts_no_clause():
    """于是 ("so") read inside 等于是 cut the clause, and the 不 before it lost its reach."""
    g = grade(
        item("kinds-cost/what-weights-explain"),
        "热力图看得出模型取了哪里的信息，但权重大不等于是因为那个词才这么输出，而且多层以后更难读。",
    )
    assert states(g)["cause"] == FOUND and g.correct


def test_reversal_and_sorting_swapped_is_a_swap():
    ex = item("transformer/why-positions")
    wrong = grade(ex, "Reversing finds its input by content, while sorting finds it by position.")
    assert states(wrong)["reverse"] == SWAPPED and states(wrong)["sort"] == SWAPPED
    assert not wrong.correct
    right = grade(ex, "Reversing finds its input by position, while sorting finds it by content.")
    assert states(right)["reverse"] == FOUND and states(right)["sort"] == FOUND


def test_order_that_does_not_matter_and_position_info_are_the_transformer_ideas():
    g = grade(
        quiz("tf-why-order"),
        "An RNN reads the words one at a time. For attention the order does not matter at all, "
        "so the Transformer needs position information added to its inputs.",
    )
    assert states(g) == {"rnn": FOUND, "attention": FOUND, "encoding": FOUND} and g.correct


def test_answering_only_why_attention_cannot_create_is_not_a_pass():
    ex = item("convex/cannot-create")
    why = "Its output is a convex combination of the values, so it stays inside their range."
    assert not grade(ex, why).correct
    assert grade(ex, why + " A feed-forward layer after it can map to new directions.").correct


# -- what the third blind round's dev part found (blind3_dev.toml) -----------------------------

BONUS_SET = """\
[set]
id = "b"
order = 2
title = { zh = "标题", en = "Title" }
summary = { zh = "简介", en = "Summary" }

[[exercise]]
id = "t"
kind = "text"
prompt = { zh = "为什么？", en = "Why?" }
answer = { zh = "方差随 d 变大。", en = "The variance grows with d." }
explanation = { zh = "略", en = "-" }
topics = ["variance"]
pass = 0.5

[[exercise.rubric]]
idea = { zh = "方差变大", en = "variance grows" }
match = ["VARIANCE INCREASE"]

[[exercise.rubric]]
idea = { zh = "饱和", en = "saturation" }
match = ["SATURATION"]

[[exercise.rubric]]
idea = { zh = "梯度消失", en = "gradients vanish" }
match = ["GRADIENT DECREASE"]
bonus = %s
"""


def test_a_bonus_idea_counts_when_found_but_is_not_in_the_total():
    loaded, problems = load_text(BONUS_SET % "true", "b.toml")
    assert not problems
    ex = loaded.exercise("t")
    half = grade(ex, "The variance grows with d.")
    assert half.score == pytest.approx(0.5) and half.correct
    full = grade(ex, "The variance grows with d, softmax saturates and the gradients vanish.")
    assert full.score == pytest.approx(1.0)
    assert grade(ex, "The gradients vanish.").score == pytest.approx(0.5)
    _, problems = load_text(BONUS_SET % '"yes"', "b.toml")
    assert [p.code for p in problems] == ["ex.want_bool"]


@pytest.mark.parametrize("ex_id", ["sc-why-lost", "rnn-attention/why-worse"])
def test_the_two_part_reference_needs_both_halves(ex_id):
    """'One run proves nothing' and 'no bottleneck' (or 'nothing for attention to fix') are the
    two halves of the reference: each alone fails, as the independent teachers failed it;
    together they pass."""
    ex = item(ex_id) if "/" in ex_id else quiz(ex_id)
    noise = "That drop comes from a single run; other seeds move the accuracy by as much."
    fit = "长度 5 的时候 16 维的隐状态装得下五个字母，没有瓶颈。"
    assert not grade(ex, noise).correct
    assert not grade(ex, fit).correct
    assert not grade(ex, "Attention simply has nothing to fix here.").correct
    assert grade(ex, fit + noise).correct
    assert grade(ex, "Attention simply has nothing to fix here. " + noise).correct


def test_noise_said_of_attention_is_not_the_seed_spread():
    g = grade(quiz("sc-why-lost"), "Attention made it worse because it adds noise to the decoder.")
    assert states(g)["noise"] != FOUND and not g.correct
    assert not grade(quiz("sc-why-lost"), "seed noise").correct  # a label, not a sentence


def test_too_small_to_hold_is_cannot_hold():
    g = grade(quiz("sc-why-lost"), "The 16-dimensional state is too small to hold five letters.")
    assert states(g)["no-bottleneck"] != FOUND and not g.correct


def test_a_denying_label_before_a_colon_denies_what_follows():
    ex = item("kinds-cost/what-weights-explain")
    g = grade(ex, "能说明：从哪些位置取了多少信息。不能说明：模型做决定的原因。")
    assert states(g)["cause"] == FOUND and g.correct
    g = grade(
        ex, "It shows where the model took information from. It does not tell you: the cause."
    )
    assert states(g)["cause"] == FOUND
    # "≠" is a denial too
    assert states(grade(ex, "权重高 ≠ 原因。"))["cause"] == FOUND


def test_an_echo_takes_the_denied_clause_for_its_own_subject():
    ex = item("multi-head/why-heads")
    for answer in (
        "One softmax makes one set of weights, so it cannot attend to two different positions "
        "for two reasons; several heads can.",
        "一个头只能看一个地方，做不到同时看两个不同的位置；多个头可以。",
    ):
        g = grade(ex, answer)
        assert states(g)["different"] == FOUND and g.correct, answer
    # without the echo the denial stands
    g = grade(ex, "One softmax cannot attend to two different positions for two reasons.")
    assert states(g)["different"] != FOUND and not g.correct


def test_feedback_is_a_gradient_signal():
    g = grade(
        item("softmax/why-nonzero-helps"),
        "Every position keeps a sliver of weight, so each key and value still gets feedback "
        "and a wrongly ignored one can recover later.",
    )
    assert states(g)["flow"] == FOUND and g.correct


def test_the_query_and_key_projections_are_not_the_remedy():
    ex = item("convex/cannot-create")
    wrong = grade(
        ex,
        "The weights are non-negative and sum to 1, so the output stays in the values' hull. "
        "To leave it, retrain the query and key projections W_Q and W_K.",
    )
    assert states(wrong)["linear"] == SWAPPED and not wrong.correct
    right = grade(
        ex,
        "The weights are non-negative and sum to 1, so the output stays in the values' hull. "
        "To leave it, put the output projection W_O and a feed-forward layer after attention.",
    )
    assert states(right)["linear"] == FOUND and right.correct


@pytest.mark.parametrize("ex_id", ["sc-why-sqrt", "scaling-variance/why-scale"])
def test_the_gradient_idea_from_the_side_of_the_cure(ex_id):
    ex = item(ex_id) if "/" in ex_id else quiz(ex_id)
    g = grade(ex, "点积方差约为 d；除以 √d 后方差回到 1，softmax 不会饱和，梯度也不会消失。")
    assert states(g)["gradient"] == FOUND and g.correct
    g = grade(
        ex, "Large d makes dot products large; dividing by √d keeps the numbers in a sane range."
    )
    assert states(g)["unit"] == FOUND


def test_rnn_and_transformer_ideas_given_to_the_other_model_are_swapped():
    ex = quiz("tf-why-order")
    wrong = grade(
        ex,
        "The Transformer reads the tokens one at a time, so it knows the positions; the RNN "
        "looks at everything at once and needs a positional encoding.",
    )
    assert states(wrong)["rnn"] == SWAPPED and states(wrong)["attention"] == SWAPPED
    assert not wrong.correct
    right = grade(
        ex, "RNN 一步一步读，自带顺序；Transformer 并行处理所有位置，没有位置编码就分不清顺序。"
    )
    assert states(right) == {"rnn": FOUND, "attention": FOUND, "encoding": FOUND}


@pytest.mark.parametrize(
    "answer",
    [
        "Self-attention: Q, K, V from the same sequence. Cross-attention: the decoder's states "
        "give Q while K and V are computed from what the encoder produced.",
        "Self-attention: all from one sequence. In cross-attention the decoder asks (queries) and "
        "the encoder's outputs provide the keys and the values.",
        "自注意力的 QKV 来自同一序列；交叉注意力的键值来自编码器输出，查询是解码器给的。",
    ],
)
def test_a_source_another_target_has_taken_is_not_the_querys(answer):
    g = grade(quiz("bx-cross-text"), answer)
    assert states(g) == {"self": FOUND, "cross-q": FOUND, "cross-kv": FOUND}


def test_a_spaced_hyphen_between_words_ends_a_denial():
    g = grade(item("rnn-attention/why-worse"), "Not worse - the book's number is a single run.")
    assert states(g)["noise"] == FOUND


# -- calibration ------------------------------------------------------------------------------


STUDIED = (
    "dev.toml",
    "heldout.toml",
    "heldout2.toml",
    "blind_dev.toml",
    "blind2_dev.toml",
    "blind3_dev.toml",
)
HELD_OUT = ("blind_heldout.toml", "blind2_heldout.toml", "blind3_heldout.toml")


# These files were judged when the rubric let either half of the two-part reference pass
# (no bottleneck / one run proves nothing); the three independent teachers of issue 23 failed
# every answer that gave one half alone, and the rubric now follows them. The earlier labels
# of these two items are left as their authors wrote them, and left out here.
REJUDGED = {"sc-why-lost", "rnn-attention/why-worse"}


def agreement(*parts: str) -> tuple[int, int, int, int]:
    """(right answers passed, right answers, wrong answers failed, wrong answers)."""
    right = wrong = n_right = n_wrong = 0
    for part in parts:
        for a in tomllib.loads((CALIBRATION / part).read_text("utf-8"))["answer"]:
            if a["item"] in REJUDGED:
                continue
            set_id, _, ex_id = a["item"].rpartition("/")
            ex = LIBRARY.get(set_id).exercise(ex_id) if set_id else quiz(ex_id)
            passed = grade(ex, a["text"]).correct
            if a["expect"] == "pass":
                n_right, right = n_right + 1, right + passed
            else:
                n_wrong, wrong = n_wrong + 1, wrong + (not passed)
    return right, n_right, wrong, n_wrong


@pytest.mark.parametrize("part", [*STUDIED, "all"])
def test_agreement_with_the_teachers_calibration_answers(part):
    """Each studied part of the calibration set, and all of them together: pass/fail agreement
    ≥ 0.90, and ≥ 0.85 on right answers and on wrong answers alike
    (benchmarks/written_agreement.py prints it per item)."""
    right, n_right, wrong, n_wrong = agreement(*(STUDIED if part == "all" else (part,)))
    assert (right + wrong) / (n_right + n_wrong) >= 0.90
    assert right / n_right >= 0.85 and wrong / n_wrong >= 0.85


def test_the_held_out_answers_do_not_regress():
    """The held-out parts are a measurement, not a target: nobody studies their answers, and
    this floor sits below what they measured when last scored (blind, blind2 and blind3 held-out
    parts together: 0.92 overall, right side 0.91, wrong side 0.93; one measurement). Should it
    fail, undo the change that did it rather than read the held-out answers to find out why."""
    right, n_right, wrong, n_wrong = agreement(*HELD_OUT)
    assert (right + wrong) / (n_right + n_wrong) >= 0.87
    assert right / n_right >= 0.80 and wrong / n_wrong >= 0.88


def test_a_written_answer_given_as_a_list_is_valued_as_the_text_that_was_read():
    """An answer file may hold a list; the grade's value is the text graded ("softmax the
    scores"), not the list's repr ("['softmax', 'the scores']"), so the class's groups and
    fingerprints read what the grader read."""
    g = grade(quiz("sc-steps"), ["softmax", "the scores"])
    assert g.value == "softmax the scores"
