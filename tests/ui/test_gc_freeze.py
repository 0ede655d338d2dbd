"""Issue 14: the long-lived heap is frozen (``gc.freeze``) so that a full garbage collection
during a keystroke walks only what is new, not Textual's ~100,000 objects."""

import gc
import time

from textual.widgets import Input

from attn_tui import app as app_module
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


async def test_full_collections_wait_for_a_pause_in_the_input():
    """Generation 2 is not left to Python (it fell on a keystroke one time in twenty): the
    app runs it when the input pauses, or when it has waited too long, and gives Python its
    thresholds back when it ends."""
    before = gc.get_threshold()
    async with AttnApp(lang="en").run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        app = pilot.app
        assert gc.get_threshold()[:2] == before[:2]
        assert gc.get_threshold()[2] >= 1_000_000  # never automatic while the app runs

        def owed() -> int:  # generation-1 collections since the last full one
            return gc.get_count()[2]

        for _ in range(before[2] + 1):
            gc.collect(1)
        assert owed() > before[2]
        now = time.monotonic()
        app._last_input, app._last_full_gc = now, now  # typing, and a full one just ran
        app._full_gc()
        assert owed() > before[2]  # not during the typing
        app._last_input = now - app_module.FULL_GC_PAUSE_S  # the learner paused
        app._full_gc()
        assert owed() == 0
        for _ in range(before[2] + 1):
            gc.collect(1)
        app._last_input = time.monotonic()  # typing without a pause, but for too long
        app._last_full_gc = app._last_input - app_module.FULL_GC_AT_MOST_EVERY_S
        app._full_gc()
        assert owed() == 0
        app._last_input = 0.0
        await pilot.press("5")  # a key counts as input
        assert app._last_input > 0.0
    assert gc.get_threshold() == before
