"""`attn-tui quiz grade` and `attn-tui quiz template`: a class folder with a broken file, the
answer key kept back unless asked for, and a template that, filled with the key, scores full."""

from __future__ import annotations

import json
import tomllib

from attn_tui.cli import main


def key_value(ex, lang="en"):
    """The reference answer as a learner would write it into the answer file."""
    return ex.answer.get(lang) if ex.kind == "text" else ex.answer


def grade_json(capsys, *argv) -> tuple[int, dict]:
    status = main(["--lang", "en", "quiz", "grade", *map(str, argv), "--json"])
    return status, json.loads(capsys.readouterr().out)


def test_template_toml_round_trip_with_the_key_scores_full_marks(tmp_path, capsys, bank):
    assert main(["--lang", "en", "quiz", "template"]) == 0
    text = capsys.readouterr().out
    blank = tomllib.loads(text)
    # every question, in bank order, empty; the record names them all
    assert blank == {"_quiz": [ex.id for ex in bank]} | {ex.id: "" for ex in bank}
    assert "# What are the three steps of attention" in text
    assert "#   c. Compare with the uniform 1/L, check that each row" in text  # choices listed
    # The learner fills it in: replace each `id = ""` with the key.
    filled = text
    for ex in bank:
        filled = filled.replace(f'{ex.id} = ""', f"{ex.id} = {json.dumps(key_value(ex))}", 1)
    (tmp_path / "learner.toml").write_text(filled, "utf-8")
    status, out = grade_json(capsys, tmp_path / "learner.toml")
    assert status == 0
    (learner,) = out["files"]
    assert learner["score"] == learner["max"] == len(bank) and learner["percent"] == 100
    assert learner["missed"] == [] and learner["problems"] == []


def test_template_json_round_trip_in_chinese(tmp_path, capsys, bank):
    assert main(["quiz", "template", "--json", "--lang", "zh"]) == 0
    data = json.loads(capsys.readouterr().out)
    questions = data["questions"]
    assert list(questions) == [ex.id for ex in bank]
    steps = questions["sc-steps"]
    assert steps["kind"] == "text" and steps["answer"] == "" and "三步" in steps["prompt"]
    assert steps["topics"] == ["dot-product", "softmax", "weighted-sum", "scaling"]
    for ex in bank:
        questions[ex.id]["answer"] = key_value(ex, "zh")
    (tmp_path / "zh.json").write_text(json.dumps(data, ensure_ascii=False), "utf-8")
    status, out = grade_json(capsys, tmp_path / "zh.json")
    assert status == 0 and out["files"][0]["percent"] == 100


def test_class_folder_with_one_broken_file(tmp_path, capsys, bank):
    cls = tmp_path / "class"
    cls.mkdir()
    (cls / "alice.json").write_text(
        json.dumps({ex.id: key_value(ex) for ex in bank}, ensure_ascii=False), "utf-8"
    )
    (cls / "bob.toml").write_text(
        'sc-dot = 2\nsc-steps = "dot product, then softmax"\nsc-myth-peak-tf = true\n', "utf-8"
    )
    (cls / "carol.toml").write_text('sc-dot = 2\nsc-steps = "unclosed\n', "utf-8")
    status, out = grade_json(capsys, cls)
    assert status == 0
    files = {f["file"].rsplit("/", 1)[-1]: f for f in out["files"]}
    assert files["alice.json"]["percent"] == 100
    bob = files["bob.toml"]
    per_q = {q["id"]: q for q in bob["questions"]}
    assert set(per_q["sc-steps"]) >= {"id", "score", "max", "found", "missing"}
    assert per_q["sc-dot"] == {**per_q["sc-dot"], "score": 1.0, "max": 1.0}
    assert 0 < per_q["sc-steps"]["score"] < 1
    assert any("weighted" in m for m in per_q["sc-steps"]["missing"])
    assert per_q["sc-myth-peak-tf"]["score"] == 0.0
    carol = files["carol.toml"]
    assert carol["ok"] is False and carol["problems"][0]["line"] == 2
    assert out["totals"]["graded"] == 2 and out["totals"]["broken"] == 1
    assert "key" not in out

    # The table: every learner (by the student's name, as in the CSV and the overrides), the
    # broken file by name and line, and no answer key.
    assert main(["--lang", "en", "quiz", "grade", str(cls)]) == 0
    text = capsys.readouterr().out
    assert "│ alice " in text and "│ bob " in text
    assert "carol.toml:2: TOML syntax error" in text
    assert "2 files graded, 1 could not be read" in text
    assert "c. Compare" not in text  # sc-myth-peak-why's right choice


def test_the_key_is_printed_only_with_show_key(tmp_path, capsys, bank):
    (tmp_path / "a.toml").write_text("sc-dot = 3\n", "utf-8")
    assert main(["--lang", "en", "quiz", "grade", str(tmp_path / "a.toml")]) == 0
    plain = capsys.readouterr().out
    # a file without a _quiz record is marked on every question of the banks
    assert "c. Compare" not in plain and f"a.toml: 0/{len(bank)} (0%)" in plain
    assert main(["--lang", "en", "quiz", "grade", str(tmp_path / "a.toml"), "--show-key"]) == 0
    assert "c. Compare" in capsys.readouterr().out  # sc-myth-peak-why's right choice
    status, out = grade_json(capsys, tmp_path / "a.toml", "--show-key")
    assert out["key"]["sc-dot"] == "2"


def test_nothing_gradable_exits_1_and_a_missing_path_exits_2(tmp_path, capsys):
    (tmp_path / "bad.json").write_text("{", "utf-8")
    assert main(["--lang", "en", "quiz", "grade", str(tmp_path)]) == 1
    out = capsys.readouterr().out
    assert "bad.json:1: JSON syntax error" in out and "Not one file could be graded" in out
    assert main(["--lang", "en", "quiz", "grade", str(tmp_path / "nope")]) == 2
    assert "does not exist" in capsys.readouterr().err
    empty = tmp_path / "empty"
    empty.mkdir()
    assert main(["--lang", "en", "quiz", "grade", str(empty)]) == 2
