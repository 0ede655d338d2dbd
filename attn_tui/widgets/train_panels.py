"""Rich renderables for the training screen: progress, accuracy, a decode, attention, tables.

Each function takes numbers the trainer produced (``attn_tui.core.models.trainer``) and lays them
out; none of them keeps state or knows about threads, so tests can render them directly.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np
from rich.console import Group, RenderableType
from rich.text import Text

from attn_tui.core import format as fmt
from attn_tui.core.models.trainer import (
    Decode,
    RunResult,
    Snapshot,
    Stats,
    TrainConfig,
    letters,
    seed_reference,
)
from attn_tui.i18n import t
from attn_tui.widgets.heatmap import Heatmap
from attn_tui.widgets.loss_curve import strip
from attn_tui.widgets.prose import Prose
from attn_tui.widgets.steps import bar, columns, sparkline

ACCENT = "bold cyan"
GOOD = "green"
BAD = "bold red"
NO_TIME = "—"


def variant(attention: bool) -> str:
    return t("train.variant.attention" if attention else "train.variant.plain")


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
    elapsed: float = math.nan, eta: float = math.nan, width: int = 30,
) -> RenderableType:  # fmt: skip
    """Bar and iteration / total; then speed, elapsed and ETA (and what the run is doing)."""
    fraction = iteration / config.iters if config.iters else 0.0
    head = Text(no_wrap=True, overflow="ellipsis")
    head.append(bar(fraction, width), "cyan on grey23")
    head.append(f" {fraction:4.0%} ", "bold")
    head.append(t("train.ui.iteration", i=iteration, total=config.iters))
    if state:
        head.append(" · ", "dim")
        head.append(state, "bold yellow")
    timing = Text(t("train.ui.rate", rate=rate(it_per_s), elapsed=duration(elapsed),
                    eta=duration(eta)), "dim", no_wrap=True, overflow="ellipsis")  # fmt: skip
    return Group(head, timing)


def run_label(config: TrainConfig) -> str:
    return t("train.ui.run_label", variant=variant(config.attention), length=config.length,
             seed=config.seed)  # fmt: skip


def render_accuracy(snapshot: Snapshot | None, every: int, width: int = 46) -> RenderableType:
    """Whole-sequence and per-position accuracy on the held-out set, then each position's %
    (or, when the numbers do not fit ``width``, one bar per position)."""
    if snapshot is None:
        return Prose(t("train.ui.acc_wait", every=every), "dim")
    line = Text(t("train.ui.acc_line", iteration=snapshot.iteration, whole=acc(snapshot.seq_acc),
                  pos=acc(snapshot.pos_acc)),
                "bold", no_wrap=True, overflow="ellipsis")  # fmt: skip
    per = [float(a) for a in snapshot.per_position]
    label = t("train.ui.position")
    positions = [label] + [str(i + 1) for i in range(len(per))]

    def style(a: float) -> str:
        return GOOD if a >= 0.95 else ("yellow" if a >= 0.7 else BAD)

    if fmt.cell_len(label) + 4 * len(per) <= width:
        values: list[str | Text] = [Text("%", "dim")]
        values += [Text(f"{math.floor(a * 100):d}", style(a)) for a in per]  # 100 only if all right
        table = columns([values], "l" + "r" * len(per), positions)
    else:
        bars: list[str | Text] = [Text("", "dim")]
        bars += [Text(sparkline([a]) * 2, style(a)) for a in per]
        table = columns([bars], "l" + "r" * len(per), positions)
    return Group(line, table)


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


def render_attention(
    snapshot: Snapshot | None, attention: bool, mean: bool = False
) -> RenderableType:
    """The probe's attention (or, with ``mean``, the held-out average): rows = output positions,
    columns = input positions, the reversal anti-diagonal underlined, each row's peak input
    position at the end. The colours span the matrix's own range: early on every weight is
    near 1/L, and the pattern is in the small differences."""
    if not attention:
        return Prose(t("train.ui.heat_none"), "dim")
    if snapshot is None or snapshot.probe.attention is None or snapshot.attention_mean is None:
        return Prose(t("train.ui.heat_wait"), "dim")
    probe = snapshot.probe
    weights = snapshot.attention_mean if mean else probe.attention
    n_out, n_in = weights.shape
    rows = [t("train.ui.out_row", i=i + 1) for i in range(n_out)]
    cols = [str(j + 1) for j in range(n_in)]  # short, so two decimals fit at length 10
    anti = [(i, n_in - 1 - i) for i in range(min(n_out, n_in))]
    peaks = [str(int(row.argmax()) + 1) for row in weights]
    heat = Heatmap(weights, rows, cols, highlight=anti, places=2, extra=peaks, all_or_shade=True,
                   extra_title=t("train.ui.peak"))  # fmt: skip
    title = t("train.ui.heat_mean_title") if mean else t("train.ui.heat_title", x=letters(probe.x))
    return Group(Prose(title, "bold"), heat)


# ---- tables ------------------------------------------------------------------------------


def _ref(config: TrainConfig) -> dict | None:
    ref = seed_reference(config.length, config.attention)
    if ref is None or ref["iters"] != config.iters:
        return None
    return ref


def render_session(results: Sequence[RunResult]) -> RenderableType:
    """Every run finished this session, each beside the seed text's single run where the seed
    text has one with the same length, variant and iterations."""
    parts: list[RenderableType] = [Text(t("train.ui.session_title"), ACCENT)]
    if not results:
        parts.append(Prose(t("train.ui.session_empty"), "dim"))
        return Group(*parts)
    header = [t("train.col.variant"), t("train.ui.col.length"), t("train.ui.col.seed"),
              t("train.ui.col.iters"), t("train.col.params"), t("train.ui.col.whole"),
              t("train.ui.col.pos"), t("train.ui.col.ref_whole"),
              t("train.ui.col.ref_pos")]  # fmt: skip
    rows = []
    for r in results:
        ref = _ref(r.config)
        rows.append([
            variant(r.config.attention), str(r.config.length), str(r.config.seed),
            str(r.iters), str(r.params), Text(acc(r.seq_acc), ACCENT), Text(acc(r.pos_acc), ACCENT),
            Text(acc(ref["seq_acc"] if ref else None), "yellow"),
            Text(acc(ref["pos_acc"] if ref else None), "yellow"),
        ])  # fmt: skip
    parts.append(columns(rows, "lrrrrrrrr", header))
    return Group(*parts)


def _pm(s: Stats) -> str:
    return f"{acc(s.mean)}±{acc(s.sd)}" if s.n else NO_TIME


def _range(s: Stats) -> str:
    return f"{acc(s.lo)}–{acc(s.hi)}" if s.n else NO_TIME


def render_multi(
    base: TrainConfig, seeds: Sequence[int], runs: dict[bool, list[RunResult]], running: bool,
    width: int = 60,
) -> RenderableType:  # fmt: skip
    """Both variants over N seeds: mean ± sd, min–max, a strip of one dot per seed with the
    seed text's single run marked, and the line that says one run's gap may be noise."""
    done = sum(len(v) for v in runs.values())
    total = 2 * len(seeds)
    if not done and not running:
        return Prose(t("train.ui.multi_empty", n=len(seeds), seed=seeds[0] if seeds else 0), "dim")
    parts: list[RenderableType] = [
        Text(t("train.compare_title", length=base.length, iters=base.iters, n=len(seeds)), ACCENT)
    ]
    if running or done < total:
        parts.append(Text(t("train.ui.multi_running", done=done, total=total), "yellow"))
    header = [t("train.col.variant"), t("train.col.params"), t("train.col.seq_mean"),
              t("train.col.seq_range"), t("train.col.pos_mean")]  # fmt: skip
    rows = []
    stats = {}
    for attention in (False, True):
        results = runs.get(attention, [])
        seq = Stats.of([r.seq_acc for r in results])
        pos = Stats.of([r.pos_acc for r in results])
        stats[attention] = seq
        rows.append([variant(attention), str(TrainConfig(attention=attention).n_params),
                     Text(_pm(seq), ACCENT), _range(seq), _pm(pos)])  # fmt: skip
        ref = seed_reference(base.length, attention)
        if ref is not None and ref["iters"] == base.iters:
            rows.append([Text("  " + t("train.seed_run"), "yellow"), str(ref["params"]),
                         Text(acc(ref["seq_acc"]), "yellow"), "",
                         Text(acc(ref["pos_acc"]), "yellow")])  # fmt: skip
    parts.append(columns(rows, "lrrrr", header))
    # the strips share one axis so the two variants can be compared by eye
    values = [r.seq_acc for v in runs.values() for r in v if math.isfinite(r.seq_acc)]
    refs = [seed_reference(base.length, a) for a in (False, True)]
    ref_values = [
        r["seq_acc"] for r in refs if r and r["seq_acc"] is not None and r["iters"] == base.iters
    ]
    if values:
        lo = min(values + ref_values)
        lo = max(0.0, math.floor(lo * 20) / 20)  # round down to 0.05
        hi = 1.0
        label_w = max(fmt.cell_len(variant(a)) for a in (False, True))
        strip_w = max(min(width - label_w - 2, 50), 10)
        for attention in (False, True):
            ref = refs[attention]
            marks = (
                {"▲": ref["seq_acc"]}
                if ref and ref["seq_acc"] is not None and ref["iters"] == base.iters
                else {}
            )
            name = variant(attention)
            pad = " " * (label_w - fmt.cell_len(name))  # cells, not characters: 用注意力 is 8
            line = Text(name + pad + "  ",
                        no_wrap=True, overflow="crop")  # fmt: skip
            line.append_text(
                strip([r.seq_acc for r in runs.get(attention, [])], lo, hi, strip_w, marks)
            )
            parts.append(line)
        parts.append(
            Prose(t("train.ui.strip_legend", lo=fmt.fixed(lo, 2), hi=fmt.fixed(hi, 2)), "dim")
        )
    parts.append(Prose(t("train.ui.noise"), "italic"))
    parts.append(Prose(t("train.compare_note"), "dim"))
    return Group(*parts)


def mean_losses(chunks: Sequence[np.ndarray]) -> np.ndarray:
    return np.concatenate(chunks) if chunks else np.empty(0)
