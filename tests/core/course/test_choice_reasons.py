"""Each choice's wrong options say why they are wrong, in both languages; a pick shows it."""

from __future__ import annotations

from attn_tui import paths
from attn_tui.core.exercises.grading import grade
from attn_tui.core.exercises.loader import load_text
from attn_tui.i18n import t


def test_every_wrong_option_of_every_shipped_choice_says_why():
    lib = paths.load_all()
    missing = []
    count = 0
    for s in lib.sets + lib.quizzes:
        for e in s.exercises:
            if e.kind not in ("choice", "multi"):
                continue
            right = {e.answer} if e.kind == "choice" else set(e.answer)
            for c in e.choices:
                if c.id in right:
                    assert c.why is None, (s.id, e.id, c.id)
                    continue
                count += 1
                if c.why is None or not (c.why.zh.strip() and c.why.en.strip()):
                    missing.append(f"{s.id}/{e.id}:{c.id}")
    assert missing == []
    assert count > 140


def test_a_wrong_pick_shows_its_reason_and_a_right_one_none():
    ex = paths.load_all().get("hand-example").exercise("top-key")
    g = grade(ex, "a")
    assert [d.code for d in g.diagnoses] == ["choice"]
    assert "ignores position" in g.lines(t, "en")[-1]
    assert "不看位置" in g.lines(t, "zh")[-1]
    assert grade(ex, "b").diagnoses == ()
    multi = paths.load_all().get("softmax").exercise("properties")
    g = grade(multi, "a b d f")  # two wrong picks: both reasons
    assert len(g.diagnoses) == 2


def test_a_why_on_a_right_option_is_a_fault():
    text = """[set]
id = "w"
title = { zh = "w", en = "w" }
summary = { zh = "w", en = "w" }

[[exercise]]
id = "c1"
kind = "choice"
topics = ["softmax"]
answer = "a"
prompt = { zh = "问", en = "Q" }
explanation = { zh = "因为。", en = "Because." }

[[exercise.choices]]
id = "a"
zh = "对"
en = "right"
why = { zh = "不该有", en = "should not be here" }

[[exercise.choices]]
id = "b"
zh = "错"
en = "wrong"
why = { zh = "因为错。", en = "Because it is wrong." }
"""
    loaded, problems = load_text(text, "w.toml")
    assert loaded is None and [p.code for p in problems] == ["ex.why_on_right"]
