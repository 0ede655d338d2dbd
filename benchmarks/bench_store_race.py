"""Real processes racing to open a damaged progress.db and record (issue 12), as many trials as
asked — the same race tests/cli/hostile/test_store_races_and_faults.py runs 120 times in the suite.

    .venv/bin/python benchmarks/bench_store_race.py [--trials 1000] [--count 5]
    PYTHONPATH=/path/to/an/older/tree .venv/bin/python benchmarks/bench_store_race.py

Each trial writes a garbage progress.db in a fresh folder; two processes (four in every fourth
trial) are told at once to open the store there and record ``--count`` attempts. Counted: the
openers that failed, the acknowledged attempts (record_attempt returned) not in the store
afterwards, and the trials where the damaged file was not kept exactly once, byte for byte.
The workers import attn_tui from PYTHONPATH when it is set, so an older tree can be raced the
same way (it only needs ProgressStore.open, record_attempt, attempts and moved_aside).
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
import time
from pathlib import Path

WORKER = r"""
import json, random, sys, time
from pathlib import Path
from attn_tui.core.progress import ProgressStore
name = sys.argv[1]
for line in sys.stdin:
    folder, count = line.rstrip("\n").split("\t")
    time.sleep(random.random() * 0.003)  # vary who comes first
    acked, moved, error = [], None, None
    try:
        with ProgressStore.open(Path(folder)) as store:
            moved = str(store.moved_aside) if store.moved_aside else None
            for i in range(int(count)):
                store.record_attempt("s", f"{name}-{i}", "x", correct=True, score=1.0)
                acked.append(f"{name}-{i}")
    except Exception as err:  # an older tree has no StoreError: count any failure
        error = f"{type(err).__name__}: {str(err)[:80]}"
    print(json.dumps({"acked": acked, "moved": moved, "error": error}), flush=True)
"""


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--trials", type=int, default=200)
    ap.add_argument("--count", type=int, default=5, help="attempts each process records")
    args = ap.parse_args()

    from attn_tui.core.progress import ProgressStore

    procs = [
        subprocess.Popen(
            [sys.executable, "-c", WORKER, f"w{i}"],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
        )  # fmt: skip
        for i in range(4)
    ]
    root = Path(tempfile.mkdtemp(prefix="store-race-"))
    failed = lost = kept_wrong = acked_total = 0
    errors: list[str] = []
    start = time.perf_counter()
    for trial in range(args.trials):
        folder = root / f"t{trial}"
        folder.mkdir()
        garbage = f"damaged file of trial {trial} ".encode() * 300
        (folder / "progress.db").write_bytes(garbage)
        n = 4 if trial % 4 == 0 else 2
        for proc in procs[:n]:
            proc.stdin.write(f"{folder}\t{args.count}\n")
            proc.stdin.flush()
        results = [json.loads(proc.stdout.readline()) for proc in procs[:n]]
        failed += sum(1 for r in results if r["error"])
        errors += [r["error"] for r in results if r["error"]][:3]
        acked = {a for r in results for a in r["acked"]}
        acked_total += len(acked)
        with ProgressStore.open(folder) as store:
            stored = {a.exercise_id for a in store.attempts()}
        lost += len(acked - stored)
        damaged = sorted(folder.glob("progress.db.damaged-*"))
        if [p.read_bytes() for p in damaged] != [garbage]:
            kept_wrong += 1
    for proc in procs:
        proc.stdin.close()
        proc.wait()
    print(f"{args.trials} trials in {time.perf_counter() - start:.1f} s: {failed} openers failed, "
          f"{lost} of {acked_total} acknowledged attempts lost, {kept_wrong} trials where the "
          f"damaged file was not kept exactly once")  # fmt: skip
    for error in errors[:5]:
        print("  e.g.", error)


if __name__ == "__main__":
    main()
