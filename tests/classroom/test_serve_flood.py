"""Slow and half-open clients against a real ``attn-tui serve`` on 127.0.0.1.

Before: requests whose headers never finished were never closed (0 of 20 after 60 s); under
``ulimit -n 1024``, 1,100 of them made ``accept()`` fail with EMFILE, a real student's page
timed out, and the server printed 139,121 "Too many open files" tracebacks (56 MB) in 40 s.

Each case here is bounded in count (a few hundred sockets) and time (each wait has a deadline,
and every socket is closed when the test ends, passed or not). The flood comes from other
loopback addresses (127.0.0.2 …), as it would from other machines, while the student comes
from 127.0.0.1.
"""

from __future__ import annotations

import asyncio
import contextlib
import socket
import sys
import time

import aiohttp
import pytest

from .wsclient import Tab

pytestmark = [
    pytest.mark.slow,  # a real server and hundreds of sockets
    pytest.mark.skipif(
        not sys.platform.startswith("linux"), reason="binds 127.0.0.x source addresses"
    ),
]
REQUEST_S = 5.0  # attn_tui.serve.gate.REQUEST_S, restated: the bound this test checks


def half_open(port: int, source: str, count: int, head: bytes) -> list[socket.socket]:
    """``count`` connections from ``source`` that send ``head`` (never a whole request)."""
    conns = []
    for _ in range(count):
        conn = socket.socket()
        conn.setblocking(False)
        conn.bind((source, 0))
        with contextlib.suppress(BlockingIOError):
            conn.connect(("127.0.0.1", port))
        conns.append(conn)
    deadline = time.monotonic() + 10
    for conn in conns:  # connected (or refused) before the head is sent
        while time.monotonic() < deadline:
            try:
                conn.getpeername()
                break
            except OSError:
                time.sleep(0.005)
        with contextlib.suppress(OSError):
            conn.send(head)
    return conns


def closed_by_server(conn: socket.socket) -> bool:
    try:
        return conn.recv(65536) == b"" or True  # any answer (a 503) and then the close
    except BlockingIOError:
        return False
    except OSError:  # reset
        return True


async def wait_closed(conns: list[socket.socket], within: float) -> list[socket.socket]:
    """The connections still open after ``within`` seconds (an empty list: all were closed)."""
    deadline = time.monotonic() + within
    left = list(conns)
    while left and time.monotonic() < deadline:
        left = [c for c in left if not closed_by_server(c)]
        await asyncio.sleep(0.2)
    return left


async def drip(conns: list[socket.socket], seconds: float) -> None:
    """One more header byte a second on each connection: slow, never finished."""
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        for conn in conns:
            with contextlib.suppress(OSError):
                conn.send(b"X")
        await asyncio.sleep(1)


async def first_screen(base: str, name: str, timeout: float = 60) -> float:
    started = time.monotonic()
    async with aiohttp.ClientSession(timeout=aiohttp.ClientTimeout(total=timeout)) as http:
        tab = await Tab(http, base, name=name).open()
        try:
            await tab.wait_for(f"Welcome, {name}", timeout=timeout)
        finally:
            await tab.close()
    return time.monotonic() - started


HEAD = b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: "


async def test_half_open_connections_are_closed_within_the_bound_and_the_class_gets_in(serve):
    server = serve("--warm", "2", "--max-sessions", "8")
    conns = half_open(server.port, "127.0.0.2", 20, HEAD)
    conns += half_open(server.port, "127.0.0.3", 20, b"")  # not a byte sent
    try:
        dripping = asyncio.ensure_future(drip(conns[:20], REQUEST_S + 4))
        took = await first_screen(server.base, "ann")  # while they hang on
        left = await wait_closed(conns, REQUEST_S + 4)
        assert not left, f"{len(left)} of {len(conns)} still open after {REQUEST_S + 4} s"
        await dripping
    finally:
        for conn in conns:
            conn.close()
    assert took < 30
    _, _, err = server.stop()
    assert "Traceback" not in err and len(err) < 2000, err[:2000]


async def test_one_address_holding_many_connections_displaces_only_itself(serve):
    server = serve("--warm", "2")
    flood = half_open(server.port, "127.0.0.2", 300, HEAD)
    try:
        await asyncio.sleep(1)
        still = [c for c in flood if not closed_by_server(c)]
        assert len(still) <= 40, f"{len(still)} connections from one address held"
        took = await asyncio.wait_for(first_screen(server.base, "bob"), 60)
        assert took < 30
    finally:
        for conn in flood:
            conn.close()
    _, _, err = server.stop()
    assert "Traceback" not in err and len(err.splitlines()) <= 8, err[:2000]


async def test_a_flood_past_the_descriptor_limit_neither_breaks_accept_nor_floods_the_log(
    serve,
):
    """``ulimit -n 256``, and 600 half-open connections from 30 addresses (20 each, under the
    per-address bound): the server keeps within its descriptors, a student still gets in, and
    the teacher's terminal gets a few lines."""
    server = serve("--warm", "1", "--max-sessions", "4", files=256)
    flood: list[socket.socket] = []
    try:
        for i in range(30):
            flood += half_open(server.port, f"127.0.0.{10 + i}", 20, HEAD)
        dripping = asyncio.ensure_future(drip(flood, 6))
        took = await asyncio.wait_for(first_screen(server.base, "cat"), 90)
        assert took < 45
        left = await wait_closed(flood, REQUEST_S + 6)
        assert not left, f"{len(left)} of {len(flood)} still open"
        await dripping
        again = await asyncio.wait_for(first_screen(server.base, "dan"), 60)
        assert again < 30
    finally:
        for conn in flood:
            conn.close()
    _, _, err = server.stop()
    assert "Traceback" not in err and "Too many open files" not in err, err[:2000]
    assert len(err) < 4000, f"{len(err)} bytes on stderr"
