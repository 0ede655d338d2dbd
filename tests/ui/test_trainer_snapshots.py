"""Snapshots of the training screen on a fresh start and after the default run (F5 on a fresh
screen: q·k attention, length 10, 3000 iterations at the watchable pace) has finished, at 80×24
and 120×40, in Chinese and English. The finished run must show the reversal diagonal.

The run is seeded, so every number is fixed except the timing; the test sets the training
time the screen shows to 1 s before the snapshot so speed and elapsed time are fixed too.
Refresh with `pytest tests/ui/test_trainer_snapshots.py --snapshot-update` and look at each
changed SVG before committing it.
"""

import pytest
from textual.widgets import Input

from attn_tui.app import AttnApp
from attn_tui.screens.trainer import TrainerScreen

SIZES = [(80, 24), (120, 40)]


async def _open(pilot) -> TrainerScreen:
    await pilot.press("down", "enter")
    await pilot.pause()
    screen = pilot.app.screen
    assert isinstance(screen, TrainerScreen)
    for widget in screen.query(Input):
        widget.cursor_blink = False
    return screen


async def _before(pilot) -> None:
    await _open(pilot)
    await pilot.pause()


async def _after_default_run(pilot) -> None:
    screen = await _open(pilot)
    await pilot.press("f5")
    await pilot.app.workers.wait_for_complete()
    await pilot.pause()
    assert screen.result.outcome.kind == "finished"
    weights = screen.result.final.probe.attention
    assert (weights.argmax(axis=1) == [9 - i for i in range(10)]).all()  # the diagonal
    screen.wall = 1.0  # the one figure that depends on the machine
    screen.redraw()
    await pilot.pause()


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
@pytest.mark.parametrize("lang", ["en", "zh"])
def test_trainer_before_training(snap_compare, lang, size):
    assert snap_compare(AttnApp(lang=lang), terminal_size=size, run_before=_before)


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
@pytest.mark.parametrize("lang", ["en", "zh"])
def test_trainer_after_the_default_run(snap_compare, lang, size):
    assert snap_compare(AttnApp(lang=lang), terminal_size=size, run_before=_after_default_run)
