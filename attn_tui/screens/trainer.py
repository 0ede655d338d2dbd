"""The training screen: train the reversal RNN live, with and without attention.

Settings on the left; on the right either the live run (progress, loss curve, held-out
accuracy, a sample decode, the probe's attention heatmap) or the tables (runs finished this
session beside the seed text's numbers, and the multi-seed comparison).

Training runs in a thread worker that iterates ``attn_tui.core.models.trainer.train`` and posts a
message at most every ``POST_INTERVAL`` seconds (plus one per step at the single-step pace
and one at the end); it never touches a widget. Pause waits on an Event, stop sets a flag the
trainer checks before every iteration, and leaving the screen or quitting does both and
cancels the worker, so no thread outlives the screen.
"""

from __future__ import annotations

import math
import threading
import time
from dataclasses import replace

import numpy as np
from rich.console import Group
from rich.text import Text
from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.message import Message
from textual.reactive import reactive
from textual.widgets import ContentSwitcher, Footer, Input, Select, Static
from textual.worker import Worker, WorkerState, get_current_worker

from attn_tui.core.models.trainer import (
    MAX_LENGTH,
    MIN_LENGTH,
    Outcome,
    RunResult,
    Snapshot,
    TrainConfig,
    default_iters,
    iter_compare,
    train,
)
from attn_tui.core.parse import InputError
from attn_tui.i18n import describe, get_lang, t
from attn_tui.screens.base import TutorScreen, tr
from attn_tui.widgets.fields import Tick, say
from attn_tui.widgets.loss_curve import LossCurve
from attn_tui.widgets.prose import Prose
from attn_tui.widgets.train_panels import (
    render_accuracy,
    render_attention,
    render_decode,
    render_multi,
    render_note,
    render_progress,
    render_session,
    run_label,
    variant,
)

POST_INTERVAL = 0.05  # at most ~20 redraws a second while training at full speed
WATCH_SECONDS = 15.0  # the "watchable" pace stretches a whole run over this long
MAX_SEEDS = 50
TALL = 34  # from this many rows the loss curve is drawn twice as tall
PACES = ("fast", "watch", "step")
INT_FIELDS = {  # field → (InputError code, extra params) for text that is not a whole number
    "length": ("train.bad_length", {"lo": MIN_LENGTH, "hi": MAX_LENGTH}),
    "iters": ("train.bad_iters", {"hi": 100_000}),
    "seed": ("train.bad_seed", {}),
    "batch": ("train.bad_batch", {"hi": 1024}),
}


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
        ("train.ui.live", "train.ui.help.live"),
        ("train.ui.live", "train.ui.help.timeline"),
        ("train.ui.compare_view", "train.ui.help.compare"),
    )
    BINDINGS = [
        Binding("f5", "start", "train.key.start"),
        Binding("f6", "pause", "train.key.pause"),
        Binding("f7", "stop", "train.key.stop"),
        Binding("f4", "toggle_view", "train.key.view"),
        Binding("f3", "toggle_mean", "train.key.mean", show=False),
        Binding("f8", "step", "train.key.step", show=False),
        Binding("f9", "compare", "train.key.compare", show=False),
        Binding("f10", "seeds", "train.key.seeds", show=False),
        # PgUp/PgDn reach the timeline from anywhere (an Input would swallow [ and ])
        Binding("pageup", "earlier", "train.key.earlier", show=False, priority=True),
        Binding("pagedown", "later", "train.key.later", show=False, priority=True),
    ]

    frame: reactive[int] = reactive(-1, init=False)
    mean: reactive[bool] = reactive(False, init=False)  # heatmap: held-out average, not the probe

    # ---- messages from the worker ---------------------------------------------------------
    class Begin(Message):
        def __init__(self, run_id: int, config: TrainConfig) -> None:
            super().__init__()
            self.run_id, self.config = run_id, config

    class Update(Message):
        """Losses since the previous Update, the newest snapshot (if any), wall-clock timing."""

        def __init__(self, run_id: int, iteration: int, losses: list[np.ndarray],
                     snapshot: Snapshot | None, wall: float, state: str = "") -> None:  # fmt: skip
            super().__init__()
            self.run_id, self.iteration, self.losses = run_id, iteration, losses
            self.snapshot, self.wall, self.state = snapshot, wall, state

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
        self.config = TrainConfig()
        self.chunks: list[np.ndarray] = []
        self.snapshot: Snapshot | None = None
        self.iteration = 0
        self.wall = math.nan
        self.state = ""
        self.outcome: Outcome | None = None
        self.result: RunResult | None = None
        # what the tables show
        self.session: list[RunResult] = []
        self.multi_base: TrainConfig | None = None
        self.multi_seeds: tuple[int, ...] = ()
        self.multi_runs: dict[bool, list[RunResult]] = {False: [], True: []}
        self.multi_running = False
        # talking to the worker
        self.worker: Worker | None = None
        self.run_id = 0
        self.stop_flag = False
        self.go = threading.Event()  # set = running, clear = paused
        self.halt = threading.Event()  # set when stopping: cuts short a paced sleep
        self.steps = threading.Semaphore(0)  # one release per F8 at the single-step pace
        self.pace = "fast"
        self._drawn: tuple = ()  # what the snapshot panels show, to skip redrawing the same

    # ---- layout -------------------------------------------------------------------------
    def compose(self) -> ComposeResult:
        cfg = TrainConfig()
        with Horizontal(id="train"):
            with Vertical(id="train-settings") as settings:
                tr(settings, "train.ui.settings", "border_title")
                fields = (("length", cfg.length), ("iters", cfg.iters), ("seed", cfg.seed),
                          ("lr", cfg.lr), ("batch", cfg.batch), ("seeds", 10))  # fmt: skip
                for field, value in fields:
                    with Horizontal(classes="row"):
                        yield tr(Static(classes="inline-label"), f"train.ui.{field}")
                        kind = "number" if field == "lr" else "integer"
                        yield Input(f"{value:g}", id=field, compact=True, type=kind)
                    if field == "length":
                        yield tr(Tick(value=cfg.attention, id="attention", compact=True),
                                 "train.ui.attention", "label")  # fmt: skip
                yield tr(Static(classes="field-label"), "train.ui.pace")
                yield Select(self._pace_options(), id="pace", compact=True, allow_blank=False,
                             value="fast")  # fmt: skip
                yield Static(id="train-error", classes="error")
            with ContentSwitcher(initial="live", id="train-right"):
                with LivePanel(id="live") as live:
                    tr(live, "train.ui.live", "border_title")
                    yield Static(id="progress")
                    yield Static(id="outcome")
                    # the heatmap first: at 80×24 it is what fits above the fold
                    with Vertical(id="live-cols"):
                        yield Static(id="heat")
                        with Vertical(id="live-b"):
                            yield Static(id="accuracy")
                            yield Static(id="decode")
                            yield Static(id="loss")
                            yield Static(id="note")
                with VerticalScroll(id="tables") as tables:
                    tr(tables, "train.ui.compare_view", "border_title")
                    yield Static(id="session")
                    yield Static(id="multi")
        yield Footer(show_command_palette=False)

    def _pace_options(self) -> list[tuple[str, str]]:
        return [(t(f"train.ui.pace.{p}"), p) for p in PACES]

    def on_mount(self) -> None:
        super().on_mount()
        self.config = self._settings_or_default()
        self.redraw()
        self.redraw_tables()
        self.query_one("#length", Input).focus()

    # ---- settings -----------------------------------------------------------------------
    def read_settings(self) -> TrainConfig:
        """The settings as a validated TrainConfig; raises InputError naming the first fault."""
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
        attention = self.query_one("#attention", Tick).value
        return TrainConfig(attention=attention, **values).validate()  # type: ignore[arg-type]

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
            say(error, describe(err))
            return False
        say(error, "")
        return True

    @on(Input.Changed)
    @on(Tick.Changed)
    def _settings_changed(self, event: Message) -> None:
        if self.check_settings() and not self.running and self.result is None:
            self.config = self.read_settings()  # the idle panel describes what F5 would train
            self.redraw()

    @on(Input.Changed, "#length")
    def _length_changed(self, event: Input.Changed) -> None:
        # the seed's recipe: 3000 iterations from length 10, 2000 below (only when the learner
        # has not typed their own figure)
        iters = self.query_one("#iters", Input)
        try:
            length = int(event.value)
        except ValueError:
            return
        if iters.value in ("2000", "3000"):
            iters.value = str(default_iters(length))

    @on(Select.Changed, "#pace")
    def _pace_changed(self, event: Select.Changed) -> None:
        if isinstance(event.value, str) and not self.running:
            self.pace = event.value

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
        return self.snapshot, losses

    def redraw(self) -> None:
        cfg = self.config
        snap, losses = self._shown_snapshot()
        live = self.query_one("#live", LivePanel)
        tall = live.size.height >= TALL
        self.query_one("#live-cols").display = self.running or self.outcome is not None
        live.border_subtitle = run_label(cfg)
        it_per_s = self.iteration / self.wall if self.wall > 0 else math.nan
        eta = (cfg.iters - self.iteration) / it_per_s if it_per_s > 0 else math.nan
        width = max(min(live.size.width - 40, 30), 6)
        self.query_one("#progress", Static).update(
            render_progress(
                cfg,
                self.iteration,
                self.state,
                it_per_s=it_per_s,
                elapsed=self.wall,
                eta=eta,
                width=width,
            )  # fmt: skip
        )
        self.query_one("#outcome", Static).update(self._outcome_text())
        title = Text(t("train.ui.loss_title"), "bold", no_wrap=True, overflow="ellipsis")
        if len(losses):
            title.append("  " + t("train.ui.loss_now", loss=f"{losses[-1]:.4f}"), "dim")
        curve = LossCurve(losses, cfg.iters, height=6 if tall else 3)
        self.query_one("#loss", Static).update(Group(title, curve))
        # the snapshot panels change a few times a second at most: redraw them only then, so
        # the 20 progress updates a second stay cheap and keys are answered at once
        key = (self.run_id, snap.iteration if snap else None, cfg, self.mean, get_lang(), live.size)
        if key == self._drawn:
            return
        self._drawn = key
        self.query_one("#accuracy", Static).update(
            render_accuracy(snap, cfg.eval_every, live.size.width)
        )
        self.query_one("#decode", Static).update(render_decode(snap.sample) if snap else "")
        self.query_one("#heat", Static).update(render_attention(snap, cfg.attention, self.mean))
        self.query_one("#note", Static).update(render_note(snap))

    def _outcome_text(self):
        parts = []
        if self.outcome is not None:
            style = {"finished": "green", "stopped": "yellow"}.get(self.outcome.kind, "bold red")
            parts.append(Prose(t(self.outcome.code, **self.outcome.params), style))
        if self.result is not None and not self.running and self.result.snapshots:
            snaps = self.result.snapshots
            k = min(max(self.frame, 0), len(snaps) - 1)
            parts.append(Prose(t("train.ui.timeline", k=k + 1, n=len(snaps),
                                 iteration=snaps[k].iteration), "cyan"))  # fmt: skip
        if self.outcome is None and not self.running:
            cfg = self.config
            intro = t("train.ui.intro", length=cfg.length, variant=variant(cfg.attention),
                      params=cfg.n_params)  # fmt: skip
            parts.append(Prose(intro, "dim"))
        return Group(*parts)

    def redraw_tables(self) -> None:
        self.query_one("#session", Static).update(render_session(self.session))
        width = max(self.query_one("#tables").size.width - 4, 40)
        if self.multi_base is None:
            try:
                base, seeds = self.read_settings(), self.read_seeds()
            except InputError:
                base, seeds = self.config, tuple(range(10))
        else:
            base, seeds = self.multi_base, self.multi_seeds
        self.query_one("#multi", Static).update(
            render_multi(base, seeds, self.multi_runs, self.multi_running, width)
        )

    def relocalize(self) -> None:
        select = self.query_one("#pace", Select)
        value = select.value
        with self.prevent(Select.Changed):
            select.set_options(self._pace_options())
            select.value = value
        self.check_settings()
        self.redraw()
        self.redraw_tables()

    def on_resize(self) -> None:
        self.redraw()
        self.redraw_tables()

    def watch_frame(self) -> None:
        self.redraw()

    def watch_mean(self) -> None:
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
        self.go.set()
        self.halt.clear()
        self.steps = threading.Semaphore(0)
        value = self.query_one("#pace", Select).value
        self.pace = value if isinstance(value, str) else "fast"
        return True

    def action_start(self) -> None:
        if self._begin():
            self.worker = self._train([self.read_settings()], self.pace, self.run_id)

    def action_compare(self) -> None:
        """Both variants with the same seed, one after the other."""
        if self._begin():
            cfg = self.read_settings()
            configs = [replace(cfg, attention=False), replace(cfg, attention=True)]
            self.worker = self._train(configs, self.pace, self.run_id)

    def action_seeds(self) -> None:
        if not self._begin():
            return
        self.multi_base, self.multi_seeds = self.read_settings(), self.read_seeds()
        self.multi_runs = {False: [], True: []}
        self.multi_running = True
        self.show_view("tables")
        self.worker = self._seeds(self.multi_base, self.multi_seeds, self.run_id)

    def action_pause(self) -> None:
        if not self.running or self.pace == "step" or self.multi_running:
            return
        if self.go.is_set():
            self.go.clear()
            self.state = t("train.ui.state.paused")
        else:
            self.go.set()
            self.state = t("train.ui.state.running")
        self.redraw()

    def action_stop(self) -> None:
        if not self.running:
            self.notify(t("train.ui.nothing"), timeout=2)
            return
        self.stop_flag = True
        self.halt.set()
        self.go.set()
        self.steps.release()
        self.state = t("train.ui.state.stopping")
        self.redraw()

    def action_step(self) -> None:
        if self.running and self.pace == "step":
            self.steps.release()
        elif not self.running:
            select = self.query_one("#pace", Select)
            select.value = "step"
            self.action_start()

    def show_view(self, view: str) -> None:
        """ "live" or "tables"; the tables take the whole width (the settings step aside)."""
        self.query_one(ContentSwitcher).current = view
        self.query_one("#train-settings").display = view == "live"
        self.call_after_refresh(self.redraw_tables)

    def action_toggle_view(self) -> None:
        self.show_view("tables" if self.query_one(ContentSwitcher).current == "live" else "live")

    def action_toggle_mean(self) -> None:
        self.mean = not self.mean

    def action_earlier(self) -> None:
        if self.result is not None and not self.running and self.result.snapshots:
            self.frame = max(self.frame - 1, 0)

    def action_later(self) -> None:
        if self.result is not None and not self.running and self.result.snapshots:
            self.frame = min(self.frame + 1, len(self.result.snapshots) - 1)

    # ---- the worker (runs in a thread: no widgets here, only messages) ------------------
    def _should_stop(self, worker: Worker) -> bool:
        return worker.is_cancelled or self.stop_flag

    @work(thread=True, exclusive=True, exit_on_error=False, group="training")
    def _train(self, configs: list[TrainConfig], pace: str, run_id: int) -> None:
        worker = get_current_worker()
        for config in configs:
            if self._should_stop(worker):
                return
            self._run_one(worker, config, pace, run_id)

    def _run_one(self, worker: Worker, config: TrainConfig, pace: str, run_id: int) -> None:
        def stop() -> bool:
            return worker.is_cancelled or self.stop_flag

        self.post_message(self.Begin(run_id, config))
        per_iteration = WATCH_SECONDS / config.iters if pace == "watch" else 0.0
        every = config.iters if pace == "fast" else 1
        pending: list[np.ndarray] = []
        snap: Snapshot | None = None
        started = deadline = time.perf_counter()
        paused = 0.0  # seconds spent paused, left out of the elapsed time
        last_post = -math.inf
        last_iteration = 0

        def post(p_iteration: int, state: str = "") -> None:
            nonlocal pending, snap, last_post
            wall = time.perf_counter() - started - paused
            self.post_message(self.Update(run_id, p_iteration, pending, snap, wall, state))
            pending, snap, last_post = [], None, time.perf_counter()

        for p in train(config, every=every, max_interval=POST_INTERVAL, should_stop=stop):
            pending.append(p.losses)
            if p.snapshot is not None:
                snap = p.snapshot
            if p.result is not None:
                post(p.iteration)
                self.post_message(self.Done(run_id, p.result))
                return
            if pace == "step":
                post(p.iteration, "stepping")
                while not self.steps.acquire(timeout=0.05):
                    if stop():
                        break
                continue
            if time.perf_counter() - last_post >= POST_INTERVAL:
                post(p.iteration)
            if per_iteration:
                deadline += per_iteration * (p.iteration - last_iteration)
                delay = deadline - time.perf_counter()
                if delay > 0:
                    self.halt.wait(delay)
            last_iteration = p.iteration
            if not self.go.is_set():
                post(p.iteration, "paused")
                t0 = time.perf_counter()
                while not self.go.wait(0.05):
                    if stop():
                        break
                paused += time.perf_counter() - t0
                deadline = time.perf_counter()

    @work(thread=True, exclusive=True, exit_on_error=False, group="training")
    def _seeds(self, base: TrainConfig, seeds: tuple[int, ...], run_id: int) -> None:
        worker = get_current_worker()
        for result in iter_compare(base, seeds, lambda: self._should_stop(worker)):
            self.post_message(self.SeedRun(run_id, result))

    # ---- handling the worker's messages -----------------------------------------------------
    @on(Begin)
    def _run_began(self, message: Begin) -> None:
        if message.run_id != self.run_id:
            return
        self.config = message.config
        self.chunks, self.snapshot, self.iteration, self.wall = [], None, 0, math.nan
        self.outcome, self.result, self.frame = None, None, -1
        if self.state != t("train.ui.state.stopping"):
            self.state = t(
                "train.ui.state.stepping" if self.pace == "step" else "train.ui.state.running"
            )
        if self.query_one(ContentSwitcher).current != "live":
            self.show_view("live")
        self.redraw()

    @on(Update)
    def _run_progressed(self, message: Update) -> None:
        if message.run_id != self.run_id:
            return
        self.chunks.extend(message.losses)
        if message.snapshot is not None:
            self.snapshot = message.snapshot
        self.iteration, self.wall = message.iteration, message.wall
        self.redraw()

    @on(Done)
    def _run_done(self, message: Done) -> None:
        if message.run_id != self.run_id:
            return
        result = message.result
        self.result, self.outcome, self.state = result, result.outcome, ""
        self.iteration = result.iters
        if result.snapshots:
            self.snapshot = result.snapshots[-1]
        if result.outcome.kind == "finished":
            self.session.append(result)
            self.redraw_tables()
        self.set_reactive(TrainerScreen.frame, len(result.snapshots) - 1)
        self.redraw()

    @on(SeedRun)
    def _seed_done(self, message: SeedRun) -> None:
        if message.run_id != self.run_id:
            return
        self.multi_runs[message.result.config.attention].append(message.result)
        self.redraw_tables()

    def on_worker_state_changed(self, event: Worker.StateChanged) -> None:
        if event.worker is not self.worker or event.state in (
            WorkerState.PENDING,
            WorkerState.RUNNING,
        ):
            return
        self.multi_running = False
        self.state = ""
        if event.state == WorkerState.ERROR and event.worker.error is not None:
            self.notify(str(event.worker.error), severity="error")
        self.redraw()
        self.redraw_tables()

    # ---- leaving ------------------------------------------------------------------------
    def stop_training(self) -> None:
        """Stop at once and cancel the worker: the thread ends within one iteration."""
        self.stop_flag = True
        self.halt.set()
        self.go.set()
        self.steps.release()
        self.workers.cancel_group(self, "training")

    def on_screen_suspend(self) -> None:
        # the help overlay suspends this screen too, but keeps it in the stack: only leaving
        # the area (Esc switches to the home mode) stops the run
        if self not in self.app.screen_stack:
            self.stop_training()

    def on_unmount(self) -> None:
        self.stop_training()
