"""What holds on every screen (issue 11, "Everywhere"; issue 12, holding F2)."""

import gc

import pytest
from textual.widgets import Input, Static

from attn_tui import compat
from attn_tui.app import AttnApp
from attn_tui.compat import FooterKey
from attn_tui.screens.base import TutorScreen
from attn_tui.screens.help import HelpScreen
from attn_tui.widgets.fields import Tick

from .conftest import screen_lines, shown
from .test_calculator import open_calculator


async def test_f2_while_the_help_is_open_redraws_the_help():
    async with AttnApp(lang="en").run_test(size=(80, 24)) as pilot:
        await open_calculator(pilot)
        await pilot.press("f1")
        await pilot.pause()
        help_screen = pilot.app.screen
        assert isinstance(help_screen, HelpScreen)
        assert "Next" in shown(help_screen.query_one("#help-keys", Static), 70)
        await pilot.press("f2")
        await pilot.pause()
        assert pilot.app.screen is help_screen and pilot.app.lang == "zh"
        keys = shown(help_screen.query_one("#help-keys", Static), 70)
        assert "下一步" in keys and "Next" not in keys
        assert "按键" in keys
        await pilot.press("escape")  # the screen beneath is in Chinese too
        await pilot.pause()
        footer = screen_lines(pilot.app)[-1]
        assert "下一步" in footer


async def test_the_palette_key_follows_the_language():
    async with AttnApp(lang="zh").run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        footer = screen_lines(pilot.app)[-1]
        assert "命令面板" in footer and "palette" not in footer
        await pilot.press("f2")
        await pilot.pause()
        await pilot.pause()
        assert "palette" in screen_lines(pilot.app)[-1]


async def test_a_chinese_error_line_uses_the_width_and_keeps_a_number_with_its_unit():
    async with AttnApp(lang="zh").run_test(size=(80, 24)) as pilot:
        screen = await open_calculator(pilot)
        screen.query_one("#query", Input).value = "1 0"
        await pilot.pause()
        error = screen.query_one("#keys-error", Static)
        width = error.size.width
        lines = [line.rstrip() for line in shown(error, width).splitlines() if line.strip()]
        assert len(lines) >= 2
        joined = "".join(lines)
        assert "3 维" in joined
        for line in lines:
            assert not line.endswith(("2", "3")), lines  # never a number without its unit
        from attn_tui.core.format import cell_len

        for line in lines[:-1]:
            assert cell_len(line) >= width * 0.7, lines  # no line broken at half the width


async def test_typing_at_a_focused_switch_does_not_flip_it():
    async with AttnApp(lang="en").run_test(size=(80, 24)) as pilot:
        screen = await open_calculator(pilot)
        scale = screen.query_one("#scale", Tick)
        scale.focus()
        await pilot.pause()
        await pilot.press("1", "space", "1", "space", "1")
        await pilot.pause()
        assert scale.value is True  # unchanged
        assert any("switch" in n.message for n in pilot.app._notifications)
        await pilot.press("tab", "shift+tab")  # back on it, not typing: Space flips it
        await pilot.pause()
        assert pilot.app.focused is scale
        await pilot.press("space")
        await pilot.pause()
        assert scale.value is False


async def test_focus_reads_without_colour():
    async with AttnApp(lang="en").run_test(size=(80, 24)) as pilot:
        screen = await open_calculator(pilot)
        box = screen.query_one("#steps-box")
        assert box.styles.border_top[0] == "round"
        screen.query_one("#steps").focus()
        await pilot.pause()
        assert box.styles.border_top[0] == "heavy"  # ┏━ not ╭─: a shape, not a colour
        scale = screen.query_one("#scale", Tick)
        x, y = scale.content_region.x + 5, scale.content_region.y
        assert not pilot.app.screen._compositor.get_style_at(x, y).underline
        scale.focus()
        await pilot.pause()
        assert pilot.app.screen._compositor.get_style_at(x, y).underline


# ---- issue 12: holding F2 ------------------------------------------------------------------


def _footer_keys_alive() -> int:
    gc.collect()
    return sum(isinstance(o, FooterKey) for o in gc.get_objects())


@pytest.mark.slow  # a long burst of key presses
async def test_holding_f2_keeps_the_footer_and_memory_bounded():
    """Textual 8.2.8 leaked every footer key on every refresh_bindings(); 300 switches here
    must leave about as many key widgets alive as after 10."""
    async with AttnApp(lang="en").run_test(size=(80, 24)) as pilot:
        await open_calculator(pilot)
        for _ in range(10):
            await pilot.press("f2")
        await pilot.pause()
        baseline = _footer_keys_alive()
        for _ in range(300):
            await pilot.press("f2")
        await pilot.pause()
        await pilot.pause()
        assert _footer_keys_alive() <= baseline + 20, (baseline, _footer_keys_alive())
        footer = pilot.app.screen.query_one("Footer")
        watchers = compat.watchers(footer)
        assert all(len(pairs) <= 40 for pairs in watchers.values())
        assert pilot.app.lang == "en"  # an even number of switches
        assert "Next" in screen_lines(pilot.app)[-1]


async def test_switches_that_arrive_together_are_drawn_once():
    """Holding F2 queued a full redraw per press (500 presses took 25 s to drain)."""
    async with AttnApp(lang="en").run_test(size=(80, 24)) as pilot:
        screen = await open_calculator(pilot)
        calls = []
        original = TutorScreen.localize

        def counting(self):
            calls.append(self)
            original(self)

        screen.localize = counting.__get__(screen)
        for _ in range(51):
            pilot.app.action_toggle_lang()  # as fast as a held key: nothing drawn in between
        await pilot.pause()
        await pilot.pause()
        assert pilot.app.lang == "zh"
        assert len(calls) <= 2
        assert "下一步" in screen_lines(pilot.app)[-1]
        assert len(pilot.app._notifications) == 1  # one toast, not 51
