"""Rich renderables of the exercises screen: a set's progress, an exercise and its feedback.

Each takes what the core computed (an exercise instance, a grade, the stored statuses) and
lays it out; none keeps state.
"""

from __future__ import annotations

import re
import time

import numpy as np
from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text

from attn_tui.core.exercises.generators import Instance, fmt_number
from attn_tui.core.exercises.grading import Grade
from attn_tui.core.exercises.model import Exercise, ExerciseSet
from attn_tui.core.format import cell_len
from attn_tui.core.progress import ExerciseStatus
from attn_tui.i18n import t
from attn_tui.render.palette import MUTED
from attn_tui.render.prose import Prose, fit_words

BAR = 10  # cells in a set's progress bar
HEADLINE_STYLE = {
    "correct": "bold green",
    "partial": "bold yellow",
    "incorrect": "bold red",
    "unreadable": "bold red",
    "empty": "bold yellow",
    "revealed": "bold cyan",
}
_PLACEHOLDER = re.compile(r"\{[A-Za-z_][A-Za-z0-9_]*\}")


def when(at: float) -> str:
    """A visit time: the clock for today, the date otherwise."""
    local = time.localtime(at)
    if time.strftime("%Y-%m-%d", local) == time.strftime("%Y-%m-%d"):
        return time.strftime("%H:%M", local)
    return time.strftime("%Y-%m-%d", local)


def mark(status: ExerciseStatus | None) -> tuple[str, str]:
    """One exercise's mark: ✓ solved, ○ answer seen, ✗ tried and not right, · not tried."""
    if status is not None and status.solved:
        return "✓", "green"
    if status is not None and status.revealed:
        return "○", "cyan"
    if status is not None and status.attempts:
        return "✗", "red"
    return "·", MUTED  # (dim fell under 3:1 on the light theme)


def progress_line(total: int, solved: int, seen: int, visited: float | None) -> Text:
    """Solved (█) and answer seen (▒) apart: a revealed answer is not a solved exercise."""
    full = round(BAR * solved / total) if total else 0
    half = min(BAR - full, round(BAR * seen / total)) if total else 0
    line = Text()
    line.append("█" * full, "green")
    line.append("▒" * half, "cyan")
    line.append("░" * (BAR - full - half), "dim")
    line.append("  " + t("ex.progress_count", solved=solved, total=total))
    if seen:
        line.append(" · " + t("ex.progress_seen", seen=seen), "cyan")
    line.append(" · ", MUTED)  # (a list's row: see palette.MUTED)
    line.append(t("ex.last_visited", when=when(visited)) if visited else t("ex.never_visited"),
                MUTED)  # fmt: skip
    return line


def head(ex_set: ExerciseSet, statuses: dict[str, ExerciseStatus], index: int, redo: bool,
         lang: str) -> Text:  # fmt: skip
    """The set's title, then one mark per exercise (see :func:`mark`), the current reversed."""
    line = Text(ex_set.title.get(lang) + "  ", "bold")
    if redo:
        line = Text.assemble(line, (t("ex.redo_mode") + "  ", "yellow"))
    for i, ex_id in enumerate(ex_set.ids):
        symbol, style = mark(statuses.get(ex_id))
        line.append(symbol, style + (" reverse" if i == index else ""))
    return line


def item_label(n: int, digits: int, exercise: Exercise, status: ExerciseStatus | None,
               width: int, lang: str) -> Text:  # fmt: skip
    """One line of a set's list of exercises: its mark, number, prompt (cut to fit), tries."""
    symbol, style = mark(status)
    tries = t("ex.item_tries", count=status.attempts) if status and status.attempts else ""
    lead = f"{symbol} {n:>{digits}}  "
    room = width - len(lead) - (cell_len(tries) + 1 if tries else 0)
    # A generated prompt's numbers are drawn when it is shown: "…" stands for them here.
    prompt = _PLACEHOLDER.sub("…", " ".join(exercise.prompt.get(lang).split()))
    label = Text.assemble((symbol, style), f" {n:>{digits}}  ", fit_words(prompt, room))
    if tries:
        label.append(" " + tries, MUTED)
    return label


def status_text(inst: Instance, status: ExerciseStatus | None) -> str:
    """On the exercise's border: its seed (generated), and solved, answer seen or tries."""
    parts = []
    if inst.generated:
        parts.append(t("ex.seed", seed=inst.seed))
    if status is not None:
        if status.solved:
            parts.append(t("ex.status.solved"))
        elif status.revealed:
            parts.append(t("ex.status.revealed"))
        else:
            parts.append(t("ex.status.tried", count=status.attempts))
    return " · ".join(parts)


def prompt(inst: Instance, lang: str) -> RenderableType:
    parts: list[RenderableType] = [Prose(inst.prompt(lang))]
    if inst.calculator is not None:
        parts.append(Prose("F7 · " + t("ex.try_in_calculator"), "dim"))
    return Group(*parts)


def choices(exercise: Exercise, lang: str) -> RenderableType | None:
    if not exercise.choices:
        return None
    table = Table.grid(padding=(0, 1))
    table.add_column(style="bold", no_wrap=True)
    table.add_column(ratio=1)
    for choice in exercise.choices:
        table.add_row(f"{choice.id}.", Prose(choice.text.get(lang)))
    return table


def hints(inst: Instance, shown: int, lang: str) -> RenderableType | None:
    every = inst.hints(lang)
    if not every[:shown]:
        return None
    return Group(*(Prose(t("ex.hint_n", n=i, total=len(every), text=h), "yellow")
                   for i, h in enumerate(every[:shown], start=1)))  # fmt: skip


def explanation(inst: Instance, lang: str) -> RenderableType:
    return Group(Prose(t("ex.explanation"), "bold"), Prose(inst.explanation(lang)), Text(),
                 Prose(t("ex.next_prompt"), "dim"))  # fmt: skip


def entries(g: Grade) -> Text | None:
    """What was typed, entry by entry: green where right, red and marked ✗ where off."""
    if g.kind not in ("vector", "matrix") or g.status not in ("partial", "incorrect"):
        return None
    value = np.asarray(g.value, dtype=np.float64) if g.value is not None else None
    if value is None or value.ndim not in (1, 2):
        return None
    rows = value if value.ndim == 2 else value[None, :]
    off = set(g.off)
    text = Text()
    for r, row in enumerate(rows, start=1):
        if r > 1:
            text.append("\n")
        for c, x in enumerate(row, start=1):
            bad = ((r, c) if value.ndim == 2 else (c,)) in off
            text.append(
                fmt_number(float(x)) + ("✗" if bad else "✓"), "bold red" if bad else "green"
            )
            text.append("  ")
    return text


def feedback(g: Grade, inst: Instance, finished: bool, lang: str) -> RenderableType:
    """The grade's verdict and reasons, what was typed entry by entry, and (revealed, or a
    written answer right) the answer or a reference one."""
    lines = g.lines(t, lang)
    if not g.is_answer and g.status != "unreadable":
        lines = lines[1:]  # not "Not right.": it was not an answer at all
    parts: list[RenderableType] = [Prose(lines[0], HEADLINE_STYLE.get(g.status, "bold"))]
    typed = entries(g)
    if typed is not None:
        parts.append(typed)
    parts += [Prose(line) for line in lines[1:]]
    if not g.is_answer:
        parts.append(Prose(t("ex.not_counted"), "yellow"))
        return Group(*parts)
    if g.status == "revealed" or (g.correct and inst.exercise.kind == "text"):
        key = "ex.fb.reference" if inst.exercise.kind == "text" else "ex.fb.answer_was"
        parts.append(Prose(t(key, answer=inst.answer_text(t, lang)), "cyan"))
    if not finished and g.status != "empty":
        parts.append(Prose(t("ex.try_again"), "dim"))
    return Group(*parts)
