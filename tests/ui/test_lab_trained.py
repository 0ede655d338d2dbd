"""Pilot tests of the lab opened on a trained Transformer: the weights on show are the trained
ones, every view follows them, random weights say they are random."""

from __future__ import annotations

import os
from pathlib import Path

import numpy as np
import pytest
from textual.widgets import Input, Select, Static

from attn_tui import paths
from attn_tui.app import AttnApp
from attn_tui.core.models import transformer_file
from attn_tui.core.models.loop import run_to_end
from attn_tui.core.models.transformer_trainer import TransformerConfig
from attn_tui.screens.lab import LabScreen
from attn_tui.widgets.lab.settings import TRAINED

from .conftest import shown


def data_dir() -> Path:
    return Path(os.environ["ATTN_TUI_DATA_DIR"])  # set per test by conftest


def save_model(config: TransformerConfig) -> transformer_file.SavedModel:
    """Train and keep it where the app keeps its last Transformer."""
    result = run_to_end(config)
    path = paths.last_transformer(data_dir())
    path.parent.mkdir(parents=True, exist_ok=True)
    transformer_file.save(
        path,
        result.model,
        config,
        result.final.probe.x,
        {"iters": result.iters, "seq_acc": result.seq_acc},
    )
    return transformer_file.load(path)


async def open_trained(pilot) -> LabScreen:
    pilot.app.switch_mode("lab")
    await pilot.pause()
    screen = pilot.app.screen
    assert isinstance(screen, LabScreen)
    screen.query_one("#sentence", Select).value = TRAINED
    await pilot.pause()
    await pilot.app.workers.wait_for_complete()  # the default model, if there was none
    await pilot.pause()
    return screen


def body(screen, view: str, width: int = 60) -> str:
    """What a view shows, once on show (F4 to it): the lab draws the view on show only."""
    screen.views.view = view
    return shown(screen.query_one(f"#{view}-body", Static), width)


async def test_random_weights_say_they_are_random():
    async with AttnApp(lang="en").run_test(size=(80, 24)) as pilot:
        pilot.app.switch_mode("lab")
        await pilot.pause()
        text = body(pilot.app.screen, "attn")
        assert "Random weights (seed 0)" in text and "where a trained model" in text


async def test_the_lab_shows_the_trained_weights_in_every_view():
    saved = save_model(TransformerConfig(length=6, layers=2, heads=2, iters=120, seed=4))
    async with AttnApp(lang="en").run_test(size=(120, 40)) as pilot:
        screen = await open_trained(pilot)
        assert screen.form.saved is not None and screen.form.result is not None
        model = saved.model
        # layer 1 on show: its trained projections, and the weights the model computes
        np.testing.assert_array_equal(screen.form.result.proj.W_Q, model.layers[0].W_Q)
        np.testing.assert_array_equal(screen.form.result.proj.W_O, model.layers[0].W_O)
        _, attn = model.predict(saved.probe[None])
        np.testing.assert_allclose(screen.form.result.weights, attn[0, 0], rtol=1e-12)
        assert screen.query_one("#sequence", Input).value == "".join(
            "ABCDEF"[s] for s in saved.probe
        )
        assert "Trained weights (reverse), layer 1 of 2" in body(screen, "attn")
        assert "layer 2" in body(screen, "model") and "held-out" in body(screen, "model")
        # layer 2: what layer 2's attention reads, and its own weights
        screen.query_one("#layer", Input).value = "2"
        await pilot.pause()
        np.testing.assert_allclose(screen.form.result.weights, attn[0, 1], rtol=1e-12)
        np.testing.assert_array_equal(screen.form.result.proj.W_K, model.layers[1].W_K)
        # the second head, in the token-to-token view
        screen.views.view = "attn"
        screen.query_one("#view-attn").focus()
        await pilot.press("shift+f4", "f6", "down")  # the last view, from the first
        views = screen.views
        assert views.view == "lines" and views.head == 1 and views.cursor[0] == 1
        weights = screen.form.result.weights[1, 1]
        assert f"{weights.max():.2f}" in body(screen, "lines", 100)


@pytest.mark.slow  # types sequences key by key
async def test_a_typed_sequence_is_read_and_a_bad_one_named():
    saved = save_model(TransformerConfig(length=5, iters=80))
    async with AttnApp(lang="en").run_test(size=(80, 24)) as pilot:
        screen = await open_trained(pilot)
        screen.query_one("#sequence", Input).value = "f e d c b"
        await pilot.pause()
        assert screen.form.result.queries.labels == ("F", "E", "D", "C", "B")
        x = np.array([[5, 4, 3, 2, 1]])
        np.testing.assert_allclose(screen.form.result.weights, saved.model.predict(x)[1][0, 0])
        screen.query_one("#sequence", Input).value = "ABX"
        await pilot.pause()
        error = shown(screen.query_one("#sequence-error", Static))
        assert "5 letters" in error and screen.form.stale
        assert screen.form.result.queries.labels == ("F", "E", "D", "C", "B")  # the last valid one


async def test_with_no_model_the_lab_trains_the_default_and_keeps_it():
    path = paths.last_transformer(data_dir())
    assert not path.exists()
    async with AttnApp(lang="zh").run_test(size=(80, 24)) as pilot:
        screen = await open_trained(pilot)
        assert path.exists() and screen.form.saved is not None
        assert screen.form.saved.config == TransformerConfig()  # reversal, L 10, 300 iterations
        assert screen.form.held.seq_acc >= 0.99
        kept = transformer_file.load(path)
        np.testing.assert_array_equal(screen.form.result.proj.W_V, kept.model.layers[0].W_V)
        assert "训练所得的权重" in body(screen, "attn")


async def test_a_damaged_model_file_is_set_aside_and_a_fresh_one_trained():
    path = paths.last_transformer(data_dir())
    path.parent.mkdir(parents=True)
    path.write_bytes(b"not a model at all")
    async with AttnApp(lang="en").run_test(size=(80, 24)) as pilot:
        screen = await open_trained(pilot)
        aside = list(path.parent.glob("transformer.npz.damaged-*"))
        assert len(aside) == 1 and aside[0].read_bytes() == b"not a model at all"
        assert screen.form.saved is not None and transformer_file.load(path).config.iters == 300
