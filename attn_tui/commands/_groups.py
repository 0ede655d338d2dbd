"""``quiz grade DIR --groups`` / ``--write-groups FILE``: a class's written answers in groups
(:mod:`attn_tui.core.answer_groups`) shown in 80 columns or as JSON, written as a file of groups
to mark, and the teacher's marks set against the grader's, per question."""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path

from attn_tui.core.answer_groups import Agreement, Group, fingerprint, fold
from attn_tui.core.format import shorten, visible
from attn_tui.i18n import t

SHOWN_GROUPS = 12  # per question in the terminal; the file and --json hold them all
SHOWN_STUDENTS = 6
TYPICAL_CHARS = 150  # of a typical answer in the terminal (two lines at 80 columns)
JSON_CHARS = 2000  # of an answer in --json
FILE_CHARS = 200  # of a group's typical answer quoted in the file of groups
STUDENT_CHARS = 100  # of each other wording, beside its student's line


def _num(x: float) -> str:
    return f"{x:.2f}".rstrip("0").rstrip(".")


def _line(text: str, limit: int) -> str:
    """An answer on one line, safe to print, at most ``limit`` characters."""
    flat = " ".join(visible(text, one_line=True).split())
    return shorten(flat, limit)


def grader_mark(group: Group) -> str:
    """✓ 1, ✗ 0.25–0.5, with ?n when the grader was unsure of n of them."""
    low, high = group.scores
    marks = _num(low) if low == high else f"{_num(low)}–{_num(high)}"
    text = f"{'✓' if group.passed else '✗'} {marks}"
    return text + (f" ?{group.flagged}" if group.flagged else "")


def students_line(group: Group) -> str:
    names = [visible(s, one_line=True) for s in sorted(group.students)]
    shown = ", ".join(names[:SHOWN_STUDENTS])
    if len(names) > SHOWN_STUDENTS:
        shown += t("groups.more_students", count=len(names) - SHOWN_STUDENTS)
    return shown


def print_groups(console, groups: dict[str, list[Group]], blank: dict[str, int]) -> None:
    """Each written question's groups, the largest first, as a table that fits 80 columns."""
    from rich.table import Table
    from rich.text import Text

    console.print(t("groups.title"), style="bold")
    if not groups:
        console.print(t("groups.none"))
        return
    for question, gs in groups.items():
        answers = sum(len(g.answers) for g in gs)
        empty = t("groups.blank", count=blank[question]) if blank.get(question) else ""
        title = t("groups.question", question=question, answers=answers, groups=len(gs),
                  blank=empty)  # fmt: skip
        table = Table(title=visible(title, True), title_justify="left", show_lines=True)
        table.add_column(t("groups.col_group"), justify="right", no_wrap=True)
        table.add_column(t("groups.col_answers"), justify="right", no_wrap=True)
        table.add_column(t("groups.col_grader"), no_wrap=True)
        table.add_column(t("groups.col_typical"), overflow="fold")
        for g in gs[:SHOWN_GROUPS]:
            cell = Text(_line(g.typical.text, TYPICAL_CHARS))
            if g.wordings > 1:
                cell.append(t("groups.wordings", count=g.wordings), style="dim")
            cell.append("\n" + students_line(g), style="dim")
            table.add_row(str(g.number), str(len(g.answers)), grader_mark(g), cell)
        console.print(table)
        hidden = gs[SHOWN_GROUPS:]
        if hidden:
            more = sum(len(g.answers) for g in hidden)
            console.print(t("groups.more_groups", groups=len(hidden), answers=more), style="dim")
    console.print(t("groups.legend"), style="dim")


def groups_json(groups: dict[str, list[Group]], blank: dict[str, int]) -> dict:
    return {
        question: {
            "blank": blank.get(question, 0),
            "groups": [
                {
                    "group": g.number,
                    "answers": len(g.answers),
                    "wordings": g.wordings,
                    "passed": g.passed,
                    "score": {"min": g.scores[0], "max": g.scores[1]},
                    "uncertain": g.flagged,
                    "typical": {
                        "student": g.typical.student,
                        "text": shorten(g.typical.text, JSON_CHARS),
                    },
                    "students": [
                        {
                            "student": a.student,
                            "fingerprint": fingerprint(a.text),
                            "score": a.score,
                            "uncertain": a.uncertain,
                        }
                        for a in g.answers
                    ],  # fmt: skip
                }
                for g in gs
            ],
        }
        for question, gs in groups.items()
    }


def class_groups(students) -> tuple[dict[str, list[Group]], dict[str, int]]:
    """The class's written answers in groups, and how many were left blank per question."""
    from attn_tui.core.answer_groups import blanks, class_answers, group_answers

    return group_answers(class_answers(students)), blanks(students)


def print_views(console, args, students, groups) -> None:
    """What the teacher asked to see beside the class: its groups (--groups), and the
    teacher's marks against the grader's whenever there are any."""
    from attn_tui.core.answer_groups import agreement

    if groups is not None and args.groups:
        print_groups(console, *groups)
    rows = agreement(students)
    if rows:
        print_agreement(console, rows)


def json_views(args, students, groups) -> dict:
    from attn_tui.core.answer_groups import agreement

    out: dict = {}
    if groups is not None and args.groups:
        out["groups"] = groups_json(*groups)
    rows = agreement(students)
    if rows:
        out["agreement"] = agreement_json(rows)
    return out


# -- the file of groups to mark -------------------------------------------------------------


def _comment(text: str) -> str:
    return "\n".join(f"# {line}".rstrip() for line in visible(text).splitlines())


def _key(name: str) -> str:
    from attn_tui.core.quiz import toml_key

    return toml_key(name)


def _string(text: str) -> str:
    """A TOML basic string (JSON's escapes are TOML's; a lone surrogate written escaped)."""
    return json.dumps(text.encode("utf-8", "surrogatepass").decode("utf-8", "replace"))


def groups_file_text(groups: dict[str, list[Group]]) -> str:
    """TOML: one ``[[group]]`` per group, its mark left for the teacher to fill in."""
    out = [_comment(t("groups.file.head")), ""]
    for question, gs in groups.items():
        for g in gs:
            low, high = g.scores
            marks = _num(low) if low == high else f"{_num(low)}–{_num(high)}"
            flagged = t("groups.file.flagged", count=g.flagged) if g.flagged else ""
            verdict = t("groups.file.passed" if g.passed else "groups.file.failed")
            out.append(_comment(t("groups.file.group", question=question, number=g.number,
                                  answers=len(g.answers), verdict=verdict, marks=marks,
                                  flagged=flagged)))  # fmt: skip
            typical = fold(g.typical.text)
            out.append(_comment(f"  “{_line(g.typical.text, FILE_CHARS)}”"))
            out.append("[[group]]")
            out.append(f"question = {_string(question)}")
            out.append(f"# mark = {_num(g.typical.score)}")
            out.append('comment = ""')
            out.append("[group.students]")
            for a in sorted(g.answers, key=lambda a: a.student):
                line = f"{_key(a.student)} = {_string(fingerprint(a.text))}"
                if fold(a.text) != typical:  # each other wording beside its student
                    line += f"  # “{_line(a.text, STUDENT_CHARS)}”"
                out.append(line)
            out.append("")
    return "\n".join(out)


def taken(path: Path) -> bool:
    """Whether something is there already (a file, a folder, a link, even a broken one)."""
    target = Path(path).expanduser()
    try:
        return target.exists() or target.is_symlink()
    except (OSError, ValueError):
        return False  # the write says what is wrong with the path


def write_groups_file(path: Path, groups: dict[str, list[Group]], protect: Sequence[Path]) -> int:
    """Write the file of groups (never over a file that exists); the number of groups."""
    from attn_tui.commands._files import write_new
    from attn_tui.core.parse import InputError

    target = Path(path).expanduser()
    # taken() answers early, before any grading; write_new decides at the moment of writing
    # (a file or a link made since then is neither replaced nor followed)
    if taken(target) or not write_new(target, groups_file_text(groups).encode("utf-8"), protect):
        raise InputError("groups.exists", path=str(path))
    return sum(len(gs) for gs in groups.values())


# -- the teacher against the grader ---------------------------------------------------------


def print_agreement(console, rows: Sequence[Agreement]) -> None:
    from rich.table import Table

    table = Table(title=t("groups.agree.title"), title_justify="left")
    table.add_column(t("groups.agree.col_question"))
    table.add_column(t("groups.agree.col_marked"), justify="right")
    table.add_column(t("groups.agree.col_disagreed"), justify="right")
    table.add_column(t("groups.agree.col_agree"), justify="right")
    table.add_column(t("groups.agree.col_flagged"), justify="right")
    for r in rows:
        turned = f"{r.disagreed}" + (f" (↑{r.raised} ↓{r.lowered})" if r.disagreed else "")
        table.add_row(
            visible(r.question, True),
            str(r.marked),
            turned,
            f"{round(100 * r.share)}%",
            f"{r.flagged}/{r.disagreed}" if r.disagreed else "–",
        )
    console.print(table)
    console.print(t("groups.agree.note"), style="dim")


def agreement_json(rows: Sequence[Agreement]) -> dict:
    return {
        r.question: {
            "marked": r.marked,
            "disagreed": r.disagreed,
            "raised": r.raised,
            "lowered": r.lowered,
            "changed": r.changed,
            "uncertain_among_disagreed": r.flagged,
            "agreement": round(r.share, 4),
        }
        for r in rows
    }
