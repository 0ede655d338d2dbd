"""The lab's keys as a learner meets them (issue 26 #22): F5 is offered only where it switches
something, Down walks the settings instead of opening a drop-down, and Enter in a setting goes
back to the map, where the arrow keys move the cursor."""

from __future__ import annotations

import pytest
from textual.widgets import Input, Select, Static

from attn_tui.app import AttnApp
from attn_tui.screens.lab import LabScreen

from .conftest import shown


async def open_lab(pilot) -> LabScreen:
    pilot.app.switch_mode("lab")
    await pilot.pause()
    screen = pilot.app.screen
    assert isinstance(screen, LabScreen)
    await pilot.pause()
    return screen


def offered(screen) -> set[str]:
    """The actions the footer offers now."""
    return {b.binding.action for b in screen.active_bindings.values() if b.enabled}


@pytest.mark.parametrize("lang", ["en", "zh"])
async def test_f5_is_offered_only_where_scores_and_weights_are_not_side_by_side(lang):
    async with AttnApp(lang=lang).run_test(size=(120, 40)) as pilot:
        screen = await open_lab(pilot)
        text = shown(screen.query_one("#attn-body", Static), 88)
        assert screen.views.both_kinds_shown  # three tokens: both maps fit at 120 columns
        assert "toggle_kind" not in offered(screen)
        assert "F5" not in text.split("─" * 10)[-1]  # the hint line under the cell
        await pilot.resize_terminal(80, 24)  # the same screen at 80 columns
        for _ in range(20):  # the footer follows once the view has its new width
            await pilot.pause()
            if not screen.views.both_kinds_shown:
                break
        assert "toggle_kind" in offered(screen)
        before = screen.views.kind
        await pilot.press("f5")
        assert screen.views.kind != before
        assert "F5" in shown(screen.query_one("#attn-body", Static), 48)


async def test_down_walks_the_settings_and_enter_goes_back_to_the_map():
    async with AttnApp(lang="en").run_test(size=(80, 24)) as pilot:
        screen = await open_lab(pilot)
        sentence = screen.query_one("#sentence", Select)
        sentence.focus()
        await pilot.press("down")
        assert not sentence.expanded  # Textual's Select opened its menu on Down
        assert screen.focused is screen.query_one("#tokens", Input)
        await pilot.press("up")
        assert screen.focused is sentence and not sentence.expanded
        # Down from the top reaches the map, through every setting, opening nothing
        for _ in range(12):
            await pilot.press("down")
            assert not any(s.expanded for s in screen.query(Select))
            if screen.focused is screen.query_one("#view-attn"):
                break
        assert screen.focused is screen.query_one("#view-attn")
        # a setting changed, Enter: the arrows move the cursor at once
        seed = screen.query_one("#seed", Input)
        seed.focus()
        seed.value = "4"
        await pilot.press("enter")
        await pilot.pause()
        assert screen.focused is screen.query_one("#view-attn")
        await pilot.press("down", "right")
        assert screen.views.cursor == (1, 1)
