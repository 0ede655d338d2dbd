"""``attn-tui code …``: the code exercises from the shell, for learners, scripts and teachers.

    code list [--dir DIR] [--json]          every exercise, its file and whether it passed
    code init [DIR]                         a workspace: one starter file per exercise
    code check ID [--file F] [--dir DIR] [--json]   run the check (exit 0 pass, 1 not yet)
    code watch [DIR] [--timeout S]          re-check the current exercise on every save
    code hint ID [N]                        the N-th hint (one at a time)
    code solution ID                        a solution, once there has been an attempt
    code validate FILE... [--no-run] [--json]   a teacher's code set: file:line faults

The workspace is ``<data dir>/code`` unless DIR names another. Each check's verdict is kept
in the progress store (``code:<set>`` in the attempts table); a store that cannot be used is
said once on stderr and the check goes on.
"""

from __future__ import annotations

import argparse

from attn_tui.commands import path_arg

NAME = "code"


def add_parser(subparsers) -> argparse.ArgumentParser:
    parser = subparsers.add_parser(
        NAME,
        help="code exercises: write attention in numpy, checked on every save",
        description="Code exercises: list, init, check, watch, hint, solution, validate.",
    )
    sub = parser.add_subparsers(dest="action", metavar="ACTION", required=True)
    listing = sub.add_parser("list", help="every code exercise and its status")
    listing.add_argument("--dir", type=path_arg, help="the workspace (default: <data dir>/code)")
    listing.add_argument("--json", action="store_true", help="machine-readable output")
    init = sub.add_parser("init", help="make a workspace with one starter file per exercise")
    init.add_argument(
        "folder",
        nargs="?",
        type=path_arg,
        metavar="DIR",
        help="where (default: <data dir>/code); existing files are kept",
    )
    check = sub.add_parser("check", help="check one exercise's file (exit 0: passed)")
    check.add_argument("id", metavar="ID", help="the exercise id (see code list)")
    check.add_argument("--file", type=path_arg, help="check this file instead of the workspace's")
    check.add_argument("--dir", type=path_arg, help="the workspace (default: <data dir>/code)")
    check.add_argument("--json", action="store_true", help="machine-readable output")
    watch = sub.add_parser("watch", help="re-check the current exercise on every save")
    watch.add_argument(
        "folder",
        nargs="?",
        type=path_arg,
        metavar="DIR",
        help="the workspace (default: <data dir>/code)",
    )
    watch.add_argument(
        "--timeout", type=float, metavar="S", help="stop watching after S seconds (for scripts)"
    )
    hint = sub.add_parser("hint", help="show one hint of an exercise")
    hint.add_argument("id", metavar="ID")
    hint.add_argument("n", nargs="?", default="1", metavar="N", help="which hint (1…)")
    solution = sub.add_parser("solution", help="show a solution (after an attempt)")
    solution.add_argument("id", metavar="ID")
    validate = sub.add_parser("validate", help="check a teacher's code set; faults as file:line")
    validate.add_argument("paths", nargs="+", type=path_arg, metavar="FILE")
    validate.add_argument(
        "--no-run",
        action="store_true",
        help="check the files only; do not run solutions and starters",
    )
    validate.add_argument("--json", action="store_true", help="machine-readable output")
    return parser  # fmt: skip


def run(args: argparse.Namespace) -> int:
    from attn_tui.commands import _code

    return {
        "list": _code.listing,
        "init": _code.init,
        "check": _code.check,
        "watch": _code.watch,
        "hint": _code.hint,
        "solution": _code.solution,
        "validate": _code.validate,
    }[args.action](args)


__all__ = ["NAME", "add_parser", "run"]
