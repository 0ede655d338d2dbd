"""The numpy behind the screen is the screen's own arithmetic: run as it is shown, the code
for the calculator and for the lab gives the core's scores, weights and output."""

from __future__ import annotations

import numpy as np
import pytest

from attn_tui.core.attention import as_numpy, lab
from attn_tui.core.attention.steps import attend

HAND_Q = [1.0, 0.0, 1.0]
HAND_K = [[1.0, 0, 0], [0, 1, 0], [1, 0, 1], [1, 1, 0]]


@pytest.mark.parametrize("scale", [True, False])
@pytest.mark.parametrize("hard", [False, True])
@pytest.mark.parametrize("temperature", [1.0, 0.5, 3.0])
@pytest.mark.parametrize("values", [None, [[1.0, 2], [0, -1], [3, 3], [0.5, 0.25]]])
def test_the_calculators_code_gives_its_numbers(scale, hard, temperature, values):
    steps = attend(
        np.array(HAND_Q),
        np.array(HAND_K),
        None if values is None else np.array(values),
        scale=scale,
        hard=hard,
        temperature=temperature,
    )
    ns = as_numpy.run(as_numpy.calculator(steps))
    assert np.allclose(ns["scores"], steps.scores, rtol=1e-14, atol=1e-14)
    assert np.allclose(ns["weights"], steps.weights, rtol=1e-12, atol=1e-15)
    assert np.allclose(ns["output"], steps.output, rtol=1e-12, atol=1e-14)


def test_the_hand_example_as_code():
    source = as_numpy.calculator(attend(np.array(HAND_Q), np.array(HAND_K)))
    assert "scaled = scores / np.sqrt(len(q))" in source
    out = as_numpy.run(source)["output"]
    assert np.allclose(out, [0.8707, 0.3595, 0.4102], atol=5e-5)


def test_random_inputs_of_every_size_the_calculator_takes():
    rng = np.random.default_rng(0)
    for _ in range(40):
        d, n = int(rng.integers(1, 65)), int(rng.integers(1, 65))
        q = rng.normal(size=d) * rng.choice([1, 1e3])
        K = rng.normal(size=(n, d))
        steps = attend(q, K, temperature=float(rng.uniform(0.01, 100)))
        ns = as_numpy.run(as_numpy.calculator(steps))
        assert np.allclose(ns["output"], steps.output, rtol=1e-9, atol=1e-12)


@pytest.mark.parametrize("heads", [1, 2, 4])
@pytest.mark.parametrize("mask", ["none", "causal", "window", "both"])
def test_the_labs_code_gives_its_weights_and_output(heads, mask):
    tokens = lab.numbered(5, d_model=8, seed=3)
    causal = mask in ("causal", "both")
    window = 1 if mask in ("window", "both") else None
    result = lab.compute(tokens, heads=heads, causal=causal, window=window, seed=2)
    ns = as_numpy.run(as_numpy.lab(result))
    assert np.allclose(ns["A"], result.weights, rtol=1e-12, atol=1e-15)
    assert np.allclose(ns["output"], result.output, rtol=1e-12, atol=1e-12)


def test_the_labs_cross_attention_as_code():
    queries = lab.numbered(3, d_model=4, seed=1, prefix="q")
    memory = lab.numbered(5, d_model=4, seed=2, prefix="m")
    result = lab.compute(queries, memory, heads=2)
    source = as_numpy.lab(result)
    assert "X_kv = np.array" in source
    ns = as_numpy.run(source)
    assert ns["A"].shape == (2, 3, 5)
    assert np.allclose(ns["output"], result.output, rtol=1e-12, atol=1e-12)
