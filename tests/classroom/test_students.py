"""A student's name → their own progress folder: the same name finds the same folder, two
names never share one, and no name reaches outside ``students/``."""

from __future__ import annotations

import os

import pytest
from hypothesis import given
from hypothesis import strategies as st

from attn_tui.serve.students import MAX_NAME, BadName, canonical, folder_name, student_dir


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
    [
        ("", "serve.name.empty"),
        ("   ", "serve.name.empty"),
        ("x" * 41, "serve.name.long"),
        ("a\x07b", "serve.name.control"),
        ("y" * 1_000_000, "serve.name.long"),
    ],
)
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
