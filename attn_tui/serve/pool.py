"""A warm start for every tab: one process imports the tutor once, then forks a session per tab.

Starting Python, Textual, numpy and the tutor from scratch costs about a second of CPU per tab;
thirty students opening the page at once on a 2-core machine would wait a quarter of a minute.
So ``attn-tui serve`` (on Linux) starts this *pool* process once. It imports everything a
session needs, then waits on a Unix socket in a private folder. textual-serve still starts one
command per tab, but that command is ``launch.py``: a few lines of standard library that hand
the pool their stdin, stdout and stderr (``SCM_RIGHTS``) and wait. The pool forks; the child
takes those three descriptors as its own and runs the session (:class:`ServedApp`) on them,
so textual-serve talks to it exactly as to a process it started itself. Forked children share
the imported code's memory with the pool until they write to it.

Who ends what:
- the session exits (the student closed the tab): the pool reaps it and tells the launcher,
  which exits with the same status, and textual-serve sees the process end;
- the launcher is killed (the server's Ctrl+C): the pool sees its socket close and kills the
  session;
- the server goes (its pipe to the pool's stdin closes): the pool ends every session and exits.

Textual reads its ``TEXTUAL_*`` settings when it is imported, so the server starts the pool with
the same environment textual-serve gives each session; only the terminal size (``COLUMNS``,
``ROWS``) differs per tab, and the launcher passes it on.

    python -m attn_tui.serve.pool --socket PATH --root DATA_DIR [--lang zh] [--exercises DIR]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import select
import signal
import socket
import sys
import traceback
from pathlib import Path

MAX_MESSAGE = 4096  # a launcher's request: its student's name and the terminal size
KILL_GRACE_S = 2.0
PARK_START_S = 50.0  # the first parked sessions: ready within this, or the pool starts anyway
REFILL_QUIET_S = 1.0  # park a new session once no tab has arrived for this long
MAX_FAILED_PARKS = 3  # parked sessions dying at start in a row: then no more are made
PARKING_FAILED = (
    "attn-tui serve: sessions made before their tab kept failing to start (logs/sessions.log "
    "in the data directory says why); each tab now starts its own"
)


def preload(lang: str, exercises: list[Path] | None = None) -> None:
    """Import and warm what every session needs before the first fork, then freeze it.

    The warm-up runs one session headless (home screen, then the calculator), which fills
    the caches that live beyond one app (lazily imported widgets, Rich's and Textual's
    module-level caches), and loads the exercise library (the shipped sets and the teacher's,
    ``exercises``): every fork finds those files read and does not parse them again, so a
    teacher's large sets are paid for once per server, not once per student; so are the
    written-answer libraries (rjieba's dictionary, the stemmer, rapidfuzz), which every
    session's home screen would otherwise load behind it. ``gc.freeze()``
    then moves every object made so far out of the collector's sight: a child's collections
    stop walking (and so copying) the pool's pages.
    """
    import gc

    from attn_tui import i18n
    from attn_tui.screens import calculator, help, home, student  # noqa: F401
    from attn_tui.serve import session  # noqa: F401

    i18n.set_lang(lang)
    i18n.catalogue().load_all()
    share_parsed_css()
    if exercises is not None:
        from attn_tui import paths

        try:
            paths.load_all(exercises)
        except Exception:  # an optimisation too: each session would load (and report) it
            traceback.print_exc()
    try:
        asyncio.run(_warm_up(lang))
    except Exception:  # a warm-up is an optimisation: sessions work without it
        traceback.print_exc()
    try:  # the written-answer libraries, which each session's home loads behind it: once here
        from attn_tui.core.exercises.written.text import warm

        warm()
    except Exception:  # an optimisation too: the first written answer loads them
        traceback.print_exc()
    gc.collect()
    gc.freeze()


MAX_PARSED_CSS = 4096  # parsed CSS sources kept: ~60 sources × the themes a class uses


def share_parsed_css() -> None:
    """Parse each CSS source once per process, not once per app and stylesheet.

    Textual keeps parsed CSS in a cache that belongs to one stylesheet, and every ``App``
    (and every re-parse, e.g. a theme applied at start) makes a new stylesheet: each session
    would tokenize the same ~60 sources several times over, a fifth of its start-up CPU. This
    wraps the parse function the stylesheet calls with a cache keyed on everything its result
    depends on (the text, where it came from, its scope and priority, and the CSS variables'
    values), filled by the pool's warm-up and inherited by every fork. The rule sets it
    returns are read, never changed, by a stylesheet (Textual's own cache shares them the
    same way).
    """
    from textual.css import stylesheet

    parse = stylesheet.parse
    if getattr(parse, "shared", False):
        return
    parsed: dict[tuple, list] = {}
    variable_keys: dict[int, tuple[dict, tuple]] = {}  # id → (the tokens dict, its key)

    def variables_key(tokens: dict) -> tuple:
        known = variable_keys.get(id(tokens))
        if known is None or known[0] is not tokens:
            if len(variable_keys) > 64:
                variable_keys.clear()
            key = tuple(
                (name, tuple((token.name, token.value) for token in value))
                for name, value in tokens.items()
            )
            known = variable_keys[id(tokens)] = (tokens, key)
        return known[1]

    def shared_parse(scope, css, read_from, variables=None, variable_tokens=None,
                     is_default_rules=False, tie_breaker=0):  # fmt: skip
        if variables is not None:  # not how the stylesheet calls it: no cache
            return parse(scope, css, read_from, variables, variable_tokens,
                         is_default_rules, tie_breaker)  # fmt: skip
        key = (scope, css, read_from, is_default_rules, tie_breaker,
               variables_key(variable_tokens or {}))  # fmt: skip
        rules = parsed.get(key)
        if rules is None:
            found = parse(scope, css, read_from, variable_tokens=variable_tokens,
                          is_default_rules=is_default_rules, tie_breaker=tie_breaker)  # fmt: skip
            rules = list(found)
            if len(parsed) >= MAX_PARSED_CSS:
                parsed.clear()
            parsed[key] = rules
        return rules

    shared_parse.shared = True  # type: ignore[attr-defined]
    stylesheet.parse = shared_parse


async def _warm_up(lang: str) -> None:
    import tempfile

    from attn_tui.serve.session import ServedApp

    with tempfile.TemporaryDirectory(prefix="attn-tui-warm-") as root:
        app = ServedApp(Path(root), "warm-up", lang)
        async with app.run_test(size=(100, 30), notifications=False) as pilot:
            await pilot.pause()
            app.switch_mode("calc")
            await pilot.pause()


def run_session(request: dict, args: argparse.Namespace) -> int:
    """In a forked child: become the session on the descriptors the launcher sent."""
    from attn_tui.serve.parked import tab_settings
    from attn_tui.serve.session import ServedApp

    student, size = tab_settings(request)
    os.environ.update(size)
    ServedApp(args.root, student, args.lang, args.exercises).run()
    return 0


def run_parked(park: socket.socket, args: argparse.Namespace) -> int:
    """In a forked child: a parked session, until the pool sends it a tab (parked.py). What it
    says on stderr before then (a traceback, should it fail) goes to the sessions' log."""
    from attn_tui.serve.parked import ParkedApp
    from attn_tui.serve.session import errors_to_log

    errors_to_log(args.root)

    ParkedApp(args.root, args.lang, args.exercises, park).run()
    return 0


class Pool:
    def __init__(self, args: argparse.Namespace) -> None:
        self.args = args
        self.children: dict[int, socket.socket] = {}  # session pid → its launcher's socket
        self.by_socket: dict[socket.socket, int] = {}
        self.parked: dict[int, socket.socket] = {}  # parked session pid → its socket
        self.by_park: dict[socket.socket, int] = {}
        self.preparing: set[int] = set()  # parked, not yet said "ready"
        self.last_handout = 0.0
        self.failed_parks = 0  # parked sessions in a row that died before they were ready
        self.park_size: dict[str, str] = {}  # the last tab's terminal size
        self.wake_r, self.wake_w = os.pipe()
        os.set_blocking(self.wake_w, False)
        signal.set_wakeup_fd(self.wake_w)
        signal.signal(signal.SIGCHLD, lambda *_: None)  # wake select() when a session ends
        signal.signal(signal.SIGTERM, self._terminate)
        signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl+C belongs to the server

    def _terminate(self, *_: object) -> None:
        raise SystemExit(0)

    # -- parked sessions ------------------------------------------------------------------------

    def fill(self, listener: socket.socket, timeout: float) -> None:
        """Park ``--warm`` sessions and wait (at most ``timeout`` s) until each is ready."""
        import time

        for _ in range(self.args.warm):
            self._park(listener)
        deadline = time.monotonic() + timeout
        while self.preparing and time.monotonic() < deadline:
            parks = list(self.by_park)
            ready, _, _ = select.select([*parks, self.wake_r], [], [], deadline - time.monotonic())
            if self.wake_r in ready:
                os.read(self.wake_r, 4096)
            self._reap()
            for park in ready:
                if park in self.by_park:
                    self._park_said(park)

    def _park(self, listener: socket.socket) -> None:
        """Fork one parked session."""
        ours, theirs = socket.socketpair(socket.AF_UNIX, socket.SOCK_SEQPACKET)
        pid = os.fork()
        if pid == 0:
            ours.close()
            self._become(self.park_size, lambda: run_parked(theirs, self.args), [listener])
        theirs.close()
        self.parked[pid] = ours
        self.by_park[ours] = pid
        self.preparing.add(pid)

    def _park_said(self, park: socket.socket) -> None:
        """A parked session spoke: "ready", or its socket closed (it ended)."""
        pid = self.by_park[park]
        try:
            said = park.recv(16)
        except OSError:
            said = b""
        if said == b"ready":
            self.preparing.discard(pid)
            self.failed_parks = 0
            return
        self._park_failed(pid)
        self._unpark(pid)
        _signal(pid, signal.SIGKILL)
        _reaped(pid, block=True)

    def _park_failed(self, pid: int) -> None:
        """Count a parked session that ended before it was ready (a fault, not a tab that
        left); after MAX_FAILED_PARKS in a row, make no more (each tab then gets a fork)."""
        if pid not in self.preparing:
            return
        self.failed_parks += 1
        if self.failed_parks >= MAX_FAILED_PARKS and self.args.warm:
            self.args.warm = 0
            print(PARKING_FAILED, file=sys.stderr, flush=True)

    def _unpark(self, pid: int) -> socket.socket | None:
        park = self.parked.pop(pid, None)
        if park is not None:
            self.by_park.pop(park, None)
        self.preparing.discard(pid)
        return park

    def _refill(self, listener: socket.socket) -> float | None:
        """Park one more session when fewer than ``--warm`` wait, none is being made, and no
        tab has arrived for REFILL_QUIET_S (a class arriving gets the CPU first). Returns how
        long select() may sleep before this should be looked at again."""
        import time

        if len(self.parked) >= self.args.warm or self.preparing:
            return None
        quiet = time.monotonic() - self.last_handout
        if quiet < REFILL_QUIET_S:
            return REFILL_QUIET_S - quiet
        self._park(listener)
        return None

    # -- serving ------------------------------------------------------------------------------

    def serve(self, listener: socket.socket) -> None:
        try:
            while True:
                timeout = self._refill(listener)
                watched = [listener, sys.stdin.fileno(), self.wake_r, *self.by_socket,
                           *self.by_park]  # fmt: skip
                ready, _, _ = select.select(watched, [], [], timeout)
                if self.wake_r in ready:
                    os.read(self.wake_r, 4096)
                self._reap()
                if sys.stdin.fileno() in ready and not os.read(sys.stdin.fileno(), 4096):
                    return  # the server is gone
                for conn in [s for s in ready if s in self.by_socket]:
                    self._launcher_gone(conn)
                for park in [s for s in ready if s in self.by_park]:
                    self._park_said(park)
                if listener in ready:
                    self._accept(listener)
        finally:
            self._end_all()

    def _accept(self, listener: socket.socket) -> None:
        import time

        try:
            conn, _ = listener.accept()
        except OSError:
            return
        try:
            data, fds, _, _ = socket.recv_fds(conn, MAX_MESSAGE, 3)
            request = json.loads(data.decode("utf-8")) if data else None
        except (OSError, ValueError):
            conn.close()
            return
        if len(fds) != 3 or not isinstance(request, dict):
            for fd in fds:
                os.close(fd)
            conn.close()
            return
        self.last_handout = time.monotonic()
        from attn_tui.serve.parked import tab_settings

        self.park_size = tab_settings(request)[1] or self.park_size
        pid = self._hand_to_parked(data, fds)
        if pid is None:  # none parked: a fresh fork, as without parking
            pid = os.fork()
            if pid == 0:
                self._become(fds, lambda: run_session(request, self.args), [listener, conn])
        for fd in fds:
            os.close(fd)
        self.children[pid] = conn
        self.by_socket[conn] = pid
        try:
            conn.sendall(f"{pid}\n".encode())
        except OSError:
            self._launcher_gone(conn)

    def _hand_to_parked(self, request: bytes, fds: list[int]) -> int | None:
        """Send the tab to a parked session, ready ones first; its pid, or None."""
        for pid in sorted(self.parked, key=lambda p: p in self.preparing):
            park = self._unpark(pid)
            try:
                socket.send_fds(park, [request], fds)
                return pid
            except OSError:  # it has ended: its reaping tells no launcher
                _signal(pid, signal.SIGKILL)
                _reaped(pid, block=True)
            finally:
                park.close()
        return None

    def _become(self, fds, run, closing: list[socket.socket]) -> None:
        """In a forked child, which never returns: drop the pool's sockets (``closing`` and
        every one it keeps) and signal handlers, take ``fds`` as stdin, stdout and stderr
        (a dict instead: a parked session, which has none yet, and the terminal size to lay
        out for), and ``run()``."""
        status = 1
        try:
            signal.set_wakeup_fd(-1)
            for sig in (signal.SIGCHLD, signal.SIGTERM):
                signal.signal(sig, signal.SIG_DFL)
            signal.signal(signal.SIGINT, signal.default_int_handler)
            for other in (*closing, *self.by_socket, *self.by_park):
                other.close()
            for fd in (self.wake_r, self.wake_w):
                os.close(fd)
            if isinstance(fds, dict):  # parked: nothing to read, nowhere to draw yet
                os.environ.update(fds)
                quiet, unused = os.pipe()  # a stdin Textual can watch (it cannot watch /dev/null)
                os.close(unused)
                null = os.open(os.devnull, os.O_WRONLY)
                for target, fd in ((0, quiet), (1, null)):
                    os.dup2(fd, target)
                    os.close(fd)
            else:
                for target, fd in enumerate(fds):
                    os.dup2(fd, target)
                    os.close(fd)
            status = run()
        except BaseException:  # the session's own failure, told on its stderr
            traceback.print_exc()
        finally:
            try:
                sys.stdout.flush()
                sys.stderr.flush()
            finally:
                os._exit(status)

    def _reap(self) -> None:
        while self.children or self.parked:
            try:
                pid, status = os.waitpid(-1, os.WNOHANG)
            except ChildProcessError:
                return
            if pid == 0:
                return
            self._park_failed(pid)
            park = self._unpark(pid)
            if park is not None:
                park.close()
            conn = self.children.pop(pid, None)
            if conn is None:
                continue
            self.by_socket.pop(conn, None)
            try:
                conn.sendall(f"{os.waitstatus_to_exitcode(status)}\n".encode())
            except OSError:
                pass
            conn.close()

    def _launcher_gone(self, conn: socket.socket) -> None:
        """The launcher closed its end (it was killed): end its session too."""
        pid = self.by_socket.pop(conn, None)
        conn.close()
        if pid is not None:
            self.children.pop(pid, None)
            _signal(pid, signal.SIGKILL)
            try:
                os.waitpid(pid, 0)
            except ChildProcessError:
                pass

    def _end_all(self) -> None:
        import time

        pids = [*self.children, *self.parked]
        for pid in pids:
            _signal(pid, signal.SIGTERM)
        deadline = time.monotonic() + KILL_GRACE_S
        while pids and time.monotonic() < deadline:
            pids = [p for p in pids if not _reaped(p)]
            time.sleep(0.05)
        for pid in pids:
            _signal(pid, signal.SIGKILL)
            _reaped(pid, block=True)
        for conn in [*self.by_socket, *self.by_park]:
            conn.close()


def _signal(pid: int, sig: int) -> None:
    try:
        os.kill(pid, sig)
    except ProcessLookupError:
        pass


def _reaped(pid: int, block: bool = False) -> bool:
    try:
        done, _ = os.waitpid(pid, 0 if block else os.WNOHANG)
    except ChildProcessError:
        return True
    return done == pid


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="attn-tui-pool")
    parser.add_argument("--socket", required=True)
    parser.add_argument("--root", type=Path, required=True)
    parser.add_argument("--lang", choices=("zh", "en"), default="en")
    parser.add_argument("--exercises", type=Path, action="append", default=[])
    parser.add_argument("--warm", type=int, default=0, help="sessions kept parked")
    args = parser.parse_args(argv)
    preload(args.lang, [*args.exercises, args.root / "exercises"])  # as ServedApp names them
    listener = socket.socket(socket.AF_UNIX, socket.SOCK_SEQPACKET)
    listener.bind(args.socket)
    os.chmod(args.socket, 0o600)
    listener.listen(128)
    pool = Pool(args)
    pool.fill(listener, PARK_START_S)
    print("ready", flush=True)  # the server waits for this line
    pool.serve(listener)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
