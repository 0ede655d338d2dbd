"""The progress store: one SQLite file, ``progress.db`` in the data directory.

Every attempt is committed the moment it is graded (WAL, synchronous=FULL), so a process
killed right after shows a grade has already kept it; a second app instance writing at the
same time waits for the lock (busy timeout) instead of failing. A file that SQLite says is
damaged, or that is not ours, is renamed ``progress.db.damaged-YYYYmmdd-HHMMSS`` and a new
one started; :attr:`ProgressStore.moved_aside` then names the old file so the UI can say so.

Standard library only, and it takes a Path: finding the data directory is ``attn_tui.paths``'s job.
"""

from __future__ import annotations

import json
import os
import sqlite3
import threading
import time
from collections.abc import Callable, Iterable, Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TypeVar

T = TypeVar("T")

FILENAME = "progress.db"
SCHEMA_VERSION = 1
BUSY_TIMEOUT_S = 30.0
_CORRUPT_CODES = {11, 26}  # SQLITE_CORRUPT, SQLITE_NOTADB

_SCHEMA = """
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS attempts (
    id          INTEGER PRIMARY KEY,
    set_id      TEXT NOT NULL,
    exercise_id TEXT NOT NULL,
    answer      TEXT NOT NULL,
    correct     INTEGER NOT NULL,       -- 0/1
    score       REAL NOT NULL,          -- 0 … 1
    hints_used  INTEGER NOT NULL DEFAULT 0,
    revealed    INTEGER NOT NULL DEFAULT 0,
    seed        INTEGER,                -- generated exercises: the draw, to replay it
    at          REAL NOT NULL           -- unix time
);
CREATE INDEX IF NOT EXISTS attempts_by_exercise ON attempts (set_id, exercise_id);
CREATE TABLE IF NOT EXISTS visits (
    set_id      TEXT PRIMARY KEY,
    exercise_id TEXT NOT NULL,
    at          REAL NOT NULL
);
CREATE TABLE IF NOT EXISTS self_checks (
    id          INTEGER PRIMARY KEY,
    set_id      TEXT NOT NULL,          -- a set id, or a quiz bank's id
    exercise_id TEXT NOT NULL,
    ideas       TEXT NOT NULL,          -- JSON [idea id, ...] the learner marked "I said this"
    score       REAL NOT NULL,          -- the grader's own score of that answer (0 … 1)
    claimed     REAL NOT NULL,          -- that score plus the weight of the ideas marked
    at          REAL NOT NULL
);
CREATE TABLE IF NOT EXISTS quiz_attempts (
    id          INTEGER PRIMARY KEY,
    mode        TEXT NOT NULL CHECK (mode IN ('quick', 'full')),
    score       REAL NOT NULL,          -- points earned
    total       REAL NOT NULL,          -- points possible
    per_topic   TEXT NOT NULL,          -- JSON {topic: [score, total]}
    missed      TEXT NOT NULL,          -- JSON [question id, ...]
    at          REAL NOT NULL
);
"""
_REQUIRED_COLUMNS = {
    "attempts": {
        "set_id",
        "exercise_id",
        "answer",
        "correct",
        "score",
        "hints_used",
        "revealed",
        "seed",
        "at",
    },
    "visits": {"set_id", "exercise_id", "at"},
    "quiz_attempts": {"mode", "score", "total", "per_topic", "missed", "at"},
}


_SELF_CHECKS = _SCHEMA[_SCHEMA.index("CREATE TABLE IF NOT EXISTS self_checks") :].split(";")[0]


class DamagedStore(Exception):
    """Raised inside the store when the file turns out not to be a usable progress database."""


@dataclass(frozen=True)
class Attempt:
    id: int
    set_id: str
    exercise_id: str
    answer: str
    correct: bool
    score: float
    hints_used: int
    revealed: bool
    seed: int | None
    at: float


@dataclass(frozen=True)
class ExerciseStatus:
    """Everything attempted on one exercise, folded together."""

    exercise_id: str
    attempts: int
    solved: bool  # correct at least once without the answer having been revealed
    revealed: bool  # the answer was shown at least once
    best_score: float
    hints_used: int  # most hints taken in any attempt
    last_at: float

    @property
    def done(self) -> bool:
        """Finished with, for resuming: solved, or its answer seen."""
        return self.solved or self.revealed


@dataclass(frozen=True)
class SetProgress:
    set_id: str
    total: int
    done: int  # solved or revealed
    solved: int
    first_unsolved: str | None  # where to resume; None when every exercise is done
    last_visited: str | None  # exercise id
    last_visited_at: float | None


@dataclass(frozen=True)
class SelfCheck:
    """Ideas a learner marked "I said this" on a written answer the grader was unsure of:
    self-assessed, stored apart from the attempts, never counted as solved."""

    id: int
    set_id: str
    exercise_id: str
    ideas: tuple[str, ...]
    score: float  # the grader's
    claimed: float  # the grader's plus the ideas marked
    at: float


@dataclass(frozen=True)
class QuizAttempt:
    id: int
    mode: str  # quick or full
    score: float
    total: float
    per_topic: dict[str, tuple[float, float]]  # topic → (score, total)
    missed: tuple[str, ...]
    at: float

    @property
    def fraction(self) -> float:
        return self.score / self.total if self.total else 0.0


@dataclass
class ProgressStore:
    """Open with ``ProgressStore.open(data_dir)``; use as a context manager or call close()."""

    path: Path
    moved_aside: Path | None = None  # set when a damaged file was renamed on the way in
    _conn: sqlite3.Connection | None = field(default=None, repr=False)
    _lock: threading.Lock = field(default_factory=threading.Lock, repr=False)

    # -- opening
    @classmethod
    def open(cls, data_dir: Path) -> ProgressStore:
        data_dir = Path(data_dir)
        data_dir.mkdir(parents=True, exist_ok=True)
        store = cls(path=data_dir / FILENAME)
        try:
            store._conn = store._connect()
        except DamagedStore:
            store.moved_aside = _move_aside(store.path)
            store._conn = store._connect()
        return store

    def _connect(self) -> sqlite3.Connection:
        conn = sqlite3.connect(
            self.path, timeout=BUSY_TIMEOUT_S, isolation_level=None, check_same_thread=False
        )
        try:
            conn.execute(f"PRAGMA busy_timeout = {int(BUSY_TIMEOUT_S * 1000)}")
            if conn.execute("PRAGMA quick_check").fetchone()[0] != "ok":
                raise DamagedStore(self.path)
            conn.execute("PRAGMA journal_mode = WAL")
            conn.execute("PRAGMA synchronous = FULL")  # an attempt shown as graded is on disk
            self._ensure_schema(conn)
        except sqlite3.DatabaseError as err:
            conn.close()
            if _is_corrupt(err):
                raise DamagedStore(self.path) from err
            raise
        except DamagedStore:
            conn.close()
            raise
        return conn

    @staticmethod
    def _ensure_schema(conn: sqlite3.Connection) -> None:
        tables = {r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type='table'")}
        ours = "meta" in tables and conn.execute(
            "SELECT value FROM meta WHERE key = 'app'"
        ).fetchone() == ("attn-tui",)
        if tables and not ours:
            raise DamagedStore("not an attn-tui progress file")
        if not ours:
            with _transaction(conn):
                for statement in _SCHEMA.split(";"):
                    if statement.strip():
                        conn.execute(statement)
                conn.execute("INSERT OR IGNORE INTO meta VALUES ('app', 'attn-tui')")
                conn.execute(
                    "INSERT OR IGNORE INTO meta VALUES ('schema', ?)", (str(SCHEMA_VERSION),)
                )
        if ours:  # a file from before self-checks existed gains the table, nothing else
            with _transaction(conn):
                conn.execute(_SELF_CHECKS)
        for table, needed in _REQUIRED_COLUMNS.items():
            have = {r[1] for r in conn.execute(f"PRAGMA table_info({table})")}
            if not needed <= have:
                raise DamagedStore(f"table {table} lacks {sorted(needed - have)}")

    def close(self) -> None:
        with self._lock:
            if self._conn is not None:
                self._conn.close()
                self._conn = None

    def __enter__(self) -> ProgressStore:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    @property
    def conn(self) -> sqlite3.Connection:
        if self._conn is None:
            raise RuntimeError("the progress store is closed")
        return self._conn

    def _write(self, work: Callable[[sqlite3.Connection], T]) -> T:
        """Run ``work`` in one committed transaction. A file found damaged mid-session is set
        aside and ``work`` runs again on a fresh file, so the attempt is still kept."""
        for retry in (False, True):
            with self._lock:
                try:
                    with _transaction(self.conn):
                        return work(self.conn)
                except sqlite3.DatabaseError as err:
                    if retry or not _is_corrupt(err):
                        raise
                    self.conn.close()
                    self.moved_aside = _move_aside(self.path)
                    self._conn = self._connect()
        raise AssertionError("unreachable")

    def _insert(self, sql: str, row: tuple[Any, ...]) -> int:
        """One committed INSERT; the new row's id."""
        return self._write(lambda conn: int(conn.execute(sql, row).lastrowid or 0))

    def _read(self, sql: str, params: Iterable[Any] = ()) -> list[tuple[Any, ...]]:
        with self._lock:
            return self.conn.execute(sql, tuple(params)).fetchall()

    # -- exercises
    def record_attempt(
        self,
        set_id: str,
        exercise_id: str,
        answer: str,
        *,
        correct: bool,
        score: float,
        hints_used: int = 0,
        revealed: bool = False,
        seed: int | None = None,
        at: float | None = None,
    ) -> int:
        """Store one graded attempt (or a reveal) and commit it before returning its id."""
        row = (
            set_id,
            exercise_id,
            str(answer),
            int(bool(correct)),
            float(score),
            int(hints_used),
            int(bool(revealed)),
            seed,
            time.time() if at is None else at,
        )
        return self._insert(
            "INSERT INTO attempts (set_id, exercise_id, answer, correct, score, hints_used,"
            " revealed, seed, at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
            row,
        )

    def attempts(self, set_id: str | None = None, exercise_id: str | None = None) -> list[Attempt]:
        sql, params = "SELECT * FROM attempts", []
        where = []
        if set_id is not None:
            where.append("set_id = ?")
            params.append(set_id)
        if exercise_id is not None:
            where.append("exercise_id = ?")
            params.append(exercise_id)
        if where:
            sql += " WHERE " + " AND ".join(where)
        rows = self._read(
            "SELECT id, set_id, exercise_id, answer, correct, score, hints_used, revealed,"
            " seed, at" + sql[len("SELECT *") :] + " ORDER BY id",
            params,
        )
        return [
            Attempt(r[0], r[1], r[2], r[3], bool(r[4]), r[5], r[6], bool(r[7]), r[8], r[9])
            for r in rows
        ]

    def visit(self, set_id: str, exercise_id: str, at: float | None = None) -> None:
        """Remember where the learner is in a set (the last exercise shown)."""
        row = (set_id, exercise_id, time.time() if at is None else at)
        self._write(
            lambda conn: conn.execute(
                "INSERT INTO visits VALUES (?, ?, ?) ON CONFLICT (set_id) DO UPDATE"
                " SET exercise_id = excluded.exercise_id, at = excluded.at",
                row,
            )
        )

    def last_visit(self, set_id: str) -> tuple[str, float] | None:
        rows = self._read("SELECT exercise_id, at FROM visits WHERE set_id = ?", (set_id,))
        return (rows[0][0], rows[0][1]) if rows else None

    def statuses(self, set_id: str) -> dict[str, ExerciseStatus]:
        rows = self._read(
            "SELECT exercise_id, COUNT(*), MAX(correct AND NOT revealed), MAX(revealed),"
            " MAX(score), MAX(hints_used), MAX(at) FROM attempts WHERE set_id = ?"
            " GROUP BY exercise_id",
            (set_id,),
        )
        return {
            r[0]: ExerciseStatus(r[0], r[1], bool(r[2]), bool(r[3]), r[4], r[5], r[6]) for r in rows
        }

    def set_progress(self, set_id: str, exercise_ids: Iterable[str]) -> SetProgress:
        """done/total over the exercises the set has now (attempts on removed ones ignored)."""
        ids = list(exercise_ids)
        status = self.statuses(set_id)
        done = [i for i in ids if i in status and status[i].done]
        solved = [i for i in ids if i in status and status[i].solved]
        first = next((i for i in ids if not (i in status and status[i].done)), None)
        visit = self.last_visit(set_id)
        return SetProgress(
            set_id=set_id,
            total=len(ids),
            done=len(done),
            solved=len(solved),
            first_unsolved=first,
            last_visited=visit[0] if visit else None,
            last_visited_at=visit[1] if visit else None,
        )

    def summary(self, sets: Mapping[str, Iterable[str]]) -> list[SetProgress]:
        """``set_progress`` for each ``{set_id: exercise ids}``, in the given order."""
        return [self.set_progress(set_id, ids) for set_id, ids in sets.items()]

    # -- self-assessment, apart from the graded attempts
    def record_self_check(
        self,
        set_id: str,
        exercise_id: str,
        ideas: Iterable[str],
        *,
        score: float,
        claimed: float,
        at: float | None = None,
    ) -> int:
        row = (
            set_id,
            exercise_id,
            json.dumps(list(ideas), ensure_ascii=False),
            float(score),
            float(claimed),
            time.time() if at is None else at,
        )
        return self._insert(
            "INSERT INTO self_checks (set_id, exercise_id, ideas, score, claimed, at)"
            " VALUES (?, ?, ?, ?, ?, ?)",
            row,
        )

    def self_checks(self, set_id: str | None = None) -> list[SelfCheck]:
        sql = "SELECT id, set_id, exercise_id, ideas, score, claimed, at FROM self_checks"
        rows = self._read(
            sql + (" WHERE set_id = ?" if set_id else "") + " ORDER BY id",
            (set_id,) if set_id else (),
        )
        return [
            SelfCheck(r[0], r[1], r[2], tuple(json.loads(r[3])), r[4], r[5], r[6]) for r in rows
        ]

    # -- the quiz
    def record_quiz(
        self,
        mode: str,
        score: float,
        total: float,
        per_topic: Mapping[str, tuple[float, float]] | None = None,
        missed: Iterable[str] = (),
        at: float | None = None,
    ) -> int:
        if mode not in ("quick", "full"):
            raise ValueError(f"quiz mode must be quick or full, not {mode!r}")
        topics = {k: [float(v[0]), float(v[1])] for k, v in (per_topic or {}).items()}
        row = (
            mode,
            float(score),
            float(total),
            json.dumps(topics, ensure_ascii=False),
            json.dumps(list(missed), ensure_ascii=False),
            time.time() if at is None else at,
        )
        return self._insert(
            "INSERT INTO quiz_attempts (mode, score, total, per_topic, missed, at)"
            " VALUES (?, ?, ?, ?, ?, ?)",
            row,
        )

    def quiz_attempts(self, mode: str | None = None) -> list[QuizAttempt]:
        sql = "SELECT id, mode, score, total, per_topic, missed, at FROM quiz_attempts"
        rows = self._read(
            sql + (" WHERE mode = ?" if mode else "") + " ORDER BY id", (mode,) if mode else ()
        )
        out = []
        for r in rows:
            topics = {k: (v[0], v[1]) for k, v in json.loads(r[4]).items()}
            out.append(QuizAttempt(r[0], r[1], r[2], r[3], topics, tuple(json.loads(r[5])), r[6]))
        return out

    def best_quiz(self, mode: str | None = None) -> QuizAttempt | None:
        """The attempt with the highest fraction (the earliest among equals)."""
        attempts = self.quiz_attempts(mode)
        return max(attempts, key=lambda a: (a.fraction, -a.id)) if attempts else None

    # -- a quiz left half-way, to resume (kept in the meta table: no schema change)
    def save_quiz_run(self, run: Mapping[str, Any] | None) -> None:
        """Keep the quiz in progress (plain JSON data), or forget it with None."""
        if run is None:
            self._write(lambda conn: conn.execute("DELETE FROM meta WHERE key = 'quiz_run'"))
            return
        text = json.dumps(run, ensure_ascii=False)
        self._write(
            lambda conn: conn.execute(
                "INSERT INTO meta VALUES ('quiz_run', ?) ON CONFLICT (key) DO UPDATE"
                " SET value = excluded.value",
                (text,),
            )
        )

    def quiz_run(self) -> dict[str, Any] | None:
        """The quiz left in progress, or None (also when what was kept cannot be read)."""
        rows = self._read("SELECT value FROM meta WHERE key = 'quiz_run'")
        if not rows:
            return None
        try:
            run = json.loads(rows[0][0])
        except (ValueError, TypeError):
            return None
        return run if isinstance(run, dict) else None

    # -- reset
    def reset_exercises(self, set_id: str, exercise_ids: Iterable[str] | None = None) -> int:
        """Forget the attempts on some exercises of a set (all of them when ``exercise_ids`` is
        None, and then the set's last visit too), as a learner's "reset" asks; returns how many
        attempts were deleted. Other sets and the quiz are untouched."""
        ids = None if exercise_ids is None else list(exercise_ids)

        def forget(conn: sqlite3.Connection) -> int:
            if ids is None:
                cur = conn.execute("DELETE FROM attempts WHERE set_id = ?", (set_id,))
                conn.execute("DELETE FROM visits WHERE set_id = ?", (set_id,))
                return cur.rowcount
            deleted = 0
            for exercise_id in ids:
                cur = conn.execute(
                    "DELETE FROM attempts WHERE set_id = ? AND exercise_id = ?",
                    (set_id, exercise_id),
                )
                deleted += cur.rowcount
            return deleted

        return self._write(forget)

    def reset(self) -> None:
        """Delete every attempt, visit and quiz result (the file stays, so does its schema)."""

        def wipe(conn: sqlite3.Connection) -> None:
            for table in ("attempts", "visits", "quiz_attempts", "self_checks"):
                conn.execute(f"DELETE FROM {table}")

        self._write(wipe)


@contextmanager
def _transaction(conn: sqlite3.Connection) -> Iterator[None]:
    """BEGIN IMMEDIATE takes the write lock up front, so a busy peer makes us wait, not fail."""
    conn.execute("BEGIN IMMEDIATE")
    try:
        yield
    except BaseException:
        conn.execute("ROLLBACK")
        raise
    conn.execute("COMMIT")


def _is_corrupt(err: sqlite3.DatabaseError) -> bool:
    code = getattr(err, "sqlite_errorcode", None)
    if code is not None:
        return (code & 0xFF) in _CORRUPT_CODES
    text = str(err).lower()
    return "malformed" in text or "not a database" in text


def _move_aside(path: Path) -> Path:
    """Rename the file (and its -wal/-shm) to ``<name>.damaged-<timestamp>``; return that path."""
    stamp = time.strftime("%Y%m%d-%H%M%S")
    target = path.with_name(f"{path.name}.damaged-{stamp}")
    n = 1
    while target.exists():
        n += 1
        target = path.with_name(f"{path.name}.damaged-{stamp}-{n}")
    try:
        os.replace(path, target)
    except FileNotFoundError:
        pass  # another instance moved it first
    for suffix in ("-wal", "-shm"):
        side = path.with_name(path.name + suffix)
        if side.exists():
            try:
                os.replace(side, target.with_name(target.name + suffix))
            except FileNotFoundError:
                pass
    return target


def open_store(data_dir: Path) -> ProgressStore:
    """Shorthand for :meth:`ProgressStore.open`."""
    return ProgressStore.open(data_dir)
