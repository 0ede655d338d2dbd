"""One glossary, used: the shipped text uses only the glossary's forms, and ``validate`` warns
when a teacher's text uses a form the glossary avoids."""

from __future__ import annotations

import json

import pytest

from attn_tui import paths
from attn_tui.cli import main
from attn_tui.core.exercises import glossary
from attn_tui.core.exercises.wording import avoided, lint_text, prose
from attn_tui.text import load_catalogue


@pytest.fixture(autouse=True)
def _english():
    yield
    from attn_tui import i18n

    i18n.set_lang("en")


def test_spans_that_are_not_prose_are_left_alone():
    assert avoided("键（key）和值（value）", "zh") == []  # an English gloss after the term
    assert avoided("答案（--show-key）", "zh") == []  # an option
    assert avoided("“calculator”至少要有 “query” 和 “keys”", "zh") == []  # quoted names
    assert avoided("写成 `keys = …`", "zh") == []  # code
    assert avoided("第 {key} 题", "zh") == []  # a placeholder
    assert prose("分母 {= 1 + 1 = 2}") == "分母 1 + 1 = 2"


def test_avoided_forms_in_prose_are_found_with_the_form_to_use():
    found = avoided("查询与每个 key 打分，画成热图；编码器–解码器；硬最大", "zh")
    assert sorted(found) == [
        ("ENCODER_DECODER", "编码器–解码器", "编码器-解码器"),
        ("HARD_ATTENTION", "硬最大", "硬注意力"),
        ("HEATMAP", "热图", "热力图"),
        ("KEY", "key", "键"),
    ]
    assert avoided("the key, the value and the heatmap", "en") == []
    assert avoided("an encoder-decoder", "en") == [
        ("ENCODER_DECODER", "encoder-decoder", "encoder–decoder")
    ]


TEACHER = """\
[set]
id = "mine"
title = { zh = "我的题", en = "Mine" }
summary = { zh = "查询和每个 key 比一比。", en = "Compare the query with each key." }

[[exercise]]
id = "one"
kind = "truefalse"
answer = true
topics = ["softmax"]
prompt = { zh = "判断：权重和为 1。", en = "True or false: the weights sum to 1." }
explanation.zh = "对。画成热图也看得出来。"
explanation.en = "True. A heatmap shows it too."
"""


def test_lint_names_the_line_the_text_and_the_form(tmp_path):
    warnings = lint_text(TEACHER, "mine.toml")
    assert [(w.line, w.params["form"], w.params["chosen"], w.exercise) for w in warnings] == [
        (4, "key", "键", None),
        (12, "热图", "热力图", "one"),
    ]


def test_validate_warns_but_passes_unless_strict(tmp_path, capsys):
    path = tmp_path / "mine.toml"
    path.write_text(TEACHER, "utf-8")
    assert main(["--lang", "en", "exercises", "validate", str(path)]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0].endswith(
        "mine.toml:4: wording: the zh text of set.summary says “key”; the glossary's form is “键”."
    )
    assert out[-1].startswith("2 wording warnings")
    assert main(["--lang", "en", "exercises", "validate", "--strict", str(path)]) == 1
    capsys.readouterr()
    assert main(["--lang", "en", "exercises", "validate", "--json", str(path)]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["ok"] is True and report["counts"]["warnings"] == 2
    assert report["warnings"][1]["exercise"] == "one"


def test_validate_checks_the_glossary_itself(tmp_path, capsys):
    bad = tmp_path / "glossary.toml"
    bad.write_text('[[term]]\nid = "q"\nzh = "查询"\nen = "query"\n', "utf-8")
    assert main(["--lang", "en", "exercises", "validate", str(bad)]) == 1
    assert "upper case" in capsys.readouterr().out


def test_shipped_validate_is_clean_without_warnings(capsys):
    assert main(["--lang", "en", "exercises", "validate", "--strict"]) == 0
    out = capsys.readouterr().out
    assert "wording" not in out and "all valid" in out


@pytest.mark.parametrize("path", paths.shipped_files(), ids=lambda p: p.name)
def test_shipped_sets_use_only_the_glossary_forms(path):
    warnings = lint_text(path.read_text("utf-8"), path.name)
    assert [(w.line, w.exercise, w.params["form"]) for w in warnings] == []


def test_the_text_catalogue_uses_only_the_glossary_forms():
    found = [
        (key, lang, form, chosen)
        for key, entry in sorted(load_catalogue().items())
        for lang, text in zip(("zh", "en"), entry, strict=True)
        for _, form, chosen in avoided(text, lang)
    ]
    assert found == []


def test_every_glossary_form_is_used_in_its_own_language_only():
    # A chosen zh form is never an avoided zh form of another term (the lint would contradict
    # itself), and every term has both languages.
    g = glossary.shipped()
    chosen = {t.get("zh") for t in g}
    for term in g:
        assert not set(term.avoid["zh"]) & chosen, term.id
