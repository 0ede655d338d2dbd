"""Where a figure, a gradebook or a saved model is sent (issue 12, found in its second pass).

Every writer wrote a temporary file beside the target and renamed it over the target. For a
named pipe that replaced the pipe with a plain file (and a reader waiting on it got nothing);
for /dev/null or /dev/full it replaced the device whenever /dev was writable — as root it is:
one `attn-tui calc --svg /dev/full` turned the machine's /dev/full into an SVG file. Now a
pipe or a character device is written into, a pipe nobody reads is refused at once, and a
symlink to a file keeps being a symlink. (conftest.py makes any rename over a device fail, so
these tests cannot harm the machine they run on even if the fault comes back.)
"""

from __future__ import annotations

import os
import stat
import threading
from pathlib import Path

import pytest

from .hostile import run, verdict

pytestmark = pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="POSIX: FIFOs, /dev")

FAST = ["--iters", "1", "--batch", "1", "--length", "2"]
WRITERS = {
    "calc --svg": lambda target: ["calc", "--svg", target],
    "lab --svg": lambda target: ["lab", "--svg", target],
    "lab --shapes --svg": lambda target: ["lab", "--shapes", "--svg", target],
    "quiz grade --csv": lambda target: ["quiz", "grade", "GOOD", "--csv", target],
    "train --save": lambda target: ["train", "--model", "transformer", *FAST, "--save", target],
}


def argv_for(writer: str, target: Path, tmp_path: Path) -> list[str]:
    good = tmp_path / "good.toml"
    good.write_text("sc-dot = 2\n", "utf-8")
    return [str(good) if a == "GOOD" else a for a in WRITERS[writer](str(target))]


def one_line(outcome, code: int) -> str:
    problem = verdict(outcome, frozenset({code}))
    assert problem is None, problem
    return outcome.err.strip()


@pytest.mark.parametrize("writer", WRITERS)
def test_a_pipe_nobody_reads_is_refused_at_once_and_stays_a_pipe(writer, tmp_path):
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    line = one_line(run(argv_for(writer, fifo, tmp_path)), 2)
    assert "nothing is reading" in line
    assert stat.S_ISFIFO(os.stat(fifo).st_mode)  # was: a plain file put in its place


@pytest.mark.parametrize("writer", ["calc --svg", "quiz grade --csv", "train --save"])
def test_a_pipe_with_a_reader_receives_the_whole_file(writer, tmp_path):
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    received: list[bytes] = []

    def read() -> None:
        with open(fifo, "rb") as pipe:  # opens once the writer does
            received.append(pipe.read())

    reader = threading.Thread(target=read, daemon=True)
    reader.start()
    try:
        outcome = run(argv_for(writer, fifo, tmp_path))
    finally:
        if reader.is_alive():  # the command never opened it: let a waiting reader go
            try:  # without blocking: the reader may be finishing, and then none is waiting
                os.close(os.open(fifo, os.O_WRONLY | os.O_NONBLOCK))
            except OSError:
                pass
        reader.join(timeout=10)
    assert verdict(outcome, frozenset({0})) is None, verdict(outcome, frozenset({0}))
    assert stat.S_ISFIFO(os.stat(fifo).st_mode)
    assert received and len(received[0]) > 100  # an SVG, a CSV, an .npz: the whole of it
    if writer == "train --save":
        assert received[0][:2] == b"PK"  # a zip archive, as np.savez writes
    else:
        assert b"\n" in received[0]


@pytest.mark.parametrize("writer", WRITERS)
def test_dev_null_is_written_into_and_dev_full_says_so_in_one_line(writer, tmp_path):
    for device in ("/dev/null", "/dev/full"):
        if not os.path.exists(device):
            pytest.skip(f"no {device}")
    outcome = run(argv_for(writer, Path("/dev/null"), tmp_path))
    assert verdict(outcome, frozenset({0})) is None, verdict(outcome, frozenset({0}))
    line = one_line(run(argv_for(writer, Path("/dev/full"), tmp_path)), 2)
    assert "No space left" in line  # one line: train's progress bar left an empty one too
    for device in ("/dev/null", "/dev/full"):
        assert stat.S_ISCHR(os.stat(device).st_mode)


@pytest.mark.parametrize("writer", WRITERS)
def test_a_symlink_to_a_file_is_written_through_and_stays_a_link(writer, tmp_path):
    here = tmp_path / "here"
    here.mkdir()
    real = here / "real"
    real.write_text("old")
    real.chmod(0o640)
    link = here / "link"
    link.symlink_to(real)
    outcome = run(argv_for(writer, link, tmp_path))
    assert verdict(outcome, frozenset({0})) is None, verdict(outcome, frozenset({0}))
    assert link.is_symlink() and os.readlink(link) == str(real)
    assert real.read_bytes() != b"old" and len(real.read_bytes()) > 100
    assert stat.S_IMODE(real.stat().st_mode) == 0o640  # an existing file keeps its mode
    assert sorted(p.name for p in here.iterdir()) == ["link", "real"]  # no temporary left


@pytest.mark.parametrize("writer", WRITERS)
def test_a_folder_a_loop_and_a_missing_folder_are_one_line_each(writer, tmp_path):
    here = tmp_path / "here"
    here.mkdir()
    (here / "loop").symlink_to("loop")
    for target in (here, here / "loop", here / "missing" / "x"):
        one_line(run(argv_for(writer, target, tmp_path)), 2)
    assert [p.name for p in here.iterdir()] == ["loop"]  # no temporary left


def test_a_gradebook_and_feedback_together_say_so_in_one_line(tmp_path):
    good = tmp_path / "good.toml"
    good.write_text("sc-dot = 2\n", "utf-8")
    outcome = run(
        [
            "quiz",
            "grade",
            str(good),
            "--csv",
            str(tmp_path / "g.csv"),
            "--feedback",
            str(tmp_path / "fb"),
        ]
    )
    line = one_line(outcome, 0)
    assert "g.csv" in line and "fb" in line
