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
import os
import secrets
import stat
from collections.abc import Sequence
from pathlib import Path

from attn_tui.commands._files import write_atomic
from attn_tui.core.format import visible
from attn_tui.core.gradebook import SAME_STUDENT, Override, Row, Student, table
from attn_tui.core.parse import InputError
from attn_tui.i18n import t

_FORMULA_START = ("=", "+", "-", "@", "\t", "\r")


def _cell(value: object) -> object:
    """A text cell shown safe (control characters as escapes: a file name may hold ESC), and
    one a spreadsheet would take for a formula with a leading apostrophe."""
    if isinstance(value, str):
        value = visible(value, one_line=True)
        if value.startswith(_FORMULA_START):
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


class FeedbackRefused(Exception):
    """Some feedback files were not written (each named, with why); the rest were."""

    def __init__(self, written: list[Path], refused: list[tuple[str, str]]) -> None:
        super().__init__(refused)
        self.written, self.refused = written, refused


def write_feedback(
    folder: Path, students: Sequence[Student], key_for: set[str] | None, protect: Sequence[Path]
) -> list[Path]:
    """One ``<student>.txt`` per student (broken files too: they say what to fix), each made
    new in ``folder`` itself: never through a link or onto anything but a plain file already
    there (a student can plant ``bob.txt → ../private.txt`` in a hand-in folder that is also
    the feedback folder), never anywhere but directly in ``folder``. A file refused is named
    (:class:`FeedbackRefused`, after the others are written); a student whose file another
    shares (:data:`SAME_STUDENT`) gets none, since it would land on the other's."""
    folder = folder.expanduser()
    try:
        folder.mkdir(parents=True, exist_ok=True)
        where = _Folder(folder)
    except OSError as err:
        raise InputError("classroom.cannot_write", path=str(folder), error=_why(err)) from None
    written: list[Path] = []
    refused: list[tuple[str, str]] = []
    guard = _identities(protect)
    try:
        for student in students:
            name = f"{student.name}.txt"
            if any(p.code == SAME_STUDENT for p in student.learner.file.problems):
                refused.append((name, t("classroom.fb.same_student")))
                continue
            text = visible(feedback_text(student, key_for))  # ESC, BEL, OSC 52 shown, not run
            try:
                where.write_new(name, text.encode("utf-8"), guard)
            except _Refused as why:
                refused.append((name, str(why)))
                continue
            except OSError as err:
                raise InputError("classroom.cannot_write", path=str(folder / name),
                                 error=_why(err)) from None  # fmt: skip
            written.append(folder / name)
    finally:
        where.close()
    if refused:
        raise FeedbackRefused(written, refused)
    return written


def _why(err: OSError) -> str:
    return err.strerror or type(err).__name__


def _identities(paths: Sequence[Path]) -> frozenset[tuple[int, int]]:
    """(device, inode) of each file to protect: the same file whatever the name or link."""
    found = set()
    for path in paths:
        try:
            info = os.stat(path)
        except (OSError, ValueError):
            continue
        found.add((info.st_dev, info.st_ino))
    return frozenset(found)


class _Refused(Exception):
    """A feedback file that is not written, and why (in the teacher's words)."""


class _Folder:
    """A folder every file is written directly into, by its descriptor where the system allows
    (a folder renamed or replaced by a link meanwhile does not move the writes elsewhere)."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.fd: int | None = None
        if _DIR_FD:
            self.fd = os.open(path, os.O_RDONLY | getattr(os, "O_DIRECTORY", 0) | _CLOEXEC)

    def close(self) -> None:
        if self.fd is not None:
            os.close(self.fd)
            self.fd = None

    def write_new(self, name: str, data: bytes, guard: frozenset[tuple[int, int]]) -> None:
        """``name`` made afresh with ``data``: a temporary file (O_EXCL, O_NOFOLLOW) beside it,
        renamed over it. Refused (:class:`_Refused`) when ``name`` is there already as a link,
        a folder, a pipe or a device, or is one of the files in ``guard``."""
        if os.sep in name or (os.altsep and os.altsep in name) or name in (".", ".."):
            raise _Refused(t("classroom.fb.bad_name"))
        try:
            info = self._lstat(name)
        except FileNotFoundError:
            info = None
        if info is not None:
            if stat.S_ISLNK(info.st_mode):
                raise _Refused(t("classroom.fb.link"))
            if not stat.S_ISREG(info.st_mode):
                raise _Refused(t("classroom.fb.not_plain"))
            if (info.st_dev, info.st_ino) in guard:
                raise _Refused(t("classroom.fb.answer_file"))
        tmp = f".{name}.{secrets.token_hex(6)}.tmp"
        flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | _NOFOLLOW | _CLOEXEC
        if self.fd is not None:
            fd = os.open(tmp, flags, 0o666, dir_fd=self.fd)
        else:
            fd = os.open(self.path / tmp, flags, 0o666)
        try:
            with os.fdopen(fd, "wb") as fh:
                fh.write(data)
            if self.fd is not None:
                os.replace(tmp, name, src_dir_fd=self.fd, dst_dir_fd=self.fd)
            else:
                os.replace(self.path / tmp, self.path / name)
        except BaseException:
            try:
                if self.fd is not None:
                    os.unlink(tmp, dir_fd=self.fd)
                else:
                    os.unlink(self.path / tmp)
            except OSError:
                pass
            raise

    def _lstat(self, name: str) -> os.stat_result:
        if self.fd is not None:
            return os.stat(name, dir_fd=self.fd, follow_symlinks=False)
        return os.lstat(self.path / name)


_NOFOLLOW = getattr(os, "O_NOFOLLOW", 0)
_CLOEXEC = getattr(os, "O_CLOEXEC", 0)
_DIR_FD = {os.open, os.stat, os.replace, os.unlink} <= os.supports_dir_fd and (
    os.stat in os.supports_follow_symlinks
)
