"""Do two checkouts train the reversal RNN and the tiny Transformer to the same bits?
(For speed work and refactors of the models and of the training loop.)

    .venv/bin/python benchmarks/trainer_bits.py --baseline ../main

Trains 44 short RNN runs (every variant, both feeds, lengths 3 to 13, float64, odd batch and
hidden sizes, tight clipping, a small held-out set) and 12 short Transformer runs (both tasks,
1 and 2 layers, 1 to 4 heads, every kind of positions, norm, causal, no feed-forward, float64,
tight clipping) in this checkout and, in a child process, in the baseline checkout, and
compares per run: a hash of every iteration's loss, of the final parameters and Adam's two
averages, and of every held-out evaluation (accuracies, per-position accuracy, mean attention,
each head's measures, the probe's and the sample's decodings and the probe's attention).
Prints the runs that differ; exit status 1 if any does. Nothing is timed. It runs against a
checkout from before the shared loop too (each model had its own ``Trainer`` then).
"""

from __future__ import annotations

import argparse
import hashlib
import json
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


def transformer_configs() -> list[dict]:
    runs = []
    for task in ("reverse", "sort"):
        for positions in ("learned", "sinusoidal", "none"):
            runs.append(dict(task=task, length=7, positions=positions, iters=120, eval_every=50,
                             seed=len(runs)))  # fmt: skip
    runs += [
        dict(length=6, layers=2, heads=2, norm=True, iters=100, eval_every=40, seed=7),
        dict(length=8, heads=4, causal=True, iters=100, eval_every=40, seed=8),
        dict(length=5, feed_forward=False, batch=5, iters=90, eval_every=30, seed=9),
        dict(length=6, dtype="float64", iters=80, eval_every=40, seed=10),
        dict(length=9, task="sort", clip=0.5, eval_size=37, iters=100, eval_every=50, seed=11),
        dict(length=4, d_model=8, heads=2, layers=2, iters=100, eval_every=25, seed=12),
    ]
    return runs


def _train(config):
    """(result, final parameters, Adam) through whichever API the checkout has."""
    import math

    try:
        from attn_tui.core.models import loop
    except ImportError:  # before the shared loop: each model had its own Trainer
        loop = None
    if loop is not None:
        model = config.build()
        adam = loop.Adam(model.params.size, config.lr, config.beta1, config.beta2, config.eps,
                         model.params.dtype)  # fmt: skip
        result = list(loop.run(model, every=7, max_interval=math.inf, adam=adam))[-1].result
        return result, model.params, adam
    from attn_tui.core.models import trainer, transformer_trainer

    module = trainer if isinstance(config, trainer.TrainConfig) else transformer_trainer
    old = module.Trainer(config)
    result = list(old.run(every=7, max_interval=math.inf))[-1].result
    return result, old.model.params, old.adam


def fingerprints() -> dict[str, list]:
    import numpy as np

    from attn_tui.core.models.trainer import TrainConfig
    from attn_tui.core.models.transformer_trainer import TransformerConfig

    def h(a) -> str:
        return hashlib.sha256(np.ascontiguousarray(a).tobytes()).hexdigest()[:16]

    cases = []
    for c in configs():
        c = dict(c)
        variant = c.pop("v")
        cases.append((c | {"v": variant}, TrainConfig(**c).with_variant(variant)))
    cases += [(c | {"model": "transformer"}, TransformerConfig(**c)) for c in transformer_configs()]
    out = {}
    for key, config in cases:
        result, params, adam = _train(config)
        evals = [
            [s.iteration, s.seq_acc, s.pos_acc, h(s.per_position),
             None if s.attention_mean is None else h(s.attention_mean), str(s.probe.prediction),
             str(s.sample.prediction), None if s.probe.attention is None else h(s.probe.attention),
             [repr((x.mirror, x.by_symbol, x.by_position)) for x in getattr(s, "heads", ())]]
            for s in result.snapshots
        ]  # fmt: skip
        out[json.dumps(key, sort_keys=True)] = [
            result.outcome.kind,
            h(result.losses),
            h(params),
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
