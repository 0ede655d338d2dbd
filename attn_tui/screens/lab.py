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
"""

from __future__ import annotations

import re
import time
from pathlib import Path

import numpy as np
from rich.columns import Columns
from rich.console import Console, ConsoleOptions, Group, RenderableType, RenderResult
from rich.measure import Measurement
from rich.rule import Rule
from rich.table import Table
from rich.text import Text
from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, ScrollableContainer, Vertical, VerticalScroll
from textual.reactive import reactive
from textual.widgets import Collapsible, ContentSwitcher, Input, Select, Static, TextArea

from attn_tui import paths
from attn_tui.core import format as fmt
from attn_tui.core.attention import lab, trained
from attn_tui.core.attention.lab import LabResult
from attn_tui.core.models import transformer_file
from attn_tui.core.models.loop import letters, run_to_end
from attn_tui.core.models.transformer_trainer import TransformerConfig
from attn_tui.core.parse import InputError, normalise, parse_matrix
from attn_tui.i18n import describe, get_lang, t
from attn_tui.screens.base import TutorFooter, TutorScreen, tr
from attn_tui.widgets.attention_views import HeadLines, ModelView
from attn_tui.widgets.fields import LineInput, PanelSelect, Tick, say
from attn_tui.widgets.heatmap import Heatmap
from attn_tui.widgets.prose import Prose

ACCENT = "bold cyan"
VIEWS = ("attn", "qkv", "heads", "shapes", "cost", "model", "lines")
TYPED = "typed"  # X (and optionally the W matrices) typed by the learner
TRAINED = "trained"  # the last Transformer trained in the app, on a held-out sequence
SENTENCES = (*lab.PRESETS, "count", TYPED, TRAINED)  # "count": x1 … xn from the tokens field
# the Transformer's keys live in text/transformer.py
TEXT_KEY = {
    "lab.preset.trained": "transformer.lab.source",
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
FIELDS = (*INT_FIELDS, "window", "cross", "labels", *MATRICES, "sentence", "sequence", "layer")
# Faults of a typed X that the core words for d_model or the token count.
TYPED_FAULT_FIELD = {"lab.empty": "X", "lab.too_many_tokens": "X", "lab.d_model": "X"}
SEED_EXAMPLE = (10, 512, 8)  # the seed text's n, d_model, h


def _t(key: str, **params) -> str:
    return t(TEXT_KEY.get(key, key), **params)


def _shape(shape: tuple[int, ...]) -> str:
    return "(" + ", ".join(str(s) for s in shape) + ")"


def _vec(values) -> str:
    return fmt.vec(values, 2, fixed_places=True)


def _rows_text(X) -> str:
    """A matrix as the typed field shows it: one row per line, numbers as the parser reads them."""
    return "\n".join(" ".join(f"{float(v):g}" for v in row) for row in X)


def _labels(text: str) -> list[str] | None:
    """Token labels separated by spaces (or commas); none typed means x1 … xn."""
    words = [w for w in re.split(r"[\s,，、]+", text) if w]
    return words or None


def _masks(r: LabResult) -> str:
    masks = []
    if r.causal:
        masks.append(t("lab.mask_causal"))
    if r.window is not None:
        masks.append(t("lab.mask_window", w=r.window))
    return t("lab.masks", masks=" + ".join(masks) if masks else t("lab.mask_none"))


def _title(r: LabResult) -> str:
    if r.cross:
        return t("lab.title_cross", n_q=r.n_q, n_k=r.n_k, d_model=r.d_model, heads=r.heads,
                 d_k=r.d_k)  # fmt: skip
    return t("lab.title_self", n=r.n_q, d_model=r.d_model, heads=r.heads, d_k=r.d_k)


# ---------------------------------------------------------------------------- the views


def render_attention(
    r: LabResult, head: int, kind: str, cursor: tuple[int, int], shade_if_cut: bool = False
) -> RenderableType:
    """One head's scores or weights as a heatmap, then the arithmetic of the cursor's cell.

    ``shade_if_cut``: where the numbers do not fit at their full places, shade alone rather
    than round (a trained head's 0.95 must not read "1")."""
    parts: list[RenderableType] = [
        Prose(_title(r), "bold"), Prose(_masks(r), "dim"), Prose(t("lab.heat.axes"), "dim"),
    ]  # fmt: skip
    if r.cross:
        note = t("lab.cross_note", q=" ".join(r.queries.labels), k=" ".join(r.memory.labels),
                 n_q=r.n_q, n_k=r.n_k)  # fmt: skip
        parts.append(Prose(note, "dim"))
    parts.append(Text(""))
    maps = {k: _attention_map(r, head, k, cursor, shade_if_cut) for k in ("scores", "weights")}
    # Wide enough for both: scores beside weights. Otherwise the one F5 chose.
    side_by_side = Table.grid(padding=(0, 4))
    side_by_side.add_row(maps["scores"], maps["weights"])
    parts.append(Either(side_by_side, maps[kind]))
    if not r.allowed.all():
        parts.append(Prose(t("lab.masked_note"), "dim"))
    parts.append(Rule(style="dim"))
    parts.append(render_cell(r, head, *cursor))
    parts.append(Prose(t("lab.hint"), "italic dim"))
    return Group(*parts)


def _attention_map(
    r: LabResult, head: int, kind: str, cursor: tuple[int, int], shade_if_cut: bool = False
) -> Group:
    weights = kind == "weights"
    title = t("lab.heat.weights" if weights else "lab.heat.scores", head=head + 1, heads=r.heads)
    heatmap = Heatmap(
        r.weights[head] if weights else r.scores[head],
        r.queries.labels, r.memory.labels,
        masked=~r.allowed, masked_text="0" if weights else "−∞",
        cursor=cursor, places=4 if weights else 2, sign=not weights,
        extra=[fmt.fixed(s, 3) for s in r.row_sums[head]] if weights else None,
        extra_title=t("lab.sum"),
        rounded_note=(lambda places: t("lab.rounded", places=places)) if weights else None,
        vmin=0.0 if weights else None, vmax=1.0 if weights else None,
        all_or_shade=shade_if_cut,
    )  # fmt: skip
    return Group(Text(title, ACCENT), heatmap)


class Either:
    """``wide`` where it fits at its natural width, else ``narrow``: one layout per size."""

    def __init__(self, wide: RenderableType, narrow: RenderableType) -> None:
        self.wide = wide
        self.narrow = narrow

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        needed = Measurement.get(console, options.update_width(10_000), self.wide).maximum
        yield self.wide if needed <= options.max_width else self.narrow


def render_cell(r: LabResult, head: int, i: int, j: int) -> RenderableType:
    """Which row of Q meets which row of K, the products, the dot, ÷√d_k, the weight."""
    cell = lab.score_cell(r, head, i, j)
    a, b = head * r.d_k + 1, (head + 1) * r.d_k
    table = Table.grid(padding=(0, 1))
    table.add_column(no_wrap=True, style="bold")
    table.add_column(overflow="fold")
    table.add_row("q", _vec(cell.q_row))
    table.add_row("k", _vec(cell.k_row))
    table.add_row("q∘k", _vec(cell.products))
    table.add_row("q·k", Text.assemble("Σ = ", (fmt.fixed(cell.dot), "bold")))
    parts: list[RenderableType] = [
        Prose(t("lab.cell.title", query=cell.query, i=i + 1, key=cell.key, j=j + 1), ACCENT),
        Prose(t("lab.cell.q", i=i + 1, a=a, b=b, head=head + 1), "dim"),
        Prose(t("lab.cell.k", j=j + 1), "dim"),
        table,
    ]
    if cell.masked:
        why = (
            t("lab.cell.why_causal") if r.causal and j > i else t("lab.cell.why_window", w=r.window)
        )
        parts.append(Prose(t("lab.cell.masked", why=why), "yellow"))
    else:
        parts.append(Text.assemble(
            ("÷ √d_k ", "bold"),
            f"= {fmt.fixed(cell.dot)} ÷ {fmt.num(cell.sqrt_d_k)} = ",
            (fmt.fixed(cell.scaled), "bold"),
        ))  # fmt: skip
        parts.append(Prose(t("lab.cell.weight", i=i + 1, w=fmt.fixed(cell.weight)), "green"))
    return Group(*parts)


def _matrix(name: str, formula: str, M, rows) -> RenderableType:
    return Heatmap(M, rows, None, title=Text.assemble((name, ACCENT), f" = {formula}  ",
                                                     (_shape(M.shape), "bold")),
                   places=2, sign=True)  # fmt: skip


def render_qkv(r: LabResult) -> RenderableType:
    q_rows, kv_rows = r.queries.labels, r.memory.labels
    x_kv = "X'" if r.cross else "X"
    parts: list[RenderableType] = [
        Prose(t("lab.qkv.intro"), "dim"),
        Text(""),
        _matrix("X", t("lab.step.x"), r.queries.X, q_rows),
    ]
    if r.cross:
        parts.append(_matrix("X'", t("lab.step.x"), r.memory.X, kv_rows))
    for name, M, rows, W, src in (("Q", r.Q, q_rows, r.proj.W_Q, "X"),
                                  ("K", r.K, kv_rows, r.proj.W_K, x_kv),
                                  ("V", r.V, kv_rows, r.proj.W_V, x_kv)):  # fmt: skip
        parts.append(Text(""))
        parts.append(_matrix(name, f"{src}·W_{name} {_shape(W.shape)}", M, rows))
    parts.append(Text(""))
    parts.append(Prose(t("lab.qkv.split", heads=r.heads, d_k=r.d_k), "dim"))
    return Group(*parts)


def render_heads(r: LabResult) -> RenderableType:
    q_rows, kv_rows = r.queries.labels, r.memory.labels
    maps = [
        Heatmap(r.weights[h], q_rows, kv_rows, title=t("lab.heads.weights", head=h + 1),
                masked=~r.allowed, masked_text="0", places=2, vmin=0.0, vmax=1.0)
        for h in range(r.heads)
    ]  # fmt: skip
    outs = [
        Heatmap(r.Z[h], q_rows, None, places=2, sign=True,
                title=t("lab.heads.z", head=h + 1, n=r.n_q, d_v=r.d_v))
        for h in range(r.heads)
    ]  # fmt: skip
    width = r.heads * r.d_v
    return Group(
        Prose(t("lab.heads.intro", heads=r.heads, d_k=r.d_k), "dim"),
        Text(""),
        Columns(maps, padding=(1, 3)),
        Text(""),
        Columns(outs, padding=(1, 3)),
        Text(""),
        Prose(t("lab.heads.concat", heads=r.heads, n=r.n_q, d_v=r.d_v, width=width,
                d_model=r.d_model), "dim"),  # fmt: skip
        Text(""),
        Heatmap(r.output, q_rows, None, places=2, sign=True,
                title=Text(t("lab.output_title", n=r.n_q, d_model=r.d_model), ACCENT)),
    )  # fmt: skip


def render_shapes(r: LabResult) -> RenderableType:
    n, d_model, heads = SEED_EXAMPLE
    trace = lab.shapes_trace(n, d_model, heads)
    yours = {
        "x": r.queries.X.shape, "w_qkv": r.proj.W_Q.shape, "qkv": r.Q.shape,
        "split": (r.n_q, r.heads, r.d_k), "heads": r.Qh.shape, "scores": r.scores.shape,
        "weights": r.weights.shape, "head_out": r.Z.shape, "concat": r.concat.shape,
        "w_o": r.proj.W_O.shape, "output": r.output.shape,
    }  # fmt: skip
    # One small grid per step (name and both shapes), with its formula on a line of its own:
    # at 80 columns a formula column would squeeze the names into fragments.
    seed_w = max(
        fmt.cell_len(t("lab.shapes.seed_col")), *(len(_shape(s.shape)) for s in trace.steps)
    )
    yours_w = max(
        fmt.cell_len(t("lab.shapes.yours_col")), *(len(_shape(v)) for v in yours.values())
    )

    name_w = max(fmt.cell_len(t(f"lab.step.{step.key}")) for step in trace.steps)

    def grid() -> Table:
        table = Table.grid(padding=(0, 1))
        table.add_column(width=name_w, overflow="fold")
        table.add_column(width=seed_w, justify="right", no_wrap=True)
        table.add_column(width=yours_w, justify="right", no_wrap=True)
        return table

    header = grid()
    header.add_row(*(Text(t(k), "dim") for k in ("lab.col_step", "lab.shapes.seed_col",
                                                 "lab.shapes.yours_col")))  # fmt: skip
    rows: list[RenderableType] = [header]
    for step in trace.steps:
        row = grid()
        row.add_row(t(f"lab.step.{step.key}"), Text(_shape(step.shape), "bold"),
                    _shape(yours[step.key]))  # fmt: skip
        rows.append(row)
        rows.append(Text("  " + step.formula, "dim", overflow="fold"))
    table = Group(*rows)
    return Group(
        Prose(
            t("lab.shapes_trace_title", n=n, d_model=d_model, heads=heads, d_k=trace.d_k), ACCENT
        ),  # fmt: skip
        Text(""),
        table,
        Text(""),
        Prose(
            t(
                "lab.shapes_figures",
                sqrt_d_k=trace.sqrt_d_k,
                per_head=f"{trace.scores_per_head:,}",
                total=f"{trace.scores_total:,}",
                params=f"{trace.parameters:,}",
            )
        ),  # fmt: skip
        Text(""),
        Prose(t("lab.shapes.note"), "dim"),
    )


def render_cost(r: LabResult) -> RenderableType:
    figures = lab.cost(r.n_q)
    if r.cross:
        count = t("lab.cost_scores_cross", n_q=r.n_q, n_k=r.n_k, scores=f"{r.n_q * r.n_k:,}")
    else:
        count = t("lab.cost_scores", n=r.n_q, scores=f"{figures.scores:,}")
    grid = Text()
    for i in range(r.n_q):
        for j in range(r.n_k):
            grid.append("■ " if r.allowed[i, j] else "· ", ACCENT if r.allowed[i, j] else "dim")
        grid.append("\n")
    grid.rstrip()
    chain = " → ".join("■" for _ in range(r.n_q))
    return Group(
        Prose(t("lab.cost.intro")),
        Text(""),
        Prose(count, "bold"),
        grid,
        Text(""),
        Prose(
            t(
                "lab.cost_ratio",
                short_scores=f"{figures.short_scores:,}",
                long_scores=f"{figures.long_scores:,}",
                ratio=figures.ratio,
            ),
            "bold",
        ),  # fmt: skip
        Text(""),
        Text(t("lab.cost.rnn"), "dim"),
        Text(f"  {chain}   ×{figures.rnn_steps}", "yellow"),
        Text(t("lab.cost.attn"), "dim"),
        Text(f"  [{'■' * r.n_q}]   ×{figures.attention_steps}", "green"),
        Prose(t("lab.cost_steps", rnn=figures.rnn_steps, att=figures.attention_steps)),
        Text(""),
        Prose(t("lab.cost.tradeoff"), "dim"),
    )


def render_model(layers, note: RenderableType, held) -> RenderableType:
    """Every head of every layer, small and side by side; a trained model's held-out
    figures per head below."""
    weights = np.stack([r.weights for r in layers])  # (layers, heads, n_q, n_k)
    parts: list[RenderableType] = [
        note, Prose(t("transformer.lab.model_intro"), "dim"), Text(""),
        ModelView(weights, layer_label=t("transformer.lab.layer_title"),
                  head_label=t("transformer.lab.head_short")),
    ]  # fmt: skip
    if held is not None:
        parts += [Text(""), Prose(t("transformer.lab.held_title", n=held.n_eval,
                                    seq=fmt.fixed(held.seq_acc, 3),
                                    pos=fmt.fixed(held.pos_acc, 3)), "bold")]  # fmt: skip
        for h in held.heads:
            parts.append(Prose(t(
                "transformer.lab.head_line", layer=h.layer, head=h.head,
                mirror=fmt.fixed(h.mirror, 2), by_symbol=fmt.fixed(h.by_symbol, 2),
                by_position=fmt.fixed(h.by_position, 2),
            )))  # fmt: skip
        parts.append(Prose(t("transformer.lab.measures"), "dim"))
    return Group(*parts)


def render_lines(r: LabResult, head: int, focus: int, note: RenderableType) -> RenderableType:
    """One head as lines between the tokens; the cursor's query in colour."""
    return Group(
        note,
        Text(t("transformer.lab.lines_title", head=head + 1, heads=r.heads), ACCENT),
        Prose(t("lab.heat.axes"), "dim"),
        Text(""),
        HeadLines(r.weights[head], r.queries.labels, r.memory.labels, focus=focus),
        Text(""),
        Prose(t("transformer.lab.lines_hint", query=r.queries.labels[focus]), "italic dim"),
    )


RENDER = {"qkv": render_qkv, "heads": render_heads, "shapes": render_shapes, "cost": render_cost}


# ---------------------------------------------------------------------------- widgets


class ViewPanel(VerticalScroll, can_focus=True):
    """One view; focusable so the keys scroll it without reaching an input."""


class HeatPanel(ViewPanel):
    """The attention view: the arrow keys move the heatmap's cursor instead of scrolling."""

    BINDINGS = [
        Binding("up", "screen.move(-1, 0)", "lab.key.move", show=False),
        Binding("down", "screen.move(1, 0)", "lab.key.move", show=False),
        Binding("left", "screen.move(0, -1)", "lab.key.move", show=False),
        Binding("right", "screen.move(0, 1)", "lab.key.move", show=False),
    ]


_TEXT_AREA_KEYS = {key for b in TextArea.BINDINGS for key in b.key.split(",")}


class MatrixArea(TextArea, inherit_bindings=False):
    """A typed matrix. TextArea's keys without its F6 ("select line"), so that F6 still
    changes the head here and the footer keeps its order."""

    BINDINGS = [
        *(b for b in ScrollableContainer.BINDINGS if b.key not in _TEXT_AREA_KEYS),
        *(b for b in TextArea.BINDINGS if b.key != "f6"),
    ]


# ---------------------------------------------------------------------------- the screen


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
    BINDINGS = [
        Binding("f3", "toggle_mask", "lab.key.mask"),
        Binding("f4", "next_view", "lab.key.view"),
        Binding("shift+f4", "prev_view", "lab.key.prev_view", show=False),
        Binding("f5", "toggle_kind", "lab.key.scores"),
        Binding("f6", "next_head", "lab.key.head"),
    ]

    view: reactive[str] = reactive("attn", init=False)
    kind: reactive[str] = reactive("weights", init=False)  # or "scores"
    head: reactive[int] = reactive(0, init=False)

    def __init__(self) -> None:
        super().__init__()
        self.result: LabResult | None = None
        self.stale = False
        self.errors: dict[str, str] = {}
        self.cursor = (0, 0)
        self.shown_layers: tuple[LabResult, ...] = ()  # every layer on show (one unless trained)
        self.saved: transformer_file.SavedModel | None = None  # the trained Transformer
        self.saved_stamp: tuple[int, int] | None = None  # its file's time and size, when read
        self.held = None  # its held-out evaluation (accuracy, what each head does)
        self.training_default = False  # training the default Transformer in a worker

    # ---- layout -------------------------------------------------------------------------
    def compose(self) -> ComposeResult:
        # The sentence in the learner's language: a Chinese one in English mode puzzles.
        config = lab.LabConfig(preset="cat" if get_lang() == "zh" else "love")
        with Horizontal(id="lab"):
            with Vertical(id="lab-settings") as settings:
                tr(settings, "lab.settings_panel", "border_title")
                yield tr(Static(classes="field-label"), "lab.sentence")
                yield PanelSelect(self._sentence_options(), id="sentence", compact=True,
                                  allow_blank=False, value=config.preset)  # fmt: skip
                yield Static(id="sentence-error", classes="error")
                yield from self._trained_fields()
                yield from self._typed_fields()
                with Vertical(id="random-settings"):  # what a trained model's file decides
                    yield from self._int_row(
                        "tokens", "lab.tokens", len(lab.PRESETS[config.preset])
                    )
                    yield from self._int_row("d_model", "lab.d_model_label", config.d_model)
                    yield from self._int_row("heads", "lab.heads_label", config.heads)
                    yield from self._int_row("seed", "lab.seed", config.seed)
                    yield tr(
                        Tick(value=config.causal, id="causal", compact=True), "lab.causal", "label"
                    )
                    with Horizontal(classes="row"):
                        yield tr(Static(classes="inline-label"), "lab.window_label")
                        yield tr(LineInput("", id="window", compact=True),
                                 "lab.window_placeholder", "placeholder")  # fmt: skip
                    yield Static(id="window-error", classes="error")
                    yield tr(Static(classes="field-label"), "lab.cross_label")
                    yield PanelSelect(self._cross_options(), id="cross", compact=True,
                                      allow_blank=False, value=CROSS_OFF)  # fmt: skip
                    yield Static(id="cross-error", classes="error")
            with Vertical(id="lab-right"):
                yield Static(id="stale", classes="stale")
                with ContentSwitcher(initial="view-attn", id="lab-views"):
                    with HeatPanel(id="view-attn"):
                        yield Static(id="attn-body")
                    for name in VIEWS[1:]:
                        panel = HeatPanel if name == "lines" else ViewPanel  # arrows: the query
                        with panel(id=f"view-{name}"):
                            yield Static(id=f"{name}-body")
        yield TutorFooter()

    def _trained_fields(self) -> ComposeResult:
        """What the trained model is, the sequence it reads and the layer on show."""
        with Vertical(id="trained"):
            yield Static(id="trained-info")
            with Horizontal(classes="row"):
                yield tr(Static(classes="inline-label"), "transformer.lab.sequence")
                yield LineInput(id="sequence", compact=True)
            yield Static(id="sequence-error", classes="error")
            with Horizontal(classes="row"):
                yield tr(Static(classes="inline-label"), "transformer.lab.layer")
                yield Input("1", id="layer", compact=True, type="integer")
            yield Static(id="layer-error", classes="error")

    def _typed_fields(self) -> ComposeResult:
        """X, its labels and the four W matrices; shown while "typed rows" is chosen."""
        with Vertical(id="typed"):
            yield tr(Static(classes="field-label"), "lab.x_label")
            yield MatrixArea(id="X", compact=True, soft_wrap=False, tab_behavior="focus")
            yield Static(id="X-error", classes="error")
            with Horizontal(classes="row"):
                yield tr(Static(classes="inline-label"), "lab.labels_label")
                yield tr(LineInput(id="labels", compact=True), "lab.labels_placeholder",
                         "placeholder")  # fmt: skip
            yield Static(id="labels-error", classes="error")
            with Collapsible(id="typed-w", title=", ".join(WEIGHTS), collapsed=True):
                for name in WEIGHTS:
                    yield Static(name, id=f"{name}-label", classes="field-label")
                    yield tr(MatrixArea(id=name, compact=True, soft_wrap=False,
                                        tab_behavior="focus"),
                             "lab.w_placeholder", "placeholder")  # fmt: skip
                    yield Static(id=f"{name}-error", classes="error")

    def _int_row(self, field: str, label_key: str, value: int) -> ComposeResult:
        with Horizontal(classes="row", id=f"{field}-row"):
            yield tr(Static(classes="inline-label"), label_key)
            # Plain text, checked on each change: an integer-only field drops a typed "." without
            # a word, so "2.5" silently became 25.
            yield LineInput(str(value), id=field, compact=True)
        yield Static(id=f"{field}-error", classes="error")

    def _sentence_options(self) -> list[tuple[str, str]]:
        return [(_t(f"lab.preset.{name}"), name) for name in SENTENCES]

    def _cross_options(self) -> list[tuple[str, str]]:
        return [(t("lab.cross.off"), CROSS_OFF)] + [
            (t(f"lab.preset.{name}"), name) for name in lab.PRESETS
        ]

    def on_mount(self) -> None:
        super().on_mount()
        self.recompute()
        preset = getattr(self, "_course_preset", None)
        if preset:  # a lesson's do-task: its settings, once the fields' first events are in
            self.call_after_refresh(self._fill_preset, preset)
        self.query_one("#view-attn", HeatPanel).focus()

    # ---- a lesson's do-task: its preset in, what the screen shows out -------------------
    def apply_preset(self, preset: dict) -> None:
        """LabConfig fields (preset, d_model, heads, causal, window, seed) to open with."""
        self._course_preset = dict(preset)

    def _fill_preset(self, preset: dict) -> None:
        """The fields set as a learner would set them (each change recomputes)."""
        if "preset" in preset:
            self.query_one("#sentence", Select).value = preset["preset"]
            self.query_one("#tokens", Input).value = str(len(lab.PRESETS[preset["preset"]]))
        for field in ("d_model", "heads", "seed"):
            if field in preset:
                self.query_one(f"#{field}", Input).value = str(preset[field])
        if "causal" in preset:
            self.query_one("#causal", Tick).value = bool(preset["causal"])
        if preset.get("window") is not None:
            self.query_one("#window", Input).value = str(preset["window"])
        self.recompute()

    def course_state(self):  # -> core.course.state.LabState
        """The layer on show (None while a setting has a fault), the view, head and cell."""
        from attn_tui.core.course.state import LabState

        r = None if self.stale else self.result
        config = lab.LabConfig(d_model=r.d_model, heads=r.heads, causal=r.causal,
                               window=r.window) if r is not None else lab.LabConfig()  # fmt: skip
        return LabState(config, r, getattr(self, "view", "attn"), self.head, self.cursor,
                        trained=self._showing_trained())  # fmt: skip

    # ---- computing ----------------------------------------------------------------------
    def _read(self) -> tuple[LabResult | None, dict[str, str]]:
        """Every setting → a layer, or the faults by field."""
        errors: dict[str, str] = {}
        ints: dict[str, int] = {}
        sentence = self.query_one("#sentence", Select).value
        if sentence == TRAINED:
            return self._read_trained()
        typed = sentence == TYPED
        for field in INT_FIELDS:
            if typed and field in ("tokens", "d_model"):
                continue  # both follow the typed X
            try:
                ints[field] = int(normalise(self.query_one(f"#{field}", Input).value.strip()))
            except ValueError:
                name = t(f"lab.{field}_label" if field in ("d_model", "heads") else f"lab.{field}")
                value = self.query_one(f"#{field}", Input).value.strip()
                errors[field] = t("lab.bad_int", name=name, value=value or "∅")
        window_text = self.query_one("#window", Input).value.strip()
        window: int | None = None
        if window_text:
            try:
                window = int(normalise(window_text))
            except ValueError:
                errors["window"] = t("lab.bad_window", value=window_text)
        proj: lab.Projections | None = None
        if typed:
            queries, proj = self._read_typed(ints.get("seed"), errors)
        if errors:
            return None, errors
        cross = self.query_one("#cross", Select).value
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
                                 causal=self.query_one("#causal", Tick).value,
                                 window=window, seed=seed)  # fmt: skip
        except InputError as err:
            errors[self._fault_field(err, typed)] = describe(err)
            return None, errors
        return result, errors

    def _read_trained(self) -> tuple[LabResult | None, dict[str, str]]:
        """The trained model on the typed (or held-out) sequence: one lab result per layer."""
        if self.saved is None:
            key = (
                "transformer.lab.training" if self.training_default else "transformer.lab.no_model"
            )
            return None, {"sentence": t(key)}
        config = self.saved.config
        errors: dict[str, str] = {}
        x = None
        try:
            x = trained.parse_sequence(self.query_one("#sequence", Input).value, config.length)
        except InputError as err:
            errors["sequence"] = describe(err)
        layer = 0
        try:
            layer = int(self.query_one("#layer", Input).value.strip())
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
            X = parse_matrix(self.query_one("#X", TextArea).text, field="X")
            queries = lab.typed(X, _labels(self.query_one("#labels", Input).value))
        except InputError as err:
            if err.code == "lab.d_model":  # d_model is X's width here: say so
                message = t("lab.x_width", cols=err.params["value"], limit=lab.MAX_D_MODEL)
            else:
                message = describe(err)
            errors[self._fault_field(err, True)] = message
        typed_w: dict[str, object] = {}
        for name in WEIGHTS:
            text = self.query_one(f"#{name}", TextArea).text
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
        sentence = self.query_one("#sentence", Select).value
        typed = sentence == TYPED
        self.query_one("#typed").set_class(typed, "-shown")
        self.query_one("#trained").set_class(sentence == TRAINED, "-shown")
        self.query_one("#random-settings").set_class(sentence == TRAINED, "-hidden")
        self.query_one("#tokens-row").set_class(typed, "-hidden")
        self.query_one("#d_model", Input).disabled = typed
        self._show_trained_info()
        result, errors = self._read()
        if result is not None:
            self.result = result
            if sentence != TRAINED:
                self.shown_layers = (result,)
            if typed:  # d_model and n follow the typed X
                with self.prevent(Input.Changed):
                    self.query_one("#d_model", Input).value = str(result.d_model)
                    self.query_one("#tokens", Input).value = str(result.n_q)
        d_model = self.result.d_model if self.result is not None else "d_model"
        for name in WEIGHTS:  # the shape each W needs, beside its name
            label = t("lab.w_o_rows") if name == "W_O" else t("lab.w_rows", d_model=d_model)
            self.query_one(f"#{name}-label", Static).update(f"{name} {label}")
        if any(name in errors for name in WEIGHTS):  # a fault hidden in the fold is no help
            self.query_one("#typed-w", Collapsible).collapsed = False
        self.stale = bool(errors)
        self.errors = errors
        for field in FIELDS:
            say(self.query_one(f"#{field}-error", Static), errors.get(field, ""), Prose)
        if errors:  # the fault's own line may be below the fold of the settings: bring it up
            first = next((f for f in FIELDS if f in errors), None)
            if first is not None:
                self.call_after_refresh(
                    self.query_one("#lab-settings").scroll_to_widget,
                    self.query_one(f"#{first}-error"),
                    animate=False,
                )
        if self.result is not None:
            self.head = min(self.head, self.result.heads - 1)
            i, j = self.cursor
            self.cursor = (min(i, self.result.n_q - 1), min(j, self.result.n_k - 1))
        self.redraw()

    def redraw(self) -> None:
        fault = next(
            (self.errors[f] for f in FIELDS if f in self.errors),
            next(iter(self.errors.values()), ""),
        )
        stale = t("lab.stale_because", fault=fault) if self.stale and self.result else ""
        say(self.query_one("#stale", Static), stale, Prose)
        for i, name in enumerate(VIEWS):
            panel = self.query_one(f"#view-{name}", ViewPanel)
            panel.border_title = t(
                "lab.view_of", view=_t(f"lab.view.{name}"), i=i + 1, n=len(VIEWS)
            )
            panel.set_class(self.stale, "-stale")
        r = self.result
        if r is None:
            return
        for name in ("attn", "lines"):
            self.query_one(f"#view-{name}", ViewPanel).border_subtitle = t(
                "lab.head_of", head=self.head + 1, heads=r.heads
            )
        note = self._weights_note()
        self.query_one("#attn-body", Static).update(
            Group(
                note,
                render_attention(
                    r, self.head, self.kind, self.cursor, shade_if_cut=self._showing_trained()
                ),
            )  # fmt: skip
        )
        held = self.held if self._showing_trained() else None
        self.query_one("#model-body", Static).update(render_model(self.shown_layers, note, held))
        self.query_one("#lines-body", Static).update(
            render_lines(r, self.head, self.cursor[0], note)
        )
        for name, render in RENDER.items():
            self.query_one(f"#{name}-body", Static).update(render(r))

    # ---- the trained Transformer ----------------------------------------------------------
    def _showing_trained(self) -> bool:
        return self.query_one("#sentence", Select).value == TRAINED and self.saved is not None

    def _weights_note(self) -> RenderableType:
        """One line saying whose weights these are: trained, or random and so meaningless."""
        if self._showing_trained():
            config = self.saved.config
            layer = next((k for k, r in enumerate(self.shown_layers, 1) if r is self.result), 1)
            task = t(f"transformer.task.{config.task}")
            text = t("transformer.lab.note_trained", task=task, layer=layer, layers=config.layers)
            return Prose(text, "green")
        seed = self.query_one("#seed", Input).value.strip() or "?"
        return Prose(t("transformer.lab.note_random", seed=seed), "yellow")

    def _show_trained_info(self) -> None:
        info = self.query_one("#trained-info", Static)
        if self.saved is None:
            info.update("")
            return
        config, summary = self.saved.config, self.saved.summary
        text = t("transformer.lab.info", task=t(f"transformer.task.{config.task}"),
                 length=config.length, layers=config.layers, heads=config.heads,
                 d_model=config.d_model, positions=t(f"transformer.positions.{config.positions}"),
                 iters=summary.get("iters", "?"), params=self.saved.model.n_params,
                 seq=fmt.fixed(self.held.seq_acc, 3) if self.held else "—")  # fmt: skip
        info.update(Prose(text, "dim"))

    def _open_trained(self) -> None:
        """Open the last Transformer trained in the app; with none (or a damaged file, set
        aside), train the default one in a worker first."""
        path = paths.last_transformer(paths.data_dir(self.app.data_dir))
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
            self._use_saved(saved)
        elif not self.training_default:
            self.training_default = True
            self._train_default(path)

    def on_screen_resume(self) -> None:
        """Back in the lab with the trained source on show: a Transformer trained since (on
        the training screen) replaces the one shown. (The base class's handler runs too.)"""
        if self.saved is None or self.query_one("#sentence", Select).value != TRAINED:
            return
        try:
            stamp = _stamp(paths.last_transformer(paths.data_dir(self.app.data_dir)))
        except InputError:
            return
        if stamp is not None and stamp != self.saved_stamp:
            self._open_trained()
            self.recompute()

    def open_trained_model(self) -> None:
        """Show the last Transformer trained in the app (the training screen's ctrl+o): its
        file is read again, even when the trained source is on show already."""
        with self.prevent(Select.Changed):
            self.query_one("#sentence", Select).value = TRAINED
        self._open_trained()
        self.recompute()

    @work(thread=True, exclusive=True, group="lab-train", exit_on_error=False)
    def _train_default(self, path: Path) -> None:
        result = run_to_end(TransformerConfig())  # reversal, L 10: about a second
        saved = transformer_file.result_as_saved(result)
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            transformer_file.save_result(path, result)
        except (InputError, OSError):
            pass  # not kept for next time, but shown all the same
        self.app.call_from_thread(self._use_saved, saved)

    def _use_saved(self, saved: transformer_file.SavedModel) -> None:
        self.training_default = False
        self.saved = saved
        self.held = trained.held_out(saved.model, saved.config)
        with self.prevent(Input.Changed):
            self.query_one("#sequence", Input).value = letters(saved.probe)
            self.query_one("#layer", Input).value = "1"
        self.recompute()

    def relocalize(self) -> None:
        # Relabelling the options must not count as choosing one (it would reset fields).
        with self.prevent(Select.Changed):
            for selector, options in (("#sentence", self._sentence_options()),
                                      ("#cross", self._cross_options())):  # fmt: skip
                select = self.query_one(selector, Select)
                value = select.value
                select.set_options(options)
                select.value = value
                select.mutate_reactive(Select.value)  # relabel even when the value is unchanged
        self.recompute()

    # ---- events -------------------------------------------------------------------------
    @on(Input.Changed)
    @on(Tick.Changed)
    def _settings_changed(self, event: Input.Changed | Tick.Changed) -> None:
        if isinstance(event, Input.Changed) and event.input.id == "tokens":
            sentence = self.query_one("#sentence", Select)
            # Typing a count other than the preset's length asks for x1 … xn instead.
            preset = lab.PRESETS.get(str(sentence.value))
            if preset is not None and event.value.strip() != str(len(preset)):
                with self.prevent(Select.Changed):
                    sentence.value = "count"
        self.recompute()

    @on(TextArea.Changed)
    def _matrix_changed(self) -> None:
        self.recompute()

    @on(Select.Changed, "#sentence")
    def _sentence_chosen(self, event: Select.Changed) -> None:
        rows = self.query_one("#X", TextArea)
        if event.value == TYPED and not rows.text.strip() and self.result is not None:
            # Start from the numbers on show: nothing moves until the learner edits one.
            with self.prevent(TextArea.Changed, Input.Changed):
                rows.text = _rows_text(self.result.queries.X)
                self.query_one("#labels", Input).value = " ".join(self.result.queries.labels)
        if event.value in lab.PRESETS:
            with self.prevent(Input.Changed):
                self.query_one("#tokens", Input).value = str(len(lab.PRESETS[str(event.value)]))
        if event.value == TRAINED:
            self._open_trained()
        self.recompute()

    @on(Select.Changed, "#cross")
    def _cross_chosen(self) -> None:
        self.recompute()

    def watch_view(self, view: str) -> None:
        switcher = self.query_one("#lab-views", ContentSwitcher)
        had_focus = isinstance(self.focused, ViewPanel)
        switcher.current = f"view-{view}"
        if had_focus:
            self.query_one(f"#view-{view}", ViewPanel).focus()

    def watch_kind(self) -> None:
        self.redraw()

    def watch_head(self) -> None:
        self.redraw()

    # ---- actions ------------------------------------------------------------------------
    def action_toggle_mask(self) -> None:
        tick = self.query_one("#causal", Tick)
        tick.value = not tick.value

    def action_next_view(self) -> None:
        self.view = VIEWS[(VIEWS.index(self.view) + 1) % len(VIEWS)]

    def action_prev_view(self) -> None:
        self.view = VIEWS[(VIEWS.index(self.view) - 1) % len(VIEWS)]

    def action_toggle_kind(self) -> None:
        self.kind = "scores" if self.kind == "weights" else "weights"
        self.view = "attn"

    def action_next_head(self) -> None:
        if self.result is not None:
            self.head = (self.head + 1) % self.result.heads

    def action_move(self, di: int, dj: int) -> None:
        if self.result is None:
            return
        i, j = self.cursor
        self.cursor = (
            min(max(i + di, 0), self.result.n_q - 1),
            min(max(j + dj, 0), self.result.n_k - 1),
        )
        self.redraw()
