"""Snapshots of the lab at 80×24 and 120×40, in Chinese and English.

Refresh with `pytest tests/ui/test_lab_snapshots.py --snapshot-update` and look at every
changed SVG before committing it.
"""

import pytest
from textual.widgets import Input

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
        for widget in pilot.app.screen.query(Input):
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
