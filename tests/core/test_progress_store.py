"""The progress store: attempts survive a reopen, a damaged file is set aside (and the caller
told), two writers at once lose nothing, and a process killed after recording loses nothing."""

from __future__ import annotations

import os
import signal
import sqlite3
import subprocess
import sys
import threading
from pathlib import Path

import pytest

from attn_tui.core.progress import FILENAME, ProgressStore, StoreError


def test_attempts_persist_across_reopen(tmp_path: Path):
    with ProgressStore.open(tmp_path) as store:
        assert store.moved_aside is None
        store.record_attempt("s", "a", "0.5 0.5", correct=False, score=0.5, hints_used=1)
        store.record_attempt("s", "a", "0.2303", correct=True, score=1.0, hints_used=2, seed=42)
        store.record_attempt("s", "b", "", correct=False, score=0, revealed=True)
        store.visit("s", "b")
    with ProgressStore.open(tmp_path) as store:
        attempts = store.attempts("s")
        assert [
            (a.exercise_id, a.correct, a.score, a.hints_used, a.revealed, a.seed) for a in attempts
        ] == [
            ("a", False, 0.5, 1, False, None),
            ("a", True, 1.0, 2, False, 42),
            ("b", False, 0.0, 0, True, None),
        ]
        assert attempts[1].answer == "0.2303" and attempts[0].at <= attempts[2].at
        assert store.attempts("s", "b")[0].revealed
        assert store.last_visit("s")[0] == "b"


def test_set_progress_done_solved_and_where_to_resume(tmp_path: Path):
    with ProgressStore.open(tmp_path) as store:
        ids = ["a", "b", "c", "d"]
        empty = store.set_progress("s", ids)
        assert (empty.done, empty.total, empty.first_unsolved, empty.last_visited) == (
            0,
            4,
            "a",
            None,
        )
        store.record_attempt("s", "a", "1", correct=True, score=1)
        store.record_attempt(
            "s", "b", "", correct=False, score=0, revealed=True
        )  # seen, not solved
        store.record_attempt("s", "c", "x", correct=False, score=0)  # tried, wrong
        store.record_attempt("s", "gone", "1", correct=True, score=1)  # no longer in the set
        store.record_attempt("other", "c", "1", correct=True, score=1)  # another set
        store.visit("s", "c")
        p = store.set_progress("s", ids)
        assert (p.done, p.solved, p.first_unsolved, p.last_visited) == (2, 1, "c", "c")
        status = store.statuses("s")
        assert status["a"].solved and status["b"].revealed and not status["b"].solved
        assert status["c"].attempts == 1 and not status["c"].done
        store.record_attempt("s", "c", "1", correct=True, score=1)
        store.record_attempt("s", "d", "1", correct=True, score=1, revealed=True)  # after a reveal
        p = store.set_progress("s", ids)
        assert p.first_unsolved is None and p.done == 4 and p.solved == 2
        assert [x.set_id for x in store.summary({"s": ids, "other": ["c"]})] == ["s", "other"]


def test_quiz_attempts_and_best_score(tmp_path: Path):
    with ProgressStore.open(tmp_path) as store:
        assert store.best_quiz() is None
        store.record_quiz("quick", 6, 10, {"softmax": (2, 3), "cost": (4, 7)}, missed=["q3", "q7"])
        store.record_quiz("full", 20, 30, {})
        store.record_quiz("quick", 9, 10, {"softmax": (3, 3)})
        with pytest.raises(ValueError):
            store.record_quiz("medium", 1, 1)
    with ProgressStore.open(tmp_path) as store:
        quick = store.quiz_attempts("quick")
        assert [a.score for a in quick] == [6, 9]
        assert quick[0].per_topic == {"softmax": (2.0, 3.0), "cost": (4.0, 7.0)}
        assert quick[0].missed == ("q3", "q7")
        assert store.best_quiz("quick").score == 9 and store.best_quiz().fraction == pytest.approx(
            0.9
        )
        assert store.best_quiz("full").fraction == pytest.approx(2 / 3)


def test_reset_deletes_everything_but_keeps_a_working_file(tmp_path: Path):
    with ProgressStore.open(tmp_path) as store:
        store.record_attempt("s", "a", "1", correct=True, score=1)
        store.record_quiz("quick", 1, 2)
        store.visit("s", "a")
        store.reset()
        assert (
            store.attempts() == [] and store.quiz_attempts() == [] and store.last_visit("s") is None
        )
        store.record_attempt("s", "a", "1", correct=True, score=1)
        assert len(store.attempts()) == 1


@pytest.mark.parametrize(
    "damage",
    [
        b"this is not a database at all" * 100,
        b"SQLite format 3\x00" + b"\xff" * 5000,  # right magic, garbage after
    ],
)
def test_damaged_file_is_moved_aside_and_a_new_one_started(tmp_path: Path, damage: bytes):
    db = tmp_path / FILENAME
    db.write_bytes(damage)
    with ProgressStore.open(tmp_path) as store:
        assert store.moved_aside is not None
        assert store.moved_aside.name.startswith(FILENAME + ".damaged-")
        assert store.moved_aside.read_bytes() == damage  # nothing of the old file is lost
        store.record_attempt("s", "a", "1", correct=True, score=1)
    with ProgressStore.open(tmp_path) as store:
        assert store.moved_aside is None and len(store.attempts()) == 1


@pytest.mark.parametrize(
    "tables",
    [
        ["CREATE TABLE notes (text TEXT)"],
        ["CREATE TABLE meta (key TEXT, value TEXT)", "INSERT INTO meta VALUES ('app', 'other')"],
    ],
    ids=["other tables", "a meta table of its own"],
)
def test_a_database_that_is_not_ours_is_refused_and_left_untouched(tmp_path: Path, tables):
    conn = sqlite3.connect(tmp_path / FILENAME)
    for sql in tables:
        conn.execute(sql)
    conn.commit()
    conn.close()
    before = (tmp_path / FILENAME).read_bytes()
    with pytest.raises(StoreError) as caught:
        ProgressStore.open(tmp_path)
    assert caught.value.code == "store.not_ours"
    assert (tmp_path / FILENAME).read_bytes() == before  # not switched to WAL, not moved
    assert sorted(p.name for p in tmp_path.iterdir() if "damaged" in p.name) == []
    check = sqlite3.connect(tmp_path / FILENAME)
    assert check.execute("PRAGMA journal_mode").fetchone()[0] == "delete"
    check.close()


def test_second_damage_gets_its_own_name(tmp_path: Path):
    (tmp_path / FILENAME).write_bytes(b"junk" * 500)
    first = ProgressStore.open(tmp_path)
    first.close()
    (tmp_path / FILENAME).write_bytes(b"more junk" * 500)
    second = ProgressStore.open(tmp_path)
    second.close()
    assert first.moved_aside != second.moved_aside
    assert first.moved_aside.exists() and second.moved_aside.exists()


def test_two_connections_writing_at_once_lose_nothing(tmp_path: Path):
    stores = [ProgressStore.open(tmp_path) for _ in range(2)]
    per_writer = 150
    errors: list[BaseException] = []

    def write(store: ProgressStore, name: str) -> None:
        try:
            for i in range(per_writer):
                store.record_attempt("s", f"{name}-{i}", str(i), correct=i % 2 == 0, score=1)
                if i % 10 == 0:
                    store.visit("s", f"{name}-{i}")
        except BaseException as err:  # pragma: no cover - reported below
            errors.append(err)

    threads = [
        threading.Thread(target=write, args=(s, n)) for s, n in zip(stores, "xy", strict=True)
    ]
    for th in threads:
        th.start()
    for th in threads:
        th.join()
    for s in stores:
        s.close()
    assert errors == []
    with ProgressStore.open(tmp_path) as store:
        ids = {a.exercise_id for a in store.attempts()}
    assert len(ids) == 2 * per_writer


WRITER = """
import sys
from pathlib import Path
from attn_tui.core.progress import ProgressStore
store = ProgressStore.open(Path(sys.argv[1]))
name, count = sys.argv[2], int(sys.argv[3])
for i in range(count):
    store.record_attempt("s", f"{name}-{i}", str(i), correct=True, score=1.0, seed=i)
print("recorded", flush=True)
sys.stdin.readline()  # wait here until killed
"""


def test_two_processes_writing_at_once_lose_nothing(tmp_path: Path):
    procs = [
        subprocess.Popen(
            [sys.executable, "-c", WRITER, str(tmp_path), name, "100"],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
        )
        for name in ("p", "q")
    ]
    for proc in procs:
        assert proc.stdout.readline().strip() == "recorded"
        proc.stdin.close()
        assert proc.wait(timeout=60) == 0
    with ProgressStore.open(tmp_path) as store:
        assert len({a.exercise_id for a in store.attempts()}) == 200


@pytest.mark.skipif(not hasattr(signal, "SIGKILL"), reason="needs SIGKILL")
def test_a_process_killed_after_recording_loses_nothing(tmp_path: Path):
    proc = subprocess.Popen(
        [sys.executable, "-c", WRITER, str(tmp_path), "k", "3"],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        assert proc.stdout.readline().strip() == "recorded"  # the attempts were "shown as graded"
        os.kill(proc.pid, signal.SIGKILL)  # no close, no checkpoint, no cleanup
        proc.wait(timeout=30)
    finally:
        if proc.poll() is None:
            proc.kill()
    assert proc.returncode == -signal.SIGKILL
    with ProgressStore.open(tmp_path) as store:
        assert store.moved_aside is None
        assert [(a.exercise_id, a.seed) for a in store.attempts()] == [
            ("k-0", 0),
            ("k-1", 1),
            ("k-2", 2),
        ]


def test_wal_mode_is_on(tmp_path: Path):
    with ProgressStore.open(tmp_path) as store:
        assert store.conn.execute("PRAGMA journal_mode").fetchone()[0] == "wal"


def test_reset_one_exercise_or_one_set_leaves_the_rest(tmp_path: Path):
    with ProgressStore.open(tmp_path) as store:
        for set_id, ex_id in (("s1", "a"), ("s1", "a"), ("s1", "b"), ("s2", "a")):
            store.record_attempt(set_id, ex_id, "1", correct=True, score=1.0)
        store.visit("s1", "b")
        store.record_quiz("quick", 3, 10)
        assert store.reset_exercises("s1", ["a"]) == 2
        assert set(store.statuses("s1")) == {"b"} and store.last_visit("s1") is not None
        assert store.reset_exercises("s1") == 1
        assert store.statuses("s1") == {} and store.last_visit("s1") is None
        assert set(store.statuses("s2")) == {"a"} and len(store.quiz_attempts()) == 1


def test_a_quiz_in_progress_is_kept_and_forgotten(tmp_path: Path):
    with ProgressStore.open(tmp_path) as store:
        assert store.quiz_run() is None
        store.save_quiz_run({"mode": "full", "questions": [["sc-dot", None]], "answers": ["2"]})
    with ProgressStore.open(tmp_path) as store:
        assert store.quiz_run() == {
            "mode": "full",
            "questions": [["sc-dot", None]],
            "answers": ["2"],
        }
        store.save_quiz_run(None)
        assert store.quiz_run() is None
