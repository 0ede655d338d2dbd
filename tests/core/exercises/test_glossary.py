"""The one glossary: it loads, and its checks find what they should and nothing else."""

import pytest

from attn_tui.core.exercises import glossary
from attn_tui.core.exercises.glossary import GlossaryError, parse


def test_shipped_glossary_loads_with_both_forms_of_core_terms():
    g = glossary.shipped()
    assert g["QUERY"].get("zh") == "查询" and g["KEY"].get("en") == "key"
    assert {"QUERY", "KEY", "VALUE", "HEATMAP", "ACCURACY", "HARD_ATTENTION"} <= set(g.terms)


def test_avoided_forms_are_found_as_whole_words_only():
    g = glossary.shipped()
    found = g.avoided("查询与每个 key 打分，画成热图", "zh")
    assert {(t.id, form) for t, form in found} == {("KEY", "key"), ("HEATMAP", "热图")}
    assert g.avoided("按 keyboard 上的键，看热力图", "zh") == []
    assert g.avoided("the key and the heatmap", "en") == []  # English text may say key


def test_full_width_and_case_are_folded():
    g = glossary.shipped()
    assert [t.id for t, _ in g.avoided("每个 ＫＥＹ 都", "zh")] == ["KEY"]


@pytest.mark.parametrize(
    ("text", "fault"),
    [
        ('[[term]]\nid = "q"\nzh = "查询"\nen = "query"\n', "upper case"),
        ('[[term]]\nid = "Q"\nzh = ""\nen = "query"\n', "zh must be"),
        ('[[term]]\nid = "Q"\nzh = "查询"\nen = "q"\nzh_avoid = "x"\n', "zh_avoid must be"),
        ('[[term]]\nid = "Q"\nzh = "查询"\nen = "q"\nzh_avoid = ["查询"]\n', "avoids its own"),
        (
            '[[term]]\nid = "Q"\nzh = "a"\nen = "b"\n[[term]]\nid = "Q"\nzh = "c"\nen = "d"\n',
            "twice",
        ),
        ('[[term]]\nid = "Q"\nzh = "a"\nen = "b"\nsynonyms = []\n', "unknown key"),
        ("[[term]\n", "Expected"),
    ],
)
def test_malformed_glossaries_name_their_fault(text, fault):
    with pytest.raises(GlossaryError, match=fault):
        parse(text)
