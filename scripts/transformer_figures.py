"""Regenerate the stored table of the tiny Transformer's five-seed figures.

    .venv/bin/python scripts/transformer_figures.py              # the shipped table
    .venv/bin/python scripts/transformer_figures.py --out t.toml # somewhere else

Writes ``exercises/transformer_figures.toml`` (the format is described in
``attn_tui/core/models/transformer_figures.py``): every experiment of
``transformer_figures.EXPERIMENTS`` trained on seeds 0..4 with the app's own trainer, one after
another (about 15 s on this machine).
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path

from attn_tui.core.models import transformer_figures as tf
from attn_tui.core.models.machine import machine
from attn_tui.core.models.transformer_trainer import over_seeds

OUT = Path(__file__).resolve().parent.parent / "exercises" / tf.FILE_NAME


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", type=Path, default=OUT, help=f"where to write (default {OUT})")
    args = ap.parse_args()
    start = time.perf_counter()
    rows = []
    for row_id, config in tf.EXPERIMENTS.items():
        row = tf.row_of(row_id, over_seeds(config, tf.SEEDS))
        rows.append(row)
        s = row["stats"]
        print(f"{row_id:15s} whole {s['seq_acc']['mean']:.3f}  letters {s['pos_acc']['mean']:.3f}"
              f"  ({time.perf_counter() - start:.0f} s)", flush=True)  # fmt: skip
    args.out.write_text(tf.to_toml(tf.SEEDS, rows), encoding="utf-8")
    print(f"wrote {args.out} ({machine().label})")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
