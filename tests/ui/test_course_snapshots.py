"""Snapshots of the course's screens at 80×24 and 120×40, in Chinese and English: a lesson's
read, do (checked from the calculator) and practise (a wrong answer diagnosed) steps, the
path, and a review. Refresh with ``--snapshot-update`` and look at every changed SVG."""

from __future__ import annotations

import time

import pytest
from textual.widgets import Input, TextArea

from attn_tui import coursebook
from attn_tui.app import AttnApp
from attn_tui.core.course import clock
from attn_tui.widgets.item_card import ItemCard

SIZES = [(80, 24), (120, 40)]
NOW = "2026-05-03T09:00"


@pytest.fixture(autouse=True)
def _fixed_day(monkeypatch):
    monkeypatch.setenv(clock.ENV_NOW, NOW)


async def _until(pilot, condition, seconds: float = 30.0) -> None:
    deadline = time.monotonic() + seconds
    while not condition():
        assert time.monotonic() < deadline, "timed out"
        await pilot.pause(0.05)


async def _still(pilot) -> None:
    for widget in pilot.app.screen.query("Input, TextArea"):
        widget.cursor_blink = False
    await pilot.pause()


async def _lesson(pilot):
    await _until(pilot, lambda: coursebook.loaded(pilot.app) is not None)
    await pilot.pause()
    await pilot.press("c")
    await _until(pilot, lambda: type(pilot.app.screen).__name__ == "LessonScreen")
    await pilot.pause()
    return pilot.app.screen


def _read():
    async def run_before(pilot) -> None:
        await _lesson(pilot)
        await _still(pilot)

    return run_before


def _do_done():
    async def run_before(pilot) -> None:
        lesson = await _lesson(pilot)
        await pilot.press("enter", "f4")
        await _until(pilot, lambda: type(pilot.app.screen).__name__ == "CalculatorScreen")
        pilot.app.screen.query_one("#keys", TextArea).text = "1 0 0\n2 0 2\n1 0 1\n1 1 0"
        await _until(pilot, lambda: lesson.result is not None and lesson.result.done)
        await pilot.press("escape")
        await _until(pilot, lambda: pilot.app.screen is lesson)
        pilot.app.clear_notifications()
        await _still(pilot)

    return run_before


def _practise_diagnosed():
    async def run_before(pilot) -> None:
        lesson = await _lesson(pilot)
        await pilot.press("enter", "pagedown")
        field = lesson.query_one(ItemCard).query_one("#item-answer", Input)
        field.focus()
        field.value = "0.5774 0 1.1547 0.5774"  # the scaled scores, not the dot products
        await pilot.press("enter")
        await pilot.pause()
        await _still(pilot)

    return run_before


def _path():
    async def run_before(pilot) -> None:
        await _until(pilot, lambda: coursebook.loaded(pilot.app) is not None)
        await pilot.pause()
        await pilot.press("p")
        await pilot.pause()
        await _still(pilot)

    return run_before


def _review():
    async def run_before(pilot) -> None:
        await _until(pilot, lambda: coursebook.loaded(pilot.app) is not None)
        book = coursebook.loaded(pilot.app)
        three_days_ago = clock.parse_now(NOW) - 3 * 86400
        book.store.record_attempt(
            "hand-example", "sqrt3", "1.7321", correct=True, score=1.0, at=three_days_ago
        )
        book.changed()
        pilot.app.screen.refresh_course()
        await pilot.press("r")
        await pilot.pause()
        await _still(pilot)

    return run_before


CASES = {
    "read": _read,
    "do_done": _do_done,
    "practise_diagnosed": _practise_diagnosed,
    "path": _path,
    "review": _review,
}


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
@pytest.mark.parametrize("lang", ["en", "zh"])
@pytest.mark.parametrize("case", list(CASES))
def test_course_screen(snap_compare, case, lang, size):
    assert snap_compare(AttnApp(lang=lang), terminal_size=size, run_before=CASES[case]())
