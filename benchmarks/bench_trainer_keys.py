"""Key → action latency on the training screen while a run trains at full speed.

    .venv/bin/python benchmarks/bench_trainer_keys.py [--presses 200] [--length 5]

Runs the app headless (``run_test``), starts a long run ("as fast as it goes"), then posts
key events to the app one at a time, the way the terminal driver does, and timestamps the
moment the bound action method starts. ``pilot.pause()`` is not used: it waits for the app
to go idle, which a training app never is. Two keys are measured: F4 (switch to the tables
and back: a real redraw) and PgDn (the timeline key, a no-op while training). Goal: p95 ≤ 16 ms.
"""

from __future__ import annotations

import argparse
import asyncio
import random
import statistics
import time

from textual import events
from textual.widgets import Input, Select

from attn_tui.app import AttnApp
from attn_tui.screens.trainer import TrainerScreen


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(int(round(q * (len(ordered) - 1))), len(ordered) - 1)]


async def measure(presses: int, length: int, attention: bool) -> dict[str, list[float]]:
    app = AttnApp(lang="en")
    results: dict[str, list[float]] = {"f4": [], "pagedown": []}
    iterations: list[int] = []
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.press("down", "enter")
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, TrainerScreen)
        screen.query_one("#length", Input).value = str(length)
        screen.query_one("#variant", Select).value = "dot" if attention else "none"
        screen.query_one("#pace", Select).value = "fast"
        screen.query_one("#iters", Input).value = "100000"
        await pilot.pause()

        fired = asyncio.Event()
        stamp = [0.0]

        def wrap(name: str) -> None:
            original = getattr(screen, name)

            def timed(*args):
                stamp[0] = time.perf_counter()
                fired.set()
                return original(*args)

            setattr(screen, name, timed)

        wrap("action_toggle_view")
        wrap("action_later")
        rng = random.Random(0)

        for i in range(presses):
            if not screen.running:  # keep it training for the whole measurement
                screen.action_start()
                await asyncio.sleep(0.05)
            key = "f4" if i % 2 == 0 else "pagedown"
            await asyncio.sleep(rng.uniform(0.01, 0.03))  # presses land at random moments
            fired.clear()
            sent = time.perf_counter()
            app.post_message(events.Key(key, None))
            await asyncio.wait_for(fired.wait(), timeout=5)
            results[key].append((stamp[0] - sent) * 1000)
            iterations.append(screen.live.iteration)
        assert screen.running, "training must still run at the end of the measurement"
        screen.action_stop()
        await app.workers.wait_for_complete()
    results["iterations"] = [float(iterations[0]), float(iterations[-1])]
    return results


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--presses", type=int, default=200)
    parser.add_argument("--length", type=int, default=5)
    parser.add_argument("--no-attention", action="store_true")
    args = parser.parse_args()
    results = asyncio.run(measure(args.presses, args.length, not args.no_attention))
    first, last = results.pop("iterations")
    print(f"training at full speed (length {args.length}, attention {not args.no_attention}); "
          f"iterations {first:.0f} → {last:.0f} during the measurement")  # fmt: skip
    everything = [v for values in results.values() for v in values]
    for name, values in (*results.items(), ("all", everything)):
        print(f"{name:9s} n={len(values):3d}  median {statistics.median(values):6.2f} ms  "
              f"p95 {percentile(values, 0.95):6.2f} ms  max {max(values):6.2f} ms")  # fmt: skip
    p95 = percentile(everything, 0.95)
    print(f"goal p95 ≤ 16 ms: {'met' if p95 <= 16 else 'NOT met'} ({p95:.2f} ms)")


if __name__ == "__main__":
    main()
