"""Do two checkouts train the reversal RNN to the same bits? (For speed work on the trainer.)

    .venv/bin/python benchmarks/trainer_bits.py --baseline ../main

Trains 44 short runs (every variant, both feeds, lengths 3 to 13, float64, odd batch and hidden
sizes, tight clipping, a small held-out set) in this checkout and, in a child process, in the
baseline checkout, and compares per run: a hash of every iteration's loss, of the final
parameters and Adam's two averages, and of every held-out evaluation (accuracies, per-position
accuracy, mean attention, the probe's and the sample's decodings and the probe's attention).
Prints the runs that differ; exit status 1 if any does. Nothing is timed.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import math
import os
import subprocess
import sys
from pathlib import Path

for _var in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_var, "1")  # the same BLAS path in both processes


def configs() -> list[dict]:
    runs = []
    for length in (3, 5, 10, 13):
        for variant in ("none", "dot", "general", "qk"):
            for feed in ("previous", "none"):
                runs.append(dict(length=length, feed=feed, iters=250, eval_every=100, batch=16,
                                 seed=length, v=variant))  # fmt: skip
    for variant in ("none", "dot", "general", "qk"):
        runs += [
            dict(length=7, iters=120, eval_every=50, batch=5, seed=3, dtype="float64", v=variant),
            dict(length=6, iters=120, eval_every=50, batch=33, seed=4, hidden=9, v=variant),
            dict(length=10, iters=150, eval_every=50, batch=16, seed=5, clip=0.5, eval_size=37,
                 v=variant),
        ]  # fmt: skip
    return runs


def fingerprints() -> dict[str, list]:
    import numpy as np

    from attn_tui.core.models.trainer import TrainConfig, Trainer

    def h(a) -> str:
        return hashlib.sha256(np.ascontiguousarray(a).tobytes()).hexdigest()[:16]

    out = {}
    for c in configs():
        c = dict(c)
        variant = c.pop("v")
        trainer = Trainer(TrainConfig(**c).with_variant(variant))
        result = list(trainer.run(every=7, max_interval=math.inf))[-1].result
        evals = [
            [s.iteration, s.seq_acc, s.pos_acc, h(s.per_position),
             None if s.attention_mean is None else h(s.attention_mean), str(s.probe.prediction),
             str(s.sample.prediction), None if s.probe.attention is None else h(s.probe.attention)]
            for s in result.snapshots
        ]  # fmt: skip
        adam = trainer.adam
        out[json.dumps(c | {"v": variant}, sort_keys=True)] = [
            h(result.losses),
            h(trainer.model.params),
            h(adam.m),
            h(adam.v),
            *evals,
        ]
    return out


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--baseline", metavar="CHECKOUT", help="the other checkout (e.g. ../main)")
    ap.add_argument("--print", metavar="CHECKOUT", help="print that checkout's fingerprints")
    args = ap.parse_args()
    here = Path(__file__).resolve()
    if args.print or not args.baseline:
        sys.path.insert(0, args.print or str(here.parent.parent))  # whose attn_tui is imported
        import attn_tui

        assert Path(attn_tui.__file__).resolve().parent.parent == Path(sys.path[0]).resolve()
        print(json.dumps(fingerprints()))
        return 0
    base = Path(args.baseline).resolve()
    child = subprocess.run([sys.executable, str(here), "--print", str(base)],
                           capture_output=True, text=True, check=True)  # fmt: skip
    theirs = json.loads(child.stdout)
    sys.path.insert(0, str(here.parent.parent))
    ours = json.loads(json.dumps(fingerprints()))
    differ = [k for k in ours if ours[k] != theirs.get(k)]
    for key in differ:
        print("differs:", key)
    print(f"{len(ours)} runs, {len(differ)} differ from {base}")
    return 1 if differ else 0


if __name__ == "__main__":
    sys.exit(main())
