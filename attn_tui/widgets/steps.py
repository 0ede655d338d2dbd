"""Rich renderables for the four steps of attention, and for the √d experiment.

Every number comes from :class:`attn_tui.core.attention.AttentionSteps`; this module only
lays them out. The same functions serve the calculator screen and ``attn-tui calc``.
"""

from __future__ import annotations

from collections.abc import Callable

from rich.console import Console, ConsoleOptions, Group, RenderableType, RenderResult
from rich.measure import Measurement
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


class AtWidth:
    """A renderable laid out for the width it is given: the steps choose how much of a sum,
    a vector or a table to write out from the room they have, so that the figure a row is
    about (a score, a weight) is never what gets cut."""

    def __init__(self, build: Callable[[int], RenderableType]) -> None:
        self.build = build

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        yield self.build(options.max_width)

    def __rich_measure__(self, console: Console, options: ConsoleOptions) -> Measurement:
        return Measurement.get(console, options, self.build(options.max_width))


def fit_vec(values, width: int, **kw) -> str:
    """fmt.vec with as many entries as fit in `width` cells (at least the first and last)."""
    limit = min(len(values), kw.pop("limit", 8))
    text = fmt.vec(values, limit=limit, **kw)
    while cell_len(text) > width and limit > 3:
        limit -= 1
        text = fmt.vec(values, limit=limit, **kw)
    return text


def fit_columns(
    rows: list[list[Cell]], justify: str, header: list[str] | None, width: int,
    drop: tuple[int, ...] = (), gap: int = 2,
) -> Text:  # fmt: skip
    """`columns`, leaving out the columns in `drop` (in that order) until the rows fit."""
    keep = list(range(len(justify)))
    out = columns(rows, justify, header, gap)
    for col in drop:
        if _widest(out) <= width:
            break
        keep.remove(col)
        out = columns([[row[c] for c in keep] for row in rows], "".join(justify[c] for c in keep),
                      [header[c] for c in keep] if header else None, gap)  # fmt: skip
    return out


def _widest(text: Text) -> int:
    return max(cell_len(line) for line in text.plain.split("\n"))


def fit_dot(q, k, width: int) -> tuple[str, bool]:
    """The written-out q·k in at most `width` cells: the first terms, '…', the last term.
    Returns (text, shortened). Only the terms that can fit are formatted (64 is common)."""
    n = len(q)
    full = fmt.dot_arithmetic(q, k, max_terms=n) if n <= max(width // 3, 1) else None
    if full is not None and cell_len(full) <= width:
        return full, False
    last = f"{fmt.factor(q[n - 1])}×{fmt.factor(k[n - 1])}"
    head: list[str] = []
    for i in range(min(n - 1, width // 3)):
        head.append(f"{fmt.factor(q[i])}×{fmt.factor(k[i])}")
    while head:
        text = " + ".join([*head, "…", last])
        if cell_len(text) <= width:
            return text, True
        head.pop()
    text = f"… + {last}"
    return (text, True) if cell_len(text) <= width else ("…" if width >= 1 else "", True)


def weight_text(w: float, places: int = 4) -> str:
    """A weight or an exp: fixed places, but a tiny positive number is not printed as 0.0000
    beside a sentence saying a softmax never gives exactly 0."""
    if 0 < abs(w) < 0.5 * 10**-places:
        return f"{w:.1e}".replace("-", fmt.MINUS)
    return fmt.fixed(w, places)


def step_scores(s: AttentionSteps) -> RenderableType:
    return AtWidth(lambda width: _step_scores(s, width))


def _step_scores(s: AttentionSteps, width: int) -> RenderableType:
    scores = ["= " + fmt.num(x) for x in s.scores]
    score_w = max(cell_len(x) for x in scores)
    labels = [f"k{fmt.sub(i)}" for i in range(1, s.n + 1)]
    if s.d <= 4:  # small keys are shown beside their names, when that leaves room for a sum
        with_keys = [f"{label} {fmt.vec(k)}" for label, k in zip(labels, s.K, strict=True)]
        if width - max(map(cell_len, with_keys)) - score_w - 2 >= 4 * s.d + 3 * (s.d - 1):
            labels = with_keys
    label_w = max(map(cell_len, labels))
    room = width - label_w - score_w - 2  # what is left for the written-out sum
    rows: list[list[Cell]] = []
    shortened = False
    for i, k in enumerate(s.K):
        arith, cut = fit_dot(s.q, k, room) if room >= 5 else ("", True)
        shortened |= cut
        rows.append([Text(labels[i], "bold"), Text(arith, "dim"), Text(scores[i], "bold")])
    parts: list[RenderableType] = [
        _title(1, "calc.s1.title"),
        Text(f"q = {fit_vec(s.q, width - 4)}", no_wrap=True, overflow="crop"),
        columns(rows, "llr", gap=1),
    ]
    if shortened:
        parts.append(Prose(t("calc.s1.shortened"), "dim"))
    parts.append(Prose(t("calc.s1.intro"), "italic dim"))
    return Group(*parts)


def step_scaling(s: AttentionSteps) -> RenderableType:
    return AtWidth(lambda width: _step_scaling(s, width))


def _step_scaling(s: AttentionSteps, width: int) -> RenderableType:
    parts: list[RenderableType] = [_title(2, "calc.s2.title")]
    temperature = s.temperature != 1.0
    if s.scale:
        parts.append(Prose(t("calc.s2.sqrt", d=s.d, sqrt_d=fmt.fixed(s.sqrt_d)), "bold"))
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
    gap = 2 if _widest(columns(rows, "l" + "r" * (len(header) - 1), header)) <= width else 1
    parts.append(columns(rows, "l" + "r" * (len(header) - 1), header, gap))
    if s.scale:
        parts.append(Prose(t("calc.s2.why"), "italic dim"))
    return Group(*parts)


def step_softmax(s: AttentionSteps) -> RenderableType:
    return AtWidth(lambda width: _step_softmax(s, width))


def _step_softmax(s: AttentionSteps, width: int) -> RenderableType:
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
            f"k{fmt.sub(i + 1)}", fmt.fixed(s.logits[i] - s.shift), weight_text(s.exps[i]),
            Text(weight_text(w), style), Text(bar(w / top, 8), "cyan"),
        ])  # fmt: skip
    header = [t("calc.col.key"), t("calc.col.shifted"), t("calc.col.exp"), "α", ""]
    # Narrow: the bars go first, then the shifted logits; the weights always stay.
    parts.append(fit_columns(rows, "lrrrl", header, width, drop=(4, 1)))
    if not s.hard:
        parts.append(Text(t("calc.s3.sum", s=fmt.fixed(s.exp_sum))))
    parts.append(Prose(t("calc.s3.check", s=fmt.fixed(s.weights.sum())), GOOD))
    zeros = [i for i in range(s.n) if s.weights[i] == 0.0]
    if s.hard:
        parts.append(Prose(t("calc.s3.hard_grad"), "italic dim"))
    elif zeros:  # exp underflowed: "never exactly 0" would contradict the table above
        names = ", ".join(f"k{fmt.sub(i + 1)}" for i in zeros)
        x = fmt.fixed(s.logits[zeros[0]] - s.shift, 1)
        parts.append(Prose(t("calc.s3.underflow", keys=names, x=x), "yellow"))
    else:
        parts.append(Prose(t("calc.s3.never_zero"), "italic dim"))
    return Group(*parts)


def step_weighted_sum(s: AttentionSteps) -> RenderableType:
    return AtWidth(lambda width: _step_weighted_sum(s, width))


def _step_weighted_sum(s: AttentionSteps, width: int) -> RenderableType:
    parts: list[RenderableType] = [_title(4, "calc.s4.title")]
    if s.values_are_keys:
        parts.append(Text(t("calc.s4.values_are_keys"), "dim"))
    labels = [Text(f"v{fmt.sub(i + 1)}", "bold") for i in range(s.n)]
    label_w = max(cell_len(label.plain) for label in labels)
    weights = [weight_text(w) for w in s.weights]
    wide: list[list[Cell]] = []
    for i in range(s.n):
        product = f"{weights[i]}×{fmt.vec(s.V[i])}"
        wide.append([labels[i], product, Text(f"= {fmt.vec(s.terms[i])}", "dim")])
    table = columns(wide, "lll", gap=1)
    if _widest(table) > width:  # the term on a line of its own, each vector cut to fit
        room = width - label_w - 1
        narrow: list[list[Cell]] = []
        for i in range(s.n):
            product = f"{weights[i]}×" + fit_vec(s.V[i], room - cell_len(weights[i]) - 1)
            term = Text("= " + fit_vec(s.terms[i], room - 2), "dim")
            narrow += [[labels[i], product], ["", term]]
        table = columns(narrow, "ll", gap=1)
    parts.append(table)
    prefix = t("calc.s4.output", o="")
    out = fit_vec(s.output, width - cell_len(prefix), fixed_places=True, sign=True)
    parts.append(Text(prefix + out, ACCENT, no_wrap=True, overflow="crop"))
    parts.append(Prose(t("calc.s4.convex"), "dim"))
    inside = s.inside
    checks: list[list[Cell]] = []
    shown = min(len(s.output), 8)
    for j in range(shown):
        ok = bool(inside[j])
        checks.append([
            Text("✓" if ok else "✗", GOOD if ok else BAD),
            t("calc.s4.component", i=fmt.sub(j + 1), o=fmt.fixed(s.output[j]),
              lo=fmt.num(s.lo[j]), hi=fmt.num(s.hi[j])),
        ])  # fmt: skip
    parts.append(columns(checks, "ll", gap=1))
    if len(s.output) > shown:
        outside = int((~inside).sum())
        key, style = ("calc.s4.all_inside", GOOD) if not outside else ("calc.s4.some_outside", BAD)
        parts.append(Prose(t(key, n=len(s.output), k=outside), style))
    if s.V.shape[1] == 2:
        parts.append(Prose(t("calc.s4.plot"), "dim"))
        parts.append(hull_plot(s.V, s.output, width=max(9, min(31, width - 2))))
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
    table.add_row(Text(t("calc.exp.pairs"), "dim"), Text(f"{small.pairs:,}", "dim"),
                  Text(f"{large.pairs:,}", "dim"))  # fmt: skip
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
