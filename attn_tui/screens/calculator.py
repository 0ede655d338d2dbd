"""The attention calculator: type a query and keys, reveal the four steps one at a time.

Every edit re-parses and recomputes at once (one ``attend`` call is microseconds). A fault
is named under its field, and the steps keep showing the last valid input, marked as such,
so nothing the learner built disappears while they fix a typo.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property

import numpy as np
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.reactive import reactive
from textual.widgets import Checkbox, ContentSwitcher, Input, Select, Static, TextArea

from attn_tui.core.attention.steps import (
    AttentionSteps,
    DimensionExperiment,
    attend,
    parse_temperature,
)
from attn_tui.core.parse import InputError, parse_matrix, parse_vector
from attn_tui.i18n import describe, t
from attn_tui.render.prose import Prose
from attn_tui.render.steps import render_steps
from attn_tui.screens.base import TutorFooter, TutorScreen
from attn_tui.widgets.calculator import DimensionPanel, NumbersArea, StepsPanel
from attn_tui.widgets.fields import LineInput, PanelSelect, Tick
from attn_tui.widgets.localized import tr
from attn_tui.widgets.panel import MessageLine


@dataclass(frozen=True)
class Preset:
    """Every input a preset sets: choosing one puts all of them back, switches included."""

    query: str
    keys: str
    values: str = ""
    scale: bool = True
    hard: bool = False
    temperature: str = "1"

    @classmethod
    def of_exercise(cls, query: str, keys: str, values: str = "") -> Preset:
        """An exercise's worked example: its matrices written ``1 0; 0 1`` (the files' form)
        become one row per line (the calculator's form)."""

        def rows(text: str) -> str:
            return "\n".join(r.strip() for r in text.replace("\n", ";").split(";") if r.strip())

        return cls(query, rows(keys), rows(values))

    @cached_property
    def parsed(self) -> tuple:
        """What the preset computes from, to recognise it however it was typed."""
        V = parse_matrix(self.values, "values") if self.values.strip() else None
        return (parse_vector(self.query), parse_matrix(self.keys), V, self.scale, self.hard,
                parse_temperature(self.temperature))  # fmt: skip


# The seed example first: it is what a first launch shows.
PRESETS: dict[str, Preset] = {
    "seed": Preset("1 0 1", "1 0 0\n0 1 0\n1 0 1\n1 1 0"),
    "orthogonal": Preset("1 0 0", "1 0 0\n0 1 0\n0 0 1"),
    "identical": Preset("2 1 0", "1 1 1\n1 1 1\n1 1 1\n1 1 1"),
    "dominant": Preset("3 0 1", "3 0 1\n0 1 0\n0 0 1\n1 1 0"),
    "plane": Preset("1 2", "2 0\n0 2\n-1 -1\n2 2"),
}
EXPERIMENT = "experiment"


def _same(a: np.ndarray | None, b: np.ndarray | None) -> bool:
    if a is None or b is None:
        return a is b
    return a.shape == b.shape and bool(np.array_equal(a, b))


class CalculatorScreen(TutorScreen):
    CSS_PATH = "calculator.tcss"
    HELP = (
        ("calc.inputs_panel", "calc.help.inputs"),
        ("calc.steps_panel", "calc.help.steps"),
        ("calc.scale", "calc.help.switches"),
        ("calc.preset.experiment", "calc.help.experiment"),
    )
    BINDINGS = [
        # PgDn shows the rest of a step that runs below the panel, then the next step
        Binding("pagedown", "next_step", "app.key.next", priority=True),
        Binding("pageup", "prev_step", "app.key.prev", priority=True),
        # in the √d view the same keys scroll the experiment (its conclusion is at the end)
        Binding("pagedown", "page_experiment(1)", "app.key.page_down", priority=True),
        Binding("pageup", "page_experiment(-1)", "app.key.page_up", priority=True),
        Binding("f3", "toggle_all", "app.key.all"),
        Binding("f4", "toggle_experiment", "app.key.experiment"),
        Binding("f5", "preset('seed')", "app.key.reset"),
    ]
    # The inputs panel narrows on a small terminal and widens on a large one (calculator.tcss).
    HORIZONTAL_BREAKPOINTS = [(0, "-narrow"), (70, "-normal"), (110, "-wide")]
    AUTO_FOCUS = "#query"  # focused as it is composed: one restyle of the screen, not two

    step: reactive[int] = reactive(1, init=False)
    show_all: reactive[bool] = reactive(False, init=False)

    def __init__(self, start: Preset | None = None) -> None:
        """``start``: what the fields hold when the screen opens (the seed example if None),
        e.g. an exercise's worked example. Filled in before the screen is on show, so nothing
        typed as it opens is overwritten."""
        super().__init__()
        self.start = start or PRESETS["seed"]
        self.result: AttentionSteps | None = None
        self.stale = False
        self._parse_cache: dict[str, tuple[str, np.ndarray | None, InputError | None]] = {}
        self.dimension = DimensionPanel(id="experiment")  # titled when drawn

    @property
    def experiment(self) -> tuple[DimensionExperiment, DimensionExperiment] | None:
        """The √d experiment last drawn (small d, large d)."""
        return self.dimension.experiment

    # ---- layout -------------------------------------------------------------------------
    def compose(self) -> ComposeResult:
        start = self.start
        query, keys, values = start.query, start.keys, start.values
        with Horizontal(id="calc"):
            with Vertical(id="calc-inputs") as inputs:
                tr(inputs, "calc.inputs_panel", "border_title")
                yield tr(Static(classes="field-label"), "calc.query")
                yield tr(
                    LineInput(query, id="query", compact=True),
                    "calc.query_placeholder",
                    "placeholder",
                )
                yield MessageLine(Prose, id="query-error", classes="error")
                yield tr(Static(classes="field-label"), "calc.keys")
                yield NumbersArea(
                    keys, id="keys", compact=True, soft_wrap=False, tab_behavior="focus"
                )
                yield MessageLine(Prose, id="keys-error", classes="error")
                yield tr(Static(classes="field-label"), "calc.values")
                yield NumbersArea(
                    values, id="values", compact=True, soft_wrap=False, tab_behavior="focus"
                )
                yield MessageLine(Prose, id="values-error", classes="error")
                yield tr(Tick(value=start.scale, id="scale", compact=True), "calc.scale", "label")
                yield tr(Tick(value=start.hard, id="hard", compact=True), "calc.hard", "label")
                with Horizontal(classes="row"):
                    yield tr(Static(classes="inline-label"), "calc.temperature")
                    yield LineInput(start.temperature, id="temperature", compact=True)
                yield MessageLine(Prose, id="temperature-error", classes="error")
                yield PanelSelect(self._preset_options(), id="preset", compact=True,
                                  prompt=t("calc.preset"))  # fmt: skip
            with ContentSwitcher(initial="steps-box", id="calc-right"):
                with Vertical(id="steps-box") as steps:
                    tr(steps, "calc.steps_panel", "border_title")
                    yield MessageLine(id="stale", classes="stale")
                    yield StepsPanel(id="steps")
                yield self.dimension
        yield TutorFooter()

    def _preset_options(self) -> list[tuple[str, str]]:
        return [(t(f"calc.preset.{name}"), name) for name in (*PRESETS, EXPERIMENT)]

    def on_mount(self) -> None:
        super().on_mount()
        # A key typed into a line field recomputes in the field's own turn, not when its
        # Changed message has bubbled up to the screen: otherwise the field's echo of the key
        # reached the screen first and was painted alone, and the steps waited for a later
        # frame, often two frames later (Textual's update timer, resumed off its beat, skips
        # one). Now the echo and the steps it changes are painted in the same frame. (Keys and
        # values do the same: NumbersArea counts its edits in a reactive watched here.)
        for field in ("#query", "#temperature"):
            self.watch(self.query_one(field, Input), "value", self._field_edited, init=False)
        for field in ("#keys", "#values"):
            self.watch(self.query_one(field, NumbersArea), "edits", self._field_edited,
                       init=False)  # fmt: skip
        self.watch(self.query_one("#steps", StepsPanel), "scroll_y", self._say_step, init=False)
        self.recompute()
        self.query_one("#query", Input).focus()

    # ---- what a lesson's do-task reads (core/course/state.py) ----------------------------
    def course_state(self):  # -> core.course.state.CalcState
        """What the calculator shows now: the steps (None while an input has a fault), whether
        values were typed apart from the keys, the √d experiment when it is on show."""
        from attn_tui.core.course.state import CalcState

        shown = self.query_one(ContentSwitcher).current == "experiment"
        return CalcState(
            steps=None if self.stale else self.result,
            values_given=bool(self.query_one("#values", TextArea).text.strip()),
            experiment=self.experiment if shown else None,
            step=self.step,
        )

    # ---- computing ----------------------------------------------------------------------
    def recompute(self) -> None:
        """Parse every field, compute, and show either the steps or what is wrong."""
        errors: dict[str, str] = {}
        q = self._parsed("query", self.query_one("#query", Input).value, errors)
        K = self._parsed("keys", self.query_one("#keys", TextArea).text, errors)
        values_text = self.query_one("#values", TextArea).text
        V = self._parsed("values", values_text, errors) if values_text.strip() else None
        temperature = self._temperature(errors)
        if not errors and q is not None and K is not None:
            try:
                self.result = attend(
                    q, K, V,
                    scale=self.query_one("#scale", Checkbox).value,
                    hard=self.query_one("#hard", Checkbox).value,
                    temperature=temperature,
                )  # fmt: skip
            except InputError as err:
                field = {"dim_mismatch": "keys", "values_count": "values"}.get(err.code, "query")
                errors[field] = describe(err)
        self.stale = bool(errors)
        for field in ("query", "keys", "values", "temperature"):
            self.query_one(f"#{field}-error", MessageLine).say(errors.get(field, ""))
        self._show_preset(None if errors else self.result)
        self.redraw()

    def _show_preset(self, result: AttentionSteps | None) -> None:
        """The preset menu names the example on show, or none once the learner has edited it."""
        select = self.query_one("#preset", Select)
        if select.value == EXPERIMENT:
            return
        match = Select.NULL
        if result is not None:
            V = None if result.values_are_keys else result.V
            here = (result.q, result.K, V, result.scale, result.hard, result.temperature)
            for name, preset in PRESETS.items():
                q, K, pV, scale, hard, T = preset.parsed
                if (_same(q, here[0]) and _same(K, here[1]) and _same(pV, V)
                        and (scale, hard, T) == here[3:]):  # fmt: skip
                    match = name
                    break
        if select.value != match:
            with self.prevent(Select.Changed):
                select.value = match

    def _parsed(self, field: str, text: str, errors: dict[str, str]) -> np.ndarray | None:
        """Parse a field, reusing the last result while its text is unchanged: a keystroke in
        the query must not re-read 32 × 64 keys."""
        cached = self._parse_cache.get(field)
        if cached is None or cached[0] != text:
            try:
                parse = parse_vector if field == "query" else parse_matrix
                cached = (text, parse(text, field), None)
            except InputError as err:
                cached = (text, None, err)
            self._parse_cache[field] = cached
        _, value, err = cached
        if err is not None:
            errors[field] = describe(err)  # described now, in the current language
        return value

    def _temperature(self, errors: dict[str, str]) -> float:
        try:
            return parse_temperature(self.query_one("#temperature", Input).value)
        except InputError as err:
            errors["temperature"] = describe(err)
            return 1.0

    def figure_text(self) -> tuple[str, str] | None:
        """For the copy key (ctrl+g): the scores, weights and output as text; none while the
        fields hold a fault (the steps on show are then an earlier input's)."""
        from attn_tui.render import figure_text

        if self.result is None or self.stale:
            return None
        return t("app.copy.steps"), figure_text.attention_steps(self.result)

    def redraw(self) -> None:
        stale = t("calc.stale") if self.stale and self.result else ""
        self.query_one("#stale", MessageLine).say(stale)
        view = self.query_one("#steps", StepsPanel)
        view.show(render_steps(self.result, self.step, self.show_all) if self.result else "")
        view.set_class(self.stale, "-stale")
        self._say_step()
        self.call_after_refresh(self._say_step)  # (how far it scrolls is known once laid out)

    def _say_step(self, _scrolled: float | None = None) -> None:
        """The panel's subtitle: the step, and "PgDn ↓ more" while it runs on below."""
        view = self.query_one("#steps", StepsPanel)
        subtitle = t("calc.all_steps") if self.show_all else t("calc.step_of", step=self.step)
        if view.scroll_y < view.max_scroll_y:
            subtitle = t("calc.more_below", step=subtitle)
        box = self.query_one("#steps-box", Vertical)
        if box.border_subtitle != subtitle:  # setting it repaints the whole box, border and all
            box.border_subtitle = subtitle

    def relocalize(self) -> None:
        select = self.query_one("#preset", Select)
        value = select.value
        # Relabelling the options must not count as choosing a preset (that would overwrite
        # what the learner typed), so the Changed events it causes are swallowed.
        with self.prevent(Select.Changed):
            select.set_options(self._preset_options())
            select.prompt = t("calc.preset")
            if isinstance(value, str):
                select.value = value
        self.recompute()

    # ---- events -------------------------------------------------------------------------
    @on(Checkbox.Changed)
    def _inputs_changed(self) -> None:
        self.recompute()

    _loading = False  # a preset is filling every field: one recompute at the end

    def _field_edited(self) -> None:
        if not self._loading:
            self.recompute()

    @on(Select.Changed, "#preset")
    def _preset_chosen(self, event: Select.Changed) -> None:
        if isinstance(event.value, str):
            self.action_preset(event.value)

    def watch_step(self) -> None:
        self.redraw()
        self.query_one("#steps", StepsPanel).scroll_home(animate=False)

    def watch_show_all(self) -> None:
        self.redraw()
        self.query_one("#steps", StepsPanel).scroll_home(animate=False)

    # ---- actions ------------------------------------------------------------------------
    STEP_ACTIONS = frozenset({"next_step", "prev_step", "toggle_all"})

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """The step keys belong to the steps: in the √d view they are off (and out of the
        footer), and PgUp/PgDn scroll the experiment instead."""
        if action in self.STEP_ACTIONS:
            return not self._experiment_on_show()
        if action == "page_experiment":
            return self._experiment_on_show()
        return True

    def _experiment_on_show(self) -> bool:
        switchers = self.query(ContentSwitcher)
        return bool(switchers) and switchers.first().current == "experiment"

    def action_page_experiment(self, direction: int) -> None:
        if direction > 0:
            self.dimension.scroll_page_down(animate=False)
        else:
            self.dimension.scroll_page_up(animate=False)

    def action_next_step(self) -> None:
        """The rest of the step on show if it runs below the panel (at 80×24 the weighted
        sum does), else the next step."""
        view = self.query_one("#steps", StepsPanel)
        if view.scroll_y < view.max_scroll_y:
            view.scroll_page_down(animate=False)
            return
        if self.show_all:
            self.show_all = False
            self.step = 4
        else:
            self.step = min(self.step + 1, 4)

    def action_prev_step(self) -> None:
        view = self.query_one("#steps", StepsPanel)
        if view.scroll_y > 0:
            view.scroll_page_up(animate=False)
            return
        if self.show_all:
            self.show_all = False
        self.step = max(self.step - 1, 1)

    def action_toggle_all(self) -> None:
        self.show_all = not self.show_all

    def action_toggle_experiment(self) -> None:
        switcher = self.query_one(ContentSwitcher)
        switcher.current = "steps-box" if switcher.current == "experiment" else "experiment"
        if switcher.current == "experiment":
            self.dimension.redraw()
        self.refresh_bindings()

    def fill(self, query: str, keys: str, values: str = "") -> None:
        """Put a worked example in the fields and start at step 1 (on a screen already open;
        to open one on an example, pass it to the constructor)."""
        self._load(Preset(query, keys, values))

    _typed: Preset | None = None  # what the learner had typed when an example replaced it

    def action_preset(self, name: str) -> None:
        """Show an example; what the learner typed is kept, and F5 while an example is on show
        brings it back (so F5 never throws typed vectors away)."""
        if name == EXPERIMENT:
            self.query_one(ContentSwitcher).current = "experiment"
            self.dimension.redraw()
            self.refresh_bindings()
            return
        select = self.query_one("#preset", Select)
        if name == "seed" and select.value != Select.NULL and self._typed is not None:
            typed, self._typed = self._typed, None
            self._load(typed)
            self.notify(t("calc.typed_back"), timeout=4)
            return
        if select.value == Select.NULL:  # the fields are the learner's, not an example
            self._typed = self._fields()
            self.notify(t("calc.typed_kept"), timeout=6)
        self._load(PRESETS[name])

    def _fields(self) -> Preset:
        """Every input as it stands (as typed, faults and all)."""
        return Preset(
            self.query_one("#query", Input).value,
            self.query_one("#keys", TextArea).text,
            self.query_one("#values", TextArea).text,
            self.query_one("#scale", Checkbox).value,
            self.query_one("#hard", Checkbox).value,
            self.query_one("#temperature", Input).value,
        )

    def _load(self, preset: Preset) -> None:
        """Every input the preset names, in one recompute (not one per field)."""
        self._loading = True
        try:
            with self.prevent(Input.Changed, TextArea.Changed, Checkbox.Changed):
                self.query_one("#query", Input).value = preset.query
                self.query_one("#keys", TextArea).text = preset.keys
                self.query_one("#values", TextArea).text = preset.values
                self.query_one("#scale", Checkbox).value = preset.scale
                self.query_one("#hard", Checkbox).value = preset.hard
                self.query_one("#temperature", Input).value = preset.temperature
        finally:
            self._loading = False
        self.query_one(ContentSwitcher).current = "steps-box"
        self.refresh_bindings()
        self.step = 1
        self.recompute()
