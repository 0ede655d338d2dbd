"""How long the course's screens take to open, beside the calculator opened the same way.

Each screen is pushed from home in a headless app (80×24) once the course has loaded, and
timed from the push until it is mounted and painted (``pilot.pause()``), N times in turn with
the calculator as the baseline, so a busy machine slows both alike; prints medians and the
ratio to the calculator. The course loads off the UI thread at start (timed apart).

    python benchmarks/bench_course.py [--runs 15]
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from attn_tui import coursebook
from attn_tui.app import AttnApp


async def measure(runs: int) -> dict[str, list[float]]:
    from attn_tui.screens.calculator import CalculatorScreen
    from attn_tui.screens.lesson import LessonScreen
    from attn_tui.screens.path import PathScreen
    from attn_tui.screens.review import ReviewScreen

    times: dict[str, list[float]] = {"course load": [], "calculator": [], "lesson": [],
                                     "path": [], "review": []}  # fmt: skip
    makers = {"calculator": CalculatorScreen, "lesson": lambda: LessonScreen("three-steps"),
              "path": PathScreen, "review": ReviewScreen}  # fmt: skip
    with tempfile.TemporaryDirectory() as data:
        app = AttnApp(lang="en", data_dir=Path(data))
        async with app.run_test(size=(80, 24)) as pilot:
            start = time.perf_counter()
            while coursebook.loaded(app) is None:
                await asyncio.sleep(0.005)
            times["course load"].append(time.perf_counter() - start)
            await pilot.pause()
            for _ in range(runs):
                for name, make in makers.items():
                    start = time.perf_counter()
                    app.push_screen(make())
                    await pilot.pause()
                    times[name].append(time.perf_counter() - start)
                    app.pop_screen()
                    await pilot.pause()
    return times


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--runs", type=int, default=15)
    args = parser.parse_args()
    times = asyncio.run(measure(args.runs))
    base = statistics.median(times["calculator"])
    print(f"{'screen':<12} {'median ms':>10} {'p90 ms':>8} {'× calculator':>13}")
    for name, values in times.items():
        med = statistics.median(values)
        p90 = sorted(values)[int(0.9 * (len(values) - 1))]
        ratio = "" if name == "course load" else f"{med / base:.2f}"
        print(f"{name:<12} {1000 * med:>10.1f} {1000 * p90:>8.1f} {ratio:>13}")


if __name__ == "__main__":
    main()
