"""``attn-tui progress [--json]``: what has been done, set by set, and the quiz's best scores.
``attn-tui progress --reset [--yes]`` deletes it all, after asking on stdin; with no answer
(no terminal, end of input) nothing is deleted.
"""

from __future__ import annotations

import argparse
import json
import sys
import time

NAME = "progress"
YES = {"y", "yes", "是", "是的", "确定", "好", "对"}


def add_parser(subparsers) -> argparse.ArgumentParser:
    parser = subparsers.add_parser(
        NAME,
        help="show or reset learning progress",
        description="Show the progress kept in progress.db in the data directory, or reset it.",
    )
    parser.add_argument("--json", action="store_true", help="machine-readable output")
    parser.add_argument("--reset", action="store_true", help="delete all progress (asks first)")
    parser.add_argument("--yes", action="store_true", help="with --reset: do not ask")
    return parser


def run(args: argparse.Namespace) -> int:
    from attn_tui import paths
    from attn_tui.core.format import visible
    from attn_tui.core.progress import ProgressStore
    from attn_tui.i18n import t

    data = paths.data_dir(args.data_dir)
    with ProgressStore.open(data) as store:
        if store.moved_aside is not None:
            print(visible(t("ex.moved_aside", path=store.moved_aside), True), file=sys.stderr)
        if store.read_only and not args.reset:  # shown as it is; a reset says why it cannot
            print(visible(t("store.viewing", path=store.path), True), file=sys.stderr)
        if args.reset:
            return _reset(args, store)
        library = paths.load_all(args.exercises, data)
        rows = [(s, store.set_progress(s.id, s.ids)) for s in library.sets]
        quiz = {mode: store.quiz_attempts(mode) for mode in ("quick", "full")}
        if args.json:
            print(json.dumps(_as_json(store, rows, quiz), ensure_ascii=False, indent=2))
            return 0
        _print(store, rows, quiz)
    return 0


def _reset(args: argparse.Namespace, store) -> int:
    from attn_tui.core.format import visible
    from attn_tui.i18n import t

    if not args.yes:
        print(visible(t("ex.prog.reset_ask", path=store.path)), end="", flush=True)
        try:  # bounded: stdin may be /dev/zero, which never ends a line
            reply = sys.stdin.readline(4096) if sys.stdin is not None else ""
        except (OSError, ValueError):
            reply = ""
        if not reply.endswith("\n") or sys.stdin is None or not sys.stdin.isatty():
            print()  # end the question's line when the answer was not echoed
        if reply.strip().casefold() not in YES:
            print(t("ex.prog.reset_kept"))
            return 1
    store.reset()
    print(t("ex.prog.reset_done"))
    return 0


def _when(at: float | None) -> str | None:
    return None if at is None else time.strftime("%Y-%m-%d %H:%M", time.localtime(at))


def _as_json(store, rows, quiz) -> dict:
    from attn_tui.core.exercises.loader import display_path

    def attempt(a) -> dict:
        return {
            "score": a.score,
            "total": a.total,
            "fraction": a.fraction,
            "per_topic": {k: list(v) for k, v in a.per_topic.items()},
            "missed": list(a.missed),
            "at": _when(a.at),
        }

    return {
        "file": str(store.path),
        "moved_aside": str(store.moved_aside) if store.moved_aside else None,
        "sets": [
            {
                "id": s.id,
                "quiz": s.quiz,
                "title_zh": s.title.zh,
                "title_en": s.title.en,
                "path": display_path(s.path) if s.path else None,
                "total": p.total,
                "done": p.done,
                "solved": p.solved,
                "first_unsolved": p.first_unsolved,
                "last_visited": p.last_visited,
                "last_visited_at": _when(p.last_visited_at),
            }
            for s, p in rows
        ],
        "quiz": {
            mode: {
                "attempts": len(attempts),
                "best": attempt(max(attempts, key=lambda a: a.fraction)) if attempts else None,
                "last": attempt(attempts[-1]) if attempts else None,
            }
            for mode, attempts in quiz.items()
        },
    }


def _print(store, rows, quiz) -> None:
    from rich.console import Console
    from rich.table import Table

    from attn_tui.core.format import visible
    from attn_tui.i18n import get_lang, t

    lang = get_lang()
    console = Console(highlight=False, markup=False)  # a teacher's title may hold "[bold]"
    console.print(visible(t("ex.prog.file", path=store.path), True), soft_wrap=True)
    table = Table(title=t("ex.sets"), title_justify="left")
    for key in (
        "ex.cmd.col_id",
        "ex.cmd.col_title",
        "ex.prog.col_done",
        "ex.prog.col_solved",
        "ex.prog.col_next",
        "ex.prog.col_last",
    ):
        wide = key == "ex.cmd.col_title"
        table.add_column(t(key), no_wrap=True, overflow="ellipsis", max_width=24 if wide else None)
    for s, p in rows:
        table.add_row(
            s.id,
            visible(s.title.get(lang)),
            f"{p.done}/{p.total}",
            f"{p.solved}/{p.total}",
            p.first_unsolved or t("ex.prog.all_done"),
            _when(p.last_visited_at) or t("ex.never_visited"),
        )
    console.print(table)
    if not any(quiz.values()):
        console.print(t("ex.prog.quiz_none"))
    for mode, attempts in quiz.items():
        if attempts:
            best = max(a.fraction for a in attempts)
            console.print(
                t(
                    "ex.prog.quiz_line",
                    mode=t(f"ex.quiz.{mode}"),
                    count=len(attempts),
                    best=round(100 * best),
                    last=round(100 * attempts[-1].fraction),
                ),
                markup=False,
            )
