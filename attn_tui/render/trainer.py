"""Rich renderables for the training screen: progress, accuracy, a decode, attention, tables.

Each function takes numbers the trainer produced (``attn_tui.core.models.trainer``) and lays them
out; none of them keeps state or knows about threads or processes, so tests can render them
directly. A model is described by its configuration (``variant_name``, ``run_label``) and its
figures, never by assuming its insides, so another model can plug in beside the RNN.
Renderables that choose between layouts (numbers or bars) measure the width at render time,
so a resize can never leave a layout chosen for another width.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import replace

import numpy as np
from rich.console import Console, ConsoleOptions, Group, RenderableType, RenderResult
from rich.text import Text

from attn_tui.core import format as fmt
from attn_tui.core.models.figures import Figures, Row, stored_row
from attn_tui.core.models.loop import Decode, RunResult, Snapshot, letters
from attn_tui.core.models.trainer import Stats, TrainConfig, book_reference, metric
from attn_tui.i18n import t
from attn_tui.render.beside import beside_line
from attn_tui.render.heatmap import Heatmap
from attn_tui.render.loss_curve import strip
from attn_tui.render.prose import Prose
from attn_tui.render.steps import Fit, bar, columns, sparkline

ACCENT = "bold cyan"
GOOD = "green"
BAD = "bold red"
BOOK = "yellow"
NO_TIME = "—"


def variant_name(variant: str) -> str:
    return t(f"train.variant.{variant}")


def duration(seconds: float) -> str:
    """'0.42 s' / '12 s' / '—' for unknown (written the catalogue's way, so zh says 秒)."""
    if not math.isfinite(seconds) or seconds < 0:
        return NO_TIME
    if seconds >= 10:
        return t("train.seconds", value=seconds).replace(".00", "")
    return t("train.seconds", value=seconds)


def rate(it_per_s: float) -> str:
    return f"{it_per_s:,.0f}" if it_per_s > 0 and math.isfinite(it_per_s) else NO_TIME


def acc(x: float | None, places: int = 3) -> str:
    return NO_TIME if x is None or not math.isfinite(x) else fmt.fixed(x, places)


def render_progress(
    config: TrainConfig, iteration: int, state: str, *, it_per_s: float = math.nan,
    elapsed: float = math.nan, eta: float | None = math.nan, width: int = 30,
) -> RenderableType:  # fmt: skip
    """Bar and iteration / total; what the run is doing, on a line of its own so it is never
    cut; then speed, elapsed and (while a run is going at a steady pace) the ETA.
    ``eta=None`` leaves the ETA out: after a stop, or when each step waits for a key."""
    fraction = iteration / config.iters if config.iters else 0.0
    head = Text(no_wrap=True, overflow="crop")
    head.append(bar(fraction, width), "cyan on grey23")
    head.append(f" {fraction:4.0%} ", "bold")
    head.append(t("train.ui.iteration", i=iteration, total=config.iters))
    parts: list[RenderableType] = [head]
    if state:  # beside the iteration when it fits, on a line of its own when not
        beside = head.copy()
        beside.append(" · ", "dim")
        beside.append(state, "bold yellow")
        alone = Text.assemble(head, "\n", (state, "bold yellow"))
        parts = [Fit(beside, alone)]
    if eta is None:
        timing = t("train.ui.rate_no_eta", rate=rate(it_per_s), elapsed=duration(elapsed))
    else:
        timing = t("train.ui.rate", rate=rate(it_per_s), elapsed=duration(elapsed),
                   eta=duration(eta))  # fmt: skip
    parts.append(Prose(timing, "dim"))
    return Group(*parts)


def run_label(config: TrainConfig) -> str:
    label = t("train.ui.run_label", variant=variant_name(config.variant), length=config.length,
              seed=config.seed)  # fmt: skip
    if config.feed == "none":
        label += " · " + t("train.ui.no_feed")
    return label


class PerPosition:
    """Each output position's accuracy as whole percents, or one bar each when the numbers do
    not fit the width the panel has at render time."""

    def __init__(self, per: Sequence[float], first: int = 1, label: str | None = None) -> None:
        self.per = [float(a) for a in per]
        self.first = first  # the number of the first position shown
        self.label = label  # the row's name ("pos." when None)

    @staticmethod
    def _style(a: float) -> str:
        return GOOD if a >= 0.95 else ("yellow" if a >= 0.7 else BAD)

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        label = t("train.ui.position") if self.label is None else self.label
        positions = [label] + [str(i + self.first) for i in range(len(self.per))]
        justify = "l" + "r" * len(self.per)
        numbers: list[str | Text] = [Text("%", "dim")]
        numbers += [Text(f"{math.floor(a * 100):d}", self._style(a)) for a in self.per]
        table = columns([numbers], justify, positions)  # 100 only if all right
        if max(fmt.cell_len(line) for line in table.plain.split("\n")) > options.max_width:
            bars: list[str | Text] = [Text("", "dim")]
            bars += [Text(sparkline([a]), self._style(a)) for a in self.per]
            table = columns([bars], justify, positions, gap=1)
        yield table


def render_accuracy(snapshot: Snapshot | None, every: int) -> RenderableType:
    """Whole-sequence and per-position accuracy on the held-out set, then each position's %."""
    if snapshot is None:
        return Prose(t("train.ui.acc_wait", every=every), "dim")
    line = Prose(t("train.ui.acc_line", iteration=snapshot.iteration, whole=acc(snapshot.seq_acc),
                   pos=acc(snapshot.pos_acc)), "bold")  # fmt: skip
    return Group(line, PerPosition(snapshot.per_position))


def render_note(snapshot: Snapshot | None) -> RenderableType:
    return Prose(t("train.held_out_note", n=snapshot.n_eval if snapshot else 1000), "italic dim")


def render_decode(decode: Decode) -> Text:
    """'input ABCDE → expected EDCBA, got EDCBB' with each output letter green or red."""
    marker = "\x00"
    template = t("train.probe", x=letters(decode.x), target=letters(decode.target),
                 prediction=marker)  # fmt: skip
    before, _, after = template.partition(marker)
    text = Text(t("train.row.probe") + ": ", "bold")
    text.append(before)
    for letter, right in zip(letters(decode.prediction), decode.correct, strict=True):
        text.append(letter, GOOD if right else BAD)
    text.append(after)
    return text


def percent(weight: float) -> str:
    """A weight as whole percents: 0.0952 → '10'. Two or three characters, so a length-10 map
    fits an 80-column terminal with every number shown."""
    return f"{round(weight * 100):d}"


def shown_weights(snapshot: Snapshot | None, mean: bool) -> np.ndarray | None:
    """The matrix the heatmap shows (the probe's or the held-out average), or None."""
    if snapshot is None or snapshot.probe.attention is None or snapshot.attention_mean is None:
        return None
    return snapshot.attention_mean if mean else snapshot.probe.attention


def render_attention(
    snapshot: Snapshot | None, config: TrainConfig, mean: bool = False, absolute: bool = True
) -> RenderableType:
    """The probe's attention (or, with ``mean``, the held-out average) in whole percents: rows =
    output positions, columns = input positions. The reversal diagonal (output t reads input
    L+1−t) is underlined; the last column names each row's peak input, green on the diagonal,
    yellow one column off. The colours span 0–100 % (``absolute``) or the matrix's own range,
    where a nearly flat map shows its small differences; the legend says which, and where the
    uniform level 1/L lies."""
    if not config.attention:
        return Prose(t("train.ui.heat_none"), "dim")
    weights = shown_weights(snapshot, mean)
    if weights is None or snapshot is None:
        return Prose(t("train.ui.heat_wait"), "dim")
    n_out, n_in = weights.shape
    rows = [str(i + 1) for i in range(n_out)]
    cols = [str(j + 1) for j in range(n_in)]
    diagonal = [(i, n_in - 1 - i) for i in range(min(n_out, n_in))]
    peaks, peak_styles = [], []
    for i, row in enumerate(weights):
        peak = int(row.argmax())
        off = peak - (n_in - 1 - i)
        mark = "✓" if off == 0 else ("←" if off == -1 else ("→" if off == 1 else ""))
        peaks.append(f"{peak + 1}{mark}")
        peak_styles.append(GOOD if off == 0 else ("yellow" if abs(off) == 1 else "dim"))
    uniform = 1.0 / n_in
    lo, hi = (0.0, 1.0) if absolute else (float(weights.min()), float(weights.max()))
    scale = t("train.ui.scale_abs") if absolute else t("train.ui.scale_own", lo=percent(lo),
                                                        hi=percent(hi))  # fmt: skip
    note = t("train.ui.heat_legend", scale=scale, uniform=percent(uniform),
             row_max=percent(float(weights.max(axis=1).mean())))  # fmt: skip
    heat = Heatmap(weights, rows, cols, highlight=diagonal, cell_text=percent, extra=peaks,
                   extra_styles=peak_styles, extra_title=t("train.ui.peak"), vmin=lo, vmax=hi,
                   legend=True, legend_note=note)  # fmt: skip
    if mean:
        title = t("train.ui.heat_mean_title", n=snapshot.n_eval)
    else:
        title = t("train.ui.heat_title", x=letters(snapshot.probe.x))
    return Group(Prose(title, "bold"), heat)


def heat_key(snapshot: Snapshot | None, mean: bool) -> bytes | None:
    """What the heatmap's numbers look like at the precision shown (whole percents and each
    row's peak): equal keys draw the same map, so it is not drawn again."""
    weights = shown_weights(snapshot, mean)
    if weights is None:
        return None
    return np.rint(weights * 100).astype(np.int16).tobytes() + weights.argmax(axis=1).tobytes()


# ---- what the stored table and the book say beside a run ----------------------------------


def stored_line(row: Row | None, n: int) -> str:
    """'over 10 seeds (stored table): whole 0.998 ± 0.005, diagonal weight 0.98' or ''."""
    if row is None:
        return ""
    seq = row.stats["seq_acc"]
    text = t("train.ui.stored_whole", n=n, mean=acc(seq.mean), sd=acc(seq.sd))
    if "weight" in row.stats:
        text += t("train.ui.stored_weight", weight=acc(row.stats["weight"].mean, 2))
    return text


def book_line(config: TrainConfig) -> str:
    """The book's single run with these settings, labelled as such, or ''."""
    ref = book_reference(config.length, config.variant, config.feed)
    if ref is None or ref["iters"] != config.iters:
        return ""
    parts = []
    if ref["seq_acc"] is not None:
        parts.append(t("train.ui.book_whole", value=acc(ref["seq_acc"])))
    parts.append(t("train.ui.book_pos", value=acc(ref["pos_acc"])))
    return t("train.ui.book_line", figures=", ".join(parts))


def render_guide_note(
    sentence: str, row: Row | None, figures: Figures | None, config: TrainConfig,
    result: RunResult | None = None,
) -> RenderableType:  # fmt: skip
    """A guided experiment's sentence (what to look at), then the app's multi-seed figures
    beside the book's single run, and (once ``result`` has finished) how this run sits
    beside the stored seeds."""
    parts: list[RenderableType] = [Prose(sentence, "cyan")] if sentence else []
    stored = stored_line(row, len(figures.seeds) if figures else 0)
    if stored:
        parts.append(Prose(stored, "dim"))
    if result is not None and result.outcome.kind == "finished":
        v = config.variant
        line = beside_line(figures, config, {v: [result]}, {v: variant_name(v)})
        if line:
            parts.append(Prose(line, "dim"))
    book = book_line(config)
    if book:
        parts.append(Prose(book, BOOK))
    return Group(*parts)


# ---- tables ------------------------------------------------------------------------------


def unique_runs(results: Sequence[RunResult]) -> list[RunResult]:
    """One row per configuration, the latest: the same settings give the same numbers, so a
    repeated run (F9 twice, say) adds nothing new. (How often a run was evaluated does not
    change its numbers, so it does not count.)"""
    latest: dict[TrainConfig, RunResult] = {}
    for r in results:
        key = replace(r.config, eval_every=0)
        latest.pop(key, None)
        latest[key] = r
    return list(latest.values())


def render_session(results: Sequence[RunResult]) -> RenderableType:
    """Every run finished this session, each beside the book's single run where the book has
    one with the same length, variant and iterations."""
    parts: list[RenderableType] = [Prose(t("train.ui.session_title"), ACCENT)]
    if not results:
        parts.append(Prose(t("train.ui.session_empty"), "dim"))
        return Group(*parts)
    header = [t("train.col.variant"), t("train.ui.col.length"), t("train.ui.col.seed"),
              t("train.ui.col.iters"), t("train.col.params"), t("train.ui.col.whole"),
              t("train.ui.col.pos"), t("train.ui.col.diag"), t("train.ui.col.book")]  # fmt: skip
    rows = []
    for r in unique_runs(results):
        cfg = r.config
        ref = book_reference(cfg.length, cfg.variant, cfg.feed)
        if ref is not None and ref["iters"] != cfg.iters:
            ref = None
        name = t(f"train.ui.variant.{cfg.variant}") + ("*" if cfg.feed == "none" else "")
        book = f"{acc(ref['seq_acc'])}/{acc(ref['pos_acc'])}" if ref else NO_TIME
        rows.append([
            name, str(cfg.length), str(cfg.seed), str(r.iters), str(r.params),
            Text(acc(r.seq_acc), ACCENT), Text(acc(r.pos_acc), ACCENT),
            Text(acc(metric(r, "weight"), 2)), Text(book, BOOK),
        ])  # fmt: skip
    # At 80 columns, with a scrollbar beside it, the long "book whole/letter" header made the
    # table one cell too wide and cut the book's figures: a short header, then tighter gaps.
    short = [*header[:-1], t("train.ui.col.book_short")]
    parts.append(Fit(columns(rows, "lrrrrrrrr", header), columns(rows, "lrrrrrrrr", short),
                     columns(rows, "lrrrrrrrr", short, gap=1)))  # fmt: skip
    legend = t("train.ui.session_legend")
    if any(r.config.feed == "none" for r in results):
        legend += " " + t("train.ui.session_nofeed")
    parts.append(Prose(legend, "dim"))
    return Group(*parts)


def _pm(s: Stats, places: int = 3) -> str:
    return f"{acc(s.mean, places)}±{acc(s.sd, places)}" if s.n else NO_TIME


def _range(s: Stats) -> str:
    return f"{acc(s.lo)}–{acc(s.hi)}" if s.n else NO_TIME


def render_multi(
    base: TrainConfig, seeds: Sequence[int], variants: Sequence[str],
    runs: dict[str, list[RunResult]], running: bool, width: int = 60,
    figures: Figures | None = None,
) -> RenderableType:  # fmt: skip
    """Two variants over N seeds: mean ± sd, min–max, a strip of one dot per seed with the
    book's single run marked, the stored table's figures for the same settings, and the line
    that says one run's gap may be noise."""
    done = sum(len(v) for v in runs.values())
    total = len(variants) * len(seeds)
    if not done and not running:
        names = " / ".join(variant_name(v) for v in variants)
        return Prose(t("train.ui.multi_empty", n=len(seeds), seed=seeds[0] if seeds else 0,
                       variants=names), "dim")  # fmt: skip
    feed = t(f"train.feed.{base.feed}")
    parts: list[RenderableType] = [
        Prose(
            t("train.compare_title", length=base.length, iters=base.iters, n=len(seeds), feed=feed),
            ACCENT,
        )  # fmt: skip
    ]
    if running or done < total:
        parts.append(Prose(t("train.ui.multi_running", done=done, total=total), "yellow"))
    header = [t("train.col.variant"), t("train.col.params"), t("train.col.seq_mean"),
              t("train.col.seq_range"), t("train.col.diag_mean")]  # fmt: skip
    rows = []
    refs = {}
    for v in variants:
        results = runs.get(v, [])
        cfg = base.with_variant(v)
        seq = Stats.of([r.seq_acc for r in results])
        weight = Stats.of([metric(r, "weight") for r in results])
        rows.append([variant_name(v), str(cfg.n_params), Text(_pm(seq), ACCENT), _range(seq),
                     _pm(weight, 2) if cfg.attention else NO_TIME])  # fmt: skip
        ref = book_reference(base.length, v, base.feed)
        if ref is not None and ref["iters"] == base.iters:
            refs[v] = ref
            rows.append([Text("  " + t("train.book_run"), BOOK), str(ref["params"]),
                         Text(acc(ref["seq_acc"]), BOOK), "", ""])  # fmt: skip
            if ref["seq_acc"] is None:  # (the book gives only a per-letter figure here)
                rows[-1][2] = Text(t("train.ui.book_pos", value=acc(ref["pos_acc"])), BOOK)
        row = stored_row(figures, cfg) if figures else None
        if row is not None:  # (the same seeds too: on another CPU they can end elsewhere)
            w = row.stats.get("weight")
            rows.append([Text("  " + t("train.ui.stored_run", n=len(figures.seeds)), "dim"),
                         "", Text(_pm(Stats(**_stats(row.stats["seq_acc"]))), "dim"), "",
                         Text(_pm(Stats(**_stats(w)), 2), "dim") if w else ""])  # fmt: skip
    parts.append(columns(rows, "lrrrr", header))
    # the strips share one axis so the variants can be compared by eye
    values = [r.seq_acc for v in runs.values() for r in v if math.isfinite(r.seq_acc)]
    ref_values = [r["seq_acc"] for r in refs.values() if r["seq_acc"] is not None]
    if values:
        lo = min(values + ref_values)
        lo = max(0.0, math.floor(lo * 20) / 20)  # round down to 0.05
        hi = 1.0
        label_w = max(fmt.cell_len(variant_name(v)) for v in variants)
        strip_w = max(min(width - label_w - 2, 50), 10)
        for v in variants:
            ref = refs.get(v)
            marks = {"▲": ref["seq_acc"]} if ref and ref["seq_acc"] is not None else {}
            name = variant_name(v)
            pad = " " * (label_w - fmt.cell_len(name))  # cells, not characters: 用注意力 is 8
            line = Text(name + pad + "  ", no_wrap=True, overflow="crop")
            line.append_text(strip([r.seq_acc for r in runs.get(v, [])], lo, hi, strip_w, marks))
            parts.append(line)
        parts.append(
            Prose(t("train.ui.strip_legend", lo=fmt.fixed(lo, 2), hi=fmt.fixed(hi, 2)), "dim")
        )
    line = beside_line(figures, base, {v: runs[v] for v in variants if runs.get(v)},
                       {v: variant_name(v) for v in variants})  # fmt: skip
    if line:
        parts.append(Prose(line, "cyan"))
    parts.append(Prose(t("train.ui.noise"), "italic"))
    parts.append(Prose(t("train.compare_note"), "dim"))
    return Group(*parts)


def _stats(summary) -> dict[str, float]:
    return {"n": summary.n, "mean": summary.mean, "sd": summary.sd, "lo": summary.min,
            "hi": summary.max}  # fmt: skip


def mean_losses(chunks: Sequence[np.ndarray]) -> np.ndarray:
    return np.concatenate(chunks) if chunks else np.empty(0)
