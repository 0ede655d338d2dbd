"""Snapshots of the lab at 80×24 and 120×40, in Chinese and English.

Refresh with `pytest tests/ui/test_lab_snapshots.py --snapshot-update` and look at every
changed SVG before committing it.
"""

from pathlib import Path

import pytest
from textual.widgets import Input, Select, TextArea

from attn_tui.app import AttnApp

SIZES = [(80, 24), (120, 40)]


def _lab(*keys: str, heads: str | None = None):
    async def run_before(pilot) -> None:
        pilot.app.switch_mode("lab")
        await pilot.pause()
        if heads is not None:
            pilot.app.screen.query_one("#heads", Input).value = heads
            await pilot.pause()
        pilot.app.screen.query_one("#view-attn").focus()
        await pilot.press(*keys)
        for widget in [*pilot.app.screen.query(Input), *pilot.app.screen.query(TextArea)]:
            widget.cursor_blink = False  # no blinking cursors: two runs draw the same picture
        await pilot.pause()

    return run_before


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
@pytest.mark.parametrize("lang", ["en", "zh"])
def test_lab_causal_weights(snap_compare, lang, size):
    run_before = _lab("down", "down", "right", "f3")
    assert snap_compare(AttnApp(lang=lang), terminal_size=size, run_before=run_before)


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_lab_heads(snap_compare, lang):
    run_before = _lab("f4", "f4", heads="4")
    assert snap_compare(AttnApp(lang=lang), terminal_size=(120, 40), run_before=run_before)


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_lab_shapes(snap_compare, lang):
    assert snap_compare(
        AttnApp(lang=lang), terminal_size=(80, 24), run_before=_lab("f4", "f4", "f4")
    )


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_lab_bad_heads(snap_compare, lang):
    assert snap_compare(AttnApp(lang=lang), terminal_size=(80, 24), run_before=_lab(heads="3"))


async def _typed(pilot) -> None:
    """Typed rows: a 3×4 X with labels and a typed W_Q (the W fold open)."""
    pilot.app.switch_mode("lab")
    await pilot.pause()
    screen = pilot.app.screen
    screen.query_one("#sentence", Select).value = "typed"
    await pilot.pause()
    screen.query_one("#X", TextArea).text = "1 0 1 0\n0 2 0 1\n1 1 1 1"
    screen.query_one("#labels", Input).value = "I love China"
    screen.query_one("#W_Q", TextArea).text = "1 0 0 1\n0 1 1 0\n1 1 0 0\n0 0 1 1"
    screen.query_one("#typed-w").collapsed = False
    await pilot.pause()
    screen.query_one("#view-attn").focus()
    screen.query_one("#lab-settings").scroll_home(animate=False)  # X first; the fold below
    for widget in [*screen.query(Input), *screen.query(TextArea)]:
        widget.cursor_blink = False
    await pilot.pause()


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_lab_typed(snap_compare, lang):
    assert snap_compare(AttnApp(lang=lang), terminal_size=(80, 24), run_before=_typed)


# ---- the lab opened on a trained Transformer -------------------------------------------------


@pytest.fixture(scope="module")
def trained_dir(tmp_path_factory):
    """A data directory holding the default Transformer (reversal, L 10, seed 0): the stored
    run (tests/ui/stored_runs), not one trained here, whose weights would be wherever this
    CPU's BLAS rounding led float32 training."""
    from attn_tui import paths
    from attn_tui.core.models import stored_run, transformer_file

    data = tmp_path_factory.mktemp("data")
    result = stored_run.load(Path(__file__).parent / "stored_runs" / "transformer_default.json")
    transformer_file.save(
        paths.last_transformer(data),
        result.model,
        result.config,
        result.final.probe.x,
        {"iters": result.iters},
    )
    return data


def _trained(*keys: str):
    async def run_before(pilot) -> None:
        pilot.app.switch_mode("lab")
        await pilot.pause()
        screen = pilot.app.screen
        screen.query_one("#sentence", Select).value = "trained"
        await pilot.pause()
        await pilot.app.workers.wait_for_complete()
        screen.query_one("#view-attn").focus()
        await pilot.press(*keys)
        for widget in [*screen.query(Input), *screen.query(TextArea)]:
            widget.cursor_blink = False
        await pilot.pause()

    return run_before


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
@pytest.mark.parametrize("lang", ["en", "zh"])
def test_lab_trained_attention(snap_compare, trained_dir, lang, size):
    app = AttnApp(lang=lang, data_dir=trained_dir)
    assert snap_compare(app, terminal_size=size, run_before=_trained("down", "right"))


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_lab_trained_model_view(snap_compare, trained_dir, lang):
    app = AttnApp(lang=lang, data_dir=trained_dir)
    assert snap_compare(app, terminal_size=(80, 24), run_before=_trained("shift+f4", "shift+f4"))


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_lab_trained_token_lines(snap_compare, trained_dir, lang):
    app = AttnApp(lang=lang, data_dir=trained_dir)
    assert snap_compare(app, terminal_size=(120, 40), run_before=_trained("shift+f4", "down"))
