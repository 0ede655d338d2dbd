"""Rich renderables of the self-attention lab: one function per view, from a LabResult.

``render_attention`` (one head's scores and weights, the cursor's cell written out),
``render_qkv`` (X, Q, K, V with their shapes), ``render_heads`` (every head side by side, Z,
the concat and W_O), ``render_shapes`` (the seed's shapes trace beside this layer's),
``render_cost`` (the quadratic cost), ``render_model`` (every head of every layer, small) and
``render_lines`` (one head as lines between the tokens). None keeps state.
"""

from __future__ import annotations

import numpy as np
from rich.columns import Columns
from rich.console import Console, ConsoleOptions, Group, RenderableType, RenderResult
from rich.measure import Measurement
from rich.rule import Rule
from rich.table import Table
from rich.text import Text

from attn_tui.core import format as fmt
from attn_tui.core.attention import lab
from attn_tui.core.attention.lab import LabResult
from attn_tui.i18n import t
from attn_tui.render.attention_views import HeadLines, ModelView
from attn_tui.render.heatmap import Heatmap
from attn_tui.render.prose import Prose

ACCENT = "bold cyan"
SEED_EXAMPLE = (10, 512, 8)  # the seed text's n, d_model, h


def _shape(shape: tuple[int, ...]) -> str:
    return "(" + ", ".join(str(s) for s in shape) + ")"


def _vec(values) -> str:
    return fmt.vec(values, 2, fixed_places=True)


def _percent(weight: float) -> str:
    """A weight as whole percents: 0.1242 → "12"."""
    return f"{round(weight * 100):d}"


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
    # Wide enough for both: scores beside weights (F5 has nothing to switch). Otherwise the one
    # F5 chose.
    side_by_side = _side_by_side(maps)
    parts.append(Either(side_by_side, maps[kind]))
    if not r.allowed.all():
        parts.append(Prose(t("lab.masked_note"), "dim"))
    parts.append(Rule(style="dim"))
    parts.append(render_cell(r, head, *cursor))
    hints = (Prose(t("lab.hint_both"), "italic dim"), Prose(t("lab.hint"), "italic dim"))
    parts.append(Either(*hints, probe=side_by_side))
    return Group(*parts)


def _side_by_side(maps: dict[str, Group]) -> Table:
    grid = Table.grid(padding=(0, 4))
    grid.add_row(maps["scores"], maps["weights"])
    return grid


def scores_beside_weights(
    r: LabResult, head: int, cursor: tuple[int, int], width: int, console: Console,
    shade_if_cut: bool = False,
) -> bool:  # fmt: skip
    """Whether the attention view shows the scores and the weights side by side at ``width``
    (then F5, scores or weights, has nothing to switch)."""
    maps = {k: _attention_map(r, head, k, cursor, shade_if_cut) for k in ("scores", "weights")}
    return _fits(console, _side_by_side(maps), width)


def _fits(console: Console, renderable: RenderableType, width: int) -> bool:
    options = console.options.update_width(10_000)
    return Measurement.get(console, options, renderable).maximum <= width


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
    """``wide`` where it fits at its natural width, else ``narrow``: one layout per size.
    ``probe``: decide by whether this one fits instead (a line that goes with a layout)."""

    def __init__(
        self, wide: RenderableType, narrow: RenderableType, probe: RenderableType | None = None
    ) -> None:
        self.wide = wide
        self.narrow = narrow
        self.probe = wide if probe is None else probe

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        needed = Measurement.get(console, options.update_width(10_000), self.probe).maximum
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
    # Where two decimals do not fit, whole percents: fewer decimals turned a trained sorting
    # head's 0.12 … 0.25 into a wall of "0.1".
    maps = [
        Heatmap(r.weights[h], q_rows, kv_rows, title=t("lab.heads.weights", head=h + 1),
                masked=~r.allowed, masked_text="0", places=2, vmin=0.0, vmax=1.0,
                cut_text=_percent, cut_note=t("lab.heads.percent") if h == 0 else "")
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
