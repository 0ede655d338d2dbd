"""Every command-line reproduction of issue 12, one test each: a fault gives one line on stderr
(exit 2), never a traceback, a hang or a silently ignored option.

Most run in this process (``hostile.run``); those about the process itself — its stdin, its
output encoding, a closed pipe, bytes that are not UTF-8 in argv — run in a fresh one.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from attn_tui.core import progress

from .hostile import run, verdict

A = [sys.executable, "-m", "attn_tui"]


def one_line(outcome, code: int = 2) -> str:
    """The single stderr line of a failed command (asserting that is all there is)."""
    assert verdict(outcome, frozenset({code})) is None, verdict(outcome, frozenset({code}))
    assert outcome.code == code
    return outcome.err.strip()


def process(argv, *, env=None, stdin=subprocess.DEVNULL, timeout=60):
    return subprocess.run(
        [*A, *argv],
        stdin=stdin,
        capture_output=True,
        timeout=timeout,
        env={
            **os.environ,
            "ATTN_TUI_DATA_DIR": os.environ.get("ATTN_TUI_DATA_DIR", ""),
            **(env or {}),
        },
    )


@pytest.fixture(autouse=True)
def _data(tmp_path, monkeypatch):
    monkeypatch.setenv("ATTN_TUI_DATA_DIR", str(tmp_path / "data"))


# -- hangs and runaway cost -----------------------------------------------------------------


@pytest.mark.parametrize("size", [32_000, 128_000])
def test_a_long_digit_run_in_the_query_is_refused_quickly(size):
    """Was 19.8 s for 32,000 digits; 128 KB never finished."""
    line = one_line(run(["calc", "-q", "1" * size + "x", "-k", "1"]))
    assert "is not a number" in line and len(line) < 300  # the token is quoted cut short


def test_a_bare_launch_without_a_terminal_says_so_instead_of_waiting():
    done = process([], stdin=subprocess.DEVNULL, timeout=30)
    assert done.returncode == 2
    assert done.stderr.decode().count("\n") == 1 and b"terminal" in done.stderr


# -- tracebacks where one line is promised --------------------------------------------------


def test_a_data_dir_that_is_dev_null():
    assert "/dev/null" in one_line(run(["--data-dir", "/dev/null", "progress"]))


def test_progress_db_that_is_a_directory(tmp_path):
    (tmp_path / "d" / "progress.db").mkdir(parents=True)
    assert "not a regular file" in one_line(run(["--data-dir", str(tmp_path / "d"), "progress"]))


@pytest.mark.skipif(os.geteuid() == 0, reason="root writes to read-only folders")
def test_a_read_only_data_dir(tmp_path):
    folder = tmp_path / "ro"
    folder.mkdir()
    folder.chmod(0o555)
    try:
        one_line(run(["--data-dir", str(folder), "progress"]))
    finally:
        folder.chmod(0o755)


def test_a_lock_held_longer_than_the_timeout(tmp_path, monkeypatch):
    import sqlite3

    monkeypatch.setattr(progress, "BUSY_TIMEOUT_S", 0.3)
    progress.ProgressStore.open(tmp_path).close()
    other = sqlite3.connect(tmp_path / "progress.db", isolation_level=None)
    other.execute("BEGIN EXCLUSIVE")
    try:
        line = one_line(run(["--data-dir", str(tmp_path), "progress", "--reset", "--yes"]))
        assert "locked" in line
    finally:
        other.execute("ROLLBACK")
        other.close()


def test_a_full_disk_says_so_in_one_line(tmp_path, monkeypatch):
    def full(self, work):
        raise progress.StoreError("store.full", path=str(self.path), error="disk full")

    monkeypatch.setattr(progress.ProgressStore, "_write", full)
    assert "disk is full" in one_line(
        run(["--data-dir", str(tmp_path), "progress", "--reset", "--yes"])
    )


def test_lab_negative_seed_and_a_count_of_five_thousand_digits():
    assert "seed -1" in one_line(run(["lab", "--seed", "-1"]))
    line = one_line(run(["lab", "--tokens", "9" * 5000]))
    assert "at most 8" in line and len(line) < 300


def test_arguments_that_are_not_utf8():
    done = process(["lab", "--tokens", b"\xff"])
    assert done.returncode == 2 and b"Traceback" not in done.stderr
    assert b"--tokens" in done.stderr and done.stderr.count(b"\n") == 1
    done = process(["calc", "-q", b"1 \xff"])
    assert done.returncode == 2 and done.stderr.count(b"\n") == 1


def test_a_data_dir_under_an_unknown_user(monkeypatch):
    monkeypatch.setenv("ATTN_TUI_DATA_DIR", "~nouser-attn-tui/x")
    assert "~nouser-attn-tui/x" in one_line(run(["progress"]))


def test_a_lone_surrogate_in_a_json_answer(tmp_path):
    answers = tmp_path / "a.json"
    answers.write_text('{"sc-dot": "\\ud800", "\\ud800x": 1}', "utf-8")
    for extra in ([], ["--json"]):
        done = process(["--lang", "en", "quiz", "grade", str(answers), *extra])
        assert done.returncode == 0, done.stderr
        assert done.stderr == b""
    assert b"\\ud800" in done.stdout  # shown as an escape, the rest of the report intact


COMMANDS = [
    ["calc"],
    ["calc", "--json"],
    ["lab"],
    ["lab", "--shapes"],
    ["lab", "--preset", "love_zh", "--json"],
    ["train", "--iters", "2", "--batch", "2"],
    ["exercises", "list"],
    ["exercises", "validate"],
    ["progress"],
    ["quiz", "template"],
    ["quiz", "template", "--json"],
    ["quiz", "grade", "GOOD"],
]


@pytest.mark.parametrize("argv", COMMANDS, ids=lambda a: " ".join(a))
def test_an_ascii_terminal_gets_escapes_not_a_traceback(argv, tmp_path):
    """PYTHONIOENCODING=ascii: Chinese text and box characters used to end in a traceback."""
    good = tmp_path / "good.toml"
    good.write_text('sc-dot = "2"\n', "utf-8")
    argv = [str(good) if a == "GOOD" else a for a in argv]
    done = process(["--lang", "zh", *argv], env={"PYTHONIOENCODING": "ascii"}, timeout=120)
    assert done.returncode == 0, done.stderr[-500:]
    assert b"Traceback" not in done.stderr
    done.stdout.decode("ascii")  # every byte is ASCII


def test_a_closed_pipe_ends_quietly():
    """`calc --json | head -c 10`: the reader is gone before the writer writes."""
    proc = subprocess.Popen(
        [*A, "quiz", "template"], stdout=subprocess.PIPE, stderr=subprocess.PIPE
    )
    proc.stdout.close()  # like head after its bytes
    err = proc.stderr.read()
    assert proc.wait(timeout=60) != 0
    assert err == b""


@pytest.mark.parametrize(
    "argv",
    [
        ["calc", "-q", "-3e-05", "-k", "1"],
        ["calc", "-q", "1", "-k", "-1.5e3"],
        ["calc", "--query", "-1,0", "--keys", "-2,1; 0,-.5"],
        ["lab", "--x", "-1e-3"],
        [
            "calc",
            "-q",
            "1",
            "-k",
            "1",
            "-T",
            "-.5e1",
        ],  # a value; refused as a temperature, in words
    ],
)
def test_negative_numbers_in_e_notation_are_values_not_options(argv):
    outcome = run(argv)
    assert "expected one argument" not in outcome.err
    assert verdict(outcome) is None, verdict(outcome)


def test_lang_after_the_subcommand():
    outcome = run(["calc", "--json", "--lang", "zh"])
    assert outcome.code == 0, outcome.err
    outcome = run(["calc", "--lang", "zh", "-q", "x"])
    assert "不是数字" in one_line(outcome)


def test_data_dir_and_exercises_after_the_subcommand(tmp_path):
    sets = tmp_path / "sets"
    sets.mkdir()
    (sets / "x.toml").write_text("[set]\n", "utf-8")
    outcome = run(["exercises", "list", "--json", "--exercises", str(sets)])
    assert outcome.code == 0
    assert [b["path"].endswith("x.toml") for b in json.loads(outcome.out)["broken"]] == [True]
    outcome = run(["progress", "--json", "--data-dir", str(tmp_path / "d")])
    assert json.loads(outcome.out)["file"] == str(tmp_path / "d" / "progress.db")


@pytest.mark.parametrize(
    "argv",
    [
        ["calc", "--bogus"],
        ["calc", "-q"],
        ["lab", "--d-model", "x"],
        ["quiz"],
        ["exercises"],
        ["--lang", "fr", "calc"],
        ["nosuchcommand"],
        ["calc", "--temperature"],
    ],
)
def test_usage_errors_are_one_line(argv):
    line = one_line(run(argv))
    assert line.startswith("attn-tui") and "--help" in line


@pytest.mark.parametrize(
    "argv, needle",
    [
        (["calc", "--values", ""], "values is empty"),
        (["progress", "--yes"], "--yes only works with --reset"),
        (["train", "--seeds", "3"], "--seeds only works with --compare"),
        (["lab", "--shapes", "--x", "1 2"], "--x cannot be used with --shapes"),
        (["lab", "--shapes", "--causal"], "--causal cannot be used with --shapes"),
        (["--exercises", "/nonexistent/sets", "exercises", "list"], "/nonexistent/sets"),
        (["quiz", "grade", ""], "empty path"),
        (["exercises", "validate", ""], "empty path"),
        (["--data-dir", "", "progress"], "empty path"),
    ],
)
def test_what_was_silently_ignored_or_misread_is_refused(argv, needle):
    assert needle in one_line(run(argv))


def test_file_names_with_markup_and_escapes_are_shown_as_they_are(tmp_path):
    folder = tmp_path / "class"
    folder.mkdir()
    (folder / "[bold]x.toml").write_text('sc-dot = "2"\n', "utf-8")
    (folder / "esc\x1b[31m.toml").write_text('sc-dot = "[/]"\nsc-steps = "\\u0007"\n', "utf-8")
    (folder / "bad\x1b[2J.toml").write_text("sc-dot = = 1\n", "utf-8")
    outcome = run(["quiz", "grade", str(folder)])
    assert outcome.code == 0 and outcome.err == ""
    assert "│ [bold]x " in outcome.out  # the table names each student as the CSV does
    assert "\x1b" not in outcome.out and "│ esc\\x1b[31m " in outcome.out
    assert "\x07" not in outcome.out
    single = run(["quiz", "grade", str(folder / "esc\x1b[31m.toml")])
    assert single.code == 0 and "\x1b" not in single.out  # "[/]" was a MarkupError


def test_the_app_exits_non_zero_after_a_crash(monkeypatch):
    """Was 0: a RecursionError in the Exercises screen ended the app with status 0."""
    from attn_tui import cli

    class Crashed:
        return_code = 1

        def __init__(self, **kwargs):
            pass

        def run(self):
            pass

    monkeypatch.setattr("attn_tui.app.AttnApp", Crashed)
    monkeypatch.setattr(sys, "stdin", type("Tty", (), {"isatty": lambda self: True})())
    assert cli.main(["--lang", "en"]) == 1


def test_an_unexpected_error_is_one_line_and_debuggable(monkeypatch):
    import attn_tui.commands.calc as calc

    monkeypatch.setattr(calc, "run", lambda args: 1 / 0)
    line = one_line(run(["calc"]), code=70)
    assert "ZeroDivisionError" in line and "ATTN_TUI_DEBUG" in line
    monkeypatch.setenv("ATTN_TUI_DEBUG", "1")
    with pytest.raises(ZeroDivisionError):
        from attn_tui.cli import main

        main(["calc"])


def test_path_objects_are_still_paths(tmp_path):
    outcome = run(["exercises", "validate", str(Path(tmp_path) / "none.toml")])
    assert outcome.code == 1 and "No such file" in outcome.out


# -- found in the second pass ---------------------------------------------------------------


def test_a_written_answer_from_an_endless_stdin_is_refused_in_bounded_memory():
    """`exercises try ITEM --answer - < /dev/zero` read all of stdin: 950 MB after 6 s, never
    ending."""
    with open("/dev/zero", "rb") as zero:
        done = process(["exercises", "try", "sc-steps", "--answer", "-"], stdin=zero, timeout=60)
    assert done.returncode == 2
    assert b"too long" in done.stderr and done.stderr.count(b"\n") == 1


@pytest.mark.parametrize("host", ["", "   ", "a" * 300, "a..b"])
def test_serve_refuses_an_empty_host_and_names_it_cannot_encode_in_one_line(host, monkeypatch):
    """--host "" bound every interface and printed "http://:8000/"; a label over 63 characters
    or an empty label raised UnicodeError (exit 70, "please report it")."""
    from attn_tui.serve.server import ClassroomServer

    def never(self, debug=False):
        raise AssertionError("the server was started")

    monkeypatch.setattr(ClassroomServer, "serve", never)
    line = one_line(run(["serve", "--no-preload", "--host", host]))
    assert ("--host needs an address" in line) == (not host.strip())
    assert len(line) < 600
