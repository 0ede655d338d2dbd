"""A classroom on one machine: N students open ``attn-tui serve`` at the same moment.

For each N (10, 20, 30 by default) and each way of starting sessions, this starts
``attn-tui serve`` on a free
loopback port, then N simulated browsers connect at once, each speaking textual-serve's
websocket protocol as textual.js does (a real browser per student would measure Chromium, not
the tutor; tests/classroom/test_browser.py drives real Chromium). Each student:

1. loads the page (token and name in the address) and opens its websocket,
2. waits for the first screen (the home screen: the name came in the address),
3. presses Enter (the calculator), clears the query and types ``0 1 1``,
4. waits until the calculator shows the new dot products.

The ways of starting sessions (``--modes``, side by side in one run):

- ``parked``: ``--warm N``, N sessions started before the class arrives (parked.py);
- ``pool``: ``--warm 0``, each session forked from the warm pool when its tab arrives;
- ``cold``: ``--no-preload``, each session a new Python process.

Reported per N: time to first screen (median, p95), time from the last keystroke to the new
numbers (median, p95), and memory per session: resident (RSS) and proportional (PSS, which
splits pages shared between processes, e.g. the pool's imported code) of the session process
plus, with the pool, its launcher; CPU per session, in all and since its tab arrived (a
parked session did most of its work before), and the web server's and the launchers' CPU
during the class, per session. Then every session is closed and the server stopped with
SIGINT, and the run checks that no session process is left.

Loopback only; every wait has a deadline (``--timeout``) and the run ends by itself.

    python benchmarks/bench_classroom.py [--sessions 10,20,30] [--modes parked,pool,cold] [--json]
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
import time
from pathlib import Path

import aiohttp

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests" / "classroom"))
from wsclient import Tab  # the tests' websocket tab, shared

TOKEN = "bench-token-123"
RETYPE_S = 5.0  # no new numbers this long after typing: the keys were lost, type again


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def children(pid: int) -> list[int]:
    """Direct children of ``pid`` (Linux /proc)."""
    try:
        text = Path(f"/proc/{pid}/task/{pid}/children").read_text()
    except OSError:
        return []
    return [int(x) for x in text.split()]


def cpu_seconds(pid: int) -> float:
    """User + system CPU time a process has used so far."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(") ", 1)[1].split()
    except (OSError, IndexError):
        return 0.0
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def memory_kb(pid: int) -> tuple[int, int]:
    """(RSS, PSS) in kB of one process; (0, 0) if it is gone."""
    rss = pss = 0
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                rss = int(line.split()[1])
        for line in Path(f"/proc/{pid}/smaps_rollup").read_text().splitlines():
            if line.startswith("Pss:"):
                pss = int(line.split()[1])
    except OSError:
        pass
    return rss, pss


async def one_student(http, base: str, name: str, timeout: float, delay: float) -> dict:
    await asyncio.sleep(delay)
    student = Tab(http, base, token=TOKEN, name=name)
    t0 = time.monotonic()
    await student.open()
    await student.wait_for("Attention, one step at a time", timeout)
    first = time.monotonic() - t0
    deadline = time.monotonic() + timeout
    retyped = -1
    while True:  # Enter: the calculator is the first area (again if the key went nowhere)
        retyped += 1
        await student.keys("\r")
        try:
            await student.wait_for("Step 1 of 4", RETYPE_S)
            break
        except AssertionError:
            if time.monotonic() > deadline:
                raise
    # Keys sent before the calculator has focused its query field go nowhere (a person is
    # never that quick): type again, from the start, until the new numbers show.
    retyped -= 1
    deadline = time.monotonic() + timeout
    while True:
        retyped += 1
        student.seen = ""
        await student.keys("\x15")  # Ctrl+U: clear the query
        await student.keys("0 1 1")
        t1 = time.monotonic()
        try:
            await student.wait_for("0×1 + 1×0 + 1×1 = 1", RETYPE_S)  # k₃ · (0, 1, 1)
            break
        except AssertionError:
            if time.monotonic() > deadline:
                raise
    typed = time.monotonic() - t1
    return {"student": student, "first": first, "typed": typed, "retyped": retyped}


def p95(values: list[float]) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(0.95 * (len(ordered) - 1))))]


def session_pids(server_pid: int, pool: bool) -> list[int]:
    """The session processes: forked by the pool, or (cold) started by the server itself."""
    kids = children(server_pid)
    if not pool:
        return kids
    pools = [k for k in kids if b"attn_tui.serve.pool" in Path(f"/proc/{k}/cmdline").read_bytes()]
    return [pid for p in pools for pid in children(p)]


def load_average() -> str:
    """The 1-minute load average (the machine is shared: read the times beside it)."""
    return Path("/proc/loadavg").read_text().split()[0]


def has_tab(pid: int) -> bool:
    """A session speaking to a tab; a parked one's stdout is /dev/null."""
    try:
        return os.readlink(f"/proc/{pid}/fd/1") != os.devnull
    except OSError:
        return False


async def run_class(
    n: int, mode: str, timeout: float, env: dict, arrival: float, warm: int | None = None
) -> dict:
    port = free_port()
    data = tempfile.mkdtemp(prefix="attn-bench-")
    argv = [sys.executable, "-m", "attn_tui", "--data-dir", data, "--lang", "en", "serve",
            "--port", str(port), "--token", TOKEN, "--max-sessions", str(n + 5)]  # fmt: skip
    warm = n if warm is None else min(warm, n + 5)
    how = {"cold": ["--no-preload"], "pool": ["--warm", "0"], "parked": ["--warm", str(warm)]}
    argv += how[mode]
    pooled = mode != "cold"
    started = time.monotonic()
    server = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, env=env)
    base = f"http://127.0.0.1:{port}/"
    try:
        deadline = time.monotonic() + timeout
        while b"http://" not in (server.stdout.readline() or b"http://"):
            if time.monotonic() > deadline:
                raise TimeoutError("the server did not start")
        if server.poll() is not None:
            raise RuntimeError("the server exited")
        start_s = time.monotonic() - started  # with parked sessions, until they are ready
        load_before = load_average()
        before = {p: cpu_seconds(p) for p in session_pids(server.pid, pooled)}
        server_before = cpu_seconds(server.pid)
        async with aiohttp.ClientSession() as http:
            t0, client0 = time.monotonic(), time.process_time()
            results = await asyncio.gather(
                *(
                    one_student(http, base, f"student{i:02d}", timeout, arrival * i / n)
                    for i in range(n)
                )
            )
            wall, client_cpu = time.monotonic() - t0, time.process_time() - client0
            load_after = load_average()
            everyone = session_pids(server.pid, pooled)
            pids = [p for p in everyone if has_tab(p)] if pooled else everyone
            launchers = children(server.pid) if pooled else []
            launchers = [p for p in launchers if b"launch.py" in _cmdline(p)]
            mem = [memory_kb(p) for p in pids]
            extra = [memory_kb(p) for p in launchers]
            cpu = [cpu_seconds(p) for p in pids]
            since = [c - before.get(p, 0.0) for p, c in zip(pids, cpu, strict=True)]
            server_cpu = cpu_seconds(server.pid) - server_before  # every tab's traffic
            launcher_cpu = sum(cpu_seconds(p) for p in launchers)
            for r in results:
                await r["student"].close()
        await asyncio.sleep(0.5)
        server.send_signal(signal.SIGINT)
        server.wait(timeout)
        left = [p for p in everyone + launchers if Path(f"/proc/{p}").exists() and not _zombie(p)]
    finally:
        if server.poll() is None:
            server.kill()
            server.wait()
    firsts = [r["first"] for r in results]
    typed = [r["typed"] for r in results]
    per_rss = [(m[0] + (extra[i][0] if i < len(extra) else 0)) / 1024 for i, m in enumerate(mem)]
    per_pss = [(m[1] + (extra[i][1] if i < len(extra) else 0)) / 1024 for i, m in enumerate(mem)]
    return {
        "mode": mode,
        "warm": warm if mode == "parked" else 0,
        "server_start_s": start_s,
        "sessions": n,
        "arrival_s": arrival,
        "cpu_s_median": statistics.median(cpu) if cpu else None,
        "cpu_since_tab_s_median": statistics.median(since) if since else None,
        "client_cpu_s": client_cpu,
        "load_before": load_before,
        "load_after": load_after,
        "server_cpu_s_per_session": server_cpu / n,
        "launcher_cpu_s_per_session": launcher_cpu / n,
        "processes_seen": len(pids),
        "first_median_s": statistics.median(firsts),
        "first_p95_s": p95(firsts),
        "typed_median_s": statistics.median(typed),
        "typed_p95_s": p95(typed),
        "all_done_s": wall,
        "rss_mb_median": statistics.median(per_rss) if per_rss else None,
        "pss_mb_median": statistics.median(per_pss) if per_pss else None,
        "pss_mb_max": max(per_pss) if per_pss else None,
        "left_after_sigint": len(left),
        "retyped": sum(r["retyped"] for r in results),
    }


def _cmdline(pid: int) -> bytes:
    try:
        return Path(f"/proc/{pid}/cmdline").read_bytes()
    except OSError:
        return b""


def _zombie(pid: int) -> bool:
    try:
        return Path(f"/proc/{pid}/stat").read_text().split(") ")[1][0] == "Z"
    except (OSError, IndexError):
        return True


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sessions", default="10,20,30")
    parser.add_argument("--modes", default="parked,pool,cold")
    parser.add_argument("--timeout", type=float, default=120.0, help="seconds, per wait")
    parser.add_argument(
        "--arrival",
        default="0",
        help="students arrive evenly over this many seconds (0: all at once); "
        "a comma-separated list runs each",
    )
    parser.add_argument("--warm", type=int, help="parked sessions (default: one per student)")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    if not sys.platform.startswith("linux"):
        print("this benchmark reads /proc: Linux only", file=sys.stderr)
        return 2
    env = dict(os.environ)
    rows = []
    plan = [
        (n, mode, float(a))
        for a in args.arrival.split(",")
        for n in [int(x) for x in args.sessions.split(",")]
        for mode in args.modes.split(",")
    ]
    for n, mode, arrival in plan:
        row = asyncio.run(run_class(n, mode, args.timeout, env, arrival, args.warm))
        rows.append(row)
        if not args.json:
            print(
                f"{mode:>6} N={n:>2} (--warm {row['warm']}, server up in "
                f"{row['server_start_s']:.1f} s) over {arrival:.0f} s "
                f"(load average {row['load_before']} "
                f"before, {row['load_after']} after): first screen median "
                f"{row['first_median_s']:.2f} s, "
                f"p95 {row['first_p95_s']:.2f} s; keys → numbers median "
                f"{row['typed_median_s']:.2f} s, p95 {row['typed_p95_s']:.2f} s; "
                f"per session RSS {row['rss_mb_median']:.0f} MB, PSS "
                f"{row['pss_mb_median']:.0f} MB (max {row['pss_mb_max']:.0f}); "
                f"CPU per session {row['cpu_s_median']:.2f} s, "
                f"{row['cpu_since_tab_s_median']:.2f} s after its tab arrived "
                f"(+ server {row['server_cpu_s_per_session']:.2f} s, "
                f"launcher {row['launcher_cpu_s_per_session']:.2f} s; the simulated browsers "
                f"{row['client_cpu_s']:.1f} s in all); "
                f"left after Ctrl+C: {row['left_after_sigint']}; "
                f"typed again: {row['retyped']}",
                flush=True,
            )
    if args.json:
        print(json.dumps(rows, indent=2))
        return 0
    by = {(r["mode"], r["sessions"], r["arrival_s"]): r for r in rows}
    for n, _, arrival in plan:
        if ("pool", n, arrival) in by and ("cold", n, arrival) in by:
            a, b = by.pop(("cold", n, arrival)), by.pop(("pool", n, arrival))
            print(
                f"N={n} over {arrival:.0f} s: cold/pool first-screen p95 ratio "
                f"{a['first_p95_s'] / b['first_p95_s']:.1f}×, "
                f"PSS ratio {a['pss_mb_median'] / b['pss_mb_median']:.1f}×, "
                f"CPU ratio {a['cpu_s_median'] / b['cpu_s_median']:.1f}×"
            )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
