"""The training screen: train the reversal model live and compare its variants.

"model" chooses the RNN (an encoder–decoder with attention) or the tiny Transformer: the same
child process, progress, loss, held-out accuracy and F9/F10 comparisons (over positional
encodings for the Transformer), with a map per head of every layer. A finished Transformer is
kept in the data directory as the last one trained, which ctrl+o opens in the lab.

The screen is a composition; each piece owns its state and its drawing:

- ``TrainSettings`` (``widgets.trainer.settings``): the settings rows, read and filled as one
  validated config; posts ``TrainSettings.Changed``;
- ``GuideList``: the five-step guided comparison (keys 1–5);
- ``LivePanel`` (``widgets.trainer.live``): the live run, throttled to FRAME redraws a second,
  with the timeline of a finished run;
- ``RunTables``: the runs finished this session and the multi-seed view (F4);
- ``TrainingRun`` (``widgets.training_run``): the one owner of the child process (F5, F9) and
  of F10's pool; posts what they report.

The screen wires them: keys become calls on them (attributes and methods down), their messages
come up here and go on to the piece that shows them. How each model is shown is asked of its
``ModelView`` (``widgets.trainer.models``), never decided here.

The defaults are chosen so that F5 on a fresh screen shows something: q·k attention at
length 10, at the watchable pace, grows a crisp reversal diagonal in a few seconds. The book's
own model (dot-product scores) is one key away (ctrl+t, or 2 in the guide).
"""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

from textual import on
from textual.app import ComposeResult
from textual.binding import ActiveBinding, Binding
from textual.compose import compose
from textual.containers import Horizontal, VerticalScroll
from textual.widgets import ContentSwitcher, Footer, Input, OptionList, Select

from attn_tui import paths
from attn_tui.compat import SelectCurrent, footer_composes_now
from attn_tui.core.models import transformer_file
from attn_tui.core.models.transformer_guide import TF_GUIDE
from attn_tui.core.models.transformer_trainer import TransformerConfig
from attn_tui.core.parse import InputError
from attn_tui.i18n import describe, t
from attn_tui.screens.base import TutorScreen
from attn_tui.widgets.localized import tr
from attn_tui.widgets.panel import MessageLine
from attn_tui.widgets.trainer.guide import GUIDE, GuideList, GuideTitle, load_figures
from attn_tui.widgets.trainer.live import LivePanel, ProgressPart
from attn_tui.widgets.trainer.models import MODELS, view_of
from attn_tui.widgets.trainer.settings import Settings, TrainSettings
from attn_tui.widgets.trainer.tables import PREVIEW_SEEDS, PREVIEW_VARIANTS, RunTables
from attn_tui.widgets.training_run import TrainingRun, warm_up

WIDE = 116  # from this many columns the footer has room for every key
NUMPY_KEY = "ctrl+n"  # the numpy behind this run (the app's F9 elsewhere)
EXTRA_KEYS = ("f3", "f8", "f9", "f10")  # in the footer only when it is wide (ctrl+n: F1)
# Narrower, the footer shows the keys that do something now: before and after a run what
# starts one (F6 and F7 would pause and stop nothing), while one goes what steers it.
NARROW_KEYS = {"idle": ("f5", "f9", "f10", "f4"), "seeds": ("f7", "f4")}
RUN_KEYS = ("f6", "f7", "f8", "f4")  # running, paused, stepping, stopping
TRAINER_KEYS = ("f3", "f4", "f5", "f6", "f7", "f8", "f9", "f10")  # the keys these rules place


class KeysAtOnceFooter(Footer):
    """The trainer's footer (full-size keys: there is room for them), with its keys in the
    screen's first frame. Textual's Footer composes none until the screen first publishes its
    bindings, then rebuilds itself only after the next refresh: a second frame, and the whole
    screen laid out again. That first publication comes as the screen gets its focus, before
    its first frame: the keys are mounted then and there. Later changes are Textual's
    (TutorScreen.refresh_bindings publishes only those that change what the footer shows).
    The same as base.TutorFooter's, for a footer that is not compact."""

    _keys_composed = False

    def bindings_changed(self, screen) -> None:
        if (not self._keys_composed and self.is_attached and screen is self.screen
                and screen.app.app_focus):  # fmt: skip
            self._keys_composed = True
            footer_composes_now(self)
            self.mount_all(compose(self))
            return
        super().bindings_changed(screen)


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
        ("train.ui.live", "train.ui.help.numpy"),
        ("train.ui.live", "induction.help"),
    )
    BINDINGS = [
        Binding("f5", "start", "train.key.start"),
        Binding("f6", "pause", "train.key.pause"),
        Binding("f7", "stop", "train.key.stop"),
        Binding("f8", "step", "train.key.step", show=False),
        Binding("f9", "compare", "train.key.compare", show=False),
        Binding("f10", "seeds", "train.key.seeds", show=False),
        Binding("f4", "toggle_view", "train.key.view"),
        Binding("f3", "flip('mean')", "train.key.mean", show=False),
        Binding("ctrl+r", "flip('absolute')", "train.key.scale", show=False),
        Binding("ctrl+t", "book_model", "train.key.book", show=False),
        Binding("ctrl+o", "open_lab", "transformer.ui.key.lab", show=False),
        # (a letter, as 1–5 are: a focused field types it instead)
        Binding("a", "ablate", "induction.key", show=False),
        # F9 is "versus" here, so the numpy behind this run has a key of its own
        Binding(NUMPY_KEY, "numpy", "train.key.numpy", show=False),
        *(
            Binding(str(k + 1), f"guide({k})", "train.key.guide", show=False)
            for k in range(len(GUIDE))
        ),  # fmt: skip
        # PgUp/PgDn reach the timeline (or scroll the tables) from anywhere
        Binding("pageup", "earlier", "train.key.earlier", show=False, priority=True),
        Binding("pagedown", "later", "train.key.later", show=False, priority=True),
    ]

    # the widget types whose own CSS (and their bases') the app parses while home is on show
    # (compat.parse_default_css_early): every type the screen opens with, as a subclass
    # parses its bases' CSS again (test_trainer_opens_whole counts what is left)
    WIDGETS_CSS = (Horizontal, VerticalScroll, ContentSwitcher, Select, SelectCurrent, Input,
                   TrainSettings, MessageLine, GuideTitle, GuideList, LivePanel, ProgressPart,
                   RunTables, TrainingRun, KeysAtOnceFooter)  # fmt: skip

    AUTO_FOCUS = "#guide"  # so 1–5 and F5 work at once (it focuses itself as it mounts)
    _wide: bool | None = None  # the footer shows every key (see active_bindings)
    _course_preset: dict | None = None  # a lesson's do-task settings (apply_preset)

    def __init__(self) -> None:
        super().__init__()
        self.figures = load_figures()
        self.form = TrainSettings(id="train-form")
        self.live = LivePanel(MODELS["rnn"].default, self.figures, id="live")
        self.tables = RunTables(self.figures, id="tables")
        self.run = TrainingRun(id="training")

    # ---- layout ---------------------------------------------------------------------------
    def compose(self) -> ComposeResult:
        with Horizontal(id="train"):
            with VerticalScroll(id="train-settings") as settings:
                tr(settings, "train.ui.settings", "border_title")
                yield self.form
                yield GuideTitle(id="guide-title", classes="muted")
                yield GuideList(self.figures, focused=True, id="guide")
            with ContentSwitcher(initial="live", id="train-right"):
                yield tr(self.live, "train.ui.live", "border_title")
                yield tr(self.tables, "train.ui.compare_view", "border_title")
        yield self.run
        yield KeysAtOnceFooter(show_command_palette=False)

    def on_mount(self) -> None:
        super().on_mount()
        # the child processes' server starts while the learner reads the screen
        self.run_worker(warm_up, thread=True, exit_on_error=False, group="warm-up")
        self.watch(self.run, "activity", self._activity_changed, init=False)
        self._show_settings(self.form.check())
        self.query_one("#guide", OptionList).focus()  # so 1–5 and F5 work at once
        if self._course_preset:
            self._fill_preset()

    # ---- the footer: every key when there is room for it ---------------------------------
    @property
    def active_bindings(self) -> dict[str, ActiveBinding]:
        bindings = super().active_bindings
        if self.size.width >= WIDE:
            wanted = {key for key, active in bindings.items() if active.binding.show}
            wanted.update(EXTRA_KEYS)
        else:
            wanted = set(NARROW_KEYS.get(self.run.activity, RUN_KEYS))
        shown = {}
        for key, active in bindings.items():
            if key in TRAINER_KEYS and active.binding.show != (key in wanted):
                show = key in wanted
                active = active._replace(binding=replace(active.binding, show=show))
            shown[key] = active
        return shown

    def on_resize(self) -> None:
        wide = self.size.width >= WIDE
        if wide != self._wide:
            self._wide = wide
            self.refresh_bindings()  # (only when crossing WIDE: each refresh costs widgets)

    # ---- what the pieces say ----------------------------------------------------------------
    @property
    def running(self) -> bool:
        return self.run.running

    @on(TrainSettings.Changed)
    def _settings_changed(self, message: TrainSettings.Changed) -> None:
        self.query_one(GuideList).model = self.form.model.name  # the chosen model's guide
        self._show_settings(message.settings)

    def _show_settings(self, settings: Settings | None) -> None:
        """The idle panel describes what F5 would train, the tables what F10 would compare."""
        if settings is None:
            self.tables.show_settings(self.live.config, PREVIEW_SEEDS, PREVIEW_VARIANTS)
            return
        self.live.preview(settings.config)
        self.tables.show_settings(settings.config, settings.seeds, settings.variants())

    @on(OptionList.OptionSelected, "#guide")
    def _guide_chosen(self, event: OptionList.OptionSelected) -> None:
        self.action_guide(event.option_index)

    def _activity_changed(self, activity: str) -> None:
        self.live.activity = activity
        self.refresh_bindings()  # the footer's keys follow what the run is doing

    _versus_config = None  # the second run of F9's pair: the variant the rows do not show

    def on_training_run_started(self, message: TrainingRun.Started) -> None:
        if self.query_one(ContentSwitcher).current != "live":
            self.show_view("live")
        versus = self._versus_config is not None and message.config == self._versus_config
        self.live.begin(message.run_id, message.config, self.run.pace, versus)
        self.relocalize()

    def relocalize(self) -> None:
        """What the screen words itself: the rows say the settings' variant, so while the
        right shows F9's other one, the rows' panel says so."""
        subtitle = t("train.ui.versus_shown") if self.live.versus else ""
        self.query_one("#train-settings").border_subtitle = subtitle

    def on_training_run_progressed(self, message: TrainingRun.Progressed) -> None:
        self.live.add(message.update)

    def on_training_run_finished(self, message: TrainingRun.Finished) -> None:
        result, saved_error = message.result, ""
        if result.outcome.kind == "finished":
            if view_of(result.config).name == "transformer":
                saved_error = keep_for_the_lab(self.app, result)
            self.tables.add_finished(result)
        self.live.finish(result, saved_error)

    def on_training_run_seed_finished(self, message: TrainingRun.SeedFinished) -> None:
        self.tables.add_seed(message.result)

    def on_training_run_ended(self, message: TrainingRun.Ended) -> None:
        if message.error is not None:
            self.notify(message.error, severity="error")
        self.tables.comparison_ended()
        self.live.ended()

    # ---- a lesson's do-task: its preset in, what the screen shows out -----------------------
    def apply_preset(self, preset: dict) -> None:
        """The settings a lesson's do-task opens with (``model`` rnn or transformer, and any
        TrainConfig / TransformerConfig field); filled in once the fields exist."""
        self._course_preset = dict(preset)
        if self.is_mounted:
            self._fill_preset()

    def _fill_preset(self) -> None:
        preset = dict(self._course_preset or {})
        model = MODELS[preset.pop("model", "rnn")]
        if model.name == "transformer":  # the task's own recipe, then the lesson's settings
            self.form.fill(TransformerConfig.for_task(preset.pop("task", "reverse"), **preset))
        else:
            self.form.fill(model.config_type(**preset))

    def course_state(self):  # -> core.course.state.TrainState
        """The model and settings on show, whether a run is going (a paused one is not), the
        latest held-out snapshot and this visit's finished runs."""
        from attn_tui.core.course.state import TrainState

        live = self.live
        model = view_of(live.config).name
        going = self.run.running and self.run.activity != "paused"
        return TrainState(model, live.config, going, live.iteration, live.snapshot,
                          tuple(self.tables.finished[model]), live.ablated)  # fmt: skip

    def show_finished(self, result) -> None:
        """Show a finished run as if it had just trained here (a stored run replayed, say):
        what the run's owner would have reported, without a child process."""
        self.on_training_run_started(TrainingRun.Started(self.run.run_id, result.config))
        self.on_training_run_finished(TrainingRun.Finished(self.run.run_id, result))

    # ---- actions ----------------------------------------------------------------------------
    def _settings_to_run(self) -> Settings | None:
        """The settings, when a run may start (none is on, and every setting is usable)."""
        if self.running:
            self.notify(t("train.ui.busy"), severity="warning", timeout=3)
            return None
        return self.form.check()

    def _other_variant(self, settings: Settings) -> str | None:
        """F9/F10's other variant; None (and a word) when it is the settings' own."""
        versus, own = settings.variants()
        if versus == own:
            label = view_of(settings.config).variant_label(versus)
            self.notify(t("train.ui.same_variant", variant=label), timeout=4)
            return None
        return versus

    def action_start(self) -> None:
        settings = self._settings_to_run()
        if settings is not None:
            self.live.forget_pair()
            self._versus_config = None
            self.run.start([settings.run_config()], settings.pace)

    def action_compare(self) -> None:
        """Two variants with the same seed, one after the other: the settings', and F9's."""
        settings = self._settings_to_run()
        if settings is None or (versus := self._other_variant(settings)) is None:
            return
        self.live.forget_pair()
        cfg = settings.run_config()
        self._versus_config = view_of(cfg).with_variant(cfg, versus)
        self.run.start([cfg, self._versus_config], settings.pace)

    def action_seeds(self) -> None:
        settings = self._settings_to_run()
        if settings is None or self._other_variant(settings) is None:
            return
        base, variants = settings.config, settings.variants()
        self.tables.begin_comparison(base, settings.seeds, variants)
        self.show_view("tables")
        self.run.start_seeds(view_of(base).seed_configs(base, settings.seeds, variants))

    def action_pause(self) -> None:
        self.run.pause()

    def action_stop(self) -> None:
        if not self.running:
            self.notify(t("train.ui.nothing"), timeout=2)
            return
        self.run.stop()

    def action_step(self) -> None:
        if self.running:
            self.run.step()
        else:
            self.form.set(pace="step")
            self.action_start()

    def action_guide(self, k: int) -> None:
        """Load guide step ``k`` of the chosen model into the settings and train it (the
        Transformer's five steps are each done in seconds at the watchable pace)."""
        if self.running:
            self.notify(t("train.ui.busy"), severity="warning", timeout=3)
            return
        try:
            seed = int(self.form.text("seed"))
        except ValueError:
            seed = 0
        if self.form.model.name == "transformer":
            self.form.fill(replace(TF_GUIDE[k].config, seed=seed))
            self.form.set(pace="watch")
        else:
            step = GUIDE[k]
            self.form.fill(step.experiment.config(seed), step.versus)
        self.query_one("#guide", OptionList).highlighted = k
        self.call_after_refresh(self.action_start)  # after the fields' Changed messages

    def action_book_model(self) -> None:
        """The book's model: dot-product scores, the previous target fed (length kept)."""
        if self.running:
            return
        self.form.set(model="rnn", variant="dot", feed="previous")
        if self.form.text("versus") == "dot":
            self.form.set(versus="qk")
        self.notify(t("train.ui.book_loaded"), timeout=3)

    async def action_open_lab(self) -> None:
        """The lab, opened on the Transformer this screen trained last."""
        if self.running:
            self.notify(t("train.ui.busy"), severity="warning", timeout=3)
            return
        try:
            there = last_model_path(self.app).is_file()
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

    def action_numpy(self) -> None:
        """The readable numpy of the model on show (core.models.rnn_reference or
        transformer_reference), ending with the call for its settings."""
        config = self.live.config
        from attn_tui.screens.numpy_view import NumpyScreen

        if view_of(config).name == "rnn":
            from attn_tui.core.models import rnn_reference as reference

            note = "train.ui.numpy_note"
        else:
            from attn_tui.core.models import transformer_reference as reference

            note = "train.ui.numpy_note_transformer"
        self.app.push_screen(NumpyScreen(reference.source(config), "train.ui.numpy_title", note))

    def show_view(self, view: str) -> None:
        """ "live" or "tables"; the tables take the whole width (the settings step aside) and
        the focus, so arrows and PgUp/PgDn scroll them at once."""
        self.query_one(ContentSwitcher).current = view
        self.query_one("#train-settings").display = view == "live"
        if view == "tables":
            self.tables.focus()
            self.call_after_refresh(self.tables.redraw)
        else:
            self.live.forget_drawn()
            self.call_after_refresh(self.live.redraw)

    def action_ablate(self) -> None:
        """After an induction run: layer 1's previous-token head off, or back on."""
        if self.live.can_ablate:
            if self.query_one(ContentSwitcher).current != "live":
                self.show_view("live")
            self.live.toggle_ablation()
        elif view_of(self.live.config).follows_phases(self.live.config):
            self.notify(t("induction.ablation_wait"), timeout=3)

    def action_toggle_view(self) -> None:
        self.show_view("tables" if self.query_one(ContentSwitcher).current == "live" else "live")

    def action_flip(self, name: str) -> None:
        """The live map's switches: ``mean`` (the held-out average, not the probe; F3) and
        ``absolute`` (colours over 0–100 %, not the map's own range; ctrl+r)."""
        if name in ("mean", "absolute"):
            setattr(self.live, name, not getattr(self.live, name))

    def action_earlier(self) -> None:
        if self.query_one(ContentSwitcher).current == "tables":
            self.tables.scroll_page_up()
        else:
            self.live.action_earlier()

    def action_later(self) -> None:
        if self.query_one(ContentSwitcher).current == "tables":
            self.tables.scroll_page_down()
        else:
            self.live.action_later()

    # ---- leaving --------------------------------------------------------------------------------
    def on_screen_suspend(self) -> None:
        # the help overlay suspends this screen too, but keeps it in the stack: only leaving
        # the area (Esc switches to the home mode) stops the run
        if self not in self.app.screen_stack:
            self.run.kill()

    def on_unmount(self) -> None:
        self.run.kill()


# ---- the Transformer kept for the lab ---------------------------------------------------------
def last_model_path(app) -> Path:
    """Where the lab opens the last Transformer trained (InputError: no usable data folder)."""
    return paths.last_transformer(paths.data_dir(app.data_dir))


def keep_for_the_lab(app, result) -> str:
    """Save a finished Transformer where the lab opens the last one trained; why not, if it
    could not be ('' when it was)."""
    try:
        path = last_model_path(app)
        path.parent.mkdir(parents=True, exist_ok=True)
        transformer_file.save_result(path, result)
    except InputError as err:
        return describe(err)
    except OSError as err:
        return err.strerror or str(err)
    return ""
