"""What the calculator says where float64 runs out: an underflowed weight, and exact ties.

- The underflow note named 10⁻³⁰⁸ "the smallest positive float"; that is the smallest *normal*
  one. Subnormals go down to 2⁻¹⁰⁷⁴ ≈ 4.9 × 10⁻³²⁴, and exp gives 0 only below about −745.
- The hard max says the first largest score wins; with 42 copies of one key it named k₄₂.
"""

import math

import numpy as np
import pytest
from textual.widgets import Input, TextArea

from attn_tui.app import AttnApp
from attn_tui.core.attention.steps import EXP_UNDERFLOW, SMALLEST_NORMAL, SMALLEST_POSITIVE
from attn_tui.widgets.fields import Tick

from .test_calculator import open_calculator, steps_text


async def _show_step_3(pilot, screen, query: str, keys: str):
    screen.query_one("#query", Input).value = query
    screen.query_one("#keys", TextArea).text = keys
    await pilot.pause()
    screen.step = 3
    await pilot.pause()
    return screen


def test_the_float_limits_are_where_float64_puts_them():
    # independent arithmetic: the limits as powers of two, and exp on either side of the edge
    assert SMALLEST_POSITIVE == 2.0**-1074 and SMALLEST_POSITIVE / 2 == 0.0
    assert SMALLEST_NORMAL == 2.0**-1022 and 0.0 < SMALLEST_NORMAL / 2 < SMALLEST_NORMAL
    assert np.exp(EXP_UNDERFLOW + 0.01) == SMALLEST_POSITIVE
    assert np.exp(EXP_UNDERFLOW - 0.01) == 0.0
    assert np.exp(-709.0) < SMALLEST_NORMAL  # exp is subnormal well before it is 0


@pytest.mark.parametrize("lang", ["en", "zh"])
async def test_the_underflow_note_gives_the_smallest_positive_float(lang):
    async with AttnApp(lang=lang).run_test(size=(120, 40)) as pilot:
        screen = await _show_step_3(
            pilot, await open_calculator(pilot), "1000 1000", "1000 1000\n0 0"
        )
        assert screen.result.weights.tolist() == [1.0, 0.0]
        text = "".join(steps_text(screen).split())  # zh wraps without spaces
        assert "4.9×10⁻³²⁴" in text  # 2⁻¹⁰⁷⁴, a subnormal
        assert "2.2×10⁻³⁰⁸" in text  # the smallest normal one, named as such
        assert "−745" in text and f"{EXP_UNDERFLOW:.0f}" == "-745"
        assert "约10⁻³⁰⁸" not in text and "(about10⁻³⁰⁸)" not in text  # the old wording


@pytest.mark.parametrize("lang", ["en", "zh"])
async def test_the_hard_max_names_the_first_of_42_equal_keys(lang):
    rng = np.random.default_rng(0)
    q, k = rng.normal(size=27), rng.normal(size=27)  # full precision: str() round-trips
    async with AttnApp(lang=lang).run_test(size=(120, 40)) as pilot:
        screen = await open_calculator(pilot)
        screen.query_one("#hard", Tick).value = True
        keys = "\n".join([" ".join(map(str, k))] * 42)
        await _show_step_3(pilot, screen, " ".join(map(str, q)), keys)
        assert screen.result.hard and len(screen.result.scores) == 42
        assert screen.result.weights[0] == 1.0 and math.fsum(screen.result.weights) == 1.0
        text = "".join(steps_text(screen).split())
        assert ("(k₁)" in text) or ("（k₁）" in text)


@pytest.mark.parametrize("lang", ["en", "zh"])
@pytest.mark.parametrize("values", ["", "1 0\n0 1"])
async def test_the_hard_max_says_which_vectors_still_get_a_gradient(lang, values):
    """With values = keys (the calculator's default) the chosen key gets a gradient as a value:
    'no learning signal reaches the keys' was false there."""
    async with AttnApp(lang=lang).run_test(size=(120, 40)) as pilot:
        screen = await open_calculator(pilot)
        screen.query_one("#hard", Tick).value = True
        screen.query_one("#values", TextArea).text = values
        await _show_step_3(pilot, screen, "1 0", "2 0\n0 1")
        text = "".join(steps_text(screen).split())
        if values:  # separate values: only the chosen value learns
            assert ("chosenvalue" in text) or ("选中的那个值" in text)
        else:
            assert ("roleasavalue" in text) or ("以“值”的身份" in text)
