"""Calculator performance (issue 14): every figure in one run, side by side with its goal.

    .venv/bin/python benchmarks/bench_calculator.py [--keys 200] [--starts 10]

1. Keystroke latency at d = 64, N = 32 (the calculator's limits are 64 × 64): a key typed
   into the query, through parsing, attention, laying out the steps and Textual's repaint.
   "steps redrawn" stops when the steps view holds the new lines; "frame painted" when the
   compositor has drawn them (which includes waiting for Textual's next frame, ≤ 1/60 s).
   Each is reported with one step shown and with all four. Goals: p95 ≤ 8 ms redrawn,
   ≤ 33 ms (two frames) painted.
2. Their parts, measured apart: parse + attend of the 64 × 32 problem (goal: median ≤ 0.5 ms)
   and the Rich render of all four steps for a fresh result (goal: median ≤ 4 ms).
3. Cold start to the home screen: `attn-tui` (its CLI parser, catalogue, home screen) against
   a bare Textual app that imports numpy and shows one line, each started in a fresh process,
   alternately, so both see the same machine. Goal: ratio of medians ≤ 1.3 (aim 1.15).

The last table repeats every figure beside its goal. Timings taken on a busy machine are
noisy; the ratio in 3 is measured side by side and holds up best.
"""

from __future__ import annotations

import argparse
import asyncio
import resource
import statistics
import subprocess
import sys
import time

import numpy as np

D, N = 64, 32


def pct(xs: list[float], p: float) -> float:
    return float(np.percentile(xs, p))


def summary(name: str, xs: list[float]) -> str:
    median, p95 = statistics.median(xs), pct(xs, 95)
    return f"{name:<34} median {median:7.2f} ms   p95 {p95:7.2f} ms   (n={len(xs)})"


# ---- 1. keystroke latency --------------------------------------------------------------------
async def keystrokes(count: int, show_all: bool) -> tuple[list[float], list[float], int]:
    """Post a key to the app and time until the first repaint that shows its result.

    Not `pilot.press` + `pilot.pause`: those wait for the app to go idle with polling sleeps
    (about 90 ms a key here), which measures the test harness, not the app.

    Headless, Textual skips turning a frame into terminal bytes; a terminal would not, so
    that is done here too, inside "frame painted" (only the write itself is left out).
    Also returns how many full (generation-2) garbage collections ran during the keys.
    """
    import gc

    from textual import events
    from textual.widgets import Input, TextArea

    from attn_tui.app import AttnApp
    from attn_tui.compat import CompositorUpdate

    rng = np.random.default_rng(0)
    query = " ".join(str(v) for v in rng.integers(-9, 10, D))
    keys = "\n".join(" ".join(str(v) for v in row) for row in rng.integers(-9, 10, (N, D)))
    times: list[float] = []
    redrawn: list[float] = []  # key → steps recomputed and rendered into strips
    async with AttnApp(lang="en").run_test(size=(120, 40)) as pilot:
        await pilot.press("enter")
        screen = pilot.app.screen
        screen.query_one("#keys", TextArea).text = keys
        box = screen.query_one("#query", Input)
        box.value = query
        screen.show_all = show_all
        box.focus()
        await pilot.pause()
        box.cursor_position = len(box.value)
        mark: dict[str, float] = {}
        app, display = pilot.app, pilot.app._display

        def display_to_bytes(on: object, renderable: object) -> None:
            display(on, renderable)
            if app.is_headless and isinstance(renderable, CompositorUpdate):
                renderable.render_segments(app.console)  # what _display does for a terminal

        app._display = display_to_bytes
        full_gcs = 0

        def count_full(phase: str, info: dict) -> None:
            nonlocal full_gcs
            full_gcs += phase == "start" and info["generation"] == 2

        gc.callbacks.append(count_full)
        redraw, layout, paint = screen.redraw, screen._refresh_layout, screen._compositor_refresh

        def timed_redraw() -> None:
            redraw()
            mark["redrawn"] = time.perf_counter()

        def timed_layout(*args, **kwargs):
            result = layout(*args, **kwargs)
            if "redrawn" in mark:
                mark.setdefault("painted", time.perf_counter())
            return result

        def timed_paint() -> None:
            paint()
            if "redrawn" in mark:
                mark.setdefault("painted", time.perf_counter())

        screen.redraw, screen._refresh_layout, screen._compositor_refresh = (
            timed_redraw,
            timed_layout,
            timed_paint,
        )
        for i in range(count):
            key = "5" if i % 2 == 0 else "backspace"  # alternate so the input stays valid
            mark.clear()
            start = time.perf_counter()
            pilot.app.post_message(events.Key(key, "5" if key == "5" else None))
            while "painted" not in mark:
                await asyncio.sleep(0.0005)
            times.append((mark["painted"] - start) * 1e3)
            redrawn.append((mark["redrawn"] - start) * 1e3)
            await asyncio.sleep(0.02)  # let the frame settle before the next key
        gc.callbacks.remove(count_full)
        assert screen.result is not None and screen.result.d == D and screen.result.n == N
    return redrawn, times, full_gcs


def core_and_render(count: int) -> tuple[list[float], list[float]]:
    from rich.console import Console

    from attn_tui.core.attention.steps import attend
    from attn_tui.core.parse import parse_matrix, parse_vector
    from attn_tui.render.steps import render_steps

    rng = np.random.default_rng(0)
    qtext = " ".join(str(v) for v in rng.integers(-9, 10, D))
    ktext = "\n".join(" ".join(str(v) for v in row) for row in rng.integers(-9, 10, (N, D)))
    console = Console(width=80, file=open("/dev/null", "w"), color_system="truecolor")
    core, render = [], []
    for _ in range(count):
        t0 = time.perf_counter()
        steps = attend(parse_vector(qtext), parse_matrix(ktext))
        t1 = time.perf_counter()
        console.print(render_steps(steps, 1, True))
        t2 = time.perf_counter()
        core.append((t1 - t0) * 1e3)
        render.append((t2 - t1) * 1e3)
    return core, render


# ---- 2. cold start -----------------------------------------------------------------------------
BARE = """
import numpy
from textual.app import App
from textual.widgets import Static
class Bare(App):
    def compose(self):
        yield Static("hello")
    def on_ready(self):
        self.exit()
Bare().run(headless=True)
"""

OURS = """
from attn_tui.cli import parse
from attn_tui import i18n
args = parse([])  # the path a bare `attn-tui` takes
i18n.set_lang("en")
from pathlib import Path
import attn_tui.app
from attn_tui.app import AttnApp
class Timed(AttnApp):
    CSS_PATH = str(Path(attn_tui.app.__file__).with_name("app.tcss"))
    def on_ready(self):
        self.exit()
Timed(lang="en").run(headless=True)
"""


def start_once(code: str) -> tuple[float, float]:
    """Wall time and CPU time (user + system, of the child) of one start, in ms. CPU time
    hardly moves when other work shares the machine; wall time is what a learner waits."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.perf_counter()
    subprocess.run([sys.executable, "-c", code], check=True, capture_output=True)
    wall = (time.perf_counter() - t0) * 1e3
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime) * 1e3
    return wall, cpu


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--keys", type=int, default=200)
    parser.add_argument("--starts", type=int, default=10)
    args = parser.parse_args()

    print(f"Keystroke → updated steps, d = {D}, N = {N}, 120×40 headless")
    one_ready, one, one_gcs = asyncio.run(keystrokes(args.keys, show_all=False))
    every_ready, every, every_gcs = asyncio.run(keystrokes(args.keys, show_all=True))
    core, render = core_and_render(args.keys)
    print(summary("  one step: key → steps redrawn", one_ready))
    print(summary("  one step: key → frame painted", one))
    print(summary("  all four: key → steps redrawn", every_ready))
    print(summary("  all four: key → frame painted", every))
    print("  (painted includes waiting for Textual's next frame, up to 1/60 s)")
    print(f"  full garbage collections in the keys: {one_gcs} (one step), {every_gcs} (all four)")
    print(summary("  of which: parse + attend", core))
    print(summary("  of which: Rich render, all steps", render))

    print(f"\nCold start to first screen, {args.starts} alternating runs each")
    start_once(BARE), start_once(OURS)  # warm the file cache for both
    bare, ours = [], []
    for _ in range(args.starts):
        bare.append(start_once(BARE))
        ours.append(start_once(OURS))
    bare_wall, bare_cpu = [w for w, _ in bare], [c for _, c in bare]
    ours_wall, ours_cpu = [w for w, _ in ours], [c for _, c in ours]
    ratio = statistics.median(ours_wall) / statistics.median(bare_wall)
    cpu_ratio = statistics.median(ours_cpu) / statistics.median(bare_cpu)
    print(summary("  bare Textual app + numpy, wall", bare_wall))
    print(summary("  attn-tui home screen, wall", ours_wall))
    print(summary("  bare Textual app + numpy, CPU", bare_cpu))
    print(summary("  attn-tui home screen, CPU", ours_cpu))
    print(f"  ratio of medians: {ratio:.2f} wall, {cpu_ratio:.2f} CPU time")

    rows = [
        ("key → steps redrawn, one step, p95", pct(one_ready, 95), 8.0, "ms"),
        ("key → steps redrawn, all four, p95", pct(every_ready, 95), 8.0, "ms"),
        ("key → frame painted, one step, p95", pct(one, 95), 33.0, "ms"),
        ("key → frame painted, all four, p95", pct(every, 95), 33.0, "ms"),
        ("parse + attend 64 × 32, median", statistics.median(core), 0.5, "ms"),
        ("Rich render of all steps, median", statistics.median(render), 4.0, "ms"),
        ("cold start ÷ bare Textual + numpy", ratio, 1.3, "×"),
        ("  the same in CPU time (steadier)", cpu_ratio, 1.3, "×"),
    ]
    print("\nSummary (issue 14)                      now      goal")
    for name, value, goal, unit in rows:
        mark = "ok" if value <= goal else "over"
        print(f"  {name:<36} {value:7.2f}  ≤ {goal:5.2f} {unit:<2}  {mark}")


if __name__ == "__main__":
    main()
