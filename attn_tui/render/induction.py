"""Rich renderables for the induction run on the training screen (and its headless report).

The run is a two-layer, one-head, attention-only Transformer on 32 tokens of 64 in which a
segment of 8 reappears later (``core.models.tasks``). What the screen shows of it differs from
the letter tasks in four places, each a function here:

* ``render_heads``: both layers' maps side by side (32 × 32 is too big for numbers), each
  titled with its head's previous-token and induction scores; with the ablation on, layer 1's
  previous-token head is switched off and the maps are the ablated model's;
* ``render_decode``: the probe's tokens with the copied segment and its source marked, and the
  copy's tokens 2–8 as expected and as predicted;
* ``phase_marks`` / ``phase_lines``: the loss's plateau and drop as ``PhaseDetector`` found
  them, marks under the loss curve and a line each;
* ``render_ablation``: the trained model beside the same with that head off; and
  ``seed_lines``: the run's own figures over seeds (F10, ``train --compare``).

Nothing here keeps state.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
from rich.console import Console, ConsoleOptions, Group, RenderableType, RenderResult
from rich.table import Table
from rich.text import Text

from attn_tui.core.models import phases as rule
from attn_tui.core.models import tasks
from attn_tui.core.models.ablation import Ablation
from attn_tui.core.models.loop import Snapshot
from attn_tui.core.models.phases import Phases
from attn_tui.core.models.transformer_trainer import Decode, HeadStats
from attn_tui.i18n import t
from attn_tui.render.attention_views import ModelView
from attn_tui.render.loss_curve import Mark
from attn_tui.render.prose import Prose
from attn_tui.render.steps import columns
from attn_tui.render.trainer import ACCENT, BAD, GOOD, PerPosition, acc

PLATEAU, DROP = "━", "▼"
PLATEAU_STYLE, DROP_STYLE = "yellow", "bold red"
SOURCE_STYLE, COPY_STYLE = "underline", "bold underline"
GAP = 3  # columns between the two layers' maps


def _title(head: HeadStats | None, layer: int) -> Text:
    text = Text(t("induction.map_title", layer=layer), "bold", no_wrap=True, overflow="crop")
    if head is not None and head.scores is not None:
        text.append("\n" + t("induction.map_scores", previous=acc(head.scores.previous, 2),
                            induction=acc(head.scores.induction, 2)), "dim")  # fmt: skip
    return text


def _ablated_title(ablation: Ablation, layer: int) -> Text:
    """A layer's title with the ablation on: the head switched off, or the induction score
    without it."""
    text = Text(t("induction.map_title", layer=layer), "bold", no_wrap=True, overflow="crop")
    if layer == ablation.off[0]:
        text.append("\n" + t("induction.map_off", head=ablation.off[1]), "bold yellow")
    elif layer == ablation.induction_head[0]:
        text.append("\n" + t("induction.map_after", induction=acc(ablation.after.induction, 2)),
                    "bold yellow")  # fmt: skip
    return text


class LayerMaps:
    """Every layer's map of ``weights`` (layers, heads, L, L), side by side when they fit the
    width they are drawn at (one above the other when not), each titled with its first head's
    scores; ``ablated``: the maps are the model's with that ablation's head off, and say so."""

    def __init__(self, weights: np.ndarray, heads: tuple[HeadStats, ...],
                 ablated: Ablation | None = None) -> None:  # fmt: skip
        self.weights = np.asarray(weights, float)
        self.heads = heads
        self.ablated = ablated

    def _maps(self) -> list[tuple[Text, ModelView]]:
        first = {h.layer: h for h in self.heads if h.head == 1}
        out = []
        for layer in range(self.weights.shape[0]):
            # one head: its title names the layer, which is enough
            label = "" if self.weights.shape[1] == 1 else t("transformer.lab.head_short")
            view = ModelView(self.weights[layer : layer + 1], layer_label="", head_label=label)
            if self.ablated is None:
                title = _title(first.get(layer + 1), layer + 1)
            else:
                title = _ablated_title(self.ablated, layer + 1)
            out.append((title, view))
        return out

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        layers, n_heads, _, n_k = self.weights.shape
        if self.ablated is not None:
            layer, head = self.ablated.off
            yield Prose(t("induction.ablated_maps", layer=layer, head=head), "bold yellow")
        maps = self._maps()
        map_w = n_k * n_heads + (n_heads - 1) * 2
        if layers > 1 and layers * (map_w + GAP) - GAP <= options.max_width:
            grid = Table.grid(padding=(0, GAP, 0, 0))
            for _ in range(layers):
                grid.add_column(width=map_w, no_wrap=True)
            grid.add_row(*(title for title, _ in maps))
            grid.add_row(*(view for _, view in maps))
            yield grid
            return
        for title, view in maps:
            yield title
            yield view


def render_decode(decode: Decode) -> RenderableType:
    """The probe: its tokens (the source segment underlined, the copy in bold), then the copy's
    tokens 2–8 as the task wants them and as the model predicted them (green right, red wrong)."""
    x = tasks.labels("induction", decode.x)
    line = Text(t("train.row.probe") + ": ", "bold", no_wrap=True, overflow="crop")
    source, start = decode.copy if decode.copy is not None else (-1, -1)
    for i, token in enumerate(x):
        style = ""
        if start <= i < start + tasks.SEGMENT:
            style = COPY_STYLE
        elif source <= i < source + tasks.SEGMENT:
            style = SOURCE_STYLE
        line.append(token, style)
    parts: list[RenderableType] = [line]
    if decode.copy is not None:
        scored = decode.scored
        want = "".join(tasks.label("induction", decode.target[i]) for i in scored)
        said = Text(t("induction.decode_copy", target=want) + " ")
        for i in scored:
            right = decode.prediction[i] == decode.target[i]
            said.append(tasks.label("induction", decode.prediction[i]), GOOD if right else BAD)
        parts.append(said)
        parts.append(Prose(t("heads.copy", source=source + 1, source_end=source + tasks.SEGMENT,
                             start=start + 1, end=start + tasks.SEGMENT, first=scored[0] + 1,
                             last=scored[-1] + 1), "dim"))  # fmt: skip
    return Group(*parts)


def phase_marks(phases: Phases) -> list[Mark]:
    """The plateau's steps and the drop's, for the loss curve."""
    marks = []
    if phases.plateau_start is not None and phases.plateau_end is not None:
        marks.append(Mark(phases.plateau_start, phases.plateau_end, PLATEAU, PLATEAU_STYLE))
    if phases.drop is not None and phases.drop_seen is not None:
        marks.append(Mark(phases.drop, phases.drop_seen, DROP, DROP_STYLE))
    return marks


def phase_lines(phases: Phases, with_rule: bool = True) -> list[str]:
    """The plateau and the drop in words (or that there is none yet), then the rule."""
    if phases.plateau_start is None:
        lines = [t("heads.phases.no_plateau")]
    else:
        lines = [t("heads.phases.plateau", start=phases.plateau_start, end=phases.plateau_end,
                   level=f"{phases.plateau_level:.2f}", seen=phases.plateau_seen)]  # fmt: skip
        if phases.drop is None:
            lines.append(t("heads.phases.no_drop"))
        else:
            fall = phases.plateau_level - phases.drop_level
            lines.append(t("heads.phases.drop", start=phases.drop, seen=phases.drop_seen,
                           fall=f"{fall:.2f}"))  # fmt: skip
    if with_rule:
        lines.append(t("heads.phases.rule", window=rule.WINDOW, span=rule.SPAN, flat=rule.FLAT,
                       near=rule.NEAR_START, drop=rule.DROP))  # fmt: skip
    return lines


def render_phases(phases: Phases) -> RenderableType:
    """Under the loss curve: the plateau (━) and the drop (▼) as the marks draw them, then the
    rule that found them."""
    lines = phase_lines(phases, with_rule=False)
    marks = [(PLATEAU, PLATEAU_STYLE), (DROP if phases.dropped else " ", DROP_STYLE)]
    if phases.plateau_start is None:
        marks = [(" ", "")]
    grid = Table.grid(padding=(0, 1, 0, 0))
    grid.add_column(width=1, no_wrap=True)
    grid.add_column()
    for (mark, style), line in zip(marks, lines, strict=True):
        grid.add_row(Text(mark, style), Prose(line))
    rule_line = phase_lines(Phases(), with_rule=True)[-1]
    return Group(grid, Prose(rule_line, "dim"))


def ablation_rows(ablation: Ablation, number: Callable[[float], str]) -> list[list[str]]:
    """Figure, the trained model's, the same with the previous-token head off."""
    ind, off = ablation.induction_head, ablation.off
    rows = []
    for key, name, at in (("induction.row.copy_acc", "copy_acc", ind),
                          ("induction.row.seq_acc", "seq_acc", ind),
                          ("induction.row.induction", "induction", ind),
                          ("induction.row.previous", "previous", off)):  # fmt: skip
        rows.append([t(key, layer=at[0], head=at[1]), number(getattr(ablation.before, name)),
                     number(getattr(ablation.after, name))])  # fmt: skip
    return rows


def render_ablation(ablation: Ablation | None) -> RenderableType:
    """The ablation on the held-out set: the trained model and the same with layer 1's
    previous-token head off, figure by figure, and what switching off means."""
    if ablation is None:
        return Prose(t("induction.no_ablation"), "dim")
    layer, head = ablation.off
    header = [t("heads.ablation.col.figure"), t("induction.col.before"),
              t("induction.col.after")]  # fmt: skip
    rows = ablation_rows(ablation, lambda x: acc(x, 3))
    styled = [[row[0], Text(row[1], ACCENT), Text(row[2], "bold yellow")] for row in rows]
    return Group(Prose(t("heads.ablation.title", layer=layer, head=head), ACCENT),
                 columns(styled, "lrr", header),  # type: ignore[arg-type]
                 Prose(t("heads.ablation.note"), "dim"),
                 Prose(t("induction.ablation_key"), "cyan"))  # fmt: skip


def render_head_table(heads: tuple[HeadStats, ...]) -> RenderableType:
    """Each head's two scores (previous token, induction) on the held-out set."""
    header = [t("transformer.ui.col.which"), t("heads.score.previous"),
              t("heads.score.induction")]  # fmt: skip
    rows = [[t("transformer.ui.which", layer=h.layer, head=h.head), acc(h.score("previous"), 2),
             acc(h.score("induction"), 2)] for h in heads]  # fmt: skip
    return Group(Text(""), columns(rows, "lrr", header),
                 Prose(t("induction.head_legend"), "dim"))  # fmt: skip


def render_accuracy(snapshot: Snapshot | None, every: int) -> RenderableType:
    """The copy accuracy and the share of sequences with all seven right, then each of the
    copy's tokens 2–8."""
    if snapshot is None:
        return Prose(t("train.ui.acc_wait", every=every), "dim")
    line = Prose(t("induction.acc_line", iteration=snapshot.iteration, copy=acc(snapshot.pos_acc),
                   whole=acc(snapshot.seq_acc)), "bold")  # fmt: skip
    return Group(line, PerPosition(snapshot.per_position, 2, t("induction.copy_token")))


def probe_title(snapshot: Snapshot, mean: bool) -> str:
    if mean:
        return t("transformer.ui.model_mean", n=snapshot.n_eval)
    return t("induction.probe_title")


def seed_lines(figures: dict, spread: Callable) -> list[str]:
    """The induction run's figures over seeds (``transformer_figures.task_summary``), each
    ``spread`` (mean ± sd): copy accuracy and both heads, the ablation, the phases."""
    if "induction_head" not in figures:
        return []
    lines = [t("heads.seeds.induction", copy=spread(figures["pos_acc"]),
               induction=spread(figures["induction_head"]),
               previous=spread(figures["previous_head"]))]  # fmt: skip
    if figures["ablated_copy_acc"].n:
        lines.append(t("heads.seeds.ablation", copy=spread(figures["ablated_copy_acc"]),
                       induction=spread(figures["ablated_induction"])))  # fmt: skip
    n = figures["pos_acc"].n
    lines.append(t("heads.seeds.phases", n=n, plateaus=figures["plateau_end"].n,
                   drops=figures["drop_seen"].n, end=spread(figures["plateau_end"], ".0f"),
                   seen=spread(figures["drop_seen"], ".0f")))  # fmt: skip
    return lines
