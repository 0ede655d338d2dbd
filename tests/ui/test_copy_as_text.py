"""Ctrl+G: the figure or matrix on show goes to the clipboard as text (the screen itself where
there is none), and the learner is told what went and how many lines."""

from __future__ import annotations

from attn_tui.app import AttnApp
from attn_tui.screens.help import HelpScreen

from .conftest import screen_lines


def told(app) -> str:
    return " ".join(n.message for n in app._notifications)


async def test_the_home_screen_is_copied_as_the_learner_sees_it():
    async with AttnApp(lang="en").run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        await pilot.press("ctrl+g")
        await pilot.pause()
        copied = pilot.app.clipboard
        assert "Calculator" in copied and "Attention, one step at a time" in copied
        assert all(line == line.rstrip() for line in copied.splitlines())
        assert "Copied the screen as text" in told(pilot.app)


async def test_the_help_names_the_copy_key_and_the_mouse_in_both_languages():
    async with AttnApp(lang="zh").run_test(size=(100, 40)) as pilot:
        await pilot.pause()
        await pilot.press("f1")
        await pilot.pause()
        assert isinstance(pilot.app.screen, HelpScreen)
        text = "\n".join(screen_lines(pilot.app))
        assert "Ctrl+G" in text and "Shift" in text and "剪贴板" in text
        await pilot.press("f2")
        await pilot.pause()
        text = "\n".join(screen_lines(pilot.app))
        assert "Ctrl+G" in text and "Shift" in text and "clipboard" in text
