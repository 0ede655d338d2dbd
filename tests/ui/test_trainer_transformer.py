"""Pilot tests of the training screen with the Transformer chosen: a live run with a map per
head, positions off and why it fails, F9 and F10 over positional encodings, and the trained
model opened in the lab with the very weights the core trains.

Runs are small (length 6–10, a few hundred iterations, well under a second of training).
"""

import os
from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest
from textual.widgets import Input, Select

from attn_tui import paths
from attn_tui.app import AttnApp
from attn_tui.core.models import transformer_file
from attn_tui.core.models.loop import run_to_end
from attn_tui.core.models.transformer_trainer import TransformerConfig
from attn_tui.screens.lab import LabScreen
from attn_tui.widgets.lab.settings import TRAINED

from .conftest import shown
from .test_trainer import as_shown, finish, open_trainer, text, until


async def choose_transformer(pilot, **settings):
    """Open the trainer, choose the Transformer, then fill ``settings`` (fields by id)."""
    screen = await open_trainer(pilot)
    screen.query_one("#model", Select).value = "transformer"
    await pilot.pause()
    for field, value in settings.items():
        widget = screen.query(f"#{field}").first()
        widget.value = value if isinstance(widget, Select) else str(value)
    await pilot.pause()
    return screen


@pytest.mark.slow  # a walk through every Transformer setting
async def test_choosing_the_transformer_shows_its_settings_and_its_recipe():
    async with AttnApp(lang="en").run_test(size=(80, 24)) as pilot:
        screen = await open_trainer(pilot, pace="watch")
        # (the Transformer's rows are built the first time it is chosen: none is shown)
        assert not any(task.parent.display for task in screen.query("#task"))
        screen.query_one("#model", Select).value = "transformer"
        await pilot.pause()
        assert screen.query_one("#task").parent.display
        assert not screen.query_one("#variant").parent.display
        # the Transformer's recipe replaces the RNN's starting figures
        assert screen.query_one("#iters", Input).value == "300"
        assert screen.query_one("#lr", Input).value == "0.01"
        assert screen.live.config == TransformerConfig(eval_every=screen.live.config.eval_every)
        assert f"{TransformerConfig().n_params} parameters" in text(screen, "#outcome")
        screen.query_one("#task", Select).value = "sort"
        await pilot.pause()
        assert screen.query_one("#iters", Input).value == "3000"
        screen.query_one("#heads", Input).value = "3"
        await pilot.pause()
        assert "3 heads cannot split d_model = 16" in text(screen, "#train-error")
        screen.query_one("#model", Select).value = "rnn"
        await pilot.pause()
        assert screen.query_one("#iters", Input).value == "3000"  # L 10's recipe
        assert screen.query_one("#lr", Input).value == "0.003"


async def test_a_two_head_run_draws_every_head_and_its_figures_as_the_core_measures():
    async with AttnApp(lang="en").run_test(size=(80, 24)) as pilot:
        screen = await choose_transformer(pilot, length=6, heads=2, layers=2, iters=120)
        await pilot.press("f5")
        await finish(pilot)
        result = screen.live.result
        assert result.outcome.kind == "finished"
        core = run_to_end(replace(screen.live.config, eval_every=0))
        np.testing.assert_array_equal(result.losses, core.losses)
        assert result.seq_acc == core.seq_acc
        heat = shown(screen.query_one("#heat"), 80)
        rows = [line.split() for line in heat.splitlines() if line.startswith("L")]
        assert rows == [
            [
                f"L{h.layer}",
                f"H{h.head}",
                f"{h.mirror:.2f}",
                f"{h.by_symbol:.2f}",
                f"{h.by_position:.2f}",
            ]
            for h in core.final.heads
        ]
        assert "Every head of every layer" in heat and "head 2" in heat
        accuracy = text(screen, "#accuracy")
        assert f"whole {core.seq_acc:.3f}" in accuracy


async def test_positions_off_fails_reversal_and_the_screen_says_why():
    async with AttnApp(lang="en").run_test(size=(80, 24)) as pilot:
        screen = await choose_transformer(pilot, positions="none")
        await pilot.press("f5")
        await finish(pilot)
        result = screen.live.result
        assert result.seq_acc <= 0.01 and 1 / 6 < result.pos_acc <= 0.4
        outcome = text(screen, "#outcome", 200)
        assert f"right {result.ceiling:.3f} of the time" in outcome
        assert f"This run: {result.pos_acc:.3f}" in outcome and "1/6" in outcome


@pytest.mark.slow  # two comparisons in child processes
async def test_f9_and_f10_compare_positional_encodings():
    async with AttnApp(lang="en").run_test(size=(120, 40)) as pilot:
        screen = await choose_transformer(pilot, length=6, iters=200, seeds=2)
        screen.query_one("#tf-versus", Select).value = "none"
        await pilot.pause()
        await pilot.press("f9")
        await finish(pilot)
        await pilot.pause()
        learned, blind = screen.live.pair
        assert (learned.config.positions, blind.config.positions) == ("learned", "none")
        assert f"positions off whole {blind.seq_acc:.3f}" in text(screen, "#outcome", 200)
        await pilot.press("f10")
        await finish(pilot)
        await pilot.pause()
        assert {v: len(r) for v, r in screen.tables.runs.items()} == {"none": 2, "learned": 2}
        multi = text(screen, "#multi", 100)
        whole = [run_to_end(replace(screen.tables.comparison[0], positions="none", seed=s)).seq_acc
                 for s in (0, 1)]  # fmt: skip
        assert "2 seeds" in multi and "blind ceiling" in multi
        assert f"{np.mean(whole):.3f}±{np.std(whole, ddof=1):.3f}" in multi
        assert "Transformer runs this session" in text(screen, "#session", 100)


@pytest.mark.slow  # retrains, then compares with the core
async def test_a_trained_transformer_opens_in_the_lab_with_its_weights():
    """Train on the screen, ctrl+o: the lab shows the weights the core trains with these
    settings, on the run's probe sequence."""
    async with AttnApp(lang="en").run_test(size=(80, 24)) as pilot:
        screen = await choose_transformer(pilot, length=8, heads=2, iters=150, seed=3)
        await pilot.press("f5")
        await finish(pilot)
        assert "ctrl+o opens it in the lab" in text(screen, "#outcome", 200)
        path = paths.last_transformer(Path(os.environ["ATTN_TUI_DATA_DIR"]))
        assert path.is_file()
        await pilot.press("ctrl+o")
        await pilot.pause()
        lab = pilot.app.screen
        assert isinstance(lab, LabScreen)
        await until(lambda: lab.form.saved is not None and lab.form.result is not None)
        assert lab.query_one("#sentence", Select).value == TRAINED
        core = run_to_end(TransformerConfig(length=8, heads=2, iters=150, seed=3))
        layer = core.model.layers[0]
        for name in ("W_Q", "W_K", "W_V", "W_O"):
            np.testing.assert_allclose(
                getattr(lab.form.result.proj, name), getattr(layer, name), rtol=1e-6
            )  # float32 training, float64 in the lab
        probe = core.final.probe.x
        assert lab.query_one("#sequence", Input).value == "".join("ABCDEF"[s] for s in probe)
        np.testing.assert_allclose(lab.form.result.weights, core.final.probe.attention[0],
                                   atol=1e-5)  # fmt: skip
        # a second run replaces it, and ctrl+o shows the new one even with the lab open
        await pilot.app.switch_mode("train")  # the same screen, its settings kept
        await pilot.pause()
        trainer = pilot.app.screen
        assert trainer is screen
        trainer.query_one("#seed", Input).value = "4"
        await pilot.pause()
        await pilot.press("f5")
        await finish(pilot)
        await pilot.press("ctrl+o")
        await pilot.pause()
        await until(lambda: lab.form.saved is not None and lab.form.saved.config.seed == 4)
        kept = transformer_file.load(path)
        np.testing.assert_array_equal(lab.form.result.proj.W_Q, kept.model.layers[0].W_Q)
        # and coming back to the lab by the home screen shows the newest one too
        await pilot.app.switch_mode("train")
        await pilot.pause()
        screen.query_one("#seed", Input).value = "5"
        await pilot.pause()
        await pilot.press("f5")
        await finish(pilot)
        await pilot.app.switch_mode("lab")
        await pilot.pause()
        await until(lambda: lab.form.saved is not None and lab.form.saved.config.seed == 5)
        core = run_to_end(TransformerConfig(length=8, heads=2, iters=150, seed=5))
        np.testing.assert_allclose(lab.form.result.proj.W_K, core.model.layers[0].W_K, rtol=1e-6)


async def test_ctrl_o_without_a_trained_transformer_says_what_to_do():
    async with AttnApp(lang="en").run_test(size=(80, 24)) as pilot:
        screen = await open_trainer(pilot)
        await pilot.press("ctrl+o")
        await pilot.pause()
        assert pilot.app.screen is screen
        assert any("No Transformer trained yet" in n.message for n in pilot.app._notifications)


@pytest.mark.slow  # a walk over panels and sizes
async def test_every_live_panel_is_as_tall_as_its_lines_when_a_line_wraps():
    """At 80 columns 'Held-out at 3,000: whole … · per letter …' wraps; the panel must grow
    with it, or its last row (each position's %) falls off the end."""
    async with AttnApp(lang="en").run_test(size=(80, 24)) as pilot:
        screen = await choose_transformer(pilot, task="sort", pace="fast")  # 3,000 iterations
        await pilot.press("f5")
        await finish(pilot)
        await pilot.pause()
        for selector in ("#progress", "#accuracy", "#heat"):
            widget = screen.query_one(selector)
            lines = as_shown(screen, selector)
            assert widget.size.height == len(lines), selector
        accuracy = as_shown(screen, "#accuracy")
        assert "Held-out at 3,000" in accuracy[0] and accuracy[-1].split()[0] in ("%", "█")
