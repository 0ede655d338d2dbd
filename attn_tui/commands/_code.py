"""The work behind ``attn-tui code``: loading, the store, printing reports, watch mode."""

from __future__ import annotations

import argparse
import math
import sys
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from attn_tui.core.errors import InputError


def _library(args: argparse.Namespace):
    from attn_tui import paths

    lib = paths.load_code(args.exercises, paths.data_dir(args.data_dir))
    if lib.broken:
        from attn_tui.core.format import visible
        from attn_tui.i18n import t

        print(visible(t("code.broken", count=len(lib.broken)), True), file=sys.stderr)
        for _, problems in lib.broken:
            for p in problems[:5]:
                print("  " + p.format(t), file=sys.stderr)
    return lib


def _folder(args: argparse.Namespace, given: Path | None) -> Path:
    from attn_tui import paths
    from attn_tui.core.coding.workspace import default_folder

    return Path(given) if given is not None else default_folder(paths.data_dir(args.data_dir))


def _exercise(lib, exercise_id: str):
    ex = lib.get(exercise_id)
    if ex is None:
        known = ", ".join(e.id for e in lib.exercises)
        raise InputError("code.unknown_exercise", id=exercise_id, known=known)
    return ex


@contextmanager
def _store(args: argparse.Namespace):
    """The progress store, or a stand-in that keeps nothing (said once on stderr)."""
    from attn_tui import paths
    from attn_tui.core.progress import Guarded, ProgressStore, StoreError
    from attn_tui.i18n import describe, t

    said = []

    def warn(err: StoreError, writing: bool) -> None:
        if not said:
            said.append(err)
            print(t("store.cli", reason=describe(err)), file=sys.stderr)

    try:
        store = ProgressStore.open(paths.data_dir(args.data_dir))
    except StoreError as err:
        warn(err, False)
        store = None
    guarded = Guarded(store, warn)
    try:
        yield guarded
    finally:
        guarded.close()


def _status_word(status) -> str:
    from attn_tui.i18n import t

    if status.passed:
        return t("code.cli.status.passed" if status.unaided else "code.cli.status.passed_seen")
    if status.attempts:
        return t("code.cli.status.tried", count=status.attempts)
    return t("code.cli.status.new")


def listing(args: argparse.Namespace) -> int:
    from attn_tui.core.coding import progress
    from attn_tui.core.format import visible
    from attn_tui.i18n import get_lang, t

    lib = _library(args)
    folder = _folder(args, args.dir)
    with _store(args) as store:
        done = progress.statuses(store, lib.exercises)
    if args.json:
        from attn_tui.commands import print_json

        print_json({
            "folder": str(folder),
            "exercises": [{
                "id": e.id, "set": e.set_id, "title_zh": e.title.zh, "title_en": e.title.en,
                "check": e.check, "function": e.function, "file": e.file,
                "exists": (folder / e.file).exists(), "passed": done[e.id].passed,
                "unaided": done[e.id].unaided, "attempts": done[e.id].attempts,
                "solution_seen": done[e.id].solution_seen,
            } for e in lib.exercises],
        })  # fmt: skip
        return 0
    from rich.console import Console
    from rich.table import Table

    table = Table(box=None, padding=(0, 2), header_style="bold")
    for col in ("id", "title", "file", "status"):
        table.add_column(t(f"code.cli.col.{col}"))
    for e in lib.exercises:
        status = done[e.id]
        style = "green" if status.passed else ("yellow" if status.attempts else "")
        table.add_row(e.id, e.title.get(get_lang()), e.file, _status_word(status), style=style)
    console = Console()
    console.print(table)
    key = "code.cli.folder" if folder.is_dir() else "code.cli.no_folder"
    console.print(visible(t(key, folder=folder)), highlight=False)
    return 0


def init(args: argparse.Namespace) -> int:
    from attn_tui.core.coding import progress, workspace
    from attn_tui.core.format import visible
    from attn_tui.i18n import t

    lib = _library(args)
    folder = _folder(args, args.folder)
    made = workspace.init(folder, lib)
    created = sum(m.created for m in made)
    print(visible(t("code.cli.init", made=created, folder=folder, kept=len(made) - created)))
    with _store(args) as store:
        now = progress.current(lib.exercises, progress.statuses(store, lib.exercises))
    if now is not None:
        import shlex

        # the next commands as they must be typed: told the data and the folder given here
        app = "attn-tui"
        if args.data_dir is not None:
            app += f" --data-dir {shlex.quote(str(args.data_dir))}"
        check, watch = f"{app} code check {now.id}", f"{app} code watch"
        if args.folder is not None:
            where = shlex.quote(str(folder))
            check, watch = f"{check} --dir {where}", f"{watch} {where}"
        print(visible(t("code.cli.next", file=folder / now.file, check=check, watch=watch)))
    return 0


# -- a check -----------------------------------------------------------------------------------


def _finite(a: Any) -> Any:
    """An array as JSON lists, with nan and ±inf as strings (JSON has neither)."""
    import numpy as np

    if a is None:
        return None
    arr = np.asarray(a)
    if arr.dtype == bool:
        return arr.tolist()

    def fix(x: Any) -> Any:
        if isinstance(x, list):
            return [fix(v) for v in x]
        if isinstance(x, float) and not math.isfinite(x):
            return "nan" if math.isnan(x) else ("inf" if x > 0 else "-inf")
        return x

    return fix(arr.tolist())


def report_json(report, exercise) -> dict[str, Any]:
    from attn_tui.i18n import t

    f = report.failure
    failure = None
    if f is not None:
        failure = {
            "case": f.index + 1, "name": f.case.name,
            "label": t(f"code.case.{f.case.name}", **f.case.info), "reason": f.reason,
            "output": f.output or None,
            "inputs": {name: _finite(v) if hasattr(v, "shape") else v for name, v in f.inputs},
            "expected": _finite(f.expected), "received": _finite(f.received),
            "differ": _finite(f.differ), "error": f.error, "changed": list(f.changed),
        }  # fmt: skip
    return {
        "exercise": exercise.id, "file": report.file, "passed": report.passed,
        "cases": report.total, "ran": report.ran, "stopped": report.stopped,
        "where": [{"line": line, "function": fn} for line, fn in report.where],
        "seconds": round(report.seconds, 4), "failure": failure,
        "diagnoses": [{"code": d.code, "message": t(f"code.mistake.{d.code}", **d.params)}
                      for d in report.diagnoses],
        "load_error": report.load_error, "missing": report.missing,
        "defined": list(report.defined), "output": report.output,
        "expected_by": "finite differences" if report.by_differences else "reference",
        "landlock": report.landlock,
    }  # fmt: skip


def print_report(report, exercise, file: Path) -> None:
    from rich.console import Console

    from attn_tui.render.code_report import render

    Console(highlight=False).print(render(report, exercise, file.name))


def check(args: argparse.Namespace) -> int:
    from attn_tui.core.coding import progress
    from attn_tui.core.coding.engine import check_file

    lib = _library(args)
    ex = _exercise(lib, args.id)
    file = Path(args.file) if args.file is not None else _folder(args, args.dir) / ex.file
    if not file.is_file():
        raise InputError("code.cli.no_file", file=str(file))
    report = check_file(ex, file)
    with _store(args) as store:
        progress.record_check(store, ex, report, progress.status(store, ex).hints)
    if args.json:
        from attn_tui.commands import print_json

        print_json(report_json(report, ex))
    else:
        print_report(report, ex, file)
    return 0 if report.passed else 1


def hint(args: argparse.Namespace) -> int:
    from attn_tui.core.format import visible
    from attn_tui.i18n import get_lang, t

    ex = _exercise(_library(args), args.id)
    if not ex.hints:
        print(t("code.no_hints"))
        return 0
    try:
        n = min(max(1, int(str(args.n))), len(ex.hints))
    except ValueError:
        raise InputError("code.bad_count", key="N", value=str(args.n), most=len(ex.hints)) from None
    print(visible(t("code.hint", n=n, total=len(ex.hints), text=ex.hints[n - 1].get(get_lang()))))
    if n < len(ex.hints):
        print(t("code.cli.hint_more", id=ex.id, n=n + 1))
    return 0


def solution(args: argparse.Namespace) -> int:
    from attn_tui.core import files
    from attn_tui.core.coding import progress
    from attn_tui.core.coding.loader import SOURCE_LIMIT
    from attn_tui.i18n import get_lang, t

    ex = _exercise(_library(args), args.id)
    with _store(args) as store:
        status = progress.status(store, ex)
        if not status.may_see_solution:
            print(t("code.solution_locked"))
            return 1
        progress.record_solution(store, ex, status.hints)
    print(t("code.solution_title", file=ex.file))
    print(files.read_text(ex.solution, SOURCE_LIMIT))
    print(t("code.explanation") + t("code.colon") + ex.explanation.get(get_lang()))
    return 0


def validate(args: argparse.Namespace) -> int:
    from attn_tui.core.coding.validate import validate as check_set
    from attn_tui.core.exercises.loader import display_path
    from attn_tui.i18n import t

    results = []
    faults = 0
    for path in args.paths:
        loaded, problems = check_set(Path(path), run=not args.no_run)
        faults += len(problems) + (loaded is None and not problems)
        results.append((path, loaded, problems))
    if args.json:
        from attn_tui.commands import print_json

        print_json({"files": [{
            "path": display_path(Path(p)), "ok": loaded is not None and not problems,
            "exercises": len(loaded.exercises) if loaded else 0,
            "problems": [x.to_dict(t) for x in problems],
        } for p, loaded, problems in results]})  # fmt: skip
        return 1 if faults else 0
    for path, loaded, problems in results:
        for p in problems:
            print(p.format(t))
        if loaded is not None and not problems:
            key = "code.cli.valid_static" if args.no_run else "code.cli.valid"
            print(t(key, path=display_path(Path(path)), count=len(loaded.exercises)))
    return 1 if faults else 0


# -- watch mode --------------------------------------------------------------------------------


def watch(args: argparse.Namespace) -> int:
    from attn_tui.commands._code_watch import Watch

    lib = _library(args)
    folder = _folder(args, args.folder)
    if args.timeout is not None and not (math.isfinite(args.timeout) and args.timeout >= 0):
        raise InputError("code.bad_count", key="--timeout", value=str(args.timeout), most="∞")
    with _store(args) as store:
        return Watch(lib, folder, store, timeout=args.timeout).run()
