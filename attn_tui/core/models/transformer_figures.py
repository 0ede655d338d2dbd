"""The tiny Transformer's own five-seed figures, as a stored table (as ``figures`` is for the RNN).

    table = load()                          # exercises/transformer_figures.toml
    table["sort"].stats["content_head_by_symbol"].mean

Exercises and quiz items quote the Transformer's runs from this table only, as checked claims
``{= 0.93 | transformer('reverse', 'position_head_mirror')}``, so no text teaches a figure the
app does not produce. ``scripts/transformer_figures.py`` writes it (training every experiment
below on seeds 0..4 with the app's trainer, in a few seconds); ``tests/core/models/
test_transformer_content.py`` retrains the runs and compares.

Schema of ``transformer_figures.toml``:

    seeds        the random seeds of every row
    [[row]]      one experiment:
      id         "reverse", "reverse-blind", "reverse-causal", "sort"
      config     the TransformerConfig fields of its runs (the seed aside)
      params     the model's parameter count
      [row.stats.<metric>]   n, mean, sd (sample, n − 1), min, max over the seeds
      [row.per_seed]         <metric> = one value per seed, in the order of ``seeds``

Metrics: ``seq_acc``, ``pos_acc``; and for each run's position head (its head with the largest
``mirror``, the mean weight output i puts on input L+1−i) and content head (largest
``by_symbol``): ``<head>_mirror``, ``<head>_by_symbol`` and ``<head>_by_position``, the share of
the head's attention variance explained by the attended symbol or position (see
``transformer_trainer.head_stats``).
"""

from __future__ import annotations

import math
import tomllib
from dataclasses import dataclass, replace
from importlib.resources import files
from pathlib import Path

from attn_tui.core.models.figures import Summary, _toml_value, measured_lines, summarise
from attn_tui.core.models.transformer_trainer import SeedRuns, TransformerConfig

FILE_NAME = "transformer_figures.toml"
SEEDS = tuple(range(5))
HEADS = {"position_head": "mirror", "content_head": "by_symbol"}  # head → what picks it
HEAD_METRICS = ("mirror", "by_symbol", "by_position")
CONFIG_FIELDS = (
    "task",
    "length",
    "layers",
    "heads",
    "d_model",
    "positions",
    "feed_forward",
    "norm",
    "causal",
    "iters",
    "lr",
    "batch",
)

# What the table holds: the default reversal, the same without positions and with the causal
# mask, and sorting (the content task) trained for 3000 iterations.
EXPERIMENTS: dict[str, TransformerConfig] = {
    "reverse": TransformerConfig(eval_every=0),
    "reverse-blind": TransformerConfig(eval_every=0, positions="none"),
    "reverse-causal": TransformerConfig(eval_every=0, causal=True),
    "sort": TransformerConfig(task="sort", iters=3000, eval_every=0),
}


def metric_names() -> tuple[str, ...]:
    return ("seq_acc", "pos_acc") + tuple(f"{h}_{m}" for h in HEADS for m in HEAD_METRICS)


def per_seed(runs: SeedRuns) -> dict[str, list[float]]:
    """Every metric of the table, one value per run (in the runs' order)."""
    out: dict[str, list[float]] = {
        "seq_acc": [r.seq_acc for r in runs.runs],
        "pos_acc": [r.pos_acc for r in runs.runs],
    }
    for head, pick in HEADS.items():
        for m in HEAD_METRICS:
            out[f"{head}_{m}"] = [_head_value(r, m, pick) for r in runs.runs]
    return out


def _head_value(run, metric: str, pick: str) -> float:
    if run.final is None:
        return math.nan

    def key(h) -> float:
        value = getattr(h, pick)
        return value if math.isfinite(value) else -math.inf

    return float(getattr(max(run.final.heads, key=key), metric))


@dataclass(frozen=True)
class Row:
    id: str
    config: dict[str, object]
    params: int
    stats: dict[str, Summary]
    per_seed: dict[str, tuple[float, ...]]


@dataclass(frozen=True)
class Table:
    seeds: tuple[int, ...]
    rows: dict[str, Row]

    def __getitem__(self, row_id: str) -> Row:
        return self.rows[row_id]


def shipped_path() -> Path:
    return Path(str(files("attn_tui.exercises"))) / FILE_NAME


def load(path: Path | None = None) -> Table:
    with open(path or shipped_path(), "rb") as f:
        data = tomllib.load(f)
    rows = {}
    for raw in data.get("row", []):
        stats = {k: Summary(**v) for k, v in raw["stats"].items()}
        seeds = {k: tuple(float(x) for x in v) for k, v in raw["per_seed"].items()}
        rows[raw["id"]] = Row(raw["id"], dict(raw["config"]), raw["params"], stats, seeds)
    return Table(tuple(int(s) for s in data["seeds"]), rows)


def config_of(row_id: str) -> TransformerConfig:
    return EXPERIMENTS[row_id]


def row_of(row_id: str, runs: SeedRuns) -> dict[str, object]:
    values = per_seed(runs)
    cfg = EXPERIMENTS[row_id]
    return {
        "id": row_id,
        "config": {k: getattr(cfg, k) for k in CONFIG_FIELDS},
        "params": cfg.n_params,
        "stats": {k: summarise(v).__dict__ for k, v in values.items()},
        "per_seed": values,
    }


def to_toml(seeds, rows) -> str:
    out = [
        "# The tiny Transformer's own figures over several seeds, one [[row]] per experiment.",
        "# Written by scripts/transformer_figures.py: do not edit by hand; rerun the script.",
        "# Read by attn_tui/core/models/transformer_figures.py (its docstring describes every",
        "# field); checked by tests/core/models/test_transformer_content.py (retrains the runs).",
        "",
        f"seeds = {_toml_value(list(seeds))}",
    ]
    for row in rows:
        out += ["", "[[row]]", f"id = {_toml_value(row['id'])}", f"params = {row['params']}"]
        cfg = ", ".join(f"{k} = {_toml_value(v)}" for k, v in row["config"].items())
        out.append(f"config = {{ {cfg} }}")
        out += measured_lines(row)
    return "\n".join(out) + "\n"


def seeded(row_id: str, seed: int) -> TransformerConfig:
    return replace(EXPERIMENTS[row_id], seed=int(seed))
