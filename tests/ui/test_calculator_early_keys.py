"""Keys typed the moment the calculator opens all reach it, in order.

A terminal (or the browser under ``attn-tui serve``) hands the app every key as it comes,
without waiting for the app to finish handling the one before: Enter on the home screen, then
"2 0 0" at once, arrive before the calculator has mounted and focused its query field. Here
the keys are posted the way the terminal driver posts them, all at once (``pilot.press`` would
wait for the app to settle after each key, which hides the loss).
"""

import pytest
from textual import events
from textual.widgets import Input, TextArea

from attn_tui.app import AttnApp
from attn_tui.screens.calculator import CalculatorScreen
from attn_tui.screens.exercises import ExercisesScreen

CHARACTERS = {"enter": "\r", "space": " "}


def burst(app, *keys: str) -> None:
    """Post every key at once, as the terminal driver does when keys come faster than drawn."""
    for key in keys:
        app.post_message(events.Key(key, CHARACTERS.get(key, key if len(key) == 1 else None)))


def typed(text: str) -> list[str]:
    return ["space" if ch == " " else ch for ch in text]


async def settle(pilot) -> None:
    await pilot.pause()
    await pilot.app.workers.wait_for_complete()
    await pilot.pause()


@pytest.mark.parametrize("lang", ["en", "zh"])
async def test_keys_typed_as_the_calculator_opens_from_home_all_arrive(lang):
    async with AttnApp(lang=lang).run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        burst(pilot.app, "enter", *typed("2 0 0"))
        await settle(pilot)
        screen = pilot.app.screen
        assert isinstance(screen, CalculatorScreen)
        # the field's text was selected on focus, so what is typed replaces it
        assert screen.query_one("#query", Input).value == "2 0 0"
        assert screen.result is not None and screen.result.q.tolist() == [2.0, 0.0, 0.0]


async def test_a_long_burst_arrives_whole_and_in_order():
    text = "1 2 3 4 5 6 7 8 9 0 " * 3  # 60 keys, as many as the classroom report typed
    async with AttnApp(lang="en").run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        burst(pilot.app, "enter", *typed(text))
        await settle(pilot)
        assert pilot.app.screen.query_one("#query", Input).value == text


async def test_keys_after_the_calculator_is_open_from_an_exercise_reach_it_not_the_exercise():
    async with AttnApp(lang="en").run_test(size=(80, 24)) as pilot:
        await pilot.app.switch_mode("exercises")
        await pilot.pause()
        exercise = pilot.app.screen
        assert isinstance(exercise, ExercisesScreen)
        exercise.open_set("hand-example")
        await pilot.pause()
        fill = exercise.inst.calculator
        await pilot.press("f7")  # the first press warns that it counts as a reveal
        await pilot.pause()
        burst(pilot.app, "f7", *typed("9 9"))
        await settle(pilot)
        calc = pilot.app.screen
        assert isinstance(calc, CalculatorScreen)
        # the exercise's keys are filled in, and what was typed after F7 went to the query
        rows = "\n".join(r.strip() for r in fill["keys"].split(";"))
        assert calc.query_one("#keys", TextArea).text == rows
        assert calc.query_one("#query", Input).value == "9 9"
        assert exercise.query_one("#ex-answer", Input).value == ""


@pytest.mark.parametrize("index", [1, 4])
async def test_moves_and_enter_typed_at_once_open_the_area_moved_to(index):
    """Enter opens its area at once: the moves typed before it must have been made by then."""
    async with AttnApp(lang="en").run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        mode = pilot.app.AREAS[index]
        burst(pilot.app, *["down"] * index, "enter")
        await settle(pilot)
        assert pilot.app.current_mode == mode


async def test_an_answer_typed_as_an_exercise_set_opens_goes_into_its_answer_field():
    """Enter on the list of sets opens the set in a message handler that runs later: the
    letter typed straight after it went to the list and was lost."""
    async with AttnApp(lang="en").run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        burst(pilot.app, "down", "down", "enter", "enter", "c")
        await settle(pilot)
        screen = pilot.app.screen
        assert isinstance(screen, ExercisesScreen) and screen.inst is not None
        assert screen.query_one("#ex-answer", Input).value == "c"


async def test_a_key_in_the_query_and_the_steps_it_changes_are_painted_together():
    """Issue 14: the field's echo of a key was painted alone, and the steps followed a frame or
    two later. Every frame painted must show steps computed from the query it shows."""
    async with AttnApp(lang="en").run_test(size=(120, 40)) as pilot:
        await pilot.press("enter")
        await pilot.pause()
        screen = pilot.app.screen
        box = screen.query_one("#query", Input)
        box.cursor_position = len(box.value)
        painted: list[tuple[str, tuple]] = []
        paint = screen._compositor_refresh

        def recorded() -> None:
            painted.append((box.value, tuple(screen.result.q)))
            paint()

        screen._compositor_refresh = recorded
        for key in ("2", "backspace", "3", "backspace"):
            await pilot.press(key)
            await pilot.pause()
        assert {value for value, _ in painted} >= {"1 0 12", "1 0 1", "1 0 13"}
        for value, q in painted:
            assert q == tuple(float(v) for v in value.split()), (value, q)


async def test_a_key_in_the_keys_and_the_steps_it_changes_are_painted_together():
    """The same for the keys field (a TextArea)."""
    async with AttnApp(lang="en").run_test(size=(120, 40)) as pilot:
        await pilot.press("enter")
        await pilot.pause()
        screen = pilot.app.screen
        area = screen.query_one("#keys", TextArea)
        area.focus()
        area.move_cursor((0, len(area.document.get_line(0))))
        await pilot.pause()
        painted: list[tuple[str, tuple]] = []
        paint = screen._compositor_refresh

        def recorded() -> None:
            painted.append((area.document.get_line(0), tuple(screen.result.K[0])))
            paint()

        screen._compositor_refresh = recorded
        for key in ("2", "backspace", "3", "backspace"):
            await pilot.press(key)
            await pilot.pause()
        assert {line for line, _ in painted} >= {"1 0 02", "1 0 0", "1 0 03"}
        for line, k in painted:
            assert k == tuple(float(v) for v in line.split()), (line, k)
