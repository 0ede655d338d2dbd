"""How the training screen shows each kind of model: one small class per model.

The screen, its settings form, its live panel and its tables are the same for every model;
what differs is asked of a :class:`ModelView`: which settings rows the model takes and how they
become its validated config, what F9/F10 vary (the RNN's attention, the Transformer's
positional encoding), its attention maps, the lines under its outcome, and its tables.

A new model is a subclass here and one entry in :data:`MODELS` (plus its label in the
catalogue, ``transformer.ui.model.<name>``, and its rows in ``settings.FIELDS``).

:class:`RunView` is what the live panel shows at one moment; the model's pieces draw from it.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace
from typing import Any, ClassVar

import numpy as np
from rich.console import Group, RenderableType

from attn_tui.core.models import figures as stored
from attn_tui.core.models import tasks
from attn_tui.core.models.ablation import weights_without
from attn_tui.core.models.loop import Outcome, RunResult, Snapshot
from attn_tui.core.models.phases import Phases
from attn_tui.core.models.trainer import (
    TrainConfig,
    compare_configs,
    default_iters,
    estimate_seconds,
)
from attn_tui.core.models.transformer_guide import blind_ceiling
from attn_tui.core.models.transformer_guide import guide_step as tf_guide_step
from attn_tui.core.models.transformer_trainer import TransformerConfig
from attn_tui.core.models.transformer_trainer import default_iters as tf_default_iters
from attn_tui.i18n import t
from attn_tui.render import induction
from attn_tui.render import trainer as rnn_render
from attn_tui.render import transformer as tf_render
from attn_tui.render.prose import Prose
from attn_tui.widgets.trainer.guide import guide_step

AnyConfig = TrainConfig | TransformerConfig


@dataclass(frozen=True)
class RunView:
    """What the live panel shows now: the run (or the settings F5 would train), where it is,
    how it ended, and how the learner asked to see it."""

    config: Any  # the model's config
    run_id: int = 0
    iteration: int = 0
    wall: float = math.nan  # seconds trained, pauses left out
    losses: np.ndarray | None = None
    snapshot: Snapshot | None = None  # the live one, or the timeline's frame
    activity: str = "idle"  # TrainingRun.activity
    pace: str = "watch"  # the run's: "watch", "fast" or "step"
    outcome: Outcome | None = None
    result: Any = None  # the model's RunResult, once the run has ended
    frame: int = -1  # the timeline's snapshot, after a run
    pair: tuple = ()  # F9's finished runs
    mean: bool = False  # the heatmap: held-out average, not the probe
    absolute: bool = True  # the heatmap's colours: 0–100 %, not its own range
    figures: stored.Figures | None = None
    saved_error: str = ""  # why a finished Transformer could not be kept for the lab
    phases: Phases | None = None  # the induction run's plateau and drop, as found so far
    ablated: bool = False  # the finished induction model with its previous-token head off

    @property
    def running(self) -> bool:
        return self.activity != "idle"

    def replace(self, **changes: Any) -> RunView:
        return replace(self, **changes)

    @property
    def scrubbing(self) -> bool:
        """A finished run's timeline is on show (the keys step through its snapshots)."""
        return (
            self.result is not None
            and not self.running
            and 0 <= self.frame < len(self.result.snapshots)
        )


class ModelView:
    """One kind of model, as the training screen shows it (override what differs)."""

    name: ClassVar[str]
    config_type: ClassVar[type]
    default: ClassVar[Any]  # the settings a fresh screen starts from
    # the settings rows that make its config, in the config's own names
    config_fields: ClassVar[tuple[str, ...]]
    varies: ClassVar[str]  # the setting F9 and F10 vary
    versus_field: ClassVar[str]  # the settings row naming what F9/F10 compare with
    # the iterations of a recipe that follows the length: a field showing one of them takes
    # the recipe's figure when the length is edited (none: the recipe ignores the length)
    iters_follow_length: ClassVar[tuple[str, ...]] = ()
    # settings of its config that no row shows, kept from the last fill() (a guide step's)
    hidden_fields: ClassVar[tuple[str, ...]] = ()

    # ---- settings -------------------------------------------------------------------------
    def make(self, values: dict[str, Any]) -> Any:
        """The validated config of these field values (text that is not a number stays
        text, and the config's own ``validate`` names the first fault: InputError)."""
        return self.config_type(**values).validate()

    def values(self, config: Any) -> dict[str, Any]:
        """The settings rows' values for ``config`` (the inverse of :meth:`make`)."""
        return {name: getattr(config, name) for name in self.config_fields}

    def default_iters(self, values: dict[str, str]) -> int:
        """The iterations this model's recipe starts from, given the settings' text."""
        return self.default.iters

    def starting(self, values: dict[str, str]) -> dict[str, str]:
        """The rows that follow the recipe, and the text each starts from, given the settings'
        text: a row still showing it takes the next recipe's when the model or task changes."""
        return {"iters": str(self.default_iters(values)), "lr": f"{self.default.lr:g}",
                "length": str(self.default.length)}  # fmt: skip

    def variant_of(self, config: Any) -> str:
        return getattr(config, self.varies)

    def with_variant(self, config: Any, variant: str) -> Any:
        return replace(config, **{self.varies: variant})

    def variant_label(self, variant: str) -> str:
        raise NotImplementedError

    def seed_configs(self, base: Any, seeds: tuple[int, ...], variants: tuple[str, ...]):
        """F10's runs: every variant at every seed."""
        return [replace(self.with_variant(base, v), seed=s) for s in seeds for v in variants]

    # ---- the live panel ---------------------------------------------------------------------
    def run_label(self, config: Any) -> str:
        raise NotImplementedError

    def heat_key(self, view: RunView) -> object:
        """Equal keys draw the same maps, so they are not drawn again."""
        raise NotImplementedError

    def render_heat(self, view: RunView) -> RenderableType:
        raise NotImplementedError

    def render_note(self, view: RunView) -> RenderableType:
        """The line under the figures: what they are measured on."""
        raise NotImplementedError

    def render_decode(self, view: RunView) -> RenderableType:
        """The held-out sample, decoded (the view has a snapshot)."""
        assert view.snapshot is not None
        return rnn_render.render_decode(view.snapshot.sample)

    def render_accuracy(self, view: RunView) -> RenderableType:
        """Held-out accuracy, whole and per position."""
        return rnn_render.render_accuracy(view.snapshot, view.config.eval_every)

    def follows_phases(self, config: Any) -> bool:
        """Whether the loss curve marks a plateau and a drop for runs of ``config``."""
        return False

    def outcome_lines(self, view: RunView) -> list[RenderableType]:
        """What the model adds under the outcome and the timeline (before a run: the intro)."""
        return []

    def guide_note(self, view: RunView) -> RenderableType | str:
        """Under the map, for a guided experiment (empty: none)."""
        return ""

    def pair_figures(self, result: Any) -> str:
        raise NotImplementedError

    # ---- the tables ---------------------------------------------------------------------------
    def render_session(self, results: list) -> RenderableType:
        raise NotImplementedError

    def render_multi(self, base, seeds, variants, runs, running, width, figures):
        raise NotImplementedError


class RnnView(ModelView):
    """The textbook's encoder–decoder RNN, with and without attention."""

    name = "rnn"
    config_type = TrainConfig
    default = TrainConfig(length=10, iters=default_iters(10)).with_variant("qk")
    config_fields = ("variant", "length", "feed", "iters", "seed", "lr", "batch")
    varies = "variant"
    versus_field = "versus"
    iters_follow_length = ("2000", "3000", "5000")  # 2000, 3000 from length 10, 5000 from 15

    def make(self, values: dict[str, Any]) -> TrainConfig:
        values = dict(values)
        variant = values.pop("variant")
        return TrainConfig(**values).with_variant(variant).validate()

    def default_iters(self, values: dict[str, str]) -> int:
        # the recipe: 2000 iterations, 3000 from length 10, 5000 from 15
        try:
            return default_iters(int(values["length"]))
        except ValueError:
            return self.default.iters

    def with_variant(self, config: TrainConfig, variant: str) -> TrainConfig:
        return config.with_variant(variant)

    def variant_label(self, variant: str) -> str:
        return rnn_render.variant_name(variant)

    def seed_configs(self, base, seeds, variants):
        return compare_configs(base, seeds, variants)

    def run_label(self, config: TrainConfig) -> str:
        return rnn_render.run_label(config)

    def heat_key(self, view: RunView) -> object:
        return rnn_render.heat_key(view.snapshot, view.mean)

    def render_heat(self, view: RunView) -> RenderableType:
        return rnn_render.render_attention(view.snapshot, view.config, view.mean, view.absolute)

    def render_note(self, view: RunView) -> RenderableType:
        return rnn_render.render_note(view.snapshot)

    def outcome_lines(self, view: RunView) -> list[RenderableType]:
        cfg, lines = view.config, []
        step = guide_step(cfg)
        if step is not None and view.outcome is None:  # what to look at, above the map
            lines.append(Prose(t(step.text), "cyan"))
        if view.outcome is None and not view.running:
            intro = t("train.ui.intro", length=cfg.length, variant=rnn_render.variant_name(
                cfg.variant), params=cfg.n_params, about=about(cfg))  # fmt: skip
            lines.append(Prose(intro, "dim"))
            if step is None and view.figures is not None:
                row = view.figures.find(cfg.length, cfg.variant, cfg.feed, cfg.iters)
                line = rnn_render.stored_line(row, len(view.figures.seeds))
                if line:
                    lines.append(Prose(line, "dim"))
        return lines

    def guide_note(self, view: RunView) -> RenderableType | str:
        """The stored multi-seed figures beside the book's run (and, once the run is over,
        the sentence saying what to look at)."""
        cfg, figures = view.config, view.figures
        step = guide_step(cfg)
        if step is None:
            return ""
        row = figures.find(cfg.length, cfg.variant, cfg.feed, cfg.iters) if figures else None
        sentence = t(step.text) if view.outcome is not None else ""
        result = None if view.running else view.result  # (set beside the seeds once over)
        return rnn_render.render_guide_note(sentence, row, figures, cfg, result)

    def pair_figures(self, result: RunResult) -> str:
        line = t("train.ui.pair_whole", variant=rnn_render.variant_name(result.config.variant),
                 whole=f"{result.seq_acc:.3f}")  # fmt: skip
        if result.alignment is not None:
            line += t("train.ui.pair_weight", weight=f"{result.alignment.weight:.2f}")
        return line

    def render_session(self, results: list) -> RenderableType:
        return rnn_render.render_session(results)

    def render_multi(self, base, seeds, variants, runs, running, width, figures):
        return rnn_render.render_multi(base, seeds, variants, runs, running, width, figures)


class TransformerView(ModelView):
    """The tiny Transformer: a map per head of every layer, two tasks, positions on or off."""

    name = "transformer"
    config_type = TransformerConfig
    default = TransformerConfig()
    config_fields = ("task", "length", "positions", "layers", "heads", "d_model", "iters",
                     "seed", "lr", "batch")  # fmt: skip
    varies = "positions"
    versus_field = "tf-versus"
    hidden_fields = ("causal",)  # the guide's fifth step masks; no row of its own

    def default_iters(self, values: dict[str, str]) -> int:
        return tf_default_iters(values["task"])  # (its recipe does not depend on the length)

    # the rows a task's own recipe sets (TASK_DEFAULTS: the induction run's length 32, two
    # layers, d_model 32, lr 0.003, batch 32; the block task's length 12)
    RECIPE_ROWS = ("iters", "lr", "length", "layers", "heads", "d_model", "batch")

    def starting(self, values: dict[str, str]) -> dict[str, str]:
        task = values["task"] if values["task"] in tasks.TASKS else self.default.task
        config = TransformerConfig.for_task(task)
        return {name: _text(getattr(config, name)) for name in self.RECIPE_ROWS}

    def make(self, values: dict[str, Any]) -> TransformerConfig:
        """The task's recipe (``for_task``) for what no row shows — the induction run's mask,
        its attention-only layers and its held-out set of 500 — then the rows."""
        values = dict(values)
        task = values.pop("task", None)
        if task == "induction":
            values.pop("causal", None)  # the task predicts the next token: always masked
        if task in tasks.TASKS:
            return TransformerConfig.for_task(task, **values).validate()
        return TransformerConfig(task=task, **values).validate()  # (it names the bad task)

    def variant_label(self, variant: str) -> str:
        return tf_render.positions_name(variant)

    def run_label(self, config: TransformerConfig) -> str:
        return tf_render.run_label(config)

    def heat_key(self, view: RunView) -> object:
        return tf_render.heads_key(view.snapshot, view.mean), self._ablation(view) is not None

    def render_heat(self, view: RunView) -> RenderableType:
        if view.config.task != "induction":
            return tf_render.render_heads(view.snapshot, view.config, view.mean, view.absolute)
        snap = view.snapshot
        if snap is None:
            return Prose(t("train.ui.heat_wait"), "dim")
        ablation = self._ablation(view)
        if ablation is not None:
            weights = weights_without(view.result.model, ablation.off, np.array(snap.probe.x))
        else:
            weights = tf_render.shown_heads(snap, view.mean)
        mean = view.mean and ablation is None
        maps = induction.LayerMaps(weights, snap.heads, ablation)
        if ablation is not None:  # (the ablation's table says what changed)
            return Group(Prose(induction.probe_title(snap, mean), "bold"), maps)
        return Group(Prose(induction.probe_title(snap, mean), "bold"), maps,
                     induction.render_head_table(snap.heads))  # fmt: skip

    @staticmethod
    def _ablation(view: RunView):
        """The finished run's ablation, when the learner switched its head off (a)."""
        result = view.result
        if not view.ablated or result is None or getattr(result, "ablation", None) is None:
            return None
        return result.ablation if result.model is not None else None

    def render_decode(self, view: RunView) -> RenderableType:
        assert view.snapshot is not None
        if view.config.task == "induction":
            return induction.render_decode(view.snapshot.sample)
        return rnn_render.render_decode(view.snapshot.sample)

    def render_accuracy(self, view: RunView) -> RenderableType:
        if view.config.task == "induction":
            return induction.render_accuracy(view.snapshot, view.config.eval_every)
        return rnn_render.render_accuracy(view.snapshot, view.config.eval_every)

    def follows_phases(self, config: TransformerConfig) -> bool:
        return config.task == "induction"  # (the rule was chosen on this run's curves)

    def render_note(self, view: RunView) -> RenderableType:
        n = view.snapshot.n_eval if view.snapshot else 1000
        return Prose(t("transformer.held_out_note", n=n), "italic dim")

    def outcome_lines(self, view: RunView) -> list[RenderableType]:
        lines: list[RenderableType] = []
        finished = view.outcome is not None and view.outcome.kind == "finished"
        if view.result is not None and finished and not view.running:
            lines.append(tf_render.render_blind(view.result))
            if view.saved_error:
                lines.append(Prose(t("transformer.ui.not_saved", reason=view.saved_error),
                                   "yellow"))  # fmt: skip
            else:
                lines.append(Prose(t("transformer.ui.open_lab"), "cyan"))
            if getattr(view.result, "ablation", None) is not None and not view.ablated:
                lines.append(Prose(t("induction.ablation_hint"), "cyan"))
        if view.outcome is None and not view.running:
            lines.append(Prose(tf_render.intro(view.config), "dim"))
        return lines

    def guide_note(self, view: RunView) -> RenderableType | str:
        """Once a guide step has run: what to look at (step 2 against the blind ceiling)."""
        step = tf_guide_step(view.config)
        if step is None or view.outcome is None:
            return ""
        ceiling = f"{blind_ceiling(view.config):.2f}"
        return Prose(t(step.text, ceiling=ceiling), "italic")

    def pair_figures(self, result) -> str:
        if result.config.task == "induction":
            return t("induction.pair", copy=f"{result.pos_acc:.3f}",
                     positions=tf_render.positions_name(result.config.positions))  # fmt: skip
        return t("transformer.ui.pair_whole", whole=f"{result.seq_acc:.3f}",
                 positions=tf_render.positions_name(result.config.positions))  # fmt: skip

    def render_session(self, results: list) -> RenderableType:
        return tf_render.render_session(results)

    def render_multi(self, base, seeds, variants, runs, running, width, figures):
        return tf_render.render_multi(base, seeds, variants, runs, running, width)


MODELS: dict[str, ModelView] = {view.name: view for view in (RnnView(), TransformerView())}


def view_of(config: Any) -> ModelView:
    """The model a config belongs to."""
    for view in MODELS.values():
        if isinstance(config, view.config_type):
            return view
    raise TypeError(f"no model view for {type(config).__name__}")


def _text(value: Any) -> str:
    """A setting as its row shows it."""
    return f"{value:g}" if isinstance(value, float) else str(value)


def about(cfg: TrainConfig) -> str:
    """About how long a run takes here ('about 12 s', 'about 3 min')."""
    seconds = estimate_seconds(cfg)
    return t("train.about_s", n=max(1, round(seconds))) if seconds < 90 else t(
        "train.about_min", n=round(seconds / 60))  # fmt: skip


def outcome_text(view: RunView) -> RenderableType:
    """How the run ended, the timeline's position, F9's pair, then the model's own lines."""
    parts: list[RenderableType] = []
    if view.outcome is not None:
        style = {"finished": "green", "stopped": "yellow"}.get(view.outcome.kind, "bold red")
        parts.append(Prose(t(view.outcome.code, **view.outcome.params), style))
    if view.result is not None and not view.running and view.result.snapshots:
        snaps = view.result.snapshots
        k = min(max(view.frame, 0), len(snaps) - 1)
        parts.append(Prose(t("train.ui.timeline", k=k + 1, n=len(snaps),
                             iteration=snaps[k].iteration), "cyan"))  # fmt: skip
    if len(view.pair) == 2 and not view.running:
        a, b = view.pair
        line = t("train.ui.pair", seed=a.config.seed, a=view_of(a.config).pair_figures(a),
                 b=view_of(b.config).pair_figures(b))  # fmt: skip
        parts.append(Prose(line, "bold"))
    parts += view_of(view.config).outcome_lines(view)
    return Group(*parts)
