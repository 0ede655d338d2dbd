"""Training in other processes: many runs over a pool, and one live run streamed back.

    for result in pool_runs(configs, workers=2, should_stop=stop):   # a multi-seed comparison
        ...                                                          # (in the order they finish)

    live = LiveRun(config, pace="watch")       # the training screen's run
    live.poll(0.05); message = live.recv()     # ("update", Update) ... ("done", RunResult)
                                               # or ("error", text) if the child failed
    live.send("pause") / "resume" / "step" / "stop";  live.kill()

Why processes. A numpy step of this small model is a hundred short calls, each releasing and
retaking the GIL; a UI thread drawing in the same process takes the GIL at every release and
slows training by a third. In a child process the run gets a core of its own, and a
comparison's seeds run side by side on all cores. The numbers are those of the same run in
this process, bit for bit: the same code on the same configuration.

Children are forked from a *forkserver*: a clean process that has imported numpy and the
trainer once, so a child starts in milliseconds and inherits none of the parent's threads (a
terminal UI has several; forking a threaded process can deadlock). A headless command, which
runs one thread, forks its pool directly. Children ignore SIGINT:
Ctrl+C reaches the parent, which stops them all at once (``terminate``), so the terminal sees
one line, not a traceback per worker.

The forkserver needs the multiprocessing resource tracker, which is started with a copy of
the parent's stderr descriptor; a full-screen app replaces ``sys.stderr`` with an object whose
descriptor is not real, so :func:`prepare` starts the tracker against the true stderr. Call it
before the app runs (it is cheap, and idempotent).
"""

from __future__ import annotations

import math
import multiprocessing
import multiprocessing.connection
import os
import signal
import sys
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass

import numpy as np

try:
    import fcntl
except ImportError:  # pragma: no cover - Windows: no flock, and no server's slots to share
    fcntl = None  # type: ignore[assignment]

from attn_tui.core.models.loop import RunResult, Settings, Snapshot, run_to_end, train

AnyConfig = Settings  # any model's settings: the RNN's TrainConfig, the TransformerConfig, …

PACES = ("fast", "watch", "step")
POST_INTERVAL = 0.05  # a live run reports at most ~20 times a second
WATCH_SECONDS = 12.0  # the watchable pace stretches a whole run over about this long
POLL = 0.1  # how often a waiting pool checks whether to stop
START_METHODS = multiprocessing.get_all_start_methods()


def prepare() -> None:
    """Start the resource tracker (and so make the forkserver startable) against the real
    stderr, even when ``sys.stderr`` has been replaced. Safe to call more than once."""
    from multiprocessing import resource_tracker

    saved = sys.stderr
    try:
        if sys.__stderr__ is not None:
            sys.stderr = sys.__stderr__
        resource_tracker.ensure_running()
    finally:
        sys.stderr = saved


def _context(
    fork_if_alone: bool = False,
) -> multiprocessing.context.ForkContext | multiprocessing.context.ForkServerContext:
    """The forkserver; or, when asked and this process runs a single thread (a headless
    command), plain fork, which starts children sooner and is safe without other threads."""
    if fork_if_alone and threading.active_count() == 1 and "fork" in START_METHODS:
        return multiprocessing.get_context("fork")
    prepare()
    ctx = multiprocessing.get_context("forkserver")
    ctx.set_forkserver_preload(
        [
            "attn_tui.core.models.loop",
            "attn_tui.core.models.trainer",
            "attn_tui.core.models.transformer_trainer",
        ]
    )
    return ctx


def warm_up() -> None:
    """Start the forkserver now (it imports numpy and the trainer, a second or so on a busy
    machine) so that the first run starts at once. Returns without waiting for it."""
    from multiprocessing import forkserver

    _context()
    forkserver.ensure_running()


def _quiet_child() -> None:
    """In a child: Ctrl+C is the parent's business (it stops us with SIGTERM), and nothing is
    written to the terminal, which a full-screen parent is drawing on (results and errors
    travel back through the pipe)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    devnull = os.open(os.devnull, os.O_WRONLY)
    for fd in (1, 2):
        os.dup2(devnull, fd)
    os.close(devnull)


def default_workers(runs: int) -> int:
    """One worker per core, never more than there are runs."""
    return max(1, min(os.cpu_count() or 1, runs))


# A server of many sessions (``attn-tui serve``) shares its cores among them: it names a folder
# and a count here, ``FOLDER:N``, and a pool takes as many of the N slots (a file each, held with
# an exclusive flock, let go when the pool ends or its process dies) as it has workers, running
# in its own process when it gets fewer than two. So one F10 per tab cannot start a pool of
# cpu_count processes per tab.
SLOTS_ENV = "ATTN_TUI_WORKER_SLOTS"


@contextmanager
def claimed_workers(wanted: int) -> Iterator[int]:
    """How many worker processes this pool may start now (``wanted`` without a server's slots:
    SLOTS_ENV), held until the ``with`` ends."""
    spec = os.environ.get(SLOTS_ENV, "")
    folder, _, count = spec.rpartition(":")
    if wanted <= 1 or not folder or not count.isdigit() or fcntl is None:
        yield wanted
        return
    held: list[int] = []
    try:
        for slot in range(int(count)):
            if len(held) >= wanted:
                break
            flags = os.O_RDWR | os.O_CREAT | getattr(os, "O_CLOEXEC", 0)
            try:
                fd = os.open(os.path.join(folder, f"slot-{slot}"), flags, 0o600)
            except OSError:
                break  # the server's folder is gone: take no more
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
                held.append(fd)
            except OSError:
                os.close(fd)
        if len(held) < 2:  # one worker process is no better than this one: let it go
            for fd in held:
                os.close(fd)
            held = []
        yield max(1, len(held))
    finally:
        for fd in held:
            os.close(fd)


# ---- many runs over a pool ------------------------------------------------------------------


def pool_runs(
    configs: Sequence[AnyConfig],
    workers: int | None = None,
    should_stop: Callable[[], bool] | None = None,
) -> Iterator[RunResult]:
    """Train every configuration to the end, ``workers`` at a time, yielding each result as it
    finishes. Stopping (``should_stop`` true, checked every POLL seconds, or the consumer
    closing the iterator, or Ctrl+C) terminates every worker at once. With one worker or one
    run, everything stays in this process."""
    workers = default_workers(len(configs)) if workers is None else max(1, workers)
    with claimed_workers(min(workers, len(configs))) as workers:
        yield from _pool_runs(configs, workers, should_stop)


def _pool_runs(configs, workers: int, should_stop) -> Iterator[RunResult]:
    if workers == 1 or len(configs) <= 1:
        for cfg in configs:
            if should_stop is not None and should_stop():
                return
            yield run_to_end(cfg, should_stop)
        return
    ctx = _context(fork_if_alone=True)
    pool = ctx.Pool(min(workers, len(configs)), initializer=_quiet_child)
    try:
        results = pool.imap_unordered(run_to_end, configs)
        for _ in range(len(configs)):
            while True:
                if should_stop is not None and should_stop():
                    return
                try:
                    result = results.next(POLL)
                except multiprocessing.TimeoutError:
                    continue
                break
            yield result
    finally:
        pool.terminate()  # at once: a stop, a closed iterator, Ctrl+C or the last result
        pool.join()


# ---- one live run --------------------------------------------------------------------------


@dataclass(frozen=True)
class Update:
    """What a live run reports: losses since the last Update, the newest evaluation (if one
    was made since), and the time spent training, pauses left out."""

    iteration: int
    losses: np.ndarray
    snapshot: Snapshot | None
    wall: float
    state: str = ""  # "", "paused" or "stepping": what the run is waiting for


def live_loop(
    config: AnyConfig,
    pace: str,
    emit: Callable[[str, object], None],
    wait: Callable[[float | None], str | None],
    *,
    watch_seconds: float = WATCH_SECONDS,
    post_interval: float = POST_INTERVAL,
) -> None:
    """Train ``config`` at ``pace``, reporting through ``emit(kind, payload)``: ("update",
    Update) at most every ``post_interval`` seconds (after every iteration when stepping),
    then ("done", RunResult). ``wait(timeout)`` returns the next command ("pause", "resume",
    "step", "stop") or None when ``timeout`` passes (``None`` = wait for one); it doubles as
    the pacing sleep, so a command is answered at once. Runs in the child process; written
    against two callables so that a test can drive it in a thread."""
    per_iteration = watch_seconds / config.iters if pace == "watch" else 0.0
    every = config.iters if pace == "fast" else 1
    stopped = False
    pending: list[np.ndarray] = []
    snap: Snapshot | None = None
    started = deadline = time.perf_counter()
    paused = 0.0  # seconds spent paused or waiting for a step, left out of the elapsed time
    last_post = -math.inf
    last_iteration = 0

    def post(iteration: int, state: str = "") -> None:
        nonlocal pending, snap, last_post
        losses = np.concatenate(pending) if pending else np.empty(0)
        wall = time.perf_counter() - started - paused
        emit("update", Update(iteration, losses, snap, wall, state))
        pending, snap, last_post = [], None, time.perf_counter()

    def hold(state: str, until: tuple[str, ...]) -> None:
        """Wait for one of ``until`` (or stop), the clock stopped meanwhile."""
        nonlocal paused, stopped, deadline
        t0 = time.perf_counter()
        while True:
            command = wait(None)
            if command == "stop":
                stopped = True
                break
            if command in until:
                break
        paused += time.perf_counter() - t0
        deadline = time.perf_counter()

    def check(timeout: float) -> None:
        """Answer commands that arrived (waiting up to ``timeout`` for one, as the pace's
        sleep); a pause holds here until resumed."""
        nonlocal stopped
        end = time.perf_counter() + timeout
        while not stopped:
            command = wait(max(0.0, end - time.perf_counter()))
            if command is None:
                return
            if command == "stop":
                stopped = True
            elif command == "pause":
                post(last_iteration, "paused")
                hold("paused", ("resume",))

    run = train(config, every=every, max_interval=post_interval, should_stop=lambda: stopped)
    for p in run:
        pending.append(p.losses)
        if p.snapshot is not None:
            snap = p.snapshot
        last_iteration = p.iteration
        if p.result is not None:
            post(p.iteration)
            emit("done", p.result)
            return
        if pace == "step":
            post(p.iteration, "stepping")
            hold("stepping", ("step",))
            continue
        if time.perf_counter() - last_post >= post_interval:
            post(p.iteration)
        delay = 0.0
        if per_iteration:
            deadline += per_iteration * len(p.losses)  # the iterations this Progress covers
            delay = deadline - time.perf_counter()
        check(max(delay, 0.0))


def _live_main(config: AnyConfig, pace: str, conn, watch_seconds: float) -> None:
    """The child's side: live_loop over the pipe; ends quietly when the parent goes away."""
    _quiet_child()

    def emit(kind: str, payload: object) -> None:
        conn.send((kind, payload))

    def wait(timeout: float | None) -> str | None:
        if timeout is not None and not conn.poll(timeout):
            return None
        return conn.recv()

    try:
        live_loop(config, pace, emit, wait, watch_seconds=watch_seconds)
    except (EOFError, BrokenPipeError, ConnectionResetError):
        pass  # the parent stopped listening: nothing left to do
    except Exception as err:  # a fault of ours: say what it was instead of dying silently
        try:
            conn.send(("error", f"{type(err).__name__}: {err}"))
        except OSError:
            pass
    finally:
        conn.close()


class LiveRun:
    """One run in a child process; its reports arrive on a pipe (see :func:`live_loop`)."""

    def __init__(
        self, config: AnyConfig, pace: str = "fast", *, watch_seconds: float = WATCH_SECONDS
    ) -> None:
        ctx = _context()
        self.conn, child = ctx.Pipe()
        self.process = ctx.Process(
            target=_live_main, args=(config, pace, child, watch_seconds), daemon=True
        )
        self.process.start()
        child.close()  # the child holds its own copy; ours would keep the pipe open
        self._kill_lock = threading.Lock()
        self._killed = False

    def send(self, command: str) -> None:
        try:
            self.conn.send(command)
        except (BrokenPipeError, OSError):
            pass  # the run has ended already

    def poll(self, timeout: float) -> bool:
        return self.conn.poll(timeout)

    def recv(self) -> tuple[str, object]:
        """The next report; raises EOFError once the child is gone."""
        return self.conn.recv()

    def kill(self) -> None:
        """End the child at once (leaving the screen, quitting) and release the pipe.

        Safe to call from two threads at once, and more than once: the screen's relay thread
        kills its run when it ends while leaving the screen kills it too, and two closes of one
        pipe racing each other closed its descriptor twice (EBADF, and the app died)."""
        with self._kill_lock:
            if self._killed:
                return
            self._killed = True
            if self.process.is_alive():
                self.process.terminate()
            self.process.join(timeout=2)
            self.conn.close()
