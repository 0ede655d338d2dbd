"""The lab's settings: where the queries come from, and the layer they go through.

:class:`LabSettings` reads its fields into a layer (``core.attention.lab.compute``) on every
change — a preset sentence or n numbered tokens with random weights, rows of X (and W
matrices) typed by the learner, or the last Transformer trained in the app — names a wrong
setting under its own field, keeps the last valid layer, and posts ``LabSettings.Changed``
with what the views should show. Choosing the trained source posts ``TrainedWanted``: opening
the model (a file, or training one) is the screen's business, which hands it back with
:meth:`LabSettings.use_model`.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from rich.console import RenderableType
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, ScrollableContainer, Vertical
from textual.message import Message
from textual.widget import Widget
from textual.widgets import Collapsible, Input, Select, Static, TextArea

from attn_tui.core import format as fmt
from attn_tui.core.attention import lab, trained
from attn_tui.core.attention.lab import LabResult
from attn_tui.core.models import tasks, transformer_file
from attn_tui.core.parse import InputError, normalise, parse_matrix
from attn_tui.i18n import describe, get_lang, t
from attn_tui.render.prose import Prose
from attn_tui.widgets.fields import LineInput, PanelSelect, Tick
from attn_tui.widgets.localized import tr
from attn_tui.widgets.panel import MessageLine

TYPED = "typed"  # X (and optionally the W matrices) typed by the learner
TRAINED = "trained"  # the last Transformer trained in the app, on a held-out sequence
SENTENCES = (*lab.PRESETS, "count", TYPED, TRAINED)  # "count": x1 … xn from the tokens field
# the Transformer's keys live in text/transformer.py
TEXT_KEY = {
    "lab.preset.trained": "transformer.lab.source_choice",
    "lab.view.model": "transformer.lab.view.model",
    "lab.view.lines": "transformer.lab.view.lines",
}
WEIGHTS = ("W_Q", "W_K", "W_V", "W_O")
MATRICES = ("X", *WEIGHTS)  # the typed fields' ids, and the ``field`` of their faults
CROSS_OFF = "off"
# Which field a core fault belongs under.
FAULT_FIELD = {
    "lab.empty": "tokens",
    "lab.too_many_tokens": "tokens",
    "lab.d_model": "d_model",
    "lab.heads": "heads",
    "lab.heads_width": "heads",
    "lab.window": "window",
    "lab.cross_mask": "cross",
    "lab.cross_dim": "cross",
}
INT_FIELDS = ("tokens", "d_model", "heads", "seed")


def _means_no_window(text: str) -> bool:
    """The window field's own word for "no window" (its placeholder, in either language), or ∞."""
    word = text.strip().lower()
    return word in {"all", "不限", "∞", "none", "inf"}


FIELDS = (*INT_FIELDS, "window", "cross", "labels", *MATRICES, "sentence", "sequence", "layer")
# Faults of a typed X that the core words for d_model or the token count.
TYPED_FAULT_FIELD = {"lab.empty": "X", "lab.too_many_tokens": "X", "lab.d_model": "X"}


def lab_t(key: str, **params) -> str:
    """A lab text, the Transformer's own where it has one."""
    return t(TEXT_KEY.get(key, key), **params)


def _rows_text(X) -> str:
    """A matrix as the typed field shows it: one row per line, numbers as the parser reads them."""
    return "\n".join(" ".join(f"{float(v):g}" for v in row) for row in X)


def _labels(text: str) -> list[str] | None:
    """Token labels separated by spaces (or commas); none typed means x1 … xn."""
    words = [w for w in re.split(r"[\s,，、]+", text) if w]
    return words or None


_TEXT_AREA_KEYS = {key for b in TextArea.BINDINGS for key in b.key.split(",")}


class MatrixArea(TextArea, inherit_bindings=False):
    """A typed matrix. TextArea's keys without its F6 ("select line"), so that F6 still
    changes the head here and the footer keeps its order."""

    BINDINGS = [
        *(b for b in ScrollableContainer.BINDINGS if b.key not in _TEXT_AREA_KEYS),
        *(b for b in TextArea.BINDINGS if b.key != "f6"),
    ]


class LabSettings(Vertical):
    """The settings panel; computes the layer on show from its fields. Down and Up move
    between its fields (a typed matrix keeps them for its own lines); Enter in a field goes
    back to the view (the screen's ``on_input_submitted``)."""

    BINDINGS = [
        Binding("down", "app.focus_next", show=False),
        Binding("up", "app.focus_previous", show=False),
    ]

    @dataclass
    class Changed(Message):
        """The layer on show (the last valid one while ``errors`` names a wrong setting)."""

        result: LabResult | None
        shown_layers: tuple[LabResult, ...]  # every layer on show (one unless trained)
        errors: dict[str, str]
        note: RenderableType  # whose weights these are
        held: object  # a trained model's held-out evaluation, when its weights are on show
        trained: bool  # the trained Transformer's weights are on show (not random ones)

    class TrainedWanted(Message):
        """The trained Transformer was chosen as the source: open it (use_model)."""

    def __init__(self, **kwargs) -> None:
        super().__init__(**kwargs)
        self.result: LabResult | None = None
        self.shown_layers: tuple[LabResult, ...] = ()
        self.errors: dict[str, str] = {}
        self._seed_shown = ""  # the seed of the weights on show (the field may be mid-edit)
        self.saved: transformer_file.SavedModel | None = None  # the trained Transformer
        self.held = None  # its held-out evaluation (accuracy, what each head does)
        self.training = False  # the default Transformer is being trained for us
        self._by_id: dict[str, Any] = {}
        self._lazy: dict[str, Widget] = {}  # the widgets built after composing, by id

    @property
    def stale(self) -> bool:
        """A setting is wrong: what is on show is the last valid layer."""
        return bool(self.errors)

    # ---- layout ---------------------------------------------------------------------------
    def compose(self) -> ComposeResult:
        # The sentence in the learner's language: a Chinese one in English mode puzzles.
        config = lab.LabConfig(preset="cat" if get_lang() == "zh" else "love")
        yield tr(Static(classes="field-label"), "lab.sentence")
        yield PanelSelect(self._sentence_options(), id="sentence", compact=True,
                          allow_blank=False, value=config.preset)  # fmt: skip
        yield MessageLine(Prose, id="sentence-error", classes="error")
        yield from self._trained_fields()
        yield from self._typed_fields()
        with Vertical(id="random-settings"):  # what a trained model's file decides
            yield from self._int_row("tokens", "lab.tokens", len(lab.PRESETS[config.preset]))
            yield from self._int_row("d_model", "lab.d_model_label", config.d_model)
            yield from self._int_row("heads", "lab.heads_label", config.heads)
            yield from self._int_row("seed", "lab.seed", config.seed)
            yield tr(Tick(value=config.causal, id="causal", compact=True), "lab.causal", "label")
            with Horizontal(classes="row"):
                yield tr(Static(classes="inline-label"), "lab.window_label")
                yield tr(LineInput("", id="window", compact=True), "lab.window_placeholder",
                         "placeholder")  # fmt: skip
            yield MessageLine(Prose, id="window-error", classes="error")
            yield tr(Static(classes="field-label"), "lab.cross_label")
            yield PanelSelect(self._cross_options(), id="cross", compact=True,
                              allow_blank=False, value=CROSS_OFF)  # fmt: skip
            yield MessageLine(Prose, id="cross-error", classes="error")

    # The trained model's fields and the typed ones are built when their source is first
    # chosen, not with the screen: most visits use neither, and their thirty-odd widgets (five
    # TextAreas among them) were a third of what the lab mounted, styled and laid out as it
    # opened. Each is mounted one level at a time, so it can be found (and filled) at once;
    # the four W fields inside the fold come when the fold composes, and until then are found
    # through ``_lazy``, the widgets built so far by id.
    def _trained_fields(self) -> ComposeResult:
        """What the trained model is, the sequence it reads and the layer on show."""
        yield Vertical(id="trained")

    def _typed_fields(self) -> ComposeResult:
        """X, its labels and the four W matrices; shown while "typed rows" is chosen."""
        yield Vertical(id="typed")

    def _build(self, box_id: str) -> None:
        """Mount the trained (or typed) source's fields, if they are not yet."""
        box = self._node(box_id)
        if box.children:
            return
        if box_id == "trained":
            sequence, layer = Horizontal(classes="row"), Horizontal(classes="row")
            self._mount(box, Static(id="trained-info"), sequence,
                        MessageLine(Prose, id="sequence-error", classes="error"), layer,
                        MessageLine(Prose, id="layer-error", classes="error"))  # fmt: skip
            self._mount(sequence, tr(Static(classes="inline-label"), "transformer.lab.sequence"),
                        LineInput(id="sequence", compact=True))  # fmt: skip
            self._mount(layer, tr(Static(classes="inline-label"), "transformer.lab.layer"),
                        Input("1", id="layer", compact=True, type="integer"))  # fmt: skip
        else:
            labels = Horizontal(classes="row")
            weights: list[Widget] = []
            for name in WEIGHTS:
                weights += [
                    Static(name, id=f"{name}-label", classes="field-label"),
                    tr(MatrixArea(id=name, compact=True, soft_wrap=False, tab_behavior="focus"),
                       "lab.w_placeholder", "placeholder"),
                    MessageLine(Prose, id=f"{name}-error", classes="error"),
                ]  # fmt: skip
            self._lazy.update((w.id, w) for w in weights if w.id)
            fold = Collapsible(*weights, id="typed-w", title=", ".join(WEIGHTS), collapsed=True)
            self._mount(box, tr(Static(classes="field-label"), "lab.x_label"),
                        MatrixArea(id="X", compact=True, soft_wrap=False, tab_behavior="focus"),
                        MessageLine(Prose, id="X-error", classes="error"), labels,
                        MessageLine(Prose, id="labels-error", classes="error"), fold)  # fmt: skip
            self._mount(labels, tr(Static(classes="inline-label"), "lab.labels_label"),
                        tr(LineInput(id="labels", compact=True), "lab.labels_placeholder",
                           "placeholder"))  # fmt: skip

    def _mount(self, parent: Widget, *widgets: Widget) -> None:
        parent.mount_all(widgets)
        self._lazy.update((w.id, w) for w in widgets if w.id)
        self._by_id = {}  # found again, with these

    def _int_row(self, field: str, label_key: str, value: int) -> ComposeResult:
        with Horizontal(classes="row", id=f"{field}-row"):
            yield tr(Static(classes="inline-label"), label_key)
            # Plain text, checked on each change: an integer-only field drops a typed "." without
            # a word, so "2.5" silently became 25.
            yield LineInput(str(value), id=field, compact=True)
        yield MessageLine(Prose, id=f"{field}-error", classes="error")

    def _sentence_options(self) -> list[tuple[str, str]]:
        return [(lab_t(f"lab.preset.{name}"), name) for name in SENTENCES]

    def _cross_options(self) -> list[tuple[str, str]]:
        return [(t("lab.cross.off"), CROSS_OFF)] + [
            (t(f"lab.preset.{name}"), name) for name in lab.PRESETS
        ]

    def _node(self, id: str) -> Any:
        """One of the form's own widgets, by id (all looked up once)."""
        if not self._by_id:
            self._by_id = {node.id: node for node in self.query("*") if node.id}
        node = self._by_id.get(id) or self._lazy.get(id)
        if node is None:
            raise KeyError(id)
        return node

    def _has(self, id: str) -> bool:
        """Whether the widget is built (a source's fields are built when it is chosen)."""
        try:
            self._node(id)
        except KeyError:
            return False
        return True

    # ---- what the screen tells it ------------------------------------------------------------
    @property
    def source(self) -> str:
        value = self._node("sentence").value
        return value if isinstance(value, str) else ""

    @property
    def showing_trained(self) -> bool:
        return self.source == TRAINED and self.saved is not None

    def choose_trained(self) -> None:
        """Make the trained Transformer the source (ctrl+o on the trainer) without asking for it
        again (the screen opens it)."""
        with self.prevent(Select.Changed):
            self._node("sentence").value = TRAINED

    def use_model(self, saved: transformer_file.SavedModel) -> None:
        """Show this trained Transformer, on its own held-out probe sequence, layer 1."""
        self.training = False
        self.saved = saved
        self.held = trained.held_out(saved.model, saved.config)
        self._build("trained")
        with self.prevent(Input.Changed):
            self._node("sequence").value = tasks.labels(saved.config.task, saved.probe)
            self._node("layer").value = "1"
        self.recompute()

    def fill(self, preset: dict) -> None:
        """LabConfig fields (preset, d_model, heads, causal, window, seed) set as a learner
        would set them (each change recomputes)."""
        if "preset" in preset:
            self._node("sentence").value = preset["preset"]
            self._node("tokens").value = str(len(lab.PRESETS[preset["preset"]]))
        for field in ("d_model", "heads", "seed"):
            if field in preset:
                self._node(field).value = str(preset[field])
        if "causal" in preset:
            self._node("causal").value = bool(preset["causal"])
        if preset.get("window") is not None:
            self._node("window").value = str(preset["window"])
        self.recompute()

    def toggle_mask(self) -> None:
        tick = self._node("causal")
        tick.value = not tick.value

    # ---- computing ----------------------------------------------------------------------
    def _read(self) -> tuple[LabResult | None, dict[str, str]]:
        """Every setting → a layer, or the faults by field."""
        errors: dict[str, str] = {}
        ints: dict[str, int] = {}
        sentence = self.source
        if sentence == TRAINED:
            return self._read_trained()
        typed = sentence == TYPED
        for field in INT_FIELDS:
            if typed and field in ("tokens", "d_model"):
                continue  # both follow the typed X
            try:
                ints[field] = int(normalise(self._node(field).value.strip()))
            except ValueError:
                name = t(f"lab.{field}_label" if field in ("d_model", "heads") else f"lab.{field}")
                value = self._node(field).value.strip()
                errors[field] = (t("lab.bad_int", name=name, value=value) if value
                                 else t("lab.empty_int", name=name))  # fmt: skip
        window_text = self._node("window").value.strip()
        window: int | None = None
        if window_text and not _means_no_window(window_text):
            try:
                window = int(normalise(window_text))
            except ValueError:
                errors["window"] = t("lab.bad_window", value=window_text)
        proj: lab.Projections | None = None
        if typed:
            queries, proj = self._read_typed(ints.get("seed"), errors)
        if errors:
            return None, errors
        cross = self._node("cross").value
        seed = ints["seed"]
        try:
            if typed:
                d_model = queries.d_model
            elif sentence == "count":
                d_model = ints["d_model"]
                queries = lab.numbered(ints["tokens"], d_model, seed)
            else:
                d_model = ints["d_model"]
                queries = lab.preset(str(sentence), d_model, seed)
            memory = None if cross == CROSS_OFF else lab.preset(str(cross), d_model, seed)
            result = lab.compute(queries, memory, proj, heads=ints["heads"],
                                 causal=self._node("causal").value,
                                 window=window, seed=seed)  # fmt: skip
        except InputError as err:
            errors[self._fault_field(err, typed)] = describe(err)
            return None, errors
        return result, errors

    def _read_trained(self) -> tuple[LabResult | None, dict[str, str]]:
        """The trained model on the typed (or held-out) sequence: one lab result per layer."""
        if self.saved is None:
            key = "transformer.lab.training" if self.training else "transformer.lab.no_model"
            return None, {"sentence": t(key)}
        config = self.saved.config
        errors: dict[str, str] = {}
        x = None
        try:
            x = trained.parse_sequence(self._node("sequence").value, config.length, config.task)
        except InputError as err:
            errors["sequence"] = describe(err)
        layer = 0
        try:
            layer = int(self._node("layer").value.strip())
        except ValueError:
            pass
        if not 1 <= layer <= config.layers:
            errors["layer"] = t("transformer.lab.bad_layer", layers=config.layers)
        if errors or x is None:
            return None, errors
        # letters alone on the axes: their order is the position, and "A10" would not fit
        self.shown_layers = trained.open_trained(self.saved.model, config, x, numbered=False).layers
        return self.shown_layers[layer - 1], errors

    def _read_typed(
        self, seed: int | None, errors: dict[str, str]
    ) -> tuple[lab.Tokens | None, lab.Projections | None]:
        """The typed X (with its labels) and W matrices; faults go under their fields."""
        queries: lab.Tokens | None = None
        try:
            X = parse_matrix(self._node("X").text, field="X")
            queries = lab.typed(X, _labels(self._node("labels").value))
        except InputError as err:
            if err.code == "lab.d_model":  # d_model is X's width here: say so
                message = t("lab.x_width", cols=err.params["value"], limit=lab.MAX_D_MODEL)
            else:
                message = describe(err)
            errors[self._fault_field(err, True)] = message
        typed_w: dict[str, object] = {}
        for name in WEIGHTS:
            text = self._node(name).text
            if not text.strip():
                continue  # empty: drawn from the seed
            try:
                typed_w[name] = parse_matrix(text, field=name)
            except InputError as err:
                errors[name] = describe(err)
        if queries is None or seed is None or any(name in errors for name in WEIGHTS):
            return queries, None  # the shapes cannot be judged yet
        try:
            return queries, lab.projections(queries.d_model, seed, **typed_w)
        except InputError as err:
            errors[self._fault_field(err, True)] = describe(err)
            return queries, None

    @staticmethod
    def _fault_field(err: InputError, typed: bool) -> str:
        """The field a fault is shown under: the matrix it names, else by its code."""
        where = err.params.get("matrix", err.params.get("field"))
        if where in MATRICES:
            return str(where)
        if err.code == "lab.labels":
            return "labels"
        if typed and err.code in TYPED_FAULT_FIELD:
            return TYPED_FAULT_FIELD[err.code]
        return FAULT_FIELD.get(err.code, "tokens")

    def recompute(self) -> None:
        """Read every field into the layer on show, name the faults, tell the screen."""
        self.post_message(self.compute())

    _read_from: tuple | None = None  # every field as compute() last read it

    def _fields_now(self) -> tuple:
        """Every field's value as it stands (what compute() reads, besides the model)."""
        node, has = self._node, self._has
        return (*(node(f).value if has(f) else None
                  for f in (*INT_FIELDS, "window", "labels", "sequence", "layer", "causal",
                            "cross", "sentence")),
                *(node(m).text if has(m) else None for m in MATRICES))  # fmt: skip

    def _recompute_if_edited(self) -> None:
        """Recompute, unless every field still holds what was last computed from: each field
        reports its first value as it mounts (eight Changed messages on opening, each a whole
        recompute and redraw of the view on show), and a field edited back is no change.
        Nothing is computed before the first compute(), which the screen asks for once the
        form has mounted."""
        if self._read_from is not None and self._fields_now() != self._read_from:
            self.recompute()

    def compute(self) -> LabSettings.Changed:
        """Read every field into the layer on show and name the faults; what to show."""
        sentence = self.source
        typed = sentence == TYPED
        if typed or sentence == TRAINED:
            self._build("typed" if typed else "trained")
        self._node("typed").set_class(typed, "-shown")
        self._node("trained").set_class(sentence == TRAINED, "-shown")
        self._node("random-settings").set_class(sentence == TRAINED, "-hidden")
        self._node("tokens-row").set_class(typed, "-hidden")
        self._node("d_model").disabled = typed
        self._show_trained_info()
        result, errors = self._read()
        if result is not None:
            self.result = result
            self._seed_shown = self._node("seed").value.strip()
            if sentence != TRAINED:
                self.shown_layers = (result,)
            if typed:  # d_model and n follow the typed X
                with self.prevent(Input.Changed):
                    self._node("d_model").value = str(result.d_model)
                    self._node("tokens").value = str(result.n_q)
        d_model = self.result.d_model if self.result is not None else "d_model"
        for name in WEIGHTS if self._has("W_O") else ():  # the shape each W needs
            label = t("lab.w_o_rows") if name == "W_O" else t("lab.w_rows", d_model=d_model)
            self._node(f"{name}-label").update(f"{name} {label}")
        if any(name in errors for name in WEIGHTS):  # a fault hidden in the fold is no help
            self._node("typed-w").collapsed = False
        self.errors = errors
        for field in FIELDS:
            if self._has(f"{field}-error"):  # (the fields not built have no fault)
                self._node(f"{field}-error").say(errors.get(field, ""))
        if errors:  # the fault's own line may be below the fold of the settings: bring it up
            first = next((f for f in FIELDS if f in errors), None)
            if first is not None:
                self.call_after_refresh(
                    self.scroll_to_widget, self._node(f"{first}-error"), animate=False
                )
        trained = self.showing_trained
        held = self.held if trained else None
        note = self._weights_note()
        self._read_from = self._fields_now()
        return self.Changed(self.result, self.shown_layers, errors, note, held, trained)

    def _weights_note(self) -> RenderableType:
        """One line saying whose weights these are: trained, or random and so meaningless."""
        if self.showing_trained:
            config = self.saved.config
            layer = next((k for k, r in enumerate(self.shown_layers, 1) if r is self.result), 1)
            task = t(f"transformer.task.{config.task}")
            text = t("transformer.lab.note_trained", task=task, layer=layer, layers=config.layers)
            return Prose(text, "green")
        # the seed of the weights on show: a field being edited (or emptied) is not it yet
        seed = self._seed_shown or self._node("seed").value.strip()
        return Prose(t("transformer.lab.note_random", seed=seed), "yellow")

    def _show_trained_info(self) -> None:
        if not self._has("trained-info"):
            return  # (built with nothing in it, as the trained source is first chosen)
        info = self._node("trained-info")
        if self.saved is None:
            info.update("")
            return
        config, summary = self.saved.config, self.saved.summary
        key = (
            "transformer.lab.info_induction"
            if config.task == "induction"
            else "transformer.lab.info"
        )
        text = t(key, task=t(f"transformer.task.{config.task}"),
                 length=config.length, layers=config.layers, heads=config.heads,
                 d_model=config.d_model, positions=t(f"transformer.positions.{config.positions}"),
                 iters=summary.get("iters", "?"), params=self.saved.model.n_params,
                 seq=fmt.fixed(self.held.seq_acc, 3) if self.held else "—",
                 copy=fmt.fixed(self.held.pos_acc, 3) if self.held else "—")  # fmt: skip
        info.update(Prose(text, "dim"))

    # ---- edits ------------------------------------------------------------------------------
    @on(Input.Changed)
    @on(Tick.Changed)
    def _edited(self, event: Input.Changed | Tick.Changed) -> None:
        if isinstance(event, Input.Changed) and event.input.id == "tokens":
            sentence = self._node("sentence")
            # Typing a count other than the preset's length asks for x1 … xn instead.
            preset = lab.PRESETS.get(str(sentence.value))
            if preset is not None and event.value.strip() != str(len(preset)):
                with self.prevent(Select.Changed):
                    sentence.value = "count"
        self._recompute_if_edited()

    @on(TextArea.Changed)
    def _matrix_edited(self) -> None:
        self._recompute_if_edited()

    @on(Select.Changed, "#sentence")
    def _sentence_chosen(self, event: Select.Changed) -> None:
        if event.value == TYPED:
            self._build("typed")
        rows = self._node("X") if self._has("X") else None
        if (event.value == TYPED and rows is not None and not rows.text.strip()
                and self.result is not None):  # fmt: skip
            # Start from the numbers on show: nothing moves until the learner edits one.
            with self.prevent(TextArea.Changed, Input.Changed):
                rows.text = _rows_text(self.result.queries.X)
                self._node("labels").value = " ".join(self.result.queries.labels)
        if event.value in lab.PRESETS:
            with self.prevent(Input.Changed):
                self._node("tokens").value = str(len(lab.PRESETS[str(event.value)]))
        if event.value == TRAINED:
            self.post_message(self.TrainedWanted())  # the screen opens it, then recomputes
            return
        self._recompute_if_edited()

    @on(Select.Changed, "#cross")
    def _cross_chosen(self) -> None:
        self._recompute_if_edited()

    def relocalize(self) -> None:
        # Relabelling the options must not count as choosing one (it would reset fields).
        with self.prevent(Select.Changed):
            for name, options in (("sentence", self._sentence_options()),
                                  ("cross", self._cross_options())):  # fmt: skip
                select = self._node(name)
                value = select.value
                select.set_options(options)
                select.value = value
                select.mutate_reactive(Select.value)  # relabel even when the value is unchanged
        self.recompute()
