"""The front door: ``attn-tui`` opens the full-screen app; subcommands run headless.

Every fault a learner or a script can cause leaves as one line on stderr with exit status 2:
bad vectors and settings (:class:`InputError`), a progress store that cannot be used
(:class:`StoreError`), a usage error (argparse's, cut to one line), a file system refusal.
Nothing printed can break the terminal or the encoding: stdout and stderr escape what they
cannot encode (``PYTHONIOENCODING=ascii``, a byte that was not UTF-8), messages show control
characters as escapes, and a closed pipe (``| head``) ends the command quietly.

Also here, because they are about the command line rather than any one command: a negative
number in e-notation is a value, not an option (``-q -3e-05``); ``--lang``, ``--data-dir`` and
``--exercises`` work after the subcommand too; an option the command would silently ignore
(``progress --yes`` without ``--reset``) is refused.
"""

from __future__ import annotations

import argparse
import os
import re
import sys

from attn_tui import __version__, i18n
from attn_tui.commands import discover, path_arg
from attn_tui.core.errors import InputError

# Options that only mean something beside another one: (command, dest) → the dest it needs.
NEEDS = {("progress", "yes"): "reset", ("train", "seeds"): "compare"}
# Options that make others pointless: (command, dest) → the dests it cannot go with.
EXCLUDES = {("lab", "shapes"): ("x", "cross", "causal", "window", "seed")}
# The global options, accepted after the subcommand too (under these dests, merged after).
LATE = {"lang": "late_lang", "data_dir": "late_data_dir", "exercises": "late_exercises"}

THEMES = ("auto", "dark", "light", "ansi-dark", "ansi-light")  # attn_tui.app.LOOKS, and auto
_NEGATIVE_VALUE = re.compile(r"-\.?\d")  # "-3e-05", "-1,0", "-.5": never an option
_EXIT_INTERNAL = 70  # EX_SOFTWARE: a bug of ours, not the learner's


class _Parser(argparse.ArgumentParser):
    """argparse, but a usage error is one line (argparse prints the whole usage first)."""

    def error(self, message: str) -> None:  # type: ignore[override]
        from attn_tui.core.format import shorten, visible  # (not for a bare launch: ~5 ms)

        hint = i18n.t("cli.usage_hint", prog=self.prog)
        self.exit(2, f"{self.prog}: {shorten(visible(message, one_line=True))} {hint}\n")


def build_parser(commands: bool = True) -> argparse.ArgumentParser:
    """The whole parser, or (commands=False) the global options alone, for a bare launch."""
    parser = _Parser(
        prog="attn-tui",
        description="A terminal tutor for the attention mechanism. "
        "Run without a command to open the full-screen app.",
        add_help=commands,
    )
    parser.add_argument("--version", action="version", version=f"attn-tui {__version__}")
    parser.add_argument(
        "--lang", choices=i18n.LANGS, help="interface language (default: from the locale)"
    )
    parser.add_argument(
        "--data-dir",
        type=path_arg,
        help="where progress is kept (default: $ATTN_TUI_DATA_DIR or the user data directory)",
    )
    parser.add_argument(
        "--exercises", type=path_arg, action="append", default=[],
        help="a folder of extra exercise sets (may be repeated)",
    )  # fmt: skip
    parser.add_argument(
        "--theme", choices=THEMES,
        help="the app's colours: dark, light (a light terminal background), ansi-dark or "
        "ansi-light (the terminal's own 16 colours); default: $ATTN_TUI_THEME, else auto "
        "(light if $COLORFGBG says so; ANSI on a 16-colour terminal)",
    )  # fmt: skip
    if commands:
        sub = parser.add_subparsers(dest="command", metavar="COMMAND")
        for module in discover():
            command = module.add_parser(sub)
            command.set_defaults(run=module.run)
            _accept_globals_late(command)
    return parser


def _subparsers(parser: argparse.ArgumentParser) -> list[argparse.ArgumentParser]:
    return [
        p
        for action in parser._actions
        if isinstance(action, argparse._SubParsersAction)
        for p in action.choices.values()
    ]


def _accept_globals_late(parser: argparse.ArgumentParser) -> None:
    """``attn-tui calc --lang zh`` as well as ``attn-tui --lang zh calc`` (and the same for
    --data-dir, --exercises), in every subcommand and sub-subcommand. A command with an
    option of the same name (``quiz template --lang``) keeps its own."""
    options = (
        ("--lang", {"choices": i18n.LANGS}),
        ("--data-dir", {"type": path_arg}),
        ("--exercises", {"type": path_arg, "action": "append"}),
    )
    for flag, extra in options:
        dest = LATE[flag[2:].replace("-", "_")]
        try:
            parser.add_argument(flag, dest=dest, default=argparse.SUPPRESS,
                                help=argparse.SUPPRESS, **extra)  # fmt: skip
        except argparse.ArgumentError:
            pass  # the command's own option of that name wins
    for child in _subparsers(parser):
        _accept_globals_late(child)


def _values_not_options(argv: list[str]) -> list[str]:
    """``-q -3e-05`` as ``-q=-3e-05``: argparse reads "-3e-05" (and "-1,0") as an unknown
    option, because only plain "-1" and "-1.5" look like negative numbers to it."""
    out: list[str] = []
    for arg in argv:
        prev = out[-1] if out else ""
        if (
            _NEGATIVE_VALUE.match(arg)
            and prev.startswith("-")
            and prev != "--"
            and "=" not in prev
            and not _NEGATIVE_VALUE.match(prev)
            and "--" not in out
        ):
            out[-1] = f"{prev}={arg}"
        else:
            out.append(arg)
    return out


def parse(argv: list[str] | None) -> argparse.Namespace:
    """Global options first; the subcommands' parsers (which import every command module and
    the text catalogue) are built only when the command line names a command or asks for help,
    so a bare `attn-tui` reaches its first screen sooner."""
    argv = _values_not_options(sys.argv[1:] if argv is None else list(argv))
    known, rest = build_parser(commands=False).parse_known_args(argv)
    if rest or any(arg in ("-h", "--help") for arg in argv):
        args = build_parser().parse_args(argv)
        args.given = _given(argv)
    else:
        known.command = None
        known.given = set()
        args = known
    for dest, late in LATE.items():
        value = vars(args).pop(late, None)
        if value is not None:
            setattr(args, dest, (args.exercises + value) if dest == "exercises" else value)
    return args


def _given(argv: list[str]) -> set[str]:
    """The dests of the options actually typed (not defaulted), abbreviations included."""
    parser = build_parser()
    todo = [parser]
    while todo:
        p = todo.pop()
        for action in p._actions:
            if not isinstance(action, (argparse._HelpAction, argparse._SubParsersAction)):
                action.default = argparse.SUPPRESS
        todo += _subparsers(p)
    given, _ = parser.parse_known_args(argv)
    return set(vars(given))


def _option(dest: str) -> str:
    """The option a dest comes from, as typed: late_data_dir → --data-dir."""
    original = next((d for d, late in LATE.items() if late == dest), dest)
    return "--" + original.replace("_", "-")


def _check(args: argparse.Namespace) -> None:
    """Refuse what would otherwise be silently ignored or fail deep inside a command."""
    for (command, dest), needed in NEEDS.items():
        if args.command == command and dest in args.given and not getattr(args, needed, False):
            raise InputError("cli.needs", option=_option(dest), needed=_option(needed))
    if args.command is not None and getattr(args, "theme", None) is not None:
        raise InputError("cli.theme_for_app", command=f"attn-tui {args.command}")
    env_theme = os.environ.get("ATTN_TUI_THEME", "").strip().lower()
    if args.command is None and env_theme and env_theme not in THEMES:
        raise InputError("cli.bad_env_theme", value=env_theme, known=", ".join(THEMES))
    for (command, dest), others in EXCLUDES.items():
        if args.command == command and dest in args.given:
            for other in others:
                if other in args.given:
                    raise InputError("cli.excludes", option=_option(other), other=_option(dest))
    for dest, value in vars(args).items():
        if isinstance(value, str) and _not_utf8(value):
            raise InputError("cli.not_utf8", option=_option(dest))
    for folder in args.exercises:
        if not os.path.lexists(folder):
            raise InputError("cli.no_exercises", path=str(folder))
    if args.data_dir is not None or os.environ.get("ATTN_TUI_DATA_DIR"):
        from attn_tui import paths

        args.data_dir = paths.data_dir(args.data_dir)  # a "~nouser/x" fails here, once
    from attn_tui.core.course import clock

    clock.check_env()  # a bad ATTN_TUI_NOW is said once, at start, not at the first answer


def _not_utf8(text: str) -> bool:
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return True
    return False


def _launch(args: argparse.Namespace) -> int:
    """The full-screen app; it needs a terminal to read keys from (else it would wait forever).
    A crash inside the app ends with a non-zero status."""
    if sys.stdin is None or not sys.stdin.isatty():
        raise InputError("cli.needs_terminal")
    from attn_tui.app import AttnApp

    app = AttnApp(lang=i18n.get_lang(), data_dir=args.data_dir, extra_exercises=args.exercises,
                  theme=args.theme)  # fmt: skip
    app.run()
    return app.return_code or 0


def _lang_in(argv: list[str]) -> str | None:
    """--lang as typed, so that even a usage error speaks the chosen language."""
    for i, arg in enumerate(argv):
        value = arg[7:] if arg.startswith("--lang=") else None
        if arg == "--lang" and i + 1 < len(argv):
            value = argv[i + 1]
        if value in i18n.LANGS:
            return value
    return None


def _escape_what_cannot_be_encoded() -> None:
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.reconfigure(errors="backslashreplace")  # type: ignore[union-attr]
        except (AttributeError, ValueError, OSError):
            pass


def _stdout_to_devnull() -> None:
    """After a closed pipe: point stdout at /dev/null so the final flush cannot fail again."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError, AttributeError):
        pass


def say(command: str, message: str) -> None:
    from attn_tui.core.format import shorten, visible

    print(f"{command}: {shorten(visible(message, one_line=True))}", file=sys.stderr)


def main(argv: list[str] | None = None) -> int:
    from attn_tui.core.progress import StoreError

    argv = sys.argv[1:] if argv is None else list(argv)
    _escape_what_cannot_be_encoded()
    i18n.set_lang(_lang_in(argv) or i18n.default_lang())
    command = "attn-tui"
    try:
        args = parse(argv)
        i18n.set_lang(args.lang or i18n.default_lang())
        command = f"attn-tui {args.command}" if args.command else "attn-tui"
        _check(args)
        if args.command is None:
            return _launch(args)
        return int(args.run(args) or 0)
    except InputError as err:
        say(command, i18n.describe(err))
        return 2
    except StoreError as err:
        say(command, i18n.t("store.cli", reason=i18n.describe(err)))
        return 2
    except KeyboardInterrupt:
        say(command, i18n.t("common.interrupted"))
        return 130
    except BrokenPipeError:
        _stdout_to_devnull()
        return 141  # as if killed by SIGPIPE, which is what a pipe reader expects
    except OSError as err:  # a file system refusal the command did not foresee
        where = f": {err.filename}" if err.filename else ""
        say(command, f"{err.strerror or type(err).__name__}{where}")
        return 2
    except Exception as err:
        if os.environ.get("ATTN_TUI_DEBUG"):
            raise
        say(command, i18n.t("cli.internal", error=f"{type(err).__name__}: {err}"))
        return _EXIT_INTERNAL


__all__ = ["build_parser", "main", "parse"]
