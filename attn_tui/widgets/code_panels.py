"""The code area's panels: the list of exercises with their marks, the task, the hints shown
so far, and the last check's report (drawn by :mod:`attn_tui.render.code_report`)."""

from __future__ import annotations

from pathlib import Path

from rich.console import Group, RenderableType
from rich.text import Text
from textual.widgets import OptionList, Static
from textual.widgets.option_list import Option

from attn_tui.core.coding.model import CodeExercise, Report
from attn_tui.core.coding.progress import CodeStatus
from attn_tui.i18n import get_lang, t
from attn_tui.render.code_report import render
from attn_tui.render.palette import MUTED
from attn_tui.render.prose import Prose, fit_words

TITLE_CELLS = 18  # the list is 28 wide: border, padding, the mark and the number take 10


def mark(status: CodeStatus) -> tuple[str, str]:
    """✓ passed, ✗ tried and not passed yet, · not started."""
    if status.passed:
        return "✓", "green"
    if status.attempts:
        return "✗", "yellow"
    return "·", MUTED


class ExerciseList(OptionList):
    """Every code exercise in order, marked; Enter opens one (OptionList.OptionSelected)."""

    def show(self, exercises: list[CodeExercise], done: dict[str, CodeStatus]) -> None:
        highlighted = self.highlighted
        self.clear_options()
        options = []
        for n, ex in enumerate(exercises, 1):
            sign, style = mark(done.get(ex.id, CodeStatus()))
            title = fit_words(ex.title.get(get_lang()), TITLE_CELLS)
            label = Text.assemble((f"{sign} ", style), (f"{n:>2} ", MUTED), title)
            options.append(Option(label, id=ex.id))
        self.add_options(options)
        if highlighted is not None and highlighted < len(options):
            self.highlighted = highlighted


class TaskPanel(Static):
    """What to write, in which file, with which shapes, how it is checked."""

    def show(self, exercise: CodeExercise, file: Path, number: int, total: int,
             status: CodeStatus) -> None:  # fmt: skip
        lang = get_lang()
        head = Text.assemble((f"{number}/{total} ", "dim"),
                             (exercise.title.get(lang), "bold"), "  ",
                             (mark(status)[0], mark(status)[1]))  # fmt: skip
        where = Text(t("code.file_line", file=str(file)), style="dim")
        parts: list[RenderableType] = [head, where]
        parts += [Prose(p) for p in exercise.prompt.get(lang).split("\n")]
        self.update(Group(*parts))


class HintsPanel(Static):
    def show(self, exercise: CodeExercise, shown: int) -> None:
        lang = get_lang()
        lines = [Prose(t("code.hint", n=i + 1, total=len(exercise.hints),
                         text=exercise.hints[i].get(lang)), style="yellow")
                 for i in range(min(shown, len(exercise.hints)))]  # fmt: skip
        self.update(Group(*lines))
        self.set_class(bool(lines), "-shown")


class ReportPanel(Static):
    """The last check, or what to do to get one."""

    def show(self, report: Report | None, exercise: CodeExercise, *, checking: bool = False,
             watching: bool = False) -> None:  # fmt: skip
        status = Text(t("code.watch_on" if watching else "code.watch_off"),
                      style="green" if watching else "dim")  # fmt: skip
        if checking:
            body: RenderableType = Text(t("code.checking"), style="italic")
        elif report is None:
            body = Prose(t("code.not_checked"), style="dim")
        else:
            body = render(report, exercise, exercise.file)
        extra: list[RenderableType] = []
        if report is not None and report.passed:
            why = exercise.explanation.get(get_lang())
            extra.append(Prose(t("code.explanation") + t("code.colon") + why, style="dim"))
        self.update(Group(status, body, *extra))


__all__ = ["ExerciseList", "HintsPanel", "ReportPanel", "TaskPanel", "mark"]
