"""A code check's report as Rich renderables: the verdict, the first failing case's inputs,
the expected and received arrays side by side with the differing entries marked, the
mistake named, their traceback, what they printed. Shared by the code screen and
``attn-tui code check`` (which prints it), so both say the same thing."""

from __future__ import annotations

from typing import Any

from rich.console import Group, RenderableType
from rich.padding import Padding
from rich.table import Table
from rich.text import Text

from attn_tui.core.coding import show
from attn_tui.core.coding.model import CodeExercise, Report
from attn_tui.core.coding.sandbox import Limits
from attn_tui.i18n import t

MARK = "*"  # beside a differing entry, so it shows without colour too


def _grid(value: Any, differ: Any = None, marked_style: str = "bold red") -> Table:
    g = show.grid(value, differ)
    table = Table.grid(padding=(0, 1))
    for _ in range(max((len(r) for r in g["rows"]), default=1)):
        table.add_column(justify="right")
    for row, marks in zip(g["rows"], g["marked"], strict=True):
        table.add_row(*[Text(x + (MARK if m else " "), style=marked_style if m else "")
                        for x, m in zip(row, marks, strict=True)])  # fmt: skip
    if g["cut"]:
        table.add_row(Text("…", style="dim"))
    return table


def _title(value: Any, differ: Any = None) -> str:
    g = show.grid(value, differ)
    return f"{g['shape']} {show.lead_label(g['lead'])}".strip()


def inputs_table(report: Report) -> Group:
    """Each argument: its name and shape on a line, its numbers below (a grid never shares a
    row with a long title, so a narrow panel does not squeeze the numbers)."""
    failure = report.failure
    assert failure is not None
    parts: list[RenderableType] = []
    for name, value in failure.inputs:
        if hasattr(value, "shape") and getattr(value, "ndim", 0) >= 1:
            parts.append(Text(f"{name} {_title(value)}", style="bold"))
            parts.append(Padding(_grid(value, marked_style=""), (0, 0, 0, 2)))
        else:
            parts.append(Text.assemble((name, "bold"), f" = {show.value_text(value)}"))
    return Group(*parts)


def side_by_side(report: Report) -> Table:
    failure = report.failure
    assert failure is not None
    want = t("code.expected_fd") if report.by_differences else t("code.expected")
    table = Table(show_header=True, header_style="bold", box=None, padding=(0, 2))
    table.add_column(f"{want} {_title(failure.expected, failure.differ)}")
    table.add_column(f"{t('code.received')} {_title(failure.received, failure.differ)}")
    differ = failure.differ if failure.reason == "values" else None
    table.add_row(_grid(failure.expected, differ, marked_style="bold"),
                  _grid(failure.received, differ))  # fmt: skip
    return table


def _error_lines(error: Any, file: str) -> list[RenderableType]:
    out: list[RenderableType] = [Text(t("code.raised", type=error.get("type", "?"),
                                        message=show.value_text(error.get("message", ""))),
                                      style="red")]  # fmt: skip
    for line, function, source in show.traceback_lines(error, file):
        out.append(Text("  " + t("code.at_line", file=file, line=line, function=function,
                                 source=source)))  # fmt: skip
    return out


def _stopped(report: Report, file: str, exercise: CodeExercise) -> list[RenderableType]:
    limits = Limits()
    why = report.stopped
    out: list[RenderableType] = []
    if why == "time":
        head = t("code.stopped.time", seconds=f"{limits.seconds:g}")
        if report.where:
            line, function = report.where[0]
            rest = t("code.stopped.time_at", file=file, line=line, function=function)
        else:
            rest = t("code.stopped.time_nowhere")
        out.append(Text(f"{head} {rest}", style="red"))
    elif why in ("memory", "output"):
        size = limits.memory if why == "memory" else limits.output
        limit = f"{size / 2**20:.0f} MB" if size >= 2**20 else f"{size // 1024} KB"
        out.append(Text(t(f"code.stopped.{why}", limit=limit), style="red"))
    elif why in ("crashed", "exited", "file_size", "protocol", "unavailable"):
        out.append(Text(t(f"code.stopped.{why}", signal=report.signal or "?"),
                        style="red"))  # fmt: skip
    if report.failure is not None and report.failure.reason == "stopped":
        case = t(f"code.case.{report.failure.case.name}", **report.failure.case.info)
        out.append(Text(t("code.during", case=case), style="dim"))
    return out


def render(report: Report, exercise: CodeExercise, file: str | None = None) -> Group:
    """The whole report, top to bottom."""
    file = file or exercise.file
    parts: list[RenderableType] = []
    if report.passed:
        parts.append(Text(t("code.passed", total=report.total), style="bold green"))
        parts.append(Text(t("code.passed_note", seconds=f"{report.seconds:.2f}"), style="dim"))
        return Group(*parts, *_printed(report))
    err = report.load_error
    if report.stopped == "load" and err is not None:
        frames = show.traceback_lines(err, file)
        if err.get("type") in ("SyntaxError", "IndentationError", "TabError") and frames:
            parts.append(
                Text(
                    t(
                        "code.syntax",
                        file=file,
                        line=frames[-1][0],
                        column=err.get("column") or 1,
                        message=show.value_text(err.get("message", "")),
                    ),
                    style="red",
                )
            )
            parts.append(Text("  " + frames[-1][2]))
        else:
            parts.append(Text(t("code.load_failed", file=file), style="bold red"))
            parts += _error_lines(err, file)
        return Group(*parts, *_printed(report))
    if report.stopped == "missing":
        parts.append(Text(t("code.missing", file=file, function=report.missing), style="red"))
        if report.defined:
            parts.append(Text(t("code.defined", names=", ".join(report.defined))))
        return Group(*parts)
    if report.stopped == "too_large":
        parts.append(Text(t("code.too_large", size="512 KB"), style="red"))
        return Group(*parts)
    failure = report.failure
    if failure is not None:
        name = t(f"code.case.{failure.case.name}", **failure.case.info)
        parts.append(Text(t("code.case_of", n=failure.index + 1, total=report.total, name=name),
                          style="bold"))  # fmt: skip
        if report.ran:
            parts.append(Text(t("code.ran_before", ran=report.ran), style="dim"))
    if report.stopped and (failure is None or failure.reason == "stopped"):
        parts += _stopped(report, file, exercise)
    if failure is not None and failure.reason != "stopped":
        parts.append(Text(t("code.inputs"), style="bold underline"))
        parts.append(inputs_table(report))
        if failure.reason == "error" and failure.error is not None:
            parts += _error_lines(failure.error, file)
        elif failure.expected is not None and failure.received is not None:
            if failure.output:
                parts.append(Text(t("code.output_named", name=failure.output), style="bold"))
            parts.append(side_by_side(report))
            if failure.reason == "shape":
                parts.append(Text(t("code.shape", expected=show.shape(failure.expected),
                                    got=show.shape(failure.received)), style="red"))  # fmt: skip
            elif failure.reason == "values" and failure.differ is not None:
                parts.append(Text(t("code.differ", count=int(failure.differ.sum()),
                                    size=int(failure.differ.size)), style="red"))  # fmt: skip
    for d in report.diagnoses:
        parts.append(Text.assemble((t("code.diagnosis") + t("code.colon"), "bold yellow"),
                                   t(f"code.mistake.{d.code}", **d.params)))  # fmt: skip
    return Group(*parts, *_printed(report))


def _printed(report: Report) -> list[RenderableType]:
    if not report.output.strip():
        return []
    lines, more = show.last_lines(report.output)
    out: list[RenderableType] = [Text(t("code.printed"), style="dim")]
    out += [Text("  " + line, style="dim") for line in lines]
    if more:
        out.append(Text(t("code.more_printed", lines=len(lines)), style="dim"))
    return out


__all__ = ["render"]
