"""The trainer's guide for the Transformer: with the Transformer chosen, keys 1–5 load its own
five experiments (not the RNN's), each done in seconds at the watchable pace, and say what to
look at when the run is over."""

from __future__ import annotations

import asyncio
import time

import pytest
from textual.widgets import Input, OptionList, Select

from attn_tui.app import AttnApp
from attn_tui.core.models.transformer_guide import TF_GUIDE, guide_step
from attn_tui.core.models.transformer_trainer import TransformerConfig
from attn_tui.screens.trainer import TrainerScreen

from .conftest import shown


async def until(condition, seconds: float = 90.0) -> None:
    deadline = time.monotonic() + seconds
    while not condition():
        assert time.monotonic() < deadline, "timed out"
        await asyncio.sleep(0.05)


def test_each_step_is_a_setting_that_finishes_in_seconds():
    assert len(TF_GUIDE) == 5
    for step in TF_GUIDE:
        assert step.config.iters <= 1500  # 3,000 sorting iterations took two minutes to watch
        assert guide_step(step.config) is step
    assert guide_step(TransformerConfig(task="sort")) is None  # the default 3,000 is not a step
    assert [s.config.task for s in TF_GUIDE] == ["reverse", "reverse", "sort", "reverse", "reverse"]
    assert TF_GUIDE[1].config.positions == "none" and TF_GUIDE[4].config.causal


@pytest.mark.slow
async def test_key_3_with_the_transformer_chosen_trains_its_sorting_step():
    async with AttnApp(lang="en").run_test(size=(120, 40)) as pilot:
        await pilot.press("down", "enter")
        await pilot.pause()
        screen = pilot.app.screen
        assert isinstance(screen, TrainerScreen)
        screen.query_one("#model", Select).value = "transformer"
        await pilot.pause()
        guide = screen.query_one("#guide", OptionList)
        assert "Sorting: reading by content" in str(guide.get_option_at_index(2).prompt)
        screen.query_one("#guide").focus()
        started = time.monotonic()
        await pilot.press("3")
        await until(lambda: screen.running)
        assert screen.form.model.name == "transformer"  # not switched back to the RNN
        assert screen.query_one("#task", Select).value == "sort"
        assert screen.query_one("#iters", Input).value == "1500"
        await until(lambda: screen.live.result is not None and not screen.running)
        assert time.monotonic() - started < 60  # seconds, not minutes (the machine may be busy)
        await pilot.pause()
        note = " ".join(shown(screen.query_one("#guide-note"), 200).split()) if screen.query(
            "#guide-note") else ""  # fmt: skip
        assert screen.live.result.config.task == "sort"
        assert "letters, not places" in note or "letters, not places" in " ".join(
            str(w.render()) for w in screen.query("Static")
        )
