"""``attn-tui quiz grade ANSWERS [--json] [--show-key]`` and ``attn-tui quiz template``.

grade: a file is one learner (score, per topic, per question with the feedback); a folder is a
class (every ``*.toml`` / ``*.json`` in it: a table of files, marks per question, class means by
topic and by question). A file that cannot be read is reported as ``file:line: message`` and the
others are graded all the same; the exit status is 0 unless not one file could be graded. The
answer key is printed only with ``--show-key``.

template: an empty answer file for the whole quiz bank, or for a quiz the teacher composes
(``--ids``, ``--topics``, ``--sets``, ``--count N --seed S``), TOML with each prompt as a comment
(``--json``: ``{"_quiz": [ids], "questions": {id: {"kind", "prompt", "topics", "answer": ""}}}``).
The ``_quiz`` record lists the questions the file holds; grading marks only those.

The gradebook (``--csv``, ``--feedback``, ``--overrides``) is written by ``_gradebook.py``.
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

from attn_tui.commands import path_arg, print_json

NAME = "quiz"
MARKS = {"correct": "✓", "partial": "◐", "empty": "·"}  # anything else: ✗
OVERRIDDEN = "*"  # a mark the teacher set by hand (--overrides)


def add_parser(subparsers) -> argparse.ArgumentParser:
    from attn_tui.i18n import t

    parser = subparsers.add_parser(
        NAME,
        help=t("quiz.cli.help", lang="en"),
        description="Grade self-check quiz answer files (one learner or a whole class), "
        "or print an empty answer file to fill in.",
    )
    sub = parser.add_subparsers(dest="action", metavar="ACTION", required=True)
    grade = sub.add_parser(
        "grade",
        help="grade one answer file, or every answer file in a folder",
        description="Grade an answer file (TOML or JSON: question id -> answer), or every "
        "*.toml / *.json file in a folder. A broken file is reported by name and line and "
        "the rest are still graded; exit 0 unless nothing could be graded.",
    )
    grade.add_argument("answers", type=path_arg, metavar="ANSWERS", help="a file or a folder")
    grade.add_argument("--json", action="store_true", help="machine-readable output")
    grade.add_argument("--show-key", action="store_true", help="also print the answer key")
    _add_gradebook_options(grade)
    template = sub.add_parser(
        "template",
        help="print an empty answer file for the whole quiz bank",
        description="Print an empty answer file: TOML with each question's prompt as a "
        "comment, or with --json an object of questions.",
    )
    # Not "--lang": a subcommand's default would overwrite the global --lang.
    template.add_argument(
        "--lang", dest="template_lang", choices=("zh", "en"), help="language of the prompts"
    )
    template.add_argument("--json", action="store_true", help="a JSON object instead of TOML")
    _add_compose_options(template)
    return parser


def _ids(text: str) -> list[str]:
    """``a,b c`` → [a, b, c]: commas (also full-width) or spaces between names."""
    return [x for x in text.replace("，", ",").replace(",", " ").split() if x]


def _add_compose_options(template: argparse.ArgumentParser) -> None:
    template.add_argument(
        "--ids", type=_ids, default=[], metavar="ID,...", help="only these questions, in this order"
    )
    template.add_argument(
        "--topics",
        type=_ids,
        default=[],
        metavar="TOPIC,...",
        help="the questions tagged with any of these topics",
    )
    template.add_argument(
        "--sets",
        type=_ids,
        default=[],
        metavar="BANK,...",
        help="only these quiz banks (set ids; e.g. your own from --exercises)",
    )
    template.add_argument(
        "--count",
        type=int,
        metavar="N",
        help="draw N of the chosen questions, spread across topics",
    )
    template.add_argument("--seed", type=int, metavar="S",
                          help="with --count: the draw's seed (same seed, same quiz)")  # fmt: skip


def _add_gradebook_options(grade: argparse.ArgumentParser) -> None:
    grade.add_argument(
        "--csv",
        type=path_arg,
        metavar="FILE",
        help="write a gradebook: one row per student (total, percent, each "
        "question, each topic); broken files listed with their fault",
    )
    grade.add_argument(
        "--feedback",
        type=path_arg,
        metavar="DIR",
        help="write one feedback file per student into DIR",
    )
    grade.add_argument(
        "--overrides",
        type=path_arg,
        metavar="FILE",
        help="the teacher's own marks (TOML: [student] question = mark, or "
        '{ mark = 0.5, comment = "..." })',
    )
    grade.add_argument(
        "--groups",
        action="store_true",
        help="also show each written question's answers in groups of alike answers, to "
        "mark a group once",
    )
    grade.add_argument(
        "--write-groups",
        type=path_arg,
        metavar="FILE",
        help="write the groups of written answers as an overrides file to fill in (one "
        "mark per group; apply it with --overrides)",
    )
    grade.add_argument("--key-for", type=_ids, metavar="ID,...",
                       help="feedback files give the reference answer for these questions "
                       "only (default: every question with --show-key, none without)")  # fmt: skip


def run(args: argparse.Namespace) -> int:
    from attn_tui import paths

    library = paths.load_all(args.exercises, paths.data_dir(args.data_dir))
    bank = library.quiz_exercises
    if args.action == "template":
        return _template(args, bank)
    return _grade(args, bank)


# -- template -------------------------------------------------------------------------------


def _template(args: argparse.Namespace, bank) -> int:
    from attn_tui.core.quiz import RECORD_KEY, compose, file_instance, toml_key
    from attn_tui.i18n import get_lang, t

    lang = args.template_lang or get_lang()
    bank = compose(bank, args.ids, args.topics, args.sets, args.count, args.seed)
    record = [ex.id for ex in bank]
    if args.json:
        questions = {}
        for ex in bank:
            entry = {
                "kind": ex.kind,
                "prompt": file_instance(ex).prompt(lang),
                "topics": list(ex.topics),
                "answer": "",
            }
            if ex.choices:
                entry["choices"] = {c.id: c.text.get(lang) for c in ex.choices}
            questions[ex.id] = entry
        data = {RECORD_KEY: record, "questions": questions}
        print(json.dumps(data, ensure_ascii=False, indent=2))
        return 0
    out = [_comment(t("quiz.tpl.header", lang=lang)), _comment(t("quiz.tpl.forms", lang=lang)), ""]
    out += [_comment(t("classroom.tpl.record", lang=lang, count=len(record))),
            f"{RECORD_KEY} = {_toml_list(record)}", ""]  # fmt: skip
    for ex in bank:
        out.append(_comment(file_instance(ex).prompt(lang)))
        for c in ex.choices:
            out.append(_comment(f"  {c.id}. {c.text.get(lang)}"))
        kind = t(f"quiz.kind.{ex.kind}", lang=lang)
        topics = t("ex.list_sep", lang=lang).join(
            t(f"quiz.topic.{x}", lang=lang) for x in ex.topics
        )
        out.append(_comment(t("quiz.tpl.kind", lang=lang, kind=kind, topics=topics)))
        out.append(f'{toml_key(ex.id)} = ""')
        out.append("")
    print("\n".join(out).rstrip("\n"))
    return 0


def _toml_list(ids: list[str]) -> str:
    """A TOML array, four ids to a line once it grows long."""
    items = [json.dumps(i, ensure_ascii=False) for i in ids]
    if len(items) <= 4:
        return "[" + ", ".join(items) + "]"
    rows = [", ".join(items[i : i + 4]) for i in range(0, len(items), 4)]
    return "[\n" + ",\n".join(f"    {r}" for r in rows) + ",\n]"


def _comment(text: str) -> str:
    """A TOML comment (which may hold no control character but a tab: a teacher's prompt with
    ESC in it would make every answer file made from the template unreadable)."""
    from attn_tui.core.format import visible

    return "\n".join(f"# {line}".rstrip() for line in visible(text).splitlines())


# -- grade ----------------------------------------------------------------------------------


def _grade(args: argparse.Namespace, bank) -> int:
    from attn_tui.commands import _groups
    from attn_tui.core.parse import InputError
    from attn_tui.core.quiz import answer_files, grade_path, summarise

    path: Path = args.answers
    if not path.exists():
        raise InputError("quiz.missing_path", path=str(path))
    if args.write_groups is not None and _groups.taken(args.write_groups):
        raise InputError("groups.exists", path=str(args.write_groups))  # before any grading
    if path.is_dir() and not answer_files(path):
        raise InputError("quiz.cli.none", path=str(path))
    learners = grade_path(bank, path)
    students = _apply_overrides(args, learners)
    if students is None:
        return 2
    learners = [s.learner for s in students]
    bank = _graded_questions(bank, students)
    summary = summarise(bank, learners)
    groups = _groups.class_groups(students) if args.groups or args.write_groups else None
    if args.json:
        data = _as_json(bank, learners, summary, args.show_key, students)
        data.update(_groups.json_views(args, students, groups))
        print_json(data)
    elif path.is_dir():
        _print_class(bank, learners, summary, args.show_key, students)
        _groups.print_views(_console(), args, students, groups)
    else:
        _print_learner(bank, learners[0], args.show_key, students[0])
        _groups.print_views(_console(), args, students, groups)
    if not _write_gradebook(args, path, students, groups):
        return 2
    return 0 if summary.graded else 1


# -- the gradebook: overrides, --csv, --feedback --------------------------------------------


def _apply_overrides(args: argparse.Namespace, learners):
    """The class as gradebook students, with ``--overrides`` applied; None (after printing
    every fault, as validate does: each on stdout, one line on stderr) when it has any."""
    import sys

    from attn_tui.core.answer_groups import expand_group_marks, read_marks
    from attn_tui.core.exercises.loader import display_path
    from attn_tui.core.gradebook import apply_overrides
    from attn_tui.i18n import t

    overrides, marks, problems = [], [], []
    if args.overrides is not None:
        overrides, marks, problems = read_marks(args.overrides)
    if not problems:
        source = display_path(args.overrides) if args.overrides is not None else ""
        students, problems = apply_overrides(learners, overrides, source)
    if not problems and marks:  # each group's mark, as a mark for each of its students
        by_group, problems = expand_group_marks(marks, students, overrides, source)
        if not problems:
            students, problems = apply_overrides(learners, overrides + by_group, source)
    if problems:
        for problem in problems:
            print(problem.format(t))
        print(t("classroom.ov.none_applied"), file=sys.stderr)  # stderr: one line (issue 12)
        return None
    return students


def _graded_questions(bank, students):
    """The questions the class's files were marked on (bank order when nothing was graded)."""
    from attn_tui.core.gradebook import questions_of

    ids = questions_of(students)
    if not ids:
        return bank
    by_id = {ex.id: ex for ex in bank}
    return [by_id[qid] for qid in ids]


def _write_gradebook(args: argparse.Namespace, path: Path, students, groups=None) -> bool:
    """Write ``--csv`` and ``--feedback``; False when a feedback file was refused (the others
    are written, and the refused ones named on the one line of stderr)."""
    import sys

    from attn_tui.commands import _gradebook
    from attn_tui.core.format import shorten, visible
    from attn_tui.core.quiz import answer_files
    from attn_tui.i18n import t

    protect = answer_files(path) if path.is_dir() else [path]
    said = []  # all said on one line: stderr is at most one line (issue 12)
    refused: list = []
    if args.csv is not None:
        _gradebook.write_csv(args.csv, students, protect)
        said.append(t("classroom.wrote_csv", path=args.csv, rows=len(students)))
    if args.feedback is not None:
        if args.key_for is not None:
            key_for = set(args.key_for)
        else:
            key_for = None if args.show_key else set()
        try:
            written = _gradebook.write_feedback(args.feedback, students, key_for, protect)
        except _gradebook.FeedbackRefused as partly:
            written, refused = partly.written, partly.refused
        said.append(t("classroom.wrote_feedback", path=args.feedback, count=len(written)))
        if refused:
            shown = t("ex.list_sep").join(f"{name} ({why})" for name, why in refused[:5])
            more = len(refused) - 5
            if more > 0:
                shown += t("classroom.fb.refused_more", count=more)
            said[-1] += t("classroom.fb.refused", count=len(refused), files=shown)
    if args.write_groups is not None and groups is not None:
        from attn_tui.commands._groups import write_groups_file

        count = write_groups_file(args.write_groups, groups[0], protect)
        said.append(t("groups.wrote", path=args.write_groups, groups=count))
    if said:
        print(shorten(visible(t("classroom.said_sep").join(said), True), 2000), file=sys.stderr)
    return not refused


def _pct(fraction: float) -> int:
    return round(100 * fraction)


def _num(x: float) -> str:
    """Marks as a teacher writes them: 7, 7.5, 6.67."""
    return f"{x:.2f}".rstrip("0").rstrip(".")


def _key(ex) -> str:
    from attn_tui.core.quiz import file_instance
    from attn_tui.i18n import t

    return file_instance(ex).answer_text(t)


def _as_json(bank, learners, summary, show_key: bool, students=()) -> dict:
    from attn_tui.i18n import get_lang, t

    lang = get_lang()
    marked = {id(s.learner): s for s in students if s.overrides}
    names = {id(s.learner): s.name for s in students}

    def learner(r) -> dict:
        out: dict = {
            "student": names.get(id(r), r.file.path.stem),
            "file": r.file.name,
            "ok": r.ok,
            "problems": [p.to_dict(t) for p in r.file.problems],
        }
        if r.result is None:
            return out
        res = r.result
        out.update(
            score=res.score,
            max=res.total,
            percent=_pct(res.fraction),
            unanswered=r.unanswered,
            per_topic={k: {"score": s, "max": m} for k, (s, m) in res.per_topic.items()},
            missed=list(res.missed),
            questions=[
                {
                    "id": a.id,
                    "score": a.grade.score,
                    "max": 1.0,
                    "status": a.grade.status,
                    "found": a.grade.found_ideas(lang),
                    "missing": a.grade.missing_ideas(lang),
                    # written answers: what became of each idea, and whether the grader was
                    # unsure (a teacher may want to read those); never the key itself
                    "ideas": [
                        {"idea": r.idea.text.get(lang), "state": r.state} for r in a.grade.ideas
                    ],
                    "uncertain": a.grade.uncertain,
                }
                for a in res.answered
            ],
        )
        if id(r) in marked:  # the teacher's marks, with the grader's own beside them
            _mark_json(out, marked[id(r)])
        return out

    data: dict = {
        "files": (learner(r) for r in learners),  # an iterator: print_json streams it
        "totals": {
            "files": len(learners),
            "graded": summary.graded,
            "broken": summary.broken,
            "questions": len(bank),
            "mean_percent": _pct(summary.mean_fraction),
            "per_question": summary.per_question,
            "per_topic": {k: {"score": s, "max": m} for k, (s, m) in summary.per_topic.items()},
        },
    }
    if show_key:
        data["key"] = {ex.id: _key(ex) for ex in bank}
    return data


def _mark_json(out: dict, student) -> None:
    out["overridden"] = {
        q: {"mark": ov.mark, "auto": student.auto[q], "comment": ov.comment}
        for q, ov in student.overrides.items()
    }
    for question in out["questions"]:
        if question["id"] in student.overrides:
            question["overridden"] = True


def _console():
    from rich.console import Console

    # No markup: file names ("[bold]x.toml") and answers ("[/]") are printed as they are.
    return Console(highlight=False, markup=False, width=min(Console().width, 100))


def _topic(tag: str) -> str:
    from attn_tui.i18n import t

    return t(f"quiz.topic.{tag}")


def _print_problems(console, learners) -> None:
    from attn_tui.i18n import t

    broken = [p for r in learners if not r.ok for p in r.file.problems]
    warnings = [p for r in learners if r.ok for p in r.file.problems]
    if broken:
        console.print(t("quiz.cli.broken"), style="bold red")
        for p in broken:
            console.print(p.format(t), markup=False, soft_wrap=True)
    if warnings:
        console.print(t("quiz.cli.warnings"), style="yellow")
        for p in warnings:
            console.print(p.format(t), markup=False, soft_wrap=True)


def _topic_table(per_topic: dict[str, tuple[float, float]], title: str, mean: bool = False):
    from rich.table import Table

    from attn_tui.i18n import t
    from attn_tui.render.steps import bar

    table = Table(title=title, title_justify="left")
    table.add_column(t("quiz.cli.col_topic"))
    table.add_column(t("quiz.cli.col_mean") if mean else t("quiz.cli.col_score"), justify="right")
    table.add_column("", no_wrap=True)
    for tag, (s, m) in sorted(per_topic.items(), key=lambda kv: (kv[1][0] / kv[1][1], kv[0])):
        shown = f"{_pct(s / m)}%" if mean else f"{_num(s)}/{_num(m)}"
        table.add_row(_topic(tag), shown, bar(s / m, 12))
    return table


def _print_learner(bank, r, show_key: bool, student=None) -> None:
    from rich.table import Table

    from attn_tui.commands._gradebook import override_note
    from attn_tui.core.format import visible
    from attn_tui.i18n import t

    console = _console()
    _print_problems(console, [r])
    if r.result is None:
        return
    res = r.result
    console.print(
        t("quiz.cli.learner", file=visible(r.file.name, True), score=_num(res.score),
          total=_num(res.total), percent=_pct(res.fraction)),
        style="bold", markup=False,
    )  # fmt: skip
    console.print(_topic_table(res.per_topic, t("quiz.cli.by_topic")))
    table = Table(title=t("quiz.cli.by_question"), title_justify="left")
    table.add_column("#", justify="right")
    table.add_column(t("quiz.cli.col_question"))
    table.add_column(t("quiz.cli.col_score"), justify="right")
    table.add_column(t("quiz.cli.col_feedback"))
    if show_key:
        table.add_column(t("quiz.cli.col_answer"))
    for i, a in enumerate(res.answered, 1):
        lines = a.grade.lines(t)
        if a.grade.status == "empty":  # "type one" speaks to a screen, not to a file
            lines[0] = t("quiz.no_answer")
        score = _num(a.grade.score)
        if student is not None and a.id in student.overrides:
            lines.insert(0, override_note(student.overrides[a.id], student.auto[a.id]))
            score += OVERRIDDEN
        row = [str(i), a.id, score, visible("\n".join(lines))]
        if show_key:
            row.append(_key(a.inst.exercise))
        table.add_row(*row)
    console.print(table)


def _print_class(bank, learners, summary, show_key: bool, students=()) -> None:
    from rich.table import Table

    from attn_tui.core.format import visible
    from attn_tui.i18n import t

    console = _console()
    marked = {id(s.learner): s for s in students if s.overrides}
    names = {id(s.learner): s.name for s in students}  # the one name each student has
    sep = t("ex.list_sep")
    table = Table(title_justify="left")
    table.add_column(t("classroom.csv.student"))
    for key, justify in (("col_score", "right"), ("col_percent", "right"),
                         ("col_weakest", "left")):  # fmt: skip
        table.add_column(t(f"quiz.cli.{key}"), justify=justify)
    marks = Table(title_justify="left")
    marks.add_column(t("classroom.csv.student"))
    marks.add_column(t("quiz.cli.col_questions", first=1, last=len(bank)), no_wrap=True)
    for r in learners:
        if r.result is None:
            continue
        res = r.result
        name = visible(names.get(id(r), r.file.path.name), True)
        table.add_row(
            name,  # the folder is given once; problems keep the path
            f"{_num(res.score)}/{_num(res.total)}" + (OVERRIDDEN if id(r) in marked else ""),
            f"{_pct(res.fraction)}%",
            sep.join(_topic(x) for x in res.weakest_topics(3)),
        )
        changed = marked[id(r)].overrides if id(r) in marked else {}
        signs = "".join(
            OVERRIDDEN if a.id in changed else MARKS.get(a.grade.status, "✗") for a in res.answered
        )
        rows = " ".join(signs[i : i + 10] for i in range(0, len(signs), 10))
        marks.add_row(name, rows)
    if summary.graded:
        console.print(table)
        console.print(marks)
        legend = "  ".join(f"{i}={ex.id}" for i, ex in enumerate(bank, 1))
        console.print(f"{t('quiz.cli.marks_legend')} {legend}", markup=False, style="dim")
        console.print(_topic_table(summary.per_topic, t("quiz.cli.by_topic"), mean=True))
        by_q = Table(title=t("quiz.cli.by_question"), title_justify="left")
        by_q.add_column("#", justify="right")
        by_q.add_column(t("quiz.cli.col_question"))
        by_q.add_column(t("quiz.cli.col_mean"), justify="right")
        if show_key:
            by_q.add_column(t("quiz.cli.col_answer"))
        for i, ex in enumerate(bank, 1):
            row = [str(i), ex.id, f"{_pct(summary.per_question[ex.id])}%"]
            if show_key:
                row.append(_key(ex))
            by_q.add_row(*row)
        console.print(by_q)
    if marked:
        _print_overrides(console, list(marked.values()))
    _print_problems(console, learners)
    console.print(
        t("quiz.cli.class", graded=summary.graded, broken=summary.broken,
          percent=_pct(summary.mean_fraction)),
        markup=False,
    )  # fmt: skip
    if not summary.graded:
        console.print(t("quiz.cli.nothing_graded"), style="bold red")


def _print_overrides(console, students) -> None:
    """Every mark the teacher set, beside the grader's own, one line each."""
    from attn_tui.commands._gradebook import override_note
    from attn_tui.core.format import visible
    from attn_tui.i18n import t

    console.print(t("classroom.overrides_title"), style="bold")
    for s in students:
        for q, ov in s.overrides.items():
            line = visible(f"  {s.name}  {q}  {override_note(ov, s.auto[q])}", True)
            console.print(line, markup=False, soft_wrap=True)
