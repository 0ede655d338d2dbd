"""F2 over the help or a dialog: what is still in view beneath it follows the language too
(issue 11, "F2 does nothing while Help is open": the help was redrawn, but the footer and the
panels around it stayed in the old language until it closed)."""

from attn_tui.app import AttnApp
from attn_tui.screens.help import HelpScreen

from .conftest import screen_lines
from .test_calculator import open_calculator


async def test_the_footer_beneath_the_help_follows_f2():
    async with AttnApp(lang="zh").run_test(size=(80, 24)) as pilot:
        await open_calculator(pilot)
        await pilot.press("f1")
        await pilot.pause()
        assert isinstance(pilot.app.screen, HelpScreen)
        assert "下一步" in screen_lines(pilot.app)[-1]
        await pilot.press("f2")
        await pilot.pause()
        await pilot.pause()
        assert isinstance(pilot.app.screen, HelpScreen)
        footer = screen_lines(pilot.app)[-1]
        assert "Next" in footer and "下一步" not in footer
        lines = "\n".join(screen_lines(pilot.app))
        assert "Inputs" in lines and "输入" not in lines  # the panel title beside the help


async def test_the_home_screens_help_is_titled_as_the_home_not_the_calculator():
    async with AttnApp(lang="en").run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        await pilot.press("f1")
        await pilot.pause()
        help_screen = pilot.app.screen
        assert isinstance(help_screen, HelpScreen)
        titles = [title for title, _body in help_screen.panels]
        assert titles == ["app.key.home"]
