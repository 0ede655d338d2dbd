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
