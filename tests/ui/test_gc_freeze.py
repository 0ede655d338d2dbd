"""Issue 14: the long-lived heap is frozen (``gc.freeze``) so that a full garbage collection
during a keystroke walks only what is new, not Textual's ~100,000 objects."""

import gc

from textual.widgets import Input

from attn_tui.app import AttnApp

from .test_calculator import open_calculator


async def test_the_heap_is_frozen_once_ready_and_again_when_an_area_opens():
    async with AttnApp(lang="en").run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        at_home = gc.get_freeze_count()
        assert at_home > 10_000  # Textual's, Rich's and our objects: out of the collector's way
        screen = await open_calculator(pilot)
        await pilot.pause()
        assert gc.get_freeze_count() > at_home
        # the calculator's own widgets are among the frozen: not walked by a collection
        tracked = {id(o) for o in gc.get_objects()}
        assert id(screen) not in tracked
        assert id(screen.query_one("#query", Input)) not in tracked
    assert gc.get_freeze_count() == 0  # given back when the app ends


async def test_a_pushed_screen_is_not_frozen():
    """Screens pushed and popped (help) would leak if frozen: only an area's own screen is."""
    async with AttnApp(lang="en").run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        await pilot.press("f1")
        await pilot.pause()
        help_screen = pilot.app.screen
        assert help_screen is not pilot.app.screen_stack[0]
        assert id(help_screen) in {id(o) for o in gc.get_objects()}
