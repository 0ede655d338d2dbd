"""Rich renderables for the four steps of attention, and for the √d experiment.

Every number comes from :class:`attn_tui.core.attention.AttentionSteps`; this module only
lays them out. The same functions serve the calculator screen and ``attn-tui calc``.
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Callable
from functools import lru_cache

import numpy as np
from rich.console import Console, ConsoleOptions, Group, RenderableType, RenderResult
from rich.measure import Measurement
from rich.segment import Segment
from rich.style import Style
from rich.table import Table
from rich.text import Text

from attn_tui.core import format as fmt
from attn_tui.core.attention.steps import (
    EXP_UNDERFLOW,
    SMALLEST_NORMAL,
    SMALLEST_POSITIVE,
    AttentionSteps,
    DimensionExperiment,
)
from attn_tui.core.format import cell_len, wrap
from attn_tui.i18n import get_lang, t
from attn_tui.render.plot import hull_plot
from attn_tui.render.prose import Prose

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


def row_bar(fraction: float, width: int = 12) -> str:
    """A bar in the lower half of its cells, half-cell resolution: row_bar(0.5, 4) == '▄▄  '.
    For bars in rows one under another: block bars fill their cells top to bottom, so where
    a terminal (or a browser's xterm.js) leaves no gap between lines a column of them merges
    into one block; half-height bars keep half a line between each row's bar."""
    fraction = min(max(fraction, 0.0), 1.0)
    full, half = divmod(round(fraction * width * 2), 2)
    return ("▄" * full + ("▖" if half else "")).ljust(width)


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


# ---- lines laid out by hand ------------------------------------------------------------------
# Each step is built as finished lines of (text, style) pieces that already fit the width, and
# drawn as Segments: Rich then has nothing to measure, wrap or cut, which is most of what a
# keystroke used to cost (a Text per cell, wrapped and divided on every redraw).

Piece = tuple[str, Style | None]


@lru_cache(maxsize=64)
def _style(name: str) -> Style | None:
    return Style.parse(name) if name else None


@lru_cache(maxsize=256)
def _wrapped(text: str, width: int) -> tuple[str, ...]:
    """A paragraph's lines: the same sentences come back on every keystroke."""
    return tuple(wrap(text, width))


class Lines:
    """Finished lines, drawn as they are."""

    def __init__(self, lines: list[list[Piece]]) -> None:
        self.lines = lines

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        newline = Segment.line()
        for pieces in self.lines:
            for text, style in pieces:
                yield Segment(text, style)
            yield newline

    def __rich_measure__(self, console: Console, options: ConsoleOptions) -> Measurement:
        widest = max((sum(cell_len(text) for text, _ in line) for line in self.lines), default=0)
        return Measurement(min(widest, options.max_width), min(widest, options.max_width))

    @property
    def plain(self) -> str:
        return "\n".join("".join(text for text, _ in line) for line in self.lines)


class Layout:
    """Builds Lines at one width."""

    def __init__(self, width: int) -> None:
        self.width = max(width, 8)
        self.lines: list[list[Piece]] = []

    def line(self, *pieces: tuple[str, str]) -> None:
        self.lines.append([(text, _style(style)) for text, style in pieces])

    def prose(self, text: str, style: str = "") -> None:
        st = _style(style)
        self.lines.extend([(line, st)] for line in _wrapped(text, self.width))

    def title(self, step: int, key: str) -> None:
        """ "Step 1 of 4 · " dim, then the step's name, wrapped after the prefix if need be."""
        prefix, name = t("calc.step_of", step=step) + " · ", t(key)
        room = self.width - cell_len(prefix)
        first, *rest = _wrapped(name, room) if room >= 8 else ["", *_wrapped(name, self.width)]
        self.lines.append([(prefix, _style("dim")), (first, _style(ACCENT))])
        self.lines.extend([(line, _style(ACCENT))] for line in rest)

    def rule(self) -> None:
        self.lines.append([("─" * self.width, _style("dim"))])

    def table(
        self, rows: list[list[tuple[str, str]]], justify: str,
        header: list[str] | None = None, gap: int = 2,
    ) -> None:  # fmt: skip
        """Rows of (text, style) cells in padded columns ('l' or 'r' per column)."""
        if header:
            rows = [[(h, "dim") for h in header], *rows]
        if not rows:
            return
        sizes = [[cell_len(text) for text, _ in row] for row in rows]
        widths = [max(size[c] for size in sizes) for c in range(len(justify))]
        spacer = " " * gap
        for row, size in zip(rows, sizes, strict=True):
            pieces: list[Piece] = []
            last = len(row) - 1
            for c, (text, style) in enumerate(row):
                pad = widths[c] - size[c]
                lead = (spacer if c else "") + (" " * pad if justify[c] == "r" else "")
                if lead:
                    pieces.append((lead, None))
                pieces.append((text, _style(style)))
                if justify[c] == "l" and pad and c < last:
                    pieces.append((" " * pad, None))
            self.lines.append(pieces)

    @staticmethod
    def table_width(rows: list[list[tuple[str, str]]], header: list[str] | None, gap: int) -> int:
        """How wide `table` would draw these rows."""
        every = ([[(h, "") for h in header]] if header else []) + rows
        widths = [max(cell_len(row[c][0]) for row in every) for c in range(len(every[0]))]
        return sum(widths) + gap * (len(widths) - 1)

    def embed(self, text: Text) -> None:
        """A multi-line Text made elsewhere (the hull plot), piece by piece."""
        for line in text.split("\n"):
            plain = line.plain
            ends = (x for span in line.spans for x in (span.start, span.end))
            cuts = sorted({0, len(plain), *ends})
            pieces: list[Piece] = []
            for a, b in zip(cuts, cuts[1:], strict=False):
                styles = [span.style for span in line.spans if span.start <= a and span.end >= b]
                style = Style.chain(*(_style(x) if isinstance(x, str) else x for x in styles if x))
                pieces.append((plain[a:b], style or None))
            self.lines.append(pieces)

    def done(self) -> Lines:
        return Lines(self.lines)


def fit_vec(values, width: int, **kw) -> str:
    """fmt.vec with as many entries as fit in `width` cells (at least the first and last).
    Each entry is formatted once, however many layouts are tried."""
    n = len(values)
    limit = min(n, kw.pop("limit", 8))
    places = kw.get("places", 4)
    if kw.get("fixed_places"):
        sign = kw.get("sign", False)
        one = lambda v: fmt.fixed(v, places, sign)  # noqa: E731
    else:
        one = lambda v: fmt.num(v, places)  # noqa: E731
    if n <= limit:
        items = [one(v) for v in values]
        text = "(" + ", ".join(items) + ")"
        if len(text) <= width or n <= 3:
            return text
        limit = n - 1
    head = [one(values[i]) for i in range(max(limit - 2, 1))]
    last = one(values[n - 1])
    while True:
        text = "(" + ", ".join([*head, "…", last]) + ")"
        if len(text) <= width or len(head) <= 1:
            return text
        head.pop()


@lru_cache(maxsize=512)
def _fit_dot(q: bytes, k: bytes, width: int) -> tuple[str, bool]:
    return fit_dot(np.frombuffer(q), np.frombuffer(k), width)


def fit_dot(q, k, width: int) -> tuple[str, bool]:
    """The written-out q·k in at most `width` cells: the first terms, '…', the last term.
    Returns (text, shortened). Terms are formatted only while they can still fit (64 is
    common); every character here (digits, × − ( ) . + …) is one cell wide, so len() it is."""
    n = len(q)

    def term(i: int) -> str:
        return f"{fmt.factor(q[i])}×{fmt.factor(k[i])}"

    last = term(n - 1)
    head: list[str] = []
    used = len(last)  # the whole sum so far, last term included
    for i in range(n - 1):
        piece = term(i)
        used += len(piece) + 3  # " + "
        if used > width:
            break
        head.append(piece)
    else:
        return " + ".join([*head, last]), False
    used = len(last) + 4  # "… + " before the last term
    shown = 0
    for piece in head:
        if used + len(piece) + 3 > width:
            break
        used += len(piece) + 3
        shown += 1
    if shown:
        return " + ".join([*head[:shown], "…", last]), True
    text = f"… + {last}"
    return (text, True) if len(text) <= width else ("…" if width >= 1 else "", True)


def weight_text(w: float, places: int = 4) -> str:
    """A weight or an exp: fixed places, but a tiny positive number is not printed as 0.0000
    beside a sentence saying a softmax never gives exactly 0."""
    if 0 < abs(w) < 0.5 * 10**-places:
        return f"{w:.1e}".replace("-", fmt.MINUS)
    return fmt.fixed(w, places)


def power_of_ten(x: float) -> str:
    """4.9e-324 as "4.9 × 10⁻³²⁴" (two figures)."""
    mantissa, exponent = f"{x:.1e}".split("e")
    sup = str.maketrans("-0123456789", "⁻⁰¹²³⁴⁵⁶⁷⁸⁹")
    return f"{mantissa} × 10{str(int(exponent)).translate(sup)}"


def _key(i: int) -> str:
    return "k" + fmt.sub(i + 1)


def _scores(s: AttentionSteps, out: Layout) -> None:
    width = out.width
    scores = ["= " + fmt.num(x) for x in s.scores]
    score_w = max(map(cell_len, scores))
    labels = [_key(i) for i in range(s.n)]
    if s.d <= 4:  # small keys are shown beside their names, when the whole sums still fit
        with_keys = [f"{label} {fmt.vec(k)}" for label, k in zip(labels, s.K, strict=True)]
        sums = max(len(fmt.dot_arithmetic(s.q, k)) for k in s.K)
        if max(map(cell_len, with_keys)) + sums + score_w + 2 <= width:
            labels = with_keys
    label_w = max(map(cell_len, labels))
    room = width - label_w - score_w - 2  # what is left for the written-out sum
    q = s.q.tobytes()
    rows = []
    shortened = False
    for i, k in enumerate(s.K):
        arith, cut = _fit_dot(q, k.tobytes(), room) if room >= 5 else ("", True)
        shortened |= cut
        rows.append([(labels[i], "bold"), (arith, "dim"), (scores[i], "bold")])
    out.title(1, "calc.s1.title")
    out.line((f"q = {fit_vec(s.q, width - 4)}", ""))
    out.table(rows, "llr", gap=1)
    if shortened:
        out.prose(t("calc.s1.shortened"), "dim")
    out.prose(t("calc.s1.intro"), "italic dim")


def _scaling(s: AttentionSteps, out: Layout) -> None:
    out.title(2, "calc.s2.title")
    temperature = s.temperature != 1.0
    if s.scale:
        out.prose(t("calc.s2.sqrt", d=s.d, sqrt_d=fmt.fixed(s.sqrt_d)), "bold")
    else:
        out.prose(t("calc.s2.off"), "yellow")
    if temperature:
        out.prose(t("calc.s2.temperature", T=fmt.num(s.temperature)))
    header = [t("calc.col.key"), t("calc.col.score"), t("calc.col.scaled")]
    if temperature:
        header.append(t("calc.col.logit"))
    rows = []
    for i in range(s.n):
        row = [(_key(i), ""), (fmt.num(s.scores[i]), ""), (fmt.fixed(s.scaled[i]), "")]
        if temperature:
            row.append((fmt.fixed(s.logits[i]), ""))
        rows.append(row)
    gap = 2 if Layout.table_width(rows, header, 2) <= out.width else 1
    out.table(rows, "l" + "r" * (len(header) - 1), header, gap)
    if s.scale:
        out.prose(t("calc.s2.why"), "italic dim")


def _softmax(s: AttentionSteps, out: Layout) -> None:
    out.title(3, "calc.s3.title_hard" if s.hard else "calc.s3.title")
    if s.hard:
        out.prose(t("calc.s3.hard", i=fmt.sub(int(s.weights.argmax()) + 1)), "bold")
    else:
        out.prose(t("calc.s3.shift", m=fmt.fixed(s.shift)))
    top = float(s.weights.max()) or 1.0
    rows = []
    for i in range(s.n):
        w = float(s.weights[i])
        rows.append([
            (_key(i), ""), (fmt.fixed(s.logits[i] - s.shift), ""), (weight_text(s.exps[i]), ""),
            (weight_text(w), ACCENT if w == top else ""), (row_bar(w / top, 8), "cyan"),
        ])  # fmt: skip
    header = [t("calc.col.key"), t("calc.col.shifted"), t("calc.col.exp"), "α", ""]
    # hard max takes no exp: the column would show numbers that are not used
    keep = [0, 1, 3, 4] if s.hard else [0, 1, 2, 3, 4]
    for col in (4, 1):  # narrow: the bars go first, then the shifted logits; α always stays
        if Layout.table_width([[r[c] for c in keep] for r in rows], [header[c] for c in keep],
                              2) <= out.width:  # fmt: skip
            break
        keep.remove(col)
    out.table([[r[c] for c in keep] for r in rows], "".join("lrrrl"[c] for c in keep),
              [header[c] for c in keep])  # fmt: skip
    if not s.hard:
        out.line((t("calc.s3.sum", s=fmt.fixed(s.exp_sum)), ""))
    out.prose(t("calc.s3.check", s=fmt.fixed(s.weights.sum())), GOOD)
    zeros = [i for i in range(s.n) if s.weights[i] == 0.0]
    if s.hard:
        grad = "calc.s3.hard_grad_same" if s.values_are_keys else "calc.s3.hard_grad"
        out.prose(t(grad), "italic dim")
    elif zeros:  # exp underflowed: "never exactly 0" would contradict the table above
        names = ", ".join(_key(i) for i in zeros)
        x = fmt.fixed(s.logits[zeros[0]] - s.shift, 1)
        limits = {"tiny": power_of_ten(SMALLEST_POSITIVE), "normal": power_of_ten(SMALLEST_NORMAL),
                  "limit": fmt.fixed(EXP_UNDERFLOW, 0)}  # fmt: skip
        out.prose(t("calc.s3.underflow", keys=names, x=x, **limits), "yellow")
    else:
        out.prose(t("calc.s3.never_zero"), "italic dim")


def _weighted_sum(s: AttentionSteps, out: Layout) -> None:
    width = out.width
    out.title(4, "calc.s4.title")
    if s.values_are_keys:
        out.prose(t("calc.s4.values_are_keys"), "dim")
    labels = [f"v{fmt.sub(i + 1)}" for i in range(s.n)]
    label_w = max(map(cell_len, labels))
    weights = [weight_text(w) for w in s.weights]
    wide: list[list[tuple[str, str]]] | None = []
    widest_product = widest_term = 0
    for i in range(s.n):  # one row per value while the columns fit; the first misfit stops it
        product, term = f"{weights[i]}×{fmt.vec(s.V[i])}", f"= {fmt.vec(s.terms[i])}"
        widest_product = max(widest_product, cell_len(product))
        widest_term = max(widest_term, cell_len(term))
        if label_w + widest_product + widest_term + 2 > width:
            wide = None
            break
        wide.append([(labels[i], "bold"), (product, ""), (term, "dim")])
    if wide is not None:
        out.table(wide, "lll", gap=1)
    else:  # the term on a line of its own, each vector cut to fit
        room = width - label_w - 1
        narrow = []
        for i in range(s.n):
            product = f"{weights[i]}×" + fit_vec(s.V[i], room - cell_len(weights[i]) - 1)
            narrow += [[(labels[i], "bold"), (product, "")],
                       [("", ""), ("= " + fit_vec(s.terms[i], room - 2), "dim")]]  # fmt: skip
        out.table(narrow, "ll", gap=1)
    prefix = t("calc.s4.output", o="")
    vector = fit_vec(s.output, width - cell_len(prefix), fixed_places=True, sign=True)
    out.line((prefix + vector, ACCENT))
    out.prose(t("calc.s4.convex"), "dim")
    inside = s.inside
    shown = min(len(s.output), 8)
    checks = []
    for j in range(shown):
        ok = bool(inside[j])
        checks.append([
            ("✓" if ok else "✗", GOOD if ok else BAD),
            (t("calc.s4.component", i=fmt.sub(j + 1), o=fmt.fixed(s.output[j]),
               lo=fmt.num(s.lo[j]), hi=fmt.num(s.hi[j])), ""),
        ])  # fmt: skip
    out.table(checks, "ll", gap=1)
    if len(s.output) > shown:
        outside = int((~inside).sum())
        key, style = ("calc.s4.all_inside", GOOD) if not outside else ("calc.s4.some_outside", BAD)
        out.prose(t(key, n=len(s.output), k=outside), style)
    if s.V.shape[1] == 2:
        out.prose(t("calc.s4.plot"), "dim")
        out.embed(hull_plot(s.V, s.output, width=max(9, min(31, width - 2))))
    out.prose(t("calc.s4.cannot_create"), "italic dim")


_BUILDERS = (_scores, _scaling, _softmax, _weighted_sum)
# Built steps by (attention result, step, width, language): stepping back and forth, switching
# "all", or a redraw that changes nothing costs a lookup. The result is kept beside its lines,
# so its id cannot be reused while the entry lives.
_BUILT: OrderedDict[tuple[int, int, int, str], tuple[AttentionSteps, list[list[Piece]]]] = (
    OrderedDict()
)


def step_lines(s: AttentionSteps, step: int, width: int) -> list[list[Piece]]:
    key = (id(s), step, width, get_lang())
    hit = _BUILT.get(key)
    if hit is not None and hit[0] is s:
        _BUILT.move_to_end(key)
        return hit[1]
    out = Layout(width)
    _BUILDERS[step - 1](s, out)
    _BUILT[key] = (s, out.lines)
    while len(_BUILT) > 16:
        _BUILT.popitem(last=False)
    return out.lines


def _step(step: int) -> Callable[[AttentionSteps], RenderableType]:
    def render(s: AttentionSteps) -> RenderableType:
        return AtWidth(lambda width: Lines(step_lines(s, step, width)))

    render.__name__ = _BUILDERS[step - 1].__name__.lstrip("_")
    return render


STEPS = tuple(_step(i) for i in range(1, 5))


def render_steps(s: AttentionSteps, step: int, show_all: bool) -> RenderableType:
    """Step `step` (1–4) alone, or all four separated by rules."""
    if not show_all:
        return STEPS[step - 1](s)

    def every(width: int) -> Lines:
        lines: list[list[Piece]] = []
        for i in range(1, 5):
            if i > 1:
                lines.append([("─" * max(width, 8), _style("dim"))])
            lines.extend(step_lines(s, i, width))
        return Lines(lines)

    return AtWidth(every)


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
