"""A progress file from before the course (schema 1) opens as schema 2 with nothing lost.

``schema_v1.sql`` is the store's own schema as the previous version wrote it, copied
verbatim; the file made from it holds attempts, visits, self-checks, quiz results and a quiz
left half-way, and every one of them must read back the same after the migration.
"""

from __future__ import annotations

import json
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from attn_tui.core.progress import FILENAME, SCHEMA_VERSION, LessonRecord, ProgressStore, StoreError

V1 = (Path(__file__).parent / "schema_v1.sql").read_text(encoding="utf-8")


def make_v1(folder: Path) -> Path:
    path = folder / FILENAME
    conn = sqlite3.connect(path)
    conn.executescript(V1)
    conn.executescript(
        """
        INSERT INTO attempts (set_id, exercise_id, answer, correct, score, hints_used, revealed,
                              seed, at)
        VALUES ('hand-example', 'dots', '1 0 2 1', 1, 1.0, 0, 0, NULL, 1700000000.0),
               ('hand-example', 'weights-practice', '0.3 0.7', 0, 0.5, 1, 0, 42, 1700000100.0),
               ('scaling-variance', 'std-64', '', 0, 0.0, 0, 1, NULL, 1700000200.0);
        INSERT INTO visits VALUES ('hand-example', 'weights-practice', 1700000100.0);
        INSERT INTO self_checks (set_id, exercise_id, ideas, score, claimed, at)
        VALUES ('quiz-selfcheck', 'sc-steps', '["softmax"]', 0.5, 0.8, 1700000300.0);
        INSERT INTO quiz_attempts (mode, score, total, per_topic, missed, at)
        VALUES ('quick', 7, 10, '{"softmax": [3, 4]}', '["sc-dot"]', 1700000400.0);
        INSERT INTO meta VALUES ('quiz_run', '{"mode": "full", "at": 3}');
        """
    )
    conn.commit()
    conn.close()
    return path


def test_a_schema_1_file_migrates_and_keeps_every_row(tmp_path):
    make_v1(tmp_path)
    with ProgressStore.open(tmp_path) as store:
        attempts = store.attempts()
        assert [(a.set_id, a.exercise_id, a.answer, a.correct, a.score, a.hints_used,
                 a.revealed, a.seed, a.at, a.review) for a in attempts] == [
            ("hand-example", "dots", "1 0 2 1", True, 1.0, 0, False, None, 1700000000.0, False),
            ("hand-example", "weights-practice", "0.3 0.7", False, 0.5, 1, False, 42,
             1700000100.0, False),
            ("scaling-variance", "std-64", "", False, 0.0, 0, True, None, 1700000200.0, False),
        ]  # fmt: skip
        assert store.last_visit("hand-example") == ("weights-practice", 1700000100.0)
        (check,) = store.self_checks()
        assert (check.ideas, check.score, check.claimed) == (("softmax",), 0.5, 0.8)
        (quiz,) = store.quiz_attempts()
        assert (quiz.score, quiz.total, quiz.per_topic, quiz.missed) == (
            7,
            10,
            {"softmax": (3, 4)},
            ("sc-dot",),
        )
        assert store.quiz_run() == {"mode": "full", "at": 3}
        # the new parts work on the old file
        assert store.cards() == [] and store.lessons() == {}
        store.record_attempt(
            "hand-example", "dots", "1 0 2 1", correct=True, score=1.0, at=1700086400.0, review=True
        )
        assert store.card("hand-example", "dots").due == 1700086400.0 + 2 * 86400
        assert store.attempts("hand-example", "dots")[-1].review is True
        store.save_lesson(LessonRecord("l1", ("read",), "do", {"do": "1 0 1"}, None, 5.0))
        assert store.lessons()["l1"].draft == {"do": "1 0 1"}
    conn = sqlite3.connect(tmp_path / FILENAME)
    assert conn.execute("SELECT value FROM meta WHERE key = 'schema'").fetchone() == (
        str(SCHEMA_VERSION),
    )
    assert SCHEMA_VERSION == 2
    conn.close()


def test_opening_a_current_file_again_writes_nothing(tmp_path):
    make_v1(tmp_path)
    ProgressStore.open(tmp_path).close()
    path = tmp_path / FILENAME
    before = path.read_bytes()
    with ProgressStore.open(tmp_path) as store:
        assert len(store.attempts()) == 3
    assert path.read_bytes() == before
    wal = path.with_name(path.name + "-wal")
    assert not wal.exists() or wal.stat().st_size == 0


def test_a_newer_file_is_left_untouched(tmp_path):
    make_v1(tmp_path)
    conn = sqlite3.connect(tmp_path / FILENAME)
    conn.execute("UPDATE meta SET value = '3' WHERE key = 'schema'")
    conn.commit()
    conn.close()
    with pytest.raises(StoreError) as err:
        ProgressStore.open(tmp_path)
    assert err.value.code == "store.newer"


def test_processes_opening_an_old_file_at_once_migrate_it_once(tmp_path):
    make_v1(tmp_path)
    code = (
        "import sys\n"
        "from attn_tui.core.progress import ProgressStore\n"
        "with ProgressStore.open(sys.argv[1]) as s:\n"
        "    s.record_attempt('x', sys.argv[2], 'a', correct=True, score=1.0)\n"
        "    print(len(s.attempts()) >= 4)\n"
    )
    procs = [
        subprocess.Popen(
            [sys.executable, "-c", code, str(tmp_path), f"e{i}"], stdout=subprocess.PIPE, text=True
        )
        for i in range(4)
    ]
    outs = [p.communicate(timeout=120)[0].strip() for p in procs]
    assert outs == ["True"] * 4
    with ProgressStore.open(tmp_path) as store:
        assert len(store.attempts()) == 7
        assert len(store.cards()) == 4
    conn = sqlite3.connect(tmp_path / FILENAME)
    columns = [r[1] for r in conn.execute("PRAGMA table_info(attempts)")]
    assert columns.count("review") == 1
    conn.close()


def test_reset_forgets_the_schedule_and_the_path_too(tmp_path):
    with ProgressStore.open(tmp_path) as store:
        store.record_attempt("s", "e", "1", correct=True, score=1.0)
        store.save_lesson(LessonRecord("l1", (), "read", {}, None, 1.0))
        store.reset_exercises("s", ["e"])
        assert store.cards() == []
        store.record_attempt("s", "e", "1", correct=True, score=1.0)
        store.reset()
        assert store.cards() == [] and store.lessons() == {}
    assert json  # (imported for the fixture's JSON columns)
