"""The attention core against independent arithmetic, including the seed's own table."""

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from attn_tui.core.attention.steps import attend, dimension_experiment, entropy, hardmax, softmax
from attn_tui.core.parse import InputError

SEED_Q = [1, 0, 1]
SEED_K = [[1, 0, 0], [0, 1, 0], [1, 0, 1], [1, 1, 0]]


def by_hand(q, K, V=None, scale=True, T=1.0):
    """Plain-Python attention, written without numpy, to check the core against."""
    V = V or K
    d = len(q)
    scores = [sum(a * b for a, b in zip(q, k, strict=True)) for k in K]
    z = [s / math.sqrt(d) if scale else s for s in scores]
    u = [x / T for x in z]
    m = max(u)
    e = [math.exp(x - m) for x in u]
    w = [x / sum(e) for x in e]
    out = [sum(w[i] * V[i][j] for i in range(len(V))) for j in range(len(V[0]))]
    return scores, z, w, out


def test_seed_table_to_four_decimals():
    s = attend(SEED_Q, SEED_K)
    assert [f"{x:.4f}" for x in s.scores] == ["1.0000", "0.0000", "2.0000", "1.0000"]
    assert [f"{x:.4f}" for x in s.scaled] == ["0.5774", "0.0000", "1.1547", "0.5774"]
    assert [f"{x:.4f}" for x in s.weights] == ["0.2303", "0.1293", "0.4102", "0.2303"]
    assert [f"{x:+.4f}" for x in s.output] == ["+0.8707", "+0.3595", "+0.4102"]
    assert s.d == 3 and math.isclose(s.sqrt_d, 1.7320508, rel_tol=1e-7)


@pytest.mark.parametrize("scale", [True, False])
@pytest.mark.parametrize("T", [0.5, 1.0, 3.0])
def test_matches_plain_python(scale, T):
    q, K, V = [0.5, -1, 2], [[1, 2, 0], [-1, 0, 1], [0.5, 0.5, 0.5]], [[1, 0], [0, 1], [2, 2]]
    scores, z, w, out = by_hand(q, K, V, scale, T)
    s = attend(q, K, V, scale=scale, temperature=T)
    np.testing.assert_allclose(s.scores, scores, rtol=1e-12)
    np.testing.assert_allclose(s.scaled, z, rtol=1e-12)
    np.testing.assert_allclose(s.weights, w, rtol=1e-12)
    np.testing.assert_allclose(s.output, out, rtol=1e-12)
    np.testing.assert_allclose(s.terms.sum(axis=0), out, rtol=1e-12)


def test_values_default_to_keys():
    s = attend(SEED_Q, SEED_K)
    assert s.values_are_keys and np.array_equal(s.V, s.K)
    assert not attend(SEED_Q, SEED_K, SEED_K).values_are_keys


def test_hard_max_takes_the_first_of_ties():
    s = attend([1, 0], [[1, 0], [0, 1], [1, 0]], hard=True)
    assert s.weights.tolist() == [1.0, 0.0, 0.0]
    assert s.output.tolist() == [1.0, 0.0]
    assert hardmax(np.array([2.0, 5.0, 5.0])).tolist() == [0.0, 1.0, 0.0]


def test_identical_keys_give_uniform_weights():
    s = attend([2, 1, 0], [[1, 1, 1]] * 4)
    np.testing.assert_allclose(s.weights, 0.25)


def test_temperature_flattens_and_sharpens():
    base = attend(SEED_Q, SEED_K).weights.max()
    assert attend(SEED_Q, SEED_K, temperature=5).weights.max() < base
    assert attend(SEED_Q, SEED_K, temperature=0.2).weights.max() > base


@pytest.mark.parametrize("bad", [0, -1, 0.001, 1000, float("nan"), float("inf")])
def test_unusable_temperatures_are_refused(bad):
    with pytest.raises(InputError) as info:
        attend(SEED_Q, SEED_K, temperature=bad)
    assert info.value.code == "temperature"


def test_shape_faults():
    with pytest.raises(InputError) as info:
        attend([1, 0], SEED_K)
    assert info.value.code == "dim_mismatch" and info.value.params == {"query": 2, "keys": 3}
    with pytest.raises(InputError) as info:
        attend(SEED_Q, SEED_K, [[1], [2]])
    assert info.value.code == "values_count" and info.value.params == {"values": 2, "keys": 4}


@settings(max_examples=200, deadline=None)
@given(st.lists(st.floats(min_value=-1e6, max_value=1e6), min_size=1, max_size=64))
def test_softmax_is_finite_and_sums_to_one_for_huge_scores(scores):
    w = softmax(np.array(scores))
    assert np.all(np.isfinite(w)) and np.all(w >= 0)
    assert math.isclose(w.sum(), 1.0, rel_tol=1e-12)


def test_naive_softmax_would_overflow_here_but_ours_does_not():
    big = np.array([1e6, 999_999.0, -1e6])
    with np.errstate(over="ignore", invalid="ignore"):
        naive = np.exp(big) / np.exp(big).sum()
    assert not np.all(np.isfinite(naive))
    w = softmax(big)
    np.testing.assert_allclose(w, [1 / (1 + math.exp(-1)), math.exp(-1) / (1 + math.exp(-1)), 0.0])


@settings(max_examples=200, deadline=None)
@given(
    st.integers(1, 6).flatmap(
        lambda d: st.tuples(
            st.lists(st.floats(-100, 100), min_size=d, max_size=d),
            st.lists(
                st.lists(st.floats(-100, 100), min_size=d, max_size=d), min_size=1, max_size=6
            ),
        )
    )
)
def test_output_is_a_convex_combination(qk):
    q, K = qk
    s = attend(q, K)
    assert math.isclose(s.weights.sum(), 1.0, rel_tol=1e-9)
    assert bool(np.all(s.inside))


def test_dimension_experiment_shows_saturation_without_scaling():
    small, large = dimension_experiment(3, 8, seed=0), dimension_experiment(300, 8, seed=0)
    # raw scores spread like √d; unscaled weights at d = 300 are nearly one-hot
    assert large.score_std > 5 * small.score_std
    assert large.max_unscaled > 0.9 and large.entropy_unscaled < 0.3
    assert large.max_scaled < 0.5 and large.entropy_scaled > 1.5
    # same seed, same draw
    again = dimension_experiment(300, 8, seed=0)
    assert np.array_equal(again.q, large.q) and np.array_equal(again.K, large.K)


def test_entropy_of_uniform_is_log_n():
    assert math.isclose(entropy(np.full(8, 1 / 8)), math.log(8))
    assert entropy(np.array([1.0, 0.0, 0.0])) == 0.0


def test_parse_temperature_accepts_typed_forms_and_names_faults():
    from attn_tui.core.attention.steps import MAX_TEMPERATURE, MIN_TEMPERATURE, parse_temperature

    assert parse_temperature(" 0.5 ") == 0.5 and parse_temperature("２") == 2.0
    for bad in ["", "hot", "0", "1e9", "nan"]:
        with pytest.raises(InputError) as info:
            parse_temperature(bad)
        assert info.value.code == "temperature"
        limits = (info.value.params["lo"], info.value.params["hi"])
        assert limits == (MIN_TEMPERATURE, MAX_TEMPERATURE)


def test_convex_check_holds_for_identical_large_values():
    """999999.7 three times: the weighted sum rounds a few ulps away from 999999.7, which is
    no escape from the hull; the tolerance scales with the values' magnitude."""
    s = attend([1, 0], [[1, 0], [0, 1], [1, 1]], [[999999.7]] * 3)
    assert bool(np.all(s.inside))


def test_convex_check_still_catches_an_output_outside_the_values():
    from dataclasses import replace

    s = attend([1, 0], [[1, 0], [0, 1], [1, 1]], [[999999.7], [5.0], [3.0]])
    assert bool(np.all(s.inside))
    outside = replace(s, output=s.hi + 1e-6 * abs(s.hi))  # a millionth beyond the largest
    assert not bool(np.any(outside.inside))
    below = replace(s, output=s.lo - 1e-9 * np.maximum(1.0, abs(s.hi)) * 1e3)
    assert not bool(np.any(below.inside))


@pytest.mark.parametrize("d", [1, 3, 64, 300, 4096])
def test_dimension_experiment_measures_sigma_near_sqrt_d(d):
    """σ(q·k) is measured over many independent pairs, so it agrees with the text's √d."""
    for seed in range(5):
        exp = dimension_experiment(d, 8, seed=seed)
        assert exp.pairs >= 400
        # the sample std of N draws has a relative error about 1/√(2N): well under 10 % here
        assert abs(exp.score_std / math.sqrt(d) - 1) < 0.1, (d, seed, exp.score_std)
