"""The shipped library kept on disk between runs (paths.ShippedOnDisk): a start after the
first loads the shipped sets without parsing or checking a file, and gets the very library a
fresh load gives; whatever is in the cache dir that is not the app's own file is ignored."""

from __future__ import annotations

import os
import pickle

import pytest

from attn_tui import paths
from attn_tui.core.exercises import loader


def _fresh_process(monkeypatch) -> paths.ShippedOnDisk:
    """This process as if it had just started: an empty in-memory cache, nothing read yet."""
    cache = loader.FileCache()
    shipped = paths.ShippedOnDisk(cache)
    monkeypatch.setattr(paths, "_FILES", cache)
    monkeypatch.setattr(paths, "_SHIPPED", shipped)
    monkeypatch.setattr(paths, "_COURSE", paths.CourseOnDisk())
    return shipped


@pytest.fixture
def lessons_read(monkeypatch):
    """Lesson files parsed and checked."""
    from attn_tui.core.course import lessons

    seen: list[str] = []
    real = lessons.load_text

    def counted(text, path="<text>", *args, **kwargs):
        seen.append(path)
        return real(text, path, *args, **kwargs)

    monkeypatch.setattr(lessons, "load_text", counted)
    return seen


@pytest.fixture
def parsed(monkeypatch):
    """Files the loader parsed and checked (load_text calls)."""
    seen: list[str] = []
    real = loader.load_text

    def counted(text, shown):
        seen.append(shown)
        return real(text, shown)

    monkeypatch.setattr(loader, "load_text", counted)
    return seen


def _same(a, b) -> None:
    assert [s.id for s in a.sets] == [s.id for s in b.sets]
    assert [s.id for s in a.quizzes] == [s.id for s in b.quizzes]
    assert a.sets == b.sets and a.quizzes == b.quizzes and a.broken == b.broken


def test_a_second_start_parses_no_shipped_file(tmp_path, monkeypatch, parsed):
    monkeypatch.setenv(paths.ENV_CACHE_DIR, str(tmp_path / "cache"))
    _fresh_process(monkeypatch)
    first = paths.load_all()
    assert len(parsed) == len(paths.shipped_files()) > 0
    assert (tmp_path / "cache" / paths.ShippedOnDisk.NAME).is_file()
    parsed.clear()
    _fresh_process(monkeypatch)
    again = paths.load_all()
    assert parsed == []  # failed before: every shipped file parsed at every start
    _same(again, first)


def test_a_teachers_files_are_loaded_as_ever_and_not_kept(tmp_path, monkeypatch, parsed):
    monkeypatch.setenv(paths.ENV_CACHE_DIR, str(tmp_path / "cache"))
    folder = tmp_path / "teacher"
    folder.mkdir()
    shipped = paths.shipped_files()[0]
    text = shipped.read_text(encoding="utf-8").replace(
        'id = "', 'id = "teacher-', 1
    )  # the same set under another id
    (folder / "mine.toml").write_text(text, encoding="utf-8")
    _fresh_process(monkeypatch)
    paths.load_all([folder])
    parsed.clear()
    _fresh_process(monkeypatch)
    library = paths.load_all([folder])
    assert len(parsed) == 1  # the teacher's file, parsed at each start as ever
    blob = pickle.loads((tmp_path / "cache" / paths.ShippedOnDisk.NAME).read_bytes())
    assert all(key[1] == "shipped" for key, _ in blob["entries"])
    assert any(s.id.startswith("teacher-") and s.source == "extra" for s in library.sets)


@pytest.mark.parametrize("damage", ["garbage", "truncated", "foreign", "directory", "other code"])
def test_a_damaged_or_foreign_cache_is_ignored_and_written_anew(
    tmp_path, monkeypatch, parsed, damage
):
    cache = tmp_path / "cache"
    monkeypatch.setenv(paths.ENV_CACHE_DIR, str(cache))
    _fresh_process(monkeypatch)
    fresh = paths.load_all()
    target = cache / paths.ShippedOnDisk.NAME
    good = target.read_bytes()
    if damage == "garbage":
        target.write_bytes(os.urandom(4096))
    elif damage == "truncated":
        target.write_bytes(good[: len(good) // 2])
    elif damage == "foreign":
        target.write_bytes(pickle.dumps({"fingerprint": "x", "entries": [(1, 2)]}))
    elif damage == "directory":
        target.unlink()
        target.mkdir()
    else:  # written by other code: its fingerprint differs
        stored = pickle.loads(good)
        stored["fingerprint"] = "0" * 40
        target.write_bytes(pickle.dumps(stored))
    parsed.clear()
    _fresh_process(monkeypatch)
    library = paths.load_all()
    assert len(parsed) == len(paths.shipped_files())  # loaded afresh, nothing taken from it
    _same(library, fresh)
    if damage != "directory":  # (a folder in its place cannot be replaced: left as it is)
        assert pickle.loads(target.read_bytes())["fingerprint"] == paths.ShippedOnDisk.fingerprint()


def test_no_cache_dir_keeps_nothing(tmp_path, monkeypatch, parsed):
    monkeypatch.setenv(paths.ENV_CACHE_DIR, "")
    assert paths.cache_dir() is None
    _fresh_process(monkeypatch)
    paths.load_all()
    parsed.clear()
    _fresh_process(monkeypatch)
    paths.load_all()
    assert len(parsed) == len(paths.shipped_files())


def test_the_fingerprint_follows_the_code(monkeypatch):
    before = paths.ShippedOnDisk.fingerprint()
    import attn_tui

    monkeypatch.setattr(attn_tui, "__version__", attn_tui.__version__ + ".other")
    assert paths.ShippedOnDisk.fingerprint() != before


def test_a_second_start_reads_no_lesson_and_gets_the_same_course(
    tmp_path, monkeypatch, lessons_read
):
    monkeypatch.setenv(paths.ENV_CACHE_DIR, str(tmp_path / "cache"))
    data = tmp_path / "data"
    _fresh_process(monkeypatch)
    first = paths.load_course((), data, paths.load_all((), data))
    assert len(lessons_read) == len(first.lessons) > 0
    lessons_read.clear()
    _fresh_process(monkeypatch)
    again = paths.load_course((), data, paths.load_all((), data))
    assert lessons_read == []  # failed before: every lesson parsed and checked at every start
    assert again == first


def test_the_course_is_not_kept_with_a_learners_own_files_or_another_library(
    tmp_path, monkeypatch, lessons_read
):
    from attn_tui.core.exercises.model import Library

    monkeypatch.setenv(paths.ENV_CACHE_DIR, str(tmp_path / "cache"))
    data = tmp_path / "data"
    _fresh_process(monkeypatch)
    paths.load_course((), data, paths.load_all((), data))
    (data / "exercises").mkdir(parents=True)
    (data / "exercises" / "mine.toml").write_text("x = 1\n", encoding="utf-8")
    lessons_read.clear()
    _fresh_process(monkeypatch)
    paths.load_course((), data, paths.load_all((), data))
    assert lessons_read  # read afresh: the learner's own file may be a lesson
    lessons_read.clear()
    _fresh_process(monkeypatch)
    paths.load_all(())
    paths.load_course((), None, Library())  # a library of the caller's own: never looked up
    assert lessons_read


@pytest.mark.parametrize("planted", ["writable by others", "a link", "a fifo"])
def test_a_cache_file_anyone_else_could_have_written_is_never_unpickled(
    tmp_path, monkeypatch, parsed, planted
):
    """Unpickling runs code: only a regular file this user owns and nobody else can write is
    read (a cache folder under a shared or world-writable place, or a link planted there)."""
    cache = tmp_path / "cache"
    monkeypatch.setenv(paths.ENV_CACHE_DIR, str(cache))
    _fresh_process(monkeypatch)
    fresh = paths.load_all()
    target = cache / paths.ShippedOnDisk.NAME
    assert target.stat().st_mode & 0o077 == 0  # written for this user alone
    if planted == "writable by others":
        target.chmod(0o666)
    elif planted == "a link":
        real = tmp_path / "elsewhere.pickle"
        target.rename(real)
        target.symlink_to(real)
    else:
        target.unlink()
        os.mkfifo(target)
    parsed.clear()
    _fresh_process(monkeypatch)
    library = paths.load_all()
    assert len(parsed) == len(paths.shipped_files())  # nothing taken from it (failed before)
    _same(library, fresh)
