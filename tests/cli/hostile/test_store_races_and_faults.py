"""The progress store under contention and faults (issue 12).

Real processes race to open a damaged file, many open a new or an existing store at once; a
damaged file another store has open is never renamed; another program's file and a newer
schema are refused untouched; a full disk and a lock held too long are StoreErrors, and a
screen's Guarded store carries on without losing its place.
"""

from __future__ import annotations

import json
import os
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from attn_tui.core import progress
from attn_tui.core.progress import FILENAME, Guarded, ProgressStore, StoreError

pytestmark = pytest.mark.skipif(progress.fcntl is None, reason="needs flock (POSIX)")

# A worker opens the store named on each line of its stdin, records `count` attempts and says
# which were acknowledged (record_attempt returned) — the attempts a learner saw graded.
WORKER = """
import json, random, sys, time
from pathlib import Path
from attn_tui.core.progress import ProgressStore, StoreError
name = sys.argv[1]
for line in sys.stdin:
    folder, count = line.rstrip("\\n").split("\\t")
    time.sleep(random.random() * 0.003)  # vary who comes first
    acked, moved, error = [], None, None
    try:
        with ProgressStore.open(Path(folder)) as store:
            moved = str(store.moved_aside) if store.moved_aside else None
            for i in range(int(count)):
                store.record_attempt("s", f"{name}-{i}", "x", correct=True, score=1.0)
                acked.append(f"{name}-{i}")
    except StoreError as err:
        error = err.code
    print(json.dumps({"acked": acked, "moved": moved, "error": error}), flush=True)
"""


class Workers:
    """Long-lived worker processes, so a hundred trials do not pay a hundred start-ups."""

    def __init__(self, n: int) -> None:
        self.procs = [
            subprocess.Popen(
                [sys.executable, "-c", WORKER, f"w{i}"],
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                text=True,
            )
            for i in range(n)
        ]

    def trial(self, folder: Path, count: int, n: int) -> list[dict]:
        for proc in self.procs[:n]:  # all told at once: they open within a millisecond or two
            proc.stdin.write(f"{folder}\t{count}\n")
            proc.stdin.flush()
        return [json.loads(proc.stdout.readline()) for proc in self.procs[:n]]

    def close(self) -> None:
        for proc in self.procs:
            proc.stdin.close()
        for proc in self.procs:
            assert proc.wait(timeout=60) == 0


@pytest.fixture
def workers():
    pool = Workers(4)
    yield pool
    pool.close()


def stored_ids(folder: Path) -> set[str]:
    with ProgressStore.open(folder) as store:
        assert store.moved_aside is None
        return {a.exercise_id for a in store.attempts()}


@pytest.mark.slow  # real processes race
def test_racing_to_open_a_damaged_file_keeps_it_and_loses_no_acknowledged_attempt(
    tmp_path, workers
):
    """The reproduction: a garbage progress.db, two (and four) processes opening and recording
    at once. Before: the damaged file was once overwritten by the other's new database, and
    once 19 acknowledged attempts went into a file renamed under the writer."""
    trials, lost, kept_wrong = 120, [], []
    for trial in range(trials):
        folder = tmp_path / f"t{trial}"
        folder.mkdir()
        garbage = f"damaged file of trial {trial} ".encode() * 300
        (folder / FILENAME).write_bytes(garbage)
        n = 4 if trial % 4 == 0 else 2
        results = workers.trial(folder, count=5, n=n)
        assert [r["error"] for r in results] == [None] * n, results
        acked = {a for r in results for a in r["acked"]}
        assert len(acked) == 5 * n
        missing = acked - stored_ids(folder)
        if missing:
            lost.append((trial, sorted(missing)))
        damaged = sorted(folder.glob(FILENAME + ".damaged-*"))
        moved = [r["moved"] for r in results if r["moved"]]
        if [p.read_bytes() for p in damaged] != [garbage] or len(moved) != 1:
            kept_wrong.append((trial, [p.name for p in damaged], moved))
    assert lost == []
    assert kept_wrong == []  # exactly one process moved it, and what it moved is the original


@pytest.mark.slow  # real processes race
@pytest.mark.parametrize("existing", [False, True], ids=["new file", "existing file"])
def test_many_processes_opening_one_store_at_once(tmp_path, existing):
    """The cause of the flaky two-process test: SQLite does not retry the switch to WAL when a
    peer holds a lock, so the second opener failed at once with "database is locked"."""
    pool = Workers(6)
    try:
        for trial in range(15):
            folder = tmp_path / f"t{trial}"
            if existing:
                ProgressStore.open(folder).close()
            else:
                folder.mkdir()
            results = pool.trial(folder, count=3, n=6)
            assert [r["error"] for r in results] == [None] * 6, results
            assert [r["moved"] for r in results] == [None] * 6
            acked = {a for r in results for a in r["acked"]}
            assert acked == stored_ids(folder) and len(acked) == 18
            assert not list(folder.glob("*.damaged-*"))
    finally:
        pool.close()


def test_a_damaged_file_another_store_has_open_is_not_renamed(tmp_path, monkeypatch):
    monkeypatch.setattr(progress, "MOVE_WAIT_S", 0.3)
    holder = ProgressStore.open(tmp_path)
    holder.record_attempt("s", "before", "x", correct=True, score=1)
    holder.conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")  # everything in the main file
    db = tmp_path / FILENAME
    garbage = b"scribbled over while open " * 400
    with open(db, "r+b") as fh:  # the same file, damaged in place
        fh.write(garbage)
    with pytest.raises(StoreError) as caught:
        ProgressStore.open(tmp_path)
    assert caught.value.code == "store.damaged_in_use"
    assert db.read_bytes()[: len(garbage)] == garbage  # still there, under its own name
    assert not list(tmp_path.glob("*.damaged-*"))
    holder.close()
    with ProgressStore.open(tmp_path) as store:  # now nobody has it open: set aside
        assert store.moved_aside is not None
        assert store.moved_aside.read_bytes()[: len(garbage)] == garbage


class _Scribbled:
    """A connection whose next INSERT reports the damage SQLite would find on disk: a page
    cache can hide on-disk damage from a connection for a while, so it is injected here."""

    def __init__(self, conn: sqlite3.Connection) -> None:
        self.conn = conn

    def execute(self, sql: str, *args):
        if sql.startswith("INSERT"):
            err = sqlite3.DatabaseError("database disk image is malformed")
            err.sqlite_errorcode = 11  # SQLITE_CORRUPT
            raise err
        return self.conn.execute(sql, *args)

    def __getattr__(self, name: str):
        return getattr(self.conn, name)


def test_damage_found_while_writing_is_set_aside_and_the_attempt_kept(tmp_path):
    store = ProgressStore.open(tmp_path)
    store.record_attempt("s", "a", "1", correct=True, score=1)
    store.conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    with open(tmp_path / FILENAME, "r+b") as fh:
        fh.write(b"\xff" * 4096)
    store._conn = _Scribbled(store.conn)  # type: ignore[assignment]
    store.record_attempt("s", "b", "2", correct=True, score=1)  # no exception: kept
    assert store.moved_aside is not None and store.moved_aside.read_bytes()[:8] == b"\xff" * 8
    store.close()
    assert stored_ids(tmp_path) == {"b"}


def test_a_newer_schema_is_refused_and_left_as_it_is(tmp_path):
    with ProgressStore.open(tmp_path) as store:
        store.record_attempt("s", "a", "1", correct=True, score=1)
        store.conn.execute("UPDATE meta SET value = '99' WHERE key = 'schema'")
    before = (tmp_path / FILENAME).read_bytes()
    with pytest.raises(StoreError) as caught:
        ProgressStore.open(tmp_path)
    assert caught.value.code == "store.newer" and caught.value.params["found"] == "99"
    assert (tmp_path / FILENAME).read_bytes() == before


@pytest.mark.parametrize(
    "make, code",
    [
        (lambda d: (d / FILENAME).mkdir(), "store.not_regular"),
        (lambda d: os.mkfifo(d / FILENAME), "store.not_regular"),
        (lambda d: (d / FILENAME).symlink_to("/dev/zero"), "store.not_regular"),
        (lambda d: (d / FILENAME).symlink_to(FILENAME), "store.cannot_open"),
    ],
    ids=["directory", "fifo", "dev-zero", "symlink-loop"],
)
def test_a_progress_file_that_is_not_a_file_is_refused_at_once(tmp_path, make, code):
    make(tmp_path)
    with pytest.raises(StoreError) as caught:
        ProgressStore.open(tmp_path)
    assert caught.value.code == code


def test_a_data_dir_that_is_a_file(tmp_path):
    (tmp_path / "f").write_text("x")
    with pytest.raises(StoreError) as caught:
        ProgressStore.open(tmp_path / "f")
    assert caught.value.code == "store.no_dir"


def test_a_full_disk_is_a_store_error_and_the_next_write_still_works(tmp_path):
    store = ProgressStore.open(tmp_path)
    pages = store.conn.execute("PRAGMA page_count").fetchone()[0]
    store.conn.execute(f"PRAGMA max_page_count = {pages}")
    with pytest.raises(StoreError) as caught:
        for i in range(10_000):
            store.record_attempt("s", f"a{i}", "x" * 500, correct=True, score=1)
    assert caught.value.code == "store.full"
    store.conn.execute("PRAGMA max_page_count = 1000000")
    store.record_attempt("s", "after", "x", correct=True, score=1)  # rolled back, not stuck
    store.close()


def test_a_lock_held_too_long_is_a_store_error(tmp_path, monkeypatch):
    monkeypatch.setattr(progress, "BUSY_TIMEOUT_S", 0.3)
    store = ProgressStore.open(tmp_path)
    other = sqlite3.connect(tmp_path / FILENAME, isolation_level=None)
    other.execute("BEGIN IMMEDIATE")
    try:
        with pytest.raises(StoreError) as caught:
            store.record_attempt("s", "a", "1", correct=True, score=1)
        assert caught.value.code == "store.busy"
    finally:
        other.execute("ROLLBACK")
        other.close()
        store.close()


def test_guarded_reads_answer_empty_and_writes_report_when_the_store_fails(tmp_path):
    heard: list[tuple[str, bool]] = []
    store = ProgressStore.open(tmp_path)
    guarded = Guarded(store, lambda err, writing: heard.append((err.code, writing)))
    assert guarded.record_attempt("s", "a", "1", correct=True, score=1) is not None
    pages = store.conn.execute("PRAGMA page_count").fetchone()[0]
    store.conn.execute(f"PRAGMA max_page_count = {pages}")
    for _ in range(200):
        guarded.record_quiz("quick", 1, 2, {"softmax": (1, 2)}, ["x" * 500])
    assert ("store.full", True) in heard
    store.close()  # from here on every call fails: reads give an empty store's answers
    assert guarded.attempts() == [] and guarded.statuses("s") == {}
    assert guarded.best_quiz() is None and guarded.quiz_attempts() == []
    progress_ = guarded.set_progress("s", ["a", "b"])
    assert (progress_.total, progress_.done, progress_.first_unsolved) == (2, 0, "a")
    assert ("store.closed", False) in heard
    assert Guarded(None).set_progress("s", []).total == 0  # never opened: the same answers


def test_guarded_answers_every_store_method_a_screen_calls():
    """A screen holds a Guarded store: a store method it lacks would crash the screen only
    when the store works, the case the store tests do not see."""
    import ast
    from pathlib import Path

    import attn_tui.screens

    called: set[str] = set()
    for path in Path(attn_tui.screens.__path__[0]).glob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if (
                isinstance(node, ast.Attribute)
                and isinstance(node.value, ast.Attribute)
                and node.value.attr == "store"
            ):
                called.add(node.attr)
    public = {name for name in dir(ProgressStore) if not name.startswith("_")}
    assert called & public, "no store calls found: the scan is broken"
    missing = sorted(name for name in called & public if not hasattr(Guarded, name))
    assert missing == []
    guarded = Guarded(None)
    assert guarded.quiz_run() is None and guarded.reset_exercises("s") == 0
    guarded.save_quiz_run({"x": 1})  # keeps nothing, raises nothing
