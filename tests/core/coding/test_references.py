"""The references the learner is checked against agree with the core's own layers, and the
backward passes with finite differences: independent arithmetic, so a reference cannot be
wrong in the same way as the code it checks."""

from __future__ import annotations

import math

import numpy as np
import pytest

from attn_tui.core.attention import lab
from attn_tui.core.coding import references as ref
from attn_tui.core.coding.checks import CHECKS
from attn_tui.core.models.rnn import ReversalRNN


def test_one_query_is_the_calculators_textbook_table():
    q = np.array([1.0, 0, 1])
    K = np.array([[1.0, 0, 0], [0, 1, 0], [1, 0, 1], [1, 1, 0]])
    assert np.allclose(ref.scores(q[None], K)[0], [1, 0, 2, 1])
    assert np.allclose(ref.scaled_scores(q[None], K)[0], [0.5774, 0, 1.1547, 0.5774], atol=5e-5)
    assert np.allclose(ref.attention_one(q, K, K), [0.8707, 0.3595, 0.4102], atol=5e-5)


@pytest.mark.parametrize("heads", [1, 2, 4])
@pytest.mark.parametrize("cross", [False, True])
def test_multi_head_equals_the_labs_layer_batch_element_by_element(heads, cross):
    rng = np.random.default_rng(heads + 10 * cross)
    B, Tq, Tk, d = 2, 3, 5 if cross else 3, 8
    X_q = rng.normal(size=(B, Tq, d))
    X_kv = rng.normal(size=(B, Tk, d)) if cross else X_q
    W = [rng.normal(size=(d, d)) for _ in range(4)]
    got = ref.multi_head_attention(X_q, X_kv, *W, heads)
    for b in range(B):
        queries = lab.Tokens(tuple(f"q{i}" for i in range(Tq)), X_q[b])
        memory = lab.Tokens(tuple(f"k{i}" for i in range(Tk)), X_kv[b]) if cross else None
        want = lab.compute(queries, memory, lab.Projections(*W), heads=heads).output
        assert np.allclose(got[b], want, rtol=1e-12, atol=1e-12)


def test_batched_attention_with_a_causal_mask_equals_the_labs_masked_weights():
    rng = np.random.default_rng(3)
    X = rng.normal(size=(4, 4))
    eye = np.eye(4)
    result = lab.compute(
        lab.Tokens(tuple("abcd"), X), proj=lab.Projections(eye, eye, eye, eye), causal=True
    )
    got = ref.attention(X[None], X[None], X[None], ref.causal_mask(4))
    assert np.allclose(got[0], result.Z[0])


def test_split_then_merge_gives_x_back():
    X = np.arange(2 * 3 * 8.0).reshape(2, 3, 8)
    heads = ref.split_heads(X, 4)
    assert heads.shape == (2, 4, 3, 2)
    assert heads[0, 1, 0].tolist() == [2.0, 3.0]  # head 1 takes columns 2–3 of token 0
    assert np.array_equal(ref.merge_heads(heads), X)


def test_positions_follow_the_formula():
    P = ref.positions(3, 4)
    assert np.allclose(P[0], [0, 1, 0, 1])
    assert np.allclose(P[2], [math.sin(2), math.cos(2), math.sin(2 / 100), math.cos(2 / 100)])


def test_padding_mask_marks_the_real_positions():
    assert ref.padding_mask(np.array([3, 1]), 4).tolist() == [
        [[True, True, True, False]],
        [[True, False, False, False]],
    ]


def test_softmax_backward_equals_finite_differences():
    rng = np.random.default_rng(0)
    y = ref.stable_softmax(rng.normal(size=(3, 5)))
    dy = rng.normal(size=(3, 5))
    assert np.allclose(ref.softmax_backward(y, dy), ref.softmax_backward_fd(y, dy), atol=1e-8)


def test_attention_backward_equals_finite_differences_on_non_square_shapes():
    rng = np.random.default_rng(1)
    Q, K, V = rng.normal(size=(2, 2, 3)), rng.normal(size=(2, 4, 3)), rng.normal(size=(2, 4, 2))
    dO = rng.normal(size=(2, 2, 2))
    for mine, numeric in zip(
        ref.attention_backward(Q, K, V, dO), ref.attention_backward_fd(Q, K, V, dO), strict=True
    ):
        assert mine.shape == numeric.shape
        assert np.allclose(mine, numeric, atol=1e-7)


def test_the_rnn_step_gives_the_book_models_own_decoding_weights():
    """Run the 934-parameter model's greedy decoding and check its first step's attention
    row against the reference fed the same encoder states and first decoder state."""
    rng = np.random.default_rng(5)
    model = ReversalRNN(attention=True, dtype=np.float64)
    assert model.n_params == 934
    model.init(rng)
    x = rng.integers(0, 6, size=(3, 5))
    _, attn = model.greedy(x)
    h = np.zeros((3, 16))
    H = np.empty((3, 5, 16))
    for t in range(5):
        h = np.tanh(model.Wxh[x[:, t]] + h @ model.Whh + model.bh)
        H[:, t] = h
    s1 = np.tanh(h @ model.Wss + model.bs)  # the first step is fed nothing
    context, weights = ref.rnn_attention(s1, H)
    assert np.allclose(weights, attn[:, 0], atol=1e-12)
    assert np.allclose(context, np.einsum("bl,blh->bh", attn[:, 0], H))


@pytest.mark.parametrize("name", sorted(CHECKS))
def test_every_case_of_every_check_is_computable_and_finite(name):
    check = CHECKS[name]
    cases = check.cases(0)
    assert cases[0].name != "random"  # a readable case comes first
    for case in cases:
        assert len(case.args) == len(check.params)
        out = check.expected(case)
        outs = out if len(check.outputs) > 1 else (out,)
        assert len(outs) == len(check.outputs)
        for o in outs:
            assert np.all(np.isfinite(np.asarray(o, dtype=float)))


def test_the_adversarial_cases_the_issue_names_are_there():
    names = {n for c in CHECKS.values() for n in c.builders}
    assert {"large", "ties", "one_key", "single_key", "cross", "four_heads", "batch_one"} <= names
    large = CHECKS["softmax"].builders["large"](np.random.default_rng(0))
    assert large.args[0].max() >= 710


def test_the_figures_the_code_prompts_quote_are_the_cores(library):
    """Every number the shipped code set states, computed here (and found in its text)."""
    from attn_tui.core.models.rnn import count_params

    text = " ".join(f"{e.prompt.en} {e.explanation.en} {e.prompt.zh}" for e in library.exercises)
    q = np.array([1.0, 0, 1])
    K = np.array([[1.0, 0, 0], [0, 1, 0], [1, 0, 1], [1, 1, 0]])
    dots = ref.scores(q[None], K)[0]
    scaled = ref.scaled_scores(q[None], K)[0]
    weights = ref.stable_softmax(scaled)
    out = ref.attention_one(q, K, K)
    assert " ".join(f"{x:g}" for x in dots) in text  # "1 0 2 1"
    assert " ".join(f"{x:.4f}".rstrip("0").rstrip(".") for x in scaled) in text
    assert " ".join(f"{x:.4f}" for x in weights) in text
    assert "(" + ", ".join(f"{x:.4f}" for x in out) + ")" in text
    assert "934" in text and count_params(True) == 934
    assert "96" in text and count_params(True) - count_params(False) == 96
    with np.errstate(over="ignore"):
        assert "710" in text and np.isinf(np.exp(np.float64(710))) and np.isfinite(np.exp(709.0))
