"""The headless commands through the real front door, ``attn_tui.cli.main``."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest

from attn_tui.cli import main
from attn_tui.core.progress import ProgressStore

FIXTURES = Path(__file__).parents[1] / "core" / "exercises" / "fixtures"
GOOD = FIXTURES / "good_set.toml"


@pytest.fixture(autouse=True)
def _english(monkeypatch):
    monkeypatch.delenv("ATTN_TUI_DATA_DIR", raising=False)
    yield
    from attn_tui import i18n

    i18n.set_lang("en")


def broken(tmp_path: Path) -> Path:
    text = GOOD.read_text("utf-8").replace("answer = 934", "answer = 950", 1)
    path = tmp_path / "broken.toml"
    path.write_text(text, "utf-8")
    return path


def test_validate_a_good_file_exits_0(capsys):
    assert main(["--lang", "en", "exercises", "validate", str(GOOD)]) == 0
    assert "1 file, 1 set, 10 exercises: all valid." in capsys.readouterr().out


def test_validate_a_broken_file_exits_1_with_file_line_message(tmp_path, capsys, monkeypatch):
    path = broken(tmp_path)
    monkeypatch.chdir(tmp_path)
    assert main(["--lang", "en", "exercises", "validate", str(path), str(GOOD)]) == 1
    out = capsys.readouterr().out.splitlines()
    line = next(
        i
        for i, s in enumerate(path.read_text("utf-8").splitlines(), 1)
        if s.startswith('check = { fn = "rnn_params"')
    )
    assert out[0].startswith(f"broken.toml:{line}: exercise big: the stored answer 950 differs")
    assert out[-1] == "1 problem in 1 file."


def test_validate_json_and_chinese(tmp_path, capsys):
    path = broken(tmp_path)
    assert main(["--lang", "zh", "exercises", "validate", "--json", str(path), str(GOOD)]) == 1
    report = json.loads(capsys.readouterr().out)
    assert (
        report["ok"] is False and report["counts"]["files"] == 2 and report["counts"]["sets"] == 1
    )
    [problem] = report["problems"]
    assert problem["code"] == "ex.check_mismatch" and problem["exercise"] == "big"
    assert "核心重新算出" in problem["message"]
    assert [f["ok"] for f in report["files"]] == [False, True]


def test_validate_a_folder_and_a_missing_path(tmp_path, capsys):
    (tmp_path / "sets").mkdir()
    (tmp_path / "sets" / "a.toml").write_text(GOOD.read_text("utf-8"), "utf-8")
    assert main(["exercises", "validate", str(tmp_path)]) == 0
    assert main(["exercises", "validate", str(tmp_path / "nope")]) == 1
    empty = tmp_path / "empty"
    empty.mkdir()
    assert main(["exercises", "validate", str(empty)]) == 1
    capsys.readouterr()


def test_validate_reports_the_same_set_id_twice(tmp_path, capsys):
    copy = tmp_path / "copy.toml"
    copy.write_text(GOOD.read_text("utf-8"), "utf-8")
    assert main(["--lang", "en", "exercises", "validate", str(GOOD), str(copy)]) == 1
    assert "set id “fixture” is already used by" in capsys.readouterr().out


def test_validate_without_paths_checks_the_shipped_files(capsys):
    code = main(["exercises", "validate", "--json"])
    report = json.loads(capsys.readouterr().out)
    assert code == (0 if report["ok"] else 1)
    assert report["counts"]["files"] >= 1


def test_list_json_includes_extra_folders_and_broken_files(tmp_path, capsys):
    extra = tmp_path / "teacher"
    extra.mkdir()
    (extra / "good.toml").write_text(GOOD.read_text("utf-8"), "utf-8")
    broken(extra)
    data = tmp_path / "data"
    assert (
        main(["--data-dir", str(data), "--exercises", str(extra), "exercises", "list", "--json"])
        == 0
    )
    listing = json.loads(capsys.readouterr().out)
    mine = [s for s in listing["sets"] if s["id"] == "fixture"]
    assert len(mine) == 1 and mine[0]["source"] == "extra" and mine[0]["generated"] == 2
    assert [Path(b["path"]).name for b in listing["broken"]] == ["broken.toml"]
    assert main(["--data-dir", str(data), "--exercises", str(extra), "exercises", "list"]) == 0
    assert "broken.toml" in capsys.readouterr().out


def seed_progress(data: Path) -> None:
    with ProgressStore.open(data) as store:
        store.record_attempt(
            "fixture", "weights", "0.2303 0.1293 0.4102 0.2303", correct=True, score=1
        )
        store.visit("fixture", "weight-one")
        store.record_quiz("quick", 7, 10, {"softmax": (2, 3)})


def test_progress_json_summary(tmp_path, capsys):
    data = tmp_path / "data"
    seed_progress(data)
    args = ["--data-dir", str(data), "--exercises", str(FIXTURES), "progress", "--json"]
    assert main(args) == 0
    report = json.loads(capsys.readouterr().out)
    [mine] = [s for s in report["sets"] if s["id"] == "fixture"]
    assert (mine["done"], mine["total"], mine["first_unsolved"], mine["last_visited"]) == (
        1,
        10,
        "weight-one",
        "weight-one",
    )
    assert report["quiz"]["quick"]["best"]["fraction"] == pytest.approx(0.7)
    assert report["quiz"]["full"]["attempts"] == 0


def test_progress_uses_the_environment_data_dir(tmp_path, capsys, monkeypatch):
    data = tmp_path / "from-env"
    seed_progress(data)
    monkeypatch.setenv("ATTN_TUI_DATA_DIR", str(data))
    assert main(["--lang", "en", "progress"]) == 0
    out = capsys.readouterr().out
    assert str(data / "progress.db") in out and "best 70%" in out


@pytest.mark.parametrize("reply", ["", "n\n", "no\n", "maybe\n"])
def test_reset_refuses_without_a_yes(tmp_path, capsys, monkeypatch, reply):
    data = tmp_path / "data"
    seed_progress(data)
    monkeypatch.setattr("sys.stdin", io.StringIO(reply))
    assert main(["--lang", "en", "--data-dir", str(data), "progress", "--reset"]) == 1
    out = capsys.readouterr().out
    assert "Delete all progress in" in out and "progress kept" in out
    with ProgressStore.open(data) as store:
        assert len(store.attempts()) == 1


@pytest.mark.parametrize("reply", ["y\n", "YES\n", "是\n"])
def test_reset_deletes_after_yes(tmp_path, capsys, monkeypatch, reply):
    data = tmp_path / "data"
    seed_progress(data)
    monkeypatch.setattr("sys.stdin", io.StringIO(reply))
    assert main(["--data-dir", str(data), "progress", "--reset"]) == 0
    with ProgressStore.open(data) as store:
        assert store.attempts() == [] and store.quiz_attempts() == []
    capsys.readouterr()


def test_reset_with_yes_does_not_read_stdin(tmp_path, capsys, monkeypatch):
    data = tmp_path / "data"
    seed_progress(data)
    monkeypatch.setattr("sys.stdin", None)
    assert main(["--lang", "en", "--data-dir", str(data), "progress", "--reset", "--yes"]) == 0
    assert "Progress deleted." in capsys.readouterr().out


def test_progress_reports_a_damaged_file(tmp_path, capsys):
    data = tmp_path / "data"
    data.mkdir()
    (data / "progress.db").write_bytes(b"not sqlite" * 100)
    assert main(["--lang", "en", "--data-dir", str(data), "progress", "--json"]) == 0
    captured = capsys.readouterr()
    assert "was damaged; it was moved to" in captured.err
    assert json.loads(captured.out)["moved_aside"].startswith(str(data / "progress.db.damaged-"))
