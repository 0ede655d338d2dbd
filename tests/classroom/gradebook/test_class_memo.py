"""A class graded with the shared answer memo (:class:`attn_tui.core.quiz.AnswerMemo`) gets
exactly the marks, feedback and files that grading each answer on its own gives: every Grade
field, the --json report, the table, the --csv gradebook and the --feedback files."""

from __future__ import annotations

import json
from pathlib import Path

from attn_tui.cli import main
from attn_tui.core import quiz
from attn_tui.core.exercises.generators import instance


def _key(ex):
    return quiz.file_instance(ex).answer if ex.generated else ex.answer


def _class(folder: Path, bank) -> None:
    """Learners who share answers (the reference copied, half of it, the same choice) and
    learners who differ only in a number's type or sign, a blank, a list, a broken file."""
    folder.mkdir()
    written = [ex for ex in bank if ex.kind == "text"]
    for n in range(12):
        answers: dict[str, object] = {}
        for k, ex in enumerate(bank):
            key = _key(ex)
            pick = (n + k) % 5
            if ex.kind == "text":
                text = key.get("zh" if (n + k) % 2 else "en")
                answers[ex.id] = [text, text[: len(text) // 2], "", "I don't know", text][pick]
            elif ex.kind == "number":
                answers[ex.id] = [float(key), int(round(float(key))), str(key), -0.0, 0.0][pick]
            elif ex.kind == "choice":
                answers[ex.id] = [key, key.upper(), ex.choices[0].id, "zz", True][pick]
            elif ex.kind == "multi":
                answers[ex.id] = [" ".join(key), list(key), "a", "", 1][pick]
            elif ex.kind == "truefalse":
                answers[ex.id] = [bool(key), "t", "f", 1, 0][pick]
            else:  # vector, matrix: a list, its text, or one number
                value = json.loads(json.dumps(key, default=float))
                answers[ex.id] = [value, json.dumps(value), 1.0, value, "x"][pick]
        if n == 3:  # a quiz of a few questions, recorded
            answers["_quiz"] = [ex.id for ex in written[:2]] + ["sc-dot"]
            answers = {k: v for k, v in answers.items() if k in answers["_quiz"] or k == "_quiz"}
        (folder / f"s{n:02d}.json").write_text(json.dumps(answers, ensure_ascii=False), "utf-8")
    (folder / "broken.toml").write_text('sc-dot = 2\nsc-steps = "unclosed\n', "utf-8")
    (folder / "copy.toml").write_text(
        f"sc-dot = 2.0\nsc-steps = {json.dumps(written[0].answer.get('en'))}\n", "utf-8"
    )


def _one_by_one(self, inst, typed):
    """The straightforward path: a fresh instance, every answer graded on its own."""
    ex = inst.exercise
    return quiz.answer(quiz.file_instance(ex) if ex.generated else instance(ex), typed)


def test_every_grade_is_the_one_grading_alone_gives(tmp_path, bank):
    _class(tmp_path / "class", bank)
    learners = quiz.grade_path(bank, tmp_path / "class")
    assert len(learners) == 14 and sum(r.ok for r in learners) == 13
    shared = 0
    for r in learners:
        if r.result is None:
            continue
        alone = quiz.grade_answers(
            bank, quiz.read_answers(r.file.path, [ex.id for ex in bank])
        ).result
        assert alone is not None and len(alone.answered) == len(r.result.answered)
        for a, b in zip(r.result.answered, alone.answered, strict=True):
            assert a.id == b.id and repr(a.answer) == repr(b.answer)
            # every field: status, score, notes, ideas with their quoted words, value, ...
            assert repr(a.grade) == repr(b.grade), a.id
        assert (r.result.score, r.result.total) == (alone.score, alone.total)
        assert r.result.per_topic == alone.per_topic and r.result.missed == alone.missed
        shared += sum(
            a.grade is b.grade for a, b in zip(r.result.answered, alone.answered, strict=True)
        )
    assert shared == 0  # the reference really graded on its own


def test_learners_who_wrote_the_same_share_one_grade(tmp_path, bank):
    _class(tmp_path / "class", bank)
    by_file = {r.file.path.name: r for r in quiz.grade_path(bank, tmp_path / "class")}
    steps = [
        a.grade
        for r in by_file.values()
        if r.result
        for a in r.result.answered
        if a.id == "sc-steps" and a.answer == by_file["copy.toml"].file.answers["sc-steps"]
    ]
    assert len(steps) >= 2 and all(g is steps[0] for g in steps)
    # 2 and 2.0 and "2" are graded apart (each Grade keeps the value it read), -0.0 apart from 0.0
    memo = quiz.AnswerMemo(bank)
    dot = quiz.file_instance(next(ex for ex in bank if ex.id == "sc-dot"))
    grades = [memo.answer(dot, v).grade for v in (2, 2.0, "2", -0.0, 0.0, True)]
    assert len({id(g) for g in grades}) == 6 and memo.hits == 0
    assert memo.answer(dot, 2.0).grade is grades[1] and memo.hits == 1


def _outputs(cls: Path, out: Path, capsys) -> dict[str, str]:
    texts = {}
    assert main(["--lang", "en", "quiz", "grade", str(cls), "--json"]) == 0
    texts["json"] = capsys.readouterr().out
    assert main(["--lang", "zh", "quiz", "grade", str(cls)]) == 0
    texts["table"] = capsys.readouterr().out
    argv = ["--lang", "en", "quiz", "grade", str(cls), "--csv", str(out / "book.csv")]
    assert main([*argv, "--feedback", str(out / "fb")]) == 0
    capsys.readouterr()
    texts["csv"] = (out / "book.csv").read_text("utf-8")
    for f in sorted((out / "fb").iterdir()):
        texts[f.name] = f.read_text("utf-8")
    return texts


def test_reports_and_gradebook_match_grading_one_by_one(tmp_path, bank, capsys, monkeypatch):
    _class(tmp_path / "class", bank)
    (tmp_path / "memo").mkdir()
    (tmp_path / "alone").mkdir()
    with_memo = _outputs(tmp_path / "class", tmp_path / "memo", capsys)
    monkeypatch.setattr(quiz.AnswerMemo, "answer", _one_by_one)
    alone = _outputs(tmp_path / "class", tmp_path / "alone", capsys)
    assert with_memo.keys() == alone.keys() and len(alone) > 10
    for name in alone:
        assert with_memo[name].replace("memo", "alone") == alone[name], name
    report = json.loads(alone["json"])
    assert report["totals"]["graded"] == 13 and report["totals"]["broken"] == 1
