"""Written-answer grading: time to grade one answer, after warm-up, against the old substring
matcher run side by side in the same process; and the cost of the first answer.

    .venv/bin/python benchmarks/bench_written.py [--rounds 5]

1. Every rubric example of every shipped written item (zh and en, short and long) is graded
   once to warm up, then ``--rounds`` times; the time of each call to ``grade`` is reported
   (median, p95, max). Goal: ≤ 5 ms per answer. Beside it, the substring test the grader
   replaced (every phrase of every idea looked up in the folded answer) on the same answers.
2. The first written answer in a fresh process (importing the grader, loading rjieba,
   snowballstemmer and rapidfuzz, building the rubric's lexicon): the one-off cost a learner
   pays when the first written answer is graded.
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import time

import numpy as np

from attn_tui import paths
from attn_tui.core.exercises.grading import grade, idea_found
from attn_tui.core.exercises.written import normalise_text


def summary(name: str, xs: list[float]) -> str:
    return (
        f"{name:<34} median {statistics.median(xs):7.3f} ms   p95 "
        f"{float(np.percentile(xs, 95)):7.3f} ms   max {max(xs):7.3f} ms   (n={len(xs)})"
    )


def per_answer(rounds: int) -> None:
    library = paths.load_all()
    items = [
        (ex, x.answer)
        for s in library.sets + library.quizzes
        for ex in s.exercises
        if ex.kind == "text"
        for x in ex.examples
    ]
    for ex, answer in items:  # warm-up: libraries loaded, lexicons built
        grade(ex, answer)
    new: list[float] = []
    old: list[float] = []
    best = [float("inf")] * len(items)
    for _ in range(rounds):
        for k, (ex, answer) in enumerate(items):
            t0 = time.perf_counter()
            grade(ex, answer)
            t1 = time.perf_counter()
            flat = normalise_text(answer)
            [idea_found(i, flat) for i in ex.rubric]
            t2 = time.perf_counter()
            new.append(1000 * (t1 - t0))
            old.append(1000 * (t2 - t1))
            best[k] = min(best[k], new[-1])
    print(f"{len(items)} answers × {rounds} rounds, after one warm-up round")
    print(summary("grade() (concepts)", new))
    print(summary("grade(), best of rounds per answer", best))
    print(summary("old substring test", old))
    print(f"ratio of medians, new / old: {statistics.median(new) / statistics.median(old):.1f}×")


FIRST = """
import time
t0 = time.perf_counter()
from attn_tui import paths
from attn_tui.core.exercises.grading import grade
ex = next(e for e in paths.load_all().quiz_exercises if e.id == "sc-steps")
t1 = time.perf_counter()
grade(ex, "先用查询和每个键做点积，再 softmax，最后对值加权求和。")
t2 = time.perf_counter()
grade(ex, "First the dot product, then softmax, then the weighted sum of the values.")
t3 = time.perf_counter()
print(f"{1000 * (t1 - t0):.0f} {1000 * (t2 - t1):.0f} {1000 * (t3 - t2):.1f}")
"""


def first_answer(starts: int) -> None:
    rows = []
    for _ in range(starts):
        out = subprocess.run([sys.executable, "-c", FIRST], capture_output=True, text=True)
        rows.append([float(v) for v in out.stdout.split()])
    load, first, second = (statistics.median(c) for c in zip(*rows, strict=True))
    print(
        f"fresh process (median of {starts}): load the library {load:.0f} ms, "
        f"first written answer {first:.0f} ms, the next one {second:.1f} ms"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--starts", type=int, default=5)
    args = parser.parse_args()
    per_answer(args.rounds)
    first_answer(args.starts)


if __name__ == "__main__":
    main()
