"""The self-attention lab: settings on the left, five views of one attention layer on the right.

The settings (sentence or n tokens, d_model, h, seed, causal mask, window, cross-attention)
are read on every change and the layer recomputed at once (``attn_tui.core.attention.lab.compute``
is microseconds at these sizes). A wrong setting is named under its field and the views keep
the last valid layer, marked as such, as in the calculator.

"typed rows" as the source of the queries reveals a field for X (one row per token, d_model
follows its width), the token labels, and a folded section with W_Q, W_K, W_V, W_O, each
empty for the seeded matrix or typed. Choosing it starts from the numbers on show, so
nothing changes until the learner edits one.

"the trained Transformer" as the source opens the last Transformer trained in the app
(training the default one first, in about a second, if there is none): X is what each layer's
attention reads on a held-out sequence (or one the learner types), W_Q … W_O are the trained
weights, so every view shows the numbers the model computes. Random weights, where they
remain, say so.

The views (F4): the attention heatmap of one head with a cursor whose cell's arithmetic is
written out; every head of every layer side by side, small (the model view); one head as
lines between the tokens; Q, K, V with their shapes; every head side by side with Z, the
concat and W_O; the shapes trace of the seed's n = 10, d_model = 512, h = 8; and the
quadratic cost.

The screen is a composition: ``LabSettings`` (``widgets.lab.settings``) reads the fields into
the layer on show and names a wrong one under it; ``LabViews`` (``widgets.lab.views``) shows
that layer one view at a time and owns the view, the head and the cursor; the screen opens the
trained Transformer (a file, or a run of the shared ``TrainingRun`` when there is none) and
turns keys into calls on the two. The views' drawing is ``render.lab``.
"""

from __future__ import annotations

import time
from pathlib import Path

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal
from textual.widgets import Input

from attn_tui import paths
from attn_tui.core.models import transformer_file
from attn_tui.core.models.transformer_trainer import TransformerConfig
from attn_tui.core.parse import InputError
from attn_tui.i18n import describe, t
from attn_tui.screens.base import TutorFooter, TutorScreen
from attn_tui.widgets.lab.settings import TRAINED, LabSettings
from attn_tui.widgets.lab.views import HeatPanel, LabViews
from attn_tui.widgets.localized import tr
from attn_tui.widgets.training_run import TrainingRun


def _stamp(path: Path) -> tuple[int, int] | None:
    """When a file last changed, and its size; None if it is not there."""
    try:
        st = path.stat()
    except OSError:
        return None
    return st.st_mtime_ns, st.st_size


class LabScreen(TutorScreen):
    CSS_PATH = "lab.tcss"
    HELP = (
        ("lab.help.settings_title", "lab.help.settings"),
        ("lab.view.attn", "lab.help.attn"),
        ("lab.key.view", "lab.help.views"),
        ("transformer.lab.source", "transformer.lab.help"),
    )
    AUTO_FOCUS = "#view-attn"  # focused as it is composed: one restyle of the screen, not two
    # F5 is offered only where the map does not show scores beside weights, which its first
    # layout decides: composed before it, the footer showed F5 for a frame (TutorFooter)
    FOOTER_AT_ONCE = False
    BINDINGS = [
        Binding("f3", "toggle_mask", "lab.key.mask"),
        Binding("f4", "next_view", "lab.key.view"),
        Binding("shift+f4", "prev_view", "lab.key.prev_view", show=False),
        Binding("f5", "toggle_kind", "lab.key.scores"),
        Binding("f6", "next_head", "lab.key.head"),
    ]

    def __init__(self) -> None:
        super().__init__()
        self.form = LabSettings(id="lab-settings")
        self.views = LabViews(id="lab-right")
        self.saved_stamp: tuple[int, int] | None = None  # the trained model's file, when read

    def compose(self) -> ComposeResult:
        with Horizontal(id="lab"):
            yield tr(self.form, "lab.settings_panel", "border_title")
            yield self.views
        yield TutorFooter()  # (the TrainingRun is mounted when a run is wanted: _run)

    def on_mount(self) -> None:
        super().on_mount()
        self.views.show(self.form.compute())
        self.query_one("#view-attn", HeatPanel).focus()
        if self._course_preset:  # a lesson's do-task: once the fields' first events are in
            self.call_after_refresh(self.form.fill, self._course_preset)

    # ---- a lesson's do-task: its preset in, what the screen shows out -------------------
    _course_preset: dict | None = None

    def apply_preset(self, preset: dict) -> None:
        """LabConfig fields (preset, d_model, heads, causal, window, seed) to open with."""
        self._course_preset = dict(preset)

    def course_state(self):  # -> core.course.state.LabState
        """The layer on show (None while a setting has a fault), the view, head and cell."""
        from attn_tui.core.attention import lab
        from attn_tui.core.course.state import LabState

        r = None if self.form.stale else self.form.result
        config = lab.LabConfig(d_model=r.d_model, heads=r.heads, causal=r.causal,
                               window=r.window) if r is not None else lab.LabConfig()  # fmt: skip
        views = self.views
        return LabState(config, r, views.view, views.head, views.cursor,
                        trained=self.form.showing_trained)  # fmt: skip

    def on_lab_settings_changed(self, message: LabSettings.Changed) -> None:
        self.views.show(message)

    # ---- the trained Transformer ----------------------------------------------------------
    def on_lab_settings_trained_wanted(self) -> None:
        self._open_trained()
        self.form.recompute()

    def _model_path(self) -> Path:
        return paths.last_transformer(paths.data_dir(self.app.data_dir))

    def _open_trained(self) -> None:
        """Open the last Transformer trained in the app; with none (or a damaged file, set
        aside), train the default one first."""
        path = self._model_path()
        saved = None
        if path.exists():
            try:
                self.saved_stamp = _stamp(path)
                saved = transformer_file.load(path)
            except InputError as err:
                aside = path.with_name(f"{path.name}.damaged-{time.strftime('%Y%m%d-%H%M%S')}")
                try:
                    path.rename(aside)
                except OSError:
                    aside = path
                self.notify(t("transformer.lab.damaged", reason=describe(err), aside=aside.name),
                            severity="warning", timeout=10)  # fmt: skip
        if saved is not None:
            self.form.use_model(saved)
        elif not self.form.training:
            self.form.training = True
            # reversal, L 10: about a second, in a child process like every run of the app
            self._run().start([TransformerConfig()], pace="fast")

    def _run(self) -> TrainingRun:
        """The screen's TrainingRun, mounted the first time a run is wanted (most visits to
        the lab train nothing)."""
        runs = self.query(TrainingRun)
        if runs:
            return runs.first()
        run = TrainingRun(id="lab-training")
        self.mount(run, before=self.query_one(TutorFooter))
        return run

    def on_screen_resume(self) -> None:
        """Back in the lab with the trained source on show: a Transformer trained since (on
        the training screen) replaces the one shown. (The base class's handler runs too.)"""
        if self.form.saved is None or self.form.source != TRAINED:
            return
        try:
            stamp = _stamp(self._model_path())
        except InputError:
            return
        if stamp is not None and stamp != self.saved_stamp:
            self._open_trained()
            self.form.recompute()

    def open_trained_model(self) -> None:
        """Show the last Transformer trained in the app (the training screen's ctrl+o): its
        file is read again, even when the trained source is on show already."""
        self.form.choose_trained()
        self._open_trained()
        self.form.recompute()

    def on_training_run_finished(self, message: TrainingRun.Finished) -> None:
        """The default Transformer, trained because there was none: kept and shown."""
        result = message.result
        try:
            path = self._model_path()
            path.parent.mkdir(parents=True, exist_ok=True)
            transformer_file.save_result(path, result)
            self.saved_stamp = _stamp(path)
        except (InputError, OSError):
            pass  # not kept for next time, but shown all the same
        self.form.use_model(transformer_file.result_as_saved(result))

    def on_training_run_ended(self, message: TrainingRun.Ended) -> None:
        if message.error is not None and self.form.training:  # (no model to show)
            self.form.training = False
            self.notify(message.error, severity="error")
            self.form.recompute()

    def on_input_submitted(self, event: Input.Submitted) -> None:
        """Enter in a setting: back to the view, where the arrow keys move the cursor."""
        if self.form in event.input.ancestors:
            event.stop()
            self.views.focus_view()

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "toggle_kind" and self.views.both_kinds_shown:
            return False  # scores and weights are side by side: nothing to switch
        return super().check_action(action, parameters)

    # ---- actions ------------------------------------------------------------------------
    def action_toggle_mask(self) -> None:
        self.form.toggle_mask()

    def action_next_view(self) -> None:
        self.views.next_view(1)

    def action_prev_view(self) -> None:
        self.views.next_view(-1)

    def action_toggle_kind(self) -> None:
        self.views.toggle_kind()

    def action_next_head(self) -> None:
        self.views.next_head()
