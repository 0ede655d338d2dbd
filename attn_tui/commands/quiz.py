"""``attn-tui quiz grade ANSWERS [--json] [--show-key]`` and ``attn-tui quiz template``.

grade: a file is one learner (score, per topic, per question with the feedback); a folder is a
class (every ``*.toml`` / ``*.json`` in it: a table of files, marks per question, class means by
topic and by question). A file that cannot be read is reported as ``file:line: message`` and the
others are graded all the same; the exit status is 0 unless not one file could be graded. The
answer key is printed only with ``--show-key``.

template: an empty answer file for the whole quiz bank, TOML with each prompt as a comment
(``--json``: ``{"questions": {id: {"kind", "prompt", "topics", "answer": ""}}}``).
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

from attn_tui.commands import path_arg, print_json

NAME = "quiz"
MARKS = {"correct": "✓", "partial": "◐", "empty": "·"}  # anything else: ✗


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
    return parser


def run(args: argparse.Namespace) -> int:
    from attn_tui import paths

    library = paths.load_all(args.exercises, paths.data_dir(args.data_dir))
    bank = library.quiz_exercises
    if args.action == "template":
        return _template(args, bank)
    return _grade(args, bank)


# -- template -------------------------------------------------------------------------------


def _template(args: argparse.Namespace, bank) -> int:
    from attn_tui.core.quiz import file_instance, toml_key
    from attn_tui.i18n import get_lang, t

    lang = args.template_lang or get_lang()
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
        print(json.dumps({"questions": questions}, ensure_ascii=False, indent=2))
        return 0
    out = [_comment(t("quiz.tpl.header", lang=lang)), _comment(t("quiz.tpl.forms", lang=lang)), ""]
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


def _comment(text: str) -> str:
    return "\n".join(f"# {line}".rstrip() for line in text.splitlines())


# -- grade ----------------------------------------------------------------------------------


def _grade(args: argparse.Namespace, bank) -> int:
    from attn_tui.core.parse import InputError
    from attn_tui.core.quiz import answer_files, grade_path, summarise

    path: Path = args.answers
    if not path.exists():
        raise InputError("quiz.missing_path", path=str(path))
    if path.is_dir() and not answer_files(path):
        raise InputError("quiz.cli.none", path=str(path))
    learners = grade_path(bank, path)
    summary = summarise(bank, learners)
    if args.json:
        print_json(_as_json(bank, learners, summary, args.show_key))
    elif path.is_dir():
        _print_class(bank, learners, summary, args.show_key)
    else:
        _print_learner(bank, learners[0], args.show_key)
    return 0 if summary.graded else 1


def _pct(fraction: float) -> int:
    return round(100 * fraction)


def _num(x: float) -> str:
    """Marks as a teacher writes them: 7, 7.5, 6.67."""
    return f"{x:.2f}".rstrip("0").rstrip(".")


def _key(ex) -> str:
    from attn_tui.core.quiz import file_instance
    from attn_tui.i18n import t

    return file_instance(ex).answer_text(t)


def _as_json(bank, learners, summary, show_key: bool) -> dict:
    from attn_tui.i18n import get_lang, t

    lang = get_lang()

    def learner(r) -> dict:
        out: dict = {
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
    from attn_tui.widgets.steps import bar

    table = Table(title=title, title_justify="left")
    table.add_column(t("quiz.cli.col_topic"))
    table.add_column(t("quiz.cli.col_mean") if mean else t("quiz.cli.col_score"), justify="right")
    table.add_column("", no_wrap=True)
    for tag, (s, m) in sorted(per_topic.items(), key=lambda kv: (kv[1][0] / kv[1][1], kv[0])):
        shown = f"{_pct(s / m)}%" if mean else f"{_num(s)}/{_num(m)}"
        table.add_row(_topic(tag), shown, bar(s / m, 12))
    return table


def _print_learner(bank, r, show_key: bool) -> None:
    from rich.table import Table

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
        row = [str(i), a.id, _num(a.grade.score), visible("\n".join(lines))]
        if show_key:
            row.append(_key(a.inst.exercise))
        table.add_row(*row)
    console.print(table)


def _print_class(bank, learners, summary, show_key: bool) -> None:
    from rich.table import Table

    from attn_tui.core.format import visible
    from attn_tui.i18n import t

    console = _console()
    sep = t("ex.list_sep")
    table = Table(title_justify="left")
    for key, justify in (("col_file", "left"), ("col_score", "right"), ("col_percent", "right"),
                         ("col_weakest", "left")):  # fmt: skip
        table.add_column(t(f"quiz.cli.{key}"), justify=justify)
    marks = Table(title_justify="left")
    marks.add_column(t("quiz.cli.col_file"))
    marks.add_column(t("quiz.cli.col_questions", first=1, last=len(bank)), no_wrap=True)
    for r in learners:
        if r.result is None:
            continue
        res = r.result
        table.add_row(
            visible(r.file.path.name, True),  # the folder is given once; problems keep the path
            f"{_num(res.score)}/{_num(res.total)}",
            f"{_pct(res.fraction)}%",
            sep.join(_topic(x) for x in res.weakest_topics(3)),
        )
        signs = "".join(MARKS.get(a.grade.status, "✗") for a in res.answered)
        rows = " ".join(signs[i : i + 10] for i in range(0, len(signs), 10))
        marks.add_row(visible(r.file.path.name, True), rows)
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
    _print_problems(console, learners)
    console.print(
        t("quiz.cli.class", graded=summary.graded, broken=summary.broken,
          percent=_pct(summary.mean_fraction)),
        markup=False,
    )  # fmt: skip
    if not summary.graded:
        console.print(t("quiz.cli.nothing_graded"), style="bold red")
