"""Running the CLI the way a hostile user would, and the hostile things themselves.

:func:`run` calls ``attn_tui.cli.main`` in this process with stdout and stderr captured as byte
pipes (UTF-8, like a real pipe), stdin replaced, an alarm that turns a hang into a failure, and
(Linux) the growth of this process's peak resident set during the run;
:func:`run_process` runs it in a fresh process (argv passed on stdin, so a megabyte argument is
possible) and reports its peak memory, :func:`run_batch` many in one fresh process with a peak
each. :func:`verdict` says what, if anything, is wrong with an outcome: the exit status, more
than one line on stderr, a traceback, time past a bound linear in the input size, or memory
past its bound. :func:`hostile_files` makes every kind of file a learner or teacher might hand
over by mistake or on purpose.
"""

from __future__ import annotations

import io
import json
import os
import signal
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path

# Generous: a quadratic cost on a megabyte takes hours, a linear one a second or two even on a
# machine shared by eight engineers.
BASE_SECONDS = 20.0
SECONDS_PER_MB = 30.0
MEMORY_LIMIT_MB = 400.0  # peak resident set of a whole process (numpy, Rich, Textual's imports)
GROWTH_LIMIT_MB = 300.0  # what one command run in this process may add to its resident set


class Hang(BaseException):
    """Raised by the alarm: a BaseException, so no ``except Exception`` in the code swallows it."""


@dataclass
class Outcome:
    argv: list[str]
    code: int | None
    out: str
    err: str
    seconds: float
    size: int  # bytes of hostile input, for the time bound
    peak_mb: float | None = None
    grew_mb: float | None = None  # in-process runs: the peak resident set above the start

    def short(self) -> str:
        args = " ".join(a if len(a) < 40 else f"{a[:20]}…({len(a)})" for a in map(repr, self.argv))
        return f"[{args}] → {self.code}, {self.seconds:.2f} s, stderr {self.err[:300]!r}"


def bound(size: int) -> float:
    return BASE_SECONDS + SECONDS_PER_MB * size / 2**20


def _size(argv: list[str], extra: int) -> int:
    """Bytes of input: the arguments, and the files they name (folders: their files; only what
    a reader would read, so a sparse 20 MB file refused unread does not widen the bound)."""
    total = sum(len(a) for a in argv) + extra
    for arg in argv:
        try:
            path = Path(arg)
            paths = path.rglob("*") if path.is_dir() else [path]
            for p in paths:
                if p.is_file() and not p.is_symlink() and p.stat().st_size <= 16 * 2**20:
                    total += p.stat().st_size
        except (OSError, ValueError, RuntimeError):
            continue
    return total


def run(argv: list[str], *, stdin: str = "", size: int = 0, env: dict | None = None) -> Outcome:
    """``attn-tui ARGV`` in this process. ``size``: bytes of hostile input not in argv (files)."""
    from attn_tui import i18n
    from attn_tui.cli import main

    limit = bound(_size(argv, size))
    out_buf, err_buf = io.BytesIO(), io.BytesIO()
    out = io.TextIOWrapper(out_buf, encoding="utf-8", write_through=True)
    err = io.TextIOWrapper(err_buf, encoding="utf-8", write_through=True)
    saved = sys.stdout, sys.stderr, sys.stdin
    saved_env = {k: os.environ.get(k) for k in (env or {})}

    def alarm(signum, frame):
        raise Hang(f"still running after {limit:.0f} s")

    start_kb = _reset_peak()
    previous = signal.signal(signal.SIGALRM, alarm)
    signal.setitimer(signal.ITIMER_REAL, limit + 5)
    sys.stdout, sys.stderr, sys.stdin = out, err, io.StringIO(stdin)
    os.environ.update(env or {})
    start = time.perf_counter()
    try:
        code: int | None = main(list(argv))
    except SystemExit as exit_:
        code = exit_.code if isinstance(exit_.code, int) else 1
    except Hang as hang:
        code = None
        err.write(f"HANG: {hang}\n")
    except Exception as escaped:  # what a real process would print as a traceback
        code = 1
        err.write(f"Traceback (most recent call last): {type(escaped).__name__}: {escaped}\n")
    finally:
        seconds = time.perf_counter() - start
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)
        sys.stdout, sys.stderr, sys.stdin = saved
        for key, value in saved_env.items():
            if value is None:
                os.environ.pop(key, None)
            else:
                os.environ[key] = value
        i18n.set_lang("en")
    grew = (_status_kb("VmHWM:") - start_kb) / 1024 if start_kb is not None else None
    text = (
        out_buf.getvalue().decode("utf-8", "replace"),
        err_buf.getvalue().decode("utf-8", "replace"),
    )
    return Outcome(list(argv), code, text[0], text[1], seconds, _size(argv, size), None, grew)


def _status_kb(field: str) -> int:
    with open("/proc/self/status") as status:
        return int(next(line.split()[1] for line in status if line.startswith(field)))


def _reset_peak() -> int | None:
    """Linux: start this process's peak resident set (VmHWM) again from what is resident now,
    and return that (kB), so that a run's own peak can be read after it; None elsewhere."""
    try:
        with open("/proc/self/clear_refs", "w") as refs:
            refs.write("5")
        return _status_kb("VmRSS:")
    except (OSError, StopIteration, ValueError):
        return None


_CHILD = """
import atexit, json, os, resource, sys
from attn_tui.cli import main
report = os.environ.pop("ATTN_TEST_PEAK_FILE")
def peak():  # VmHWM starts afresh at exec; ru_maxrss keeps the parent's (Linux)
    try:
        with open("/proc/self/status") as status:
            return next(l.split()[1] for l in status if l.startswith("VmHWM:"))
    except (OSError, StopIteration):
        return str(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss)
atexit.register(lambda: open(report, "w").write(peak()))
argv = json.loads(sys.stdin.buffer.read().decode("utf-8", "surrogatepass"))
sys.stdin = open(os.devnull)
raise SystemExit(main(argv))
"""


def run_process(argv: list[str], *, size: int = 0, env: dict | None = None) -> Outcome:
    """``attn-tui ARGV`` in a fresh process, its peak memory measured (Linux: wait4)."""
    import tempfile

    limit = bound(_size(argv, size))
    payload = json.dumps(argv).encode("utf-8", "surrogatepass")
    with tempfile.TemporaryDirectory() as scratch:
        peak_file = Path(scratch) / "peak"
        start = time.perf_counter()
        proc = subprocess.Popen(
            [sys.executable, "-c", _CHILD],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            env={**os.environ, **(env or {}), "ATTN_TEST_PEAK_FILE": str(peak_file)},
        )
        try:
            out, err = proc.communicate(payload, timeout=limit + 10)
            code: int | None = proc.returncode
        except subprocess.TimeoutExpired:
            proc.kill()
            out, err = proc.communicate()
            code = None
        seconds = time.perf_counter() - start
        kb = peak_file.read_text() if peak_file.exists() else ""
    return Outcome(
        list(argv),
        code,
        out.decode("utf-8", "replace"),
        err.decode("utf-8", "replace"),
        seconds,
        _size(argv, size),
        int(kb) / 1024 if kb else None,
    )


_BATCH = """
import json, os, sys
sys.path.append(os.environ.pop("ATTN_TEST_ROOT"))  # attn_tui: the installed one, or PYTHONPATH
from tests.cli.hostile.hostile import run
def peak_kb():
    with open("/proc/self/status") as status:
        return int(next(l.split()[1] for l in status if l.startswith("VmHWM:")))
cases = json.loads(sys.stdin.buffer.read().decode("utf-8", "surrogatepass"))
for argv, stdin in cases:
    with open("/proc/self/clear_refs", "w") as refs:
        refs.write("5")  # the peak starts again from what is resident now
    o = run(argv, stdin=stdin)
    err = o.err if len(o.err) <= 4000 else o.err[:2000] + f"…({len(o.err)} characters)"
    row = [o.code, err, o.seconds, o.size, peak_kb() / 1024]
    sys.stdout.buffer.write(json.dumps(row).encode("utf-8", "surrogatepass") + b"\\n")
    sys.stdout.flush()
"""


def can_measure_each_peak() -> bool:
    """Linux lets a process reset its own peak (VmHWM) through /proc/self/clear_refs."""
    try:
        with open("/proc/self/clear_refs", "w") as refs:
            refs.write("5")
        return True
    except OSError:
        return False


def run_batch(cases: list[tuple[list[str], str]], *, env: dict | None = None) -> list[Outcome]:
    """Many ``attn-tui ARGV`` (with their stdin) in one fresh process, one after another, each
    with its own time bound (:func:`run`) and its own peak memory (the peak is reset before
    each): a megabyte in every option without paying a start-up for each."""
    root = Path(__file__).resolve().parents[3]
    payload = json.dumps(cases).encode("utf-8", "surrogatepass")
    total = sum(bound(sum(len(a) for a in argv) + len(stdin)) for argv, stdin in cases)
    proc = subprocess.run(
        [sys.executable, "-c", _BATCH],
        input=payload,
        capture_output=True,
        timeout=total + 60,
        env={**os.environ, **(env or {}), "ATTN_TEST_ROOT": str(root)},
    )
    rows = [json.loads(line) for line in proc.stdout.decode("utf-8", "surrogatepass").splitlines()]
    assert len(rows) == len(cases), proc.stderr.decode("utf-8", "replace")[-3000:]
    return [
        Outcome(list(argv), code, "", err, seconds, size, peak)
        for (argv, _), (code, err, seconds, size, peak) in zip(cases, rows, strict=True)
    ]


def verdict(o: Outcome, allowed: frozenset[int] = frozenset({0, 2})) -> str | None:
    """What is wrong with an outcome, or None."""
    lines = o.err.splitlines()
    if o.code is None:
        return f"hang: {o.short()}"
    if o.code not in allowed:
        return f"exit {o.code}: {o.short()}"
    if len(lines) > 1:
        return f"{len(lines)} lines on stderr: {o.short()}"
    if "Traceback (most recent call last)" in o.err:
        return f"traceback: {o.short()}"
    if o.seconds > bound(o.size):
        return f"{o.seconds:.1f} s > {bound(o.size):.1f} s for {o.size} bytes: {o.short()}"
    if o.peak_mb is not None and o.peak_mb > MEMORY_LIMIT_MB:
        return f"{o.peak_mb:.0f} MB > {MEMORY_LIMIT_MB:.0f} MB: {o.short()}"
    if o.grew_mb is not None and o.grew_mb > GROWTH_LIMIT_MB:
        return f"grew {o.grew_mb:.0f} MB > {GROWTH_LIMIT_MB:.0f} MB: {o.short()}"
    return None


# -- hostile values -------------------------------------------------------------------------
# (the full-size reproductions of the issue — 200,000 keys, 50,000 headers — are in
# test_files.py, once each; here every command meets smaller copies of every kind)

VALUES = [
    "", " ", "-", "--", "-1", "0", "1", "-3e-05", "-1.5e3", "1e309", "-1e309", "nan", "inf",
    "0x10", "9" * 5000, "1" * 2000 + "x", "1 " * 300, "\x00", "\x1b[31mred\x1b[0m",
    "[bold]x[/]", "[/]", "~nouser/x", "\udcff", "\ud800", "１，０，１", "1,,2", "1;;2",
    "[[1,2],[3]]", "((1", "−2", "٣", "\u202e", "a" * 200, "1\n2", "%s%n", "{}", '"', "zh",
    "cat",
]  # fmt: skip


PATHS = [
    "", " ", "-", "-1", "~nouser/x", "\udcff", "\ud800", "\x00", "[bold]x", "\x1b[31mx",
    "a" * 300, "/dev/null", "/dev/zero", "/proc/nonexistent/x", "/", "{}", "%s",
]  # fmt: skip

# Data directories: a store is created in a data directory that can hold one, so "/" (and
# "/nonexistent/x") put a progress.db at the root of a machine where the suite runs as root.
# /proc and /sys refuse a new file even to root: the same fault without touching anything.
DATA_DIRS = [p if p != "/" else "/proc" for p in PATHS] + ["/sys", "/dev/null/x"]


def megabyte_texts() -> list[tuple[str, str]]:
    """(name, text) of ≥ 1 MB each: every shape that once cost a square of its length."""
    mb = 2**20
    return [
        ("digits+x", "1" * mb + "x"),
        ("spaces", "1" + " " * mb + "x"),
        ("digit-dot", "1." * (mb // 2) + "x"),
        ("numbers", "1 " * (mb // 2)),
        ("rows", "1;" * (mb // 2)),
        ("commas", "1," * (mb // 2)),
        ("brackets", "[" * mb),
        ("slash", "1" * mb + "/x"),
        ("words", "猫 " * (mb // 2)),
    ]


# -- hostile files --------------------------------------------------------------------------


def hostile_files(folder: Path, suffix: str) -> dict[str, Path]:
    """Every kind of bad file, named by what it is, inside ``folder`` (``suffix`` .toml/.json)."""
    folder.mkdir(parents=True, exist_ok=True)
    made: dict[str, Path] = {}

    def write(name: str, data: bytes | str) -> None:
        path = folder / f"{name}{suffix}"
        path.write_bytes(data.encode("utf-8", "surrogatepass") if isinstance(data, str) else data)
        made[name] = path

    json_ = suffix == ".json"
    write("empty", b"")
    write("garbage", bytes(range(256)) * 64)
    write("not-utf8", b'sc-dot = "\xff\xfe"\n')
    write("bom", "\ufeff" + ('{"sc-dot": 2}' if json_ else "sc-dot = 2\n"))
    write("nul", "sc\x00dot = 1\n")
    if json_:
        write("deep", '{"sc-dot": ' + "[" * 3000 + "]" * 3000 + "}")
        write("deep-objects", '{"a": ' * 3000 + "1" + "}" * 3000)
        write("int-400", '{"sc-dot": ' + "9" * 400 + "}")
        write("int-5000", '{"sc-dot": ' + "9" * 5000 + "}")
        write("surrogate", '{"sc-dot": "\\ud800", "\\udcff": 1}')
        write("list", "[1, 2, 3]")
        write("many-keys", "{" + ",".join(f'"k{i}": {i}' for i in range(50_000)) + "}")
        write("long-answer", json.dumps({"sc-dot": "1 " * 600_000}))
    else:
        write("deep", "sc-dot = " + "[" * 3000 + "]" * 3000 + "\n")
        write("deep-tables", "sc-dot = " + "{a = " * 3000 + "1" + "}" * 3000 + "\n")
        write("dotted-20000", ".".join(["a"] * 20000) + " = 1\n")
        write("int-400", "sc-dot = " + "9" * 400 + "\n")
        write("int-5000", "sc-dot = " + "9" * 5000 + "\n")
        write("many-keys", "".join(f"k{i} = {i}\n" for i in range(50_000)))
        write("headers", "".join(f"[t{i}]\n" for i in range(20_000)))
        write("long-answer", 'sc-dot = "' + "1 " * 600_000 + '"\n')
        write("markup", 'sc-dot = "[/]"\nsc-steps = "[bold]x"\n')
        write("escapes", 'sc-dot = "\\u001b[2J\\u0007"\n')
    write("[bold]name", '{"sc-dot": 2}' if json_ else "sc-dot = 2\n")
    write("esc\x1b[31mname", '{"sc-dot": 2}' if json_ else "sc-dot = 2\n")
    big = folder / f"too-large{suffix}"
    with open(big, "wb") as fh:
        fh.truncate(20 * 2**20)  # sparse: 20 MB of NULs, past every limit
    made["too-large"] = big
    fifo = folder / f"fifo{suffix}"
    os.mkfifo(fifo)
    made["fifo"] = fifo
    loop = folder / f"loop{suffix}"
    loop.symlink_to(loop.name)
    made["loop"] = loop
    zero = folder / f"zero{suffix}"
    zero.symlink_to("/dev/zero")
    made["zero"] = zero
    (folder / f"dir{suffix}").mkdir()
    made["dir"] = folder / f"dir{suffix}"
    return made
