"""The calculator's pieces: its matrix fields, its steps view, and the √d experiment.

- :class:`NumbersArea` (keys, values) counts its edits in a reactive, ``edits``, which the
  screen watches: a watcher runs in the field's own turn, before its repaint is handed on, so
  the field's echo and the steps it changes are painted in one frame (a Changed message would
  reach the screen a frame later).
- :class:`StepsPanel` is the steps, focusable so that ← → n b a work without an input.
- :class:`DimensionPanel` is F4's experiment: random vectors at a small and a large d, with and
  without 1/√d; its own fields, its own fault line, drawn when shown or edited.
"""

from __future__ import annotations

from functools import lru_cache

from textual import on
from textual.binding import Binding
from textual.containers import Horizontal, VerticalScroll
from textual.reactive import var
from textual.widgets import Button, Input, Static, TextArea

from attn_tui.core.attention.steps import (
    MAX_EXPERIMENT_DIM,
    DimensionExperiment,
    dimension_experiment,
)
from attn_tui.i18n import t
from attn_tui.render.steps import render_experiment
from attn_tui.widgets.localized import tr
from attn_tui.widgets.panel import MessageLine
from attn_tui.widgets.stepsview import StepsView


class NumbersArea(TextArea):
    """A field of rows of numbers (keys, values)."""

    edits: var[int] = var(0, init=False)  # bumped by every edit, in the field's own turn

    def on_text_area_changed(self) -> None:
        self.edits += 1


class StepsPanel(StepsView):
    """The steps; focusable so that ← → n b a work here without reaching an input."""

    BINDINGS = [
        Binding("right,n", "screen.next_step", "app.key.next", show=False),
        Binding("left,b", "screen.prev_step", "app.key.prev", show=False),
        Binding("a", "screen.toggle_all", "app.key.all", show=False),
    ]


@lru_cache(maxsize=16)
def _experiment(d: int, seed: int) -> DimensionExperiment:
    return dimension_experiment(d, 8, seed)


class DimensionPanel(VerticalScroll):
    """Why √d: dot products of random vectors at a small and a large d, scaled and not."""

    def __init__(self, **kwargs) -> None:
        super().__init__(**kwargs)
        self.experiment: tuple[DimensionExperiment, DimensionExperiment] | None = None

    # Its fields are mounted when it is first drawn (F4), not with the calculator: most
    # visits never open it, and its eight widgets (a Button's stylesheet among them) were a
    # tenth of the time the calculator took to open.
    def _mount_fields(self) -> None:
        # (mounted one level at a time: each is registered, and can be found, at once)
        row = Horizontal(classes="row")
        self.mount_all([
            row,
            MessageLine(id="exp-error", classes="error"),
            Static(id="exp-body"),
            tr(Button(id="exp-back", compact=True, action="screen.toggle_experiment"),
               "calc.exp.back", "label"),
        ])  # fmt: skip
        row.mount_all(
            [
                tr(Static(classes="inline-label"), "calc.exp.d_small"),
                Input("3", id="d-small", compact=True, type="integer"),
                tr(Static(classes="inline-label"), "calc.exp.d_large"),
                Input("300", id="d-large", compact=True, type="integer"),
                tr(Static(classes="inline-label"), "calc.exp.seed"),
                Input("0", id="exp-seed", compact=True, type="integer"),
            ]
        )

    def redraw(self) -> None:
        if not self.children:  # first drawn: its fields are mounted now
            self._mount_fields()
        error = self.query_one("#exp-error", MessageLine)
        try:
            small, large = (self._dim(f"#d-{name}") for name in ("small", "large"))
            seed = int(self.query_one("#exp-seed", Input).value or 0)
        except ValueError:
            error.say(t("calc.exp.bad_d", limit=MAX_EXPERIMENT_DIM))
            return
        error.say("")
        self.experiment = (_experiment(small, seed), _experiment(large, seed))
        self.border_title = t("calc.exp.panel", small=small, large=large)
        self.query_one("#exp-body", Static).update(render_experiment(*self.experiment))

    def _dim(self, selector: str) -> int:
        value = int(self.query_one(selector, Input).value)
        if not 1 <= value <= MAX_EXPERIMENT_DIM:
            raise ValueError(value)
        return value

    @on(Input.Changed)
    def _edited(self, event: Input.Changed) -> None:
        event.stop()
        self.redraw()

    def relocalize(self) -> None:
        if self.display and self.children:
            self.redraw()
