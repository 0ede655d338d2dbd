"""The live run: progress, the attention maps, held-out accuracy, a sample decode, the loss.

:class:`LivePanel` holds what a run has reported and how the learner asked to see it (the
timeline's frame, the probe or the held-out average, absolute or own-range colours), and
redraws itself at most FRAME times a second however fast reports arrive. It is made of small
panels (:class:`LivePart`), each drawing one thing from a :class:`~.models.RunView` and only when
what it shows changed; a new panel is one more small class in :data:`PARTS`.

The screen tells it what happens, method by method: ``preview(config)`` (the settings F5 would
train), ``begin``, ``add`` (each report), ``finish`` (the result) and ``ended``; its
``activity`` follows the run's owner (``TrainingRun.activity``).
"""

from __future__ import annotations

import math
import time
from collections.abc import Hashable
from typing import Any, ClassVar

import numpy as np
from rich.console import Group
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.reactive import reactive, var

from attn_tui.core.models import figures as stored
from attn_tui.core.models.phases import PhaseDetector
from attn_tui.i18n import get_lang, t
from attn_tui.render import induction
from attn_tui.render.loss_curve import LossCurve
from attn_tui.render.trainer import render_progress
from attn_tui.widgets.panel import Panel
from attn_tui.widgets.trainer.models import ModelView, RunView, outcome_text, view_of

FRAME = 1 / 12  # at most this often a redraw while training, however fast reports arrive
SNAPSHOT_FRAME = 1 / 4  # at full speed, the maps and the figures at most this often
TALL = 34  # from this many rows the loss curve is drawn twice as tall
ALWAYS = object()  # a key that never equals the last one: drawn on every redraw
STATES = {"stopping": "train.ui.state.stopping", "paused": "train.ui.state.paused",
          "stepping": "train.ui.state.stepping", "running": "train.ui.state.running"}  # fmt: skip


class LivePart(Panel):
    """One panel of the live view: drawn from a RunView when its ``key`` changes."""

    run_only: ClassVar[bool] = True  # shown once a run has begun
    # at full speed a run evaluates ~10 times a second: a throttled part shows ~4 of them
    throttled: ClassVar[bool] = False
    _drawn: Hashable = None
    _drawn_at = 0.0

    def key(self, view: RunView, model: ModelView) -> Hashable:
        """What the drawing depends on; ALWAYS for a part that changes on every report."""
        return ALWAYS

    def draw(self, view: RunView, model: ModelView, live: LivePanel) -> None:
        raise NotImplementedError

    def redraw(self, view: RunView, model: ModelView, live: LivePanel) -> None:
        key = self.key(view, model)
        if key is not ALWAYS and key == self._drawn:
            return
        now = time.perf_counter()
        if (self.throttled and self._drawn is not None and view.activity == "running"
                and view.pace == "fast" and now - self._drawn_at < SNAPSHOT_FRAME):  # fmt: skip
            return
        self._drawn, self._drawn_at = key, now
        self.draw(view, model, live)

    def forget_drawn(self) -> None:
        self._drawn = None


def _words_key(view: RunView) -> Hashable:
    """What the run is and how it ended: rarely changes."""
    return (view.run_id, view.config, get_lang(), len(view.pair), view.outcome, view.frame,
            view.running)  # fmt: skip


def _snapshot_key(view: RunView) -> Hashable:
    snap = view.snapshot
    return (view.run_id, snap.iteration if snap else None, view.config, get_lang(), view.frame)


class ProgressPart(LivePart):
    """The bar, iteration / total, what the run is doing, speed, elapsed time and ETA."""

    run_only = False

    def draw(self, view: RunView, model: ModelView, live: LivePanel) -> None:
        it_per_s = view.iteration / view.wall if view.wall > 0 else math.nan
        state = t(STATES[view.activity]) if view.activity in STATES else ""
        eta = None  # (after a run, while paused or stopping, when each step waits for a key)
        if view.activity == "running":
            left = view.config.iters - view.iteration
            eta = left / it_per_s if it_per_s > 0 else math.nan
        width = max(min(live.size.width - 34, 30), 6)
        # (its first line can wrap as the iteration grows a digit: count its lines)
        self.show_counted(render_progress(view.config, view.iteration, state, it_per_s=it_per_s,
                                          elapsed=view.wall, eta=eta, width=width),
                          live.text_width)  # fmt: skip


class OutcomePart(LivePart):
    """How the run ended (or what F5 would train), the timeline, F9's pair, the model's lines."""

    run_only = False

    def key(self, view: RunView, model: ModelView) -> Hashable:
        return _words_key(view)

    def draw(self, view: RunView, model: ModelView, live: LivePanel) -> None:
        self.update(outcome_text(view))


class HeatPart(LivePart):
    """The attention map(s): only when the numbers shown (whole percents, peaks) change."""

    throttled = True

    def key(self, view: RunView, model: ModelView) -> Hashable:
        return (view.config, model.heat_key(view), view.mean, view.absolute, get_lang())

    def draw(self, view: RunView, model: ModelView, live: LivePanel) -> None:
        # (a legend can wrap differently as its figures change: count its lines)
        self.show_counted(model.render_heat(view), live.text_width)


class GuideNotePart(LivePart):
    """For a guided experiment: what to look at, the stored figures beside the book's run."""

    run_only = False

    def key(self, view: RunView, model: ModelView) -> Hashable:
        return _words_key(view)

    def draw(self, view: RunView, model: ModelView, live: LivePanel) -> None:
        note = model.guide_note(view)
        self.display = note != ""  # (empty, its margin would still leave a gap)
        self.update(note)


class AccuracyPart(LivePart):
    """Held-out accuracy, whole and per position."""

    throttled = True

    def key(self, view: RunView, model: ModelView) -> Hashable:
        return _snapshot_key(view)

    def draw(self, view: RunView, model: ModelView, live: LivePanel) -> None:
        # (its first line can wrap as the iteration grows a digit: count its lines)
        self.show_counted(model.render_accuracy(view), live.text_width)


class DecodePart(LivePart):
    """One held-out sequence decoded, each letter right or wrong."""

    throttled = True

    def key(self, view: RunView, model: ModelView) -> Hashable:
        return _snapshot_key(view)

    def draw(self, view: RunView, model: ModelView, live: LivePanel) -> None:
        snap = view.snapshot
        shape = (live.size.width, get_lang(), snap is None)
        self.show(model.render_decode(view) if snap else "", shape)


class LossPart(LivePart):
    """The loss per iteration over the whole run."""

    def draw(self, view: RunView, model: ModelView, live: LivePanel) -> None:
        losses = view.losses if view.losses is not None else np.empty(0)
        tall = live.size.height >= TALL
        title = Text(t("train.ui.loss_title"), "bold", no_wrap=True, overflow="ellipsis")
        if len(losses):
            title.append("  " + t("train.ui.loss_now", loss=f"{losses[-1]:.4f}"), "dim")
        if view.phases is None:
            curve = LossCurve(losses, view.config.iters, height=6 if tall else 3)
            self.show(Group(title, curve), (live.size.width, tall, get_lang()))
            return
        marks = induction.phase_marks(view.phases)
        curve = LossCurve(losses, view.config.iters, height=6 if tall else 3, marks=marks)
        shown = Group(title, curve, induction.render_phases(view.phases))
        self.show_counted(shown, live.text_width)


class AblationPart(LivePart):
    """The finished induction model beside the same with its previous-token head off (a)."""

    run_only = False

    def key(self, view: RunView, model: ModelView) -> Hashable:
        return (view.run_id, view.ablated, get_lang())

    def draw(self, view: RunView, model: ModelView, live: LivePanel) -> None:
        shown = view.ablated and view.result is not None
        self.display = shown
        if shown:
            self.show_counted(induction.render_ablation(view.result.ablation), live.text_width)


class NotePart(LivePart):
    """What the figures are measured on."""

    throttled = True

    def key(self, view: RunView, model: ModelView) -> Hashable:
        return _snapshot_key(view)

    def draw(self, view: RunView, model: ModelView, live: LivePanel) -> None:
        snap = view.snapshot
        self.show(model.render_note(view), (live.size.width, get_lang(), snap is None))


# in the order shown: the heatmap first, as at 80×24 it is what fits above the fold; then what
# a guided experiment asks the learner to look at
PARTS: tuple[tuple[str, type[LivePart]], ...] = (
    ("progress", ProgressPart),
    ("outcome", OutcomePart),
    ("heat", HeatPart),
    ("ablation", AblationPart),
    ("guide-note", GuideNotePart),
    ("accuracy", AccuracyPart),
    ("decode", DecodePart),
    ("loss", LossPart),
    ("note", NotePart),
)


class LivePanel(VerticalScroll, can_focus=True):
    """The live run; focusable so that ← → and [ ] scrub the timeline."""

    BINDINGS = [
        Binding("left,left_square_bracket", "earlier", "train.key.earlier", show=False),
        Binding("right,right_square_bracket", "later", "train.key.later", show=False),
    ]

    frame: reactive[int] = reactive(-1, init=False)  # the timeline's snapshot, after a run
    mean: reactive[bool] = reactive(False, init=False)  # the map: held-out average, not probe
    absolute: reactive[bool] = reactive(True, init=False)  # its colours: 0–100, not own range
    activity: var[str] = var("idle", init=False)  # TrainingRun.activity
    # the finished induction model with layer 1's previous-token head off (the screen's a)
    ablated: reactive[bool] = reactive(False, init=False)

    def __init__(self, config: Any, figures: stored.Figures | None, **kwargs) -> None:
        super().__init__(**kwargs)
        self.config = config
        self.figures = figures
        self.pace = "watch"
        self.run_id = 0
        self.chunks: list[np.ndarray] = []  # the losses reported, in pieces
        self.snapshot = None  # the newest evaluation
        self.iteration = 0
        self.wall = math.nan
        self.outcome = None
        self.result = None
        self.pair: list = []  # F9's finished runs, for the line comparing them
        self.versus = False  # the run on show is F9's other variant (see begin)
        self.saved_error = ""
        self._last_draw = 0.0
        self._draw_pending = False
        self._detector = PhaseDetector()  # fed the losses shown, as they arrive
        self._detected: tuple = ()  # what the detector was fed: (run, frame)

    def compose(self) -> ComposeResult:
        # the parts a run shows are mounted when the first run begins (_mount_run_parts):
        # until then they are hidden, and each would cost the screen's first frame
        for name, part in PARTS:
            if not part.run_only and part is not AblationPart:
                yield part(id=name)

    def _mount_run_parts(self) -> None:
        """The parts of PARTS not mounted yet, each after the one before it; drawn at once
        (a Panel takes its content before it is mounted)."""
        parts = {type(part): part for part in self.query_children(LivePart)}
        if len(parts) == len(PARTS):
            return
        before: LivePart | None = None
        for name, kind in PARTS:
            if kind not in parts:
                parts[kind] = kind(id=name, classes="run-only" if kind.run_only else "")
                if before is None:
                    self.mount(parts[kind], before=0)
                else:
                    self.mount(parts[kind], after=before)
            before = parts[kind]

    @property
    def text_width(self) -> int:
        """The width the parts draw at (they have no side padding). A part shown for the first
        time in this redraw has not been laid out yet, so the panel's width is used."""
        return self.scrollable_content_region.width or 1

    # ---- what the screen tells it ----------------------------------------------------------
    def preview(self, config: Any) -> None:
        """Before any run: describe what F5 would train."""
        if self.activity == "idle" and self.result is None:
            self.config = config
            self.redraw()

    def begin(self, run_id: int, config: Any, pace: str, versus: bool = False) -> None:
        """A run starts; ``versus``: it is F9's other variant, not the one the rows say."""
        self.run_id, self.config, self.pace, self.versus = run_id, config, pace, versus
        self.chunks, self.snapshot, self.iteration, self.wall = [], None, 0, math.nan
        self.outcome, self.result = None, None
        self.set_reactive(LivePanel.frame, -1)
        self.set_reactive(LivePanel.ablated, False)
        self._mount_run_parts()
        self.redraw()

    def add(self, update) -> None:
        """A report of the live run: drawn at the next frame."""
        if len(update.losses):
            self.chunks.append(update.losses)
        if update.snapshot is not None:
            self.snapshot = update.snapshot
        self.iteration, self.wall = update.iteration, update.wall
        self.request_redraw()

    def finish(self, result, saved_error: str = "") -> None:
        """The run ended (finished, stopped or diverged): its timeline sits at the last
        snapshot."""
        self.result, self.outcome, self.saved_error = result, result.outcome, saved_error
        self.iteration, self.wall = result.iters, result.seconds
        if result.snapshots:
            self.snapshot = result.snapshots[-1]
        if result.outcome.kind == "finished":
            self.pair.append(result)
        self.set_reactive(LivePanel.frame, len(result.snapshots) - 1)
        self.redraw()

    def forget_pair(self) -> None:
        self.pair = []

    def ended(self) -> None:
        """Nothing trains any more: every part is drawn again once."""
        self.forget_drawn()
        self.redraw()

    # ---- the timeline ---------------------------------------------------------------------
    def action_earlier(self) -> None:
        if self._can_scrub():
            self.set_reactive(LivePanel.ablated, False)  # (the ablation is of the end's model)
            self.frame = max(self.frame - 1, 0)

    def action_later(self) -> None:
        if self._can_scrub():
            self.set_reactive(LivePanel.ablated, False)
            self.frame = min(self.frame + 1, len(self.result.snapshots) - 1)

    @property
    def can_ablate(self) -> bool:
        """A finished run with an ablation to show (the induction task's, two layers)."""
        return (self.activity == "idle" and self.result is not None
                and getattr(self.result, "ablation", None) is not None
                and self.result.model is not None)  # fmt: skip

    def toggle_ablation(self) -> None:
        """Switch the previous-token head off (the timeline goes to the end, whose model it
        is) or back on."""
        if not self.can_ablate:
            return
        if not self.ablated:
            self.set_reactive(LivePanel.frame, len(self.result.snapshots) - 1)
        self.ablated = not self.ablated
        if self.ablated:  # the table beside the trained model's figures, in view
            part = self.query_one(AblationPart)
            self.call_after_refresh(self.scroll_to_widget, part, animate=False)

    def _can_scrub(self) -> bool:
        return self.result is not None and self.activity == "idle" and bool(self.result.snapshots)

    def watch_frame(self) -> None:
        self.redraw()

    def watch_mean(self) -> None:
        self.redraw()

    def watch_ablated(self) -> None:
        self.redraw()

    def watch_absolute(self) -> None:
        self.redraw()

    def watch_activity(self) -> None:
        self.redraw()

    # ---- drawing ---------------------------------------------------------------------------
    def view(self) -> RunView:
        """What to draw now: the live run, or the timeline's frame of the finished one."""
        view = RunView(
            config=self.config, run_id=self.run_id, iteration=self.iteration, wall=self.wall,
            snapshot=self.snapshot, activity=self.activity, pace=self.pace,
            outcome=self.outcome, result=self.result, frame=self.frame, pair=tuple(self.pair),
            mean=self.mean, absolute=self.absolute, figures=self.figures,
            saved_error=self.saved_error,
        )  # fmt: skip
        if view.scrubbing:
            snap = self.result.snapshots[self.frame]
            view = view.replace(snapshot=snap, losses=self.result.losses[: snap.iteration],
                                ablated=self.ablated)  # fmt: skip
        else:
            losses = np.concatenate(self.chunks) if self.chunks else np.empty(0)
            if len(self.chunks) > 1:
                self.chunks = [losses]  # keep one array, not thousands of small ones
            view = view.replace(losses=losses)
        if view_of(view.config).follows_phases(view.config):
            view = view.replace(phases=self._phases(view))
        return view

    def _phases(self, view: RunView):
        """The plateau and drop in the losses on show: the detector is fed the losses it has
        not seen yet, as they arrive (from the start again for another run or frame)."""
        assert view.losses is not None
        fed = (view.run_id, view.frame if view.scrubbing else -1)
        if fed != self._detected or self._detector.step > len(view.losses):
            self._detector, self._detected = PhaseDetector(), fed
        self._detector.extend(view.losses[self._detector.step :])
        return self._detector.phases

    def figure_text(self) -> tuple[str, str] | None:
        """For the copy key (ctrl+g): the attention map on show (the probe's, or the held-out
        mean), rows = output positions, columns = input positions, as fractions to four
        decimals (the map shows whole percents); none before one is drawn."""
        from attn_tui.render import figure_text
        from attn_tui.render.trainer import shown_weights

        view = self.view()
        if not getattr(view.config, "attention", False):
            return None
        weights = shown_weights(view.snapshot, self.mean)
        if weights is None:
            return None
        n_out, n_in = weights.shape
        rows = [f"out {i + 1}" for i in range(n_out)]
        cols = [f"in {j + 1}" for j in range(n_in)]
        return t("app.copy.train_weights"), figure_text.matrix(weights, rows, cols, 4)

    def request_redraw(self) -> None:
        """Redraw now, or at the next frame if one was drawn less than FRAME ago. A single
        step is drawn at once: its report answers a key press, and reports come no faster
        than the presses (the first one lands right after the run's start was drawn)."""
        if self._draw_pending:
            return
        wait = self._last_draw + FRAME - time.perf_counter()
        if wait <= 0 or self.activity == "stepping":
            self.redraw()
        else:
            self._draw_pending = True
            self.set_timer(wait, self._draw_frame)

    def _draw_frame(self) -> None:
        self._draw_pending = False
        self.redraw()

    def redraw(self) -> None:
        self._last_draw = time.perf_counter()
        if not self.display or not self.is_mounted:
            return  # not looked at: drawn when shown again
        if not self.size.width:
            return  # not laid out yet: its parts would be measured at no width (on_resize draws)
        view = self.view()
        model = view_of(view.config)
        shown = view.running or view.outcome is not None
        label = model.run_label(view.config)
        self.border_subtitle = t("train.ui.versus_run", run=label) if self.versus else label
        for part in self.query_children(LivePart):
            if part.run_only:
                part.display = shown
            part.redraw(view, model, self)

    def forget_drawn(self) -> None:
        """Draw every part at the next redraw (after a resize, a language switch, or when the
        panel is shown again)."""
        for part in self.query_children(LivePart):
            part.forget_drawn()

    def on_resize(self) -> None:
        self.forget_drawn()
        self.redraw()

    def relocalize(self) -> None:
        self.forget_drawn()
        self.redraw()
