"""Generators and check functions: same seed ⇒ same numbers, and every answer equals the same
arithmetic done independently here (plain Python loops, the seed's own figures)."""

from __future__ import annotations

import math

import numpy as np
import pytest

from attn_tui.core.exercises.generators import (
    CHECKS,
    GENERATORS,
    draw,
    fill,
    fmt_number,
    instance,
    rnn_params,
    run_check,
)
from attn_tui.core.parse import InputError

SEED_Q = "1 0 1"
SEED_K = "1 0 0; 0 1 0; 1 0 1; 1 1 0"


def py_softmax(xs: list[float]) -> list[float]:
    m = max(xs)
    es = [math.exp(x - m) for x in xs]
    return [e / sum(es) for e in es]


def py_weights(q: list[float], K: list[list[float]]) -> list[float]:
    d = len(q)
    return py_softmax([sum(a * b for a, b in zip(q, k, strict=True)) / math.sqrt(d) for k in K])


# -- check: the seed's figures ------------------------------------------------------------


def test_the_hand_example_reproduces_the_seed_table():
    spec = {"query": SEED_Q, "keys": SEED_K}
    assert run_check({"fn": "attention.scores", **spec}).tolist() == [1, 0, 2, 1]
    np.testing.assert_allclose(
        run_check({"fn": "attention.scaled", **spec}), [0.5774, 0, 1.1547, 0.5774], atol=5e-5
    )
    np.testing.assert_allclose(
        run_check({"fn": "attention.weights", **spec}), [0.2303, 0.1293, 0.4102, 0.2303], atol=5e-5
    )
    np.testing.assert_allclose(
        run_check({"fn": "attention.output", **spec}), [0.8707, 0.3595, 0.4102], atol=5e-5
    )


def test_other_checks_match_the_seeds():
    np.testing.assert_allclose(
        run_check({"fn": "softmax", "scores": "3 1 -1"}), [0.8668, 0.1173, 0.0159], atol=5e-5
    )
    assert run_check({"fn": "sqrt", "x": 512}) == pytest.approx(22.627, abs=1e-3)
    assert run_check({"fn": "dot", "a": "1 0 1", "b": [1, 1, 0]}) == 1
    assert run_check({"fn": "rnn_params", "input": 6, "hidden": 16, "output": 6}) == 838
    assert (
        run_check({"fn": "rnn_params", "input": 6, "hidden": 16, "output": 6, "attention": True})
        == 934
    )
    assert run_check({"fn": "head_dim", "d_model": 512, "heads": 8}) == 64
    assert run_check({"fn": "score_count", "n": 1000}) == 1_000_000
    assert run_check({"fn": "cost_ratio", "n_from": 100, "n_to": 1000}) == 100
    w = run_check(
        {
            "fn": "attention.weights",
            "query": SEED_Q,
            "keys": SEED_K,
            "scale": False,
            "temperature": 2.0,
        }
    )
    np.testing.assert_allclose(w, py_softmax([0.5, 0.0, 1.0, 0.5]))


def test_rnn_parameter_count_by_hand():
    encoder = 6 * 16 + 16 * 16 + 16
    decoder = 6 * 16 + 16 * 16 + 16
    assert rnn_params(6, 16, 6, False) == encoder + decoder + 16 * 6 + 6 == 838
    assert rnn_params(6, 16, 6, True) == encoder + decoder + 32 * 6 + 6 == 934


@pytest.mark.parametrize(
    ("spec", "code"),
    [
        ({"fn": "nope"}, "ex.unknown_check"),
        ({"fn": "dot", "a": "1 2"}, "ex.param_missing"),
        ({"fn": "dot", "a": "1 2", "b": "1 2", "c": 1}, "ex.param_unknown"),
        ({"fn": "dot", "a": "1 2", "b": "1 2 3"}, "ex.length_mismatch"),
        ({"fn": "dot", "a": "1 x", "b": "1 2"}, "not_a_number"),
        ({"fn": "attention.weights", "query": "1 0", "keys": SEED_K}, "dim_mismatch"),
        ({"fn": "causal_mask", "n": 0}, "ex.param_range"),
        ({"fn": "causal_mask", "n": 2.5}, "ex.param_range"),
        ({"fn": "sqrt", "x": -1}, "ex.param_invalid"),
        (
            {"fn": "rnn_params", "input": 6, "hidden": 16, "output": 6, "attention": "yes"},
            "ex.param_invalid",
        ),
    ],
)
def test_bad_check_parameters_raise_input_errors(spec, code):
    with pytest.raises(InputError) as caught:
        run_check(spec)
    assert caught.value.code == code


# -- generate -----------------------------------------------------------------------------


@pytest.mark.parametrize("fn", sorted(GENERATORS))
def test_same_seed_same_numbers_and_answer(fn):
    a, b = draw({"fn": fn}, seed=1234), draw({"fn": fn}, seed=1234)
    assert a.seed == 1234 and a.kind == GENERATORS[fn].kind
    assert a.display("en") == b.display("en")
    np.testing.assert_array_equal(a.answer, b.answer)


@pytest.mark.parametrize("fn", ["attention.weights", "softmax", "causal_mask", "score_count"])
def test_different_seeds_give_different_draws(fn):
    seen = {tuple(sorted(draw({"fn": fn}, seed=s).display("en").items())) for s in range(20)}
    assert len(seen) > 1


def test_attention_generators_match_plain_python():
    for seed in range(30):
        spec = {"keys": 4, "dim": 3, "low": -3, "high": 3}
        d = draw({"fn": "attention.weights", **spec}, seed)
        q = d.values["query"].tolist()
        K = d.values["keys"].tolist()
        assert all(float(x).is_integer() and -3 <= x <= 3 for x in q + sum(K, []))
        assert len(K) == 4 and all(len(k) == 3 for k in K)
        assert any(q), "an all-zero query is drawn again"
        expected = py_weights(q, K)
        np.testing.assert_allclose(d.answer, expected, rtol=1e-12)
        scores = draw({"fn": "attention.scores", **spec}, seed).answer
        assert scores.tolist() == [sum(a * b for a, b in zip(q, k, strict=True)) for k in K]
        out = draw({"fn": "attention.output", **spec}, seed).answer
        np.testing.assert_allclose(
            out,
            [sum(w * k[j] for w, k in zip(expected, K, strict=True)) for j in range(3)],
            atol=1e-12,
        )
        assert d.calculator == {"query": d.display("en")["query"], "keys": d.display("en")["keys"]}


def test_softmax_sqrt_and_counts_match_plain_python():
    for seed in range(30):
        s = draw({"fn": "softmax", "n": 4}, seed)
        np.testing.assert_allclose(s.answer, py_softmax(s.values["scores"].tolist()))
        r = draw({"fn": "sqrt"}, seed)
        assert r.values["d"] in [3, 16, 64, 100, 256, 512] and r.answer == math.sqrt(r.values["d"])
        n = draw({"fn": "score_count", "n_min": 4, "n_max": 50}, seed)
        assert 4 <= n.values["n"] <= 50 and n.answer == n.values["n"] ** 2
        h = draw({"fn": "head_dim"}, seed)
        assert h.answer * h.values["heads"] == h.values["d_model"]
        c = draw({"fn": "cost_ratio"}, seed)
        assert c.answer == pytest.approx((c.values["n_to"] / c.values["n_from"]) ** 2)


def test_causal_mask_is_lower_triangular():
    for seed in range(20):
        d = draw({"fn": "causal_mask", "n_min": 2, "n_max": 7}, seed)
        n = d.values["n"]
        assert 2 <= n <= 7 and d.answer.shape == (n, n)
        for i in range(n):
            for j in range(n):
                assert d.answer[i, j] == (1 if j <= i else 0)


def test_rnn_generator_draws_from_the_lists_and_counts_right():
    seen_attention = set()
    for seed in range(40):
        d = draw({"fn": "rnn_params", "hidden": [16], "symbols": [6]}, seed)
        seen_attention.add(d.values["attention"])
        assert d.answer == (934 if d.values["attention"] else 838)
    assert seen_attention == {True, False}
    fixed = draw({"fn": "rnn_params", "attention": True}, 3)
    assert fixed.values["attention"] is True
    assert fixed.display("en")["attention"] == "with" and fixed.display("zh")["attention"] == "加"


@pytest.mark.parametrize(
    ("spec", "code"),
    [
        ({"fn": "nope"}, "ex.unknown_generator"),
        ({"fn": "softmax", "size": 3}, "ex.param_unknown"),
        ({"fn": "softmax", "low": 3, "high": -3}, "ex.param_order"),
        ({"fn": "attention.weights", "keys": 0}, "ex.param_range"),
        ({"fn": "sqrt", "choices": []}, "ex.param_invalid"),
        ({"fn": "cost_ratio", "choices": [[10]]}, "ex.param_invalid"),
        ({"fn": "causal_mask", "n_min": 5, "n_max": 3}, "ex.param_order"),
    ],
)
def test_bad_generator_parameters(spec, code):
    with pytest.raises(InputError) as caught:
        draw(spec, 0)
    assert caught.value.code == code


def test_every_check_and_generator_is_documented_in_the_readme():
    from pathlib import Path

    readme = (Path(__file__).parents[3] / "exercises" / "README.md").read_text("utf-8")
    for fn in set(CHECKS) | set(GENERATORS):
        assert f"`{fn}`" in readme, fn


# -- instances ----------------------------------------------------------------------------


def test_generated_instance_records_its_seed_and_fills_its_prompt(ex):
    gen = ex("gen-weights")
    first = instance(gen)
    assert first.seed is not None and first.generated
    again = instance(gen, seed=first.seed)
    assert again.prompt("en") == first.prompt("en")
    np.testing.assert_array_equal(again.answer, first.answer)
    assert "{query}" not in first.prompt("en") and first.drawn.display("en")[
        "query"
    ] in first.prompt("en")
    assert first.explanation("zh") == "d = 2。"
    assert first.calculator["query"] == first.drawn.display("en")["query"]


def test_stored_instance_is_shown_as_written(ex):
    inst = instance(ex("weights"))
    assert inst.seed is None and not inst.generated
    assert inst.prompt("zh") == "求权重。"
    assert inst.hints("en") == ["Dot products first.", "Then divide by √3."]
    assert inst.calculator == {"query": "1 0 1", "keys": "1 0 0; 0 1 0; 1 0 1; 1 1 0"}


def test_fill_leaves_unknown_braces_alone():
    assert fill("{n}² scores, {a, b}, {other}", {"n": "4"}) == "4² scores, {a, b}, {other}"


@pytest.mark.parametrize(
    ("x", "text"),
    [(934.0, "934"), (0.23031, "0.2303"), (0.5, "0.5"), (-0.0, "0"), (22.627417, "22.6274")],
)
def test_fmt_number(x, text):
    assert fmt_number(x) == text
