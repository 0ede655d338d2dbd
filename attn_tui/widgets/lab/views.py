"""The lab's views of one attention layer, one at a time (F4), with the line naming a fault.

:class:`LabViews` shows what the settings computed (``show``) in the view on show, and owns
how the learner looks at it: which view (``view``), scores or weights (``kind``), which head
(``head``), and the heatmap's cursor (``cursor``, moved by the arrow keys in the attention and
lines views). Only the view on show is drawn; another is drawn when it is switched to.
"""

from __future__ import annotations

from dataclasses import dataclass

from rich.console import Group, RenderableType
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical, VerticalScroll
from textual.message import Message
from textual.reactive import reactive
from textual.widgets import ContentSwitcher, Static

from attn_tui.core.attention.lab import LabResult
from attn_tui.i18n import t
from attn_tui.render import lab as views
from attn_tui.render.prose import Prose
from attn_tui.widgets.lab.settings import FIELDS, LabSettings, lab_t
from attn_tui.widgets.panel import MessageLine

VIEWS = ("attn", "qkv", "heads", "shapes", "cost", "model", "lines")
RENDER = {"qkv": views.render_qkv, "heads": views.render_heads, "shapes": views.render_shapes,
          "cost": views.render_cost}  # fmt: skip


class ViewPanel(VerticalScroll, can_focus=True):
    """One view; focusable so the keys scroll it without reaching an input."""


class HeatPanel(ViewPanel):
    """A view with a cursor (the attention map, the lines): the arrow keys move it."""

    BINDINGS = [
        Binding("up", "move(-1, 0)", "lab.key.move", show=False),
        Binding("down", "move(1, 0)", "lab.key.move", show=False),
        Binding("left", "move(0, -1)", "lab.key.move", show=False),
        Binding("right", "move(0, 1)", "lab.key.move", show=False),
    ]

    @dataclass
    class Moved(Message):
        """The cursor asked to move by (rows, columns)."""

        di: int
        dj: int

    def action_move(self, di: int, dj: int) -> None:
        self.post_message(self.Moved(di, dj))


class LabViews(Vertical):
    """The stale line and the views."""

    view: reactive[str] = reactive("attn", init=False)
    kind: reactive[str] = reactive("weights", init=False)  # or "scores"
    head: reactive[int] = reactive(0, init=False)
    cursor: reactive[tuple[int, int]] = reactive((0, 0), init=False)

    def __init__(self, **kwargs) -> None:
        super().__init__(**kwargs)
        self.result: LabResult | None = None
        self.shown_layers: tuple[LabResult, ...] = ()
        self.errors: dict[str, str] = {}
        self.note: RenderableType = ""  # whose weights these are
        self.held = None  # a trained model's held-out figures per head
        self.trained = False  # the trained Transformer's weights are on show
        self._drawn: set[str] = set()  # the views up to date
        self.both_kinds_shown = False  # scores beside weights: F5 has nothing to switch
        self._panels: dict[str, ViewPanel] = {}  # the views built so far, by name

    def compose(self) -> ComposeResult:
        yield MessageLine(Prose, id="stale", classes="stale")
        with ContentSwitcher(initial="view-attn", id="lab-views"):
            yield self._panel("attn", Static(id="attn-body"))

    # The views other than the attention map are built when first shown (F4): twelve widgets
    # fewer for the screen to mount, style and lay out as it opens.
    def _panel(self, name: str, *body: Static) -> ViewPanel:
        panel = (HeatPanel if name in ("attn", "lines") else ViewPanel)(*body, id=f"view-{name}")
        self._panels[name] = panel
        self._dress(panel, name)
        return panel

    def _built(self, name: str) -> ViewPanel:
        """The view's panel, mounted now if it is not yet (it and its body are registered at
        once, one level at a time, so they can be found and drawn in this same turn)."""
        panel = self._panels.get(name)
        if panel is None:
            panel = self._panel(name)
            self.query_one(ContentSwitcher).mount(panel)
            panel.mount(Static(id=f"{name}-body"))
        return panel

    def _dress(self, panel: ViewPanel, name: str) -> None:
        """A panel's title, its head (views with a cursor), and whether it is stale."""
        panel.border_title = t("lab.view_of", view=lab_t(f"lab.view.{name}"),
                               i=VIEWS.index(name) + 1, n=len(VIEWS))  # fmt: skip
        panel.set_class(self.stale, "-stale")
        if self.result is not None and name in ("attn", "lines"):
            panel.border_subtitle = t("lab.head_of", head=self.head + 1, heads=self.result.heads)

    # ---- what the screen tells it -----------------------------------------------------------
    def show(self, shown: LabSettings.Changed) -> None:
        """The layer the settings computed (the last valid one while a setting is wrong)."""
        self.result, self.shown_layers, self.errors = shown.result, shown.shown_layers, shown.errors
        self.note, self.held, self.trained = shown.note, shown.held, shown.trained
        result = self.result
        if result is not None:
            self.set_reactive(LabViews.head, min(self.head, result.heads - 1))
            i, j = self.cursor
            self.set_reactive(LabViews.cursor, (min(i, result.n_q - 1), min(j, result.n_k - 1)))
        self.redraw()

    def next_view(self, step: int = 1) -> None:
        self.view = VIEWS[(VIEWS.index(self.view) + step) % len(VIEWS)]

    def focus_view(self) -> None:
        """The focus to the view on show (its arrow keys move the cursor)."""
        self._built(self.view).focus()

    def on_resize(self) -> None:
        self.call_after_refresh(self._check_kinds_shown)  # once the view has its new width

    def _check_kinds_shown(self) -> None:
        """Whether the attention view, at its width now, has the scores beside the weights;
        the screen's footer offers F5 only when it does not."""
        r = self.result
        width = self.query_one("#attn-body", Static).content_region.width
        if r is None or width <= 0:
            return
        both = views.scores_beside_weights(r, self.head, self.cursor, width, self.app.console,
                                           shade_if_cut=self.trained)  # fmt: skip
        if both != self.both_kinds_shown:
            self.both_kinds_shown = both
            self.screen.refresh_bindings()

    def toggle_kind(self) -> None:
        self.kind = "scores" if self.kind == "weights" else "weights"
        self.view = "attn"

    def next_head(self) -> None:
        if self.result is not None:
            self.head = (self.head + 1) % self.result.heads

    def on_heat_panel_moved(self, message: HeatPanel.Moved) -> None:
        if self.result is None:
            return
        i, j = self.cursor
        self.cursor = (
            min(max(i + message.di, 0), self.result.n_q - 1),
            min(max(j + message.dj, 0), self.result.n_k - 1),
        )

    def watch_view(self, view: str) -> None:
        had_focus = isinstance(self.screen.focused, ViewPanel)
        panel = self._built(view)
        self.query_one(ContentSwitcher).current = f"view-{view}"
        if view not in self._drawn:
            self._draw(view)
        if had_focus:
            panel.focus()

    def watch_kind(self) -> None:
        self.redraw()

    def watch_head(self) -> None:
        self.redraw()

    def watch_cursor(self) -> None:
        self.redraw()

    # ---- drawing ----------------------------------------------------------------------------
    @property
    def stale(self) -> bool:
        return bool(self.errors)

    def redraw(self) -> None:
        """The titles and the fault line now; the view on show; the others when shown."""
        fault = next((self.errors[f] for f in FIELDS if f in self.errors),
                     next(iter(self.errors.values()), ""))  # fmt: skip
        stale = t("lab.stale_because", fault=fault) if self.stale and self.result else ""
        self.query_one("#stale", MessageLine).say(stale)
        for name, panel in self._panels.items():
            self._dress(panel, name)
        if self.result is None:
            return
        self._drawn.clear()
        self._draw(self.view)

    def figure_text(self) -> tuple[str, str] | None:
        """For the copy key (ctrl+g): the head's weights (or scores) on show, with its tokens
        as row and column labels; none while a field holds a fault."""
        from attn_tui.render import figure_text

        r = self.result
        if r is None or self.stale or self.view not in ("attn", "lines", "heads", "model"):
            return None
        weights = self.kind == "weights" or self.view != "attn"
        m = r.weights[self.head] if weights else r.scores[self.head]
        what = t("app.copy.lab_weights" if weights else "app.copy.lab_scores", head=self.head + 1)
        return what, figure_text.matrix(m, r.queries.labels, r.memory.labels, 4)

    def _draw(self, view: str) -> None:
        r = self.result
        if r is None:
            return
        self._drawn.add(view)
        body = self.query_one(f"#{view}-body", Static)
        if view == "attn":
            # a trained head's 0.95 must not read "1": shade alone where the numbers are cut
            body.update(Group(self.note, views.render_attention(
                r, self.head, self.kind, self.cursor, shade_if_cut=self.trained)))  # fmt: skip
            self._check_kinds_shown()
        elif view == "model":
            body.update(views.render_model(self.shown_layers, self.note, self.held))
        elif view == "lines":
            body.update(views.render_lines(r, self.head, self.cursor[0], self.note))
        else:
            body.update(RENDER[view](r))
