"""A served student's progress has a size budget, and the session says so when it is reached
(against a real server on 127.0.0.1). Before: a student's store grew without bound on the
teacher's disk, and nothing was said."""

from __future__ import annotations

import sqlite3
import sys

import aiohttp
import pytest

from attn_tui.core.progress import ProgressStore
from attn_tui.serve.session import STUDENT_BUDGET

from .wsclient import Tab

pytestmark = [
    pytest.mark.slow,  # a real server and its session
    pytest.mark.skipif(not sys.platform.startswith("linux"), reason="forked sessions"),
]


def fill(folder, size: int) -> None:
    """A student's store holding ``size`` bytes of earlier attempts, written in one go."""
    ProgressStore.open(folder).close()
    conn = sqlite3.connect(folder / "progress.db")
    rows = (("other-set", f"e{i}", "x" * 4000, 0, 0.0, 0, 0, None, 1000.0 + i)
            for i in range(size // 4000 + 1))  # fmt: skip
    with conn:
        conn.executemany(
            "INSERT INTO attempts (set_id, exercise_id, answer, correct, score, hints_used,"
            " revealed, seed, at) VALUES (?,?,?,?,?,?,?,?,?)",
            rows,
        )
    conn.close()


async def test_a_student_past_the_budget_is_told_and_practice_goes_on(serve):
    server = serve("--warm", "1", "--lang", "en")
    folder = server.data / "students" / "ann"
    fill(folder, STUDENT_BUDGET)
    before = (folder / "progress.db").stat().st_size
    async with aiohttp.ClientSession() as http:
        tab = await Tab(http, server.base, name="ann").open(120, 40)
        await tab.wait_for("Welcome, ann")
        await tab.keys("\x1b[B\x1b[B\r")  # the exercises
        await tab.wait_for("The three steps of attention")
        await tab.keys("\r")
        await tab.wait_for("Which sequence")
        await tab.keys("c\r")
        await tab.wait_for("Correct")  # graded and shown all the same
        await tab.wait_for("reached the size this server allows")
        await tab.close()
    server.stop()
    with ProgressStore.open(folder) as store:
        assert not store.attempts("three-steps"), "nothing more was kept"
    assert (folder / "progress.db").stat().st_size <= before + 64 * 1024


async def test_a_teachers_large_sets_are_read_once_by_the_server_not_by_every_student(
    serve, tmp_path
):
    """The warm pool reads the library before it forks: a tab's Exercises screen finds every
    file read (no "Loading …" while a thread parses megabytes again for each student)."""
    import importlib.util
    from pathlib import Path

    spec = importlib.util.spec_from_file_location(
        "heavy", Path(__file__).parents[1] / "ui" / "test_exercises_heavy_library.py"
    )
    heavy = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(heavy)
    heavy.big_set(tmp_path / "data" / "exercises", 1500)  # ~11 MB: it would load in a thread
    server = serve("--warm", "2", "--lang", "en")
    async with aiohttp.ClientSession() as http:
        for name in ("ann", "bob"):
            tab = await Tab(http, server.base, name=name).open(120, 40)
            await tab.wait_for(f"Welcome, {name}")
            await tab.keys("\x1b[B\x1b[B\r")
            await tab.wait_for("The three steps of attention")
            await tab.keys("\x1b[F")  # End: the last set, the teacher's
            await tab.wait_for("My big set")
            assert "Loading the exercise sets" not in tab.seen
            await tab.close()
    server.stop()
