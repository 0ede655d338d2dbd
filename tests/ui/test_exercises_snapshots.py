"""Snapshots of the exercises screen at 80×24 and 120×40, in Chinese and English: the set
list on a fresh data directory, and a vector exercise just after a partly right answer.

Refresh with `pytest tests/ui/test_exercises_snapshots.py --snapshot-update` and look at
every changed SVG before committing it.
"""

import pytest
from textual.widgets import Input, TextArea

from attn_tui.app import AttnApp

SIZES = [(80, 24), (120, 40)]


async def _still(pilot) -> None:
    """No blinking cursors, so two runs draw the same picture."""
    for widget in pilot.app.screen.query("Input, TextArea"):
        assert isinstance(widget, Input | TextArea)
        widget.cursor_blink = False
    await pilot.pause()


async def _set_list(pilot) -> None:
    await pilot.app.switch_mode("exercises")
    await pilot.pause()
    await _still(pilot)


async def _feedback(pilot) -> None:
    await pilot.app.switch_mode("exercises")
    await pilot.pause()
    await pilot.press("enter")  # the first set: "the three steps"
    await pilot.press("pagedown", "pagedown", "pagedown", "pagedown")  # to scores-2d
    await pilot.press("f3")  # one hint
    pilot.app.screen.query_one("#ex-answer", Input).value = "2 1 4 -2"
    await pilot.press("enter")
    await _still(pilot)


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
@pytest.mark.parametrize("lang", ["en", "zh"])
def test_set_list(snap_compare, lang, size):
    assert snap_compare(AttnApp(lang=lang), terminal_size=size, run_before=_set_list)


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
@pytest.mark.parametrize("lang", ["en", "zh"])
def test_exercise_with_feedback(snap_compare, lang, size):
    assert snap_compare(AttnApp(lang=lang), terminal_size=size, run_before=_feedback)
