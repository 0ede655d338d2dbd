"""``attn-tui exercises validate [PATH ...] [--json]``, ``attn-tui exercises list [--json]`` and
``attn-tui exercises try ITEM --answer TEXT [--json]``.

validate checks files the way the app loads them and prints each fault as ``file:line: message``
(exit 1 when there is any); with no PATH it checks every shipped file plus any --exercises folder.
list shows every set and quiz bank the app would show, and the files that did not load;
``list SET`` shows that set's items with their ids, kinds and prompts.
try grades one answer to any item (``SET/ID`` or a quiz id; ``--answer -`` reads it from
stdin; ``--seed`` picks a generated item's draw) and prints the grade, the feedback and the
mistake the answer shows (``diagnoses`` in ``--json``); for a written item also the pass mark
and what became of each idea.
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

from attn_tui.commands import path_arg

NAME = "exercises"


def add_parser(subparsers) -> argparse.ArgumentParser:
    parser = subparsers.add_parser(
        NAME,
        help="check or list exercise files",
        description="Check exercise files (validate) or list the sets the app will show (list).",
    )
    sub = parser.add_subparsers(dest="action", metavar="ACTION", required=True)
    validate = sub.add_parser(
        "validate",
        help="check exercise files; faults as file:line: message, exit 1 if any",
        description="Check exercise files. Without PATH: every shipped file and --exercises DIR.",
    )
    validate.add_argument(
        "paths", nargs="*", type=path_arg, metavar="PATH", help="a file or folder"
    )
    validate.add_argument("--json", action="store_true", help="machine-readable output")
    validate.add_argument(
        "--strict",
        action="store_true",
        help="exit 1 on wording warnings too (a form the glossary says to avoid)",
    )
    listing = sub.add_parser(
        "list",
        help="list every exercise set and quiz bank, or one set's items with their ids",
        description="List every set and quiz bank the app shows; with SET, that set's items, "
        "each with the id `exercises try SET/ID` takes.",
    )
    listing.add_argument("set", nargs="?", metavar="SET", help="a set or quiz bank's id")
    listing.add_argument("--json", action="store_true", help="machine-readable output")
    trying = sub.add_parser(
        "try",
        help="grade one answer to any item: score, feedback, the mistake it shows",
        description="Grade one answer to any item, as the app would: a number, vector, matrix, "
        "choice, true/false or written answer. ITEM is SET/ID (a shipped set, a --exercises "
        "set, or one in the data directory) or a quiz question id. A generated item draws its "
        "numbers from --seed (default 0; the prompt with them is printed). --answer - reads "
        "the answer from standard input.",
    )
    trying.add_argument("item", metavar="ITEM", help="SET/ID or a quiz question id")
    trying.add_argument("--answer", required=True, metavar="TEXT", help="the answer ('-': stdin)")
    trying.add_argument(
        "--seed", type=_seed, default=None, metavar="N", help="a generated item's draw (0 …)"
    )
    trying.add_argument("--json", action="store_true", help="machine-readable output")
    return parser


def run(args: argparse.Namespace) -> int:
    if args.action == "validate":
        return _validate(args)
    if args.action == "try":
        return _try(args)
    return _list(args)


def _seed(text: str) -> int:
    """A draw's seed: a whole number 0 … 2³¹ − 1 (as the app draws them)."""
    if not text.strip().isdecimal() or len(text.strip()) > 10 or int(text) >= 2**31:
        raise argparse.ArgumentTypeError("a whole number from 0 to 2147483647")
    return int(text)


def _find_item(library, item: str):
    """``SET/ID`` in any set or quiz bank, or a bare id among the quiz questions."""
    if "/" in item:
        set_id, _, ex_id = item.partition("/")
        found = library.get(set_id)
        return found.exercise(ex_id) if found is not None else None
    return next((e for e in library.quiz_exercises if e.id == item), None)


ANSWER_LIMIT = 2**20  # characters of one written answer, from --answer or standard input


def _try(args: argparse.Namespace) -> int:
    import sys

    from attn_tui import paths
    from attn_tui.core.exercises.generators import instance
    from attn_tui.core.exercises.grading import grade
    from attn_tui.core.parse import InputError
    from attn_tui.i18n import get_lang, t

    library = paths.load_all(args.exercises, paths.data_dir(args.data_dir))
    ex = _find_item(library, args.item)
    if ex is None:
        raise InputError("ex.cmd.no_item", item=args.item)
    if args.seed is not None and not ex.generated:
        raise InputError("ex.cmd.seed_not_generated", item=args.item)
    # Read at most the limit (``--answer - < /dev/zero`` grew to gigabytes, never ending).
    answer = sys.stdin.read(ANSWER_LIMIT + 1) if args.answer == "-" else args.answer
    if len(answer) > ANSWER_LIMIT:
        raise InputError("ex.cmd.answer_too_long", limit=f"{ANSWER_LIMIT:,}")
    inst = instance(ex, (args.seed or 0) if ex.generated else None)
    g = grade(inst, answer)
    lang = get_lang()
    if args.json:
        data = {
            "id": ex.id,
            "set": ex.set_id,
            "kind": ex.kind,
            "seed": inst.seed,
            "prompt": inst.prompt(lang) if inst.generated else None,
            "status": g.status,
            "score": round(g.score, 4),
            "max": 1.0,
            "passed": g.correct,
            "feedback": g.lines(t, lang),
            "diagnoses": [d.to_dict(t, lang) for d in g.diagnoses],
        }
        if ex.kind == "text":
            data.update(
                {
                    "pass": ex.pass_mark,
                    "uncertain": g.uncertain,
                    "keyword_list": g.keyword_list,
                    "ideas": [
                        {
                            "idea": r.idea.text.get(lang),
                            "id": r.idea.id,
                            "state": r.state,
                            "matched": list(r.matched),
                            "against": r.against or None,
                            "weight": r.idea.weight,
                        }
                        for r in g.ideas
                    ],
                }
            )
        print(json.dumps(data, ensure_ascii=False, indent=2))
        return 0
    from attn_tui.core.format import visible

    if inst.generated:
        print(visible(t("ex.cmd.try_drawn", seed=inst.seed, prompt=inst.prompt(lang))))
    if ex.kind == "text":
        print(
            t(
                "ex.cmd.try_head",
                set=ex.set_id,
                id=ex.id,
                score=f"{g.score:.2f}".rstrip("0").rstrip(".") if g.score else "0",
                percent=round(100 * g.score),
                pass_mark=f"{ex.pass_mark:g}",
                passed=t("ex.example.pass" if g.correct else "ex.example.fail"),
            )
        )
        lines = g.lines(t)[1:]
    else:
        print(visible(t("ex.cmd.try_head_kind", set=ex.set_id, id=ex.id,
                        headline=g.headline(t))))  # fmt: skip
        lines = g.lines(t)[1:]
    for line in lines:
        print("  " + visible(line))
    return 0


def _validate(args: argparse.Namespace) -> int:
    from attn_tui import paths
    from attn_tui.core import files as bounded
    from attn_tui.core.course.lessons import is_lesson_file
    from attn_tui.core.course.lessons import load_file as load_lesson
    from attn_tui.core.exercises.examples import check_examples
    from attn_tui.core.exercises.loader import display_path, find_files, load_file
    from attn_tui.core.exercises.wording import lint_text
    from attn_tui.i18n import t

    if args.paths:
        targets = list(args.paths)
    else:  # the shipped sets and quiz banks, and the glossary beside them (checked as one)
        root = paths.shipped_exercises()
        targets = [root / "sets", root / "quiz", root / "course", root / GLOSSARY]
        targets += list(args.exercises)
    files: list[Path] = []
    problems = []
    for target in targets:
        found = find_files(target)
        if not found:
            problems.append(_missing(target, display_path))
        files += found
    report = []
    warnings = []
    owners: dict[str, str] = {}
    n_sets = n_exercises = 0
    library = None  # the sets a lesson's items are checked against, loaded once if needed
    code_ids: set[str] = set()
    n_lessons = 0
    for path in files:
        if is_lesson_file(path):
            if library is None:
                data = paths.data_dir(args.data_dir)
                library = paths.load_all(args.exercises, data)
                code_ids = {e.id for e in paths.load_code(args.exercises, data).exercises}
            lesson, found = load_lesson(path, library, code_ids=code_ids)
            n_lessons += lesson is not None
            problems += found
            report.append(_entry(path, found, None, t, display_path) | {"lesson": lesson.id
                          if lesson else None})  # fmt: skip
            continue
        if path.name == GLOSSARY:
            found = _check_glossary(path, display_path)
            problems += found
            report.append(_entry(path, found, None, t, display_path))
            continue
        loaded, found = load_file(path)
        warned = []
        if loaded is not None:
            try:  # the same bounded read the loader made (the file may have changed since)
                text = bounded.read_text(path, bounded.EXERCISE_FILE_LIMIT)
            except bounded.FileFault:
                text = ""
            warned = lint_text(text, display_path(path)) if text else []
            warnings += warned
        if loaded is not None:
            if loaded.id in owners:
                from attn_tui.core.exercises.model import Problem

                found = [
                    Problem(
                        display_path(path),
                        loaded.id_line,
                        "ex.duplicate_set",
                        {"id": loaded.id, "other": owners[loaded.id]},
                    )
                ]
            else:
                owners[loaded.id] = display_path(path)
                n_sets += 1
                n_exercises += len(loaded.exercises)
                # rubric tests: every example graded as its teacher expects
                found = list(found) + check_examples(loaded, display_path(path))
        problems += found
        report.append(_entry(path, found, loaded, t, display_path, warned))
    if args.json:
        print(
            json.dumps(
                {
                    "ok": not problems and not (args.strict and warnings),
                    "files": report,
                    "problems": [p.to_dict(t) for p in problems],
                    "warnings": [p.to_dict(t) for p in warnings],
                    "counts": {
                        "files": len(files),
                        "sets": n_sets,
                        "exercises": n_exercises,
                        "lessons": n_lessons,
                        "problems": len(problems),
                        "warnings": len(warnings),
                    },
                },
                ensure_ascii=False,
                indent=2,
            )
        )
    else:
        for p in problems:
            print(p.format(t))
        for w in warnings:
            print(f"{w.path}:{w.line}: {t('ex.cmd.warning')}: {w.message(t)}")
        if problems:
            bad_files = len({p.path for p in problems})
            print(t("ex.cmd.invalid", problems=len(problems), files=bad_files))
        else:
            print(t("ex.cmd.valid", files=len(files), sets=n_sets, exercises=n_exercises))
            if n_lessons:
                print(t("course.valid_lessons", count=n_lessons))
        if warnings:
            print(t("ex.cmd.warnings", count=len(warnings)))
    return 1 if problems or (args.strict and warnings) else 0


GLOSSARY = "glossary.toml"  # the one glossary: checked as a glossary, not as a set


def _check_glossary(path: Path, display_path):
    from attn_tui.core import files
    from attn_tui.core.exercises.glossary import GlossaryError, parse
    from attn_tui.core.exercises.model import Problem

    try:  # a bounded read, and the file faults (FIFO, nesting, long keys) before parse sees it
        text = files.read_text(path, files.EXERCISE_FILE_LIMIT)
        files.load_toml(text)
    except files.FileFault as fault:
        return [Problem.from_fault(display_path(path), fault)]
    try:
        parse(text)
    except GlossaryError as err:
        return [Problem(display_path(path), 1, "ex.glossary", {"detail": str(err)})]
    return []


def _entry(path, found, loaded, t, display_path, warned=()) -> dict:
    return {
        "path": display_path(path),
        "ok": not found,
        "set": loaded.id if loaded is not None else None,
        "quiz": loaded.quiz if loaded is not None else None,
        "exercises": len(loaded.exercises) if loaded is not None else 0,
        "problems": [p.to_dict(t) for p in found],
        "warnings": [p.to_dict(t) for p in warned],
    }


def _missing(target: Path, display_path):
    from attn_tui.core.exercises.model import Problem

    if target.exists():
        return Problem(display_path(target), 1, "ex.cmd.no_files", {"path": str(target)})
    return Problem(display_path(target), 1, "ex.unreadable", {"error": "No such file or directory"})


def _list(args: argparse.Namespace) -> int:
    from attn_tui import paths
    from attn_tui.core.exercises.loader import display_path
    from attn_tui.core.format import visible
    from attn_tui.i18n import get_lang, t

    lang = get_lang()
    data = paths.data_dir(args.data_dir)  # its exercises/ folder holds a teacher's sets too
    library = paths.load_all(args.exercises, data)
    if args.set is not None:
        return _list_items(args, library)

    def entry(s) -> dict:
        return {
            "id": s.id,
            "order": s.order,
            "quiz": s.quiz,
            "title": s.title.get(lang),
            "title_zh": s.title.zh,
            "title_en": s.title.en,
            "exercises": len(s.exercises),
            "generated": sum(e.generated for e in s.exercises),
            "topics": list(s.topics),
            "items": [e.id for e in s.exercises],
            "source": s.source,
            "path": display_path(s.path) if s.path else None,
        }

    if args.json:
        print(
            json.dumps(
                {
                    "sets": [entry(s) for s in library.sets],
                    "quizzes": [entry(s) for s in library.quizzes],
                    "broken": [
                        {
                            "path": display_path(b.path),
                            "source": b.source,
                            "problems": [p.to_dict(t) for p in b.problems],
                        }
                        for b in library.broken
                    ],
                },
                ensure_ascii=False,
                indent=2,
            )
        )
        return 0

    from rich.console import Console
    from rich.table import Table

    console = Console(highlight=False, markup=False)  # a teacher's title may hold "[bold]"
    for title, sets in ((t("ex.sets"), library.sets), (t("ex.cmd.quiz_banks"), library.quizzes)):
        if not sets:
            continue
        table = Table(title=title, title_justify="left")
        for key in ("col_order", "col_id", "col_title", "col_count", "col_source"):
            table.add_column(t(f"ex.cmd.{key}"), justify="right" if key == "col_count" else "left")
        for s in sets:
            table.add_row(
                str(s.order),
                s.id,
                visible(s.title.get(lang)),
                str(len(s.exercises)),
                t(f"ex.source.{s.source}"),
            )
        console.print(table)
    if library.broken:
        console.print(t("ex.cmd.broken"), style="bold red")
        for b in library.broken:
            console.print(
                b.problems[0].format(t) if b.problems else visible(display_path(b.path), True),
                markup=False,
                soft_wrap=True,
            )
            if len(b.problems) > 1:
                console.print(f"  (+{len(b.problems) - 1})", markup=False)
    first = (library.sets or library.quizzes or [None])[0]
    if first is not None:
        console.print(t("ex.cmd.list_items_how", example=first.id), soft_wrap=True)
    return 0


PROMPT_CELLS = 200  # of a prompt's first line, in `list SET` (the table cuts it to its width)


def _list_items(args: argparse.Namespace, library) -> int:
    """One set's items: the id `exercises try SET/ID` takes, the kind and the prompt's start
    (a generated item's with its first draw)."""
    from attn_tui.core.exercises.generators import instance
    from attn_tui.core.format import visible
    from attn_tui.core.parse import InputError
    from attn_tui.i18n import get_lang, t

    found = library.get(args.set)
    if found is None:
        known = t("ex.list_sep").join(s.id for s in library.sets + library.quizzes)
        raise InputError("ex.cmd.no_set", set=args.set, known=known)
    lang = get_lang()

    def prompt(ex) -> str:
        text = instance(ex, 0 if ex.generated else None).prompt(lang).strip()
        return visible(text.splitlines()[0] if text else "", True)[:PROMPT_CELLS]

    if args.json:
        items = [
            {"id": e.id, "kind": e.kind, "generated": e.generated, "topics": list(e.topics),
             "try": f"{found.id}/{e.id}", "prompt": prompt(e)}
            for e in found.exercises
        ]  # fmt: skip
        print(json.dumps({"set": found.id, "title": found.title.get(lang), "quiz": found.quiz,
                          "items": items}, ensure_ascii=False, indent=2))  # fmt: skip
        return 0
    from rich.cells import cell_len
    from rich.console import Console
    from rich.table import Table

    console = Console(highlight=False, markup=False)
    title = t("ex.cmd.items_title", set=found.id, title=visible(found.title.get(lang), True),
              count=len(found.exercises))  # fmt: skip
    rows = [
        (str(n), e.id, t(f"ex.cmd.kind.{e.kind}") + (t("ex.cmd.kind_generated") if e.generated
         else ""), prompt(e))
        for n, e in enumerate(found.exercises, 1)
    ]  # fmt: skip
    heads = ("#", t("ex.cmd.col_item"), t("ex.cmd.col_kind"))
    widths = [
        max(cell_len(c) for c in [head] + [r[i] for r in rows]) for i, head in enumerate(heads)
    ]
    # whole: only the prompt is cut, to the width the others leave (4 columns: 5 rules, 8 pads)
    left = max(10, console.width - sum(widths) - 13)
    table = Table(title=title, title_justify="left")
    for head, width in zip(heads, widths, strict=True):
        table.add_column(head, no_wrap=True, min_width=width)
    table.add_column(t("ex.cmd.col_prompt"), no_wrap=True, overflow="ellipsis", max_width=left)
    for row in rows:
        table.add_row(*row)
    console.print(table)
    example = found.exercises[0].id if found.exercises else "ID"
    console.print(t("ex.cmd.try_how", item=f"{found.id}/{example}"), soft_wrap=True)
    return 0
