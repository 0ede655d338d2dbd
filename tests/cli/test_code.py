"""``attn-tui code``: list, init, check (--json, exit 0/1), hint, solution, validate, watch."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest

from attn_tui.cli import main

SHIPPED = Path(__file__).resolve().parents[2] / "exercises" / "code"


def cli(capsys, *argv):
    status = main(["--lang", "en", *argv])
    out, err = capsys.readouterr()
    return status, out, err


@pytest.fixture
def data(tmp_path):
    return tmp_path / "data"


def test_init_makes_one_starter_per_exercise_and_keeps_what_is_there(capsys, data, tmp_path):
    work = tmp_path / "work"
    work.mkdir()
    (work / "03_softmax.py").write_text("# mine\n")
    status, out, _ = cli(capsys, "--data-dir", str(data), "code", "init", str(work))
    assert status == 0
    assert "Made 14 files" in out and "the 1 already there" in out
    assert (work / "03_softmax.py").read_text() == "# mine\n"
    assert (work / "01_scores.py").read_text() == (SHIPPED / "starters/01_scores.py").read_text()


def test_init_refuses_a_file_as_its_folder(capsys, data, tmp_path):
    (tmp_path / "f").write_text("x")
    status, _, err = cli(capsys, "--data-dir", str(data), "code", "init", str(tmp_path / "f"))
    assert status == 2 and "is not a folder" in err and err.count("\n") == 1


def test_check_json_fails_then_passes_and_the_list_says_so(capsys, data):
    assert cli(capsys, "--data-dir", str(data), "code", "init")[0] == 0
    work = data / "code"
    (work / "03_softmax.py").write_text(
        "import numpy as np\n\ndef softmax(x):\n    e = np.exp(x)\n"
        "    return e / e.sum(axis=-1, keepdims=True)\n"
    )
    status, out, _ = cli(capsys, "--data-dir", str(data), "code", "check", "softmax", "--json")
    report = json.loads(out)
    assert status == 1 and not report["passed"]
    assert report["failure"]["name"] == "large"
    assert report["failure"]["received"][0][0] == "nan"  # JSON has no NaN: a string
    assert [d["code"] for d in report["diagnoses"]] == ["overflow"]
    assert "710" in report["diagnoses"][0]["message"]
    shutil.copy(SHIPPED / "solutions/03_softmax.py", work / "03_softmax.py")
    status, out, _ = cli(capsys, "--data-dir", str(data), "code", "check", "softmax")
    assert status == 0 and "All 14 cases pass" in out
    status, out, _ = cli(capsys, "--data-dir", str(data), "code", "list", "--json")
    listed = {e["id"]: e for e in json.loads(out)["exercises"]}
    assert listed["softmax"]["passed"] and listed["softmax"]["attempts"] == 2
    assert not listed["scores"]["passed"] and listed["scores"]["attempts"] == 0


def test_check_names_an_unknown_id_and_a_missing_file(capsys, data, tmp_path):
    status, _, err = cli(capsys, "--data-dir", str(data), "code", "check", "nope")
    assert status == 2 and "no code exercise has the id nope" in err
    argv = ["--data-dir", str(data), "code", "check", "softmax"]
    status, _, err = cli(capsys, *argv, "--file", str(tmp_path / "missing.py"))
    assert status == 2 and "does not exist" in err


def test_hints_come_one_at_a_time(capsys, data):
    status, out, _ = cli(capsys, "--data-dir", str(data), "code", "hint", "softmax")
    assert status == 0 and out.startswith("Hint 1 of 3:") and "code hint softmax 2" in out
    _, out, _ = cli(capsys, "--data-dir", str(data), "code", "hint", "softmax", "3")
    assert out.startswith("Hint 3 of 3:") and "More" not in out


def test_the_solution_opens_only_after_an_attempt(capsys, data, tmp_path):
    status, out, _ = cli(capsys, "--data-dir", str(data), "code", "solution", "scores")
    assert status == 1 and "opens after an attempt" in out
    mine = tmp_path / "mine.py"
    mine.write_text("import numpy as np\n\ndef scores(Q, K):\n    return K @ Q.T\n")
    assert (
        cli(capsys, "--data-dir", str(data), "code", "check", "scores", "--file", str(mine))[0] == 1
    )
    status, out, _ = cli(capsys, "--data-dir", str(data), "code", "solution", "scores")
    assert status == 0 and "return Q @ K.T" in out


def test_validate_the_shipped_set_without_running(capsys):
    status, out, _ = cli(capsys, "code", "validate", str(SHIPPED / "build.toml"), "--no-run")
    assert status == 0 and "no faults (15 exercises" in out


def test_validate_reports_file_line_faults_and_exits_1(capsys, tmp_path):
    bad = tmp_path / "bad.toml"
    bad.write_text(
        '[set]\nid = "x"\ntitle = { zh = "x", en = "x" }\nsummary = { zh = "x", '
        'en = "x" }\n\n[[exercise]]\nid = "e"\ncheck = "nope"\n'
    )
    status, out, _ = cli(capsys, "code", "validate", str(bad), "--json")
    found = json.loads(out)["files"][0]["problems"]
    assert status == 1
    assert ("code.unknown_check", 8) in {(p["code"], p["line"]) for p in found}


def _read_until(stream, text: str, deadline: float) -> str:
    seen = ""
    while time.monotonic() < deadline:
        line = stream.readline()
        if not line:
            break
        seen += line
        if text in line:
            return seen
    raise AssertionError(f"{text!r} not seen in:\n{seen}")


@pytest.mark.slow  # a watching process and its children
def test_watch_rechecks_on_save_and_moves_on_when_it_passes(tmp_path):
    work = tmp_path / "work"
    env = {**os.environ, "COLUMNS": "100"}
    proc = subprocess.Popen(
        [sys.executable, "-m", "attn_tui", "--lang", "en", "--data-dir", str(tmp_path / "d")]
        + ["code", "watch", str(work), "--timeout", "60"],
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        env=env,
        bufsize=1,
    )
    try:
        deadline = time.monotonic() + 40
        _read_until(proc.stdout, "Now: exercise 1 of 15", deadline)
        _read_until(proc.stdout, "still the starter", deadline)  # the first check, at start
        (work / "01_scores.py").write_text(
            "import numpy as np\n\ndef scores(Q, K):\n    return K @ Q.T\n"
        )
        seen = _read_until(proc.stdout, "Likely mistake", deadline)
        assert "transposed" in seen
        shutil.copy(SHIPPED / "solutions/01_scores.py", work / "01_scores.py")
        _read_until(proc.stdout, "Passed! On to the next one.", deadline)
        _read_until(proc.stdout, "Now: exercise 2 of 15", deadline)
    finally:
        proc.kill()
        proc.wait(timeout=10)


def test_after_init_in_a_folder_of_its_own_the_commands_it_names_find_the_files(
    capsys, data, tmp_path, monkeypatch
):
    """What init says to run next works as printed; check without --dir says how to point at
    the folder (a learner ran ``code init DIR`` then ``code check ID`` and was told the file
    was missing, with no word of --dir)."""
    import shlex

    work = tmp_path / "my work"
    status, out, _ = cli(capsys, "--data-dir", str(data), "code", "init", str(work))
    assert status == 0
    line = next(x for x in out.splitlines() if x.startswith("Next:"))
    check = line.split(", then run ", 1)[1].split(" — or keep ", 1)[0]
    assert (
        f"--dir {shlex.quote(str(work))}" in check
        and f"--data-dir {shlex.quote(str(data))}" in check
    )
    watch = line.split(" — or keep ", 1)[1].removesuffix(" running.")
    assert watch.endswith(f"code watch {shlex.quote(str(work))}")
    argv = shlex.split(check)
    assert argv[0] == "attn-tui"
    status, out, err = cli(capsys, *argv[1:])
    assert (
        status == 1 and "does not exist" not in err
    )  # the starter is there: checked, not yet right
    # without --dir: the missing file is named with the way to point at the folder
    status, _, err = cli(
        capsys, "--data-dir", str(data), "code", "check", argv[argv.index("check") + 1]
    )
    assert status == 2 and "does not exist" in err and "--dir FOLDER" in err
