"""The training screen's pieces on their own: the settings form and the run's owner.

The form reads one table of fields into a config that the config itself validates; the owner
runs training in a child process and relays it. Each is mounted alone in a small app.
"""

import asyncio
import multiprocessing
import time
from dataclasses import replace

import pytest
from textual.app import App, ComposeResult
from textual.widgets import Input, Select

from attn_tui.core.models.trainer import TrainConfig
from attn_tui.core.models.transformer_trainer import TransformerConfig
from attn_tui.core.parse import InputError
from attn_tui.i18n import describe
from attn_tui.widgets.trainer.models import MODELS
from attn_tui.widgets.trainer.settings import FIELDS, TrainSettings
from attn_tui.widgets.training_run import TrainingRun


class Host(App):
    """One piece, and every message it posts."""

    def __init__(self, piece) -> None:
        super().__init__()
        self.piece = piece
        self.heard: list = []

    def compose(self) -> ComposeResult:
        yield self.piece

    def on_train_settings_changed(self, message) -> None:
        self.heard.append(message)

    def on_training_run_started(self, message) -> None:
        self.heard.append(message)

    def on_training_run_progressed(self, message) -> None:
        self.heard.append(message)

    def on_training_run_finished(self, message) -> None:
        self.heard.append(message)

    def on_training_run_ended(self, message) -> None:
        self.heard.append(message)


async def until(condition, timeout: float = 20.0) -> None:
    start = time.perf_counter()
    while not condition():
        assert time.perf_counter() - start < timeout, "timed out"
        await asyncio.sleep(0.01)


# ---- the settings form -----------------------------------------------------------------------


@pytest.mark.parametrize(
    "config",
    [
        TrainConfig(length=7, iters=1234, seed=9, lr=0.02, batch=8, feed="none").with_variant(
            "general"
        ),
        TransformerConfig(
            task="sort",
            length=8,
            layers=2,
            heads=4,
            d_model=24,
            iters=77,
            seed=3,
            positions="sinusoidal",
            lr=0.05,
            batch=32,
        ),  # fmt: skip
    ],
    ids=["rnn", "transformer"],
)
async def test_fill_then_read_gives_the_config_back(config):
    form = TrainSettings()
    async with Host(form).run_test() as pilot:
        form.fill(config, versus="none" if isinstance(config, TrainConfig) else "learned")
        await pilot.pause()
        settings = form.read()
        assert settings.config == config
        assert settings.versus == ("none" if isinstance(config, TrainConfig) else "learned")
        assert settings.seeds == tuple(range(config.seed, config.seed + 10))


@pytest.mark.parametrize(
    "field, text, model",
    [("length", "abc", "rnn"), ("length", "0", "rnn"), ("iters", "", "rnn"),
     ("lr", "nan", "rnn"), ("batch", "5000", "rnn"), ("heads", "9", "transformer"),
     ("d_model", "x", "transformer"), ("seed", "1.5", "transformer")],
)  # fmt: skip
async def test_a_fault_is_the_configs_own_message(field, text, model):
    """What the form says about a bad field is what the model's config says of that value
    (text that is not a number is handed to the config as text)."""
    form = TrainSettings()
    async with Host(form).run_test() as pilot:
        form.set(model=model)
        await pilot.pause()
        form.query_one(f"#{field}", Input).value = text
        await pilot.pause()
        with pytest.raises(InputError) as raised:
            form.read()
        view = MODELS[model]
        value = text or "∅"
        for kind in (int, float):
            try:
                value = kind(text)
                break
            except ValueError:
                pass
        good = view.values(view.default)
        good.update({"task": "reverse", "positions": "learned"} if model == "transformer" else {})
        with pytest.raises(InputError) as expected:
            view.make({**good, field: value})
        assert describe(raised.value) == describe(expected.value)
        assert form.check() is None
        assert form.query_one("#train-error").said == describe(expected.value)


async def test_every_edit_posts_the_settings_or_none():
    form = TrainSettings()
    app = Host(form)
    async with app.run_test() as pilot:
        form.query_one("#length", Input).value = "12"
        await pilot.pause()
        last = [m for m in app.heard if isinstance(m, TrainSettings.Changed)][-1]
        assert last.settings is not None and last.settings.config.length == 12
        assert last.settings.config.iters == 3000  # the recipe followed the length
        form.query_one("#length", Input).value = "99"
        await pilot.pause()
        assert [m for m in app.heard if isinstance(m, TrainSettings.Changed)][-1].settings is None


async def test_choosing_the_transformer_shows_its_rows_and_its_recipe():
    form = TrainSettings()
    async with Host(form).run_test() as pilot:
        form.query_one("#model", Select).value = "transformer"
        await pilot.pause()
        assert form.query_one("#heads").parent.display and not form.query_one(
            "#variant").parent.display  # fmt: skip
        settings = form.read()
        assert settings.config == replace(TransformerConfig(), eval_every=100)
        assert settings.versus == "none"


async def test_the_transformer_rows_are_built_when_it_is_first_chosen_in_the_tables_order():
    """A fresh form builds the first model's rows only; a fill of the other model reads back
    at once (before its rows are mounted) and puts its rows, in FIELDS' order, holding it."""
    form = TrainSettings()
    async with Host(form).run_test() as pilot:
        assert not form.query("#heads") and form.query_one("#variant").parent.display
        config = TransformerConfig(task="sort", length=8, heads=4, d_model=24, iters=77)
        form.fill(config, versus="learned")
        assert form.read().config == config  # (the rows are still being mounted)
        await pilot.pause()
        assert form.read().config == config and form.read().versus == "learned"
        shown = [c.id for c in form.query("Input, Select") if c.parent.display]
        assert shown == [f.name for f in FIELDS if "transformer" in f.models or not f.models]
        assert form.query_one("#heads", Input).value == "4"
        assert form.query_one("#task", Select).value == "sort"


# ---- the run's owner -------------------------------------------------------------------------


def long_run(seed: int = 0) -> TrainConfig:
    return TrainConfig(length=5, iters=100_000, seed=seed)


async def test_a_replaced_run_says_nothing_more_and_its_child_is_gone():
    run = TrainingRun()
    app = Host(run)
    async with app.run_test() as pilot:
        first = run.start([long_run()], "fast")
        await until(lambda: any(isinstance(m, TrainingRun.Progressed) for m in app.heard))
        children = multiprocessing.active_children()
        second = run.start([long_run(1)], "fast")
        await until(lambda: any(isinstance(m, TrainingRun.Progressed) and m.run_id == second
                                for m in app.heard))  # fmt: skip
        heard_at = len(app.heard)
        late = next(m for m in app.heard if isinstance(m, TrainingRun.Progressed))
        run.post_message(TrainingRun.Progressed(first, late.update))  # one still on its way
        run.post_message(TrainingRun.Finished(first, None))
        await asyncio.sleep(0.3)
        assert app.heard[heard_at:] and all(m.run_id == second for m in app.heard[heard_at:])
        await until(lambda: not any(c.is_alive() for c in children), timeout=5)
        assert first != second
        run.kill()
        await until(lambda: not run.running)
        await pilot.pause()


async def test_stop_reports_the_run_as_stopped_then_ended():
    run = TrainingRun()
    app = Host(run)
    async with app.run_test() as pilot:
        run.start([long_run(), long_run(1)], "fast")  # F9's two: the second never starts
        await until(lambda: any(isinstance(m, TrainingRun.Progressed) for m in app.heard))
        run.stop()
        assert run.activity == "stopping"
        await until(lambda: any(isinstance(m, TrainingRun.Ended) for m in app.heard))
        finished = [m for m in app.heard if isinstance(m, TrainingRun.Finished)]
        assert [m.result.outcome.kind for m in finished] == ["stopped"]
        assert len([m for m in app.heard if isinstance(m, TrainingRun.Started)]) == 1
        assert run.activity == "idle" and not run.running
        await pilot.pause()


async def test_pause_holds_the_child_and_step_moves_it_one_iteration():
    run = TrainingRun()
    app = Host(run)

    def last_iteration() -> int:
        updates = [m.update for m in app.heard if isinstance(m, TrainingRun.Progressed)]
        return updates[-1].iteration if updates else 0

    async with app.run_test() as pilot:
        run.start([long_run()], "step")
        assert run.activity == "stepping"
        await until(lambda: last_iteration() == 1)
        run.pause()  # no pause while stepping
        assert run.activity == "stepping"
        for n in (2, 3):
            run.step()
            await until(lambda n=n: last_iteration() == n)
        await asyncio.sleep(0.2)
        assert last_iteration() == 3
        run.kill()
        await until(lambda: any(isinstance(m, TrainingRun.Ended) for m in app.heard))
        assert not any(isinstance(m, TrainingRun.Finished) for m in app.heard)
        await pilot.pause()
