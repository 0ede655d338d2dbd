"""A student's name → their own progress folder: the same name finds the same folder, two
names never share one, and no name reaches outside ``students/``."""

from __future__ import annotations

import os

import pytest
from hypothesis import given
from hypothesis import strategies as st

from attn_tui.core.students import MAX_NAME, BadName, canonical, folder_name, student_dir


@pytest.mark.parametrize("typed", ["Alice", "  alice ", "ALICE", "Ａｌｉｃｅ"])
def test_the_same_name_typed_differently_finds_the_same_folder(typed):
    assert folder_name(typed) == "alice"


def test_names_in_any_script_are_their_own_folder():
    assert folder_name("李雷") == "李雷"
    assert folder_name("zoë_2") == "zoë_2"


@pytest.mark.parametrize(
    "typed", ["Ann Lee", "../bob", "..", "a/b", "a\\b", ".hidden", "con", "NUL", "x-y"]
)
def test_other_names_get_a_tidy_name_and_a_fingerprint(typed, tmp_path):
    name = folder_name(typed)
    assert "-" in name and "/" not in name and "\\" not in name and not name.startswith(".")
    folder = student_dir(tmp_path, typed)
    assert folder.parent == tmp_path / "students" and folder.is_dir()


def test_names_that_tidy_alike_still_get_different_folders():
    names = ["Ann Lee", "ann_lee", "ann-lee", "ann.lee", "ann lee!"]
    assert len({folder_name(n) for n in names}) == len(names)


@given(st.text(min_size=1, max_size=MAX_NAME), st.text(min_size=1, max_size=MAX_NAME))
def test_two_different_names_never_share_a_folder(a, b):
    try:
        ka, kb = canonical(a), canonical(b)
    except BadName:
        return
    assert (folder_name(a) == folder_name(b)) == (ka == kb)


@given(st.text(max_size=3 * MAX_NAME))
def test_no_name_escapes_the_students_folder(typed):
    try:
        name = folder_name(typed)
    except BadName:
        return
    assert name not in ("", ".", "..") and os.sep not in name and "/" not in name
    assert "\x00" not in name


@pytest.mark.parametrize(
    ("typed", "code"),
    [("", "serve.name.empty"), ("   ", "serve.name.empty"), ("x" * 41, "serve.name.long"),
     ("a\x07b", "serve.name.control"), ("y" * 1_000_000, "serve.name.long")],
)  # fmt: skip
def test_unusable_names_are_refused_by_reason(typed, code):
    with pytest.raises(BadName) as caught:
        folder_name(typed)
    assert caught.value.code == code


def test_a_link_planted_in_students_is_not_followed(tmp_path):
    (tmp_path / "students").mkdir()
    (tmp_path / "elsewhere").mkdir()
    (tmp_path / "students" / "mallory").symlink_to(tmp_path / "elsewhere")
    with pytest.raises(OSError):
        student_dir(tmp_path, "Mallory")


# -- exactly what folds (issue 20, item 11: the README said "capitalised or spaced", the code
# folded more, and a Cyrillic "аnn" got a folder that looked like "ann") ---------------------

FOLDS = [  # each pair is one student: the module's doc names every rule these follow
    ("Ann Lee", "  ann   LEE "),  # case, spaces
    ("ａｎｎ", "ann"),  # NFKC: full-width
    ("ﬁona", "fiona"),  # NFKC: a ligature
    ("Louis Ⅸ", "louis ix"),  # NFKC: a Roman numeral
    ("Li²", "li2"),  # NFKC: a superscript
    ("\u212aim", "kim"),  # NFKC: the Kelvin sign
    ("Jose\u0301", "josé"),  # NFKC: an accent typed apart
    ("Weiß", "weiss"),  # full case folding: ß
    ("ſam", "sam"),  # full case folding: long s
    ("ΟΔΥΣΣΕΥΣ", "οδυσσευς"),  # full case folding: final sigma
]
DIFFER = [("José", "Jose"), ("Zoë", "Zoe"), ("anna", "анна"), ("李雷", "李蕾"), ("l1", "ll")]


@pytest.mark.parametrize(("a", "b"), FOLDS)
def test_what_the_module_says_folds_folds(a, b):
    assert canonical(a) == canonical(b)
    assert folder_name(a) == folder_name(b)


@pytest.mark.parametrize(("a", "b"), DIFFER)
def test_and_nothing_else_does(a, b):
    assert canonical(a) != canonical(b) and folder_name(a) != folder_name(b)


@pytest.mark.parametrize(
    ("typed", "scripts"),
    [("\u0430nn", ("CYRILLIC", "LATIN")), ("p\u0430ypal", ("CYRILLIC", "LATIN")),
     ("\u03bflga", ("GREEK", "LATIN")), ("\u0430\u03b1", ("CYRILLIC", "GREEK")),
     ("Ann \u0410nn", ("CYRILLIC", "LATIN"))],
)  # fmt: skip
def test_a_name_mixing_look_alike_scripts_is_refused(typed, scripts):
    with pytest.raises(BadName) as caught:
        folder_name(typed)
    assert caught.value.code == "serve.name.mixed"
    assert caught.value.scripts == scripts


@pytest.mark.parametrize(
    "typed", ["анна", "Ἀλέξανδρος", "李 Lee", "さくら Sakura", "김 Kim", "Ann2"]
)
def test_one_script_or_one_with_cjk_is_a_name(typed):
    assert folder_name(typed)


def test_the_message_for_a_mixed_name_names_the_scripts_in_both_languages():
    from attn_tui import i18n

    with pytest.raises(BadName) as caught:
        canonical("\u0430nn")
    try:
        i18n.set_lang("zh")
        assert "西里尔字母、拉丁字母" in caught.value.message(i18n.t)
        i18n.set_lang("en")
        assert "(Cyrillic, Latin)" in caught.value.message(i18n.t)
        assert caught.value.message(i18n.t) != BadName("serve.name.empty").message(i18n.t)
    finally:
        i18n.set_lang("en")
