"""The training screen: train the reversal model live and compare its variants.

"model" chooses the RNN (an encoder–decoder with attention) or the tiny Transformer
(``core.models.transformer_trainer``): the same child process, progress, loss, held-out
accuracy and F9/F10 comparisons (over positional encodings for the Transformer), with a map
per head of every layer (``widgets.transformer_panels``). A finished Transformer is kept in the
data directory as the last one trained, which ctrl+o opens in the lab.

Settings and a short guided comparison on the left; on the right either the live run
(progress, the attention heatmap, held-out accuracy, a sample decode, the loss curve) or the
tables (runs finished this session beside the book's single run, and the multi-seed view).

The defaults are chosen so that F5 on a fresh screen shows something: q·k attention at
length 10, at the watchable pace, grows a crisp reversal diagonal in a few seconds. The book's
own model (dot-product scores) is one key away (ctrl+t, or 2 in the guide).

Training runs in a child process (``attn_tui.core.models.processes.LiveRun``), so drawing never
takes time from it; a thread worker relays its reports as messages and never touches a
widget. The screen redraws at most FRAME times a second, however fast reports arrive, and
draws the heatmap again only when its shown numbers change. Pause, single steps and stop are
commands down the pipe; leaving the screen or quitting kills the child at once. F10 spreads
its seeds over a process pool (``pool_runs``) that Esc terminates as a whole.
"""

from __future__ import annotations

import math
import time
from dataclasses import dataclass, fields, replace

import numpy as np
from rich.console import Group
from rich.table import Table
from rich.text import Text
from textual import on, work
from textual.app import ComposeResult
from textual.binding import ActiveBinding, Binding
from textual.containers import Horizontal, VerticalScroll
from textual.message import Message
from textual.reactive import reactive
from textual.widgets import ContentSwitcher, Footer, Input, OptionList, Select, Static
from textual.widgets.option_list import Option
from textual.worker import Worker, WorkerState, get_current_worker

from attn_tui import paths
from attn_tui.core.models import figures as stored
from attn_tui.core.models import transformer_file
from attn_tui.core.models.loop import Outcome, RunResult, Snapshot
from attn_tui.core.models.processes import (
    LiveRun,
    Update,
    default_workers,
    pool_runs,
    warm_up,
)
from attn_tui.core.models.trainer import (
    MAX_BATCH,
    MAX_ITERS,
    MAX_LENGTH,
    MIN_LENGTH,
    TrainConfig,
    compare_configs,
    default_iters,
    estimate_seconds,
)
from attn_tui.core.models.transformer_guide import TF_GUIDE
from attn_tui.core.models.transformer_guide import blind_ceiling as blind_ceiling_of
from attn_tui.core.models.transformer_guide import guide_step as tf_guide_step
from attn_tui.core.models.transformer_trainer import (
    MAX_D_MODEL,
    MAX_HEADS,
    MAX_LAYERS,
    MIN_D_MODEL,
    TASKS,
    TransformerConfig,
)
from attn_tui.core.models.transformer_trainer import default_iters as tf_default_iters
from attn_tui.core.parse import InputError
from attn_tui.i18n import describe, get_lang, t
from attn_tui.screens.base import TutorScreen, tr
from attn_tui.widgets import transformer_panels as tf_panels
from attn_tui.widgets.fields import say
from attn_tui.widgets.loss_curve import LossCurve
from attn_tui.widgets.prose import Prose
from attn_tui.widgets.train_panels import (
    heat_key,
    render_accuracy,
    render_attention,
    render_decode,
    render_guide_note,
    render_multi,
    render_note,
    render_progress,
    render_session,
    run_label,
    stored_line,
    variant_name,
)

FRAME = 1 / 12  # at most this often a redraw while training, however fast reports arrive
SNAPSHOT_FRAME = 1 / 4  # at full speed, the heatmap and accuracy at most this often
MAX_SEEDS = 50
TALL = 34  # from this many rows the loss curve is drawn twice as tall
WIDE = 116  # from this many columns the footer has room for every key
PACES = ("watch", "fast", "step")
SHOWN_OPTIONS = ("qk", "general", "dot", "none")  # the variant menus, learned scores first
EXTRA_KEYS = ("f3", "f8", "f9", "f10")  # in the footer only when it is wide
INT_FIELDS = {  # field → (InputError code, extra params) for text that is not a whole number
    "length": ("train.bad_length", {"lo": MIN_LENGTH, "hi": MAX_LENGTH}),
    "iters": ("train.bad_iters", {"hi": MAX_ITERS}),
    "seed": ("train.bad_seed", {}),
    "batch": ("train.bad_batch", {"hi": MAX_BATCH}),
}
DEFAULT = TrainConfig(length=10, iters=default_iters(10)).with_variant("qk")
MODELS = ("rnn", "transformer")
TF_INT_FIELDS = {  # the Transformer's whole-number fields → (InputError code, extra params)
    "length": ("train.bad_length", {"lo": MIN_LENGTH, "hi": MAX_LENGTH}),
    "layers": ("transformer.bad_layers", {"lo": 1, "hi": MAX_LAYERS}),
    "heads": ("transformer.bad_heads", {"lo": 1, "hi": MAX_HEADS}),
    "d_model": ("transformer.bad_d_model", {"lo": MIN_D_MODEL, "hi": MAX_D_MODEL}),
    "iters": ("train.bad_iters", {"hi": MAX_ITERS}),
    "seed": ("train.bad_seed", {}),
    "batch": ("train.bad_batch", {"hi": MAX_BATCH}),
}
TF_DEFAULT = TransformerConfig()

AnyConfig = TrainConfig | TransformerConfig


def is_tf(config: object) -> bool:
    return isinstance(config, TransformerConfig)


def variant_of(config: AnyConfig) -> str:
    """What F9 and F10 vary: the RNN's attention, or the Transformer's positional encoding."""
    return config.positions if isinstance(config, TransformerConfig) else config.variant


def with_variant(config: AnyConfig, variant: str) -> AnyConfig:
    if isinstance(config, TransformerConfig):
        return replace(config, positions=variant)
    return config.with_variant(variant)


def variant_label(config: AnyConfig, variant: str) -> str:
    return tf_panels.positions_name(variant) if is_tf(config) else variant_name(variant)


@dataclass(frozen=True)
class GuideStep:
    """One step of the guided comparison: an experiment of the stored table, what it is
    compared with (F9 / F10), and the sentence that says what to look at."""

    experiment: stored.Experiment
    versus: str
    text: str  # catalogue key of the sentence


GUIDE = (
    GuideStep(stored.Experiment(10, "qk"), "dot", "train.guide.qk10"),
    GuideStep(stored.Experiment(10, "dot"), "qk", "train.guide.dot10"),
    GuideStep(stored.Experiment(10, "none"), "dot", "train.guide.none10"),
    GuideStep(stored.Experiment(20, "qk", "none"), "none", "train.guide.qk20"),
    GuideStep(stored.Experiment(20, "none", "none"), "qk", "train.guide.none20"),
)


def guide_step(config: TrainConfig) -> GuideStep | None:
    """The guide step these settings are (seed, pace and evaluation aside), if any."""
    for step in GUIDE:
        e = step.experiment.config()
        if replace(config, seed=0, eval_every=e.eval_every) == e:
            return step
    return None


def load_figures() -> stored.Figures | None:
    try:
        return stored.load()
    except (OSError, ValueError, KeyError, TypeError):  # a broken install: figures not shown
        return None


class LivePanel(VerticalScroll, can_focus=True):
    """The live run; focusable so that ← → and [ ] scrub the timeline."""

    BINDINGS = [
        Binding("left,left_square_bracket", "screen.earlier", "train.key.earlier", show=False),
        Binding("right,right_square_bracket", "screen.later", "train.key.later", show=False),
    ]


class TrainerScreen(TutorScreen):
    CSS_PATH = "trainer.tcss"
    HELP = (
        ("train.ui.settings", "train.ui.help.settings"),
        ("train.ui.settings", "transformer.ui.help.model"),
        ("train.ui.guide", "train.ui.help.guide"),
        ("train.ui.live", "train.ui.help.live"),
        ("train.ui.live", "train.ui.help.heatmap"),
        ("train.ui.live", "train.ui.help.timeline"),
        ("train.ui.compare_view", "train.ui.help.compare"),
    )
    BINDINGS = [
        Binding("f5", "start", "train.key.start"),
        Binding("f6", "pause", "train.key.pause"),
        Binding("f7", "stop", "train.key.stop"),
        Binding("f8", "step", "train.key.step", show=False),
        Binding("f9", "compare", "train.key.compare", show=False),
        Binding("f10", "seeds", "train.key.seeds", show=False),
        Binding("f4", "toggle_view", "train.key.view"),
        Binding("f3", "toggle_mean", "train.key.mean", show=False),
        Binding("ctrl+r", "toggle_scale", "train.key.scale", show=False),
        Binding("ctrl+t", "book_model", "train.key.book", show=False),
        Binding("ctrl+o", "open_lab", "transformer.ui.key.lab", show=False),
        *(
            Binding(str(k + 1), f"guide({k})", "train.key.guide", show=False)
            for k in range(len(GUIDE))
        ),  # fmt: skip
        # PgUp/PgDn reach the timeline (or scroll the tables) from anywhere
        Binding("pageup", "earlier", "train.key.earlier", show=False, priority=True),
        Binding("pagedown", "later", "train.key.later", show=False, priority=True),
    ]

    frame: reactive[int] = reactive(-1, init=False)
    mean: reactive[bool] = reactive(False, init=False)  # heatmap: held-out average, not the probe
    absolute: reactive[bool] = reactive(True, init=False)  # heatmap colours: 0–1, not own range

    # ---- messages from the worker ---------------------------------------------------------
    class Begin(Message):
        def __init__(self, run_id: int, config: TrainConfig) -> None:
            super().__init__()
            self.run_id, self.config = run_id, config

    class Progressed(Message):
        def __init__(self, run_id: int, update: Update) -> None:
            super().__init__()
            self.run_id, self.update = run_id, update

    class Done(Message):
        def __init__(self, run_id: int, result: RunResult) -> None:
            super().__init__()
            self.run_id, self.result = run_id, result

    class SeedRun(Message):
        def __init__(self, run_id: int, result: RunResult) -> None:
            super().__init__()
            self.run_id, self.result = run_id, result

    def __init__(self) -> None:
        super().__init__()
        # what the live panel shows
        self.config = DEFAULT
        self.chunks: list[np.ndarray] = []
        self.snapshot: Snapshot | None = None
        self.iteration = 0
        self.wall = math.nan
        self.state = ""
        self.outcome: Outcome | None = None
        self.result: RunResult | None = None
        self.pair: list[RunResult] = []  # F9's runs, for the line comparing them
        # what the tables show
        self.session: list[RunResult] = []
        self.tf_session: list = []  # the Transformer's finished runs (its own RunResult)
        self.saved_error = ""  # why the last Transformer could not be kept for the lab
        self.multi_base: TrainConfig | None = None
        self.multi_variants: tuple[str, ...] = ()
        self.multi_seeds: tuple[int, ...] = ()
        self.multi_runs: dict[str, list[RunResult]] = {}
        self.multi_running = False
        self.figures = load_figures()
        # talking to the worker and its child process
        self.worker: Worker | None = None
        self.live: LiveRun | None = None
        self.run_id = 0
        self.stop_flag = False
        self.paused = False
        self.pace = "watch"
        self.tf_causal = False  # the Transformer guide's causal-mask step
        # drawing
        self._drawn: tuple = ()  # what the snapshot panels show, to skip redrawing the same
        self._heat_drawn: tuple = ()
        self._words_drawn: tuple = ()
        self._snap_drawn_at = 0.0
        self._last_draw = 0.0
        self._draw_pending = False
        self._wide: bool | None = None

    # ---- layout -------------------------------------------------------------------------
    def compose(self) -> ComposeResult:
        cfg = DEFAULT
        with Horizontal(id="train"):
            with VerticalScroll(id="train-settings") as settings:
                tr(settings, "train.ui.settings", "border_title")
                tf = TF_DEFAULT
                rows = (  # field, options, value, label key ("" = train.ui.field), classes
                    ("model", self._model_options(), "rnn", "transformer.ui.model", "model-row"),
                    ("variant", self._variant_options(), cfg.variant, "", "rnn-only"),
                    ("task", self._task_options(), tf.task, "transformer.ui.task", "tf-only"),
                    ("length", None, cfg.length, "", ""),
                    ("feed", self._feed_options(), cfg.feed, "", "rnn-only"),
                    ("positions", self._positions_options(), tf.positions,
                     "transformer.ui.positions", "tf-only"),
                    *((f, None, getattr(tf, f), f"transformer.ui.{f}", "tf-only")
                      for f in ("layers", "heads", "d_model")),
                )  # fmt: skip
                for field, options, value, label, classes in rows:
                    if options is None:
                        yield from self._input_row(field, value, label, classes)
                    else:
                        yield from self._select_row(field, options, str(value), label, classes)
                for field, value in (("iters", cfg.iters), ("seed", cfg.seed), ("lr", cfg.lr),
                                     ("batch", cfg.batch)):  # fmt: skip
                    yield from self._input_row(field, value)
                yield from self._select_row("pace", self._pace_options(), "watch")
                yield from self._select_row("versus", self._variant_options(), "dot", "",
                                            "rnn-only")  # fmt: skip
                yield from self._select_row("tf-versus", self._positions_options(), "none",
                                            "train.ui.versus", "tf-only")  # fmt: skip
                yield from self._input_row("seeds", 10)
                yield Static(id="train-error", classes="error")
                yield Static(self._guide_title(), id="guide-title", classes="muted")
                yield OptionList(*self._guide_options(), id="guide", compact=True)
            with ContentSwitcher(initial="live", id="train-right"):
                with LivePanel(id="live") as live:
                    tr(live, "train.ui.live", "border_title")
                    yield Static(id="progress")
                    yield Static(id="outcome")
                    # the heatmap first: at 80×24 it is what fits above the fold; then what
                    # a guided experiment asks the learner to look at
                    yield Static(id="heat", classes="run-only")
                    yield Static(id="guide-note")
                    yield Static(id="accuracy", classes="run-only")
                    yield Static(id="decode", classes="run-only")
                    yield Static(id="loss", classes="run-only")
                    yield Static(id="note", classes="run-only")
                with VerticalScroll(id="tables") as tables:
                    tr(tables, "train.ui.compare_view", "border_title")
                    yield Static(id="session")
                    yield Static(id="multi")
        yield Footer(show_command_palette=False)

    def _input_row(
        self, field: str, value: object, label: str = "", classes: str = ""
    ) -> ComposeResult:
        with Horizontal(classes=f"row {classes}"):
            yield tr(Static(classes="inline-label"), label or f"train.ui.{field}")
            kind = "number" if field == "lr" else "integer"
            yield Input(f"{value:g}" if isinstance(value, float) else str(value), id=field,
                        compact=True, type=kind)  # fmt: skip

    def _select_row(
        self, field: str, options: list[tuple[str, str]], value: str, label: str = "",
        classes: str = "",
    ) -> ComposeResult:  # fmt: skip
        with Horizontal(classes=f"row {classes}"):
            yield tr(Static(classes="inline-label"), label or f"train.ui.{field}")
            yield Select(options, id=field, compact=True, allow_blank=False, value=value)

    def _variant_options(self) -> list[tuple[str, str]]:
        return [(t(f"train.ui.variant.{v}"), v) for v in SHOWN_OPTIONS]

    def _model_options(self) -> list[tuple[str, str]]:
        return [(t(f"transformer.ui.model.{m}"), m) for m in MODELS]

    def _task_options(self) -> list[tuple[str, str]]:
        return [(t(f"transformer.task.{k}"), k) for k in TASKS]

    def _positions_options(self) -> list[tuple[str, str]]:
        return [(tf_panels.positions_name(p), p) for p in tf_panels.POSITIONS_SHOWN]

    def _feed_options(self) -> list[tuple[str, str]]:
        return [(t(f"train.ui.feed.{f}"), f) for f in ("previous", "none")]

    def _pace_options(self) -> list[tuple[str, str]]:
        return [(t(f"train.ui.pace.{p}"), p) for p in PACES]

    def _guide_options(self) -> list[Option]:
        """One line per guide step: its name, and this app's mean whole-sequence accuracy over
        the stored table's seeds, right-aligned (the Transformer's steps when it is chosen)."""
        if self.is_mounted and self.model == "transformer":
            return [Option(t(step.label), id=f"guide-{k}") for k, step in enumerate(TF_GUIDE)]
        options = []
        for k, step in enumerate(GUIDE):
            e = step.experiment
            label = t("train.ui.guide_item", k=k + 1, variant=t(f"train.ui.variant.{e.variant}"),
                      length=e.length)  # fmt: skip
            if e.feed == "none":
                label += t("train.ui.guide_nofeed")
            row = self.figures[e.id] if self.figures and e.id in self.figures.rows else None
            line = Table.grid(expand=True)
            line.add_column(ratio=1, no_wrap=True, overflow="ellipsis")
            line.add_column(justify="right", no_wrap=True)
            line.add_row(label, Text(f"{row.stats['seq_acc'].mean:.2f}" if row else "", "dim"))
            options.append(Option(line, id=f"guide-{k}"))
        return options

    def _guide_title(self) -> Table:
        title = Table.grid(expand=True)
        title.add_column(ratio=1, no_wrap=True, overflow="ellipsis")
        title.add_column(justify="right", no_wrap=True)
        title.add_row(t("train.ui.guide_title"), t("train.ui.guide_figure"))
        return title

    def on_mount(self) -> None:
        super().on_mount()
        # the child processes' server starts while the learner reads the screen
        self.run_worker(warm_up, thread=True, exit_on_error=False, group="warm-up")
        self._shown_defaults = self._defaults()
        self.config = self._settings_or_default()
        self.redraw()
        self.redraw_tables()
        self.query_one("#guide", OptionList).focus()  # so 1–5 and F5 work at once
        if getattr(self, "_course_preset", None):
            self._fill_preset(self._course_preset)

    # ---- a lesson's do-task: its preset in, what the screen shows out -------------------
    def apply_preset(self, preset: dict) -> None:
        """The settings a lesson's do-task opens with (``model`` rnn or transformer, and any
        TrainConfig / TransformerConfig field); filled in once the fields exist."""
        self._course_preset = dict(preset)
        if self.is_mounted:
            self._fill_preset(self._course_preset)

    def _fill_preset(self, preset: dict) -> None:
        settings = {k: v for k, v in preset.items() if k != "model"}
        if preset.get("model", "rnn") == "rnn":
            self.set_settings(TrainConfig(**settings))
        else:
            self.query_one("#model", Select).value = "transformer"
            cfg = TransformerConfig(**settings)
            for field in TF_INT_FIELDS:
                self.query_one(f"#{field}", Input).value = str(getattr(cfg, field))
            self.query_one("#lr", Input).value = f"{cfg.lr:g}"
            self.query_one("#task", Select).value = cfg.task
            self.query_one("#positions", Select).value = cfg.positions
        self.config = self._settings_or_default()
        self.redraw()

    def course_state(self):  # -> core.course.state.TrainState
        """The model and settings on show, whether a run is going (a paused one is not), the
        latest held-out snapshot and this visit's finished runs."""
        from attn_tui.core.course.state import TrainState

        model = "transformer" if is_tf(self.config) else "rnn"
        finished = self.tf_session if model == "transformer" else self.session
        return TrainState(model, self.config, self.running and not self.paused, self.iteration,
                          self.snapshot, tuple(finished))  # fmt: skip

    # ---- the footer: every key when there is room for it ---------------------------------
    @property
    def active_bindings(self) -> dict[str, ActiveBinding]:
        bindings = super().active_bindings
        if self.size.width < WIDE:
            return bindings
        shown = {}
        for key, active in bindings.items():
            if key in EXTRA_KEYS:
                active = active._replace(binding=replace(active.binding, show=True))
            shown[key] = active
        return shown

    def on_resize(self) -> None:
        wide = self.size.width >= WIDE
        if wide != self._wide:
            self._wide = wide
            self.refresh_bindings()  # (only when crossing WIDE: each refresh costs widgets)
        self._drawn, self._heat_drawn, self._words_drawn = (), (), ()
        self.redraw()
        self.redraw_tables()

    # ---- settings -----------------------------------------------------------------------
    @property
    def model(self) -> str:
        value = self.query_one("#model", Select).value
        return value if value in MODELS else "rnn"

    def read_settings(self) -> AnyConfig:
        """The settings as a validated config of the chosen model; raises InputError naming
        the first fault."""
        if self.model == "transformer":
            return self.read_tf_settings()
        values: dict[str, object] = {}
        for field, (code, params) in INT_FIELDS.items():
            text = self.query_one(f"#{field}", Input).value.strip()
            try:
                values[field] = int(text)
            except ValueError:
                raise InputError(code, value=text or "∅", **params) from None
        text = self.query_one("#lr", Input).value.strip()
        try:
            values["lr"] = float(text)
        except ValueError:
            raise InputError("train.bad_lr", value=text or "∅") from None
        feed = self.query_one("#feed", Select).value
        cfg = TrainConfig(feed=feed if isinstance(feed, str) else "previous", **values)  # type: ignore[arg-type]
        variant = self.query_one("#variant", Select).value
        return cfg.with_variant(variant if isinstance(variant, str) else "qk").validate()

    def read_tf_settings(self) -> TransformerConfig:
        values: dict[str, object] = {}
        for field, (code, params) in TF_INT_FIELDS.items():
            text = self.query_one(f"#{field}", Input).value.strip()
            try:
                values[field] = int(text)
            except ValueError:
                raise InputError(code, value=text or "∅", **{"lo": 1, **params}) from None
        text = self.query_one("#lr", Input).value.strip()
        try:
            values["lr"] = float(text)
        except ValueError:
            raise InputError("train.bad_lr", value=text or "∅") from None
        task, positions = (self.query_one(f"#{f}", Select).value for f in ("task", "positions"))
        return TransformerConfig(
            task=task if isinstance(task, str) else TF_DEFAULT.task,
            positions=positions if isinstance(positions, str) else TF_DEFAULT.positions,
            causal=self.tf_causal,  # set by the guide's fifth step, no field of its own
            **values,  # type: ignore[arg-type]
        ).validate()

    def read_versus(self) -> str:
        if self.model == "transformer":
            value = self.query_one("#tf-versus", Select).value
            return value if isinstance(value, str) else "none"
        value = self.query_one("#versus", Select).value
        return value if isinstance(value, str) else "dot"

    def read_seeds(self) -> tuple[int, ...]:
        text = self.query_one("#seeds", Input).value.strip()
        try:
            n = int(text)
        except ValueError:
            n = -1
        if not 1 <= n <= MAX_SEEDS:
            raise InputError("train.bad_seeds", value=text or "∅", hi=MAX_SEEDS)
        start = self.read_settings().seed
        return tuple(range(start, start + n))

    def _settings_or_default(self) -> TrainConfig:
        try:
            return self.read_settings()
        except InputError:
            return self.config

    def check_settings(self) -> bool:
        """Show the first fault under the settings (or clear it); True when all are usable."""
        error = self.query_one("#train-error", Static)
        try:
            self.read_settings()
            self.read_seeds()
        except InputError as err:
            say(error, describe(err), lambda text: Prose(text))
            return False
        say(error, "")
        return True

    def set_settings(self, config: TrainConfig, versus: str | None = None) -> None:
        """Fill the fields from ``config`` (a guide step, the book's model)."""
        self.query_one("#model", Select).value = "rnn"
        self.query_one("#variant", Select).value = config.variant
        self.query_one("#feed", Select).value = config.feed
        for field in ("length", "iters", "seed", "batch"):
            self.query_one(f"#{field}", Input).value = str(getattr(config, field))
        self.query_one("#lr", Input).value = f"{config.lr:g}"
        if versus is not None:
            self.query_one("#versus", Select).value = versus

    @on(Input.Changed)
    @on(Select.Changed)
    def _settings_changed(self, event: Message) -> None:
        if self.check_settings() and not self.running and self.result is None:
            self.config = self.read_settings()  # the idle panel describes what F5 would train
            self.redraw()

    def _defaults(self) -> tuple[str, str]:
        """The iterations and learning rate the chosen model and task start from."""
        if self.model == "transformer":
            task = self.query_one("#task", Select).value
            return str(tf_default_iters(str(task))), f"{TF_DEFAULT.lr:g}"
        try:
            length = int(self.query_one("#length", Input).value)
        except ValueError:
            length = DEFAULT.length
        return str(default_iters(length)), f"{DEFAULT.lr:g}"

    @on(Select.Changed, "#model")
    @on(Select.Changed, "#task")
    def _model_changed(self) -> None:
        """Show the chosen model's settings; a field still at the other model's (or task's)
        starting value takes this one's, a figure the learner typed stays."""
        self.set_class(self.model == "transformer", "-transformer")
        guide = self.query_one("#guide", OptionList)
        guide.clear_options()  # the chosen model's guide
        guide.add_options(self._guide_options())
        new = self._defaults()
        old = getattr(self, "_shown_defaults", new)
        for field, before, after in zip(("iters", "lr"), old, new, strict=True):
            box = self.query_one(f"#{field}", Input)
            if box.value.strip() == before:
                box.value = after
        self._shown_defaults = new

    @on(Input.Changed, "#length")
    def _length_changed(self, event: Input.Changed) -> None:
        # the recipe: 2000 iterations, 3000 from length 10, 5000 from 15 (only when the
        # learner has not typed their own figure)
        if self.model == "transformer":
            return  # its recipe does not depend on the length
        self._shown_defaults = self._defaults()
        iters = self.query_one("#iters", Input)
        try:
            length = int(event.value)
        except ValueError:
            return
        if iters.value in ("2000", "3000", "5000"):
            iters.value = str(default_iters(length))

    @on(OptionList.OptionSelected, "#guide")
    def _guide_chosen(self, event: OptionList.OptionSelected) -> None:
        self.action_guide(event.option_index)

    # ---- drawing ------------------------------------------------------------------------
    @property
    def running(self) -> bool:
        return self.worker is not None and self.worker.state in (
            WorkerState.PENDING,
            WorkerState.RUNNING,
        )

    def _shown_snapshot(self) -> tuple[Snapshot | None, np.ndarray]:
        """The snapshot and losses to draw: the live ones, or the timeline's frame."""
        if (
            self.result is not None
            and not self.running
            and 0 <= self.frame < len(self.result.snapshots)
        ):
            snap = self.result.snapshots[self.frame]
            return snap, self.result.losses[: snap.iteration]
        losses = np.concatenate(self.chunks) if self.chunks else np.empty(0)
        if len(self.chunks) > 1:
            self.chunks = [losses]  # keep one array, not thousands of small ones
        return self.snapshot, losses

    def request_redraw(self) -> None:
        """Redraw now, or at the next frame if one was drawn less than FRAME ago. A single
        step is drawn at once: its report answers a key press, and reports come no faster
        than the presses (the first one lands right after the run's start was drawn)."""
        if self._draw_pending:
            return
        wait = self._last_draw + FRAME - time.perf_counter()
        if wait <= 0 or (self.pace == "step" and self.running):
            self.redraw()
        else:
            self._draw_pending = True
            self.set_timer(wait, self._draw_frame)

    def _draw_frame(self) -> None:
        self._draw_pending = False
        self.redraw()

    def _eta(self, it_per_s: float) -> float | None:
        """Seconds left at the current pace; None when that means nothing (after a run, while
        paused, or when each step waits for a key)."""
        if not self.running or self.paused or self.pace == "step" or self.multi_running:
            return None
        return (self.config.iters - self.iteration) / it_per_s if it_per_s > 0 else math.nan

    def redraw(self) -> None:
        self._last_draw = time.perf_counter()
        if self.query_one(ContentSwitcher).current != "live":
            return  # not looked at: drawn when shown again
        cfg = self.config
        snap, losses = self._shown_snapshot()
        live = self.query_one("#live", LivePanel)
        tall = live.size.height >= TALL
        shown = self.running or self.outcome is not None
        for panel in self.query(".run-only"):
            panel.display = shown
        tf = isinstance(cfg, TransformerConfig)
        live.border_subtitle = tf_panels.run_label(cfg) if tf else run_label(cfg)
        it_per_s = self.iteration / self.wall if self.wall > 0 else math.nan
        width = max(min(live.size.width - 34, 30), 6)
        state, eta = self._state_text(), self._eta(it_per_s)
        progress = render_progress(cfg, self.iteration, state, it_per_s=it_per_s,
                                   elapsed=self.wall, eta=eta, width=width)  # fmt: skip
        self._paint_counted("#progress", progress)
        title = Text(t("train.ui.loss_title"), "bold", no_wrap=True, overflow="ellipsis")
        if len(losses):
            title.append("  " + t("train.ui.loss_now", loss=f"{losses[-1]:.4f}"), "dim")
        curve = LossCurve(losses, cfg.iters, height=6 if tall else 3)
        self._paint("#loss", Group(title, curve), (live.size.width, tall, get_lang()))
        # the snapshot panels change a few times a second at most: redraw them only then, so
        # progress updates stay cheap and keys are answered at once
        words = (self.run_id, cfg, get_lang(), len(self.pair), self.outcome, self.frame,
                 self.running)  # fmt: skip
        if words != self._words_drawn:  # what the run is and how it ended: rarely changes
            self._words_drawn = words
            self.query_one("#outcome", Static).update(self._outcome_text())
            note, guide = self._guide_text(), self.query_one("#guide-note", Static)
            guide.display = note != ""  # (empty, its margin would still leave a gap)
            guide.update(note)
        key = (self.run_id, snap.iteration if snap else None, cfg, get_lang(), self.frame)
        if self.running and self.pace == "fast" and self._drawn and (
            time.perf_counter() - self._snap_drawn_at < SNAPSHOT_FRAME
        ):  # fmt: skip
            return  # a full-speed run evaluates ~10 times a second: show ~4 of them
        if key != self._drawn:
            self._snap_drawn_at = time.perf_counter()
            self._drawn = key
            size = (live.size.width, get_lang(), snap is None)
            # (its first line can wrap as the iteration grows a digit: count its lines)
            self._paint_counted("#accuracy", render_accuracy(snap, cfg.eval_every))
            self._paint("#decode", render_decode(snap.sample) if snap else "", size)
            note = Prose(t("transformer.held_out_note", n=snap.n_eval if snap else 1000),
                         "italic dim") if tf else render_note(snap)  # fmt: skip
            self._paint("#note", note, size)
        # the heatmap: only when the numbers it shows (whole percents, peaks) change
        if isinstance(cfg, TransformerConfig):
            heat = (cfg, tf_panels.heads_key(snap, self.mean), self.mean, self.absolute,
                    get_lang())  # fmt: skip
            if heat != self._heat_drawn:
                self._heat_drawn = heat
                # (a legend can wrap differently as its figures change: count its lines)
                self._paint_counted("#heat", tf_panels.render_heads(snap, cfg, self.mean,
                                                                    self.absolute))  # fmt: skip
            return
        heat = (cfg, heat_key(snap, self.mean), self.mean, self.absolute, get_lang())
        if heat != self._heat_drawn:
            self._heat_drawn = heat
            self._paint_counted("#heat", render_attention(snap, cfg, self.mean, self.absolute))

    def _paint(self, selector: str, renderable, shape: tuple) -> None:
        """Update a panel, laying the screen out again only when ``shape`` (what decides the
        panel's height) changed: a layout reflows every widget on the screen and cost ~20×
        a repaint, twenty times a second while training."""
        widget = self.query_one(selector, Static)
        layout = widget.__dict__.get("_shape") != shape
        widget.__dict__["_shape"] = shape
        widget.update(renderable, layout=layout)

    def _paint_counted(self, selector: str, renderable) -> None:
        """Update a panel whose height follows its numbers (a figure one digit longer can wrap
        a line): count the lines it takes at its width, and lay the screen out only when that
        count changes. The width is the live panel's (its panels have no side padding): a
        panel shown for the first time in this redraw has not been laid out yet."""
        widget = self.query_one(selector, Static)
        width = self.query_one("#live").scrollable_content_region.width or max(
            widget.content_region.width, 1)  # fmt: skip
        console = self.app.console
        lines = len(console.render_lines(renderable, console.options.update_width(width),
                                         pad=False))  # fmt: skip
        if widget.__dict__.get("_lines") != lines:
            widget.__dict__["_lines"] = lines
            widget.styles.height = lines
        widget.update(renderable, layout=False)

    def _state_text(self) -> str:
        if self.multi_running:
            return ""
        if self.state == "stopping":
            return t("train.ui.state.stopping")
        if not self.running:
            return ""
        if self.paused:
            return t("train.ui.state.paused")
        if self.pace == "step":
            return t("train.ui.state.stepping")
        return t("train.ui.state.running")

    def _outcome_text(self):
        parts = []
        cfg = self.config
        if self.outcome is not None:
            style = {"finished": "green", "stopped": "yellow"}.get(self.outcome.kind, "bold red")
            parts.append(Prose(t(self.outcome.code, **self.outcome.params), style))
        if self.result is not None and not self.running and self.result.snapshots:
            snaps = self.result.snapshots
            k = min(max(self.frame, 0), len(snaps) - 1)
            parts.append(Prose(t("train.ui.timeline", k=k + 1, n=len(snaps),
                                 iteration=snaps[k].iteration), "cyan"))  # fmt: skip
        if len(self.pair) == 2 and not self.running:
            parts.append(Prose(self._pair_line(), "bold"))
        if isinstance(cfg, TransformerConfig):
            finished = self.result is not None and self.outcome is not None and (
                self.outcome.kind == "finished")  # fmt: skip
            if finished and not self.running:
                parts.append(tf_panels.render_blind(self.result))
                if self.saved_error:
                    parts.append(Prose(t("transformer.ui.not_saved", reason=self.saved_error),
                                       "yellow"))  # fmt: skip
                else:
                    parts.append(Prose(t("transformer.ui.open_lab"), "cyan"))
            if self.outcome is None and not self.running:
                parts.append(Prose(tf_panels.intro(cfg), "dim"))
            return Group(*parts)
        step = guide_step(cfg)
        if step is not None and self.outcome is None:  # what to look at, above the map
            parts.append(Prose(t(step.text), "cyan"))
        if self.outcome is None and not self.running:
            intro = t("train.ui.intro", length=cfg.length, variant=variant_name(cfg.variant),
                      params=cfg.n_params, about=self._about(cfg))  # fmt: skip
            parts.append(Prose(intro, "dim"))
            if step is None and self.figures is not None:
                row = self.figures.find(cfg.length, cfg.variant, cfg.feed, cfg.iters)
                line = stored_line(row, len(self.figures.seeds))
                if line:
                    parts.append(Prose(line, "dim"))
        return Group(*parts)

    def _guide_text(self):
        """Under the map, for a guided experiment: the stored multi-seed figures beside the
        book's run (and, once the run is over, the sentence saying what to look at)."""
        cfg = self.config
        if isinstance(cfg, TransformerConfig):
            tf_step = tf_guide_step(cfg)
            if tf_step is None or self.outcome is None:
                return ""
            ceiling = f"{blind_ceiling_of(cfg):.2f}"
            return Prose(t(tf_step.text, ceiling=ceiling), "italic")
        step = guide_step(cfg)
        if step is None:
            return ""
        row = self.figures.find(cfg.length, cfg.variant, cfg.feed, cfg.iters) if (
            self.figures) else None  # fmt: skip
        sentence = t(step.text) if self.outcome is not None else ""
        return render_guide_note(sentence, row, self.figures, cfg)

    def _pair_line(self) -> str:
        def figures(r) -> str:
            if isinstance(r.config, TransformerConfig):
                return t("transformer.ui.pair_whole", whole=f"{r.seq_acc:.3f}",
                         positions=tf_panels.positions_name(r.config.positions))  # fmt: skip
            line = t("train.ui.pair_whole", variant=variant_name(r.config.variant),
                     whole=f"{r.seq_acc:.3f}")  # fmt: skip
            if r.alignment is not None:
                line += t("train.ui.pair_weight", weight=f"{r.alignment.weight:.2f}")
            return line

        a, b = self.pair
        return t("train.ui.pair", seed=a.config.seed, a=figures(a), b=figures(b))

    @staticmethod
    def _about(cfg: TrainConfig) -> str:
        seconds = estimate_seconds(cfg)
        return t("train.about_s", n=max(1, round(seconds))) if seconds < 90 else t(
            "train.about_min", n=round(seconds / 60))  # fmt: skip

    def redraw_tables(self) -> None:
        if self.query_one(ContentSwitcher).current != "tables":
            return  # drawn when shown
        session = render_session(self.session)
        if self.tf_session:  # (the RNN's table only when it has runs too)
            tf_session = tf_panels.render_session(self.tf_session)
            session = Group(session, Text(""), tf_session) if self.session else tf_session
        self.query_one("#session", Static).update(session)
        width = max(self.query_one("#tables").size.width - 4, 40)
        if self.multi_base is None:
            try:
                base, seeds = self.read_settings(), self.read_seeds()
                variants = (self.read_versus(), variant_of(base))
            except InputError:
                base, seeds, variants = self.config, tuple(range(10)), ("dot", "qk")
            runs: dict[str, list[RunResult]] = {}
        else:
            base, seeds = self.multi_base, self.multi_seeds
            variants, runs = self.multi_variants, self.multi_runs
        if isinstance(base, TransformerConfig):
            multi = tf_panels.render_multi(base, seeds, variants, runs, self.multi_running, width)
        else:
            multi = render_multi(base, seeds, variants, runs, self.multi_running, width,
                                 self.figures)  # fmt: skip
        self.query_one("#multi", Static).update(multi)

    def relocalize(self) -> None:
        for field, options in (("variant", self._variant_options()),
                               ("feed", self._feed_options()), ("pace", self._pace_options()),
                               ("versus", self._variant_options()),
                               ("model", self._model_options()), ("task", self._task_options()),
                               ("positions", self._positions_options()),
                               ("tf-versus", self._positions_options())):  # fmt: skip
            relabel(self.query_one(f"#{field}", Select), options)
        self.query_one("#guide-title", Static).update(self._guide_title())
        guide = self.query_one("#guide", OptionList)
        highlighted = guide.highlighted
        guide.clear_options()
        guide.add_options(self._guide_options())
        guide.highlighted = highlighted
        self.check_settings()
        self._drawn, self._heat_drawn, self._words_drawn = (), (), ()
        self.redraw()
        self.redraw_tables()

    def watch_frame(self) -> None:
        self.redraw()

    def watch_mean(self) -> None:
        self.redraw()

    def watch_absolute(self) -> None:
        self.redraw()

    # ---- actions ------------------------------------------------------------------------
    def _begin(self) -> bool:
        """Refuse to start while a run is on or a setting is wrong; else reset the controls."""
        if self.running:
            self.notify(t("train.ui.busy"), severity="warning", timeout=3)
            return False
        if not self.check_settings():
            return False
        self.run_id += 1
        self.stop_flag = False
        self.paused = False
        self.state = ""
        value = self.query_one("#pace", Select).value
        self.pace = value if isinstance(value, str) else "watch"
        return True

    def _paced(self, cfg: TrainConfig) -> TrainConfig:
        """The run as this pace evaluates it: every step when stepping (the heatmap follows
        each press), ~60 times a run when watching. Evaluation never changes the training."""
        if self.pace == "step":
            return replace(cfg, eval_every=1)
        if self.pace == "watch":
            return replace(cfg, eval_every=max(10, cfg.iters // 60))
        return cfg

    def action_start(self) -> None:
        if self._begin():
            self.pair = []
            self.worker = self._train([self._paced(self.read_settings())], self.pace, self.run_id)

    def action_compare(self) -> None:
        """Two variants with the same seed, one after the other: the settings', and F9's."""
        if not self._begin():
            return
        cfg = self._paced(self.read_settings())
        versus = self.read_versus()
        if versus == variant_of(cfg):
            self.notify(t("train.ui.same_variant", variant=variant_label(cfg, versus)), timeout=4)
            return
        self.pair = []
        configs = [cfg, with_variant(cfg, versus)]
        self.worker = self._train(configs, self.pace, self.run_id)

    def action_seeds(self) -> None:
        if not self._begin():
            return
        base, versus = self.read_settings(), self.read_versus()
        if versus == variant_of(base):
            self.notify(t("train.ui.same_variant", variant=variant_label(base, versus)), timeout=4)
            return
        self.multi_base, self.multi_seeds = base, self.read_seeds()
        self.multi_variants = (versus, variant_of(base))
        self.multi_runs = {v: [] for v in self.multi_variants}
        self.multi_running = True
        self.show_view("tables")
        if isinstance(base, TransformerConfig):
            configs = [replace(base, positions=v, seed=s) for s in self.multi_seeds
                       for v in self.multi_variants]  # fmt: skip
        else:
            configs = compare_configs(base, self.multi_seeds, self.multi_variants)
        self.worker = self._seeds(configs, self.run_id)

    def action_pause(self) -> None:
        if not self.running or self.pace == "step" or self.multi_running or self.live is None:
            return
        self.paused = not self.paused
        self.live.send("pause" if self.paused else "resume")
        self.redraw()

    def action_stop(self) -> None:
        if not self.running:
            self.notify(t("train.ui.nothing"), timeout=2)
            return
        self.stop_flag = True
        self.state = "stopping"
        if self.live is not None:
            self.live.send("stop")
        self.redraw()

    def action_step(self) -> None:
        if self.running and self.pace == "step" and self.live is not None:
            self.live.send("step")
        elif not self.running:
            self.query_one("#pace", Select).value = "step"
            self.action_start()

    def action_guide(self, k: int) -> None:
        """Load guide step ``k`` into the settings and train it (the Transformer's when the
        Transformer is chosen: its five steps, each done in seconds at the watchable pace)."""
        if self.running:
            self.notify(t("train.ui.busy"), severity="warning", timeout=3)
            return
        if self.model == "transformer":
            cfg = replace(TF_GUIDE[k].config, seed=self._seed_or_zero())
            self._fill_preset({"model": "transformer", **{f.name: getattr(cfg, f.name)
                               for f in fields(cfg) if f.name != "causal"}})  # fmt: skip
            self.tf_causal = cfg.causal
            self.query_one("#pace", Select).value = "watch"
            self.query_one("#guide", OptionList).highlighted = k
            self.call_after_refresh(self.action_start)
            return
        self.tf_causal = False
        step = GUIDE[k]
        self.set_settings(step.experiment.config(self._seed_or_zero()), step.versus)
        self.query_one("#guide", OptionList).highlighted = k
        self.call_after_refresh(self.action_start)  # after the fields' Changed messages

    def _seed_or_zero(self) -> int:
        try:
            return int(self.query_one("#seed", Input).value)
        except ValueError:
            return 0

    def action_book_model(self) -> None:
        """The book's model: dot-product scores, the previous target fed (length kept)."""
        if self.running:
            return
        self.query_one("#model", Select).value = "rnn"
        self.query_one("#variant", Select).value = "dot"
        self.query_one("#feed", Select).value = "previous"
        if self.read_versus() == "dot":
            self.query_one("#versus", Select).value = "qk"
        self.notify(t("train.ui.book_loaded"), timeout=3)

    async def action_open_lab(self) -> None:
        """The lab, opened on the Transformer this screen trained last."""
        if self.running:
            self.notify(t("train.ui.busy"), severity="warning", timeout=3)
            return
        try:
            there = self._last_model_path().is_file()
        except InputError:
            there = False
        if not there:
            self.notify(t("transformer.ui.no_model"), timeout=5)
            return
        from attn_tui.screens.lab import LabScreen

        await self.app.switch_mode("lab")
        lab = self.app.screen
        if isinstance(lab, LabScreen):
            lab.open_trained_model()

    def show_view(self, view: str) -> None:
        """ "live" or "tables"; the tables take the whole width (the settings step aside) and
        the focus, so arrows and PgUp/PgDn scroll them at once."""
        self.query_one(ContentSwitcher).current = view
        self.query_one("#train-settings").display = view == "live"
        if view == "tables":
            self.query_one("#tables").focus()
            self.call_after_refresh(self.redraw_tables)
        else:
            self._drawn, self._heat_drawn, self._words_drawn = (), (), ()
            self.call_after_refresh(self.redraw)

    def action_toggle_view(self) -> None:
        self.show_view("tables" if self.query_one(ContentSwitcher).current == "live" else "live")

    def action_toggle_mean(self) -> None:
        self.mean = not self.mean

    def action_toggle_scale(self) -> None:
        self.absolute = not self.absolute

    def action_earlier(self) -> None:
        if self.query_one(ContentSwitcher).current == "tables":
            self.query_one("#tables", VerticalScroll).scroll_page_up()
        elif self.result is not None and not self.running and self.result.snapshots:
            self.frame = max(self.frame - 1, 0)

    def action_later(self) -> None:
        if self.query_one(ContentSwitcher).current == "tables":
            self.query_one("#tables", VerticalScroll).scroll_page_down()
        elif self.result is not None and not self.running and self.result.snapshots:
            self.frame = min(self.frame + 1, len(self.result.snapshots) - 1)

    # ---- the workers (threads: no widgets here, only messages) ----------------------------
    @work(thread=True, exclusive=True, exit_on_error=False, group="training")
    def _train(self, configs: list[TrainConfig], pace: str, run_id: int) -> None:
        worker = get_current_worker()
        for config in configs:
            if worker.is_cancelled or self.stop_flag:
                return
            live = self.live = LiveRun(config, pace)
            try:
                if self.stop_flag:  # stopped while the child was starting
                    live.send("stop")
                self.post_message(self.Begin(run_id, config))
                while not worker.is_cancelled:
                    if not live.poll(0.1):
                        continue
                    kind, payload = live.recv()
                    if kind == "update":
                        self.post_message(self.Progressed(run_id, payload))  # type: ignore[arg-type]
                    elif kind == "done":
                        self.post_message(self.Done(run_id, payload))  # type: ignore[arg-type]
                        break
                    else:  # the child failed: its message becomes the notification
                        raise RuntimeError(str(payload))
            except (EOFError, OSError, ValueError):  # the pipe closed: killed, or the child died
                if not (worker.is_cancelled or self.stop_flag):
                    raise RuntimeError(t("train.ui.child_died")) from None
                return
            finally:
                live.kill()

    @work(thread=True, exclusive=True, exit_on_error=False, group="training")
    def _seeds(self, configs: list[TrainConfig], run_id: int) -> None:
        worker = get_current_worker()

        def stop() -> bool:
            return worker.is_cancelled or self.stop_flag

        for result in pool_runs(configs, default_workers(len(configs)), should_stop=stop):
            self.post_message(self.SeedRun(run_id, result))

    # ---- handling the worker's messages -----------------------------------------------------
    @on(Begin)
    def _run_began(self, message: Begin) -> None:
        if message.run_id != self.run_id:
            return
        self.config = message.config
        self.chunks, self.snapshot, self.iteration, self.wall = [], None, 0, math.nan
        self.outcome, self.result, self.frame = None, None, -1
        self.paused = False
        if self.query_one(ContentSwitcher).current != "live":
            self.show_view("live")
        self.redraw()

    @on(Progressed)
    def _run_progressed(self, message: Progressed) -> None:
        if message.run_id != self.run_id:
            return
        update = message.update
        if len(update.losses):
            self.chunks.append(update.losses)
        if update.snapshot is not None:
            self.snapshot = update.snapshot
        self.iteration, self.wall = update.iteration, update.wall
        self.request_redraw()

    @on(Done)
    def _run_done(self, message: Done) -> None:
        if message.run_id != self.run_id:
            return
        result = message.result
        self.result, self.outcome = result, result.outcome
        self.iteration, self.wall = result.iters, result.seconds
        if result.snapshots:
            self.snapshot = result.snapshots[-1]
        if result.outcome.kind == "finished":
            if isinstance(result.config, TransformerConfig):
                self.tf_session.append(result)
                self._keep_for_the_lab(result)
            else:
                self.session.append(result)
            self.pair.append(result)
            self.redraw_tables()
        self.set_reactive(TrainerScreen.frame, len(result.snapshots) - 1)
        self.redraw()

    def _last_model_path(self):
        return paths.last_transformer(paths.data_dir(self.app.data_dir))

    def _keep_for_the_lab(self, result) -> None:
        """Save a finished Transformer where the lab opens the last one trained."""
        self.saved_error = ""
        try:
            path = self._last_model_path()
            path.parent.mkdir(parents=True, exist_ok=True)
            transformer_file.save_result(path, result)
        except InputError as err:
            self.saved_error = describe(err)
        except OSError as err:
            self.saved_error = err.strerror or str(err)

    @on(SeedRun)
    def _seed_done(self, message: SeedRun) -> None:
        if message.run_id != self.run_id:
            return
        runs = self.multi_runs.setdefault(variant_of(message.result.config), [])
        runs.append(message.result)
        runs.sort(key=lambda r: r.config.seed)
        self.redraw_tables()

    def on_worker_state_changed(self, event: Worker.StateChanged) -> None:
        if event.worker is not self.worker or event.state in (
            WorkerState.PENDING,
            WorkerState.RUNNING,
        ):
            return
        self.multi_running = False
        self.state = ""
        self.live = None
        if event.state == WorkerState.ERROR and event.worker.error is not None:
            self.notify(str(event.worker.error), severity="error")
        self._drawn = ()
        self.redraw()
        self.redraw_tables()

    # ---- leaving ------------------------------------------------------------------------
    def stop_training(self) -> None:
        """Stop at once: kill the child (or every pool worker) and cancel the relay."""
        self.stop_flag = True
        live = self.live
        if live is not None:
            live.kill()
        self.workers.cancel_group(self, "training")

    def on_screen_suspend(self) -> None:
        # the help overlay suspends this screen too, but keeps it in the stack: only leaving
        # the area (Esc switches to the home mode) stops the run
        if self not in self.app.screen_stack:
            self.stop_training()

    def on_unmount(self) -> None:
        self.stop_training()


def relabel(select: Select, options: list[tuple[str, str]]) -> None:
    """Give a Select new labels (another language) and keep its value. Select redraws its
    label only when the value changes, so the value goes to another option and back."""
    value = select.value
    with select.prevent(Select.Changed):
        select.set_options(options)
        others = [v for _, v in options if v != value]
        if others:
            select.value = others[0]
        select.value = value
