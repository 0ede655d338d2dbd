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

import aiohttp_jinja2
import jinja2
from aiohttp import WSMsgType, web
from aiohttp.web_runner import GracefulExit
from textual_serve.app_service import AppService
from textual_serve.server import Server

log = logging.getLogger("attn-tui-serve")

TICKET_TTL_S = 60.0  # a page's websocket ticket: used within a minute of loading the page
MAX_TICKETS = 1000  # pages loaded but not yet connected, kept at most
QUIT_GRACE_S = 3.0  # a session asked to quit gets this long before it is killed
WIDTH, HEIGHT = (10, 500), (5, 200)  # the terminal sizes a browser may ask for, in cells
MAX_MESSAGE = 1 << 16  # one websocket message from a browser (a paste, at most)
POOL_START_S = 60.0  # the pool imports the tutor once; on a loaded machine that can take a while
POOL_STOP_S = 5.0
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
    ) -> None:
        """``session_argv`` starts one session (``--student NAME`` is appended per tab);
        ``page(kind)`` renders the page a browser gets instead of the tutor: kind is
        "refused" (token), "full" (max_sessions) or "expired" (a used websocket ticket).
        ``announce()`` runs once the port is bound. ``preload`` forks sessions from a warm
        pool where the system allows (Linux), and keeps ``warm`` of them parked: started,
        laid out and waiting for a tab (parked.py)."""
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

    # -- the web application ------------------------------------------------------------------

    async def _make_app(self) -> web.Application:
        app = web.Application()
        aiohttp_jinja2.setup(app, loader=jinja2.FileSystemLoader(self.templates_path))
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
        page = aiohttp_jinja2.render_string("app_index.html", request, context)
        page = page.replace("</head>", DOWNLOAD_SCRIPT + "</head>", 1)
        return web.Response(
            text=page,
            content_type="text/html",
            headers={"Cache-Control": "no-store", "Referrer-Policy": "no-referrer"},
        )  # no-referrer: the token in this page's address goes nowhere else

    async def handle_websocket(self, request: web.Request) -> web.StreamResponse:
        entry = self.tickets.pop(request.match_info["ticket"], None)
        if entry is None or entry[1] < time.monotonic():
            return self._refuse("expired", 403)
        if len(self.services) >= self.max_sessions:
            return self._refuse("full", 503)
        name = entry[0]
        pool_alive = self._pool is not None and self._pool.poll() is None
        argv = self.launch_argv if pool_alive and self.launch_argv else self.session_argv
        argv = argv + (["--student", name] if name else [])
        websocket = web.WebSocketResponse(heartbeat=15)
        width = _int(request.query.get("width", "80"), 80, *WIDTH)
        height = _int(request.query.get("height", "24"), 24, *HEIGHT)
        service: AppService | None = None
        try:
            await websocket.prepare(request)
            service = AppService(
                command_line(argv),
                write_bytes=websocket.send_bytes,
                write_str=websocket.send_str,
                close=websocket.close,
                download_manager=self.download_manager,
                debug=self.debug,
            )
            self.services.add(service)
            await service.start(width, height)
            try:
                await self._process_messages(websocket, service)
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
        if self.preload:
            self._start_pool()
        loop = asyncio.new_event_loop()
        asyncio.set_event_loop(loop)

        def request_exit() -> None:
            raise GracefulExit()

        for sig in (signal.SIGINT, signal.SIGTERM):
            try:
                loop.add_signal_handler(sig, request_exit)
            except (NotImplementedError, RuntimeError):  # Windows: KeyboardInterrupt instead
                pass
        try:
            web.run_app(
                self._make_app(),
                host=self.host,
                port=self.port,
                handle_signals=False,
                loop=loop,
                print=lambda *args: self.announce() if self.announce else None,
                access_log=None,
                shutdown_timeout=QUIT_GRACE_S + 2,
            )
        finally:
            for service in list(self.services):  # anything the shutdown did not reach
                _kill(service)
            self._stop_pool()

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
    from attn_tui.serve.students import BadName, canonical, display

    if not raw:
        return None
    try:
        canonical(raw)
    except BadName:
        return None
    return display(raw)


def _default_page(kind: str) -> str:
    return page_html(kind, kind)


def page_html(title: str, body: str, lang: str = "en") -> str:
    """A plain page: a heading and a sentence, nothing loaded from anywhere."""
    return (
        f'<!DOCTYPE html><html lang="{html.escape(lang)}"><head><meta charset="utf-8">'
        f"<title>{html.escape(title)}</title>"
        '<meta name="viewport" content="width=device-width, initial-scale=1"></head>'
        '<body style="font-family: sans-serif; max-width: 40em; margin: 4em auto;">'
        f"<h1>{html.escape(title)}</h1><p>{html.escape(body)}</p></body></html>"
    )


__all__ = ["ClassroomServer", "command_line", "is_loopback", "make_token", "page_html"]
