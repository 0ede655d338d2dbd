"""The gradebook files of ``attn-tui quiz grade``: ``--csv FILE`` and ``--feedback DIR``.

The marks come from :mod:`attn_tui.core.gradebook`; this module puts them into words (the
teacher's language) and onto disk. The CSV is what a spreadsheet or an LMS import expects:
UTF-8 with a byte-order mark (so Excel reads Chinese names), CRLF lines, one header row,
numbers as plain numbers, and no cell that a spreadsheet would run as a formula. Each file is
written whole or not at all (``_files.write_atomic``).
"""

from __future__ import annotations

import csv
import io
from collections.abc import Sequence
from pathlib import Path

from attn_tui.commands._files import resolved, write_atomic
from attn_tui.core.gradebook import Override, Row, Student, table
from attn_tui.core.parse import InputError
from attn_tui.i18n import t

_FORMULA_START = ("=", "+", "-", "@", "\t", "\r")


def _cell(value: object) -> object:
    """A text cell that a spreadsheet would take for a formula gets a leading apostrophe."""
    if isinstance(value, str) and value.startswith(_FORMULA_START):
        return "'" + value
    return "" if value is None else value


def _num(x: float) -> str:
    return f"{x:.2f}".rstrip("0").rstrip(".")


def override_note(ov: Override, auto: float, lang: str | None = None) -> str:
    """ "overridden by the teacher: 0.5 → 1 (comment)", the mark as it appears everywhere."""
    text = t("classroom.overridden", lang=lang, auto=_num(auto), mark=_num(ov.mark))
    if ov.comment:
        text += t("classroom.overridden_comment", lang=lang, comment=ov.comment)
    return text


def csv_text(students: Sequence[Student]) -> str:
    """The gradebook as CSV text (without the byte-order mark)."""
    questions, topics, rows = table(students)
    out = io.StringIO()
    writer = csv.writer(out, dialect="excel")  # CRLF, quotes only where needed
    header = [t(f"classroom.csv.{k}") for k in ("student", "file", "status", "score", "max",
                                                "percent")]  # fmt: skip
    header += questions
    header += [t("classroom.csv.topic", topic=t(f"quiz.topic.{tag}")) for tag in topics]
    header += [t("classroom.csv.overridden"), t("classroom.csv.problems")]
    writer.writerow([_cell(h) for h in header])
    for row in rows:
        writer.writerow([_cell(v) for v in _csv_row(row, questions, topics)])
    return out.getvalue()


def _csv_row(row: Row, questions: list[str], topics: list[str]) -> list[object]:
    status = t(f"classroom.status.{row.status}")
    cells: list[object] = [row.student, row.file, status, row.score, row.max, row.percent]
    cells += [row.questions.get(q) for q in questions]
    cells += [row.topics.get(tag) for tag in topics]
    notes = [f"{ov.question}: {override_note(ov, row.auto[ov.question])}" for ov in row.overridden]
    cells.append("; ".join(notes))
    cells.append("; ".join(p.format(t) for p in row.problems))
    return cells


def write_csv(path: Path, students: Sequence[Student], protect: Sequence[Path]) -> None:
    write_atomic(path, csv_text(students).encode("utf-8-sig"), protect)


# -- feedback files -------------------------------------------------------------------------


def feedback_text(student: Student, key_for: set[str] | None) -> str:
    """One student's feedback: the total, then each question with its mark and comments.

    ``key_for`` is the set of question ids whose reference answer the teacher allows
    (None: every question)."""
    r = student.learner
    lines = [
        t("classroom.fb.title", student=student.name),
        t("classroom.fb.file", file=r.file.name),
    ]
    if r.result is None:
        lines += ["", t("classroom.fb.broken")]
        lines += [f"  {p.format(t)}" for p in r.file.problems]
        return "\n".join(lines) + "\n"
    res = r.result
    lines.append(t("classroom.fb.total", score=_num(res.score), total=_num(res.total),
                   percent=round(100 * res.fraction)))  # fmt: skip
    if student.overrides:
        lines.append(t("classroom.fb.total_overridden", count=len(student.overrides)))
    for p in r.file.problems:
        lines.append(f"  {p.format(t)}")
    for i, a in enumerate(res.answered, 1):
        lines += ["", t("classroom.fb.question", n=i, id=a.id, score=_num(a.grade.score))]
        lines.append(_indent(a.inst.prompt(_lang())))
        if a.grade.status != "empty":
            lines.append(_indent(t("classroom.fb.your_answer", answer=_show(a.answer))))
        ov = student.overrides.get(a.id)
        if ov is not None:
            lines.append(_indent(override_note(ov, student.auto[a.id])))
        grade_lines = a.grade.lines(t)
        if a.grade.status == "empty":
            grade_lines[0] = t("quiz.no_answer")
        lines += [_indent(x) for x in grade_lines]
        if key_for is None or a.id in key_for:
            lines.append(_indent(t("classroom.fb.reference", answer=a.inst.answer_text(t))))
    return "\n".join(lines) + "\n"


def _lang() -> str:
    from attn_tui.i18n import get_lang

    return get_lang()


def _show(answer: object) -> str:
    if isinstance(answer, str):
        return answer.strip()
    if isinstance(answer, bool):
        return "true" if answer else "false"
    if isinstance(answer, list):
        return ", ".join(_show(x) for x in answer)
    return str(answer)


def _indent(text: str) -> str:
    return "\n".join(f"    {line}" if line else "" for line in str(text).splitlines())


def write_feedback(
    folder: Path, students: Sequence[Student], key_for: set[str] | None, protect: Sequence[Path]
) -> list[Path]:
    """One ``<student>.txt`` per student (broken files too: they say what to fix)."""
    folder = folder.expanduser()
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as err:
        raise InputError("classroom.cannot_write", path=str(folder), error=err.strerror) from None
    written = []
    guard = resolved(protect)
    for student in students:
        path = folder / f"{student.name}.txt"
        write_atomic(path, feedback_text(student, key_for).encode("utf-8"), guard)
        written.append(path)
    return written
