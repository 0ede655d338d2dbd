"""The front door: ``attn-tui`` opens the full-screen app; subcommands run headless.

Every fault a learner or a script can cause (bad vectors, bad settings, a broken file)
arrives here as an :class:`InputError` and leaves as one line on stderr with exit status 2.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from attn_tui import __version__, i18n


def build_parser(commands: bool = True) -> argparse.ArgumentParser:
    """The whole parser, or (commands=False) the global options alone, for a bare launch."""
    parser = argparse.ArgumentParser(
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
        type=Path,
        help="where progress is kept (default: $ATTN_TUI_DATA_DIR or the user data directory)",
    )
    parser.add_argument(
        "--exercises", type=Path, action="append", default=[],
        help="a folder of extra exercise sets (may be repeated)",
    )  # fmt: skip
    if commands:
        from attn_tui.commands import discover  # not on a bare launch's path

        sub = parser.add_subparsers(dest="command", metavar="COMMAND")
        for module in discover():
            module.add_parser(sub).set_defaults(run=module.run)
    return parser


def parse(argv: list[str] | None) -> argparse.Namespace:
    """Global options first; the subcommands' parsers (which import every command module and
    the text catalogue) are built only when the command line names a command or asks for help,
    so a bare `attn-tui` reaches its first screen sooner."""
    argv = sys.argv[1:] if argv is None else argv
    known, rest = build_parser(commands=False).parse_known_args(argv)
    if rest or any(arg in ("-h", "--help") for arg in argv):
        return build_parser().parse_args(argv)
    known.command = None
    return known


def main(argv: list[str] | None = None) -> int:
    args = parse(argv)
    i18n.set_lang(args.lang or i18n.default_lang())
    if args.command is None:
        from attn_tui.app import AttnApp

        AttnApp(lang=i18n.get_lang(), data_dir=args.data_dir, extra_exercises=args.exercises).run()
        return 0
    from attn_tui.core.parse import InputError

    try:
        return int(args.run(args) or 0)
    except InputError as err:
        print(f"attn-tui {args.command}: {i18n.describe(err)}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print(f"attn-tui {args.command}: {i18n.t('common.interrupted')}", file=sys.stderr)
        return 130
