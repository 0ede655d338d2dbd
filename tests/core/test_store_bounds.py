"""What one learner can put in a progress store, and a store nobody may write.

Before: a served student alternating two 60 KB written answers stored 16.5 MB in 285 attempts
(only an identical repeat was refused, and grading reads only 4,000 characters), so one tab
could fill the teacher's disk at ~1.5 GB an hour; and a progress store in a folder nobody may
write could not even be viewed (``progress`` exited 2, "cannot be used"), although the code
said a read-only copy opens.
"""

from __future__ import annotations

import contextlib
import json
import os
import shutil
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from attn_tui.core import progress
from attn_tui.core.exercises.written.text import MAX_CHARS
from attn_tui.core.progress import (
    ATTEMPTS_PER_MINUTE,
    MAX_ANSWER_CHARS,
    Guarded,
    ProgressStore,
    StoreError,
)


def test_an_answer_is_kept_as_far_as_it_is_graded_with_a_mark_that_it_was_cut(tmp_path):
    assert MAX_ANSWER_CHARS == MAX_CHARS, "what is stored is what was graded"
    long = "softmax " * 7500  # 60,000 characters
    with ProgressStore.open(tmp_path) as store:
        store.record_attempt("s", "e", long, correct=False, score=0.4)
        store.record_attempt("s", "e", "short", correct=False, score=0)
        kept = [a.answer for a in store.attempts("s", "e")]
    assert kept[0] == long[:MAX_CHARS] + f" … [+{len(long) - MAX_CHARS}]"
    assert kept[1] == "short"


def test_attempts_at_one_exercise_are_kept_at_most_so_many_a_minute(tmp_path):
    with ProgressStore.open(tmp_path) as store:
        for i in range(ATTEMPTS_PER_MINUTE):
            store.record_attempt("s", "e", f"a{i}", correct=False, score=0, at=1000.0 + i)
        with pytest.raises(StoreError) as refused:
            store.record_attempt("s", "e", "one more", correct=False, score=0, at=1040.0)
        assert refused.value.code == "store.too_fast"
        store.record_attempt("s", "other", "x", correct=False, score=0, at=1040.0)  # another
        store.record_attempt("s", "e", "a minute on", correct=True, score=1, at=1031.0 + 60)
        assert len(store.attempts("s", "e")) == ATTEMPTS_PER_MINUTE + 1
        told = []
        guarded = Guarded(store, lambda err, writing: told.append((err.code, writing)))
        for i in range(ATTEMPTS_PER_MINUTE):
            guarded.record_attempt("s", "g", f"b{i}", correct=False, score=0)
        assert guarded.record_attempt("s", "g", "b", correct=False, score=0) is None
        assert told == [("store.too_fast", True)], "the screen is told, practice goes on"


def test_alternating_two_long_answers_stores_little(tmp_path):
    """The red team's case: two 60 KB answers in turn, as fast as a page can send them."""
    answers = ["attention " * 6000, "weighted sum " * 4615]
    with ProgressStore.open(tmp_path) as store:
        guarded = Guarded(store)
        for i in range(285):
            guarded.record_attempt(
                "s", "e", answers[i % 2], correct=False, score=0.2, at=1000.0 + i * 0.14
            )  # fmt: skip  (285 attempts in 40 s)
        kept = len(store.attempts("s", "e"))
    size = sum(p.stat().st_size for p in tmp_path.glob("progress.db*"))
    assert kept == ATTEMPTS_PER_MINUTE
    assert size < 1_000_000, f"{size} bytes (was 16.5 MB)"


def test_a_store_past_its_budget_keeps_nothing_more_and_says_why(tmp_path, monkeypatch):
    monkeypatch.setattr(ProgressStore, "budget", 256 * 1024)
    with ProgressStore.open(tmp_path) as store:
        told = []
        guarded = Guarded(store, lambda err, writing: told.append(err))
        n = 0
        while not told and n < 10_000:
            guarded.record_attempt("s", f"e{n}", "x" * 3000, correct=False, score=0)
            n += 1
        assert told and told[0].code == "store.budget" and told[0].params["limit"] == "256 KB"
        before = len(store.attempts())
        guarded.save_quiz_run({"answers": ["y" * 3000]})
        guarded.record_quiz("quick", 1, 2)
        guarded.record_self_check("s", "e0", ["i"], score=0, claimed=0.5)
        assert len(store.attempts()) == before and store.quiz_run() is None
        assert {e.code for e in told} == {"store.budget"}
        store.reset_exercises("s")  # forgetting is always allowed, and frees room
        assert guarded.record_attempt("s", "e", "again", correct=True, score=1) is not None
    size = sum(p.stat().st_size for p in tmp_path.glob("progress.db*"))
    assert size < 4 * 256 * 1024


def test_a_quiz_left_half_way_keeps_its_answers_as_far_as_they_are_graded(tmp_path):
    with ProgressStore.open(tmp_path) as store:
        store.save_quiz_run({"mode": "quick", "answers": ["q" * 50_000, "2"], "ids": ["a"]})
        run = store.quiz_run()
    assert run["answers"][0].startswith("q" * MAX_CHARS) and len(run["answers"][0]) < 4100
    assert run["answers"][1] == "2" and run["ids"] == ["a"] and run["mode"] == "quick"


# -- a store nobody may write ----------------------------------------------------------------


@contextlib.contextmanager
def nobody_may_write(*paths: Path):
    """Each path (folder or file) unwritable even to root: chattr +i as root, else chmod."""
    if os.geteuid() == 0:
        if not shutil.which("chattr"):
            pytest.skip("root, without chattr to make a file immutable")
        done = subprocess.run(["chattr", "+i", *map(str, paths)], capture_output=True)
        if done.returncode:
            pytest.skip(f"chattr +i is not allowed here: {done.stderr.decode()[:200]}")
        try:
            yield
        finally:
            subprocess.run(["chattr", "-i", *map(str, paths)], check=True)
        return
    modes = {p: p.stat().st_mode for p in paths}
    for p in paths:
        p.chmod(0o555 if p.is_dir() else 0o444)
    try:
        yield
    finally:
        for p, mode in modes.items():
            p.chmod(mode)


def kept_store(folder: Path) -> None:
    with ProgressStore.open(folder) as store:
        store.record_attempt("three-steps", "order", "c", correct=True, score=1)
        store.record_quiz("quick", 7, 10)


def test_a_store_nobody_may_write_opens_to_be_read(tmp_path):
    folder = tmp_path / "d"
    kept_store(folder)
    files = sorted(folder.iterdir())
    with nobody_may_write(*files, folder):
        with ProgressStore.open(folder) as store:
            assert store.read_only
            assert [a.answer for a in store.attempts()] == ["c"]
            assert store.best_quiz().score == 7
            with pytest.raises(StoreError) as refused:
                store.record_attempt("s", "e", "x", correct=False, score=0)
            assert refused.value.code == "store.read_only"
        before = sorted((p.name, p.stat().st_mtime_ns) for p in folder.iterdir())
    assert before == sorted((p.name, p.stat().st_mtime_ns) for p in folder.iterdir())


def test_progress_shows_a_read_only_store_and_says_it_is_read_only(tmp_path):
    folder = tmp_path / "d"
    kept_store(folder)
    with nobody_may_write(*sorted(folder.iterdir()), folder):
        shown = subprocess.run(
            [sys.executable, "-m", "attn_tui", "--lang", "en", "--data-dir", str(folder),
             "progress", "--json"], capture_output=True, text=True, timeout=120,
        )  # fmt: skip
        reset = subprocess.run(
            [sys.executable, "-m", "attn_tui", "--lang", "en", "--data-dir", str(folder),
             "progress", "--reset", "--yes"], capture_output=True, text=True, timeout=120,
        )  # fmt: skip
    assert shown.returncode == 0, shown.stderr
    data = json.loads(shown.stdout)
    three = next(s for s in data["sets"] if s["id"] == "three-steps")
    assert three["done"] == 1
    assert "read-only" in shown.stderr and shown.stderr.count("\n") == 1
    assert reset.returncode == 2 and "read-only" in reset.stderr and "Traceback" not in reset.stderr


def test_a_read_only_folder_without_a_store_says_nothing_can_be_kept(tmp_path):
    folder = tmp_path / "empty"
    folder.mkdir()
    with nobody_may_write(folder):
        with pytest.raises(StoreError) as refused:
            ProgressStore.open(folder)
    assert refused.value.code in ("store.read_only", "store.no_dir")


def test_a_damaged_store_nobody_may_write_is_named_not_moved(tmp_path):
    folder = tmp_path / "d"
    kept_store(folder)
    db = folder / progress.FILENAME
    raw = bytearray(db.read_bytes())
    raw[100:4096] = b"\xff" * (4096 - 100)
    db.write_bytes(bytes(raw))
    with nobody_may_write(*sorted(folder.iterdir()), folder):
        with pytest.raises(StoreError) as refused:
            ProgressStore.open(folder)
    assert refused.value.code in ("store.damaged", "store.failed")
    assert sorted(p.name for p in folder.iterdir()) == ["progress.db", "progress.db.lock"]
    with contextlib.suppress(sqlite3.Error):
        sqlite3.connect(db).close()
