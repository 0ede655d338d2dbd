"""The trainer's settings: one table of fields, one ``read()`` and one ``fill()``.

:data:`FIELDS` lists every row of the form in the order shown: its name (the control's id,
and the config's attribute where it is one), its kind, the models that show it and its label.
``read()`` turns the chosen model's rows (and the settings no row shows, kept from the last
``fill``: the Transformer guide's causal mask) into that model's config — whole numbers and reals
where the text is one, the text itself where it is not — and lets the config's own
``validate`` name the first fault (``TrainConfig.validate``, ``TransformerConfig.validate``):
the form checks nothing a config checks. ``fill(config)`` is the inverse.

The form keeps its own small rules, shows the first fault under the rows, and posts
``TrainSettings.Changed`` after every edit with the settings, or None while one is unusable.
The rules: a row the app filled (a starting value, a guide step, the book's model, F8's pace)
follows the model: choosing the other model puts that model's starting length, batch, pace,
iterations and learning rate there (the RNN guide's length 20 is not the Transformer's); the
task moves the iterations and learning rate the same way, the RNN's iterations follow the
length; a figure or choice the learner made stays.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import Any

from textual import on
from textual.app import ComposeResult
from textual.containers import Horizontal
from textual.message import Message
from textual.widget import Widget
from textual.widgets import Input, Select, Static

from attn_tui.core.models.transformer_trainer import TASKS
from attn_tui.core.parse import InputError
from attn_tui.i18n import describe, t
from attn_tui.render import transformer as tf_render
from attn_tui.render.prose import Prose
from attn_tui.widgets.localized import tr
from attn_tui.widgets.panel import MessageLine
from attn_tui.widgets.trainer.models import MODELS, ModelView, view_of

MAX_SEEDS = 50
PACES = ("watch", "fast", "step")
SHOWN_VARIANTS = ("qk", "general", "dot", "none")  # the variant menus, learned scores first
NOT_A_NUMBER = "∅"  # what a fault message shows for an empty field


def _variants() -> list[tuple[str, str]]:
    return [(t(f"train.ui.variant.{v}"), v) for v in SHOWN_VARIANTS]


def _positions() -> list[tuple[str, str]]:
    return [(tf_render.positions_name(p), p) for p in tf_render.POSITIONS_SHOWN]


@dataclass(frozen=True)
class Field:
    """One row of the form."""

    name: str  # the control's id, and the config's attribute where it is one
    kind: str  # "int", "real" or "choice"
    models: tuple[str, ...] = ()  # the models that show it; () = every model
    label: str = ""  # its catalogue key; "" = train.ui.<name>
    options: Callable[[], list[tuple[str, str]]] | None = None  # a choice's (label, value)
    classes: str = ""


FIELDS = (
    Field("model", "choice", label="transformer.ui.model", classes="model-row",
          options=lambda: [(t(f"transformer.ui.model.{m}"), m) for m in MODELS]),
    Field("variant", "choice", ("rnn",), options=_variants),
    Field("task", "choice", ("transformer",), "transformer.ui.task",
          options=lambda: [(t(f"transformer.task.{k}"), k) for k in TASKS]),
    Field("length", "int"),
    Field("feed", "choice", ("rnn",),
          options=lambda: [(t(f"train.ui.feed.{f}"), f) for f in ("previous", "none")]),
    Field("positions", "choice", ("transformer",), "transformer.ui.positions", _positions),
    Field("layers", "int", ("transformer",), "transformer.ui.layers"),
    Field("heads", "int", ("transformer",), "transformer.ui.heads"),
    Field("d_model", "int", ("transformer",), "transformer.ui.d_model"),
    Field("iters", "int"),
    Field("seed", "int"),
    Field("lr", "real"),
    Field("batch", "int"),
    Field("pace", "choice", options=lambda: [(t(f"train.ui.pace.{p}"), p) for p in PACES]),
    Field("versus", "choice", ("rnn",), options=_variants),
    Field("tf-versus", "choice", ("transformer",), "train.ui.versus", _positions),
    Field("seeds", "int"),
)  # fmt: skip
BY_NAME = {field.name: field for field in FIELDS}


def starting_values() -> dict[str, Any]:
    """What a fresh form shows: the RNN's default run, the Transformer's own rows."""
    rnn, tf = MODELS["rnn"], MODELS["transformer"]
    return {**tf.values(tf.default), **rnn.values(rnn.default), "model": rnn.name,
            "pace": "watch", "versus": "dot", "tf-versus": "none", "seeds": 10}  # fmt: skip


def _shown(value: Any) -> str:
    return f"{value:g}" if isinstance(value, float) else str(value)


def _number(text: str, kind: str) -> Any:
    """The number typed, or the text itself (for the config's check to name)."""
    try:
        return int(text) if kind == "int" else float(text)
    except ValueError:
        return text or NOT_A_NUMBER


@dataclass(frozen=True)
class Settings:
    """Everything the form says: the run F5 trains, its pace, F9/F10's other variant and
    F10's seeds."""

    config: Any
    pace: str
    versus: str
    seeds: tuple[int, ...]

    def variants(self) -> tuple[str, str]:
        """F9/F10's pair: the other variant (versus) first, then the settings' own."""
        return self.versus, view_of(self.config).variant_of(self.config)

    def run_config(self) -> Any:
        """The run F5 starts: the config, evaluated as its pace wants — every step when
        stepping (the map follows each press), ~60 times a run when watching. Evaluation
        never changes the training."""
        cfg = self.config
        if self.pace == "step":
            return replace(cfg, eval_every=1)
        if self.pace == "watch":
            return replace(cfg, eval_every=max(10, cfg.iters // 60))
        return cfg


class TrainSettings(Widget):
    """The settings rows and the line naming the first fault."""

    # a row of one model (class only-<model>) shows while that model is chosen (-<model>);
    # the RNN is the first model, shown without a class
    DEFAULT_CSS = """
    TrainSettings {
        height: auto;
        & .row.only-transformer { display: none; }
        &.-transformer .row.only-transformer { display: block; }
        &.-transformer .row.only-rnn { display: none; }
    }
    """

    @dataclass
    class Changed(Message):
        """A setting was edited; ``settings`` is None while one is unusable."""

        form: TrainSettings
        settings: Settings | None

        @property
        def control(self) -> TrainSettings:
            return self.form

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self._controls: dict[str, Input | Select] = {}
        self._error = MessageLine(Prose, id="train-error", classes="error")
        self._placed: dict[str, str] = {}  # what the app last put in each row (not the learner)
        self._model_shown = "rnn"  # the model whose starting rows are in place
        self._task_shown = ""  # the task whose iterations are in place (set in compose)
        self._hidden: dict[str, Any] = {}  # settings no row shows, from the last fill()
        self._rows: dict[str, Horizontal] = {}  # the rows built so far, by field
        # the text of a row not built yet, or built but not mounted: its control's value then
        self._waiting: dict[str, str] = {}

    def compose(self) -> ComposeResult:
        # Only the first model's rows (and every model's) are built now: the other models'
        # rows are hidden until one is chosen, and each costs its styles and layout on the
        # screen's first frame (a Select is five widgets). They wait here as text, and are
        # mounted the first time their model is chosen (_build_rows).
        values = starting_values()
        first = next(iter(MODELS))
        for field in FIELDS:
            value = _shown(values[field.name])
            self._placed[field.name] = value
            if field.models and first not in field.models:
                self._waiting[field.name] = value
            else:
                yield self._row(field, value)
        self._task_shown = self.text("task")
        yield self._error

    def _row(self, field: Field, value: str) -> Horizontal:
        """A row of the form: its label and its control, showing ``value``."""
        only = " ".join(f"only-{m}" for m in field.models)
        label = tr(Static(classes="inline-label"), field.label or f"train.ui.{field.name}")
        if field.kind == "choice":
            assert field.options is not None
            control: Input | Select = Select(field.options(), id=field.name, compact=True,
                                             allow_blank=False, value=value)  # fmt: skip
        else:
            kind = "number" if field.kind == "real" else "integer"
            control = Input(value, id=field.name, compact=True, type=kind)
        self._controls[field.name] = control
        row = Horizontal(label, control, classes=f"row {only} {field.classes}")
        self._rows[field.name] = row
        return row

    def _build_rows(self, model: str) -> None:
        """Mount ``model``'s rows not built yet, each after the row before it in FIELDS; their
        text stays in ``_waiting`` (what ``text`` reads, what ``_put`` fills) until they are
        mounted, then goes to the controls (a Select reads no value before it is mounted)."""
        names = [f.name for f in FIELDS if model in f.models and f.name not in self._rows]
        if not names:
            return
        built: list[str] = []
        mounts = []
        for n, field in enumerate(FIELDS):
            if field.name in names:
                before = next(self._rows[f.name] for f in reversed(FIELDS[:n])
                              if f.name in self._rows)  # fmt: skip
                row = self._row(field, self._waiting[field.name])
                mounts.append(self.mount(row, after=before))
                built.append(field.name)

        async def mounted() -> None:
            for mount in mounts:
                await mount
            for name in built:
                value = self._waiting.pop(name)
                if self.text(name) != value:  # filled while it was being mounted
                    self._controls[name].value = value

        self.call_later(mounted)

    # ---- reading and filling ------------------------------------------------------------------
    @property
    def model(self) -> ModelView:
        value = self.text("model")
        return MODELS.get(value, MODELS["rnn"])

    def text(self, name: str) -> str:
        """A row as it stands: a field's text (stripped) or a choice's value."""
        if name in self._waiting:
            return self._waiting[name]
        control = self._controls[name]
        if isinstance(control, Input):
            return control.value.strip()
        value = control.value
        return value if isinstance(value, str) else _shown(starting_values()[name])

    def read(self) -> Settings:
        """The settings as the chosen model's validated config and the rest; InputError names
        the first fault."""
        model = self.model
        values = {}
        for name in model.config_fields:
            field = BY_NAME[name]
            text = self.text(name)
            values[name] = text if field.kind == "choice" else _number(text, field.kind)
        values.update({k: v for k, v in self._hidden.items() if k in model.hidden_fields})
        config = model.make(values)
        text = self.text("seeds")
        n = _number(text, "int")
        if not (isinstance(n, int) and 1 <= n <= MAX_SEEDS):
            raise InputError("train.bad_seeds", value=text or NOT_A_NUMBER, hi=MAX_SEEDS)
        seeds = tuple(range(config.seed, config.seed + n))
        return Settings(config, self.text("pace"), self.text(model.versus_field), seeds)

    def fill(self, config: Any, versus: str | None = None) -> None:
        """Show ``config`` (a guide step, the book's model, a stored run) in the rows."""
        model = next(m for m in MODELS.values() if isinstance(config, m.config_type))
        values = {"model": model.name, **model.values(config)}
        self._hidden = {name: getattr(config, name) for name in model.hidden_fields}
        if versus is not None:
            values[model.versus_field] = versus
        self.set(**values)

    def set(self, **values: Any) -> None:
        """Set rows by name (their Changed messages follow, as for an edit). A model named
        here is put in place first, so the rows named with it are not overwritten by its
        starting values."""
        model = values.get("model")
        if model is not None and model != self._model_shown:
            self._put("model", model)
            self._model_chosen(keep=values.keys())
        for name, value in values.items():
            self._put(name, value)
        if "task" in values:
            self._task_shown = self.text("task")

    def _put(self, name: str, value: Any) -> None:
        """Fill a row as the app (it then follows the model, see the module's docstring)."""
        self._placed[name] = _shown(value)
        if name in self._waiting:
            self._waiting[name] = _shown(value)
        else:
            self._controls[name].value = _shown(value)

    def _placed_here(self, name: str) -> bool:
        """The row still holds what the app put there: the learner has not changed it."""
        return self.text(name) == self._placed.get(name)

    def check(self) -> Settings | None:
        """Show the first fault under the rows (or clear it); the settings when all are usable."""
        try:
            settings = self.read()
        except InputError as err:
            self._error.say(describe(err))
            return None
        self._error.say("")
        return settings

    # ---- the form's own rules -------------------------------------------------------------------
    def _model_defaults(self) -> dict[str, str]:
        """The rows the chosen model's (and task's, and length's) recipe sets, and their text:
        the iterations and learning rate, and for a Transformer task its own length, layers,
        heads, d_model and batch (``ModelView.starting``: the induction run's whole recipe)."""
        model = self.model
        return model.starting({name: self.text(name) for name in model.config_fields})

    @on(Input.Changed)
    @on(Select.Changed)
    def _edited(self, event: Input.Changed | Select.Changed) -> None:
        event.stop()  # what the screen hears is Changed
        name = event.control.id
        if name == "model" and self.model.name != self._model_shown:
            self._model_chosen()
        elif name == "task" and self.text("task") != self._task_shown:
            self._task_shown = self.text("task")
            self._follow(self._model_defaults())
        elif name == "length" and self.model.iters_follow_length:
            self._length_edited()
        self.post_message(self.Changed(self, self.check()))

    def _model_chosen(self, keep: Any = ()) -> None:
        """Show the chosen model's rows; a row the app filled takes this model's starting
        value (the length first: the iterations may follow it), one the learner changed, or
        one named in ``keep``, stays."""
        model = self.model
        self._model_shown = model.name
        self._build_rows(model.name)
        for name in MODELS:
            self.set_class(model.name == name and name != "rnn", f"-{name}")
        start = starting_values() | model.values(model.default)
        self._follow({name: _shown(start[name]) for name in ("length", "batch", "pace")}, keep)
        self._follow(self._model_defaults(), keep)

    def _follow(self, values: dict[str, str], keep: Any = ()) -> None:
        for name, value in values.items():
            if name not in keep and self._placed_here(name):
                self._put(name, value)

    def _length_edited(self) -> None:
        """The recipe's iterations follow the length, while the learner has not typed a
        figure of their own."""
        try:
            int(self.text("length"))
        except ValueError:
            return
        if self.text("iters") in self.model.iters_follow_length:
            self._put("iters", self._model_defaults()["iters"])

    def relocalize(self) -> None:
        for field in FIELDS:
            control = self._controls.get(field.name)
            if field.name in self._waiting:
                continue  # not mounted yet (built with the labels of now)
            if isinstance(control, Select) and field.options is not None:
                relabel(control, field.options())
        self.check()


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
