"""Rich renderables for the four steps of attention, and for the √d experiment.

Every number comes from :class:`attn_tui.core.attention.AttentionSteps`; this module only
lays them out. The same functions serve the calculator screen and ``attn-tui calc``.
"""

from __future__ import annotations

from rich.console import Console, ConsoleOptions, Group, RenderableType, RenderResult
from rich.rule import Rule
from rich.table import Table
from rich.text import Text

from attn_tui.core import format as fmt
from attn_tui.core.attention.steps import AttentionSteps, DimensionExperiment
from attn_tui.core.format import cell_len
from attn_tui.i18n import t
from attn_tui.widgets.plot import hull_plot
from attn_tui.widgets.prose import Prose

ACCENT = "bold cyan"
GOOD = "green"
BAD = "bold red"
BLOCKS = " ▏▎▍▌▋▊▉█"
SPARKS = "▁▂▃▄▅▆▇█"


def bar(fraction: float, width: int = 12) -> str:
    """A horizontal bar with eighth-block resolution: bar(0.5, 4) == '██  '."""
    fraction = min(max(fraction, 0.0), 1.0)
    eighths = round(fraction * width * 8)
    full, part = divmod(eighths, 8)
    text = "█" * full + (BLOCKS[part] if part else "")
    return text.ljust(width)


def sparkline(values) -> str:
    """One block per value, height by value (0 → ▁, 1 → █): the shape of a weight vector."""
    return "".join(SPARKS[min(int(v * len(SPARKS)), len(SPARKS) - 1)] for v in values)


class Fit:
    """The first of several layouts whose widest line fits the width (the last otherwise)."""

    def __init__(self, *layouts: Text) -> None:
        self.layouts = layouts

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        for layout in self.layouts:
            if max(cell_len(line) for line in layout.plain.split("\n")) <= options.max_width:
                yield layout
                return
        yield self.layouts[-1]


def _title(step: int, key: str) -> Text:
    return Text.assemble((t("calc.step_of", step=step) + " · ", "dim"), (t(key), ACCENT))


Cell = str | Text


def columns(
    rows: list[list[Cell]], justify: str, header: list[str] | None = None, gap: int = 2
) -> Text:
    """Rows laid out in padded columns as one Text — what Rich's Table does, without measuring
    every cell on every layout pass, which made each keystroke cost tens of milliseconds.

    `justify` has one letter per column: 'l' or 'r'. Over-long rows are cut with '…'.
    """
    table = ([[Text(h, "dim") for h in header]] if header else []) + [
        [cell if isinstance(cell, Text) else Text(cell) for cell in row] for row in rows
    ]
    widths = [max(cell_len(row[c].plain) for row in table) for c in range(len(justify))]
    out = Text(no_wrap=True, overflow="ellipsis")
    for r, row in enumerate(table):
        if r:
            out.append("\n")
        for c, cell in enumerate(row):
            pad = " " * (widths[c] - cell_len(cell.plain))
            out.append(" " * gap if c else "")
            if justify[c] == "r":
                out.append(pad)
            out.append_text(cell)
            if justify[c] == "l" and c < len(row) - 1:
                out.append(pad)
    return out


def step_scores(s: AttentionSteps) -> RenderableType:
    show_keys = s.d <= 4
    rows: list[list[Cell]] = []
    for i, k in enumerate(s.K, start=1):
        label = f"k{fmt.sub(i)}" + (f" {fmt.vec(k)}" if show_keys else "")
        arith = fmt.dot_arithmetic(s.q, k)
        rows.append(
            [Text(label, "bold"), Text(arith, "dim"), Text("= " + fmt.num(s.scores[i - 1]), "bold")]
        )
    table = columns(rows, "llr", gap=1)
    return Group(
        _title(1, "calc.s1.title"),
        Text(f"q = {fmt.vec(s.q)}"),
        table,
        Prose(t("calc.s1.intro"), "italic dim"),
    )


def step_scaling(s: AttentionSteps) -> RenderableType:
    parts: list[RenderableType] = [_title(2, "calc.s2.title")]
    temperature = s.temperature != 1.0
    if s.scale:
        parts.append(Text(t("calc.s2.sqrt", d=s.d, sqrt_d=fmt.fixed(s.sqrt_d)), "bold"))
    else:
        parts.append(Prose(t("calc.s2.off"), "yellow"))
    if temperature:
        parts.append(Prose(t("calc.s2.temperature", T=fmt.num(s.temperature))))
    header = [t("calc.col.key"), t("calc.col.score"), t("calc.col.scaled")]
    if temperature:
        header.append(t("calc.col.logit"))
    rows: list[list[Cell]] = []
    for i in range(s.n):
        row: list[Cell] = [f"k{fmt.sub(i + 1)}", fmt.num(s.scores[i]), fmt.fixed(s.scaled[i])]
        if temperature:
            row.append(fmt.fixed(s.logits[i]))
        rows.append(row)
    parts.append(columns(rows, "l" + "r" * (len(header) - 1), header))
    if s.scale:
        parts.append(Prose(t("calc.s2.why"), "italic dim"))
    return Group(*parts)


def step_softmax(s: AttentionSteps) -> RenderableType:
    parts: list[RenderableType] = [_title(3, "calc.s3.title")]
    if s.hard:
        winner = int(s.weights.argmax()) + 1
        parts.append(Prose(t("calc.s3.hard", i=fmt.sub(winner)), "bold"))
    else:
        parts.append(Prose(t("calc.s3.shift", m=fmt.fixed(s.shift))))
    top = float(s.weights.max()) or 1.0
    rows: list[list[Cell]] = []
    for i in range(s.n):
        w = s.weights[i]
        style = ACCENT if w == top else ""
        rows.append([
            f"k{fmt.sub(i + 1)}", fmt.fixed(s.logits[i] - s.shift), fmt.fixed(s.exps[i]),
            Text(fmt.fixed(w), style), Text(bar(w / top, 8), "cyan"),
        ])  # fmt: skip
    header = [t("calc.col.key"), t("calc.col.shifted"), t("calc.col.exp"), "α", ""]
    parts.append(columns(rows, "lrrrl", header))
    if not s.hard:
        parts.append(Text(t("calc.s3.sum", s=fmt.fixed(s.exp_sum))))
    parts.append(Prose(t("calc.s3.check", s=fmt.fixed(s.weights.sum())), GOOD))
    parts.append(Prose(t("calc.s3.hard_grad" if s.hard else "calc.s3.never_zero"), "italic dim"))
    return Group(*parts)


def step_weighted_sum(s: AttentionSteps) -> RenderableType:
    parts: list[RenderableType] = [_title(4, "calc.s4.title")]
    if s.values_are_keys:
        parts.append(Text(t("calc.s4.values_are_keys"), "dim"))
    wide: list[list[Cell]] = []
    narrow: list[list[Cell]] = []  # the term on its own line when a row does not fit
    for i in range(s.n):
        label = Text(f"k{fmt.sub(i + 1)}", "bold")
        product = f"{fmt.fixed(s.weights[i])}×{fmt.vec(s.V[i])}"
        term = Text(f"= {fmt.vec(s.terms[i])}", "dim")
        wide.append([label, product, term])
        narrow += [[label, product], ["", term]]
    parts.append(Fit(columns(wide, "lll", gap=1), columns(narrow, "ll", gap=1)))
    parts.append(
        Text(t("calc.s4.output", o=fmt.vec(s.output, fixed_places=True, sign=True)), ACCENT)
    )
    parts.append(Prose(t("calc.s4.convex"), "dim"))
    inside = s.inside
    checks: list[list[Cell]] = []
    for j in range(min(len(s.output), 8)):
        ok = bool(inside[j])
        checks.append([
            Text("✓" if ok else "✗", GOOD if ok else BAD),
            t("calc.s4.component", i=fmt.sub(j + 1), o=fmt.fixed(s.output[j]),
              lo=fmt.num(s.lo[j]), hi=fmt.num(s.hi[j])),
        ])  # fmt: skip
    if len(s.output) > 8:
        checks.append([Text("✓" if inside.all() else "✗", GOOD if inside.all() else BAD), "…"])
    parts.append(columns(checks, "ll", gap=1))
    if s.V.shape[1] == 2:
        parts.append(Prose(t("calc.s4.plot"), "dim"))
        parts.append(hull_plot(s.V, s.output))
    parts.append(Prose(t("calc.s4.cannot_create"), "italic dim"))
    return Group(*parts)


STEPS = (step_scores, step_scaling, step_softmax, step_weighted_sum)


def render_steps(s: AttentionSteps, step: int, show_all: bool) -> RenderableType:
    """Step `step` (1–4) alone, or all four separated by rules."""
    if not show_all:
        return STEPS[step - 1](s)
    parts: list[RenderableType] = []
    for i, render in enumerate(STEPS):
        if i:
            parts.append(Rule(style="dim"))
        parts.append(render(s))
    return Group(*parts)


def render_experiment(small: DimensionExperiment, large: DimensionExperiment) -> RenderableType:
    table = Table("", f"d = {small.d}", f"d = {large.d}", box=None, padding=(0, 1),
                  show_edge=False, header_style="bold")  # fmt: skip
    for col in table.columns[1:]:
        col.justify = "right"
    table.add_row("σ(q·k)", fmt.fixed(small.score_std, 2), fmt.fixed(large.score_std, 2))
    table.add_row("√d", fmt.fixed(small.d**0.5, 2), fmt.fixed(large.d**0.5, 2))
    raw, scaled = t("calc.exp.unscaled"), t("calc.exp.scaled")
    table.add_row(Text(t("calc.exp.max"), "bold"), "", "")
    table.add_row(
        f"  {raw}", fmt.fixed(small.max_unscaled), Text(fmt.fixed(large.max_unscaled), BAD)
    )
    table.add_row(
        f"  {scaled}", fmt.fixed(small.max_scaled), Text(fmt.fixed(large.max_scaled), GOOD)
    )
    table.add_row(
        Text(t("calc.exp.entropy", u=fmt.fixed(small.entropy_uniform, 2)), "bold"), "", ""
    )
    table.add_row(
        f"  {raw}", fmt.fixed(small.entropy_unscaled, 2), fmt.fixed(large.entropy_unscaled, 2)
    )
    table.add_row(
        f"  {scaled}", fmt.fixed(small.entropy_scaled, 2), fmt.fixed(large.entropy_scaled, 2)
    )
    table.add_row(Text("α", "bold"), "", "")
    table.add_row(
        f"  {raw}", Text(sparkline(small.unscaled), "cyan"), Text(sparkline(large.unscaled), "red")
    )
    table.add_row(
        f"  {scaled}", Text(sparkline(small.scaled), "cyan"), Text(sparkline(large.scaled), "green")
    )
    return Group(
        Text(t("calc.exp.title"), ACCENT),
        Prose(t("calc.exp.intro", n=small.n), "dim"),
        table,
        Prose(t("calc.exp.lesson"), "italic"),
    )
