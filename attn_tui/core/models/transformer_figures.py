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
    [made]       where the runs were trained (as in trainer_figures.toml)
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

The pattern rows ("previous", "local", "first", "block": ``PATTERN_ROWS``) add, for the head
with the highest score of the task's pattern (``head_scores``): ``pattern_head`` (that score)
and ``uniform`` (what a head that spreads its weight evenly scores). The induction rows add
``induction_head`` (the last layer's best induction score), ``previous_head`` (layer 1's best
previous-token score), their ``uniform_induction`` and ``uniform_previous``; the ablation
(``ablation.ablate``: layer 1's previous-token head switched off) ``ablated_copy_acc``,
``ablated_seq_acc`` and ``ablated_induction`` (NaN with one layer); the loss curve's phases
(``phases.detect``): ``plateau_end``, ``drop_seen`` (steps), ``plateau_level`` and
``fall_200`` (nats the averaged loss fell in the 200 steps after the plateau's end; NaN
without a drop); and ``final_loss`` (the mean of the last 50 steps).
"""

from __future__ import annotations

import math
import statistics
import tomllib
from dataclasses import dataclass, field, replace
from importlib.resources import files
from pathlib import Path

from attn_tui.core.models.figures import (
    Summary,
    _toml_value,
    made_header,
    made_table,
    measured_lines,
    summarise,
)
from attn_tui.core.models.head_scores import TASK_SCORE
from attn_tui.core.models.machine import machine
from attn_tui.core.models.phases import average_at
from attn_tui.core.models.transformer_trainer import (
    RunResult,
    SeedRuns,
    TransformerConfig,
    TransformerResult,
    setting_names,
)

FILE_NAME = "transformer_figures.toml"
SEEDS = tuple(range(5))
HEADS = {"position_head": "mirror", "content_head": "by_symbol"}  # head → what picks it
HEAD_METRICS = ("mirror", "by_symbol", "by_position")
# What a row's config holds: every setting but the seed (a row is over SEEDS)
CONFIG_FIELDS = tuple(name for name in setting_names() if name != "seed")

# What the table holds: the default reversal, the same without positions and with the causal
# mask, and sorting (the content task) trained for 3000 iterations; each pattern task with its
# defaults; the induction run, and the same with one layer (which cannot compose two heads).
EXPERIMENTS: dict[str, TransformerConfig] = {
    "reverse": TransformerConfig(eval_every=0),
    "reverse-blind": TransformerConfig(eval_every=0, positions="none"),
    "reverse-causal": TransformerConfig(eval_every=0, causal=True),
    "sort": TransformerConfig(task="sort", iters=3000, eval_every=0),
    **{task: TransformerConfig.for_task(task, eval_every=0)
       for task in ("previous", "local", "first", "block")},
    "induction": TransformerConfig.for_task("induction", eval_every=0),
    "induction-1layer": TransformerConfig.for_task("induction", layers=1, eval_every=0),
}  # fmt: skip
PATTERN_ROWS = {row: TASK_SCORE[row] for row in ("previous", "local", "first", "block")}
INDUCTION_ROWS = ("induction", "induction-1layer")
INDUCTION_METRICS = (
    "induction_head", "previous_head", "uniform_induction", "uniform_previous",
    "ablated_copy_acc", "ablated_seq_acc", "ablated_induction",
    "plateau_end", "drop_seen", "plateau_level", "fall_200", "final_loss",
)  # fmt: skip
FALL_AFTER = 200  # steps after the plateau's end at which ``fall_200`` reads the loss


def metric_names(row_id: str = "reverse") -> tuple[str, ...]:
    base = ("seq_acc", "pos_acc") + tuple(f"{h}_{m}" for h in HEADS for m in HEAD_METRICS)
    if row_id in PATTERN_ROWS:
        return base + ("pattern_head", "uniform")
    if row_id in INDUCTION_ROWS:
        return base + INDUCTION_METRICS
    return base


def per_seed(runs: SeedRuns, row_id: str = "reverse") -> dict[str, list[float]]:
    """Every metric of the table's row ``row_id``, one value per run (in the runs' order)."""
    out: dict[str, list[float]] = {
        "seq_acc": [r.seq_acc for r in runs.runs],
        "pos_acc": [r.pos_acc for r in runs.runs],
    }
    for head, pick in HEADS.items():
        for m in HEAD_METRICS:
            out[f"{head}_{m}"] = [_head_value(r, m, pick) for r in runs.runs]
    if row_id in PATTERN_ROWS:
        score = PATTERN_ROWS[row_id]
        out["pattern_head"] = [_best(r, score) for r in runs.runs]
        out["uniform"] = [_uniform(r, score) for r in runs.runs]
    if row_id in INDUCTION_ROWS:
        for name in INDUCTION_METRICS:
            out[name] = [induction_metric(r, name) for r in runs.runs]
    return out


def _best(run: RunResult, score: str, layer: int | None = None) -> float:
    """The highest ``score`` among the run's heads (of one layer, 1-based, if given)."""
    if run.final is None:
        return math.nan
    values = [h.score(score) for h in run.final.heads if layer is None or h.layer == layer]
    values = [v for v in values if math.isfinite(v)]
    return max(values) if values else math.nan


def _uniform(run: RunResult, score: str) -> float:
    if isinstance(run, TransformerResult) and run.uniform_head is not None:
        return run.uniform_head.get(score)
    return math.nan


def induction_metric(run: RunResult, name: str) -> float:
    """One of ``INDUCTION_METRICS`` of an induction run."""
    if not isinstance(run, TransformerResult):
        raise TypeError(f"an induction metric needs a Transformer's run, not {type(run).__name__}")
    if name == "induction_head":
        return _best(run, "induction", run.config.layers)
    if name == "previous_head":
        return _best(run, "previous", 1)
    if name.startswith("uniform_"):
        return _uniform(run, name.removeprefix("uniform_"))
    if name.startswith("ablated_"):
        if run.ablation is None:
            return math.nan
        return float(getattr(run.ablation.after, name.removeprefix("ablated_")))
    p = run.phases
    if name == "plateau_end":
        return float(p.plateau_end) if p.plateau_end is not None else math.nan
    if name == "drop_seen":
        return float(p.drop_seen) if p.drop_seen is not None else math.nan
    if name == "plateau_level":
        return p.plateau_level
    if name == "fall_200":  # how far the loss fell in the 200 steps after the plateau
        if p.drop is None or p.plateau_end is None:
            return math.nan
        return p.plateau_level - average_at(run.losses, p.plateau_end + FALL_AFTER)
    if name == "final_loss":
        return run.final_loss
    raise KeyError(name)


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
    made: dict[str, str] = field(default_factory=dict)  # where: see figures.made_table

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
    made = {k: str(v) for k, v in data.get("made", {}).items()}
    return Table(tuple(int(s) for s in data["seeds"]), rows, made)


STEP_METRICS = ("plateau_end", "drop_seen")  # counted in steps: resolution 1, not 1e-3


def outside_spread(row: Row, fresh: dict[str, list[float]]) -> list[str]:
    """The metrics of a fresh retraining of ``row``'s seeds whose mean lies farther from the
    stored mean than four standard errors (of the larger of the two seed spreads, and never
    under the metric's resolution: 1e-3, or one step), or that are finite in a different
    number of seeds. Not bits: another CPU's BLAS rounds its own way and float32 training
    amplifies the last bits, so a retrained seed lands near its stored value, not on it; a
    figure the content quotes is a bound or a mean at a precision this tolerance keeps."""
    out = []
    for name, values in fresh.items():
        finite = [v for v in values if math.isfinite(v)]
        s = row.stats[name]
        if len(finite) != s.n:
            out.append(f"{name}: finite in {len(finite)} seeds, stored {s.n}")
            continue
        if not finite:
            continue
        resolution = 1.0 if name in STEP_METRICS else 1e-3
        sd = max(statistics.stdev(finite) if len(finite) > 1 else 0.0, s.sd)
        tolerance = max(4 * sd / math.sqrt(len(finite)), resolution)
        mean = statistics.fmean(finite)
        if abs(mean - s.mean) > tolerance:
            out.append(f"{name}: mean {mean:.4g}, stored {s.mean:.4g} ± {tolerance:.2g}")
    return out


def config_of(row_id: str) -> TransformerConfig:
    return EXPERIMENTS[row_id]


def row_of(row_id: str, runs: SeedRuns) -> dict[str, object]:
    values = per_seed(runs, row_id)
    cfg = EXPERIMENTS[row_id]
    return {
        "id": row_id,
        "config": {k: getattr(cfg, k) for k in CONFIG_FIELDS},
        "params": cfg.n_params,
        "stats": {k: summarise(v).__dict__ for k, v in values.items()},
        "per_seed": values,
    }


def to_toml(seeds, rows, made: dict[str, str] | None = None) -> str:
    """The whole file; ``made`` (where it was trained) defaults to this process's machine."""
    made = machine().to_dict() if made is None else made
    out = [
        "# The tiny Transformer's own figures over several seeds, one [[row]] per experiment.",
        "# Written by scripts/transformer_figures.py: do not edit by hand; rerun the script.",
        "# Read by attn_tui/core/models/transformer_figures.py (its docstring describes every",
        "# field); checked by tests/core/models/test_transformer_content.py (retrains the runs).",
        *made_header(made),
        "",
        f"seeds = {_toml_value(list(seeds))}",
        *made_table(made),
    ]
    for row in rows:
        out += ["", "[[row]]", f"id = {_toml_value(row['id'])}", f"params = {row['params']}"]
        cfg = ", ".join(f"{k} = {_toml_value(v)}" for k, v in row["config"].items())
        out.append(f"config = {{ {cfg} }}")
        out += measured_lines(row)
    return "\n".join(out) + "\n"


def seeded(row_id: str, seed: int) -> TransformerConfig:
    return replace(EXPERIMENTS[row_id], seed=int(seed))


def row_kind(task: str, layers: int = 2) -> str | None:
    """Which extra metrics a run of ``task`` has in the table's terms: a pattern row's id, an
    induction row's, or None (reversal and sorting)."""
    if task in PATTERN_ROWS:
        return task
    if task == "induction":
        return "induction" if layers > 1 else "induction-1layer"
    return None


def task_summary(runs: SeedRuns) -> dict[str, Summary]:
    """Over seeds, every metric the table keeps for runs of this kind (the same definitions as
    the stored rows): what ``train --compare`` and the trainer's F10 report."""
    kind = row_kind(runs.config.task, runs.config.layers) or "reverse"
    return {name: summarise(values) for name, values in per_seed(runs, kind).items()}
