"""Snapshots of the training screen on a fresh start and after the default run (F5 on a fresh
screen: q·k attention, length 10, 3000 iterations at the watchable pace) has finished, at 80×24
and 120×40, in Chinese and English. The finished run must show the reversal diagonal.

The run is seeded, so every number is fixed except the timing; the test sets the training
time the screen shows to 1 s before the snapshot so speed and elapsed time are fixed too.
The Transformer (reversal, L 10, learned positions, seed 0, 300 iterations at full speed) is
snapshotted after its run, and the lab after ctrl+o has opened that run's model.

Refresh with `pytest tests/ui/test_trainer_snapshots.py --snapshot-update` and look at each
changed SVG before committing it.
"""

import pytest
from textual.widgets import Input, Select, TextArea

from attn_tui.app import AttnApp
from attn_tui.screens.lab import LabScreen
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
    assert screen.live.result.outcome.kind == "finished"
    weights = screen.live.result.final.probe.attention
    assert (weights.argmax(axis=1) == [9 - i for i in range(10)]).all()  # the diagonal
    screen.live.wall = 1.0  # the one figure that depends on the machine
    screen.live.redraw()
    await pilot.pause()


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
@pytest.mark.parametrize("lang", ["en", "zh"])
def test_trainer_before_training(snap_compare, lang, size):
    assert snap_compare(AttnApp(lang=lang), terminal_size=size, run_before=_before)


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
@pytest.mark.parametrize("lang", ["en", "zh"])
def test_trainer_after_the_default_run(snap_compare, lang, size):
    assert snap_compare(AttnApp(lang=lang), terminal_size=size, run_before=_after_default_run)


async def _after_a_transformer_run(pilot) -> TrainerScreen:
    screen = await _open(pilot)
    screen.query_one("#model", Select).value = "transformer"
    screen.query_one("#pace", Select).value = "fast"
    await pilot.pause()
    await pilot.press("f5")
    await pilot.app.workers.wait_for_complete()
    await pilot.pause()
    assert screen.live.result.outcome.kind == "finished" and screen.live.result.seq_acc >= 0.99
    screen.live.wall = 1.0  # the one figure that depends on the machine
    screen.live.redraw()
    await pilot.pause()
    return screen


async def _lab_on_the_run(pilot) -> None:
    await _after_a_transformer_run(pilot)
    await pilot.press("ctrl+o")
    await pilot.pause()
    lab = pilot.app.screen
    assert isinstance(lab, LabScreen) and lab.form.saved is not None
    for widget in [*lab.query(Input), *lab.query(TextArea)]:
        widget.cursor_blink = False
    await pilot.pause()


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
@pytest.mark.parametrize("lang", ["en", "zh"])
def test_trainer_after_a_transformer_run(snap_compare, lang, size):
    assert snap_compare(AttnApp(lang=lang), terminal_size=size, run_before=_after_a_transformer_run)


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
@pytest.mark.parametrize("lang", ["en", "zh"])
def test_lab_opened_on_the_transformer_run(snap_compare, lang, size):
    assert snap_compare(AttnApp(lang=lang), terminal_size=size, run_before=_lab_on_the_run)
