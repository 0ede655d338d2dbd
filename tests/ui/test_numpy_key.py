"""F9 on the calculator and the lab shows the numpy behind the screen, and that code computes
the numbers on show; elsewhere F9 does nothing of ours."""

from __future__ import annotations

import numpy as np

from attn_tui.app import AttnApp
from attn_tui.core.attention import as_numpy
from attn_tui.screens.numpy_view import NumpyScreen


async def test_f9_on_the_calculator_shows_code_that_gives_its_output():
    app = AttnApp(lang="en")
    async with app.run_test(size=(80, 24)) as pilot:
        app.switch_mode("calc")
        await pilot.pause()
        calc = app.screen
        await pilot.press("f9")
        await pilot.pause()
        assert isinstance(app.screen, NumpyScreen)
        ns = as_numpy.run(app.screen.source)
        assert np.allclose(ns["output"], calc.result.output)
        assert np.allclose(ns["output"], [0.8707, 0.3595, 0.4102], atol=5e-5)
        await pilot.press("escape")
        await pilot.pause()
        assert app.screen is calc


async def test_f9_on_the_lab_shows_code_that_gives_its_weights():
    app = AttnApp(lang="en")
    async with app.run_test(size=(120, 40)) as pilot:
        app.switch_mode("lab")
        await pilot.pause()
        screen = app.screen
        await pilot.press("f9")
        await pilot.pause()
        assert isinstance(app.screen, NumpyScreen)
        ns = as_numpy.run(app.screen.source)
        shown = next(
            h.result for h in [screen, *screen.query("*")] if getattr(h, "result", None) is not None
        )
        assert np.allclose(ns["A"], shown.weights)


async def test_f9_elsewhere_opens_nothing():
    app = AttnApp(lang="en")
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("f9")
        await pilot.pause()
        assert not isinstance(app.screen, NumpyScreen)
