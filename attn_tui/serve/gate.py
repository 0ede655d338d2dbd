"""The door of the classroom server: who may hold a connection, for how long, and what the
teacher's terminal hears about the ones turned away.

Anyone who reaches the port can open connections and never finish a request. Unchecked, a
thousand of them held every descriptor the server had: ``accept()`` failed with EMFILE, a real
student's page timed out, and the terminal filled with a traceback per failed accept (56 MB in
40 s). Here every connection passes a :class:`Gate` first:

- **Time.** A connection must complete a request's head within :data:`REQUEST_S` of opening
  (or of its last answer, when kept alive); else aiohttp's keep-alive timer, which is set to
  that, closes it. Nothing else is needed for a client that sends nothing, or one byte a second.
- **Count per address.** At most :data:`PER_ADDRESS` connections from one address may be
  *waiting* (opened, no request in progress). One more closes the oldest waiting one of that
  address: a flood only displaces itself, while a browser, which sends its request the moment
  it connects, is never the oldest for long. A request in progress (a page, a session's
  websocket) is never closed for this.
- **Count in all.** At most :attr:`Gate.limit` connections at once, from the descriptors the
  process may open less a reserve for the sessions (each needs its pipes) and for the
  connections asyncio accepts in one go before the gate sees them. At the limit the
  oldest waiting connection anywhere is closed for the new one; when none is waiting, the new
  one is answered ``503`` and closed. So ``accept()`` never runs out of descriptors.
- **Words.** What is turned away is counted and told in one line per kind at most every
  :data:`LOG_EVERY_S` (:class:`Tally`), never a traceback per event; asyncio's and aiohttp's
  own error reports go through the same tally (:func:`quiet_errors`).

A connection is a plain :class:`asyncio.Protocol` in front of aiohttp's own (``Guarded``): it
decides at ``connection_made`` and then passes every call through.
"""

from __future__ import annotations

import asyncio
import logging
import os
import time
from collections import OrderedDict
from collections.abc import Callable

REQUEST_S = 5.0  # a request's head, complete, within this of connecting (or the last answer)
PER_ADDRESS = 32  # waiting connections one address may hold
LOG_EVERY_S = 10.0  # one line per kind of event at most this often
FD_RESERVE = 48  # descriptors the server keeps for itself (listening sockets, the pool, logs)
FD_PER_SESSION = 6  # a session's pipes (stdin, stdout, stderr), its websocket, and slack
ACCEPT_BURST = 8  # connections asyncio accepts in one turn of the loop
# Descriptors in flight beyond the gate's count: a connection reaches the gate (connection_made)
# two turns of the loop after it is accepted, and one it closes is let go a turn later; so up to
# four bursts' worth are held that the gate has not counted (measured: 32 in one go ran EMFILE).
IN_FLIGHT = 4 * ACCEPT_BURST
MIN_CONNECTIONS = 16

BUSY = "The server is busy; try again in a moment.\n服务器正忙，请稍后再试。\n".encode()  # both: no
# request has been read, so nothing says which language the student reads
FULL_RESPONSE = (
    b"HTTP/1.1 503 Service Unavailable\r\nContent-Type: text/plain; charset=utf-8\r\n"
    b"Retry-After: 5\r\nConnection: close\r\nContent-Length: %d\r\n\r\n" % len(BUSY)
) + BUSY


def raise_descriptor_limit() -> int:
    """Raise this process's soft limit on open files to its hard limit (any process may), and
    return the limit now in force."""
    try:
        import resource
    except ImportError:  # Windows: no such limit to raise
        return 8192
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    wanted = hard if hard != resource.RLIM_INFINITY else max(soft, 65536)
    if soft != resource.RLIM_INFINITY and soft < wanted:
        try:
            resource.setrlimit(resource.RLIMIT_NOFILE, (wanted, hard))
            soft = wanted
        except (ValueError, OSError):
            pass
    return soft if soft != resource.RLIM_INFINITY else 65536


def connection_limit(descriptors: int, max_sessions: int) -> int:
    """Connections at once that leave the sessions and the server their descriptors, and room
    for the connections accepted that the gate has not yet seen or has closed (IN_FLIGHT)."""
    spare = descriptors - FD_RESERVE - FD_PER_SESSION * max_sessions - IN_FLIGHT
    return max(MIN_CONNECTIONS, spare)


class Tally:
    """Events counted by kind and told at most once per :data:`LOG_EVERY_S` each: the first at
    once, then one line with how many more (and from where most came)."""

    def __init__(self, say: Callable[[str], None], every: float = LOG_EVERY_S) -> None:
        self.say, self.every = say, every
        self.counts: dict[str, int] = {}
        self.sources: dict[str, dict[str, int]] = {}
        self.last: dict[str, float] = {}
        self.words: dict[str, str] = {}
        self._flush: asyncio.TimerHandle | None = None

    def note(self, kind: str, line: str, source: str = "") -> None:
        """One event of ``kind``; ``line`` says what happened (told as it is the first time)."""
        now = time.monotonic()
        self.words[kind] = line
        if now - self.last.get(kind, -1e9) >= self.every and not self.counts.get(kind):
            self.last[kind] = now
            self.say(line)
            return
        self.counts[kind] = self.counts.get(kind, 0) + 1
        if source:
            by = self.sources.setdefault(kind, {})
            if source in by or len(by) < 1000:  # bounded, whoever sends
                by[source] = by.get(source, 0) + 1
        self._schedule()

    def _schedule(self) -> None:
        if self._flush is not None:
            return
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:
            return
        self._flush = loop.call_later(self.every, self.flush)

    def flush(self) -> None:
        self._flush = None
        for kind, count in list(self.counts.items()):
            if not count:
                continue
            self.counts[kind] = 0
            self.last[kind] = time.monotonic()
            by = self.sources.pop(kind, {})
            top = max(by.items(), key=lambda kv: kv[1]) if by else None
            more = f" ({top[1]} from {top[0]})" if top and len(by) > 1 else (
                f" (from {top[0]})" if top else "")  # fmt: skip
            self.say(f"{self.words[kind]} — {count} more like it in {self.every:g} s{more}")


class Gate:
    """Every connection of the server passes here (see the module's doc)."""

    def __init__(self, limit: int, tally: Tally, per_address: int = PER_ADDRESS) -> None:
        self.limit = limit
        self.per_address = per_address
        self.tally = tally
        self.open = 0
        self.waiting: OrderedDict[Guarded, None] = OrderedDict()  # oldest first
        self.waiting_from: dict[str, int] = {}
        self.by_transport: dict[object, Guarded] = {}

    def factory(self, inner: Callable[[], asyncio.Protocol]) -> Callable[[], Guarded]:
        return lambda: Guarded(self, inner)

    # -- bookkeeping ----------------------------------------------------------------------------

    def _wait(self, conn: Guarded) -> None:
        if conn not in self.waiting:
            self.waiting[conn] = None
            self.waiting_from[conn.address] = self.waiting_from.get(conn.address, 0) + 1

    def _unwait(self, conn: Guarded) -> None:
        if conn in self.waiting:
            del self.waiting[conn]
            left = self.waiting_from[conn.address] - 1
            if left:
                self.waiting_from[conn.address] = left
            else:
                del self.waiting_from[conn.address]

    def _oldest_waiting(self, address: str | None = None) -> Guarded | None:
        for conn in self.waiting:
            if address is None or conn.address == address:
                return conn
        return None

    def admit(self, conn: Guarded) -> bool:
        """A new connection: True to serve it; False when it was answered 503 (the server is
        full of requests in progress). May close older waiting connections to make room."""
        if self.waiting_from.get(conn.address, 0) >= self.per_address:
            oldest = self._oldest_waiting(conn.address)
            if oldest is not None:
                self._evict(oldest, "serve.gate.per_address")
        if self.open >= self.limit:
            oldest = self._oldest_waiting()
            if oldest is None:
                self.tally.note("full", _t("serve.gate.full", limit=self.limit), conn.address)
                return False
            self._evict(oldest, "serve.gate.evicted")
        self.open += 1
        self._wait(conn)
        return True

    def _evict(self, conn: Guarded, key: str) -> None:
        self._unwait(conn)
        self.tally.note(key, _t(key, limit=self.per_address, count=self.limit), conn.address)
        conn.evicted = True
        if conn.transport is not None:
            conn.transport.abort()  # at once: it has nothing coming that we want

    def closed(self, conn: Guarded) -> None:
        self._unwait(conn)
        self.by_transport.pop(conn.transport, None)
        if conn.admitted:
            self.open -= 1
            if not conn.requests and not conn.evicted:  # closed by the request timer
                self.tally.note("timeout", _t("serve.gate.timeout", seconds=REQUEST_S),
                                conn.address)  # fmt: skip

    # -- what a request in progress does (the server's middleware calls these) ------------------

    def busy(self, transport: object) -> Guarded | None:
        conn = self.by_transport.get(transport)
        if conn is not None:
            conn.requests += 1
            conn.in_progress += 1
            self._unwait(conn)
        return conn

    def idle(self, conn: Guarded | None) -> None:
        if conn is None:
            return
        conn.in_progress -= 1
        if not conn.in_progress and not conn.lost:
            self._wait(conn)  # kept alive: waiting again, and first in line to go
            self.waiting.move_to_end(conn)


class Guarded(asyncio.Protocol):
    """One connection: admitted by the gate, then aiohttp's protocol does everything."""

    def __init__(self, gate: Gate, inner: Callable[[], asyncio.Protocol]) -> None:
        self.gate = gate
        self._make_inner = inner
        self.inner: asyncio.Protocol | None = None
        self.transport: asyncio.Transport | None = None
        self.address = "?"
        self.admitted = False
        self.evicted = False
        self.lost = False
        self.requests = 0
        self.in_progress = 0

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        assert isinstance(transport, asyncio.Transport)
        self.transport = transport
        peer = transport.get_extra_info("peername")
        self.address = str(peer[0]) if isinstance(peer, tuple) and peer else "?"
        if not self.gate.admit(self):
            transport.write(FULL_RESPONSE)
            transport.close()
            return
        self.admitted = True
        self.gate.by_transport[transport] = self
        self.inner = self._make_inner()
        self.inner.connection_made(transport)

    def data_received(self, data: bytes) -> None:
        if self.inner is not None:
            self.inner.data_received(data)  # type: ignore[attr-defined]

    def eof_received(self) -> bool | None:
        if self.inner is not None:
            return self.inner.eof_received()  # type: ignore[attr-defined]
        return None

    def pause_writing(self) -> None:
        if self.inner is not None:
            self.inner.pause_writing()

    def resume_writing(self) -> None:
        if self.inner is not None:
            self.inner.resume_writing()

    def connection_lost(self, exc: Exception | None) -> None:
        self.lost = True
        self.gate.closed(self)
        if self.inner is not None:
            self.inner.connection_lost(exc)


def _t(key: str, **params: object) -> str:
    from attn_tui.i18n import t

    return t(key, **params)


class _TallyHandler(logging.Handler):
    """Log records as tallied one-liners: the first of a kind told, the rest counted."""

    def __init__(self, tally: Tally) -> None:
        super().__init__(logging.WARNING)
        self.tally = tally

    def emit(self, record: logging.LogRecord) -> None:
        try:
            message = record.getMessage().splitlines()[0][:300]
        except Exception:  # a record that cannot even be formatted is still one line
            message = str(record.msg)[:300]
        if record.exc_info and record.exc_info[1] is not None:
            error = record.exc_info[1]
            message = f"{message}: {type(error).__name__}: {str(error)[:200]}"
        self.tally.note(f"log:{record.name}:{record.msg!s:.80}", f"attn-tui serve: {message}")


def quiet_errors(loop: asyncio.AbstractEventLoop, tally: Tally) -> None:
    """asyncio's and aiohttp's error reports (an accept that failed, a request handler that
    raised) as tallied one-liners, never a traceback each: a flood of them would otherwise
    fill the teacher's terminal. ``ATTN_TUI_DEBUG=1`` keeps the tracebacks."""
    if os.environ.get("ATTN_TUI_DEBUG"):
        return

    def handle(loop: asyncio.AbstractEventLoop, context: dict) -> None:
        error = context.get("exception")
        message = str(context.get("message", "error"))[:200]
        if error is not None:
            message = f"{message}: {type(error).__name__}: {str(error)[:200]}"
        tally.note(f"loop:{context.get('message', '')!s:.80}", f"attn-tui serve: {message}")

    loop.set_exception_handler(handle)
    handler = _TallyHandler(tally)
    for name in ("aiohttp.server", "aiohttp.web", "aiohttp.access", "asyncio", "textual-serve"):
        logger = logging.getLogger(name)
        logger.handlers[:] = [handler]
        logger.propagate = False


__all__ = [
    "Gate",
    "Guarded",
    "Tally",
    "connection_limit",
    "quiet_errors",
    "raise_descriptor_limit",
]
