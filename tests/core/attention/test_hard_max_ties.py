"""Equal keys score equally, to the last bit, so the hard max takes the first of them.

The calculator says "the first largest score gets weight 1". With ``K @ q`` the last bits of
equal rows could differ (BLAS splits rows between SIMD lanes and a tail loop): 42 copies of
one key at d = 27 scored two different values and the hard max picked key 41.
"""

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from attn_tui.core.attention.steps import attend, row_dots
from attn_tui.core.parse import MAX_DIM, MAX_ROWS

_entry = st.floats(-1e3, 1e3, allow_nan=False, allow_infinity=False)


@st.composite
def _repeated_key(draw):
    d = draw(st.integers(1, MAX_DIM))
    q = draw(st.lists(_entry, min_size=d, max_size=d))
    k = draw(st.lists(_entry, min_size=d, max_size=d))
    n = draw(st.integers(2, MAX_ROWS))
    return np.array(q), np.tile(np.array(k), (n, 1))


@settings(max_examples=200, deadline=None)
@given(_repeated_key())
def test_copies_of_one_key_get_one_score_and_the_first_copy_wins(case):
    q, K = case
    steps = attend(q, K, hard=True)
    assert len(set(steps.scores.tolist())) == 1
    assert steps.weights.tolist() == [1.0] + [0.0] * (len(K) - 1)


def test_the_case_that_picked_key_41():
    rng = np.random.default_rng(0)
    for d in (27, 34, 64):
        q, k = rng.normal(size=d), rng.normal(size=d)
        steps = attend(q, np.tile(k, (42, 1)), hard=True)
        assert int(np.argmax(steps.weights)) == 0, d
        assert np.unique(steps.scores).size == 1


def test_a_later_exact_tie_of_different_keys_still_loses_to_the_first():
    # (1, 2)·(1, 1) = (2, 1)·(1, 1) = 3 exactly; (0, 1) scores 1
    steps = attend([1, 1], [[0, 1], [1, 2], [2, 1]], hard=True)
    assert steps.weights.tolist() == [0.0, 1.0, 0.0]


def test_row_dots_are_the_dot_products():
    rng = np.random.default_rng(1)
    K, q = rng.normal(size=(9, 17)), rng.normal(size=17)
    expected = [sum(a * b for a, b in zip(row, q, strict=True)) for row in K.tolist()]
    np.testing.assert_allclose(row_dots(K, q), expected, rtol=1e-12)
