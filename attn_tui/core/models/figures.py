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
    [made]       where the runs were trained: numpy, blas (name and version), kernel (the
                 OpenBLAS kernel, "" for another BLAS), forced (OPENBLAS_CORETYPE if set);
                 the header comment says the same in words
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
from dataclasses import dataclass, field
from importlib.resources import files
from pathlib import Path

from attn_tui.core.models.machine import Machine, machine
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
    made: dict[str, str] = field(default_factory=dict)  # where: numpy, blas, kernel, forced

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
    return Figures(settings, seeds, rows, {k: str(v) for k, v in data.get("made", {}).items()})


# ---- a learner's own runs beside the table ---------------------------------------------------

AGREE_SE = 2.0  # within about two standard errors: what two draws of seeds from one spread give


@dataclass(frozen=True)
class Agreement:
    """How a learner's runs of one experiment sit beside the stored row (one metric).

    With two runs or more, the question is whether the two means differ by more than chance
    allows: the difference against its standard error, √(sd²/n + sd_stored²/n_stored) (never
    below ``resolution``, the step of the metric, so two spreads of 0 can still agree). With
    one run, whether it lies within the stored seeds' range. Either way, for seeds that the
    table also holds, how many gave the stored value exactly: on another CPU some do not, since
    BLAS rounds the last bits its own way and float32 training amplifies them.
    """

    n: int  # the learner's finite runs
    mean: float
    sd: float
    stored: Summary
    diff: float  # mean − stored mean
    se: float  # standard error of that difference (nan for one run)
    agree: bool  # within AGREE_SE standard errors; for one run, inside the stored range
    shared: int  # the learner's seeds that the table also has
    same: int  # … of which gave exactly the stored value

    @property
    def kind(self) -> str:
        """'agree' | 'differ' (two runs or more) or 'inside' | 'outside' (one run)."""
        if self.n == 1:
            return "inside" if self.agree else "outside"
        return "agree" if self.agree else "differ"


def agreement(
    values: dict[int, float], row: Row, seeds: Sequence[int], metric: str = "seq_acc",
    resolution: float = 0.0,
) -> Agreement | None:  # fmt: skip
    """The learner's ``values`` (seed → figure) beside ``row`` of a table over ``seeds``;
    None when there is nothing to compare (no finite run, or the row lacks the metric)."""
    if metric not in row.stats:
        return None
    mine = {s: v for s, v in values.items() if math.isfinite(v)}
    if not mine:
        return None
    ours, theirs = summarise(list(mine.values())), row.stats[metric]
    stored_by_seed = dict(zip(seeds, row.per_seed[metric], strict=True))
    shared = [s for s in mine if s in stored_by_seed]
    same = sum(mine[s] == stored_by_seed[s] for s in shared)
    diff = ours.mean - theirs.mean
    if ours.n == 1:
        se = math.nan
        agree = theirs.min - resolution <= ours.mean <= theirs.max + resolution
    else:
        se = max(math.sqrt(ours.sd**2 / ours.n + theirs.sd**2 / theirs.n), resolution)
        agree = abs(diff) <= AGREE_SE * se
    return Agreement(ours.n, ours.mean, ours.sd, theirs, diff, se, agree, len(shared), same)


def resolution(metric_name: str, length: int, eval_size: int) -> float:
    """The step of a metric: one held-out sequence, one letter, one row (0 for a weight)."""
    if metric_name == "seq_acc":
        return 1.0 / eval_size
    if metric_name == "pos_acc":
        return 1.0 / (eval_size * length)
    if metric_name in ("peaks", "left", "right"):
        return 1.0 / length
    return 0.0


def stored_row(table: Figures, config: TrainConfig) -> Row | None:
    """The stored row trained with these settings (seed, pace and evaluation aside), or None
    when the table has none: another variant, length, run length, or shared setting."""
    row = table.find(config.length, config.variant, config.feed, config.iters)
    shared = {name: getattr(config, name) for name in SHARED}
    if row is None or shared != {k: table.settings.get(k) for k in SHARED}:
        return None
    return row


def beside_table(
    table: Figures, config: TrainConfig, runs: Sequence, metric_name: str = "seq_acc"
) -> Agreement | None:
    """A learner's finished runs of ``config`` (any seeds) beside the stored row."""
    row = stored_row(table, config)
    if row is None:
        return None
    values = {r.config.seed: metric(r, metric_name) for r in runs}
    step = resolution(metric_name, config.length, config.eval_size)
    return agreement(values, row, table.seeds, metric_name, step)


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


def to_toml(
    settings: dict[str, object], seeds: Sequence[int], rows: Sequence[dict],
    made: dict[str, str] | None = None,
) -> str:  # fmt: skip
    """The whole file: a header saying where it comes from and where it was made,
    [settings], [made], then every row. ``made`` defaults to this process's machine."""
    made = machine().to_dict() if made is None else made
    out = [
        "# The trainer's own figures over several random seeds, one [[row]] per experiment.",
        "# Written by scripts/trainer_figures.py: do not edit by hand; rerun the script.",
        "# Read by attn_tui/core/models/figures.py (its docstring describes every field);",
        "# checked by tests/core/models/test_stored_seed_table.py (retrains runs, compares).",
        *made_header(made),
        "",
        "[settings]",
    ]
    out += [f"{key} = {_toml_value(value)}" for key, value in settings.items()]
    out.append(f"seeds = {_toml_value(list(seeds))}")
    out += made_table(made)
    for row in rows:
        out += ["", "[[row]]"]
        out += [
            f"{k} = {_toml_value(row[k])}"
            for k in ("id", "length", "variant", "feed", "iters", "params")
        ]
        out += measured_lines(row)
    return "\n".join(out) + "\n"


def made_header(made: dict[str, str]) -> list[str]:
    """Comment lines saying where a table was made, and what that means on another machine."""
    where = Machine(**made).label if made else "an unrecorded machine"
    return [
        f"# Made with {where}.",
        "# Another CPU's BLAS rounds the last bits its own way and float32 training amplifies",
        "# them, so a single seed can end elsewhere there; the spread over seeds is what holds",
        "# (tests/core/models/test_claims_on_two_kernels.py retrains them on two kernels).",
    ]


def made_table(made: dict[str, str]) -> list[str]:
    """The ``[made]`` table of a stored table (both stored tables write it)."""
    return ["", "[made]", *(f"{k} = {_toml_value(v)}" for k, v in made.items())]


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
