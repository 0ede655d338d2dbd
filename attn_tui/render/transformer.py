"""Rich renderables for the Transformer on the training screen: its label, its heads, its
outcome line, its session table and its multi-seed comparison.

The live panel's progress, accuracy, decode and loss come from ``render.trainer`` unchanged (a
Transformer Snapshot carries the same figures); what differs is that the model has a map per
head of every layer, two tasks, and a positional-encoding switch, so it has its own pieces.
Like ``render.trainer``, nothing here keeps state.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import replace

import numpy as np
from rich.console import Group, RenderableType
from rich.text import Text

from attn_tui.core import format as fmt
from attn_tui.core.models.head_scores import TASK_SCORE
from attn_tui.core.models.loop import RunResult, Snapshot, letters
from attn_tui.core.models.trainer import Stats
from attn_tui.core.models.transformer import VOCAB
from attn_tui.core.models.transformer_trainer import HeadStats, TransformerConfig
from attn_tui.i18n import t
from attn_tui.render.attention_views import ModelView
from attn_tui.render.heatmap import Heatmap
from attn_tui.render.loss_curve import strip
from attn_tui.render.prose import Prose
from attn_tui.render.steps import columns
from attn_tui.render.trainer import ACCENT, GOOD, NO_TIME, acc, percent

POSITIONS_SHOWN = ("learned", "sinusoidal", "none")


def positions_name(positions: str) -> str:
    return t(f"transformer.ui.pos.{positions}")


def task_name(task: str) -> str:
    return t(f"transformer.task.{task}")


def run_label(config: TransformerConfig) -> str:
    tag = t(f"transformer.ui.pos_tag.{config.positions}")
    return t("transformer.ui.run_label", task=task_name(config.task), length=config.length,
             positions=tag, seed=config.seed)  # fmt: skip


def intro(config: TransformerConfig) -> str:
    goal = t(f"transformer.ui.goal.{config.task}", length=config.length)
    return t("transformer.ui.intro", goal=goal, layers=config.layers, heads=config.heads,
             d_model=config.d_model, positions=positions_name(config.positions),
             params=config.n_params)  # fmt: skip


def shown_heads(snapshot: Snapshot | None, mean: bool) -> np.ndarray | None:
    """(layers, heads, L, L): the probe's weights, or the held-out average."""
    if snapshot is None:
        return None
    return snapshot.attention_mean if mean else snapshot.probe.attention


def heads_key(snapshot: Snapshot | None, mean: bool) -> bytes | None:
    """Equal keys draw the same maps (whole percents), so they are not drawn again."""
    weights = shown_heads(snapshot, mean)
    if weights is None:
        return None
    return np.rint(weights * 100).astype(np.int16).tobytes()


def render_heads(
    snapshot: Snapshot | None, config: TransformerConfig, mean: bool = False,
    absolute: bool = True,
) -> RenderableType:  # fmt: skip
    """One map per head of every layer. A single head is written out in whole percents, as
    the RNN's map is (the mirrored input underlined for reversal); several are drawn small,
    side by side. Under them, each head's held-out figures: its weight on L+1−i and how much
    of its weights' variance the attended letter, or the attended position, explains."""
    weights = shown_heads(snapshot, mean)
    if weights is None or snapshot is None:
        return Prose(t("train.ui.heat_wait"), "dim")
    layers, heads, n_out, n_in = weights.shape
    parts: list[RenderableType] = []
    if layers * heads == 1:
        w = weights[0, 0]
        reverse = config.task == "reverse"
        mirror = [(i, n_in - 1 - i) for i in range(min(n_out, n_in))] if reverse else []
        peaks, styles = [], []
        for i, row in enumerate(w):
            peak = int(row.argmax())
            on = reverse and peak == n_in - 1 - i
            peaks.append(f"{peak + 1}{'✓' if on else ''}")
            styles.append(GOOD if on else "dim")
        lo, hi = (0.0, 1.0) if absolute else (float(w.min()), float(w.max()))
        scale = t("train.ui.scale_abs") if absolute else t("train.ui.scale_own", lo=percent(lo),
                                                            hi=percent(hi))  # fmt: skip
        note = t(f"transformer.ui.legend.{config.task}", uniform=percent(1.0 / n_in), scale=scale)
        if mean:
            title = t("transformer.ui.heat_mean_title", layer=1, head=1, n=snapshot.n_eval)
        else:
            title = t("transformer.ui.heat_title", layer=1, head=1, x=letters(snapshot.probe.x))
        parts += [Prose(title, "bold"),
                  Heatmap(w, [str(i + 1) for i in range(n_out)], [str(j + 1) for j in range(n_in)],
                          highlight=mirror, cell_text=percent, extra=peaks, extra_styles=styles,
                          extra_title=t("train.ui.peak"), vmin=lo, vmax=hi, legend=True,
                          legend_note=note)]  # fmt: skip
    else:
        if mean:
            title = t("transformer.ui.model_mean", n=snapshot.n_eval)
        else:
            title = t("transformer.ui.model_probe", x=letters(snapshot.probe.x))
        parts += [Prose(title, "bold"),
                  ModelView(weights, layer_label=t("transformer.lab.layer_title"),
                            head_label=t("transformer.lab.head_short"))]  # fmt: skip
    parts.append(render_head_table(snapshot.heads, config.task))
    return Group(*parts)


def render_head_table(heads: Sequence[HeadStats], task: str = "reverse") -> RenderableType:
    """Each head's held-out figures, one row each, and what the columns measure: for a
    pattern task its pattern's score (``head_scores``) in place of the mirror weight."""
    pattern = TASK_SCORE.get(task)
    first = "mirror" if pattern is None else pattern
    header = [t("transformer.ui.col.which"),
              t("transformer.ui.col.mirror") if pattern is None else t(f"heads.score.{pattern}"),
              t("transformer.ui.col.by_symbol"), t("transformer.ui.col.by_position")]  # fmt: skip
    rows = [[t("transformer.ui.which", layer=h.layer, head=h.head), acc(h.score(first), 2),
             acc(h.by_symbol, 2), acc(h.by_position, 2)] for h in heads]  # fmt: skip
    if pattern is None:
        legend = t("transformer.ui.head_legend")
    else:
        legend = t("transformer.ui.pattern_legend", score=t(f"heads.score.{pattern}"))
    return Group(Text(""), columns(rows, "lrrr", header), Prose(legend, "dim"))


def render_blind(result: RunResult | None) -> RenderableType:
    """Why a run without positions stays above chance per position and fails whole: the
    best a position-blind model can expect on these held-out sequences, and this run."""
    if result is None or result.ceiling is None or result.final is None:
        return Text("")
    return Prose(t("transformer.why_blind", ceiling=result.ceiling, pos_acc=result.pos_acc,
                   letters=VOCAB, guess=1 / VOCAB), "yellow")  # fmt: skip


def telling_head(result: RunResult) -> float:
    """The figure of the head that shows what the task needs: for reversal the largest
    weight on L+1−i, for sorting the largest share explained by the attended letter, for a
    pattern task the largest score of its pattern."""
    if result.final is None:
        return math.nan
    task = result.config.task
    pick = "mirror" if task == "reverse" else TASK_SCORE.get(task, "by_symbol")
    values = [h.score(pick) for h in result.final.heads if math.isfinite(h.score(pick))]
    return max(values) if values else math.nan


def render_session(results: Sequence[RunResult]) -> RenderableType:
    """Every Transformer run finished this session, the latest of each setting."""
    latest: dict[TransformerConfig, RunResult] = {}
    for r in results:
        key = replace(r.config, eval_every=0)
        latest.pop(key, None)
        latest[key] = r
    header = [t("transformer.ui.col.task"), t("transformer.ui.col.positions"),
              t("train.ui.col.length"), t("train.ui.col.seed"), t("train.ui.col.iters"),
              t("train.col.params"), t("train.ui.col.whole"), t("train.ui.col.pos"),
              t("transformer.ui.col.head")]  # fmt: skip
    rows = [[task_name(r.config.task), positions_name(r.config.positions), str(r.config.length),
             str(r.config.seed), str(r.iters), str(r.params), Text(acc(r.seq_acc), ACCENT),
             Text(acc(r.pos_acc), ACCENT), acc(telling_head(r), 2)]
            for r in latest.values()]  # fmt: skip
    return Group(Prose(t("transformer.ui.session_title"), ACCENT),
                 columns(rows, "llrrrrrrr", header),
                 Prose(t("transformer.ui.session_legend"), "dim"))  # fmt: skip


def _induction_lines(
    base: TransformerConfig, variants: Sequence[str], runs: dict[str, list[RunResult]]
) -> list[RenderableType]:
    """Under F10's table for the induction task: each encoding's copy accuracy, both heads,
    the ablation and the phases over the seeds done (as ``train --compare`` says them)."""
    from attn_tui.core.models.transformer_figures import task_summary
    from attn_tui.core.models.transformer_trainer import SeedRuns
    from attn_tui.render.induction import seed_lines

    def spread(stats, spec: str = ".3f") -> str:
        if not stats.n:
            return NO_TIME
        return f"{format(stats.mean, spec)}±{format(stats.sd, spec)}"

    out: list[RenderableType] = []
    for v in variants:
        results = runs.get(v, [])
        if not results:
            continue
        summary = task_summary(SeedRuns(replace(base, positions=v), tuple(results)))
        out.append(Prose(positions_name(v), "bold"))
        out += [Prose("  " + line, "dim") for line in seed_lines(summary, spread)]
    return out


def _pm(s: Stats, places: int = 3) -> str:
    return f"{acc(s.mean, places)}±{acc(s.sd, places)}" if s.n else NO_TIME


def render_multi(
    base: TransformerConfig, seeds: Sequence[int], variants: Sequence[str],
    runs: dict[str, list[RunResult]], running: bool, width: int = 60,
) -> RenderableType:  # fmt: skip
    """Two positional encodings over N seeds: whole-sequence and per-letter accuracy (mean ±
    sd, min–max), the ceiling a position-blind model can reach, and a strip per setting."""
    done = sum(len(v) for v in runs.values())
    total = len(variants) * len(seeds)
    if not done and not running:
        names = " / ".join(positions_name(v) for v in variants)
        return Prose(t("transformer.ui.multi_empty", n=len(seeds), seed=seeds[0] if seeds else 0,
                       variants=names), "dim")  # fmt: skip
    parts: list[RenderableType] = [Prose(t(
        "transformer.ui.multi_title", task=task_name(base.task), length=base.length,
        iters=base.iters, n=len(seeds)), ACCENT)]  # fmt: skip
    if running or done < total:
        parts.append(Prose(t("train.ui.multi_running", done=done, total=total), "yellow"))
    header = [t("transformer.ui.col.positions"), t("train.col.params"), t("train.col.seq_mean"),
              t("train.col.seq_range"), t("train.col.pos_mean")]  # fmt: skip
    rows = []
    for v in variants:
        results = runs.get(v, [])
        seq = Stats.of([r.seq_acc for r in results])
        pos = Stats.of([r.pos_acc for r in results])
        params = replace(base, positions=v).n_params
        rows.append([positions_name(v), str(params), Text(_pm(seq), ACCENT),
                     f"{acc(seq.lo)}–{acc(seq.hi)}" if seq.n else NO_TIME, _pm(pos)])  # fmt: skip
        ceilings = [r.ceiling for r in results if r.ceiling is not None]
        if ceilings:
            rows.append([Text(t("transformer.ui.ceiling_row"), "yellow"), "", "", "",
                         Text(acc(sum(ceilings) / len(ceilings)), "yellow")])  # fmt: skip
    parts.append(columns(rows, "lrrrr", header))
    if base.task == "induction":
        parts += _induction_lines(base, variants, runs)
    values = [r.seq_acc for v in runs.values() for r in v if math.isfinite(r.seq_acc)]
    if values:
        lo = max(0.0, math.floor(min(values) * 20) / 20)
        label_w = max(fmt.cell_len(positions_name(v)) for v in variants)
        strip_w = max(min(width - label_w - 2, 50), 10)
        for v in variants:
            name = positions_name(v)
            line = Text(name + " " * (label_w - fmt.cell_len(name)) + "  ", no_wrap=True,
                        overflow="crop")  # fmt: skip
            line.append_text(strip([r.seq_acc for r in runs.get(v, [])], lo, 1.0, strip_w))
            parts.append(line)
        legend = t("transformer.ui.strip_legend", lo=fmt.fixed(lo, 2), hi=fmt.fixed(1.0, 2))
        parts.append(Prose(legend, "dim"))
    parts.append(Prose(t("train.ui.noise"), "italic"))
    return Group(*parts)
