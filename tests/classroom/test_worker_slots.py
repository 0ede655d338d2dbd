"""Training processes are a server's, not a tab's: under ``attn-tui serve`` the comparisons over
seeds (F10) of every session share ``--workers`` slots.

Before: one F10 in a served session started a pool of ``cpu_count`` worker processes that
``--max-sessions`` did not count; thirty tabs pressing it asked for thirty pools.
"""

from __future__ import annotations

import subprocess
import sys
import textwrap

import pytest

from attn_tui.core.models import processes as workers
from attn_tui.serve import server

pytestmark = [
    pytest.mark.slow,  # real processes holding slots, and a real server
    pytest.mark.skipif(sys.platform == "win32", reason="flock"),
]

HOLD = textwrap.dedent(
    """
    import sys
    from attn_tui.core.models.processes import claimed_workers
    with claimed_workers(int(sys.argv[1])) as n:
        print(n, flush=True)
        sys.stdin.read()  # held until the test lets go
    """
)


def holder(env: dict[str, str], wanted: int) -> tuple[subprocess.Popen, int]:
    proc = subprocess.Popen(
        [sys.executable, "-c", HOLD, str(wanted)], stdin=subprocess.PIPE,
        stdout=subprocess.PIPE, text=True, env=env,
    )  # fmt: skip
    return proc, int(proc.stdout.readline())


def test_processes_share_the_slots_and_a_dead_one_gives_its_back(tmp_path, monkeypatch):
    import os

    env = {**os.environ, workers.SLOTS_ENV: f"{tmp_path}:3"}
    first, got = holder(env, 2)
    assert got == 2
    second, got = holder(env, 2)
    assert got == 1, "one slot left: one worker is no better than its own process"
    third, got = holder(env, 1)
    assert got == 1  # wanting one never takes a slot
    first.kill()  # its locks go with it
    first.wait()
    fourth, got = holder(env, 4)
    assert got == 3
    for proc in (second, third, fourth):
        proc.communicate("")
    monkeypatch.delenv(workers.SLOTS_ENV, raising=False)
    with workers.claimed_workers(7) as n:  # not served: as many as asked
        assert n == 7


def test_the_server_names_the_same_setting_as_the_trainer():
    assert server.SLOTS_ENV == workers.SLOTS_ENV


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc")
async def test_every_served_session_knows_the_servers_slots(serve):
    """The session processes carry the server's slots, and the slots are those of --workers."""
    import aiohttp

    from .wsclient import Tab

    s = serve("--workers", "2", "--warm", "1")
    async with aiohttp.ClientSession() as http:
        tab = await Tab(http, s.base, name="ann").open()
        await tab.wait_for("Welcome, ann")
        found = set()
        for pid in s.descendants():
            try:
                env = open(f"/proc/{pid}/environ", "rb").read().split(b"\0")
            except OSError:
                continue
            found |= {e.split(b"=", 1)[1].decode() for e in env if e.startswith(b"ATTN_TUI_WORKER")}
        await tab.close()
    assert len(found) == 1, found
    folder, count = found.pop().rsplit(":", 1)
    assert count == "2" and folder.startswith("/")
    s.stop()
    assert not __import__("os").path.exists(folder), "the slots go with the server"


def worker_processes(served) -> int:
    """Training processes below the server: children of a multiprocessing forkserver."""
    from pathlib import Path

    count = 0
    for pid in served.descendants():
        try:
            parent = Path(f"/proc/{pid}/stat").read_text().rsplit(") ", 1)[1].split()[1]
            if b"forkserver" in Path(f"/proc/{parent}/cmdline").read_bytes():
                count += 1
        except (OSError, IndexError):
            continue
    return count


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc")
async def test_f10_in_a_served_session_starts_no_more_processes_than_the_server_allows(serve):
    import asyncio
    import re
    import time

    import aiohttp

    from .wsclient import Tab

    s = serve("--workers", "0", "--warm", "1")
    async with aiohttp.ClientSession() as http:
        tab = await Tab(http, s.base, name="ann").open(120, 40)
        await tab.wait_for("Welcome, ann")
        await tab.keys("\x1b[B\r")  # the trainer
        await tab.wait_for("F5")
        await tab.keys("\x1b[21~")  # F10: the settings against "versus", over ten seeds
        peak, done, deadline = 0, 0, time.monotonic() + 120
        while done < 2 and time.monotonic() < deadline:
            peak = max(peak, worker_processes(s))
            runs = re.findall(r"(\d+)/20 runs done", tab.seen)
            done = int(runs[-1]) if runs else 0
            await asyncio.sleep(0.2)
        await tab.close()
    s.stop()
    assert done >= 2, "the comparison runs, inside the session"
    assert peak == 0, f"{peak} training processes with --workers 0"
