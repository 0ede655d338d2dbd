"""``attn-tui progress [--json]``: what has been done, set by set, and the quiz's best scores;
the course path (lessons passed, the next one), mastery per topic and the reviews due.
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
        course = _course(store, library, paths.load_course(args.exercises, data, library))
        if args.json:
            out = _as_json(store, rows, quiz)
            out.update(course)
            print(json.dumps(out, ensure_ascii=False, indent=2))
            return 0
        _print(store, rows, quiz)
        _print_course(course)
    return 0


UPCOMING = 10  # reviews listed after the ones due now


def _course(store, library, course) -> dict:
    """The path (lessons done, the next one), mastery per topic and the reviews due, as
    plain data for --json and the tables."""
    from attn_tui.core.course import clock
    from attn_tui.core.course.mastery import mastery, topics_of
    from attn_tui.core.course.path import path_status
    from attn_tui.core.exercises.model import TOPICS

    now = clock.now()
    status = path_status(course, store.lessons())
    nxt = status.next
    levels = mastery(store.attempts(), topics_of(library.sets + library.quizzes), TOPICS)
    known = {(s.id, e.id) for s in library.sets + library.quizzes for e in s.exercises}
    cards = [c for c in store.cards() if (c.set_id, c.exercise_id) in known]  # reviewed here
    due = [c for c in cards if c.due <= now]
    later = [c for c in cards if c.due > now][:UPCOMING]

    def card(c) -> dict:
        return {"item": c.key, "due": clock.iso(c.due), "last": clock.iso(c.last_at),
                "reps": c.reps, "lapses": c.lapses}  # fmt: skip

    return {
        "now": clock.iso(now),
        "path": {
            "lessons": [s.to_dict() for s in status.lessons],
            "passed": status.passed,
            "total": len(status.lessons),
            "next": None
            if nxt is None
            else {
                "id": nxt.lesson.id,
                "number": nxt.number,
                "title_zh": nxt.lesson.title.zh,
                "title_en": nxt.lesson.title.en,
                "at_step": nxt.at_step,
            },
            "broken": [{"path": str(p), "problems": len(probs)} for p, probs in course.broken],
        },  # fmt: skip
        "mastery": [levels[topic].to_dict() for topic in TOPICS],
        "reviews": {
            "due": len(due),
            "items": [card(c) for c in due],
            "upcoming": [card(c) for c in later],
            "next_due": clock.iso(later[0].due) if later else None,
        },
    }


def _print_course(course: dict) -> None:
    """Three tables, each within 80 columns: the path, mastery, the reviews."""
    from rich.console import Console
    from rich.table import Table

    from attn_tui.core.format import visible
    from attn_tui.i18n import get_lang, t

    lang = get_lang()
    console = Console(highlight=False, markup=False, width=min(80, Console().width))
    path = course["path"]
    table = Table(title=t("course.prog.path", passed=path["passed"], total=path["total"]),
                  title_justify="left")  # fmt: skip
    table.add_column("#", justify="right")
    table.add_column(t("course.prog.col_lesson"), no_wrap=True, overflow="ellipsis", max_width=40)
    table.add_column(t("course.prog.col_state"), no_wrap=True)
    table.add_column(t("course.prog.col_steps"), no_wrap=True, justify="right")
    for lesson in path["lessons"]:
        table.add_row(
            str(lesson["number"]),
            visible(lesson[f"title_{lang}"]),
            t(f"course.state.{lesson['state']}"),
            f"{len(lesson['steps_done'])}/{len(lesson['steps'])}",
        )
    console.print(table)
    nxt = path["next"]
    console.print(
        t("course.prog.next", number=nxt["number"], title=visible(nxt[f"title_{lang}"]))
        if nxt
        else t("course.prog.all_passed")  # fmt: skip
    )
    started = [m for m in course["mastery"] if m["level"] > 0]
    if started:
        table = Table(title=t("course.prog.mastery"), title_justify="left")
        for key in ("col_topic", "col_level", "col_right", "col_days"):
            table.add_column(t(f"course.prog.{key}"), no_wrap=True)
        for m in started:
            topic, level = t(f"quiz.topic.{m['topic']}"), t(f"course.level.{m['name']}")
            table.add_row(topic, level, str(m["right"]), str(m["days"]))
        console.print(table)
    rest = len(course["mastery"]) - len(started)
    console.print(t("course.prog.not_started", count=rest))
    reviews = course["reviews"]
    console.print(t("course.prog.due", count=reviews["due"]))
    shown = reviews["items"][:20] + reviews["upcoming"]
    if shown:
        table = Table(title=t("course.prog.reviews"), title_justify="left")
        table.add_column(t("course.prog.col_item"), no_wrap=True, overflow="ellipsis", max_width=44)
        table.add_column(t("course.prog.col_due"), no_wrap=True)
        table.add_column(t("course.prog.col_reps"), no_wrap=True, justify="right")
        for c in shown:
            table.add_row(visible(c["item"]), c["due"][:16].replace("T", " "), str(c["reps"]))
        console.print(table)


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
    from rich.text import Text

    from attn_tui.core.format import visible
    from attn_tui.i18n import get_lang, t

    lang = get_lang()
    console = Console(highlight=False, markup=False)  # a teacher's title may hold "[bold]"
    console.print(visible(t("ex.prog.file", path=store.path), True), soft_wrap=True)
    table = Table(title=t("ex.sets"), title_justify="left")
    # Within 80 columns whole: the set's title wraps above its id (the name `exercises list SET`
    # and `exercises try SET/ID` take), and the figures, the next item's id and the date are
    # never cut (a squeezed table once showed "4/…" and "scores-pra…").
    table.add_column(t("ex.prog.col_set"), min_width=12, overflow="fold")
    for key in ("ex.prog.col_done", "ex.prog.col_solved", "ex.prog.col_next", "ex.prog.col_last"):
        table.add_column(t(key), no_wrap=True)
    for s, p in rows:
        name = Text(visible(s.title.get(lang)))
        name.append("\n" + visible(s.id, True), style="dim")
        table.add_row(
            name,
            f"{p.done}/{p.total}",
            f"{p.solved}/{p.total}",
            p.first_unsolved or t("ex.prog.all_done"),
            (_when(p.last_visited_at) or "")[:10] or t("ex.never_visited"),
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
