"""One line that sets a learner's own runs beside the stored table, in words.

    beside_line(table, base, {"none": runs, "dot": runs})
    # 'Beside the stored table: no attention agrees within the spread (difference +0.003,
    #  standard error 0.010); … 6 of 10 seeds gave the stored figure exactly: a single seed
    #  can end elsewhere on another machine, …'

Used by F10 on the trainer screen, the guided comparison, and ``attn-tui train --compare``.
Plain text (no Rich, no Textual), so the headless command can print it too. The verdicts come
from ``figures.beside_table``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from attn_tui.core import format as fmt
from attn_tui.core.models import figures as stored
from attn_tui.core.models.machine import Machine, machine
from attn_tui.core.models.trainer import TrainConfig
from attn_tui.i18n import t


def _acc(x: float) -> str:
    return f"{x:.3f}"


def _signed(x: float) -> str:
    return ("+" if x >= 0 else fmt.MINUS) + f"{abs(x):.3f}"


def verdict(name: str, a: stored.Agreement) -> str:
    """One variant's verdict, e.g. 'q·k agrees within the spread (difference +0.001, …)'."""
    if a.kind in ("agree", "differ"):
        z = abs(a.diff) / a.se if a.se > 0 else 0.0
        return t(f"train.beside.{a.kind}", variant=name, diff=_signed(a.diff), se=_acc(a.se),
                 z=f"{z:.1f}")  # fmt: skip
    return t(f"train.beside.{a.kind}", variant=name, value=_acc(a.mean), n=a.stored.n,
             lo=_acc(a.stored.min), hi=_acc(a.stored.max))  # fmt: skip


def why_line(agreements: Sequence[stored.Agreement], made: Mapping[str, str]) -> str:
    """Why single seeds can differ between machines, with how many matched exactly here."""
    shared = sum(a.shared for a in agreements)
    same = sum(a.same for a in agreements)
    text = t("train.beside.why", same=same, shared=shared) if shared else t(
        "train.beside.why_none")  # fmt: skip
    here = machine()
    there = Machine(**made).kernel if made else ""
    if there and here.kernel and there != here.kernel:
        text += t("train.beside.kernels", there=there, here=here.kernel)
    return text


def beside_line(
    table: stored.Figures | None,
    base: TrainConfig,
    runs: Mapping[str, Sequence],
    names: Mapping[str, str] | None = None,
) -> str:
    """The line for finished runs per variant (seed order does not matter), or '' when the
    table holds none of these experiments with these settings."""
    if table is None:
        return ""
    verdicts, agreements = [], []
    for variant, results in runs.items():
        a = stored.beside_table(table, base.with_variant(variant), results)
        if a is None:
            continue
        agreements.append(a)
        verdicts.append(verdict((names or {}).get(variant, variant), a))
    if not agreements:
        return ""
    return t("train.beside.line", items=t("train.beside.sep").join(verdicts),
             why=why_line(agreements, table.made))  # fmt: skip
