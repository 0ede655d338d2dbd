"""ctrl+n on the trainer shows the numpy behind the run on show (core.models.rnn_reference or
transformer_reference), its last line calling it with that run's settings; F9 stays the
trainer's "versus"."""

from __future__ import annotations

import numpy as np
from textual.widgets import Input, Select

from attn_tui.app import AttnApp
from attn_tui.core.models import rnn_reference, transformer_reference
from attn_tui.screens.numpy_view import NumpyScreen
from attn_tui.screens.trainer import NUMPY_KEY, TrainerScreen

from .conftest import shown
from .test_trainer import open_trainer


def _run_shown_code(source: str, config) -> tuple[float, float]:
    """Execute the code as shown (its last line included) on small float64 weights; its loss,
    and the loss of the reference model called with ``config``'s own settings."""
    rng = np.random.default_rng(0)
    H, V = config.hidden, 6
    shapes = {"Wxh": (V, H), "Whh": (H, H), "bh": (H,), "Wxs": (V, H), "Wss": (H, H),
              "bs": (H,), "Why": (2 * H if config.attention else H, V), "by": (V,),
              "Wa": (H, H), "Wq": (H, H), "Wk": (H, H)}  # fmt: skip
    p = {k: rng.normal(0, 0.3, s) for k, s in shapes.items()}
    x = rng.integers(0, V, (3, config.length))
    names = {"p": p, "x": x}
    exec(compile(source, "<shown>", "exec"), names)
    expected, _ = rnn_reference.loss_and_grads(
        p, x, attention=config.attention, score=config.score, feed=config.feed
    )
    return float(names["loss"]), float(expected)


async def test_ctrl_n_shows_the_numpy_of_the_settings_on_show_and_esc_returns():
    async with AttnApp(lang="en").run_test(size=(100, 30)) as pilot:
        screen = await open_trainer(pilot, length=5, variant="general", feed="none")
        screen.query_one("#iters", Input).focus()  # a key typed into a field still reaches it
        await pilot.press(NUMPY_KEY)
        await pilot.pause()
        page = pilot.app.screen
        assert isinstance(page, NumpyScreen)
        config = screen.form.read().config
        assert page.source == rnn_reference.source(config)
        last = page.source.rstrip().splitlines()[-1]
        assert "score='general'" in last and "feed='none'" in last and "attention=True" in last
        assert f"L 5, H {config.hidden}" in page.source
        assert "The numpy behind this run" in shown(page.query_one("#numpy-title"), 80)
        # the shown last line runs the model with this run's settings (not another variant's)
        loss, expected = _run_shown_code(page.source, config)
        assert np.isfinite(loss) and loss == expected
        await pilot.press("escape")
        await pilot.pause()
        assert pilot.app.screen is screen
        assert screen.query_one("#variant", Select).value == "general"  # nothing lost


async def test_ctrl_n_in_chinese_and_without_attention():
    async with AttnApp(lang="zh").run_test(size=(80, 24)) as pilot:
        screen = await open_trainer(pilot, variant="none")
        await pilot.press(NUMPY_KEY)
        await pilot.pause()
        page = pilot.app.screen
        assert isinstance(page, NumpyScreen)
        assert "attention=False" in page.source.rstrip().splitlines()[-1]
        assert "这次训练背后的 numpy" in shown(page.query_one("#numpy-title"), 80)
        assert screen.live.config.variant == "none"


async def test_ctrl_n_with_the_transformer_shows_the_readable_transformer():
    async with AttnApp(lang="en").run_test(size=(100, 30)) as pilot:
        screen = await open_trainer(pilot)
        screen.query_one("#model", Select).value = "transformer"
        await pilot.pause()
        assert screen.form.model.name == "transformer"
        screen.query_one("#heads", Input).value = "2"
        await pilot.pause()
        await pilot.press(NUMPY_KEY)
        await pilot.pause()
        page = pilot.app.screen
        assert isinstance(page, NumpyScreen)
        config = screen.form.read().config
        assert config.heads == 2 and page.source == transformer_reference.source(config)
        assert "heads=2, positions='learned'" in page.source.rstrip().splitlines()[-1]
        assert "tiny Transformer trained here" in shown(page.query_one("#numpy-note"), 80)
        await pilot.press("escape")
        await pilot.pause()
        assert pilot.app.screen is screen
        assert screen.query_one("#heads", Input).value == "2"  # nothing lost


async def test_the_help_names_the_key_in_both_languages():
    from attn_tui.i18n import set_lang, t

    for lang, words in (
        ("en", "ctrl+n opens the numpy"),
        ("zh", "ctrl+n 打开这次训练背后的 numpy"),
    ):
        set_lang(lang)
        assert words in t("train.ui.help.numpy")
    assert ("train.ui.live", "train.ui.help.numpy") in TrainerScreen.HELP
