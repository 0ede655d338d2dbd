"""A learner walks the course over simulated days (ATTN_TUI_NOW): lesson 1's do-task checked
from the calculator's state, a wrong answer diagnosed, the check passed, home's Continue on
lesson 2, a review due two days later and answered, mastery raised — and a lesson left
half-way comes back as it was left."""

from __future__ import annotations

import time

import pytest
from textual.widgets import Input, OptionList, TextArea

from attn_tui import coursebook
from attn_tui.app import AttnApp
from attn_tui.core.course import clock
from attn_tui.core.course.mastery import FAMILIAR, PROFICIENT
from attn_tui.core.exercises.generators import fmt_matrix, fmt_number, fmt_vector
from attn_tui.core.progress import ProgressStore
from attn_tui.screens.calculator import CalculatorScreen
from attn_tui.screens.home import HomeScreen
from attn_tui.screens.lesson import LessonScreen
from attn_tui.screens.review import ReviewScreen
from attn_tui.widgets.item_card import ItemCard

from .conftest import screen_lines

DAY0 = "2026-05-03T09:00"
DAY2 = "2026-05-05T09:30"


async def until(pilot, condition, seconds: float = 30.0) -> None:
    """Wait (bounded) for something the app does off the UI thread or on a timer."""
    deadline = time.monotonic() + seconds
    while not condition():
        assert time.monotonic() < deadline, "timed out"
        await pilot.pause(0.05)


async def home_ready(pilot) -> HomeScreen:
    app = pilot.app
    await until(pilot, lambda: coursebook.loaded(app) is not None)
    await pilot.pause()
    assert isinstance(app.screen, HomeScreen)
    return app.screen


def first_option(home: HomeScreen) -> str:
    course = home.query_one("#course", OptionList)
    return str(course.get_option_at_index(0).prompt).split("  · ")[0].lstrip("▶ ")


def right_answer(inst) -> str:
    """What a learner who knows it types."""
    ex = inst.exercise
    if ex.kind == "number":
        return fmt_number(inst.answer)
    if ex.kind == "vector":
        return fmt_vector(inst.answer)
    if ex.kind == "matrix":
        return fmt_matrix(inst.answer)
    if ex.kind == "choice":
        return inst.answer
    if ex.kind == "multi":
        return " ".join(sorted(inst.answer))
    if ex.kind == "truefalse":
        return "true" if inst.answer else "false"
    return inst.answer.en


async def type_into(pilot, field: Input, text: str) -> None:
    field.focus()
    field.value = text
    await pilot.pause()
    await pilot.press("enter")
    await pilot.pause()


async def answer_card(pilot, screen, text: str) -> ItemCard:
    card = screen.query_one(ItemCard)
    await type_into(pilot, card.query_one("#item-answer", Input), text)
    return card


def feedback(card: ItemCard) -> str:
    from .conftest import shown

    return " ".join(shown(card.query_one("#item-feedback"), 200).split())


@pytest.mark.slow  # a learner's three days through the course
async def test_a_learner_over_three_days(tmp_path, monkeypatch):
    data = tmp_path / "d"
    monkeypatch.setenv(clock.ENV_NOW, DAY0)
    async with AttnApp(lang="en", data_dir=data).run_test(size=(80, 24)) as pilot:
        home = await home_ready(pilot)
        assert first_option(home) == "Continue: lesson 1 · The three steps, by hand"
        await pilot.press("c")
        await until(pilot, lambda: isinstance(pilot.app.screen, LessonScreen))
        lesson = pilot.app.screen
        assert lesson.step.kind == "read"
        await pilot.press("enter")  # read: done
        assert lesson.step.kind == "do" and "read" in lesson.record.done

        # do: the calculator opens with the textbook example; k₃ wins, so not done yet
        await pilot.press("f4")
        await until(pilot, lambda: isinstance(pilot.app.screen, CalculatorScreen))
        calc = pilot.app.screen
        await pilot.pause(0.6)
        assert not (lesson.result and lesson.result.done)
        keys = calc.query_one("#keys", TextArea)
        keys.text = "1 0 0\n5 5 5\n1 0 1\n9 9 9"  # two keys changed: refused
        await until(
            pilot, lambda: lesson.result is not None and lesson.result.code == "changed_other"
        )
        keys.text = "1 0 0\n2 0 2\n1 0 1\n1 1 0"  # k₂ alone, now on top
        await until(pilot, lambda: lesson.result is not None and lesson.result.done)
        await pilot.press("escape")
        await until(pilot, lambda: pilot.app.screen is lesson)
        assert "do" in lesson.record.done

        # practise: a wrong answer is diagnosed, then right ones
        await pilot.press("pagedown")
        assert lesson.step.kind == "practise"
        while lesson.step.items[lesson.item_index] != "hand-example/weights":
            await pilot.press("f5")
        card = await answer_card(pilot, lesson, "0.25 0.25 0.25 0.25")
        assert "an even split, as if the scores did not matter" in feedback(card)
        solved = 0
        for _ in range(8):
            if "practise" in lesson.record.done:
                break
            inst = lesson.query_one(ItemCard).inst
            card = await answer_card(pilot, lesson, right_answer(inst))
            assert card.graded.correct
            solved += 1
            await pilot.press("enter")  # next item
        assert "practise" in lesson.record.done

        # (lesson 1 also offers a code exercise, in the code area; it is not needed to pass)
        while lesson.step.kind != "check":
            await pilot.press("pagedown")
        # check: two of three right passes
        for n in range(3):
            inst = lesson.query_one(ItemCard).inst
            wrong = n == 1  # one miss
            await answer_card(
                pilot,
                lesson,
                "7"
                if wrong and inst.exercise.kind == "number"
                else ("no idea" if wrong else right_answer(inst)),
            )
            if lesson.record.passed:
                break
            await pilot.press("enter")
        assert lesson.record.passed
        await pilot.press("escape")
        home = await home_ready(pilot)
        assert first_option(home) == "Continue: lesson 2 · Why divide by √d"
        assert "✓ ○ ·" in " ".join(screen_lines(pilot.app))

    with ProgressStore.open(data) as store:
        first_levels = _levels(store)
        assert store.count_due(clock.parse_now(DAY0)) == 0
        due_later = store.count_due(clock.parse_now(DAY2))
        assert due_later >= 4  # what was answered right on day 0 comes back in two days

    # two days later
    monkeypatch.setenv(clock.ENV_NOW, DAY2)
    async with AttnApp(lang="en", data_dir=data).run_test(size=(80, 24)) as pilot:
        home = await home_ready(pilot)
        course = home.query_one("#course", OptionList)
        assert f"Review: {due_later} due" in str(course.get_option_at_index(1).prompt)
        await pilot.press("r")
        await until(pilot, lambda: isinstance(pilot.app.screen, ReviewScreen))
        review = pilot.app.screen
        for _ in range(due_later):
            inst = review.inst
            await answer_card(pilot, review, right_answer(inst))
            await pilot.press("enter")
        assert review.queue == [] and len(review.done) == due_later
        assert all(ok for _, ok in review.done)
    with ProgressStore.open(data) as store:
        assert store.count_due(clock.parse_now(DAY2)) == 0
        after = _levels(store)
        reviews = [a for a in store.attempts() if a.review]
        assert len(reviews) == due_later
    assert first_levels["dot-product"] == FAMILIAR
    assert after["dot-product"] == PROFICIENT  # right again, on another day: raised


def _levels(store):
    from attn_tui import paths
    from attn_tui.core.course.mastery import mastery, topics_of

    lib = paths.load_all()
    m = mastery(store.attempts(), topics_of(lib.sets + lib.quizzes))
    return {topic: x.level for topic, x in m.items()}


async def test_quitting_mid_lesson_loses_nothing(tmp_path, monkeypatch):
    data = tmp_path / "d"
    monkeypatch.setenv(clock.ENV_NOW, DAY0)
    async with AttnApp(lang="en", data_dir=data).run_test(size=(80, 24)) as pilot:
        await home_ready(pilot)
        pilot.app.screen._open("continue")
        await until(pilot, lambda: isinstance(pilot.app.screen, LessonScreen))
        lesson = pilot.app.screen
        await pilot.press("enter", "pagedown")  # read done; on to practise
        assert lesson.step.kind == "practise"
        field = lesson.query_one(ItemCard).query_one("#item-answer", Input)
        field.focus()
        await pilot.press(*"1 0 2")  # typed, not submitted
        item = lesson.step.items[lesson.item_index]
        await pilot.pause()
    # the app is gone (quit); open it again
    async with AttnApp(lang="en", data_dir=data).run_test(size=(80, 24)) as pilot:
        home = await home_ready(pilot)
        assert "next: Practise" in str(
            home.query_one("#course", OptionList).get_option_at_index(0).prompt
        )
        await pilot.press("up", "up", "up", "enter")  # up from the areas into the course
        await until(pilot, lambda: isinstance(pilot.app.screen, LessonScreen))
        lesson = pilot.app.screen
        assert lesson.step.kind == "practise" and lesson.record.done == ("read",)
        assert lesson.step.items[lesson.item_index] == item
        field = lesson.query_one(ItemCard).query_one("#item-answer", Input)
        assert field.value == "1 0 2"
