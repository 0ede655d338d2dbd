"""The induction run on the training screen: the task row sets its recipe, the loss's plateau
and drop are marked as the losses arrive (PhaseDetector, fed chunk by chunk), both layers'
heads are drawn with their scores, and ``a`` switches layer 1's previous-token head off after
the run — the maps become the ablated model's and a table sets its figures beside the trained
ones.

Nothing here trains: the finished run is the stored one the snapshots replay
(tests/ui/stored_runs/transformer_induction.json), and the live losses are made up, a plateau
then a fall, so what the detector must find is known by construction.
"""

from pathlib import Path

import numpy as np
from textual.widgets import Input, Select

from attn_tui.app import AttnApp
from attn_tui.core.models import phases, stored_run
from attn_tui.core.models.ablation import weights_without, without_head
from attn_tui.core.models.processes import Update
from attn_tui.core.models.transformer_trainer import TransformerConfig
from attn_tui.render.loss_curve import LossCurve, Mark, column_of
from attn_tui.widgets.training_run import TrainingRun

from .test_trainer import open_trainer, text

RUN = Path(__file__).parent / "stored_runs" / "transformer_induction.json"


async def choose_induction(pilot):
    screen = await open_trainer(pilot)
    screen.query_one("#model", Select).value = "transformer"
    await pilot.pause()
    screen.query_one("#task", Select).value = "induction"
    await pilot.pause()
    return screen


def row(screen, name: str) -> str:
    return screen.query_one(f"#{name}", Input).value


async def test_choosing_induction_sets_its_recipe_and_a_typed_figure_stays():
    async with AttnApp(lang="en").run_test(size=(120, 40)) as pilot:
        screen = await choose_induction(pilot)
        recipe = TransformerConfig.for_task("induction")
        shown = {name: row(screen, name) for name in ("length", "layers", "heads", "d_model",
                                                      "iters", "lr", "batch")}  # fmt: skip
        assert shown == {"length": "32", "layers": "2", "heads": "1", "d_model": "32",
                         "iters": "2000", "lr": "0.003", "batch": "32"}  # fmt: skip
        assert screen.form.read().config == recipe  # the mask and the held-out 500 too
        screen.query_one("#iters", Input).value = "1500"  # typed: kept across tasks
        await pilot.pause()
        screen.query_one("#task", Select).value = "reverse"
        await pilot.pause()
        assert (row(screen, "length"), row(screen, "layers"), row(screen, "d_model")) == (
            "10", "1", "16")  # fmt: skip
        assert row(screen, "iters") == "1500" and row(screen, "lr") == "0.01"
        assert screen.form.read().config.causal is False


def losses_with_a_phase_change() -> np.ndarray:
    """400 steps on a flat 4.1, then a fall of 3 nats over 200 steps, then flat at 1.1."""
    rng = np.random.default_rng(0)
    flat = 4.1 + rng.normal(0, 0.05, 400)
    fall = np.linspace(4.1, 1.1, 200) + rng.normal(0, 0.05, 200)
    return np.concatenate([flat, fall, 1.1 + rng.normal(0, 0.05, 400)])


async def test_the_plateau_and_the_drop_are_marked_as_the_losses_arrive():
    losses = losses_with_a_phase_change()
    whole = phases.detect(losses)
    assert whole.plateau_seen is not None and whole.drop_seen is not None  # (by construction)
    async with AttnApp(lang="en").run_test(size=(120, 40)) as pilot:
        screen = await choose_induction(pilot)
        config = screen.form.read().config
        screen.on_training_run_started(TrainingRun.Started(screen.run.run_id, config))
        live = screen.live
        seen = []
        for end in range(50, len(losses) + 1, 50):
            live.add(Update(end, losses[end - 50 : end], None, end / 1000))
            live.redraw()
            await pilot.pause()
            found = live.view().phases
            seen.append((end, found.plateau_start is not None, found.dropped))
            loss_text = text(screen, "#loss", 120)
            assert ("━" in loss_text) == (found.plateau_start is not None)
            assert ("▼" in loss_text) == found.dropped
        # each mark appears in the first report that holds the step that confirms it
        first_plateau = min(end for end, p, _ in seen if p)
        first_drop = min(end for end, _, d in seen if d)
        assert first_plateau - 50 < whole.plateau_seen <= first_plateau
        assert first_drop - 50 < whole.drop_seen <= first_drop
        assert live.view().phases == whole  # fed chunk by chunk, found as on the whole curve
        assert f"steps {whole.plateau_start}–{whole.plateau_end}" in text(screen, "#loss", 120)


async def test_a_switches_the_previous_token_head_off_and_on_after_the_run():
    result = stored_run.load(RUN)
    ablation = result.ablation
    async with AttnApp(lang="en").run_test(size=(120, 40)) as pilot:
        screen = await choose_induction(pilot)
        await pilot.press("a")  # nothing trained yet: a word, nothing switched
        await pilot.pause()
        assert not screen.live.ablated
        screen.show_finished(result)
        await pilot.pause()
        maps = text(screen, "#heat", 120)
        scores = {(h.layer, h.head): h.scores for h in result.final.heads}
        assert f"induction {scores[(2, 1)].induction:.2f}" in maps
        assert f"previous {scores[(1, 1)].previous:.2f}" in maps
        assert not screen.query_one("#ablation").display
        screen.live.action_earlier()  # somewhere in the timeline: a goes to the end's model
        await pilot.press("a")
        await pilot.pause()
        assert screen.live.ablated and screen.live.frame == len(result.snapshots) - 1
        table = text(screen, "#ablation", 120)
        for name in ("copy_acc", "induction"):
            before, after = getattr(ablation.before, name), getattr(ablation.after, name)
            assert f"{before:.3f} {after:.3f}" in table
        assert f"without it: induction {ablation.after.induction:.2f}" in text(screen, "#heat")
        # what the maps draw is the ablated model's, which differs from the trained in layer 2
        probe = np.array(result.final.probe.x)
        off = weights_without(result.model, ablation.off, probe)
        trained = result.final.probe.attention
        np.testing.assert_allclose(off[0], trained[0], atol=1e-5)  # layer 1 computes as before
        assert np.abs(off[1] - trained[1]).max() > 0.3
        await pilot.press("a")
        await pilot.pause()
        assert not screen.live.ablated and not screen.query_one("#ablation").display


async def test_scrubbing_the_timeline_switches_the_head_back_on():
    result = stored_run.load(RUN)
    async with AttnApp(lang="en").run_test(size=(120, 40)) as pilot:
        screen = await choose_induction(pilot)
        screen.show_finished(result)
        await pilot.pause()
        await pilot.press("a")
        await pilot.pause()
        assert screen.live.ablated
        await pilot.press("pageup")
        await pilot.pause()
        assert not screen.live.ablated and screen.live.frame == len(result.snapshots) - 2


async def test_a_does_nothing_on_a_run_without_an_ablation():
    result = stored_run.load(Path(__file__).parent / "stored_runs" / "transformer_previous.json")
    async with AttnApp(lang="en").run_test(size=(120, 40)) as pilot:
        screen = await open_trainer(pilot)
        screen.query_one("#model", Select).value = "transformer"
        await pilot.pause()
        screen.show_finished(result)
        await pilot.pause()
        await pilot.press("a")
        await pilot.pause()
        assert not screen.live.ablated


def test_weights_without_a_head_are_the_ablated_models_in_float64():
    result = stored_run.load(RUN)
    x = np.array(result.final.probe.x)
    off = weights_without(result.model, (1, 1), x)
    _, expected = without_head(result.model, 1, 1, dtype=np.float64).predict(x[None, :])
    assert off.dtype == np.float64
    np.testing.assert_array_equal(off, expected[0])
    _, float32 = without_head(result.model, 1, 1).predict(x[None, :])
    np.testing.assert_allclose(off, float32[0], atol=1e-4)  # the same model, other rounding


def test_the_loss_curves_marks_stand_over_their_steps():
    curve = LossCurve(np.ones(100), 100, height=2, marks=[Mark(11, 30, "━"), Mark(30, 40, "▼")])
    from rich.console import Console

    console = Console(width=60, record=True, color_system=None)
    console.print(curve)
    lines = console.export_text().splitlines()
    marks = lines[-2]  # above the axis line
    margin = len("1.00") + 1
    width = 60 - margin
    cols = [c - margin for c, ch in enumerate(marks) if ch in "━▼"]
    # step s sits in column floor((s - 1) * width / total): independent of column_of
    assert cols == list(range((11 - 1) * width // 100, (40 - 1) * width // 100 + 1))
    assert marks[margin + (30 - 1) * width // 100] == "▼"  # the later mark drawn over
    assert marks[margin + (27 - 1) * width // 100] == "━"  # (steps 29 and 30 share one)
    assert column_of(1, 100, width) == 0 and column_of(100, 100, width) == width - 1


def test_f10s_table_gives_the_induction_runs_own_figures_over_seeds():
    """Over the seeds done: copy accuracy, both heads, the ablation and the phases, as
    transformer_figures.task_summary computes them (two copies of one run: sd 0)."""
    from rich.console import Console

    from attn_tui.i18n import get_lang, set_lang
    from attn_tui.render.transformer import render_multi

    result = stored_run.load(RUN)
    was = get_lang()
    set_lang("en")
    try:
        shown = render_multi(result.config, (0, 1), ("none", "learned"),
                             {"learned": [result, result]}, running=False, width=100)  # fmt: skip
        console = Console(width=100, record=True, color_system=None)
        console.print(shown)
    finally:
        set_lang(was)
    out = " ".join(console.export_text().split())
    assert f"copy accuracy {result.pos_acc:.3f}±0.000" in out
    assert f"induction head {result.ablation.before.induction:.3f}±0.000" in out
    assert f"copy accuracy {result.ablation.after.copy_acc:.3f}±0.000" in out
    assert "2 of 2 seeds show a plateau and 2 a drop" in out
