"""The screens keep working without a progress store, and say why (issue 12).

Reproductions: `mkdir -p D/progress.db; ATTN_TUI_DATA_DIR=D attn-tui`, open the quiz → the app
died with OperationalError (and exited 0: cli.main now returns the app's return code, tested
in test_cli_faults.py; here a crash would raise out of run_test); a full disk at the end of a
quiz did the same; a deeply nested set in <data dir>/exercises killed the app on opening
Exercises; 30 KB pasted into the calculator's query froze it for 15 s.
"""

from __future__ import annotations

import sqlite3
import time

import pytest
from textual.widgets import Input, OptionList, Static

from attn_tui.app import AttnApp
from attn_tui.screens.exercises import ExercisesScreen
from attn_tui.screens.quiz import QuizScreen

from .hostile import bound


@pytest.fixture(autouse=True)
def _isolated(tmp_path, monkeypatch):
    monkeypatch.setenv("ATTN_TUI_DATA_DIR", str(tmp_path / "data"))
    monkeypatch.setattr(QuizScreen, "SEED", 3)
    yield
    from attn_tui import i18n

    i18n.set_lang("en")


async def open_area(pilot, mode: str, screen_class):
    pilot.app.switch_mode(mode)
    await pilot.pause()
    screen = pilot.app.screen
    assert isinstance(screen, screen_class)
    return screen


def notes(app) -> str:
    return " ".join(str(n.message) for n in app._notifications)


async def finish_quiz(pilot, screen: QuizScreen) -> None:
    await pilot.press("enter")  # Quick
    await pilot.pause()
    for _ in range(len(screen.run)):
        await pilot.click("#skip")
        await pilot.pause()
        await pilot.press("enter")  # next
        await pilot.pause()
    assert screen.view == "summary"


@pytest.mark.slow  # a whole quiz walked to its end
async def test_the_quiz_without_a_store_says_why_and_runs_to_the_end(tmp_path):
    (tmp_path / "data" / "progress.db").mkdir(parents=True)
    async with AttnApp(lang="en").run_test(size=(80, 24)) as pilot:
        screen = await open_area(pilot, "quiz", QuizScreen)
        assert screen.store is None
        assert "Progress is not being saved" in notes(pilot.app)
        assert "not a regular file" in notes(pilot.app)
        await finish_quiz(pilot, screen)


@pytest.mark.slow  # a whole quiz walked to its end
async def test_a_full_disk_at_the_end_of_a_quiz_keeps_the_summary_and_says_so():
    async with AttnApp(lang="en").run_test(size=(80, 24)) as pilot:
        screen = await open_area(pilot, "quiz", QuizScreen)
        conn = screen.store.store.conn
        conn.execute(f"PRAGMA max_page_count = {conn.execute('PRAGMA page_count').fetchone()[0]}")
        conn.execute("PRAGMA cache_size = 0")
        filler = "x" * 4000
        with pytest.raises(sqlite3.OperationalError):  # fill the free pages: the result won't fit
            for i in range(100):
                conn.execute(
                    "INSERT INTO quiz_attempts (mode, score, total, per_topic, missed, at)"
                    " VALUES ('quick', 0, 1, '{}', ?, 0)",
                    (f'["{filler}{i}"]',),
                )
        await finish_quiz(pilot, screen)
        assert screen.result is not None and screen.view == "summary"
        assert "disk is full" in notes(pilot.app)


async def test_exercises_without_a_store_say_why_and_still_grade(tmp_path):
    (tmp_path / "data" / "progress.db").mkdir(parents=True)
    async with AttnApp(lang="en").run_test(size=(100, 30)) as pilot:
        screen = await open_area(pilot, "exercises", ExercisesScreen)
        assert screen.store is None
        notice = screen.query_one("#ex-notice", Static)
        assert notice.has_class("-shown") and "not a regular file" in str(screen.store_error)
        await pilot.press("enter")  # open the first set
        await pilot.pause()
        box = screen.query_one("#ex-answer", Input)
        box.value = "0"
        await pilot.press("enter")
        await pilot.pause()
        assert screen.pane.grade is not None  # graded, though nothing could be kept


async def test_a_deeply_nested_set_shows_as_broken_and_exercises_open(tmp_path):
    folder = tmp_path / "data" / "exercises"
    folder.mkdir(parents=True)
    (folder / "deep.toml").write_text("x = " + "[" * 3000 + "]" * 3000 + "\n", "utf-8")
    (folder / "dotted.toml").write_text(".".join(["a"] * 20000) + " = 1\n", "utf-8")
    async with AttnApp(lang="en").run_test(size=(100, 30)) as pilot:
        screen = await open_area(pilot, "exercises", ExercisesScreen)
        assert len(screen.library.broken) == 2 and screen.library.sets
        options = screen.query_one("#ex-sets", OptionList)
        assert options.option_count == len(screen.library.sets) + 2


async def test_thirty_kilobytes_pasted_into_the_query_do_not_freeze_the_calculator():
    async with AttnApp(lang="en").run_test(size=(100, 30)) as pilot:
        pilot.app.switch_mode("calc")
        await pilot.pause()
        box = pilot.app.screen.query_one("#query", Input)
        start = time.perf_counter()
        box.value = "1" * 30_000 + "x"
        await pilot.pause()
        assert time.perf_counter() - start < bound(30_000)  # was ~15 s
