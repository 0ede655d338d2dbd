"""The classroom web server: textual-serve's Server, with an access token and one named session
per browser tab.

textual-serve runs one app process per websocket and has no notion of who is asking. This
subclass adds what a class needs:

- ``GET /`` checks the access token (``?token=…``, compared in constant time) and answers a
  plain refusal page when it is wrong or missing. A good request gets the page with a websocket
  address holding a one-time *ticket* (textual.js appends its own ``?width=…`` to that address,
  so the token cannot ride along as a query); the ticket remembers ``?name=`` for the session.
- ``GET /ws/{ticket}`` starts ``python -m attn_tui.serve.session`` for that ticket, once: a
  used, unknown or expired ticket is refused, so the websocket needs the token as much as the
  page does.
- On Linux the sessions are forked from a warm *pool* process (pool.py) instead of each
  starting Python, Textual and numpy from scratch; ``preload=False`` turns that off.
- At most ``max_sessions`` processes at once; the next tab gets a "class is full" page.
- Ctrl+C (SIGINT) or SIGTERM closes every websocket, asks every session to quit, and ends
  any session process still alive a few seconds later: nothing outlives the server.
- A file the app delivers (a figure) downloads through a link instead of a pop-up window.
- Addresses in the page come from the request's Host, so a server bound to 0.0.0.0 hands
  each browser an address it can reach. No access log (the token is in the URL).
"""

from __future__ import annotations

import asyncio
import hmac
import html
import ipaddress
import json
import logging
import os
import secrets
import select
import shlex
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Sequence

from aiohttp import WSMsgType, web
from textual_serve.app_service import AppService
from textual_serve.server import Server

from attn_tui.serve.gate import (
    ACCEPT_BURST,
    REQUEST_S,
    Gate,
    Tally,
    connection_limit,
    quiet_errors,
    raise_descriptor_limit,
)
from attn_tui.serve.hosts import Hosts
from attn_tui.serve.page import render_page

log = logging.getLogger("attn-tui-serve")

TICKET_TTL_S = 60.0  # a page's websocket ticket: used within a minute of loading the page
MAX_TICKETS = 1000  # pages loaded but not yet connected, kept at most
QUIT_GRACE_S = 3.0  # a session asked to quit gets this long before it is killed
WIDTH, HEIGHT = (10, 500), (5, 200)  # the terminal sizes a browser may ask for, in cells
MAX_MESSAGE = 1 << 16  # one websocket message from a browser (a paste, at most)
POOL_START_S = 60.0  # the pool imports the tutor once; on a loaded machine that can take a while
POOL_STOP_S = 5.0
SESSION_START_S = 90.0  # a session that has drawn nothing by then is ended (its tab is told)
# The worker slots every session's comparisons share (attn_tui.core.models.processes.SLOTS_ENV,
# named again here so that the server does not import numpy; a test checks they agree).
SLOTS_ENV = "ATTN_TUI_WORKER_SLOTS"
BACKLOG = 1024  # connections the kernel may queue before we accept them (at most somaxconn)
THREAD_VARS = ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS")
# What textual-serve sets for each session (app_service.py); the pool needs it before Textual
# is imported, since Textual reads these once, at import.
SESSION_ENV = {
    "TEXTUAL_DRIVER": "textual.drivers.web_driver:WebDriver",
    "TEXTUAL_FPS": "60",
    "TEXTUAL_COLOR_SYSTEM": "truecolor",
    "TERM_PROGRAM": "textual",
}


# textual.js opens a file the app delivers (a figure saved with Ctrl+S) with window.open from a
# websocket message; browsers block that as a pop-up. A link clicked by script downloads it.
DOWNLOAD_SCRIPT = """<script>
(function () {
  const open = window.open.bind(window);
  window.open = function (url, target) {
    if (typeof url === "string" && url.indexOf("/download/") !== -1) {
      const link = document.createElement("a");
      link.href = url;
      link.download = "";
      document.body.appendChild(link);
      link.click();
      link.remove();
      return null;
    }
    return open(url, target);
  };
})();
</script>
"""


def is_loopback(host: str) -> bool:
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def make_token() -> str:
    return secrets.token_urlsafe(12)


def command_line(argv: Sequence[str]) -> str:
    """``argv`` as one shell command (textual-serve starts sessions through the shell);
    ``exec`` so the session is the shell's process itself, and can be ended by its pid."""
    if os.name == "nt":
        return subprocess.list2cmdline(list(argv))
    return "exec " + shlex.join(argv)


class ClassroomServer(Server):
    def __init__(
        self,
        session_argv: Sequence[str],
        host: str = "127.0.0.1",
        port: int = 8000,
        token: str | None = None,
        max_sessions: int = 60,
        page: Callable[[str], str] | None = None,
        announce: Callable[[], None] | None = None,
        preload: bool = True,
        warm: int = 0,
        allow_hosts: Sequence[str] = (),
        say: Callable[[str], None] | None = None,
        workers: int | None = None,
        session_log: str | None = None,
    ) -> None:
        """``session_argv`` starts one session (``--student NAME`` is appended per tab);
        ``page(kind)`` renders the page a browser gets instead of the tutor: kind is
        "refused" (token), "full" (max_sessions), "expired" (a used websocket ticket) or
        "host" (a Host or an Origin this server was not started for: hosts.py).
        ``announce()`` runs once the port is bound. ``preload`` forks sessions from a warm
        pool where the system allows (Linux), and keeps ``warm`` of them parked: started,
        laid out and waiting for a tab (parked.py). ``allow_hosts``: names the server may be
        reached by besides its address and ``localhost``. ``say(line)`` tells the teacher
        something (stderr by default), never more than one line per kind every few seconds.
        ``workers``: training processes all sessions together may run (a comparison over
        seeds takes what is free, else runs inside its session; default: one per core).
        ``session_log``: where sessions write what they would have said on stderr (named when
        one ends with an error)."""
        super().__init__(command=shlex.join(session_argv), host=host, port=port, title="attn-tui")
        self.session_argv = list(session_argv)
        self.token = token
        self.max_sessions = max_sessions
        self.page = page or _default_page
        self.announce = announce
        self.preload = preload and can_preload()
        self.warm = warm
        self.launch_argv: list[str] | None = None  # set while the pool runs
        self._pool: subprocess.Popen | None = None
        self.tickets: dict[str, tuple[str | None, float]] = {}
        self.services: set[AppService] = set()
        self.ended = 0
        self.hosts = Hosts(host, allow_hosts)
        self.tally = Tally(say or _say)
        self.gate: Gate | None = None  # made when serving: its limit depends on the process
        self.workers = (os.cpu_count() or 1) if workers is None else max(0, workers)
        self.session_log = session_log

    # -- the web application ------------------------------------------------------------------

    async def _make_app(self) -> web.Application:
        app = web.Application(middlewares=[self._door])
        app.add_routes(
            [
                web.get("/", self.handle_index, name="index"),
                web.get("/ws/{ticket}", self.handle_websocket, name="websocket"),
                web.get("/download/{key}", self.handle_download, name="download"),
                web.static("/static", self.statics_path, name="static"),
            ]
        )
        app.on_shutdown.append(self.on_shutdown)
        return app

    def initialize_logging(self) -> None:
        logging.basicConfig(level=logging.WARNING, format="%(message)s")

    @web.middleware
    async def _door(self, request: web.Request, handler) -> web.StreamResponse:
        """Every request: its connection counted as busy while it runs (gate.py), and refused
        unless it names a host this server was started for and, for a websocket, comes from a
        page of this server (Origin) — what stops a web page elsewhere from reaching the class
        by DNS rebinding (hosts.py)."""
        conn = self.gate.busy(request.transport) if self.gate is not None else None
        try:
            host = request.headers.get("Host", "")
            address = request.remote or "?"
            if not self.hosts.allows(host):
                self.tally.note("host", _t("serve.gate.bad_host", host=_shown(host)), address)
                return self._refuse("host", 403)
            if request.path.startswith("/ws/"):
                origin = request.headers.get("Origin", "")
                if not self.hosts.same_origin(origin, host, request.secure):
                    line = _t("serve.gate.bad_origin", origin=_shown(origin) or "—")
                    self.tally.note("origin", line, address)
                    return self._refuse("host", 403)
            return await handler(request)
        finally:
            if self.gate is not None:
                self.gate.idle(conn)

    def _refuse(self, kind: str, status: int) -> web.Response:
        return web.Response(
            text=self.page(kind),
            status=status,
            content_type="text/html",
            headers={"Cache-Control": "no-store", "Referrer-Policy": "no-referrer"},
        )

    def authorised(self, request: web.Request) -> bool:
        if self.token is None:
            return True
        given = request.query.get("token", "")
        return hmac.compare_digest(given.encode("utf-8"), self.token.encode("utf-8"))

    def _issue_ticket(self, name: str | None) -> str:
        now = time.monotonic()
        for key in [k for k, (_, expires) in self.tickets.items() if expires < now]:
            del self.tickets[key]
        while len(self.tickets) >= MAX_TICKETS:  # oldest first: dicts keep insertion order
            del self.tickets[next(iter(self.tickets))]
        ticket = secrets.token_urlsafe(18)
        self.tickets[ticket] = (name, now + TICKET_TTL_S)
        return ticket

    async def handle_index(self, request: web.Request) -> web.StreamResponse:
        if not self.authorised(request):
            return self._refuse("refused", 403)
        if len(self.services) >= self.max_sessions:
            return self._refuse("full", 503)
        name = _student_name(request.query.get("name"))
        ticket = self._issue_ticket(name)
        scheme = "https" if request.secure else "http"
        ws_scheme = "wss" if request.secure else "ws"
        font_size = _int(request.query.get("fontsize", "16"), 16, 8, 48)
        context = {
            "font_size": font_size,
            "app_websocket_url": f"{ws_scheme}://{request.host}/ws/{ticket}",
            "config": {"static": {"url": f"{scheme}://{request.host}/static/"}},
            "application": {"name": self.title},
        }
        page = render_page(context, DOWNLOAD_SCRIPT)
        return web.Response(
            text=page,
            content_type="text/html",
            headers={
                "Cache-Control": "no-store",
                "Referrer-Policy": "no-referrer",  # the token in this address goes nowhere
                "Content-Security-Policy": _policy(request.host, request.secure),
                "X-Content-Type-Options": "nosniff",
            },
        )

    async def handle_websocket(self, request: web.Request) -> web.StreamResponse:
        entry = self.tickets.pop(request.match_info["ticket"], None)
        if entry is None or entry[1] < time.monotonic():
            return self._refuse("expired", 403)
        if len(self.services) >= self.max_sessions:
            return self._refuse("full", 503)
        name = entry[0]
        pool_alive = self._pool is not None and self._pool.poll() is None
        argv = self.launch_argv if pool_alive and self.launch_argv else self.session_argv
        argv = argv + ([f"--student={name}"] if name else [])  # one word: never an option
        websocket = web.WebSocketResponse(heartbeat=15)
        width = _int(request.query.get("width", "80"), 80, *WIDTH)
        height = _int(request.query.get("height", "24"), 24, *HEIGHT)
        service: AppService | None = None
        try:
            await websocket.prepare(request)
            service = AppService(
                command_line(argv),
                write_bytes=_noting_drawn(lambda: service, websocket.send_bytes),
                write_str=websocket.send_str,
                close=websocket.close,
                download_manager=self.download_manager,
                debug=self.debug,
            )
            self.services.add(service)
            await service.start(width, height)
            try:
                await self._converse(websocket, service)
            finally:
                await self._stop(service)
        except asyncio.CancelledError:
            await websocket.close()
        except Exception as error:  # one tab's failure must not take the class down
            log.exception(error)
        finally:
            if service is not None:
                await self._stop(service)
        return websocket

    async def _converse(self, websocket: web.WebSocketResponse, service: AppService) -> None:
        """Relay the tab's messages until the tab goes or the session does: a session that
        ends (or fails to start, or draws nothing for SESSION_START_S) closes its tab, which
        then says the session ended, instead of leaving it blank and holding a place."""
        reader = asyncio.ensure_future(self._process_messages(websocket, service))
        ended = getattr(service, "_task", None)  # textual-serve's reader of the session's output
        waiting = {reader} | ({ended} if ended is not None else set())
        started = asyncio.ensure_future(self._drawn(service))
        try:
            done, _ = await asyncio.wait(waiting | {started}, return_when=asyncio.FIRST_COMPLETED)
            if started in done and not started.result():
                process = getattr(service, "_process", None)
                self.tally.note("start", _t("serve.gate.no_start", seconds=SESSION_START_S))
                if process is not None and process.returncode is None:
                    process.kill()
            elif started in done:
                done, _ = await asyncio.wait(waiting, return_when=asyncio.FIRST_COMPLETED)
            if reader not in done:
                await websocket.close(code=1011 if ended in done else 1000)
        finally:
            for task in (reader, started):
                task.cancel()

    async def _drawn(self, service: AppService) -> bool:
        """True once the session has sent its tab anything; False after SESSION_START_S."""
        deadline = time.monotonic() + SESSION_START_S
        while not getattr(service, "drawn", False):
            if time.monotonic() > deadline:
                return False
            await asyncio.sleep(0.25)
        return True

    async def _process_messages(self, websocket: web.WebSocketResponse, service) -> None:
        """What textual.js sends, checked: a browser is not trusted to size the terminal
        (a 10⁹-column resize would have the app allocate for it) or to send well-formed JSON."""
        async for message in websocket:
            if message.type != WSMsgType.TEXT or len(message.data) > MAX_MESSAGE:
                continue
            try:
                envelope = json.loads(message.data)
            except ValueError:
                continue
            if not isinstance(envelope, list) or not envelope or not isinstance(envelope[0], str):
                continue
            kind, data = envelope[0], envelope[1] if len(envelope) > 1 else None
            if kind == "stdin" and isinstance(data, str):
                await service.send_bytes(data.encode("utf-8", "replace"))
            elif kind == "resize" and isinstance(data, dict):
                width = _int(str(data.get("width", "")), 80, *WIDTH)
                height = _int(str(data.get("height", "")), 24, *HEIGHT)
                await service.set_terminal_size(width, height)
            elif kind == "ping" and isinstance(data, str) and len(data) <= 64:
                await websocket.send_json(["pong", data])
            elif kind == "blur":
                await service.blur()
            elif kind == "focus":
                await service.focus()

    async def _stop(self, service: AppService) -> None:
        """Ask the session to quit; kill it if it has not within QUIT_GRACE_S."""
        if service not in self.services:
            return
        self.services.discard(service)
        self.ended += 1
        process = getattr(service, "_process", None)  # textual-serve keeps it private
        try:
            await asyncio.wait_for(service.stop(), QUIT_GRACE_S)
            if process is not None:
                await asyncio.wait_for(process.wait(), QUIT_GRACE_S)
        except Exception:  # a timeout, or a pipe already gone
            pass
        status = getattr(process, "returncode", None)
        if status not in (None, 0):  # ended by itself with an error: its words are in the log
            line = _t("serve.gate.session_failed", status=status, log=self.session_log or "—")
            self.tally.note("session_failed", line)
        _kill(service)

    async def on_shutdown(self, app: web.Application) -> None:
        """Ctrl+C: end every session (their handlers then return at once)."""
        services = list(self.services)
        await asyncio.gather(*(self._stop(s) for s in services), return_exceptions=True)

    # -- running ------------------------------------------------------------------------------

    def serve(self, debug: bool = False) -> None:  # type: ignore[override]
        self.debug = debug
        self.initialize_logging()
        for var in THREAD_VARS:  # a session computes 4×3 matrices: one thread each is plenty
            os.environ.setdefault(var, "1")
        self.gate = Gate(connection_limit(raise_descriptor_limit(), self.max_sessions), self.tally)
        slots = tempfile.mkdtemp(prefix="attn-tui-workers-")  # owner-only, like the pool's
        before = os.environ.get(SLOTS_ENV)
        os.environ[SLOTS_ENV] = f"{slots}:{self.workers}"  # every session inherits it
        loop = asyncio.new_event_loop()
        try:
            if self.preload:
                self._start_pool()
            asyncio.set_event_loop(loop)
            self._run(loop)
        finally:
            for service in list(self.services):  # anything the shutdown did not reach
                _kill(service)
            self._stop_pool()
            shutil.rmtree(slots, ignore_errors=True)
            if before is None:
                os.environ.pop(SLOTS_ENV, None)
            else:
                os.environ[SLOTS_ENV] = before
            self.tally.flush()
            loop.close()

    def _run(self, loop: asyncio.AbstractEventLoop) -> None:
        """Serve until Ctrl+C (SIGINT) or SIGTERM, then end every session."""
        quiet_errors(loop, self.tally)
        stop = asyncio.Event()
        for sig in (signal.SIGINT, signal.SIGTERM):
            try:
                loop.add_signal_handler(sig, stop.set)
            except (NotImplementedError, RuntimeError):  # Windows: KeyboardInterrupt instead
                pass
        runner = web.AppRunner(
            loop.run_until_complete(self._make_app()),
            access_log=None,
            handle_signals=False,
            keepalive_timeout=REQUEST_S,  # also what a request's head must arrive within
            shutdown_timeout=QUIT_GRACE_S + 2,
        )
        try:
            loop.run_until_complete(runner.setup())
            assert self.gate is not None
            site = _GatedSite(runner, self.host, self.port, self.gate)
            loop.run_until_complete(site.start())
            if self.announce:
                self.announce()
            try:
                loop.run_until_complete(stop.wait())
            except KeyboardInterrupt:
                pass
        finally:
            try:
                loop.run_until_complete(runner.cleanup())
            except KeyboardInterrupt:
                pass
            for sig in (signal.SIGINT, signal.SIGTERM):
                try:
                    loop.remove_signal_handler(sig)
                except (NotImplementedError, RuntimeError, ValueError):
                    pass

    # -- the pool of warm sessions ------------------------------------------------------------

    def _start_pool(self) -> None:
        """Start pool.py and wait until it has imported the tutor; on any trouble, carry on
        with cold sessions (slower, not broken)."""
        folder = tempfile.mkdtemp(prefix="attn-tui-pool-")  # owner-only: nobody else connects
        socket_path = os.path.join(folder, "pool.sock")
        argv = pool_argv(self.session_argv, socket_path, self.warm)
        if argv is None:
            return
        env = dict(os.environ)
        env.update(SESSION_ENV)
        try:
            self._pool = subprocess.Popen(
                argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE, env=env, close_fds=True
            )
            ready = _read_line(self._pool.stdout, POOL_START_S)
        except OSError:
            ready = b""
        if ready.strip() != b"ready":
            log.warning("attn-tui: the session pool did not start; sessions start cold")
            self._stop_pool()
            return
        launcher = os.path.join(os.path.dirname(__file__), "launch.py")
        self.launch_argv = [sys.executable, "-I", "-S", launcher, socket_path]
        self._pool_folder = folder

    def _stop_pool(self) -> None:
        self.launch_argv = None
        pool, self._pool = self._pool, None
        if pool is not None:
            try:
                pool.stdin.close()  # the pool ends its sessions and exits
                pool.wait(POOL_STOP_S)
            except (OSError, subprocess.TimeoutExpired):
                pool.kill()
                pool.wait()
        folder = getattr(self, "_pool_folder", None)
        if folder:
            shutil.rmtree(folder, ignore_errors=True)


class _GatedSite(web.BaseSite):
    """aiohttp's TCPSite, with every connection passing the gate first (gate.py)."""

    def __init__(self, runner: web.BaseRunner, host: str, port: int, gate: Gate) -> None:
        super().__init__(runner, backlog=ACCEPT_BURST)
        self._host, self._port, self._gate = host, port, gate

    @property
    def name(self) -> str:
        return f"http://{self._host}:{self._port}"

    async def start(self) -> None:
        await super().start()
        server = self._runner.server
        assert server is not None
        # asyncio accepts up to ``backlog`` connections per turn of the loop before any of
        # them reaches the gate, so that is kept small (the gate leaves room for one burst);
        # the kernel's queue is then made long, so a burst of students waits there, not lost.
        self._server = await asyncio.get_running_loop().create_server(
            self._gate.factory(server), self._host, self._port, backlog=self._backlog,
            reuse_address=True,
        )  # fmt: skip
        for listening in self._server.sockets:
            again = socket.socket(fileno=os.dup(listening.fileno()))
            try:
                again.listen(BACKLOG)
            finally:
                again.close()


def _noting_drawn(service: Callable[[], AppService | None], send):
    """``send`` (bytes to the tab), marking the session as having drawn something."""

    async def write(data: bytes) -> None:
        current = service()
        if current is not None:
            current.drawn = True  # type: ignore[attr-defined]
        await send(data)

    return write


def _policy(host: str, secure: bool) -> str:
    """The page's Content-Security-Policy: everything from this server, nothing from anywhere
    else (no font, script or style from another host; the websocket back to this one)."""
    ws = f"{'wss' if secure else 'ws'}://{host}"
    return (
        f"default-src 'self'; connect-src 'self' {ws}; script-src 'self' 'unsafe-inline'; "
        "style-src 'self' 'unsafe-inline'; font-src 'self'; img-src 'self' data: blob:; "
        "frame-ancestors 'none'; base-uri 'none'; form-action 'self'"
    )


def _say(line: str) -> None:
    print(line, file=sys.stderr, flush=True)


def _t(key: str, **params: object) -> str:
    from attn_tui.i18n import t

    return t(key, **params)


def _shown(text: str) -> str:
    from attn_tui.core.format import shorten, visible

    return shorten(visible(text, one_line=True), 120)


def can_preload() -> bool:
    """Forking a warm pool needs fork() and passing descriptors over a Unix socket: Linux."""
    return sys.platform.startswith("linux") and hasattr(socket, "send_fds")


def pool_argv(session_argv: Sequence[str], socket_path: str, warm: int = 0) -> list[str] | None:
    """The pool's command line, from a session's (``python -m attn_tui.serve.session ...``)."""
    argv = list(session_argv)
    try:
        at = argv.index("attn_tui.serve.session")
    except ValueError:
        return None
    return [*argv[:at], "attn_tui.serve.pool", "--socket", socket_path, "--warm", str(warm),
            *argv[at + 1 :]]  # fmt: skip


def _read_line(stream, timeout: float) -> bytes:
    """One line from a pipe, or b"" after ``timeout`` seconds."""
    ready, _, _ = select.select([stream], [], [], timeout)
    return stream.readline() if ready else b""


def _kill(service: AppService) -> None:
    process = getattr(service, "_process", None)  # textual-serve keeps it private
    if process is not None and process.returncode is None:
        try:
            process.kill()
        except ProcessLookupError:
            pass


def _int(text: str, default: int, low: int, high: int) -> int:
    try:
        value = int(text)
    except ValueError:
        return default
    return min(max(value, low), high)


def _student_name(raw: str | None) -> str | None:
    """A ``?name=`` usable as a student's name, or None (then the session asks)."""
    from attn_tui.core.students import BadName, canonical, display

    if not raw:
        return None
    try:
        canonical(raw)
    except BadName:
        return None
    return display(raw)


def _default_page(kind: str) -> str:
    return page_html(kind, kind)


def page_html(
    title: str, body: str, lang: str = "en", more: Sequence[tuple[str, str, str]] = ()
) -> str:
    """A plain page: a heading and a sentence, nothing loaded from anywhere; ``more``: the
    same said again in other languages, (lang, title, body) each, below."""
    sections = [(lang, title, body), *more]
    parts = "".join(
        f'<section lang="{html.escape(code)}"><h1>{html.escape(head)}</h1>'
        f"<p>{html.escape(text)}</p></section>"
        for code, head, text in sections
    )
    return (
        f'<!DOCTYPE html><html lang="{html.escape(lang)}"><head><meta charset="utf-8">'
        f"<title>{html.escape(' / '.join(head for _, head, _ in sections))}</title>"
        '<meta name="viewport" content="width=device-width, initial-scale=1"></head>'
        '<body style="font-family: sans-serif; max-width: 40em; margin: 4em auto;">'
        f"{parts}</body></html>"
    )


__all__ = ["ClassroomServer", "command_line", "is_loopback", "make_token", "page_html"]
