"""One student, one name: the class table, the CSV, the overrides and the feedback file all use
the same name, unique in the class, and two files that would be one student are refused by
name, never merged.

Before: ``alice.toml``, ``alice.json`` and ``alice.json.toml`` were three students, but the last
two were both called ``alice.json`` (a stem kept whole when shared, and a stem that *is* a whole
name): one ``["alice.json"]`` override marked both, the CSV had two ``alice.json`` rows, one
feedback file overwrote the other, and stderr still said "3 feedback file(s) written".
"""

from __future__ import annotations

import csv
import json
import string
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from attn_tui.cli import main
from attn_tui.core.gradebook import fold, same_students, student_names

QUIZ = '_quiz = ["sc-dot", "bx-mask-count"]\n'


def grade(capsys, *args) -> tuple[int, str, str]:
    status = main(["--lang", "en", "quiz", "grade", *map(str, args)])
    out = capsys.readouterr()
    return status, out.out, out.err


def rows(path: Path) -> list[dict[str, str]]:
    with open(path, encoding="utf-8-sig", newline="") as fh:
        return list(csv.DictReader(fh))


def test_three_files_that_were_two_names_are_three_students_everywhere(tmp_path, capsys):
    folder = tmp_path / "class"
    folder.mkdir()
    (folder / "alice.toml").write_text(QUIZ + "sc-dot = 2\n", "utf-8")
    (folder / "alice.json.toml").write_text(QUIZ + "sc-dot = 2\n", "utf-8")
    (folder / "alice.json").write_text(json.dumps({"_quiz": ["sc-dot"], "sc-dot": 3}), "utf-8")
    marks = tmp_path / "marks.toml"
    marks.write_text('["alice.json"]\nsc-dot = 0.5\n', "utf-8")
    book, fb = tmp_path / "g.csv", tmp_path / "fb"
    status, out, err = grade(capsys, folder, "--feedback", fb, "--csv", book, "--overrides", marks)
    assert status == 0
    names = [r["student"] for r in rows(book)]
    assert sorted(names) == ["alice.json", "alice.json.toml", "alice.toml"]
    overridden = {r["student"]: r["overridden"] for r in rows(book)}
    assert overridden["alice.json"] and not overridden["alice.json.toml"], "one student only"
    assert sorted(p.name for p in fb.iterdir()) == sorted(f"{n}.txt" for n in names)
    assert "3 feedback file(s) written" in err
    assert "Quiz feedback: alice.json.toml" in (fb / "alice.json.toml.txt").read_text("utf-8")
    # the class table shows the same names, and so does --json
    for name in names:
        assert f"│ {name} " in out
    status, out, _ = grade(capsys, folder, "--overrides", marks, "--json")
    by = {f["student"]: f for f in json.loads(out)["files"]}
    assert sorted(by) == sorted(names)
    assert [s for s, f in by.items() if "overridden" in f] == ["alice.json"]


def test_two_files_one_case_blind_disk_would_merge_are_both_refused_by_name(tmp_path, capsys):
    folder = tmp_path / "class"
    folder.mkdir()
    (folder / "Bob.toml").write_text(QUIZ + "sc-dot = 2\n", "utf-8")
    (folder / "bob.toml").write_text(QUIZ + "sc-dot = 1\n", "utf-8")
    (folder / "carol.toml").write_text(QUIZ + "sc-dot = 2\n", "utf-8")
    book, fb = tmp_path / "g.csv", tmp_path / "fb"
    status, out, err = grade(capsys, folder, "--feedback", fb, "--csv", book)
    assert status == 2, "two feedback files were refused"
    by = {r["student"]: r for r in rows(book)}
    assert by["carol"]["status"] == "graded"
    for name, other in (("Bob.toml", "bob.toml"), ("bob.toml", "Bob.toml")):
        assert by[name]["status"] == "could not be read"
        assert other in by[name]["problems"] and "rename one" in by[name]["problems"]
    assert [p.name for p in fb.iterdir()] == ["carol.txt"]
    assert "1 feedback file(s) written" in err and "2 not written: Bob.toml.txt" in err
    assert len(err.strip().splitlines()) == 1
    # an override for either is a fault by line, and nothing is applied
    marks = tmp_path / "marks.toml"
    marks.write_text('["bob.toml"]\nsc-dot = 1\n', "utf-8")
    status, out, _ = grade(capsys, folder, "--overrides", marks)
    assert status == 2 and "marks.toml:2: bob.toml's answer file could not be read" in out


def test_an_override_names_a_student_exactly_as_the_gradebook_does(tmp_path, capsys):
    folder = tmp_path / "class"
    folder.mkdir()
    (folder / "dan.toml").write_text(QUIZ + "sc-dot = 2\n", "utf-8")
    marks = tmp_path / "marks.toml"
    marks.write_text('["dan.toml"]\nsc-dot = 1\n', "utf-8")
    status, out, _ = grade(capsys, folder, "--overrides", marks)
    assert status == 2 and "no student “dan.toml” in the class" in out and "dan" in out


file_names = st.lists(
    st.builds(
        lambda stem, ext: stem + ext,
        st.text(string.ascii_letters[:6] + ".ÅåK\u212a", min_size=1, max_size=6),
        st.sampled_from([".toml", ".json", ".TOML", ".json.toml", ".toml.json"]),
    ),
    min_size=1,
    max_size=8,
    unique=True,
)


@settings(max_examples=300, deadline=None)
@given(file_names)
def test_names_are_unique_on_a_case_blind_disk_or_refused_together(names_on_disk):
    paths = [Path("class") / n for n in names_on_disk]
    names = student_names(paths)
    doubles = same_students(names)
    kept = [fold(n) for i, n in enumerate(names) if i not in doubles]
    assert len(kept) == len(set(kept)), "every student kept has a name of their own"
    for i, others in doubles.items():
        assert names[i] == paths[i].name, "only whole names can still fold alike"
        assert all(fold(names[j]) == fold(names[i]) for j in others)
    for i, name in enumerate(names):
        assert name in (paths[i].stem, paths[i].name)
        if name == paths[i].stem:  # a stem is used only when nothing else could be read as it
            assert all(fold(p.stem) != fold(name) and fold(p.name) != fold(name)
                       for j, p in enumerate(paths) if j != i)  # fmt: skip
