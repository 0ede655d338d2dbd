"""Every learner-facing string exists in both languages and formats the same way."""

import string

import pytest

from attn_tui import i18n
from attn_tui.text import load_catalogue


def fields(text: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(text) if name}


CATALOGUE = load_catalogue()


@pytest.mark.parametrize("key", sorted(CATALOGUE))
def test_both_languages_present_non_empty_same_placeholders(key):
    entry = CATALOGUE[key]
    assert isinstance(entry, tuple) and len(entry) == 2, key
    zh, en = entry
    assert zh.strip() and en.strip(), key
    assert fields(zh) == fields(en), key


def test_chinese_strings_are_chinese():
    """A zh entry that is pure ASCII prose was probably never translated."""
    untranslated = [
        key
        for key, (zh, en) in CATALOGUE.items()
        if zh == en and len(en) > 12 and any(c.isalpha() for c in en) and zh.isascii()
    ]
    assert not untranslated


def test_keys_belong_to_their_module(tmp_path, monkeypatch):
    import sys

    import attn_tui.text as text_pkg

    (tmp_path / "zz.py").write_text('TEXT = {"calc.hijack": ("x", "x")}\n')
    monkeypatch.setattr(text_pkg, "__path__", [*text_pkg.__path__, str(tmp_path)])
    monkeypatch.delitem(sys.modules, "attn_tui.text.zz", raising=False)  # undone afterwards
    with pytest.raises(KeyError, match="must start with 'zz.'"):
        load_catalogue()
    sys.modules.pop("attn_tui.text.zz", None)


@pytest.mark.parametrize(
    ("env", "expected"),
    [
        ({"LANG": "zh_CN.UTF-8"}, "zh"),
        ({"LANG": "zh_TW"}, "zh"),
        ({"LANG": "en_US.UTF-8"}, "en"),
        ({"LANG": "C.UTF-8"}, "en"),
        ({}, "en"),
        ({"LC_ALL": "en_GB.UTF-8", "LANG": "zh_CN.UTF-8"}, "en"),
        ({"LC_MESSAGES": "zh_CN.UTF-8", "LANG": "en_US"}, "zh"),
        ({"LANGUAGE": "zh_CN:en"}, "zh"),
    ],
)
def test_default_language_from_locale(env, expected):
    assert i18n.default_lang(env) == expected


def test_lookup_follows_the_current_language():
    before = i18n.get_lang()
    try:
        i18n.set_lang("zh")
        assert i18n.t("calc.title") == "注意力计算器"
        i18n.set_lang("en")
        assert i18n.t("calc.title") == "Attention calculator"
        assert i18n.t("calc.step_of", step=2) == "Step 2 of 4"
        assert i18n.t("calc.step_of", lang="zh", step=2) == "第 2/4 步"
        with pytest.raises(ValueError):
            i18n.set_lang("fr")
    finally:
        i18n.set_lang(before)


# Namespaces another part of the project owns while this is written (the Transformer's text,
# the classroom's and the server's teacher-facing lines) are left to their owners.
_PLURAL_OWNED_ELSEWHERE = ("transformer.", "classroom.", "serve.")


def test_english_plurals_are_words_not_brackets():
    """'1 files', 'question(s)', 'choice(s)' (issue 11): a count takes ``{n:file|files}``."""
    bracketed = [
        key
        for key, (_zh, en) in CATALOGUE.items()
        if "(s)" in en and not key.startswith(_PLURAL_OWNED_ELSEWHERE)
    ]
    assert not bracketed
    assert i18n.t("ex.cmd.warnings", lang="en", count=1).startswith("1 wording warning:")
    assert i18n.t("ex.cmd.warnings", lang="en", count=2).startswith("2 wording warnings:")


def test_the_books_figures_are_called_the_books_not_the_seed_text():
    """'seed text (one run)' beside a column of random seeds read as a seed (issue 11): the
    book's figures are named as the book's, in both languages."""
    said = [
        key
        for key, (zh, en) in CATALOGUE.items()
        if "seed text" in en.lower() or (key.startswith("train.") and "原文" in zh)
    ]
    assert not said
    assert i18n.t("train.ui.col.book", lang="en").startswith("book")
    assert i18n.t("train.ui.col.book", lang="zh").startswith("书")
