"""Regenerate the stored table of the trainer's multi-seed figures.

    .venv/bin/python scripts/trainer_figures.py                 # every experiment, 10 seeds
    .venv/bin/python scripts/trainer_figures.py --only L10-qk L10-dot   # just these rows
    .venv/bin/python scripts/trainer_figures.py --list          # the experiments and their ids

Writes ``exercises/trainer_figures.toml`` (the format is described in
``attn_tui/core/models/figures.py``). Every experiment of ``figures.EXPERIMENTS`` is trained on
seeds 0..N−1 with the app's own trainer, the runs spread over a process pool (results are
identical to training them one by one). With ``--only``, the other rows are kept as they are
(same seeds and the same machine required: numpy, BLAS and kernel, see the file's [made]).
Takes about 25 minutes of one core (a quarter of it the 20 000-iteration row); prints each row
as it lands. The shipped table was made with ``OPENBLAS_CORETYPE=Haswell``.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

from attn_tui.core.models import figures
from attn_tui.core.models.machine import Machine, machine
from attn_tui.core.models.processes import pool_runs

OUT = Path(__file__).resolve().parent.parent / "exercises" / figures.FILE_NAME


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seeds", type=int, default=10, help="seeds 0..N-1 (default 10)")
    ap.add_argument("--only", nargs="+", metavar="ID", help="regenerate only these rows")
    ap.add_argument("--workers", type=int, default=None, help="processes (default: all cores)")
    ap.add_argument("--out", type=Path, default=OUT, help=f"where to write (default {OUT})")
    ap.add_argument("--list", action="store_true", help="list the experiments and stop")
    args = ap.parse_args()

    by_id = {e.id: e for e in figures.EXPERIMENTS}
    if args.list:
        for e in figures.EXPERIMENTS:
            print(f"{e.id:18s} length {e.length:2d}  {e.variant:8s} feed {e.feed:8s} "
                  f"{e.config().iters} iterations")  # fmt: skip
        return 0
    chosen = args.only or list(by_id)
    unknown = [i for i in chosen if i not in by_id]
    if unknown:
        print(f"unknown experiment id(s): {', '.join(unknown)} (see --list)", file=sys.stderr)
        return 2
    seeds = list(range(args.seeds))
    kept: dict[str, dict] = {}
    if args.only and args.out.exists():
        old = figures.load(args.out)
        if list(old.seeds) != seeds:
            print(f"--only keeps the other rows, so it needs their seeds ({len(old.seeds)})",
                  file=sys.stderr)  # fmt: skip
            return 2
        here = machine().to_dict()
        if old.made != here:
            print("--only keeps the other rows, so it needs the machine they were made on:\n"
                  f"  they: {Machine(**old.made).label if old.made else 'not recorded'}\n"
                  f"  here: {machine().label}\n"
                  "regenerate every row, or set OPENBLAS_CORETYPE to their kernel",
                  file=sys.stderr)  # fmt: skip
            return 2
        for row in old:
            kept[row.id] = {
                "id": row.id, "length": row.length, "variant": row.variant, "feed": row.feed,
                "iters": row.iters, "params": row.params,
                "stats": {k: v.__dict__ for k, v in row.stats.items()},
                "per_seed": {k: list(v) for k, v in row.per_seed.items()},
            }  # fmt: skip

    configs = [by_id[i].config(seed) for i in chosen for seed in seeds]
    start = time.perf_counter()
    results: dict[str, list] = {i: [] for i in chosen}
    for result in pool_runs(configs, args.workers):
        row_id = figures.experiment_id(result.config.length, result.config.variant,
                                       result.config.feed, result.config.iters)  # fmt: skip
        results[row_id].append(result)
        if len(results[row_id]) == len(seeds):
            row = figures.row_of(by_id[row_id], results[row_id])
            kept[row_id] = row
            s = row["stats"]["seq_acc"]
            extra = ""
            if "weight" in row["stats"]:
                w, p = row["stats"]["weight"], row["stats"]["peaks"]
                extra = f"  weight {w['mean']:.3f}±{w['sd']:.3f}  peaks {p['mean']:.2f}"
            print(f"{row_id:18s} whole {s['mean']:.3f}±{s['sd']:.3f} "
                  f"[{s['min']:.3f}–{s['max']:.3f}]{extra}   "
                  f"({time.perf_counter() - start:.0f} s)", flush=True)  # fmt: skip
    rows = [kept[e.id] for e in figures.EXPERIMENTS if e.id in kept]
    args.out.write_text(figures.to_toml(figures.shared_settings(), seeds, rows), encoding="utf-8")
    print(f"wrote {args.out} ({len(rows)} rows, {len(seeds)} seeds; {machine().label})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
