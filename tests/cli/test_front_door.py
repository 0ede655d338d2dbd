"""The front door: a bare launch builds no subcommand parsers; commands and help still work."""

import subprocess
import sys

from attn_tui.cli import parse


def test_bare_launch_parses_global_options_only():
    args = parse(["--lang", "zh", "--data-dir", "/tmp/x", "--exercises", "a", "--exercises", "b"])
    assert args.command is None and args.lang == "zh"
    assert str(args.data_dir) == "/tmp/x" and [str(p) for p in args.exercises] == ["a", "b"]


def test_a_command_gets_the_full_parser():
    args = parse(["--lang", "en", "calc", "--hard"])
    assert args.command == "calc" and args.hard and callable(args.run)


def test_bare_launch_imports_no_command_module():
    code = (
        "import sys; from attn_tui.cli import parse; parse([]); "
        "print(sorted(m for m in sys.modules if m.startswith('attn_tui.commands.')))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"


def test_help_lists_every_command():
    out = subprocess.run(
        [sys.executable, "-m", "attn_tui", "--help"], capture_output=True, text=True, check=True
    ).stdout
    for command in ("calc", "train", "exercises", "progress", "quiz", "lab"):
        assert command in out


def test_unknown_command_is_refused_with_status_2():
    done = subprocess.run(
        [sys.executable, "-m", "attn_tui", "frobnicate"], capture_output=True, text=True
    )
    assert (
        done.returncode == 2 and "invalid choice" in done.stderr and "Traceback" not in done.stderr
    )
