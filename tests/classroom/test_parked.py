"""Parked sessions (attn_tui/serve/parked.py): started before a tab arrives, nobody's until one
does, replaced once the class is in, and ended with the server; and the pool's shared CSS
parsing, which must give each stylesheet what its own parse would.
"""

from __future__ import annotations

import asyncio
import json
import os
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import aiohttp
import pytest

from attn_tui.serve.parked import tab_settings

from .conftest import alive
from .wsclient import Tab

pytestmark = [
    pytest.mark.slow,  # a real server, forked sessions
    pytest.mark.skipif(
        not sys.platform.startswith("linux"), reason="parking forks, and /proc shows who is parked"
    ),
]
TOKEN = "class-token-42"


def pool_children(server) -> tuple[list[int], list[int]]:
    """(parked, with a tab): the pool's session processes, told apart by their stdout."""
    pools = [p for p in server.descendants() if b"serve.pool" in _cmdline(p)]
    sessions = [int(k) for p in pools for k in _children(p)]
    parked = [p for p in sessions if _stdout(p) == os.devnull]
    return parked, [p for p in sessions if p not in parked and _stdout(p)]


def _cmdline(pid: int) -> bytes:
    try:
        return Path(f"/proc/{pid}/cmdline").read_bytes()
    except OSError:
        return b""


def _children(pid: int) -> list[str]:
    try:
        return Path(f"/proc/{pid}/task/{pid}/children").read_text().split()
    except OSError:
        return []


def _stdout(pid: int) -> str:
    try:
        return os.readlink(f"/proc/{pid}/fd/1")
    except OSError:
        return ""


async def until(check, timeout: float = 30.0) -> None:
    deadline = time.monotonic() + timeout
    while not check():
        assert time.monotonic() < deadline, "never happened"
        await asyncio.sleep(0.1)


async def test_parked_sessions_are_nobodys_until_a_tab_comes_and_are_replaced_after(serve):
    server = serve("--warm", "2", "--token", TOKEN, "--lang", "en")
    parked, busy = pool_children(server)
    assert len(parked) == 2 and not busy, "two sessions wait before anyone comes"
    assert not (server.data / "students").exists(), "a parked session has no student's folder"
    async with aiohttp.ClientSession() as http:
        # three at once: two take the parked sessions, the third a session forked for it
        tabs = await asyncio.gather(
            Tab(http, server.base, token=TOKEN, name="ann").open(),
            Tab(http, server.base, token=TOKEN, name="bob").open(),
            Tab(http, server.base, token=TOKEN).open(),
        )
        ann, bob, nameless = tabs
        await asyncio.gather(
            ann.wait_for("Welcome, ann"), bob.wait_for("Welcome, bob"), nameless.wait_for("name")
        )
        assert "Welcome, bob" not in ann.seen and "Welcome, ann" not in bob.seen
        taken = set(parked) & set(pool_children(server)[1])
        assert len(taken) == 2, "the parked sessions went to the first tabs"
        # the tab's keys reach a parked session, which computes as any other
        await ann.keys("\r")  # the calculator, laid out while parked
        await ann.wait_for("Step 1 of 4")
        ann.seen = ""
        for _ in range(20):  # until the query field has focus (a person is never this quick)
            await ann.keys("\x150 1 1")
            try:
                await ann.wait_for("0×1 + 1×0 + 1×1 = 1", 3)
                break
            except AssertionError:
                continue
        assert "0×1 + 1×0 + 1×1 = 1" in ann.seen
        for tab in tabs:
            await tab.close()
        # the class is in and quiet: the pool parks new sessions, one at a time; a tab that
        # comes while one is still being made gets it when it is ready
        await until(lambda: pool_children(server)[0])
        late = await Tab(http, server.base, token=TOKEN, name="cy").open()
        await late.wait_for("Welcome, cy")
        await late.close()
        await until(lambda: len(pool_children(server)[0]) == 2 and not pool_children(server)[1])
        again, _ = pool_children(server)
        assert not set(again) & taken
    assert sorted(p.name for p in (server.data / "students").iterdir()) == ["ann", "bob", "cy"]
    below = server.descendants()
    status, out, _ = server.stop()
    assert status == 0 and "4 session(s) ended" in out
    await until(lambda: not any(alive(p) for p in below), 10)  # parked ones end too


def test_a_tabs_settings_are_bounded():
    assert tab_settings({"student": "ann", "env": {"COLUMNS": "100", "ROWS": "30"}}) == (
        "ann",
        {"COLUMNS": "100", "ROWS": "30"},
    )
    assert tab_settings({"env": {"COLUMNS": "1000000000", "ROWS": "-4"}}) == (
        None,
        {"COLUMNS": "500", "ROWS": "5"},
    )
    for hostile in ({"student": 5, "env": "x"}, {"student": "x" * 401, "env": {"ROWS": "a"}}, {}):
        assert tab_settings(hostile) == (None, {})


@pytest.mark.parametrize(
    ("args", "says"),
    [
        (["--warm", "-1"], "--warm must be 0 to --max-sessions (60): -1"),
        (["--warm", "3", "--max-sessions", "2"], "--warm must be 0 to --max-sessions (2): 3"),
    ],
)
def test_a_bad_warm_is_one_line(capsys, args, says):
    from attn_tui.cli import main

    assert main(["--lang", "en", "serve", *args]) == 2
    err = capsys.readouterr().err
    assert says in err and err.count("\n") == 1


def test_shared_css_parsing_gives_each_stylesheet_what_its_own_parse_would():
    """In a process of its own: sharing patches Textual's parse for the whole process."""
    script = textwrap.dedent(
        """
        from textual.css.stylesheet import Stylesheet
        from attn_tui.serve.pool import share_parsed_css

        CSS = "Static { color: $accent; } .x > Label { width: 3; }"

        def rules(accent):
            sheet = Stylesheet(variables={"accent": accent})
            sheet.add_source(CSS, read_from=("test", "CSS"))
            sheet.parse()
            return sheet.rules

        def styles(rule_sets):
            return [(r.selector_names, r.styles.css) for r in rule_sets]

        own_red, own_blue = styles(rules("red")), styles(rules("blue"))
        share_parsed_css()
        share_parsed_css()  # twice: still one cache, not a cache of a cache
        red = rules("red")
        assert styles(red) == own_red, "the same result as an unshared parse"
        assert rules("red")[0] is red[0], "a second stylesheet reuses the first one's rules"
        assert styles(rules("blue")) == own_blue != own_red, "the variables are in the key"
        print("ok")
        """
    )
    done = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, timeout=120
    )
    assert done.stdout.strip() == "ok", done.stderr


async def test_keys_right_after_the_browsers_focus_reach_a_parked_sessions_list(serve):
    """textual.js says "focus" when the student clicks the page, then their keys follow at
    once: a parked session gives its first screen's list the focus back in time for them."""
    server = serve("--warm", "3", "--lang", "en")
    async with aiohttp.ClientSession() as http:
        tabs = [await Tab(http, server.base, name=f"s{i}").open() for i in range(3)]
        for tab in tabs:
            await tab.wait_for("Welcome")
            await tab.ws.send_str(json.dumps(["focus"]))
            await tab.keys("\x1b[B\x1b[B\r")  # down, down, Enter: the exercises
        for tab in tabs:
            await tab.wait_for("0/")  # the sets, none begun
            assert "Step 1 of 4" not in tab.seen, "not the calculator (the first area)"
            await tab.close()
    server.stop()
