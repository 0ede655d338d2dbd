"""Snapshots of the looks (issue 26, item 31) at 80×24 and 120×40, in Chinese and English: the
lab's heatmaps on the light theme, and under NO_COLOR in a 16-colour terminal (an ANSI theme:
no colour at all, the numbers carry the values).

Refresh with `pytest tests/ui/test_looks_snapshots.py --snapshot-update` and look at every
changed SVG before committing it.
"""

import pytest
from textual.widgets import Input, TextArea

from attn_tui.app import AttnApp

SIZES = [(80, 24), (120, 40)]


def _lab(theme: str):
    async def run_before(pilot) -> None:
        pilot.app.theme = theme
        pilot.app.switch_mode("lab")
        await pilot.pause()
        pilot.app.screen.query_one("#view-attn").focus()
        for widget in [*pilot.app.screen.query(Input), *pilot.app.screen.query(TextArea)]:
            widget.cursor_blink = False
        await pilot.pause()

    return run_before


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
@pytest.mark.parametrize("lang", ["en", "zh"])
def test_lab_on_the_light_theme(snap_compare, lang, size):
    assert snap_compare(AttnApp(lang=lang), terminal_size=size, run_before=_lab("attn-light"))


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
@pytest.mark.parametrize("lang", ["en", "zh"])
def test_lab_without_colour(snap_compare, lang, size, monkeypatch):
    monkeypatch.setenv("NO_COLOR", "1")
    assert snap_compare(AttnApp(lang=lang), terminal_size=size, run_before=_lab("ansi-dark"))
