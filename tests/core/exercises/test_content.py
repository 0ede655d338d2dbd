"""The file checker: each fault found on the right line of small broken files, a broken file
never stopping the others from loading, and duplicate set ids reported by name."""

from __future__ import annotations

from pathlib import Path

import pytest

from attn_tui.core.exercises.loader import LineIndex, load_file, load_library, load_text
from attn_tui.i18n import t

HEAD = """\
[set]
id = "s"
order = 2
title = { zh = "标题", en = "Title" }
summary = { zh = "简介", en = "Summary" }
"""  # 5 lines

GOOD_NUMBER = """
[[exercise]]
id = "n"
kind = "number"
prompt = { zh = "多少？", en = "How much?" }
answer = 1.5
explanation = { zh = "因为。", en = "Because." }
topics = ["scaling"]
"""


def problems_of(text: str) -> list[tuple[int, str]]:
    loaded, problems = load_text(text, "f.toml")
    assert (loaded is None) == bool(problems)
    return [(p.line, p.code) for p in problems]


def line_of(text: str, needle: str) -> int:
    """1-based line of the first line containing ``needle``: the tests never count by hand."""
    return next(i for i, line in enumerate(text.splitlines(), 1) if needle in line)


def test_a_good_file_loads_with_its_set_fields():
    s, problems = load_text(HEAD + GOOD_NUMBER, "f.toml")
    assert problems == [] and s is not None
    assert (s.id, s.order, s.quiz, s.title.get("zh"), s.topics) == (
        "s",
        2,
        False,
        "标题",
        ("scaling",),
    )
    assert s.exercises[0].line == line_of(HEAD + GOOD_NUMBER, "[[exercise]]")


def test_toml_syntax_error_gives_tomllib_line():
    text = HEAD + GOOD_NUMBER + 'answer = [1, 2\nid = "x"\n'
    [(line, code)] = problems_of(text)
    assert code == "ex.toml_syntax" and line in (
        line_of(text, "answer = [1, 2"),
        line_of(text, 'id = "x"'),
    )


def test_missing_keys_point_at_the_exercise_header():
    text = (
        HEAD
        + GOOD_NUMBER
        + '\n[[exercise]]\nid = "m"\nkind = "number"\nanswer = 2\ntopics = ["cost"]\n'
    )
    found = problems_of(text)
    header = text.splitlines().index("[[exercise]]", 8) + 1
    assert (header, "ex.missing_key") in found
    messages = [p.format(t, "en") for p in load_text(text, "f.toml")[1]]
    assert f"f.toml:{header}: exercise m: “prompt” is missing." in messages
    assert f"f.toml:{header}: exercise m: “explanation” is missing." in messages


@pytest.mark.parametrize(
    ("bad_line", "code"),
    [
        ('kind = "numbr"', "ex.unknown_kind"),
        ('topics = ["scaling", "magic"]', "ex.unknown_topic"),
        ("tolerance = { abs = -0.1 }", "ex.negative_tolerance"),
        ("tolerance = { abs = 0.1, absolute = 2 }", "ex.unknown_key"),
        ('prompt = { zh = "多少？" }', "ex.missing_lang"),
        ('prompt = { zh = "多少？", en = "   " }', "ex.empty_text"),
        ('prompt = { zh = "多少？", en = "x", fr = "y" }', "ex.unknown_lang"),
        ('hints = { zh = ["一", "二"], en = ["one"] }', "ex.hint_counts"),
        ('check = { fn = "sqrt", x = 3 }', "ex.check_mismatch"),
        ('check = { fn = "cube", x = 3 }', "ex.unknown_check"),
        (
            'check = { fn = "attention.weights", query = "1 0 1", keys = "1 0 0" }',
            "ex.kind_mismatch",
        ),
        ('hint = { zh = ["一"], en = ["one"] }', "ex.unknown_key"),
        ('answer = "1.5"', "ex.want_number"),
        ('id = "has space"', "ex.bad_id"),
    ],
)
def test_each_fault_is_reported_on_its_own_line(bad_line, code):
    key = bad_line.split("=")[0].strip()
    lines = GOOD_NUMBER.splitlines()
    replaced = [bad_line if line.startswith(key + " ") else line for line in lines]
    if bad_line not in replaced:
        replaced.insert(4, bad_line)
    text = HEAD + "\n".join(replaced) + "\n"
    found = problems_of(text)
    assert (line_of(text, bad_line), code) in found, found


def test_multiline_hints_report_the_language_line():
    # Inline tables may not break between keys, but an array inside one may span lines.
    text = HEAD + GOOD_NUMBER + 'hints = { zh = [\n  "一"], en = [1] }\n'
    assert (line_of(text, "en = [1]"), "ex.want_text_list") in problems_of(text)


def test_answer_and_generate_points_at_the_answer():
    text = HEAD + GOOD_NUMBER + 'generate = { fn = "sqrt" }\n'
    assert (line_of(text, "answer = 1.5"), "ex.answer_and_generate") in problems_of(text)


def test_choice_faults_point_at_the_choice_tables():
    text = (
        HEAD
        + """
[[exercise]]
id = "c"
kind = "choice"
prompt = { zh = "选", en = "Pick" }
answer = "z"
explanation = { zh = "略", en = "-" }
topics = ["softmax"]

[[exercise.choices]]
id = "a"
zh = "甲"
en = "A"

[[exercise.choices]]
id = "a"
zh = "乙"
"""
    )
    found = problems_of(text)
    second = [i for i, line in enumerate(text.splitlines(), 1) if line == "[[exercise.choices]]"][1]
    assert (line_of(text, 'answer = "z"'), "ex.answer_not_choice") in found
    assert (second, "ex.missing_lang") in found  # the second choice has no en
    assert (second + 1, "ex.duplicate_choice") in found


def test_rubric_faults_point_at_the_rubric_table():
    text = (
        HEAD
        + """
[[exercise]]
id = "t"
kind = "text"
prompt = { zh = "为什么", en = "Why" }
answer = { zh = "因为", en = "Because" }
explanation = { zh = "略", en = "-" }
topics = ["variance"]
pass = 1.5

[[exercise.rubric]]
idea = { zh = "方差", en = "variance" }
weight = 0
phrases = { zh = ["方差"], en = ["  "] }
"""
    )
    found = problems_of(text)
    assert (line_of(text, "pass = 1.5"), "ex.bad_pass") in found
    assert (line_of(text, "weight = 0"), "ex.bad_weight") in found
    assert (line_of(text, "phrases = "), "ex.empty_phrase") in found


def test_generator_faults():
    text = (
        HEAD
        + """
[[exercise]]
id = "g"
kind = "vector"
generate = { fn = "sqrt" }
prompt = { zh = "√{d} 与 {dd}", en = "√{d}" }
explanation = { zh = "略", en = "-" }
topics = ["scaling"]
"""
    )
    found = problems_of(text)
    assert (line_of(text, "generate ="), "ex.kind_mismatch") in found
    assert (line_of(text, "prompt ="), "ex.unknown_placeholder") in found
    bad_param = text.replace(
        'generate = { fn = "sqrt" }', 'generate = { fn = "sqrt", choice = [3] }'
    )
    assert (line_of(bad_param, "generate ="), "ex.param_unknown") in problems_of(bad_param)


def test_duplicate_exercise_ids_and_missing_set():
    text = HEAD + GOOD_NUMBER + GOOD_NUMBER
    second_id = [i for i, line in enumerate(text.splitlines(), 1) if line == 'id = "n"'][1]
    assert (second_id, "ex.duplicate_exercise") in problems_of(text)
    assert (1, "ex.missing_set") in problems_of(GOOD_NUMBER)
    assert ("ex.no_exercises") in [c for _, c in problems_of(HEAD)]


def test_sub_table_style_is_understood_too():
    text = (
        HEAD
        + """
[[exercise]]
id = "n"
kind = "number"
answer = 1.5
topics = ["scaling"]

[exercise.prompt]
zh = "多少？"
en = "How much?"

[exercise.explanation]
zh = "因为。"
"""
    )
    found = problems_of(text)
    assert found == [(line_of(text, "[exercise.explanation]"), "ex.missing_lang")]


def test_line_index_tracks_headers():
    idx = LineIndex(HEAD + GOOD_NUMBER + GOOD_NUMBER)
    assert idx.set_line == 1 and idx.set_key("summary") == 5
    assert idx.exercises == [7, 15]
    assert idx.exercise_key(1, "answer") == 19


def test_not_utf8_and_unreadable(tmp_path: Path):
    bad = tmp_path / "latin1.toml"
    bad.write_bytes(HEAD.encode("utf-8") + b"# caf\xe9\n")
    _, problems = load_file(bad)
    assert [(p.line, p.code) for p in problems] == [(6, "ex.not_utf8")]
    _, problems = load_file(tmp_path / "missing.toml")
    assert problems[0].code == "ex.unreadable"


def test_a_broken_teacher_file_is_one_entry_and_the_rest_load(tmp_path: Path):
    shipped = tmp_path / "shipped"
    teacher = tmp_path / "teacher"
    shipped.mkdir()
    teacher.mkdir()
    (shipped / "01.toml").write_text(HEAD + GOOD_NUMBER, "utf-8")
    (teacher / "a_good.toml").write_text(
        HEAD.replace('"s"', '"t1"').replace("order = 2", "order = 1") + GOOD_NUMBER, "utf-8"
    )
    (teacher / "b_broken.toml").write_text(
        HEAD.replace('"s"', '"t2"') + "[[exercise]]\nid = 3\n", "utf-8"
    )
    (teacher / "c_copy.toml").write_text(HEAD + GOOD_NUMBER, "utf-8")  # same id as shipped
    (teacher / "d_quiz.toml").write_text(
        HEAD.replace('"s"', '"q"').replace("order = 2", "quiz = true") + GOOD_NUMBER, "utf-8"
    )
    lib = load_library([(shipped, "shipped"), (teacher, "extra"), (tmp_path / "nowhere", "data")])
    assert [s.id for s in lib.sets] == ["t1", "s"]  # by order
    assert [s.id for s in lib.quizzes] == ["q"] and lib.quiz_exercises[0].id == "n"
    assert [(b.path.name, b.source) for b in lib.broken] == [
        ("b_broken.toml", "extra"),
        ("c_copy.toml", "extra"),
    ]
    dup = lib.broken[1].problems
    assert len(dup) == 1 and dup[0].code == "ex.duplicate_set" and dup[0].line == 2
    assert "01.toml" in dup[0].format(t, "en")
    assert lib.get("s").source == "shipped" and lib.get("t1").source == "extra"


def test_a_translated_parameter_follows_the_language_asked_for():
    """A Msg parameter (e.g. the rule a generator parameter breaks) is translated into the
    language the problem is formatted in, not the app's current one."""
    from attn_tui import i18n
    from attn_tui.core.exercises.model import Msg, Problem

    params = {"fn": "dot", "param": "query", "value": "x", "rule": Msg("ex.rule.number")}
    problem = Problem("f.toml", 3, "ex.param_invalid", params)
    i18n.set_lang("en")
    try:
        assert "数字" in problem.message(t, "zh") and "a number" not in problem.message(t, "zh")
        assert "a number" in problem.message(t, "en")
    finally:
        i18n.set_lang("en")
