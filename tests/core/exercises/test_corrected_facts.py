"""Issue 13's errata: each item, with the arithmetic or the core computation that shows the
old sentence was wrong, and a check that the shipped text now says what is true.

Every test here failed on the text as it was before the fix.
"""

from __future__ import annotations

import math
import re

import numpy as np
import pytest

from attn_tui import paths
from attn_tui.core.attention import lab
from attn_tui.core.attention.steps import attend
from attn_tui.core.exercises import claims
from attn_tui.core.exercises.generators import draw, instance, rnn_params
from attn_tui.core.exercises.grading import grade
from attn_tui.core.exercises.loader import load_file


@pytest.fixture(scope="module")
def library():
    return {s.id: s for s in (load_file(p)[0] for p in paths.shipped_files()) if s is not None}


def ex(library, set_id, ex_id):
    found = library[set_id].exercise(ex_id)
    assert found is not None, f"{set_id}/{ex_id} is missing"
    return found


def texts(exercise, lang):
    """Every sentence of one exercise a learner can read in ``lang``."""
    out = [exercise.prompt.get(lang), exercise.explanation.get(lang)]
    out += [h.get(lang) for h in exercise.hints]
    out += [c.text.get(lang) for c in exercise.choices]
    if exercise.kind == "text":
        out.append(exercise.answer.get(lang))
    return out


# 1 ---------------------------------------------------------------------------------------
def test_1_unscaled_denominator_is_13_826(library):
    denominator = math.e + 1 + math.e**2 + math.e  # softmax of the raw dots 1, 0, 2, 1
    assert round(denominator, 3) == 13.826
    for lang in ("zh", "en"):
        (hint,) = [h.get(lang) for h in ex(library, "hand-example", "unscaled-weights").hints]
        figure = float(re.search(r"≈ ?(\d+\.\d+)", hint).group(1))
        assert abs(figure - denominator) <= 0.0005, hint


# 2 ---------------------------------------------------------------------------------------
def _hard_output(q, K, V):
    return attend(q, K, V, hard=True).output


def test_2_hard_max_sends_gradient_only_to_the_chosen_value(library):
    q = np.array([1.0, 0.0, 1.0])
    K = np.array([[1, 0, 0], [0, 1, 0], [1, 0, 1], [1, 1, 0]], dtype=float)
    V = np.array([[2, 1], [0, 3], [4, 0], [-2, 1]], dtype=float)
    base, h = _hard_output(q, K, V), 1e-4
    for i in range(3):  # nudging the query moves nothing
        dq = np.zeros(3)
        dq[i] = h
        assert np.array_equal(_hard_output(q + dq, K, V), base)
    for r in range(4):  # nor does nudging any key, the chosen one included
        dK = np.zeros_like(K)
        dK[r] = h
        assert np.array_equal(_hard_output(q, K + dK, V), base)
    dV = np.zeros_like(V)
    dV[2, 0] = h  # the chosen value (key 3 scores highest) moves the output one for one
    assert _hard_output(q, K, V + dV)[0] - base[0] == pytest.approx(h)

    item = ex(library, "quiz-selfcheck", "sc-exp-hardmax-lose")
    keyed = item.choice(item.answer).text
    assert "value" in keyed.en and "only the chosen key" not in keyed.en
    assert "值" in keyed.zh and "只有被选中的那个 key" not in keyed.zh
    for lang, words in (("en", ("query", "key")), ("zh", ("查询", "键"))):
        assert all(w in item.explanation.get(lang) for w in words)


# 3 ---------------------------------------------------------------------------------------
def test_3_every_decoder_layer_masks_its_self_attention(library):
    item = ex(library, "qkv-self-attention", "bert-mask")
    assert "解码器的第一层自注意力）" not in item.explanation.zh and "每一层" in item.explanation.zh
    assert "the first, masked" not in item.explanation.en
    assert "every one of its layers" in item.explanation.en


# 4 ---------------------------------------------------------------------------------------
def test_4_heads_multiply_the_scores_and_their_softmax(library):
    n, h = 8, 8  # the lab's largest sequence; the exercise's n = 10 scales the same way
    one = lab.compute(lab.numbered(n, 16), heads=1).weights.size
    many = lab.compute(lab.numbered(n, 16), heads=h).weights.size
    assert many == h * one == h * n * n  # every head has its own n×n scores, softmax, memory
    assert 8 * 10 * 10 == 800
    item = ex(library, "multi-head", "time-cost")
    for lang in ("zh", "en"):
        text = item.explanation.get(lang)
        assert "800" in text and "100" in text, text
    assert "The only extra is" not in item.explanation.en
    assert "多出来的只是切分与拼接的开销" not in item.explanation.zh


# 5 ---------------------------------------------------------------------------------------
def test_5_head_count_does_not_change_parameters_but_narrows_each_head(library):
    d_model = 8
    counts = {h: lab.projections(d_model).count for h in (1, 2, 8)}
    assert set(counts.values()) == {4 * d_model**2}  # h does not enter the parameter count
    result = lab.compute(lab.numbered(6, d_model), heads=8)  # d_k = 1
    ranks = {int(np.linalg.matrix_rank(result.raw[i])) for i in range(8)}
    assert ranks == {1}  # each head's 6×6 score matrix has rank ≤ d_k: a low-rank bottleneck
    item = ex(library, "multi-head", "head-count")
    keyed = item.choice(item.answer).text
    assert not re.search("过拟合|overfit", keyed.zh + keyed.en)
    # overfitting is named only to say it does not follow
    assert "过拟合」并不成立" in item.explanation.zh
    assert 'overfitting" does not hold' in item.explanation.en
    assert "低秩" in item.explanation.zh and "low-rank" in item.explanation.en


# 6 ---------------------------------------------------------------------------------------
def test_6_cross_attention_takes_k_and_v_from_the_other_module(library):
    item = ex(library, "kinds-cost", "classify")
    choice = item.choice("a").text
    assert "a" in item.answer
    assert "K and V from another module" in choice.en and "Q from another" not in choice.en
    assert "K、V 来自另一个模块" in choice.zh and "Q 来自另一模块" not in choice.zh


# 7 ---------------------------------------------------------------------------------------
def test_7_hard_attention_output_need_not_be_a_vertex(library):
    # Collinear values: the middle one is chosen; it lies inside the hull, not at a corner.
    K = np.array([[0.0, 1.0], [1.0, 0.0], [0.0, -1.0]])
    V = np.array([[0.0, 0.0], [1.0, 1.0], [2.0, 2.0]])
    out = attend(np.array([1.0, 0.0]), K, V, hard=True).output
    assert np.array_equal(out, [1.0, 1.0])  # the midpoint of the segment (0,0)–(2,2)
    item = ex(library, "convex", "hard-vertex")
    assert "凸包的一个顶点" not in item.explanation.zh and "不一定" in item.explanation.zh
    assert "one corner of" not in item.explanation.en and "need not" in item.explanation.en

    # Three drawn keys are sometimes collinear or repeated: no triangle to speak of.
    spec = ex(library, "convex", "output-practice").generate
    flat = 0
    for seed in range(200):
        K = draw(spec, seed).values["keys"]
        area = (K[1, 0] - K[0, 0]) * (K[2, 1] - K[0, 1]) - (K[2, 0] - K[0, 0]) * (K[1, 1] - K[0, 1])
        flat += area == 0
    assert flat > 0
    item = ex(library, "convex", "output-practice")
    for lang in ("zh", "en"):
        assert not re.search("三角形|triangle", " ".join(texts(item, lang)))


# 8 ---------------------------------------------------------------------------------------
def test_8_only_value_side_maps_leave_the_hull(library):
    rng = np.random.default_rng(0)
    X = rng.standard_normal((5, 4))
    W_V = rng.standard_normal((4, 4))
    V = X @ W_V
    for _ in range(20):  # any W_Q, W_K: the output stays inside the values' box
        q, K = X[0] @ rng.standard_normal((4, 4)), X @ rng.standard_normal((4, 4))
        out = attend(q, K, V).output
        assert np.all(out >= V.min(0) - 1e-12) and np.all(out <= V.max(0) + 1e-12)
    item = ex(library, "convex", "cannot-create")
    for lang in ("zh", "en"):
        answer = item.answer.get(lang)
        assert "W_V" in answer and "W_O" in answer
        for sentence in re.split("[。；;.]", answer):
            if "W_Q" in sentence or "W_K" in sentence:  # named only to say they change weights
                assert "权重" in sentence or "weights" in sentence, sentence


# 9 ---------------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("set_id", "ex_id"),
    [
        ("hand-example", "exp-sum"),
        ("hand-example", "output"),
        ("hand-example", "orthogonal-weight"),
        ("convex", "hand-values"),
    ],
)
def test_9_written_arithmetic_adds_up(library, set_id, ex_id):
    path = next(p for p in paths.shipped_files() if load_file(p)[0].id == set_id)
    import tomllib

    raw = next(e for e in tomllib.loads(path.read_text("utf-8"))["exercise"] if e["id"] == ex_id)
    for lang in ("zh", "en"):
        for text in [raw["explanation"][lang], *raw.get("hints", {}).get(lang, [])]:
            assert claims.check_text(text) == []
            # arithmetic written without a mark is not checked, so there must be none
            plain = claims.MARK.sub("", text)
            assert not re.search(r"\d\s*[+×/−]\s*\d[^。；;]*[=≈]", plain), plain
    shown = ex(library, set_id, ex_id).explanation.en
    if ex_id == "orthogonal-weight":  # the shifted exp of the zero score: say where it comes from
        assert "exp(−1.1547)" in shown and "exp(0) = 1" not in shown


# 10 --------------------------------------------------------------------------------------
def test_10_score_count_asks_one_number(library):
    item = ex(library, "quiz-beyond", "bx-score-count")
    assert "What shape" not in item.prompt.en and "几乘几的矩阵" not in item.prompt.zh
    assert grade(instance(item), "100").correct
    assert grade(instance(item), "100 scores").correct


def test_10_std_512_accepts_the_taught_22_6(library):
    item = ex(library, "quiz-beyond", "bx-std-512")
    assert round(math.sqrt(512), 1) == 22.6
    assert grade(instance(item), "22.6").correct
    assert not grade(instance(item), "22").correct


@pytest.mark.parametrize("typed", ["6", "6%", "6 points", "6 percentage points", "6 个百分点"])
def test_10_a_drop_in_points_reads_with_its_unit(library, typed):
    item = ex(library, "quiz-selfcheck", "sc-myth-helps-drop")
    assert grade(instance(item), typed).correct, typed


def test_10_units_are_read_but_a_second_number_is_not(library):
    item = ex(library, "quiz-selfcheck", "sc-myth-helps-drop")
    for typed in ("6 or 7", "not 6", "6 and 60", "2.x", "6points"):
        assert grade(instance(item), typed).status == "unreadable", typed
    share = ex(library, "three-steps", "output-2d")  # a vector: units are for numbers only
    assert grade(instance(share), "0.3 0.7").correct


# 11 --------------------------------------------------------------------------------------
def test_11_rnn_gradients_can_vanish_or_explode(library):
    item = ex(library, "quiz-beyond", "bx-path")
    assert "爆炸" in item.explanation.zh and "exploding" in item.explanation.en
    # the reason: a product of n factors shrinks or grows geometrically
    assert 0.9**50 < 0.01 and 1.1**50 > 100


def test_rnn_params_formula_matches_the_seed():
    assert (rnn_params(6, 16, 6, False), rnn_params(6, 16, 6, True)) == (838, 934)
