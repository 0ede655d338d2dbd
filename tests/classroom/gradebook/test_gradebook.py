"""Composed quizzes and the gradebook: a class of 30 answer files (one broken) → a CSV a
spreadsheet opens, feedback files, and a teacher's overrides that change totals and stay marked.

Expected marks are worked out here from what each student wrote (the key or a blank), not read
back from the grader: student k answers the first k questions with the reference answer.
"""

from __future__ import annotations

import csv
import json
import os
import tomllib

import pytest

from attn_tui import paths
from attn_tui.cli import main
from attn_tui.core.gradebook import parse_overrides

# Ten questions with a stored, non-written answer: the key is exact, so a right answer is 1.
TEN = (
    "sc-dot bx-mask-count sc-params-plain sc-params-attn bx-head-dim sc-never-zero-tf"
    " sc-convex-tf bx-soft-hard bx-scoring bx-cost-ratio"
).split()


@pytest.fixture(scope="module")
def bank():
    return {ex.id: ex for ex in paths.load_all().quiz_exercises}


def template(capsys, *args: str) -> str:
    assert main(["--lang", "en", "quiz", "template", *args]) == 0
    return capsys.readouterr().out


def fill(text: str, answers: dict[str, object]) -> str:
    """The learner's edit: replace `id = ""` with `id = <answer>`."""
    for qid, value in answers.items():
        text = text.replace(f'\n{qid} = ""', f"\n{qid} = {json.dumps(value)}", 1)
    return text


def grade(capsys, *args) -> tuple[int, str, str]:
    status = main(["--lang", "en", "quiz", "grade", *map(str, args)])
    out = capsys.readouterr()
    return status, out.out, out.err


@pytest.fixture
def quiz10(capsys):
    return template(capsys, "--ids", ",".join(TEN))


@pytest.fixture
def klass(tmp_path, quiz10, bank):
    """30 files: s01 … s29 (student k right on the first k % 11 questions) and one broken."""
    folder = tmp_path / "class"
    folder.mkdir()
    expected = {}
    for k in range(1, 30):
        right = k % 11
        answers = {qid: bank[qid].answer for qid in TEN[:right]}
        (folder / f"s{k:02d}.toml").write_text(fill(quiz10, answers), "utf-8")
        expected[f"s{k:02d}"] = right
    (folder / "zz-broken.toml").write_text('_quiz = ["sc-dot"]\nsc-dot = [1, 2\n', "utf-8")
    return folder, expected


def read_csv(path):
    raw = path.read_bytes()
    assert raw.startswith(b"\xef\xbb\xbf"), "UTF-8 byte-order mark, so Excel reads Chinese"
    assert b"\r\n" in raw and raw.count(b"\n") == raw.count(b"\r\n"), "CRLF lines"
    with open(path, encoding="utf-8-sig", newline="") as fh:
        return list(csv.reader(fh))


# -- composing --------------------------------------------------------------------------------


def test_composed_quiz_of_ten_chosen_questions_is_graded_out_of_ten(tmp_path, capsys, quiz10, bank):
    data = tomllib.loads(quiz10)
    assert data.pop("_quiz") == TEN
    assert list(data) == TEN and set(data.values()) == {""}
    path = tmp_path / "one.toml"
    path.write_text(fill(quiz10, {q: bank[q].answer for q in TEN[:7]}), "utf-8")
    status, out, _ = grade(capsys, path, "--json")
    (learner,) = json.loads(out)["files"]
    assert status == 0 and learner["max"] == 10 and learner["score"] == 7
    assert [q["id"] for q in learner["questions"]] == TEN


def test_an_answer_to_a_question_outside_the_quiz_is_not_marked(tmp_path, capsys, quiz10, bank):
    text = fill(quiz10, {"sc-dot": 2}) + '\nsc-steps = "dot product, softmax, weighted sum"\n'
    (tmp_path / "extra.toml").write_text(text, "utf-8")
    _, out, _ = grade(capsys, tmp_path / "extra.toml", "--json")
    (learner,) = json.loads(out)["files"]
    assert learner["max"] == 10 and learner["score"] == 1
    assert [p["code"] for p in learner["problems"]] == ["quiz.unknown_id"]


def test_count_and_seed_draw_the_same_quiz_again_from_the_chosen_topics(capsys, bank):
    first = tomllib.loads(
        template(capsys, "--topics", "softmax,scaling", "--count", "6", "--seed", "4")
    )["_quiz"]
    again = tomllib.loads(
        template(capsys, "--topics", "softmax,scaling", "--count", "6", "--seed", "4")
    )["_quiz"]
    assert first == again and len(first) == 6 == len(set(first))
    assert all({"softmax", "scaling"} & set(bank[q].topics) for q in first)
    others = {
        tuple(
            tomllib.loads(
                template(capsys, "--topics", "softmax,scaling", "--count", "6", "--seed", str(s))
            )["_quiz"]
        )
        for s in range(5, 9)
    }
    assert len(others | {tuple(first)}) > 1, "different seeds draw different quizzes"


def test_a_teachers_own_bank_from_exercises_dir(tmp_path, capsys):
    own = tmp_path / "mine"
    own.mkdir()
    (own / "my_quiz.toml").write_text(
        """[set]
id = "my-quiz"
quiz = true
title = { zh = "我的测验", en = "My quiz" }
summary = { zh = "两道题", en = "Two questions" }

[[exercise]]
id = "my-dot"
kind = "number"
prompt = { zh = "1·1 + 2·2 = ?", en = "1·1 + 2·2 = ?" }
answer = 5
explanation = { zh = "逐项相乘再相加。", en = "Multiply entry by entry, then add." }
topics = ["dot-product"]

[[exercise]]
id = "my-sum"
kind = "truefalse"
prompt = { zh = "softmax 的权重之和为 1。", en = "Softmax weights sum to 1." }
answer = true
explanation = { zh = "归一化使然。", en = "That is what the normalisation does." }
topics = ["softmax"]
""",
        "utf-8",
    )
    assert main(["--exercises", str(own), "quiz", "template", "--sets", "my-quiz"]) == 0
    text = capsys.readouterr().out
    assert tomllib.loads(text)["_quiz"] == ["my-dot", "my-sum"]
    (tmp_path / "a.toml").write_text(fill(text, {"my-dot": 5, "my-sum": True}), "utf-8")
    status = main(["--exercises", str(own), "quiz", "grade", str(tmp_path / "a.toml"), "--json"])
    (learner,) = json.loads(capsys.readouterr().out)["files"]
    assert status == 0 and (learner["score"], learner["max"]) == (2, 2)
    # Without the teacher's bank the record names questions nobody can mark: said so, not 0/2.
    status, out, _ = grade(capsys, tmp_path / "a.toml", "--json")
    (learner,) = json.loads(out)["files"]
    assert status == 1 and not learner["ok"]
    assert learner["problems"][0]["code"] == "classroom.record_unknown"
    assert "my-dot, my-sum" in learner["problems"][0]["message"]


@pytest.mark.parametrize(
    ("args", "says"),
    [
        (["--ids", "sc-dot,nope"], "no question “nope”"),
        (["--topics", "astrology"], "no question is tagged “astrology”"),
        (["--sets", "nothing"], "no quiz bank “nothing”"),
        (["--topics", "softmax", "--count", "999"], "--count 999"),
        (["--count", "0"], "--count 0"),
    ],
)
def test_composing_faults_are_one_line_each(capsys, args, says):
    assert main(["--lang", "en", "quiz", "template", *args]) == 2
    err = capsys.readouterr().err
    assert says in err and len(err.strip().splitlines()) == 1 and "Traceback" not in err


# -- the gradebook ----------------------------------------------------------------------------


def test_class_of_thirty_with_one_broken_file_gives_a_csv_a_spreadsheet_opens(
    tmp_path, capsys, klass, bank
):
    folder, expected = klass
    status, _, err = grade(capsys, folder, "--csv", tmp_path / "book.csv")
    assert status == 0 and "gradebook written" in err
    rows = read_csv(tmp_path / "book.csv")
    header, body = rows[0], rows[1:]
    assert len(body) == 30 and {len(r) for r in rows} == {len(header)}, "a rectangle"
    col = {name: i for i, name in enumerate(header)}
    assert header[:6] == ["student", "file", "status", "score", "max", "percent"]
    assert header[6:16] == TEN
    graded = [r for r in body if r[col["status"]] == "graded"]
    assert len(graded) == 29
    for r in graded:
        right = expected[r[col["student"]]]
        assert float(r[col["score"]]) == right and r[col["max"]] == "10"
        assert float(r[col["percent"]]) == pytest.approx(10 * right)
        assert [float(r[col[q]]) for q in TEN] == [1.0] * right + [0.0] * (10 - right)
        # a topic column is the share of that topic's questions answered right
        tagged = [i for i, q in enumerate(TEN) if "dot-product" in bank[q].topics]
        share = 100 * sum(i < right for i in tagged) / len(tagged)
        assert float(r[col["topic: dot-product scores %"]]) == pytest.approx(share, abs=0.05)
    (broken,) = [r for r in body if r[col["status"]] != "graded"]
    assert broken[col["student"]] == "zz-broken"
    assert broken[col["status"]] == "could not be read"
    assert "zz-broken.toml:2:" in broken[col["problems"]]
    assert broken[col["score"]] == broken[col["percent"]] == ""
    assert body[-1] is broken, "broken files listed after the graded ones"


def test_override_changes_the_total_and_is_marked_everywhere(tmp_path, capsys, klass):
    folder, expected = klass
    assert expected["s05"] == 5 and expected["s02"] == 2
    (tmp_path / "marks.toml").write_text(
        '[s05]\nsc-dot = { mark = 0.5, comment = "no working shown" }\n[s02]\nbx-head-dim = 1\n',
        "utf-8",
    )
    marks, book, fb = tmp_path / "marks.toml", tmp_path / "book.csv", tmp_path / "fb"
    status, out, _ = grade(capsys, folder, "--overrides", marks, "--csv", book, "--feedback", fb)
    assert status == 0
    # the terminal: the total carries the mark, the teacher's marks listed with the grader's
    assert "4.5/10*" in out and "3/10*" in out and "6/10*" not in out
    assert "overridden by the teacher: 1 → 0.5 (no working shown)" in out
    rows = read_csv(tmp_path / "book.csv")
    col = {name: i for i, name in enumerate(rows[0])}
    by = {r[col["student"]]: r for r in rows[1:]}
    assert float(by["s05"][col["score"]]) == 4.5 and float(by["s05"][col["sc-dot"]]) == 0.5
    assert float(by["s02"][col["score"]]) == 3 and float(by["s02"][col["bx-head-dim"]]) == 1
    assert by["s05"][col["overridden"]] == (
        "sc-dot: overridden by the teacher: 1 → 0.5 (no working shown)"
    )
    assert by["s04"][col["overridden"]] == ""
    feedback = (tmp_path / "fb" / "s05.txt").read_text("utf-8")
    assert "Total: 4.5 / 10 (45%)" in feedback
    assert "overridden by the teacher: 1 → 0.5 (no working shown)" in feedback
    # JSON: the mark in force, the grader's beside it
    status, out, _ = grade(capsys, folder, "--overrides", tmp_path / "marks.toml", "--json")
    s05 = next(f for f in json.loads(out)["files"] if f["file"].endswith("s05.toml"))
    assert s05["score"] == 4.5
    assert s05["overridden"] == {
        "sc-dot": {"mark": 0.5, "auto": 1.0, "comment": "no working shown"}
    }
    assert next(q for q in s05["questions"] if q["id"] == "sc-dot")["overridden"] is True


def test_faults_in_an_overrides_file_apply_nothing(tmp_path, capsys, klass):
    folder, _ = klass
    (tmp_path / "marks.toml").write_text(
        "[s05]\nsc-dot = 2\n[nobody]\nsc-dot = 1\n[s06]\nsc-steps = 1\n"
        '[s07]\nsc-dot = { mark = 1, note = "x" }\n[zz-broken]\nsc-dot = 1\n',
        "utf-8",
    )
    status, out, err = grade(
        capsys, folder, "--overrides", tmp_path / "marks.toml", "--csv", tmp_path / "book.csv"
    )
    assert status == 2 and not (tmp_path / "book.csv").exists()
    lines = out.strip().splitlines()  # every fault on stdout; stderr holds one line
    assert lines[0].endswith("marks.toml:2: s05, sc-dot: the mark 2 must be a number from 0 to 1")
    assert "marks.toml:8: sc-dot has unknown key(s) note" in lines[1]
    assert err.count("\n") == 1
    assert err.startswith("The overrides file has faults: none of it was applied")
    # once the mark and key faults are fixed, the class-level ones are named
    (tmp_path / "marks.toml").write_text(
        "[nobody]\nsc-dot = 1\n[s06]\nsc-steps = 1\n[zz-broken]\nsc-dot = 1\n", "utf-8"
    )
    status, out, _ = grade(capsys, folder, "--overrides", tmp_path / "marks.toml")
    assert status == 2
    assert "marks.toml:2: no student “nobody” in the class" in out
    assert "marks.toml:4: s06's quiz does not hold the question sc-steps" in out
    assert "marks.toml:6: zz-broken's answer file could not be read" in out


def test_overrides_read_quoted_names_and_report_syntax_by_line():
    text = '["李雷"]\nsc-dot = 0.25\n["Ann Lee"]\n"bx-mask-count" = { mark = 1, comment = "ok" }\n'
    overrides, problems = parse_overrides(text, "m.toml")
    assert problems == []
    assert [(o.student, o.question, o.mark, o.comment, o.line) for o in overrides] == [
        ("李雷", "sc-dot", 0.25, "", 2),
        ("Ann Lee", "bx-mask-count", 1.0, "ok", 4),
    ]
    _, problems = parse_overrides("[a]\nx = \n", "m.toml")
    assert [(p.line, p.code) for p in problems] == [(2, "ex.toml_syntax")]
    _, problems = parse_overrides("x = 1\n[b]\ny = true\n", "m.toml")
    assert [(p.line, p.code) for p in problems] == [
        (1, "classroom.ov.not_table"),
        (3, "classroom.ov.bad_mark"),
    ]


def test_feedback_gives_the_reference_answer_only_where_the_teacher_allows(tmp_path, capsys, klass):
    folder, _ = klass
    grade(capsys, folder, "--feedback", tmp_path / "none")
    assert "Reference answer" not in (tmp_path / "none" / "s03.txt").read_text("utf-8")
    grade(capsys, folder, "--feedback", tmp_path / "some", "--key-for", "sc-dot,bx-head-dim")
    some = (tmp_path / "some" / "s03.txt").read_text("utf-8")
    assert some.count("Reference answer") == 2 and "Reference answer: 2" in some
    grade(capsys, folder, "--feedback", tmp_path / "all", "--show-key")
    every = (tmp_path / "all" / "s03.txt").read_text("utf-8")
    assert every.count("Reference answer") == 10
    assert "Total: 3 / 10 (30%)" in every and "1. sc-dot: 1 / 1" in every
    broken = (tmp_path / "all" / "zz-broken.txt").read_text("utf-8")
    assert "could not be read" in broken and "zz-broken.toml:2:" in broken


def test_feedback_in_chinese(tmp_path, capsys, klass):
    folder, _ = klass
    argv = ["--lang", "zh", "quiz", "grade", str(folder), "--feedback", str(tmp_path / "fb")]
    assert main([*argv, "--csv", str(tmp_path / "b.csv")]) == 0
    text = (tmp_path / "fb" / "s03.txt").read_text("utf-8")
    assert "总分：3 / 10（30%）" in text and "你的答案：2" in text
    assert read_csv(tmp_path / "b.csv")[0][:3] == ["学生", "文件", "状态"]


def test_a_csv_cell_never_runs_as_a_formula(tmp_path, capsys, quiz10):
    folder = tmp_path / "c"
    folder.mkdir()
    (folder / "=HYPERLINK(1).toml").write_text(quiz10, "utf-8")
    (folder / "+1.toml").write_text("sc-dot = [\n", "utf-8")
    grade(capsys, folder, "--csv", tmp_path / "b.csv")
    cells = [c for row in read_csv(tmp_path / "b.csv")[1:] for c in row]
    assert "'=HYPERLINK(1)" in cells and "'+1" in cells
    assert not any(c[:1] in "=+-@" for c in cells if c)


def test_gradebook_never_overwrites_an_answer_file(tmp_path, capsys, klass):
    folder, _ = klass
    before = (folder / "s01.toml").read_bytes()
    status, _, err = grade(capsys, folder, "--csv", folder / "s01.toml")
    assert status == 2 and "will not be overwritten" in err
    assert (folder / "s01.toml").read_bytes() == before


def test_feedback_never_overwrites_an_answer_file_through_a_link(tmp_path, capsys, klass):
    """A feedback name that is a link (here to an answer file) is never written through
    (test_feedback_files.py has links to anything else), and one that is a hard link of an
    answer file is refused by the file's identity."""
    folder, _ = klass
    before = (folder / "s07.toml").read_bytes()
    out = tmp_path / "fb"
    out.mkdir()
    (out / "s07.txt").symlink_to(folder / "s07.toml")
    os.link(folder / "s08.toml", out / "s08.txt")
    status, _, err = grade(capsys, folder, "--feedback", out)
    assert status == 2 and "2 not written: s07.txt (a link is there" in err
    assert "s08.txt (it is one of the answer files being graded)" in err
    assert (folder / "s07.toml").read_bytes() == before
    assert (out / "s08.txt").read_bytes() == (folder / "s08.toml").read_bytes()


def test_an_unwritable_csv_path_is_one_line(tmp_path, capsys, klass):
    folder, _ = klass
    status, _, err = grade(capsys, folder, "--csv", tmp_path / "no" / "such" / "dir.csv")
    assert status == 2 and err.strip().count("\n") == 0 and "cannot write" in err
