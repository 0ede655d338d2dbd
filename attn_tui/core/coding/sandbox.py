"""Running a learner's file in a process of its own, with limits, and reading what came back.

The learner's code never runs in this process. A child (``harness.py``) is started with
numpy already imported and its limits set, then given one job: a file, a function name and
the cases' arguments. It sends back each result; this side keeps the reference, compares,
and records progress — so nothing the learner's code does can change the expected values
or the store. One child runs one job and is then killed with its whole process group.

Limits (:class:`Limits`), and who enforces each:

- time: the child's watchdog (:mod:`faulthandler`, a C thread) writes where the code was and
  ends it after ``seconds``; this side kills the group ``GRACE_S`` later whatever happens
  (a child stuck in a system call), and RLIMIT_CPU ends a spinning one that outlived both;
- memory: RLIMIT_AS, so an allocation past it fails at once (MemoryError), never swapping;
- output: at most ``output`` bytes of stdout and stderr are kept; more stops the run;
- open files: RLIMIT_NOFILE; file size: RLIMIT_FSIZE;
- the file system (Linux with Landlock): reading only below the interpreter's folders, the
  learner's folder and a scratch folder; writing only in that scratch folder; no programs
  run, no TCP, no signals to processes outside. Where the kernel has no Landlock, the other
  limits still hold and :attr:`Run.landlock` is 0.

:class:`Sandbox` keeps one child started ahead ("warm"), so a check in watch mode costs the
learner's code and a few milliseconds, not an interpreter start and a numpy import (~0.3 s).

Standard library and numpy only.
"""

from __future__ import annotations

import json
import os
import selectors
import shutil
import signal
import subprocess
import sys
import sysconfig
import tempfile
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from attn_tui.core.coding import harness

HARNESS = Path(harness.__file__)
GRACE_S = 1.5  # after the watchdog's time: the child is killed whatever it is doing
START_TIMEOUT_S = 30.0  # a child that is not ready by then (a machine under heavy load) fails


@dataclass(frozen=True)
class Limits:
    seconds: float = 3.0  # the learner's code, all cases together (a correct one takes ms)
    memory: int = 768 * 2**20  # address space; numpy itself takes ~100 MB of it
    output: int = 64 * 2**10  # bytes of stdout + stderr
    open_files: int = 64  # descriptors, the harness's own included
    file_size: int = 2**20  # the largest file it may write (in its scratch folder)

    def to_dict(self) -> dict[str, Any]:
        return {
            "cpu": int(self.seconds) + 2,
            "memory": self.memory,
            "open_files": self.open_files,
            "file_size": self.file_size,
        }


@dataclass
class CaseResult:
    """What one case gave: ``out`` (arrays, tuples, scalars) or ``error``; ``changed``: the
    arguments (by position) that the function changed, as they were after the call."""

    out: Any = None
    kind: str = ""  # the type the function returned ("ndarray", "tuple", "NoneType", "str"...)
    error: dict[str, Any] | None = None
    changed: dict[int, Any] = field(default_factory=dict)
    seconds: float = 0.0


@dataclass
class Run:
    """Everything one job produced."""

    load_error: dict[str, Any] | None = None  # the file did not load (syntax error, exception)
    missing: str | None = None  # no such function; ``defined`` lists what the file has
    defined: list[str] = field(default_factory=list)
    too_large: int | None = None  # the file is larger than the harness reads
    results: dict[int, CaseResult] = field(default_factory=dict)
    running: int | None = None  # the case under way when the run stopped
    stopped: str | None = None  # None (finished), time, memory, output, crashed, exited, protocol
    signal: int | None = None
    where: list[list[Any]] = field(default_factory=list)  # the watchdog's frames in their file
    output: str = ""  # what the code printed (the first ``Limits.output`` bytes)
    seconds: float = 0.0  # wall time from the job to the last frame
    landlock: int = 0  # the Landlock ABI the child applied (0: none)
    done: bool = False


def read_roots(folder: Path) -> list[str]:
    """What the learner's process may read: the interpreter's and packages' folders, the
    learner's folder. Not the data directory, nor other learners' folders."""
    roots = {sys.prefix, sys.base_prefix, sys.exec_prefix, sys.base_exec_prefix, str(folder)}
    for key in ("stdlib", "platstdlib", "purelib", "platlib"):
        try:
            roots.add(sysconfig.get_paths()[key])
        except KeyError:
            pass
    roots.update(p for p in sys.path if p and os.path.isdir(p))
    import numpy

    roots.add(str(Path(numpy.__file__).parent.parent))
    roots.update(
        (
            "/usr/lib",
            "/usr/lib64",
            "/lib",
            "/lib64",
            "/usr/share/zoneinfo",
            "/etc/localtime",
            "/etc/ld.so.cache",
            "/proc/self",
        )
    )
    return sorted(r for r in roots if os.path.exists(r))


def _child_env() -> dict[str, str]:
    env = {
        "OPENBLAS_NUM_THREADS": "1",
        "OMP_NUM_THREADS": "1",
        "MKL_NUM_THREADS": "1",
        "LANG": "C.UTF-8",
        "LC_ALL": "C.UTF-8",
    }
    for name in ("OPENBLAS_CORETYPE", "OPENBLAS_L2_SIZE"):  # some CPUs need them (see README)
        if name in os.environ:
            env[name] = os.environ[name]
    return env


class _Child:
    """One started harness, ready or getting ready for one job."""

    def __init__(self, limits: Limits, folder: Path, landlock: bool) -> None:
        self.limits = limits
        self.scratch = tempfile.mkdtemp(prefix="attn-tui-code-")
        results_r, results_w = os.pipe()
        watch_r, watch_w = os.pipe()
        config = {
            "results_fd": results_w,  # pass_fds keeps the numbers: the harness is told them
            "watchdog_fd": watch_w,
            "limits": limits.to_dict(),
            "landlock": landlock,
            "read_roots": read_roots(folder) + [self.scratch],
            "scratch": self.scratch,
        }
        env = _child_env() | {"TMPDIR": self.scratch, "HOME": self.scratch}
        self.proc = subprocess.Popen(
            [sys.executable, "-I", "-B", "-X", "utf8", str(HARNESS), json.dumps(config)],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            pass_fds=(results_w, watch_w),
            cwd=self.scratch,
            env=env,
            start_new_session=True,
            close_fds=True,
        )
        os.close(results_w)
        os.close(watch_w)
        self.results = os.fdopen(results_r, "rb", buffering=0)
        self.watchdog = os.fdopen(watch_r, "rb", buffering=0)
        self.started = time.monotonic()
        self.ready: dict[str, Any] | None = None

    def kill(self) -> None:
        try:
            os.killpg(self.proc.pid, signal.SIGKILL)
        except (ProcessLookupError, PermissionError, OSError):
            pass
        try:
            self.proc.wait(timeout=5)
        except subprocess.TimeoutExpired:
            pass
        for stream in (self.results, self.watchdog, self.proc.stdin, self.proc.stdout):
            try:
                if stream is not None:
                    stream.close()
            except OSError:
                pass
        shutil.rmtree(self.scratch, ignore_errors=True)


class _Frames:
    """Reads the child's pipes together: frames from the results pipe, bytes of output,
    the watchdog's text, each bounded."""

    def __init__(self, child: _Child, limits: Limits) -> None:
        self.child = child
        self.limits = limits
        self.buffer = b""
        self.output = bytearray()
        self.watchdog = bytearray()
        self.closed: set[str] = set()
        self.selector = selectors.DefaultSelector()
        assert child.proc.stdout is not None
        for name, stream in (
            ("results", child.results),
            ("output", child.proc.stdout),
            ("watchdog", child.watchdog),
        ):
            os.set_blocking(stream.fileno(), False)
            self.selector.register(stream, selectors.EVENT_READ, name)

    def close(self) -> None:
        self.selector.close()

    def poll(self, timeout: float) -> list[tuple[dict[str, Any], list[Any]]] | str:
        """Frames that arrived within ``timeout``; or "output" when too much was printed,
        "protocol" for a broken frame, "eof" when the results pipe closed."""
        frames = []
        for key, _ in self.selector.select(max(0.0, timeout)):
            name = key.data
            try:
                chunk = key.fileobj.read(1 << 16)  # type: ignore[union-attr]
            except BlockingIOError:
                continue
            if not chunk:
                self.selector.unregister(key.fileobj)
                self.closed.add(name)
                continue
            if name == "output":
                self.output += chunk
                if len(self.output) > self.limits.output:
                    return "output"
            elif name == "watchdog":
                self.watchdog += chunk[: 1 << 16]
            else:
                self.buffer += chunk
        while len(self.buffer) >= 4:
            (size,) = harness._LEN.unpack_from(self.buffer, 0)
            if size > harness.MAX_FRAME:
                return "protocol"
            if len(self.buffer) < 4 + size:
                break
            body, self.buffer = self.buffer[4 : 4 + size], self.buffer[4 + size :]
            try:
                frames.append(harness.unpack(body))
            except harness.FrameError:
                return "protocol"
        if not frames and "results" in self.closed:
            return "eof"
        return frames


class Sandbox:
    """Runs jobs in fresh children, keeping one started ahead when ``warm`` (watch mode).

    Thread-safe: a screen may check from a worker thread while another prepares the next."""

    def __init__(
        self,
        limits: Limits = Limits(),
        *,
        warm: bool = False,
        landlock: bool = True,
        folder: Path | None = None,
    ) -> None:
        self.limits = limits
        self.warm = warm
        self.landlock = landlock
        self.folder = Path(folder) if folder is not None else None
        self._next: _Child | None = None
        self._lock = threading.Lock()
        if warm and folder is not None:
            self._next = _Child(limits, self.folder, landlock)  # type: ignore[arg-type]

    def _take(self, folder: Path) -> _Child:
        with self._lock:
            child, self._next = self._next, None
        if child is not None and (self.folder != folder or child.proc.poll() is not None):
            child.kill()
            child = None
        return child or _Child(self.limits, folder, self.landlock)

    def _prepare(self, folder: Path) -> None:
        if not self.warm:
            return
        child = _Child(self.limits, folder, self.landlock)
        with self._lock:
            old, self._next, self.folder = self._next, child, folder
        if old is not None:
            old.kill()

    def close(self) -> None:
        with self._lock:
            child, self._next = self._next, None
        if child is not None:
            child.kill()

    def __enter__(self) -> Sandbox:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def run(self, file: Path, function: str, cases: list[list[Any]]) -> Run:
        """Call ``function`` of ``file`` on each case's arguments (a list of values: arrays,
        numbers, None) in a child; bounded in time, memory and output."""
        file = Path(file).resolve()
        child = self._take(file.parent)
        try:
            return _run(child, self.limits, file, function, cases)
        finally:
            child.kill()
            self._prepare(file.parent)


def _run(child: _Child, limits: Limits, file: Path, function: str, cases: list[list[Any]]) -> Run:
    run = Run()
    frames = _Frames(child, limits)
    try:
        if not _wait_ready(child, frames, run):
            return run
        arrays: list[Any] = []
        job = {
            "file": str(file),
            "function": function,
            "seconds": limits.seconds,
            "cases": [{"args": [harness.encode(a, arrays) for a in args]} for args in cases],
        }
        assert child.proc.stdin is not None
        try:
            child.proc.stdin.write(harness.pack(job, arrays))
            child.proc.stdin.close()
        except (BrokenPipeError, OSError):
            run.stopped = "exited"
            return run
        start = time.monotonic()
        deadline = start + limits.seconds + GRACE_S
        while not run.done:
            got = frames.poll(min(0.25, deadline - time.monotonic()))
            if isinstance(got, str):
                run.stopped = {"eof": None}.get(got, got)
                break
            for header, arrays_back in got:
                _take_frame(run, header, arrays_back)
            if time.monotonic() >= deadline:
                run.stopped = "time"
                break
        run.seconds = time.monotonic() - start
        if not run.done and run.stopped in (None, "time"):
            _why_it_ended(child, frames, run, file)
        return run
    finally:
        run.output = frames.output[: limits.output].decode("utf-8", "replace")
        frames.close()


def _wait_ready(child: _Child, frames: _Frames, run: Run) -> bool:
    while child.ready is None:
        left = child.started + START_TIMEOUT_S - time.monotonic()
        got = frames.poll(min(0.5, left))
        if isinstance(got, str) or left <= 0:
            run.stopped = "unavailable"
            return False
        for header, _ in got:
            if header.get("ready"):
                child.ready = header
    run.landlock = int(child.ready.get("landlock", 0))
    return True


def _take_frame(run: Run, header: dict[str, Any], arrays: list[Any]) -> None:
    if header.get("done"):
        run.done = True
        run.running = None
    elif header.get("stage") == "load":
        run.load_error = header.get("error")
        run.missing = header.get("missing")
        run.defined = list(header.get("defined", []))
        run.too_large = header.get("too_large")
        run.done = True
    elif "case" in header:
        i = int(header["case"])
        if header.get("begin"):
            run.running = i
            return
        run.running = None
        if "error" in header:
            run.results[i] = CaseResult(error=header["error"])
            return
        out = harness.decode(header["out"], arrays)
        described = header["out"].get("type")
        changed = {int(k): harness.decode(v, arrays) for k, v in header.get("changed", {}).items()}
        run.results[i] = CaseResult(
            out=out if described is None else None,
            kind=described or header["out"].get("kind", ""),
            changed=changed,
            seconds=float(header.get("seconds", 0.0)),
        )


def _why_it_ended(child: _Child, frames: _Frames, run: Run, file: Path) -> None:
    """The child stopped before it was done: by its watchdog, a signal, or its own exit."""
    try:
        child.proc.wait(timeout=GRACE_S if run.stopped is None else 0.1)
    except subprocess.TimeoutExpired:
        child.kill()
    for _ in range(3):  # the watchdog's last words, if it wrote any
        got = frames.poll(0.05)
        if isinstance(got, list):
            for header, arrays_back in got:
                _take_frame(run, header, arrays_back)
    text = frames.watchdog.decode("utf-8", "replace")
    if "Timeout" in text:
        run.stopped = "time"
        run.where = _watchdog_frames(text, str(file))
        return
    code = child.proc.returncode
    if code is not None and code < 0:
        run.signal = -code
        by_signal: dict[int, str] = {
            signal.SIGXCPU: "time",
            signal.SIGKILL: run.stopped or "time",
            signal.SIGXFSZ: "file_size",
        }
        run.stopped = by_signal.get(-code, "crashed")
    elif run.stopped is None:
        run.stopped = "exited"


def _watchdog_frames(text: str, path: str) -> list[list[Any]]:
    """faulthandler's ``File "x.py", line 7 in f`` lines for the learner's file, innermost
    first as it writes them (of the main thread, which is listed first or marked current)."""
    found: list[list[Any]] = []
    prefix = f'  File "{path}", line '
    for line in text.splitlines():
        if line.startswith("Thread ") and found:
            break
        if line.startswith(prefix):
            rest = line[len(prefix) :]
            number, _, name = rest.partition(" in ")
            if number.isdigit():
                found.append([int(number), name.strip()])
    return found


__all__ = ["CaseResult", "Limits", "Run", "Sandbox", "read_roots"]
