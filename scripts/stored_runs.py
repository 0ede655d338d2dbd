"""Regenerate the stored runs that the snapshots of the trained screens replay.

    .venv/bin/python scripts/stored_runs.py          # writes tests/ui/stored_runs/*.json
    .venv/bin/python scripts/stored_runs.py transformer_first.json   # only the runs named

A trained screen drawn from a fresh run shows whatever this CPU's BLAS rounding led float32
training to; replayed from a stored run it draws the same on every machine. Each run here is
the one the trainer screen starts on a fresh screen: F5 (q·k attention, length 10, 3000
iterations, seed 0, evaluated as the watchable pace evaluates), and the Transformer's default
(reversal, length 10, 300 iterations, seed 0, at full speed), each pattern task's
(previous, local, first, block: the task's own settings, ``TransformerConfig.for_task``, which
the screen's rows take when the task is chosen), and the induction run's (two layers of one
head, length 32, 2,000 iterations, its held-out set of 500 evaluated every 50).
Training times are set to fixed values, the only figures that depend on the machine's speed.
``tests/ui/test_stored_runs.py`` checks that these are still the runs the screen would
start, and (slow) that a fresh run on this machine lands where the stored one did, within the
spread between kernels.
"""

from __future__ import annotations

import dataclasses
import sys
from pathlib import Path

from attn_tui.core.models import stored_run
from attn_tui.core.models import trainer as rnn_trainer
from attn_tui.core.models import transformer_trainer as tf_trainer
from attn_tui.core.models.loop import run_to_end

OUT = Path(__file__).resolve().parent.parent / "tests" / "ui" / "stored_runs"


def screen_default_rnn() -> rnn_trainer.TrainConfig:
    """What F5 trains on a fresh trainer screen, evaluated ~60 times as the watch pace does."""
    cfg = rnn_trainer.TrainConfig(length=10, iters=rnn_trainer.default_iters(10))
    cfg = cfg.with_variant("qk")
    return dataclasses.replace(cfg, eval_every=max(10, cfg.iters // 60))


def screen_default_transformer() -> tf_trainer.TransformerConfig:
    return tf_trainer.TransformerConfig()


PATTERN_TASKS = ("previous", "local", "first", "block")  # the letter tasks whose head is a pattern


def screen_pattern_transformer(task: str) -> tf_trainer.TransformerConfig:
    """What F5 trains once the Transformer and a pattern task (or the induction task) are
    chosen at full speed: the task's own settings (the block task's length 12, the induction
    run's whole recipe)."""
    return tf_trainer.TransformerConfig.for_task(task)


def fixed_times(result):
    """The run with its timings set to fixed values (1 s of training, no evaluation time)."""
    snaps = tuple(dataclasses.replace(s, seconds=0.0) for s in result.snapshots)
    final = snaps[-1] if result.final is not None and snaps else result.final
    return dataclasses.replace(result, seconds=1.0, eval_seconds=0.0, snapshots=snaps, final=final)


RUNS = {
    "rnn_default.json": lambda: run_to_end(screen_default_rnn()),
    "transformer_default.json": lambda: run_to_end(screen_default_transformer()),
    **{
        f"transformer_{task}.json": (lambda task=task: run_to_end(screen_pattern_transformer(task)))
        for task in (*PATTERN_TASKS, "induction")
    },
}


def main(names: list[str]) -> int:
    unknown = sorted(set(names) - set(RUNS))
    if unknown:
        print(f"no such stored run: {', '.join(unknown)} (known: {', '.join(RUNS)})")
        return 2
    OUT.mkdir(parents=True, exist_ok=True)
    for name, run in RUNS.items():
        if names and name not in names:
            continue
        result = fixed_times(run())
        path = stored_run.save(OUT / name, result)
        print(f"{path}: seq_acc {result.seq_acc:.3f}, {len(result.snapshots)} snapshots, "
              f"{path.stat().st_size // 1024} KB")  # fmt: skip
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
