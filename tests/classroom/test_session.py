"""A served session (what each browser tab runs), driven by the pilot: it asks the student's
name first, opens nothing before it, and keeps each student's progress in their own folder."""

from __future__ import annotations

from textual.widgets import Input, OptionList

from attn_tui.core.progress import ProgressStore
from attn_tui.screens.exercises import ExercisesScreen
from attn_tui.screens.student import StudentScreen
from attn_tui.serve.session import ServedApp

from .conftest import shown


async def answer_first_exercise(pilot) -> None:
    await pilot.app.switch_mode("exercises")
    await pilot.pause()
    assert isinstance(pilot.app.screen, ExercisesScreen)
    await pilot.press("enter")  # the first set
    await pilot.pause()
    pilot.app.screen.query_one("#ex-answer", Input).value = "c"
    await pilot.press("enter")
    await pilot.pause()


def solved(folder) -> int:
    with ProgressStore.open(folder) as store:
        return store.set_progress("three-steps", ["order"]).done


async def test_the_first_screen_asks_and_nothing_opens_before_a_name(tmp_path):
    app = ServedApp(tmp_path, None, "en")
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        assert isinstance(app.screen, StudentScreen)
        app.switch_mode("exercises")  # e.g. from the command palette
        await pilot.pause()
        assert app.current_mode == "home" and isinstance(app.screen, StudentScreen)
        await pilot.press("enter")  # empty: said so, still asking
        await pilot.pause()
        assert isinstance(app.screen, StudentScreen)
        assert "cannot be empty" in shown(app.screen.query_one("#student-error"))
        await pilot.press(*"Ann Lee", "enter")
        await pilot.pause()
        assert not isinstance(app.screen, StudentScreen)
        assert app.student == "Ann Lee" and app.data_dir.parent == tmp_path / "students"
        assert isinstance(app.screen.query_one("#areas", OptionList), OptionList)
    assert not (tmp_path / "progress.db").exists()


async def test_each_name_keeps_its_own_progress(tmp_path):
    async with ServedApp(tmp_path, "Ann", "en").run_test(size=(100, 30)) as pilot:
        await pilot.pause()
        await answer_first_exercise(pilot)
        ann = pilot.app.data_dir
    async with ServedApp(tmp_path, "Bob", "en").run_test(size=(100, 30)) as pilot:
        await pilot.pause()
        bob = pilot.app.data_dir
    assert ann != bob and solved(ann) == 1 and solved(bob) == 0
    async with ServedApp(tmp_path, "  ann ", "en").run_test(size=(100, 30)) as pilot:
        await pilot.pause()
        assert pilot.app.data_dir == ann, "the same name, typed differently, comes back"


async def test_a_name_from_the_address_that_is_unusable_is_asked_again(tmp_path):
    app = ServedApp(tmp_path, "\x07", "zh")
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        assert isinstance(app.screen, StudentScreen) and app.student is None
        assert "名字" in shown(app.screen.query_one(".student-title"))


async def test_a_served_cursor_does_not_blink(tmp_path):
    """An idle tab then draws nothing: a blinking cursor redraws every idle tab twice a second
    (measured under attn-tui serve: 0.8% of a core per idle tab, 0.05% without)."""
    from textual.widgets import TextArea

    async with ServedApp(tmp_path, "Ann", "en").run_test(size=(100, 30)) as pilot:
        await pilot.pause()
        pilot.app.switch_mode("calc")
        await pilot.pause()
        query = pilot.app.screen.query_one("#query", Input)
        query.focus()
        await pilot.pause()
        assert query.has_focus and query.cursor_blink is False
        keys = pilot.app.screen.query_one("#keys", TextArea)
        keys.focus()
        await pilot.pause()
        assert keys.cursor_blink is False
