"""Screens that open at once: key → frame painted, for every area, the timeline and F2.

    .venv/bin/python benchmarks/bench_screens.py [--rounds 5] [--vs OTHER_PYTHON]
    .venv/bin/python benchmarks/bench_screens.py --cold-start-only [--starts 10] [--vs ...]
    .venv/bin/python benchmarks/bench_screens.py --areas calc,lab --no-cold-start [--vs ...]

Each sample is a fresh process running the app headless (``run_test``) at 120×40, as a
learner's first visit is: each area's screen is built for the first time. In that process:

1. **open**: once the home screen is drawn and the areas' modules are imported (the app does
   that in the background while the learner reads the home screen, with the areas' CSS and
   the written grader's libraries; a tree that does not waits 6 s and pays the import in the
   open), the area's row is highlighted and Enter is posted;
   timed until the new screen's first frame is painted ("first"), and until the last frame before
   the app paints nothing for SETTLE seconds ("drawn": whatever the screen drew on later
   calls, such as a panel filled after mount, counts too). Goal: drawn ≤ 150 ms.
2. **timeline**: on the trainer, a short run at full speed, then PgUp steps back through its
   snapshots; each step timed from the key to the frame painted. Goal: ≤ 50 ms.
3. **F2**: on each area's screen, the language switched (there and back); key → drawn.
   Goal: ≤ 150 ms.
4. **cold start**: a bare Textual app that imports numpy against the app up to its home
   screen, each a fresh process, alternately (as ``bench_calculator.py`` does), timed to the
   first screen painted (Textual's Ready) and to the process's end (which also waits for the
   app's non-daemon threads: in a tree before fast-start, home's course load; since, only the
   store's opening once begun, home's reading of the course being abandoned). Goal: ≤ 1.2×.
   ``--cold-start-only`` runs this section alone.

Headless Textual skips turning a frame into terminal bytes; a terminal does not, so the hook
does that too (only the write is left out). The keys are posted the way the driver posts them.

``--vs PYTHON`` runs every sample also with another checkout's interpreter (its venv, with
that checkout installed), alternately, A B A B, and prints each figure's medians and the
median of the pair-by-pair ratios A/B: the way to compare two trees on a shared machine,
where absolute times drift with the load and ratios taken side by side hold. The child's code
only uses what both trees have (``AttnApp``, the home screen's list, Textual's hooks).
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time

SIZE = (120, 40)
SETTLE = 0.25  # s without a paint: the screen is drawn
AREAS = ("calc", "train", "exercises", "quiz", "lab")
TREES: dict[str, str] = {}  # interpreter → the attn_tui it imported

CHILD = r"""
import asyncio, json, sys, tempfile, threading, time
from textual import events
from textual._compositor import CompositorUpdate

from attn_tui.app import KNOWN_AREAS, AttnApp

SETTLE, SIZE, AREAS = json.loads(sys.argv[1])


async def main():
    out = {}
    app = AttnApp(lang="en", data_dir=__import__("pathlib").Path(tempfile.mkdtemp()))
    paints = []  # (time, screen) of every frame painted
    async with app.run_test(size=tuple(SIZE)) as pilot:
        display = app._display

        def painted(screen, renderable):
            display(screen, renderable)
            if renderable is not None:
                if isinstance(renderable, CompositorUpdate):
                    renderable.render_segments(app.console)  # what a terminal run does
                paints.append((time.perf_counter(), screen, time.process_time()))

        app._display = painted

        cpu = [0.0]  # process CPU time when the last key was posted

        def cpu_of_last():
            return (paints[-1][2] - cpu[0]) * 1e3 if paints else 0.0

        async def settled(since):
            # wait until nothing was painted for SETTLE s; the last paint's time
            while True:
                await asyncio.sleep(0.02)
                last = paints[-1][0] if paints else since
                if time.perf_counter() - max(last, since) >= SETTLE:
                    return last

        async def key(name, char=None, leaves=None):
            # leaves: the screen this key replaces (wait for the new one to mount first,
            # which may take longer than SETTLE without a paint: its module is imported)
            paints.clear()
            cpu[0] = time.process_time()
            start = time.perf_counter()
            app.post_message(events.Key(name, char))
            while leaves is not None and (app.screen is leaves or not app.screen.is_mounted):
                await asyncio.sleep(0.005)
            last = await settled(start)
            return start, last

        await pilot.pause()
        await settled(time.perf_counter())
        # a learner reads the home screen first: wait (at most 6 s) until the areas' modules
        # are imported and the app's background preparation is over (its "prefetch-areas"
        # thread), by the app in the background if it does that (what Enter then costs)
        ready = time.perf_counter()
        modules = [t.split(":")[0] for t in KNOWN_AREAS.values()]

        def prepared():
            return all(m in sys.modules for m in modules) and not any(
                t.name == "prefetch-areas" for t in threading.enumerate())

        while not prepared() and time.perf_counter() - ready < 6:
            await asyncio.sleep(0.02)
        if prepared():
            out["home's background work"] = (time.perf_counter() - ready) * 1e3
        await settled(time.perf_counter())
        for area in AREAS:
            home = app.screen
            areas = home.query_one("#areas")
            areas.highlighted = [o.id for o in areas.options].index(area)
            await settled(time.perf_counter())
            start, last = await key("enter", leaves=home)
            screen = app.screen
            assert screen is not home, area
            first = next((t for t, s, _ in paints if s is screen), last)
            out[f"open {area}: first frame"] = (first - start) * 1e3
            out[f"open {area}: drawn"] = (last - start) * 1e3
            out[f"open {area}: drawn, CPU"] = cpu_of_last()
            for lang in ("zh", "en"):
                start, last = await key("f2")
                out.setdefault(f"F2 on {area}", []).append((last - start) * 1e3)
                out.setdefault(f"F2 on {area}, CPU", []).append(cpu_of_last())
            if area == "train":
                await timeline(app, screen, key, out, pilot, cpu_of_last)
            await key("escape", leaves=screen)  # back home
        return out


async def timeline(app, screen, key, out, pilot, cpu_of_last):
    from textual.widgets import Input, Select

    for field, value in (("length", "10"), ("iters", "600")):
        screen.query_one(f"#{field}", Input).value = value
    screen.query_one("#pace", Select).value = "fast"
    await pilot.pause()
    start, _ = await key("f5")
    await app.workers.wait_for_complete()
    await pilot.pause()
    steps, cpus = [], []
    for _ in range(6):  # 600 iterations evaluate every 100: six snapshots, five steps back
        start, last = await key("pageup")
        steps.append((last - start) * 1e3)
        cpus.append(cpu_of_last())
    out["timeline step"] = steps[:5]
    out["timeline step, CPU"] = cpus[:5]


figures = asyncio.run(main())
figures["tree"] = __import__("attn_tui").__file__
print(json.dumps(figures))
"""

# the same two programs as bench_calculator's cold start (a bare Textual app with numpy; ours)
from bench_calculator import BARE, OURS  # noqa: E402  (this folder is on sys.path when run)


def sample(python: str, areas: tuple[str, ...] = AREAS) -> dict[str, float]:
    """One fresh process's figures (lists reduced to their median)."""
    env = {**os.environ, "ATTN_TUI_DATA_DIR": ""}
    env.pop("ATTN_TUI_DATA_DIR")
    # (not from this folder: `python -c` puts the working directory first on sys.path, and a
    # checkout there would be imported instead of the interpreter's own)
    for attempt in range(3):  # a loaded machine may fail a sample: say why, try again
        done = subprocess.run(
            [python, "-c", CHILD, json.dumps([SETTLE, SIZE, areas])],
            capture_output=True, text=True, env=env, cwd=tempfile.gettempdir(),
        )  # fmt: skip
        if done.returncode == 0:
            break
        print(f"(a sample of {python} failed, attempt {attempt + 1}:\n"
              f"{done.stderr[-2000:]})", file=sys.stderr)  # fmt: skip
    else:
        raise SystemExit(f"{python}: three samples failed in a row")
    figures = json.loads(done.stdout.strip().splitlines()[-1])
    TREES.setdefault(python, figures.pop("tree"))
    return {k: statistics.median(v) if isinstance(v, list) else v for k, v in figures.items()}


READY = "import sys, time; print('ready', time.perf_counter(), file=sys.stderr); self.exit()"


def start_once(python: str, code: str) -> tuple[float, float]:
    """One start, in ms: to the first screen painted (Textual's Ready: the child says when,
    on the same monotonic clock) and to the process's end (which waits for the app's
    non-daemon threads, such as a thread worker's)."""
    code = code.replace("self.exit()", READY)
    t0 = time.perf_counter()
    done = subprocess.run([python, "-c", code], check=True, capture_output=True, text=True,
                          cwd=tempfile.gettempdir())  # fmt: skip
    end = time.perf_counter()
    ready = float(done.stderr.rsplit("ready", 1)[1].split()[0])
    return (ready - t0) * 1e3, (end - t0) * 1e3


def goal(name: str) -> float:
    if name.startswith("timeline step"):
        return 50.0
    return 150.0 if ("drawn" in name or name.startswith("F2")) else float("nan")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=5, help="fresh processes per tree")
    parser.add_argument("--starts", type=int, default=10, help="cold starts per command")
    parser.add_argument("--vs", metavar="PYTHON", help="another checkout's interpreter (B)")
    parser.add_argument(
        "--cold-start-only",
        action="store_true",
        help="only section 4, the cold start (no screen is opened)",
    )
    parser.add_argument(
        "--areas",
        default=",".join(AREAS),
        help="the areas to open, comma-separated (the timeline needs train)",
    )
    parser.add_argument("--no-cold-start", action="store_true", help="sections 1-3 only")
    args = parser.parse_args()
    areas = tuple(a for a in args.areas.split(",") if a)
    if unknown := set(areas) - set(AREAS):
        parser.error(f"unknown areas: {', '.join(sorted(unknown))} (known: {', '.join(AREAS)})")
    trees = {"A": sys.executable} | ({"B": args.vs} if args.vs else {})
    print(f"A = {sys.executable}" + (f"\nB = {args.vs}" if args.vs else ""))
    print(f"load average at start: {os.getloadavg()[0]:.2f} ({os.cpu_count()} cores)")
    if not args.cold_start_only:
        screens(trees, args.rounds, bool(args.vs), areas)
    if not args.no_cold_start:
        cold_start(trees, args.starts)
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    print(f"\nload average at end: {os.getloadavg()[0]:.2f}; "
          f"children's CPU {usage.ru_utime + usage.ru_stime:.0f} s")  # fmt: skip


def screens(trees: dict[str, str], rounds: int, vs: bool, areas: tuple[str, ...] = AREAS) -> None:
    """Sections 1–3: each area opened, the timeline, F2; medians of fresh processes."""
    runs: dict[str, list[dict[str, float]]] = {name: [] for name in trees}
    for _ in range(rounds):
        for name, python in trees.items():
            runs[name].append(sample(python, areas))
    for name, python in trees.items():
        print(f"{name} imported {TREES[python]}")
    names = list(runs["A"][0])
    print(f"\nkey → painted, ms, median of {rounds} fresh processes, {SIZE[0]}×{SIZE[1]}")
    header = f"  {'figure':<28} {'A':>8}" + (f" {'B':>8} {'A/B':>6}" if vs else "")
    print(header + f" {'goal':>6}")
    for figure in names:
        a = [r[figure] for r in runs["A"]]
        row = f"  {figure:<28} {statistics.median(a):8.1f}"
        b = [r[figure] for r in runs.get("B", []) if figure in r]
        if len(b) == len(a):  # (a figure one tree does not have is left unpaired)
            ratios = [x / y for x, y in zip(a, b, strict=True) if y > 0]
            row += f" {statistics.median(b):8.1f} {statistics.median(ratios):6.2f}"
        elif vs:
            row += f" {'—':>8} {'':>6}"
        g = goal(figure)
        print(row + (f" {'≤' + format(g, '.0f'):>6}" if g == g else ""))


def cold_start(trees: dict[str, str], starts: int) -> None:
    """Section 4: bare Textual + numpy against the app up to its home screen, alternately."""
    print(f"\ncold start to the home screen, {starts} alternating runs each")
    for name, python in trees.items():
        start_once(python, BARE), start_once(python, OURS)  # warm the file cache
        bare, ours = [], []
        for _ in range(starts):
            bare.append(start_once(python, BARE))
            ours.append(start_once(python, OURS))
        for n, what in enumerate(("first screen painted", "process ended")):
            ratio = statistics.median(o[n] / b[n] for o, b in zip(ours, bare, strict=True))
            print(f"  {name}, {what}: bare Textual + numpy "
                  f"{statistics.median(b[n] for b in bare):6.1f} ms, attn-tui "
                  f"{statistics.median(o[n] for o in ours):6.1f} ms, ratio {ratio:.2f}"
                  " (goal ≤ 1.2)")  # fmt: skip


if __name__ == "__main__":
    main()
