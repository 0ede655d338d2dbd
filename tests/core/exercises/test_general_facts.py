"""Four sentences the content taught that standard arithmetic contradicts (issue 19, items 5-8),
each shown false by a computation here, and the shipped text checked to say what is true.

Every test here failed on the text as it was before the fix.
"""

from __future__ import annotations

import re

import numpy as np
import pytest

from attn_tui import paths
from attn_tui.core.attention.steps import attend, softmax
from attn_tui.core.exercises.loader import load_file


@pytest.fixture(scope="module")
def library():
    return {s.id: s for s in (load_file(p)[0] for p in paths.shipped_files()) if s is not None}


def ex(library, set_id, ex_id):
    found = library[set_id].exercise(ex_id)
    assert found is not None, f"{set_id}/{ex_id} is missing"
    return found


def said(exercise, lang: str) -> str:
    """Everything a learner can read of one exercise in ``lang``, on one line."""
    parts = [exercise.prompt.get(lang), exercise.explanation.get(lang)]
    parts += [h.get(lang) for h in exercise.hints]
    parts += [c.text.get(lang) for c in exercise.choices]
    return " ".join(p for p in parts if p)


# 5 ---------------------------------------------------------------------------------------
BY_D = [
    ("quiz-selfcheck", "sc-exp-by-d-variance"),
    ("quiz-selfcheck", "sc-exp-by-d-effect"),
    ("scaling-variance", "divide-by-d"),
    ("scaling-variance", "why-sqrt-not-d"),
]
NOTHING_LEARNED = re.compile(
    r"nothing is learned|just as bad|can hardly focus|cannot single anything out"
    r"|同样学不到东西|同样学不好|很难把注意力集中|注意力什么也挑不出来"
)


def test_5_dividing_by_d_is_made_up_by_weights_a_factor_d_to_the_quarter_larger(library):
    d, rng = 64, np.random.default_rng(0)
    X = rng.standard_normal((10, d))
    W_Q, W_K = rng.standard_normal((2, d, d)) / np.sqrt(d)
    by_sqrt = (X @ W_Q) @ (X @ W_K).T / np.sqrt(d)
    grown = d**0.25
    by_d = (X @ (grown * W_Q)) @ (X @ (grown * W_K)).T / d
    np.testing.assert_allclose(by_d, by_sqrt, rtol=1e-12)  # the same scores: it can learn
    assert np.std((X @ W_Q) @ (X @ W_K).T / d) < 0.2 * np.std(by_sqrt)  # but starts flat
    for set_id, ex_id in BY_D:
        item = ex(library, set_id, ex_id)
        for lang in ("zh", "en"):
            text = said(item, lang)
            assert not NOTHING_LEARNED.search(text), (ex_id, lang)
            assert re.search("一开始|start", text), (ex_id, lang)  # what is true: flat at first


def test_5_the_explanations_say_the_weights_can_make_up_the_factor(library):
    for set_id, ex_id in BY_D[:3]:
        item = ex(library, set_id, ex_id)
        assert "W_Q" in item.explanation.en and "W_Q" in item.explanation.zh, ex_id


# 6 ---------------------------------------------------------------------------------------
def test_6_with_values_equal_to_keys_the_chosen_key_gets_a_gradient(library):
    q = np.array([1.0, 0.0, 1.0])
    K = np.array([[1, 0, 0], [0, 1, 0], [1, 0, 1], [1, 1, 0]], dtype=float)  # values = keys
    base, h = attend(q, K, hard=True).output, 1e-4
    chosen = int(np.argmax(attend(q, K, hard=True).weights))
    for r in range(4):
        dK = np.zeros_like(K)
        dK[r, 1] = h
        moved = attend(q, K + dK, hard=True).output - base
        if r == chosen:  # the key is also the value: the output follows it one for one
            assert moved[1] == pytest.approx(h)
        else:
            assert not moved.any()
    item = ex(library, "quiz-selfcheck", "sc-exp-hardmax-lose")
    keyed = item.choice(item.answer).text
    assert "no key and no query gets any gradient" not in keyed.en
    assert "查询和所有键都收不到梯度" not in keyed.zh
    assert "the chosen key gets one" in keyed.en and "被选中的键以值的身份收到" in keyed.zh
    assert "the chosen key included" not in item.explanation.en
    assert "被选中的那个键也一样" not in item.explanation.zh
    assert "W_K and W_V" in item.explanation.en and "W_K 和 W_V" in item.explanation.zh


# 7 ---------------------------------------------------------------------------------------
def test_7_a_convex_combination_can_point_where_no_value_points(library):
    V = np.array([[1.0, 0.0], [0.0, 1.0]])
    out = attend(np.array([1.0, 1.0]), V).output  # equal scores: half of each
    assert out.tolist() == [0.5, 0.5]
    cosines = V @ out / (np.linalg.norm(V, axis=1) * np.linalg.norm(out))
    assert cosines.max() < 0.8  # a direction neither value has
    for set_id, ex_id in (("quiz-selfcheck", "sc-convex-tf"),):
        item = ex(library, set_id, ex_id)
        assert "cannot create a new direction" not in item.explanation.en
        assert "不能造出新的方向" not in item.explanation.zh
        assert "convex hull" in item.explanation.en and "凸包" in item.explanation.zh
    convex = library["convex"]
    examples = [e.answer for x in convex.exercises for e in x.examples]
    assert not any("new directions" in a for a in examples)


# 8 ---------------------------------------------------------------------------------------
WIDENS = re.compile(
    r"stretches the gap|widens (the )?gaps|widens them|拉大高分|放大分数之间|放大差距|又把它拉开"
)


def test_8_softmax_turns_differences_into_ratios_not_wider_gaps(library):
    w = softmax(np.array([0.1, 0.0]))
    assert w[0] - w[1] < 0.1  # the gap shrank (0.525 − 0.475 = 0.05)
    scores = np.array([2.0, 0.5, -1.0, 0.5])
    w = softmax(scores)
    np.testing.assert_allclose(w[0] / w[1], np.exp(scores[0] - scores[1]), rtol=1e-12)
    item = ex(library, "softmax", "properties")
    assert "e" in item.answer
    keyed_e = item.choice("e").text
    assert "e^Δ" in keyed_e.en and "e^Δ" in keyed_e.zh
    for set_id in ("softmax", "hand-example"):
        s = library[set_id]
        texts = [s.summary.get(lang) for lang in ("zh", "en")]
        texts += [said(x, lang) for x in s.exercises for lang in ("zh", "en")]
        assert not [t for t in texts if t and WIDENS.search(t)], set_id
