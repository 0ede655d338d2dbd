"""The app's own multi-seed figures for the reversal experiment, as a stored table.

    figures = load()                       # exercises/trainer_figures.toml, shipped with the app
    row = figures["L10-qk"]                # or figures.find(length=10, variant="qk")
    row.stats["seq_acc"].mean, row.per_seed["weight"][3], row.params

Exercises, quiz items and the trainer screen quote the trainer's results from this table and
nothing else, so no text teaches a figure the app does not produce. The table is written by
``scripts/trainer_figures.py`` (which trains every experiment below over 10 seeds) and checked
by ``tests/core/models/test_stored_seed_table.py``, which retrains some of its runs and compares.

Schema of ``trainer_figures.toml``:

    [settings]   the TrainConfig fields every run shares (lr, batch, hidden, eval_size,
                 eval_seed, clip) and ``seeds``, the list of random seeds of every row
    [[row]]      one experiment:
      id         stable name, e.g. "L10-qk", "L20-qk-nofeed", "L10-dot-20k" (see experiment_id)
      length, variant ("none" | "dot" | "general" | "qk"), feed ("previous" | "none"), iters,
      params     the model's parameter count
      [row.stats.<metric>]      n, mean, sd (sample, n − 1), min, max over the seeds
      [row.per_seed]            <metric> = one value per seed, in the order of settings.seeds

Metrics: ``seq_acc`` (whole sequence right), ``pos_acc`` (letters right), and with attention,
from the held-out average attention: ``weight`` (mean weight on input L+1−t, the reversal
diagonal; uniform is 1/L), ``peaks`` (share of rows peaking on it), ``left`` / ``right``
(share of rows peaking one column left, on input L−t, or right, on L+2−t) and ``row_max``
(mean largest weight of a row).
"""

from __future__ import annotations

import math
import tomllib
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from importlib.resources import files
from pathlib import Path

from attn_tui.core.models.trainer import (
    TrainConfig,
    default_iters,
    metric,
)

FILE_NAME = "trainer_figures.toml"
ALIGNMENT_METRICS = ("weight", "peaks", "left", "right", "row_max")
SHARED = ("lr", "batch", "hidden", "eval_size", "eval_seed", "clip")  # the [settings] fields


def experiment_id(
    length: int, variant: str, feed: str = "previous", iters: int | None = None
) -> str:
    """ "L10-qk"; "-nofeed" when the decoder reads nothing; "-20k" for a non-default run length."""
    name = f"L{length}-{variant}" + ("-nofeed" if feed == "none" else "")
    if iters is not None and iters != default_iters(length):
        name += f"-{iters // 1000}k" if iters % 1000 == 0 else f"-{iters}"
    return name


@dataclass(frozen=True)
class Experiment:
    length: int
    variant: str
    feed: str = "previous"
    iters: int | None = None  # None: default_iters(length)

    @property
    def id(self) -> str:
        return experiment_id(self.length, self.variant, self.feed, self.iters)

    def config(self, seed: int = 0) -> TrainConfig:
        iters = self.iters or default_iters(self.length)
        base = TrainConfig(length=self.length, feed=self.feed, iters=iters, seed=seed)
        return base.with_variant(self.variant)


# What the table holds: the book's comparison at L 5, the four variants at L 10 (and the book's
# model trained far longer), the bottleneck at L 15 and 20 with the decoder fed nothing, and
# the teacher-forced q·k model there (where some seeds learn a diagonal shifted by one).
EXPERIMENTS: tuple[Experiment, ...] = (
    *(Experiment(5, v) for v in ("none", "dot", "general", "qk")),
    *(Experiment(10, v) for v in ("none", "dot", "general", "qk")),
    Experiment(10, "dot", iters=20_000),
    *(Experiment(L, v, "none") for L in (15, 20) for v in ("none", "dot", "qk")),
    *(Experiment(L, "qk") for L in (15, 20)),
)


@dataclass(frozen=True)
class Summary:
    n: int
    mean: float
    sd: float
    min: float
    max: float


def summarise(values: Sequence[float]) -> Summary:
    """n, mean, sample sd, min, max of the finite values (as the table stores them)."""
    finite = [float(v) for v in values if math.isfinite(v)]
    n = len(finite)
    if n == 0:
        return Summary(0, math.nan, math.nan, math.nan, math.nan)
    mean = math.fsum(finite) / n
    sd = math.sqrt(math.fsum((v - mean) ** 2 for v in finite) / (n - 1)) if n > 1 else 0.0
    return Summary(n, mean, sd, min(finite), max(finite))


def metrics_of(variant: str) -> tuple[str, ...]:
    return ("seq_acc", "pos_acc") + (ALIGNMENT_METRICS if variant != "none" else ())


@dataclass(frozen=True)
class Row:
    id: str
    length: int
    variant: str
    feed: str
    iters: int
    params: int
    stats: dict[str, Summary]
    per_seed: dict[str, tuple[float, ...]]


@dataclass(frozen=True)
class Figures:
    settings: dict[str, object]
    seeds: tuple[int, ...]
    rows: dict[str, Row]

    def __getitem__(self, row_id: str) -> Row:
        return self.rows[row_id]

    def __iter__(self) -> Iterator[Row]:
        return iter(self.rows.values())

    def find(
        self, length: int, variant: str, feed: str = "previous", iters: int | None = None
    ) -> Row | None:
        return self.rows.get(experiment_id(length, variant, feed, iters))


def shipped_path() -> Path:
    return Path(str(files("attn_tui.exercises"))) / FILE_NAME


def load(path: Path | None = None) -> Figures:
    """Read the table (the shipped one by default)."""
    with open(path or shipped_path(), "rb") as f:
        data = tomllib.load(f)
    settings = dict(data["settings"])
    seeds = tuple(int(s) for s in settings.pop("seeds"))
    rows = {}
    for raw in data.get("row", []):
        stats = {name: Summary(**values) for name, values in raw["stats"].items()}
        per_seed = {name: tuple(values) for name, values in raw["per_seed"].items()}
        row = Row(
            raw["id"],
            raw["length"],
            raw["variant"],
            raw["feed"],
            raw["iters"],
            raw["params"],
            stats,
            per_seed,
        )
        rows[row.id] = row
    return Figures(settings, seeds, rows)


# ---- writing (scripts/trainer_figures.py) ----------------------------------------------------


def row_of(experiment: Experiment, results: Sequence) -> dict[str, object]:
    """One [[row]] from the experiment's finished runs (RunResults, any order)."""
    results = sorted(results, key=lambda r: r.config.seed)
    names = metrics_of(experiment.variant)
    per_seed = {name: [metric(r, name) for r in results] for name in names}
    cfg = experiment.config()
    return {
        "id": experiment.id,
        "length": experiment.length,
        "variant": experiment.variant,
        "feed": experiment.feed,
        "iters": cfg.iters,
        "params": cfg.n_params,
        "stats": {name: summarise(values).__dict__ for name, values in per_seed.items()},
        "per_seed": per_seed,
    }


def _toml_value(value: object) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, float):
        return repr(value) if math.isfinite(value) else "nan"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, str):
        return '"' + value.replace("\\", "\\\\").replace('"', '\\"') + '"'
    if isinstance(value, list | tuple):
        return "[" + ", ".join(_toml_value(v) for v in value) + "]"
    raise TypeError(f"cannot write {value!r} as TOML")


def to_toml(settings: dict[str, object], seeds: Sequence[int], rows: Sequence[dict]) -> str:
    """The whole file: a header saying where it comes from, [settings], then every row."""
    out = [
        "# The trainer's own figures over several random seeds, one [[row]] per experiment.",
        "# Written by scripts/trainer_figures.py: do not edit by hand; rerun the script.",
        "# Read by attn_tui/core/models/figures.py (its docstring describes every field);",
        "# checked by tests/core/models/test_stored_seed_table.py (retrains runs, compares).",
        "",
        "[settings]",
    ]
    out += [f"{key} = {_toml_value(value)}" for key, value in settings.items()]
    out.append(f"seeds = {_toml_value(list(seeds))}")
    for row in rows:
        out += ["", "[[row]]"]
        out += [
            f"{k} = {_toml_value(row[k])}"
            for k in ("id", "length", "variant", "feed", "iters", "params")
        ]
        out += measured_lines(row)
    return "\n".join(out) + "\n"


def measured_lines(row: dict) -> list[str]:
    """A table row's ``stats.*`` and ``per_seed.*`` lines, as both stored tables write them."""
    out = []
    for name, summary in row["stats"].items():
        values = ", ".join(f"{k} = {_toml_value(v)}" for k, v in summary.items())
        out.append(f"stats.{name} = {{ {values} }}")
    for name, values in row["per_seed"].items():
        out.append(f"per_seed.{name} = {_toml_value(values)}")
    return out


def shared_settings() -> dict[str, object]:
    defaults = TrainConfig()
    return {name: getattr(defaults, name) for name in SHARED}
