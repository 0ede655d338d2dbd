"""Snapshots of the training screen on a fresh start and after the default run (F5 on a fresh
screen: q·k attention, length 10, 3000 iterations at the watchable pace) has finished, at 80×24
and 120×40, in Chinese and English. The finished run must show the reversal diagonal.

A trained screen is drawn from a stored run (tests/ui/stored_runs/, see
scripts/stored_runs.py), put on the screen with ``TrainerScreen.show_finished`` (what the
run's owner reports, without a child process): a run trained here would end wherever this
CPU's BLAS rounding led float32 training (OpenBLAS picks a kernel per CPU), and the picture
would differ between machines. tests/ui/test_stored_runs.py
checks that the stored runs are the runs F5 starts, and that a fresh run lands where they did.
The Transformer (reversal, L 10, learned positions, seed 0, 300 iterations) is snapshotted
after its run, and after a run of each pattern task (its head a previous-token line, a band,
a stripe or blocks), and the lab after ctrl+o has opened that run's model (float64 inference on
stored weights: no training, nothing amplified).

Refresh with `pytest tests/ui/test_trainer_snapshots.py --snapshot-update` and look at each
changed SVG before committing it.
"""

from pathlib import Path

import pytest
from textual.widgets import Input, Select, TextArea

from attn_tui.app import AttnApp
from attn_tui.core.models import figures, stored_run
from attn_tui.core.models.machine import Machine
from attn_tui.render import beside
from attn_tui.screens.lab import LabScreen
from attn_tui.screens.numpy_view import NumpyScreen
from attn_tui.screens.trainer import TrainerScreen

SIZES = [(80, 24), (120, 40)]
STORED = Path(__file__).parent / "stored_runs"


@pytest.fixture(autouse=True)
def _same_machine_as_the_table(monkeypatch):
    """The screen names this machine's BLAS kernel when it differs from the stored table's;
    a snapshot draws as if on the table's own machine, so it is the same on every CPU."""
    made = figures.load().made
    monkeypatch.setattr(beside, "machine", lambda: Machine(**made))


async def replay(pilot, screen: TrainerScreen, name: str):
    """Put a stored run on the screen as if it had just finished training there."""
    result = stored_run.load(STORED / name)
    screen.show_finished(result)
    await pilot.pause()
    return result


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
    await replay(pilot, screen, "rnn_default.json")
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
    await replay(pilot, screen, "transformer_default.json")
    result = screen.live.result
    assert result.outcome.kind == "finished" and result.seq_acc >= 0.99
    screen.live.wall = 1.0  # the one figure that depends on the machine
    screen.live.redraw()
    await pilot.pause()
    return screen


PATTERN_TASKS = ("previous", "local", "first", "block")


def _after_a_pattern_run(task: str):
    async def run_before(pilot) -> None:
        screen = await _open(pilot)
        screen.query_one("#model", Select).value = "transformer"
        screen.query_one("#pace", Select).value = "fast"
        await pilot.pause()
        screen.query_one("#task", Select).value = task
        await pilot.pause()
        await replay(pilot, screen, f"transformer_{task}.json")
        assert screen.live.result.config.task == task
        screen.live.wall = 1.0  # the one figure that depends on the machine
        screen.live.redraw()
        await pilot.pause()

    return run_before


def _after_the_induction_run(keys: tuple[str, ...] = ()):
    """The induction run replayed (two layers' maps with their scores, the loss's plateau and
    drop marked), then ``keys`` pressed (a: the previous-token head switched off)."""

    async def run_before(pilot) -> None:
        await _after_a_pattern_run("induction")(pilot)
        screen = pilot.app.screen
        for key in keys:
            await pilot.press(key)
            await pilot.pause()
        assert screen.live.ablated == ("a" in keys)
        await pilot.pause()

    return run_before


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
@pytest.mark.parametrize("lang", ["en", "zh"])
def test_trainer_after_the_induction_run(snap_compare, lang, size):
    """Layer 1 a previous-token line under the diagonal, layer 2 the induction stripe (each
    copied row on the token after its earlier occurrence); the plateau (━) and the drop (▼)
    under the loss curve."""
    run_before = _after_the_induction_run()
    assert snap_compare(AttnApp(lang=lang), terminal_size=size, run_before=run_before)


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
@pytest.mark.parametrize("lang", ["en", "zh"])
def test_trainer_induction_with_its_previous_token_head_off(snap_compare, lang, size):
    """a: layer 2's stripe gone, the ablation table beside the trained model's figures."""
    run_before = _after_the_induction_run(("a",))
    assert snap_compare(AttnApp(lang=lang), terminal_size=size, run_before=run_before)


async def _lab_on_the_induction_run(pilot) -> None:
    await _after_the_induction_run()(pilot)
    await pilot.press("ctrl+o")
    await pilot.pause()
    lab = pilot.app.screen
    assert isinstance(lab, LabScreen) and lab.form.saved.config.task == "induction"
    for widget in [*lab.query(Input), *lab.query(TextArea)]:
        widget.cursor_blink = False
    await pilot.pause()


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
@pytest.mark.parametrize("lang", ["en", "zh"])
def test_lab_opened_on_the_induction_run(snap_compare, lang, size):
    """ctrl+o: the induction model in the lab, its 32 tokens as the axes' labels."""
    assert snap_compare(AttnApp(lang=lang), terminal_size=size,
                        run_before=_lab_on_the_induction_run)  # fmt: skip


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
# the fast tier draws the screen after one pattern run; the other three (the same screen with
# another head's map) are slow in every language and size
@pytest.mark.parametrize(
    "task",
    [PATTERN_TASKS[0], *(pytest.param(t, marks=pytest.mark.slow) for t in PATTERN_TASKS[1:])],
)
def test_trainer_after_a_pattern_run(snap_compare, task, lang, size):
    """The trained head reads as the chapter draws it: a line under the diagonal (previous),
    a band along it (local), a stripe down column 1 (first), squares along it (block)."""
    run_before = _after_a_pattern_run(task)
    assert snap_compare(AttnApp(lang=lang), terminal_size=size, run_before=run_before)


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
@pytest.mark.parametrize("lang", ["en", "zh"])
def test_lab_opened_on_the_transformer_run(snap_compare, lang, size):
    assert snap_compare(AttnApp(lang=lang), terminal_size=size, run_before=_lab_on_the_run)


async def _numpy_of_the_default_run(pilot) -> None:
    """ctrl+n after the default run: the readable RNN, scrolled to its last line (End), the
    call with that run's settings."""
    screen = await _open(pilot)
    await replay(pilot, screen, "rnn_default.json")
    await pilot.press("ctrl+n")
    await pilot.pause()
    page = pilot.app.screen
    assert isinstance(page, NumpyScreen)
    page.query_one("#numpy-view").scroll_end(animate=False, immediate=True)
    await pilot.pause()


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
@pytest.mark.parametrize("lang", ["en", "zh"])
def test_trainer_numpy_behind_the_run(snap_compare, lang, size):
    assert snap_compare(
        AttnApp(lang=lang), terminal_size=size, run_before=_numpy_of_the_default_run
    )


async def _numpy_of_the_transformer_run(pilot) -> None:
    """ctrl+n after the Transformer's run: the readable Transformer, scrolled to its last line
    (End), the call with that run's settings."""
    await _after_a_transformer_run(pilot)
    await pilot.press("ctrl+n")
    await pilot.pause()
    page = pilot.app.screen
    assert isinstance(page, NumpyScreen)
    page.query_one("#numpy-view").scroll_end(animate=False, immediate=True)
    await pilot.pause()


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
@pytest.mark.parametrize("lang", ["en", "zh"])
def test_trainer_numpy_behind_a_transformer_run(snap_compare, lang, size):
    assert snap_compare(
        AttnApp(lang=lang), terminal_size=size, run_before=_numpy_of_the_transformer_run
    )
