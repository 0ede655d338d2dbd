"""`quiz grade DIR --groups / --write-groups FILE`: a class's written answers in groups a teacher
reads in 80 columns, a file of groups to mark once each, its marks applied to every student of a
group (a student's own mark first), and per question how often the teacher turned the grader.

The expected figures are counted here from the grader's own marks (its --json without any
overrides) and the marks the test gives, not read back from the report."""

from __future__ import annotations

import csv
import json
import tomllib

import pytest
from rich.cells import cell_len

from attn_tui.cli import main

SQRT = [  # (answer, how many students hand it in) — written for this test
    ("Without the division the dot products spread out more as d grows, softmax saturates "
     "and its gradients all but vanish; dividing by √d puts the variance back at 1.", 4),
    ("不除的话，点积的方差随维度 d 变大，softmax 会饱和、梯度几乎为零；"
     "除以 √d 把方差拉回到 1。", 3),
    ("It makes training run faster on a GPU.", 3),
    ("", 1),
]  # fmt: skip
STEPS = [
    ("Score each key against the query with a dot product, softmax the scores into weights "
     "that are positive and add up to one, then add up the values weighted by them.", 5),
    ("Softmax the values, then multiply by the keys.", 6),
]  # fmt: skip


def grade(capsys, *args) -> tuple[int, str, str]:
    status = main(["--lang", "en", "quiz", "grade", *map(str, args)])
    out = capsys.readouterr()
    return status, out.out, out.err


@pytest.fixture
def klass(tmp_path):
    """11 students; the same answer in slightly different case and spacing (one wording)."""
    folder = tmp_path / "class"
    folder.mkdir()
    sqrt = [text for text, n in SQRT for _ in range(n)]
    steps = [text for text, n in STEPS for _ in range(n)]
    for k, (a, b) in enumerate(zip(sqrt, steps, strict=True)):
        if k % 2:
            a, b = a.upper(), "  ".join(b.split())  # folded alike: the same answer
        body = {"_quiz": ["sc-why-sqrt", "sc-steps"], "sc-why-sqrt": a, "sc-steps": b}
        (folder / f"s{k:02d}.json").write_text(json.dumps(body, ensure_ascii=False), "utf-8")
    return folder


def grader_marks(capsys, folder) -> dict[tuple[str, str], float]:
    status, out, _ = grade(capsys, folder, "--json")
    assert status == 0
    return {
        (f["student"] if "student" in f else f["file"].rsplit("/", 1)[-1].rsplit(".", 1)[0],
         q["id"]): q["score"]
        for f in json.loads(out)["files"]
        for q in f["questions"]
    }  # fmt: skip


def test_groups_in_80_columns_each_student_once_and_like_with_like(klass, capsys, monkeypatch):
    monkeypatch.setenv("COLUMNS", "80")
    status, out, _ = grade(capsys, klass, "--groups")
    assert status == 0
    shown = out[out.index("Written answers in groups") :]
    assert max(cell_len(line) for line in shown.splitlines()) <= 80
    assert "sc-why-sqrt: 10 answers in" in shown and "1 left blank" in shown
    status, out, _ = grade(capsys, klass, "--groups", "--json")
    groups = json.loads(out)["groups"]
    for question, texts in (("sc-why-sqrt", SQRT), ("sc-steps", STEPS)):
        listed = [s["student"] for g in groups[question]["groups"] for s in g["students"]]
        handed_in = sum(n for text, n in texts if text)
        assert len(listed) == len(set(listed)) == handed_in
        # students who handed in the same answer (case and spacing aside) share a group
        start = 0
        for text, n in texts:
            same = {f"s{k:02d}" for k in range(start, start + n)}
            start += n
            if text:
                assert any(same <= {s["student"] for s in g["students"]}
                           for g in groups[question]["groups"])  # fmt: skip
        for g in groups[question]["groups"]:
            assert g["answers"] == len(g["students"])
            scores = [s["score"] for s in g["students"]]
            assert (g["score"]["min"], g["score"]["max"]) == (min(scores), max(scores))


def test_marking_each_group_once_marks_every_student_and_counts_the_disagreements(
    klass, capsys, tmp_path
):
    auto = grader_marks(capsys, klass)
    marks = tmp_path / "groups.toml"
    status, _, err = grade(capsys, klass, "--write-groups", marks)
    assert status == 0 and "groups of written answers written to" in err
    data = tomllib.loads(marks.read_text("utf-8"))  # the file is TOML as written
    groups = data["group"]
    assert all("mark" not in g for g in groups), "nothing marked until the teacher marks it"
    # the teacher marks every group of sc-steps 1 and every group of sc-why-sqrt 0
    text = marks.read_text("utf-8")
    blocks = text.split("[[group]]\n")
    for k, block in enumerate(blocks[1:], 1):
        question = tomllib.loads(block.split("[group.students]")[0])["question"]
        value = "1" if question == "sc-steps" else "0"
        blocks[k] = block.replace("# mark = ", f"mark = {value}  # the grader: ", 1)
    marks.write_text("[[group]]\n".join(blocks), "utf-8")
    status, out, _ = grade(capsys, klass, "--overrides", marks, "--json")
    assert status == 0
    report = json.loads(out)
    expected: dict[str, dict[str, int]] = {}
    pass_mark = {"sc-steps": 0.8, "sc-why-sqrt": 0.6}  # the two items' pass marks (their TOML)
    for (student, question), grader in auto.items():
        if student_text(student, question) == "":
            continue  # a blank answer is no written answer: in no group, marked by none
        teacher = 1.0 if question == "sc-steps" else 0.0
        row = expected.setdefault(question, {"marked": 0, "disagreed": 0})
        row["marked"] += 1
        row["disagreed"] += (teacher >= pass_mark[question]) != (grader >= pass_mark[question])
    got = {q: {k: v[k] for k in ("marked", "disagreed")} for q, v in report["agreement"].items()}
    assert got == expected
    for row in expected.values():  # the teacher both confirmed and turned the grader
        assert 0 < row["disagreed"] < row["marked"]
    for f in report["files"]:
        for q in f["questions"]:
            if q["status"] != "empty":
                assert q["score"] == (1.0 if q["id"] == "sc-steps" else 0.0)
                assert q["overridden"] is True
    # and in the terminal: the table of the teacher against the grader
    status, out, _ = grade(capsys, klass, "--overrides", marks)
    assert "The teacher's marks against the grader's, per question" in out


def student_text(student: str, question: str) -> str:
    texts = SQRT if question == "sc-why-sqrt" else STEPS
    flat = [text for text, n in texts for _ in range(n)]
    return flat[int(student[1:])]


def test_a_students_own_mark_wins_over_the_groups(klass, capsys, tmp_path):
    marks = tmp_path / "groups.toml"
    grade(capsys, klass, "--write-groups", marks)
    text = marks.read_text("utf-8").replace("# mark = ", "mark = 0.25  # ")
    marks.write_text(text + '\n[s00]\nsc-steps = { mark = 1, comment = "own" }\n', "utf-8")
    status, out, _ = grade(capsys, klass, "--overrides", marks, "--csv", tmp_path / "book.csv")
    assert status == 0
    with open(tmp_path / "book.csv", encoding="utf-8-sig", newline="") as fh:
        rows = list(csv.reader(fh))
    col = {name: i for i, name in enumerate(rows[0])}
    by = {r[col["student"]]: r for r in rows[1:]}
    assert float(by["s00"][col["sc-steps"]]) == 1
    assert float(by["s01"][col["sc-steps"]]) == 0.25
    assert float(by["s10"][col["sc-why-sqrt"]]) == 0  # the blank one: no group, no mark


def test_a_mark_never_lands_on_an_answer_changed_since_it_was_grouped(klass, capsys, tmp_path):
    marks = tmp_path / "groups.toml"
    grade(capsys, klass, "--write-groups", marks)
    marks.write_text(marks.read_text("utf-8").replace("# mark = ", "mark = 1  # "), "utf-8")
    (klass / "s03.json").write_text(
        json.dumps(
            {
                "_quiz": ["sc-why-sqrt", "sc-steps"],
                "sc-why-sqrt": "I changed my mind.",
                "sc-steps": "x",
            }
        ),  # fmt: skip
        "utf-8",
    )
    status, out, err = grade(capsys, klass, "--overrides", marks, "--csv", tmp_path / "b.csv")
    assert status == 2 and not (tmp_path / "b.csv").exists()
    assert "s03's answer to sc-why-sqrt has changed since it was grouped" in out
    assert err.startswith("The overrides file has faults: none of it was applied")
    lines = marks.read_text("utf-8").splitlines()
    line = int(out.split("groups.toml:")[1].split(":")[0])
    assert lines[line - 1].startswith("s03 = ")  # the fault names the student's own line


def test_two_groups_giving_one_answer_two_marks_is_a_fault(klass, capsys, tmp_path):
    marks = tmp_path / "groups.toml"
    grade(capsys, klass, "--write-groups", marks)
    text = marks.read_text("utf-8")
    first = text.index("[[group]]")
    block = text[first : text.index("\n\n", first)]
    marks.write_text(
        text.replace("# mark = ", "mark = 1  # ")
        + "\n"
        + block.replace("# mark = ", "mark = 0  # "),
        "utf-8",
    )
    status, out, _ = grade(capsys, klass, "--overrides", marks)
    assert status == 2 and "is in two groups with different marks" in out


def test_the_groups_file_never_replaces_a_file(klass, capsys, tmp_path):
    marks = tmp_path / "groups.toml"
    marks.write_text("[s00]\nsc-steps = 1\n", "utf-8")  # the teacher's marks: never lost
    status, out, err = grade(capsys, klass, "--write-groups", marks)
    assert status == 2 and "already exists" in err and err.count("\n") == 1
    assert marks.read_text("utf-8") == "[s00]\nsc-steps = 1\n"
    status, _, err = grade(capsys, klass, "--write-groups", klass / "s00.json")
    assert status == 2 and "already exists" in err


def test_a_file_or_link_made_after_the_check_is_neither_replaced_nor_followed(
    klass, capsys, tmp_path, monkeypatch
):
    """The early check (before grading) and the write are apart in time: what appears at the
    target in that gap — the teacher's marks saved meanwhile, or a link planted to a file the
    teacher owns — must still be refused, never replaced or written through. Before the fix
    the write renamed a temporary file over the target, so both were replaced."""
    from attn_tui.commands import _groups

    monkeypatch.setattr(_groups, "taken", lambda path: False)  # the check saw nothing there
    marks = tmp_path / "groups.toml"
    marks.write_text("[s00]\nsc-steps = 1\n", "utf-8")
    status, _, err = grade(capsys, klass, "--write-groups", marks)
    assert status == 2 and "already exists" in err
    assert marks.read_text("utf-8") == "[s00]\nsc-steps = 1\n"
    victim = tmp_path / "victim.toml"
    victim.write_text("mine", "utf-8")
    link = tmp_path / "link.toml"
    link.symlink_to(victim)
    dangling = tmp_path / "dangling.toml"
    dangling.symlink_to(tmp_path / "nowhere.toml")
    for target in (link, dangling):
        status, _, err = grade(capsys, klass, "--write-groups", target)
        assert status == 2 and "already exists" in err
        assert target.is_symlink()
    assert victim.read_text("utf-8") == "mine" and not (tmp_path / "nowhere.toml").exists()
    assert sorted(p.name for p in tmp_path.iterdir() if p.name.startswith(".")) == []  # no temp
    status, _, _ = grade(capsys, klass, "--write-groups", tmp_path / "new.toml")
    assert status == 0 and "[[group]]" in (tmp_path / "new.toml").read_text("utf-8")


@pytest.mark.slow  # a class of 400 files, two of them a megabyte each
def test_a_large_class_with_megabyte_answers_is_grouped(tmp_path, capsys):
    folder = tmp_path / "big"
    folder.mkdir()
    for k in range(400):
        text = STEPS[k % 2][0] if k % 7 else f"answer number {k} about nothing in particular"
        if k in (3, 5):
            text = "softmax " * 130_000  # about a megabyte
        body = {"_quiz": ["sc-steps"], "sc-steps": text}
        (folder / f"p{k:03d}.json").write_text(json.dumps(body), "utf-8")
    status, out, _ = grade(capsys, folder, "--groups", "--json")
    assert status == 0
    groups = json.loads(out)["groups"]["sc-steps"]["groups"]
    assert sum(g["answers"] for g in groups) == 400
    assert all(len(g["typical"]["text"]) <= 2000 for g in groups)  # never a megabyte echoed
