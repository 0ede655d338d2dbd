"""Snapshots of each screen at 80×24 and 120×40, in Chinese and English.

Refresh with `pytest tests/ui/test_screen_snapshots.py --snapshot-update` and look at every changed
SVG before committing it.
"""

import pytest
from textual.widgets import Input, TextArea

from attn_tui.app import AttnApp


async def _still(pilot) -> None:
    """No blinking cursors, so two runs draw the same picture."""
    for widget in pilot.app.screen.query("Input, TextArea"):
        assert isinstance(widget, Input | TextArea)
        widget.cursor_blink = False
    await pilot.pause()


def _calc(*keys: str):
    async def run_before(pilot) -> None:
        await pilot.press("enter")
        await pilot.pause()
        if keys:
            pilot.app.screen.query_one("#steps").focus()
            await pilot.press(*keys)
        await _still(pilot)

    return run_before


SIZES = [(80, 24), (120, 40)]


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
@pytest.mark.parametrize("lang", ["en", "zh"])
def test_home(snap_compare, lang, size):
    async def run_before(pilot) -> None:
        import time

        from attn_tui import coursebook

        deadline = time.monotonic() + 30  # the course loads off the UI thread
        while coursebook.loaded(pilot.app) is None and time.monotonic() < deadline:
            await pilot.pause(0.05)
        await pilot.pause()
        await _still(pilot)

    assert snap_compare(AttnApp(lang=lang), terminal_size=size, run_before=run_before)


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
@pytest.mark.parametrize("lang", ["en", "zh"])
def test_calculator_first_step(snap_compare, lang, size):
    assert snap_compare(AttnApp(lang=lang), terminal_size=size, run_before=_calc())


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
@pytest.mark.parametrize("lang", ["en", "zh"])
def test_calculator_softmax_step(snap_compare, lang, size):
    assert snap_compare(AttnApp(lang=lang), terminal_size=size, run_before=_calc("n", "n"))


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_calculator_weighted_sum(snap_compare, lang):
    assert snap_compare(
        AttnApp(lang=lang), terminal_size=(120, 40), run_before=_calc("n", "n", "n")
    )


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_calculator_fault(snap_compare, lang):
    async def run_before(pilot) -> None:
        await pilot.press("enter")
        await pilot.pause()
        pilot.app.screen.query_one("#query", Input).value = "1 0 x"
        await _still(pilot)

    assert snap_compare(AttnApp(lang=lang), terminal_size=(80, 24), run_before=run_before)


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_dimension_experiment(snap_compare, lang):
    assert snap_compare(AttnApp(lang=lang), terminal_size=(80, 24), run_before=_calc("f4"))


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_help_overlay(snap_compare, lang):
    assert snap_compare(AttnApp(lang=lang), terminal_size=(80, 24), run_before=_calc("f1"))
