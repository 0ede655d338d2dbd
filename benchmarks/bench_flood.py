"""A class beside a slow-client flood: does ``attn-tui serve`` keep working?

Each round starts ``attn-tui serve`` twice on a free loopback port, with ``--warm N`` (a waiting
session per student), and has N simulated students open the tutor at the same moment
(tests/classroom/wsclient.py: the page, its websocket, the first screen):

- **quiet**: nothing else reaches the server;
- **flood**: first ``--flood`` (1,000) half-open connections are opened and held open, each
  having sent the start of a request and a header byte a second after it, never the end;
  whatever the server closes is opened again at once. They come from ``--sources`` loopback
  addresses of their own (127.0.1.x, as from other machines; the students use 127.0.0.1).
  The class arrives once the flood is in place, and the flood goes on until the last student
  has their screen.

Reported per kind, over the rounds: the students' first screen (median and p95 of each round,
then the median of those), students who never got it within ``--timeout``, the bytes the
server wrote to its terminal (stderr) during the class, and its CPU; then the flood's p95 over
the quiet one, round by round (the two run back to back, so the machine's load is alike).
``--ulimit N`` runs the server as ``ulimit -n N`` would (1024: the case that ran ``accept()``
out of descriptors before); ``--tree DIR`` runs the server from another checkout (an older
revision beside this one: ``git worktree add /tmp/base REV``).

Loopback only; every wait has a deadline and the run ends by itself (every socket is closed).

    python benchmarks/bench_flood.py [--students 30] [--flood 1000] [--rounds 3] [--ulimit 1024]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

import aiohttp

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests" / "classroom"))
from wsclient import Tab  # noqa: E402 (the tests' websocket tab, shared)

HEAD = b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nUser-Agent: slow\r\nX-Slow: "


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def cpu_seconds(pid: int) -> float:
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(") ", 1)[1].split()
    except (OSError, IndexError):
        return 0.0
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def raise_own_limit(wanted: int) -> None:
    import resource

    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    target = hard if hard == resource.RLIM_INFINITY else min(hard, max(soft, wanted))
    if soft < target:
        resource.setrlimit(resource.RLIMIT_NOFILE, (target, hard))


class Server:
    """``attn-tui serve`` in a subprocess; its stderr counted as it comes."""

    def __init__(self, data: Path, students: int, ulimit: int | None, tree: Path | None) -> None:
        self.port = free_port()
        self.base = f"http://127.0.0.1:{self.port}/"
        argv = [sys.executable, "-m", "attn_tui", "--data-dir", str(data), "serve",
                "--port", str(self.port), "--warm", str(students),
                "--max-sessions", str(students + 10)]  # fmt: skip
        env = dict(os.environ)
        if tree is not None:  # and run from there: `python -m` puts the working folder first
            env["PYTHONPATH"] = str(tree)

        def limit() -> None:
            import resource

            resource.setrlimit(resource.RLIMIT_NOFILE, (ulimit, ulimit))

        self.proc = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                     env=env, preexec_fn=limit if ulimit else None,
                                     cwd=tree)  # fmt: skip
        deadline = time.monotonic() + 180
        banner = b""
        while b"Ctrl+C" not in banner:
            line = self.proc.stdout.readline()
            if not line or time.monotonic() > deadline:
                raise RuntimeError(f"serve did not start: {self.proc.stderr.read()[-2000:]!r}")
            banner += line
        self.err_bytes = 0
        self._reader = threading.Thread(target=self._count, daemon=True)
        self._reader.start()

    def _count(self) -> None:
        for chunk in iter(lambda: self.proc.stderr.read1(65536), b""):
            self.err_bytes += len(chunk)

    def stop(self) -> None:
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGINT)
        try:
            self.proc.wait(60)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()
        self._reader.join(10)


class Flood:
    """``count`` half-open connections from ``sources`` addresses, kept open until stopped."""

    def __init__(self, port: int, count: int, sources: int) -> None:
        self.port, self.count = port, count
        self.sources = [f"127.0.1.{1 + i % 250}" for i in range(sources)]
        self.conns: list[socket.socket | None] = [None] * count
        self.reopened = 0
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)

    def _open(self, i: int) -> socket.socket | None:
        conn = socket.socket()
        conn.setblocking(False)
        try:
            conn.bind((self.sources[i % len(self.sources)], 0))
            conn.connect_ex(("127.0.0.1", self.port))
        except OSError:
            conn.close()
            return None
        return conn

    def start(self) -> None:
        for i in range(self.count):
            self.conns[i] = self._open(i)
        self._thread.start()

    def _run(self) -> None:
        sent: set[int] = set()
        last_drip = 0.0
        while not self._stop.is_set():
            now = time.monotonic()
            drip = now - last_drip >= 1.0
            for i, conn in enumerate(self.conns):
                if conn is None:
                    self.conns[i] = self._open(i)
                    continue
                try:
                    if conn.recv(4096, socket.MSG_DONTWAIT) == b"":
                        raise ConnectionResetError
                except BlockingIOError:
                    pass
                except OSError:  # closed by the server (or never connected): again
                    conn.close()
                    sent.discard(i)
                    self.conns[i] = self._open(i)
                    self.reopened += 1
                    continue
                try:
                    if i not in sent:
                        conn.send(HEAD)
                        sent.add(i)
                    elif drip:
                        conn.send(b"x")
                except BlockingIOError:
                    pass
                except OSError:
                    pass
            if drip:
                last_drip = now
            time.sleep(0.05)

    def stop(self) -> None:
        self._stop.set()
        self._thread.join(10)
        for conn in self.conns:
            if conn is not None:
                conn.close()


async def one_student(base: str, name: str, timeout: float) -> float | None:
    started = time.monotonic()
    try:
        async with aiohttp.ClientSession(timeout=aiohttp.ClientTimeout(total=timeout)) as http:
            tab = Tab(http, base, name=name)
            try:
                await asyncio.wait_for(tab.open(), timeout)
                await tab.wait_for(f"Welcome, {name}", timeout - (time.monotonic() - started))
                return time.monotonic() - started
            finally:
                await tab.close()
    except Exception:  # refused, timed out, reset: this student never got in
        return None


async def a_class(base: str, students: int, timeout: float, tag: str) -> list[float | None]:
    return await asyncio.gather(*(one_student(base, f"{tag}{i}", timeout)
                                  for i in range(students)))  # fmt: skip


def p95(values: list[float]) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(0.95 * (len(ordered) - 1)))]


def run_kind(kind: str, args: argparse.Namespace, round_no: int) -> dict:
    with tempfile.TemporaryDirectory(prefix="attn-flood-") as data:
        server = Server(Path(data), args.students, args.ulimit, args.tree)
        flood = None
        try:
            if kind == "flood":
                flood = Flood(server.port, args.flood, args.sources)
                flood.start()
                time.sleep(args.settle)  # the flood in place before the class arrives
            err_before, cpu_before = server.err_bytes, cpu_seconds(server.proc.pid)
            times = asyncio.run(a_class(server.base, args.students, args.timeout, f"s{round_no}"))
            err = server.err_bytes - err_before
            cpu = cpu_seconds(server.proc.pid) - cpu_before
            reopened = flood.reopened if flood else 0
        finally:
            if flood is not None:
                flood.stop()
            server.stop()
    got = [t for t in times if t is not None]
    return {
        "kind": kind,
        "median": statistics.median(got) if got else None,
        "p95": p95(got) if got else None,
        "missed": len(times) - len(got),
        "stderr_bytes": err,
        "server_cpu_s": round(cpu, 2),
        "flood_reopened": reopened,
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--students", type=int, default=30)
    parser.add_argument("--flood", type=int, default=1000, help="half-open connections")
    parser.add_argument("--sources", type=int, default=1, help="addresses the flood comes from")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--timeout", type=float, default=60.0, help="a student's deadline, s")
    parser.add_argument("--settle", type=float, default=3.0, help="flood before the class, s")
    parser.add_argument("--ulimit", type=int, help="the server's open-file limit")
    parser.add_argument("--tree", type=Path, help="run the server from this checkout")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    raise_own_limit(args.flood + args.students * 4 + 256)
    rows = []
    for r in range(args.rounds):
        for kind in ("quiet", "flood") if r % 2 == 0 else ("flood", "quiet"):
            row = run_kind(kind, args, r)
            row["round"] = r
            rows.append(row)
            if not args.json:
                shown = {k: v for k, v in row.items() if k != "round"}
                print(f"round {r}: {json.dumps(shown)}", flush=True)
    summary = {}
    for kind in ("quiet", "flood"):
        mine = [x for x in rows if x["kind"] == kind]
        p95s = [x["p95"] for x in mine if x["p95"] is not None]
        summary[kind] = {
            "first_screen_p95_s": round(statistics.median(p95s), 2) if p95s else None,
            "first_screen_median_s": round(statistics.median(
                [x["median"] for x in mine if x["median"] is not None] or [float("nan")]), 2),
            "missed": sum(x["missed"] for x in mine),
            "stderr_bytes": max(x["stderr_bytes"] for x in mine),
            "server_cpu_s": round(statistics.median(x["server_cpu_s"] for x in mine), 2),
        }  # fmt: skip
    ratios = []
    for r in range(args.rounds):
        pair = {x["kind"]: x for x in rows if x["round"] == r}
        if pair["quiet"]["p95"] and pair["flood"]["p95"]:
            ratios.append(round(pair["flood"]["p95"] / pair["quiet"]["p95"], 2))
    summary["flood_over_quiet_p95"] = ratios
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else None
    summary["settings"] = {"students": args.students, "flood": args.flood,
                           "sources": args.sources, "ulimit": args.ulimit,
                           "tree": str(args.tree) if args.tree else "this one",
                           "load_average_at_end": load}  # fmt: skip
    if args.json:
        print(json.dumps({"rows": rows, "summary": summary}, indent=2))
    else:
        print(json.dumps(summary, indent=2))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
