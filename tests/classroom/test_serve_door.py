"""Who gets into ``attn-tui serve``, against a real server on 127.0.0.1 with real sockets.

Before: any ``Host`` got the page and any websocket ``Origin`` a session (DNS rebinding from any
web page the teacher had open could type into the calculator); a ``?name=`` starting with
``-`` reached the session's argparse as an option, and the tab stayed blank for ever holding a
place (with ``--no-preload``: four such links filled ``--max-sessions 4``); and a session that
failed to start did the same.
"""

from __future__ import annotations

import asyncio
import socket
import sys

import aiohttp
import pytest

from .wsclient import Refused, Tab

pytestmark = [
    pytest.mark.slow,  # real servers and their session processes
    pytest.mark.skipif(
        not sys.platform.startswith("linux"), reason="reads /proc; binds 127.0.0.x sources"
    ),
]


def raw_get(port: int, host: str, path: str = "/", extra: str = "") -> tuple[int, str]:
    """One HTTP/1.1 request with exactly this Host header; (status, body)."""
    with socket.create_connection(("127.0.0.1", port), timeout=10) as conn:
        conn.sendall(f"GET {path} HTTP/1.1\r\nHost: {host}\r\n{extra}Connection: close\r\n\r\n"
                     .encode("latin-1"))  # fmt: skip
        data = b""
        while chunk := conn.recv(65536):
            data += chunk
    head, _, body = data.partition(b"\r\n\r\n")
    return int(head.split(b" ", 2)[1]), body.decode("utf-8", "replace")


def test_only_the_hosts_the_server_was_started_for_get_the_page(serve):
    server = serve("--allow-host", "Class.Example.", "--warm", "0")
    port = server.port
    for host in (f"127.0.0.1:{port}", f"localhost:{port}", f"LOCALHOST.:{port}", "127.0.0.1",
                 f"class.example:{port}", f"[::1]:{port}"):  # fmt: skip
        status, body = raw_get(port, host)
        assert status == 200 and "data-session-websocket-url" in body, host
    for host in (f"rebind.attacker.example:{port}", "attacker.example", f"127.0.0.1.nip.io:{port}",
                 "", f"localhost.attacker.example:{port}", f"127.0.0.1:{port}@evil",
                 f"class.example.evil:{port}"):  # fmt: skip
        status, body = raw_get(port, host)
        assert status == 403 and "data-session-websocket-url" not in body, host
        assert "Not this classroom&#x27;s address" in body
    # the static files and the websocket refuse such a host too
    assert raw_get(port, "attacker.example", "/static/js/textual.js")[0] == 403
    assert raw_get(port, "attacker.example", "/ws/anything")[0] == 403
    for _ in range(50):
        raw_get(port, f"rebind.attacker.example:{port}")
    _, _, err = server.stop()
    lines = [line for line in err.splitlines() if "host" in line]
    assert 1 <= len(lines) <= 2, err  # the first said, the rest counted on one line
    assert "Traceback" not in err


async def test_a_websocket_from_another_origin_gets_no_session(serve):
    server = serve("--warm", "0")
    port = server.port
    before = set(server.descendants())  # the warm pool
    async with aiohttp.ClientSession() as http:
        for origin in (f"http://rebind.attacker.example:{port}", "null", None,
                       f"http://127.0.0.1:{port + 1}", f"https://127.0.0.1:{port}",
                       f"http://localhost:{port}"):  # fmt: skip
            tab = Tab(http, server.base, name="mallory")
            url = await tab.page()  # a page for 127.0.0.1: its ticket is good
            headers = {"Origin": origin} if origin is not None else {}
            with pytest.raises(aiohttp.WSServerHandshakeError) as refused:
                await http.ws_connect(f"{url}?width=80&height=24", headers=headers)
            assert refused.value.status == 403, origin
        await asyncio.sleep(0.5)
        assert set(server.descendants()) == before, "no session was started for any of them"
        tab = await Tab(http, server.base, name="ann").open()  # the page's own origin
        await tab.wait_for("Welcome, ann")
        await tab.close()
    _, _, err = server.stop()
    assert "origin" in err and err.count("\n") <= 3 and "Traceback" not in err


@pytest.mark.parametrize("preload", [False, True], ids=["cold", "pool"])
async def test_a_name_that_looks_like_an_option_is_a_name(serve, preload):
    args = ["--max-sessions", "2", "--warm", "0"] + ([] if preload else ["--no-preload"])
    server = serve(*args)
    names = ["-x", "--root=/etc", "--student", "-", "--help"]
    async with aiohttp.ClientSession() as http:
        for name in names:  # two at a time: each must start, and its place come back
            tab = await Tab(http, server.base, name=name).open()
            await tab.wait_for(f"Welcome, {name}")
            await tab.close()
            await asyncio.wait_for(tab.closed.wait(), 10)
        deadline = asyncio.get_running_loop().time() + 20
        while True:  # every place free again: a new tab is not told the class is full
            try:
                tab = await Tab(http, server.base, name="last").open()
                break
            except Refused:
                assert asyncio.get_running_loop().time() < deadline, "a place was never freed"
                await asyncio.sleep(0.5)
        await tab.wait_for("Welcome, last")
        await tab.close()
    students = sorted(p.name for p in (server.data / "students").iterdir())
    assert len(students) == len(names) + 1
    assert not (server.data / "etc").exists()
    _, _, err = server.stop()
    assert "Traceback" not in err and "usage:" not in err


FAILING = """
import sys
from attn_tui.serve.server import ClassroomServer
session = [sys.executable, "-c", "import sys; print('boom', file=sys.stderr); sys.exit(3)"]
server = ClassroomServer(session, port={port}, max_sessions=1, preload=False,
                         announce=lambda: print("ready", flush=True))
server.serve()
"""


async def test_a_session_that_fails_to_start_closes_its_tab_and_frees_its_place(serve):
    server = serve(argv=[sys.executable, "-c", FAILING], ready="ready")
    async with aiohttp.ClientSession() as http:
        for _ in range(3):  # max_sessions=1: each needs the place the last one held
            tab = await Tab(http, server.base).open()
            await asyncio.wait_for(tab.closed.wait(), 20)
            await asyncio.sleep(0.3)
    _, out, err = server.stop()
    assert "Traceback" not in err + out


CRASHING = """
import sys
from pathlib import Path
from attn_tui.serve.session import errors_to_log
errors_to_log(Path(sys.argv[1]))
raise RuntimeError("a session's own bug")
"""


def test_what_a_session_says_on_stderr_goes_to_its_log_not_the_teachers_terminal(tmp_path):
    import subprocess

    done = subprocess.run([sys.executable, "-c", CRASHING, str(tmp_path)],
                          capture_output=True, text=True, timeout=60)  # fmt: skip
    assert done.returncode == 1 and done.stderr == ""
    log = (tmp_path / "logs" / "sessions.log").read_text("utf-8")
    assert "Traceback" in log and "a session's own bug" in log
    assert (tmp_path / "logs" / "sessions.log").stat().st_mode & 0o077 == 0


DYING_PARKS = """
import sys
from attn_tui.serve import parked
def boom(self, *args, **kwargs):
    raise RuntimeError("a parked session's own bug")
parked.ParkedApp.__init__ = boom
from attn_tui.serve.pool import main
main(sys.argv[1:])
"""


def test_parked_sessions_that_keep_dying_are_no_longer_made(tmp_path):
    """A parked session that died at start was replaced at once, for ever: a fork a second and
    a traceback each in the teacher's terminal. Three in a row, and the pool stops parking."""
    import subprocess
    import time

    argv = [sys.executable, "-c", DYING_PARKS, "--socket", str(tmp_path / "pool.sock"),
            "--root", str(tmp_path), "--warm", "2"]  # fmt: skip
    pool = subprocess.Popen(argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True)  # fmt: skip
    try:
        assert pool.stdout.readline().strip() == "ready"
        time.sleep(4)  # the refills: one a second once no tab has come
    finally:
        pool.stdin.close()  # the server is gone: the pool ends
        pool.wait(30)
    err = pool.stderr.read()
    assert err.count("kept failing to start") == 1 and "Traceback" not in err, err
    log = (tmp_path / "logs" / "sessions.log").read_text("utf-8")
    assert 3 <= log.count("RuntimeError: a parked") <= 4, "it stopped after three"
