"""The progress store: one SQLite file, ``progress.db`` in the data directory.

Every attempt is committed the moment it is graded (WAL, synchronous=FULL), so a process
killed right after shows a grade has already kept it; a second app instance writing at the
same time waits for the lock (busy timeout) instead of failing.

Opening is safe with any number of processes at once. Each open store holds a *shared* lock
(``flock``) on ``progress.db.lock`` beside the file for as long as it is open; a file that
SQLite says is damaged is renamed ``progress.db.damaged-YYYYmmdd-HHMMSS[-n]`` only under the
*exclusive* lock, so never while another attn-tui has it open, and never over another damaged
file (the new name is taken with ``link``, which cannot overwrite). Whoever finds the file
damaged but cannot get the exclusive lock waits until someone else has replaced it, then opens
the new one. :attr:`ProgressStore.moved_aside` names the old file so the UI can say so. The
switch to WAL, which SQLite does not retry on a busy peer, is retried with backoff.

A valid SQLite file that is not ours (another program's), or ours from a newer attn-tui, is
left untouched: opening raises :class:`StoreError`. So does every other reason progress cannot
be kept (a data directory that is a file or read-only, a full disk, a lock held too long):
callers catch StoreError alone, and ``code``/``params`` name the reason (``store.*`` texts).

Standard library only, and it takes a Path: finding the data directory is ``attn_tui.paths``'s job.
"""

from __future__ import annotations

import errno
import json
import os
import random
import sqlite3
import stat
import threading
import time
import urllib.parse
from collections.abc import Callable, Iterable, Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, ClassVar, TypeVar

from attn_tui.core.course import clock
from attn_tui.core.course.review import CardState, rating_for, schedule

try:
    import fcntl
except ImportError:  # pragma: no cover - Windows: no flock; SQLite's own locking still applies
    fcntl = None  # type: ignore[assignment]

T = TypeVar("T")

FILENAME = "progress.db"
LOCKNAME = FILENAME + ".lock"
SCHEMA_VERSION = 2  # 1: attempts, visits, quiz, self-checks; 2: + review cards, lessons
BUSY_TIMEOUT_S = 30.0  # how long to wait for another process's write, or for a file being moved
MOVE_WAIT_S = 5.0  # how long a damaged file may stay open elsewhere before we give up on it
# What one learner can store (a served student types into a store on the teacher's disk):
MAX_ANSWER_CHARS = 4000  # of an answer, as many as grading reads (written/text.py MAX_CHARS)
CUT_MARK = " … [+{n}]"  # after an answer cut there: how many characters were not kept
ATTEMPTS_PER_MINUTE = 30  # per exercise: more in one minute are graded and shown, not stored
_CORRUPT_CODES = {11, 26}  # SQLITE_CORRUPT, SQLITE_NOTADB
_BUSY_CODES = {5, 6}  # SQLITE_BUSY, SQLITE_LOCKED
_READ_ONLY_CODES = (8, 23)  # SQLITE_READONLY, SQLITE_AUTH (a file or folder nobody may write)
_REASONS = {  # primary SQLite result code → store.* reason
    8: "store.read_only",  # SQLITE_READONLY
    13: "store.full",  # SQLITE_FULL
    14: "store.cannot_open",  # SQLITE_CANTOPEN
}


_SCHEMA = (
    """
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
    at          REAL NOT NULL,          -- unix time
    review      INTEGER NOT NULL DEFAULT 0  -- 1: answered when it came due for review (v2)
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
    + """
CREATE TABLE IF NOT EXISTS cards (
    set_id      TEXT NOT NULL,          -- one exercise's review schedule (FSRS), schema 2
    exercise_id TEXT NOT NULL,
    due         REAL NOT NULL,          -- unix time it comes back
    reps        INTEGER NOT NULL,
    lapses      INTEGER NOT NULL,
    last_at     REAL NOT NULL,
    last_rating INTEGER NOT NULL,       -- 1 again, 2 hard, 3 good, 4 easy
    card        TEXT NOT NULL,          -- the scheduler's state, JSON
    PRIMARY KEY (set_id, exercise_id)
);
CREATE INDEX IF NOT EXISTS cards_by_due ON cards (due);
CREATE TABLE IF NOT EXISTS lessons (
    lesson_id   TEXT PRIMARY KEY,       -- the course path, schema 2
    done        TEXT NOT NULL,          -- JSON [step id, ...] finished
    at_step     TEXT NOT NULL,          -- where the learner is
    draft       TEXT NOT NULL,          -- JSON: what was typed and not yet submitted
    passed_at   REAL,                   -- the check passed (the next lesson opens)
    updated_at  REAL NOT NULL
);
"""
)
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
        "review",
    },
    "visits": {"set_id", "exercise_id", "at"},
    "quiz_attempts": {"mode", "score", "total", "per_topic", "missed", "at"},
    "cards": {"set_id", "exercise_id", "due", "reps", "lapses", "last_at", "last_rating", "card"},
    "lessons": {"lesson_id", "done", "at_step", "draft", "passed_at", "updated_at"},
}


_SCHEMA_2 = _SCHEMA[_SCHEMA.index("CREATE TABLE IF NOT EXISTS cards") :]  # added by version 2
_SELF_CHECKS = _SCHEMA[_SCHEMA.index("CREATE TABLE IF NOT EXISTS self_checks") :].split(";")[0]


class StoreError(Exception):
    """Progress cannot be kept, and why: ``code`` is a ``store.*`` text key, ``params`` fill it
    (``path``, and ``error`` for the system's own words). Everything the store raises is one."""

    def __init__(self, code: str, **params: object) -> None:
        self.code = code
        self.params = params
        super().__init__(f"{code}: {params}")


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
    review: bool = False  # answered when it came due for review (schema 2)


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


@dataclass(frozen=True)
class LessonRecord:
    """Where a learner is in one lesson of the course path."""

    lesson_id: str
    done: tuple[str, ...]  # step ids finished
    at_step: str  # the step on show when the learner left
    draft: dict[str, Any]  # what was typed and not yet submitted, by step id
    passed_at: float | None  # when the check was passed (None: not yet)
    updated_at: float

    @property
    def passed(self) -> bool:
        return self.passed_at is not None


@dataclass
class ProgressStore:
    """Open with ``ProgressStore.open(data_dir)``; use as a context manager or call close()."""

    path: Path
    moved_aside: Path | None = None  # set when a damaged file was renamed on the way in
    read_only: bool = False  # opened for viewing only: nothing can be written (store.read_only)
    # Bytes of content one store may grow to (None: no limit). ``attn-tui serve`` sets it for
    # every student's store (serve/session.py); past it a write is StoreError("store.budget").
    budget: ClassVar[int | None] = None
    _conn: sqlite3.Connection | None = field(default=None, repr=False)
    _lock: threading.Lock = field(default_factory=threading.Lock, repr=False)
    _gate: _Gate | None = field(default=None, repr=False)
    _file_id: tuple[int, int] | None = field(default=None, repr=False)  # (dev, inode) opened

    # -- opening
    @classmethod
    def open(cls, data_dir: Path) -> ProgressStore:
        """Open (or start) the store in ``data_dir``; raises StoreError when it cannot."""
        data_dir = Path(data_dir)
        try:
            data_dir.mkdir(parents=True, exist_ok=True)
        except OSError as err:
            raise StoreError("store.no_dir", path=str(data_dir), error=_reason(err)) from None
        store = cls(path=data_dir / FILENAME)
        store._gate = _Gate(data_dir / LOCKNAME)
        try:
            store._open()
        except DamagedStore:  # damaged again right after being replaced: give up, say so
            store._gate.release()
            raise StoreError("store.damaged", path=str(store.path)) from None
        except BaseException:
            store._gate.release()
            raise
        return store

    def _open(self) -> None:
        """Under the shared lock, connect; a damaged file goes to :meth:`_recover`."""
        assert self._gate is not None
        self._gate.hold(exclusive=False, timeout=BUSY_TIMEOUT_S, path=self.path)
        self.read_only = self.read_only or self._gate.read_only
        try:
            self._conn = self._connect()
        except DamagedStore:
            if self.read_only:  # it cannot be set aside, nor a new one started: say so
                raise StoreError("store.damaged", path=str(self.path)) from None
            seen = self._file_id
            self._gate.release()
            self._recover(seen)

    def _recover(self, damaged: tuple[int, int] | None) -> None:
        """Set the damaged file aside, unless someone else already has; then connect.

        The rename needs the exclusive lock, which only comes when no other store has the
        file open. While others hold it, wait — until the file at our path is no longer the
        one found damaged (someone replaced it: open that one instead), or the time runs out.
        """
        assert self._gate is not None
        deadline = time.monotonic() + MOVE_WAIT_S
        delay = 0.002
        while True:
            if self._gate.try_hold(exclusive=True):
                try:
                    try:
                        self._conn = self._connect()  # a peer may have replaced it meanwhile
                    except DamagedStore:
                        self.moved_aside = _move_aside(self.path)
                        self._conn = self._connect()
                except BaseException:
                    self._gate.release()
                    raise
                self._gate.hold(exclusive=False, timeout=BUSY_TIMEOUT_S, path=self.path)
                return
            if _file_id(self.path) != damaged:
                self._open()
                return
            if time.monotonic() > deadline:
                raise StoreError("store.damaged_in_use", path=str(self.path))
            time.sleep(delay * (0.5 + random.random()))
            delay = min(delay * 2, 0.1)

    def _connect(self) -> sqlite3.Connection:
        """Connect and check; DamagedStore when SQLite calls the file damaged, StoreError when
        it is not ours, newer than us, or cannot be opened at all. Nothing is written to a
        file before it is known to be ours."""
        try:
            info = os.stat(self.path)
        except FileNotFoundError:
            info = None  # a new store
        except OSError as err:  # a symlink loop, a name too long ...
            raise StoreError("store.cannot_open", path=str(self.path), error=_reason(err)) from None
        if info is not None and not stat.S_ISREG(info.st_mode):
            # SQLite would block forever reading a FIFO, or read /dev/zero without end
            raise StoreError("store.not_regular", path=str(self.path))
        if self.read_only:
            if info is None:  # nothing kept yet, and nothing can be
                raise StoreError("store.read_only", path=str(self.path))
            return self._connect_read_only()
        try:
            conn = sqlite3.connect(
                self.path, timeout=BUSY_TIMEOUT_S, isolation_level=None, check_same_thread=False
            )
        except sqlite3.Error as err:
            raise _store_error(err, self.path) from None
        try:
            self._file_id = _file_id(self.path)
            conn.execute(f"PRAGMA busy_timeout = {int(BUSY_TIMEOUT_S * 1000)}")
            if _retry_busy(lambda: conn.execute("PRAGMA quick_check").fetchone()[0]) != "ok":
                raise DamagedStore(self.path)
            fresh = _retry_busy(lambda: self._check_ours(conn))
            if _retry_busy(lambda: conn.execute("PRAGMA journal_mode").fetchone()[0]) != "wal":
                # SQLite does not call the busy handler for this switch: retry it ourselves.
                _retry_busy(lambda: conn.execute("PRAGMA journal_mode = WAL").fetchone())
            conn.execute("PRAGMA synchronous = FULL")  # an attempt shown as graded is on disk
            if fresh:
                _retry_busy(lambda: self._create_schema(conn))
            else:  # a file from before self-checks existed gains the table, nothing else
                _retry_busy(lambda: self._add_self_checks(conn))
                _retry_busy(lambda: self._migrate(conn))
            self._check_columns(conn)
        except sqlite3.Error as err:
            conn.close()
            if _is_corrupt(err):
                raise DamagedStore(self.path) from err
            if _code(err) in _READ_ONLY_CODES and info is not None:  # a file nobody may write
                self.read_only = True
                return self._connect_read_only()
            raise _store_error(err, self.path) from None
        except BaseException:
            conn.close()
            raise
        return conn

    def _connect_read_only(self) -> sqlite3.Connection:
        """The store opened to be read, as it is: nothing is written, not even the switch to
        WAL or a missing table. A WAL file's shared memory cannot be made in a read-only
        folder, so then it is opened as immutable (nobody can be writing it either)."""
        uri = "file:" + urllib.parse.quote(str(self.path.resolve()))
        conn = None
        for query in ("?mode=ro", "?mode=ro&immutable=1"):
            try:
                conn = sqlite3.connect(uri + query, uri=True, timeout=BUSY_TIMEOUT_S,
                                       isolation_level=None, check_same_thread=False)  # fmt: skip
                if conn.execute("PRAGMA quick_check").fetchone()[0] != "ok":
                    conn.close()
                    raise DamagedStore(self.path)
                self._check_ours(conn)
                try:
                    self._check_columns(conn)
                except DamagedStore:  # an older store, which cannot be brought up to date here
                    conn.close()
                    raise StoreError("store.read_only", path=str(self.path)) from None
                self._file_id = _file_id(self.path)
                return conn
            except sqlite3.Error as err:
                if conn is not None:
                    conn.close()
                if _is_corrupt(err):
                    raise DamagedStore(self.path) from err
                if _code(err) not in (*_READ_ONLY_CODES, 14):  # 14: no shared memory
                    raise _store_error(err, self.path) from None
        raise StoreError("store.read_only", path=str(self.path))

    def _check_ours(self, conn: sqlite3.Connection) -> bool:
        """True for an empty file (ours to start); StoreError for another program's file or a
        newer schema; False for a progress file this version can use."""
        tables = {r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type='table'")}
        if not tables:
            return True
        meta = (
            dict(conn.execute("SELECT key, value FROM meta").fetchall()) if "meta" in tables else {}
        )
        if meta.get("app") != "attn-tui":
            raise StoreError("store.not_ours", path=str(self.path))
        version = meta.get("schema", "1")
        if not (isinstance(version, str) and version.isdigit() and int(version) <= SCHEMA_VERSION):
            raise StoreError(
                "store.newer", path=str(self.path), found=str(version), supported=SCHEMA_VERSION
            )
        return False

    @staticmethod
    def _create_schema(conn: sqlite3.Connection) -> None:
        with _transaction(conn):
            for statement in _SCHEMA.split(";"):
                if statement.strip():
                    conn.execute(statement)
            conn.execute("INSERT OR IGNORE INTO meta VALUES ('app', 'attn-tui')")
            conn.execute("INSERT OR IGNORE INTO meta VALUES ('schema', ?)", (str(SCHEMA_VERSION),))

    @staticmethod
    def _migrate(conn: sqlite3.Connection) -> None:
        """Bring a file of an older schema up to SCHEMA_VERSION, in one transaction.

        Version 1 → 2: the review schedule (``cards``), the course path (``lessons``) and
        ``attempts.review``; every row already there stays as it was. The version is read again
        under the write lock, so two processes opening an old file at once migrate it once.
        Nothing is written to a file that is already current (a read-only copy still opens).
        """

        def version() -> int:
            row = conn.execute("SELECT value FROM meta WHERE key = 'schema'").fetchone()
            return int(row[0]) if row and str(row[0]).isdigit() else 1

        if version() >= SCHEMA_VERSION:
            return
        with _transaction(conn):
            if version() >= SCHEMA_VERSION:  # a peer migrated it while we waited for the lock
                return
            columns = {r[1] for r in conn.execute("PRAGMA table_info(attempts)")}
            if "review" not in columns:
                conn.execute("ALTER TABLE attempts ADD COLUMN review INTEGER NOT NULL DEFAULT 0")
            for statement in _SCHEMA_2.split(";"):
                if statement.strip():
                    conn.execute(statement)
            conn.execute(
                "INSERT INTO meta VALUES ('schema', ?) ON CONFLICT (key) DO UPDATE"
                " SET value = excluded.value",
                (str(SCHEMA_VERSION),),
            )

    @staticmethod
    def _add_self_checks(conn: sqlite3.Connection) -> None:
        exists = conn.execute(
            "SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'self_checks'"
        ).fetchone()
        if not exists:  # a write only when needed: a read-only copy still opens
            with _transaction(conn):
                conn.execute(_SELF_CHECKS)

    @staticmethod
    def _check_columns(conn: sqlite3.Connection) -> None:
        for table, needed in _REQUIRED_COLUMNS.items():
            have = {r[1] for r in conn.execute(f"PRAGMA table_info({table})")}
            if not needed <= have:
                raise DamagedStore(f"table {table} lacks {sorted(needed - have)}")

    def close(self) -> None:
        with self._lock:
            if self._conn is not None:
                self._conn.close()
                self._conn = None
            if self._gate is not None:
                self._gate.release()

    def __enter__(self) -> ProgressStore:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    @property
    def conn(self) -> sqlite3.Connection:
        if self._conn is None:
            raise StoreError("store.closed", path=str(self.path))
        return self._conn

    def _write(self, work: Callable[[sqlite3.Connection], T]) -> T:
        """Run ``work`` in one committed transaction. A file found damaged mid-session is set
        aside (once no other store has it open) and ``work`` runs again on a fresh file, so
        the attempt is still kept. Any other failure is a StoreError: nothing was kept."""
        if self.read_only:
            raise StoreError("store.read_only", path=str(self.path))
        for retry in (False, True):
            with self._lock:
                try:
                    with _transaction(self.conn):
                        return work(self.conn)
                except sqlite3.Error as err:
                    if retry or not _is_corrupt(err):
                        raise _store_error(err, self.path) from None
                    seen = self._file_id
                    self.conn.close()
                    self._conn = None
                    assert self._gate is not None
                    self._gate.release()
                    self._recover(seen)
        raise AssertionError("unreachable")

    def _insert(self, sql: str, row: tuple[Any, ...]) -> int:
        """One committed INSERT; the new row's id."""

        def insert(conn: sqlite3.Connection) -> int:
            self._within_budget(conn)
            return int(conn.execute(sql, row).lastrowid or 0)

        return self._write(insert)

    def _within_budget(self, conn: sqlite3.Connection) -> None:
        """StoreError("store.budget") once the content has reached :attr:`budget` bytes."""
        if self.budget is None:
            return
        pages = conn.execute("PRAGMA page_count").fetchone()[0]
        free = conn.execute("PRAGMA freelist_count").fetchone()[0]  # left by what was forgotten
        size = conn.execute("PRAGMA page_size").fetchone()[0]
        if (pages - free) * size >= self.budget:
            raise StoreError("store.budget", path=str(self.path), limit=_size(self.budget))

    def _read(self, sql: str, params: Iterable[Any] = ()) -> list[tuple[Any, ...]]:
        with self._lock:
            try:
                return self.conn.execute(sql, tuple(params)).fetchall()
            except sqlite3.Error as err:
                raise _store_error(err, self.path) from None

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
        review: bool = False,
        reschedule: bool = True,
    ) -> int:
        """Store one graded attempt (or a reveal) and commit it before returning its id.

        The item's review card is rescheduled in the same transaction (``reschedule``), so an
        answer and the day it comes back are kept together or not at all. ``review`` marks an
        answer given when the item was due (mastery counts a miss there against the topic).
        ``at`` defaults to the course clock (``ATTN_TUI_NOW`` or the real time).

        The answer is kept as far as grading reads it (MAX_ANSWER_CHARS), with CUT_MARK after
        it when it was longer; more than ATTEMPTS_PER_MINUTE attempts at one exercise within a
        minute are refused (StoreError "store.too_fast"): a learner's page holding two long
        answers in turn stored 16 MB in 285 attempts.
        """
        when = clock.now() if at is None else at
        row = (
            set_id,
            exercise_id,
            cut_answer(str(answer)),
            int(bool(correct)),
            float(score),
            int(hints_used),
            int(bool(revealed)),
            seed,
            when,
            int(bool(review)),
        )
        rating = rating_for(bool(correct), int(hints_used), bool(revealed))

        def write(conn: sqlite3.Connection) -> int:
            recent = conn.execute(
                "SELECT COUNT(*) FROM attempts WHERE set_id = ? AND exercise_id = ? AND at > ?",
                (set_id, exercise_id, when - 60.0),
            ).fetchone()[0]
            if recent >= ATTEMPTS_PER_MINUTE:
                raise StoreError("store.too_fast", path=str(self.path), limit=ATTEMPTS_PER_MINUTE)
            self._within_budget(conn)
            cur = conn.execute(
                "INSERT INTO attempts (set_id, exercise_id, answer, correct, score, hints_used,"
                " revealed, seed, at, review) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                row,
            )
            if reschedule:
                before = _card(conn, set_id, exercise_id)
                _put_card(conn, schedule(before, set_id, exercise_id, rating, when))
            return int(cur.lastrowid or 0)

        return self._write(write)

    # -- reviews (schema 2)
    def card(self, set_id: str, exercise_id: str) -> CardState | None:
        with self._lock:
            try:
                return _card(self.conn, set_id, exercise_id)
            except sqlite3.Error as err:
                raise _store_error(err, self.path) from None

    def cards(self) -> list[CardState]:
        rows = self._read(f"SELECT {_CARD_COLUMNS} FROM cards ORDER BY due, set_id, exercise_id")
        return [CardState(*r) for r in rows]

    def due_cards(self, now: float | None = None, limit: int = 1000) -> list[CardState]:
        """Cards due at ``now`` (the course clock by default), the longest overdue first."""
        when = clock.now() if now is None else now
        rows = self._read(
            f"SELECT {_CARD_COLUMNS} FROM cards WHERE due <= ? ORDER BY due, set_id, exercise_id"
            " LIMIT ?",
            (when, int(limit)),
        )
        return [CardState(*r) for r in rows]

    def count_due(self, now: float | None = None) -> int:
        when = clock.now() if now is None else now
        return int(self._read("SELECT COUNT(*) FROM cards WHERE due <= ?", (when,))[0][0])

    # -- the course path (schema 2)
    def lessons(self) -> dict[str, LessonRecord]:
        rows = self._read(
            "SELECT lesson_id, done, at_step, draft, passed_at, updated_at FROM lessons"
        )
        out = {}
        for r in rows:
            draft = _json_dict(r[3])
            done = tuple(str(x) for x in _json_list(r[1]))
            out[r[0]] = LessonRecord(r[0], done, str(r[2]), draft, r[4], r[5])
        return out

    def save_lesson(self, record: LessonRecord) -> None:
        """Keep where the learner is in a lesson (committed at once: quitting loses nothing)."""
        row = (
            record.lesson_id,
            json.dumps(list(record.done), ensure_ascii=False),
            record.at_step,
            json.dumps(record.draft, ensure_ascii=False),
            record.passed_at,
            record.updated_at,
        )
        self._write(
            lambda conn: conn.execute(
                "INSERT INTO lessons VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (lesson_id) DO UPDATE"
                " SET done = excluded.done, at_step = excluded.at_step, draft = excluded.draft,"
                " passed_at = excluded.passed_at, updated_at = excluded.updated_at",
                row,
            )
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
            " seed, at, review" + sql[len("SELECT *") :] + " ORDER BY id",
            params,
        )
        return [
            Attempt(
                r[0], r[1], r[2], r[3], bool(r[4]), r[5], r[6], bool(r[7]), r[8], r[9], bool(r[10])
            )
            for r in rows
        ]

    def visit(self, set_id: str, exercise_id: str, at: float | None = None) -> None:
        """Remember where the learner is in a set (the last exercise shown)."""
        row = (set_id, exercise_id, clock.now() if at is None else at)
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
            clock.now() if at is None else at,
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
        return [SelfCheck(r[0], r[1], r[2], _json_list(r[3]), r[4], r[5], r[6]) for r in rows]

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
            clock.now() if at is None else at,
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
            try:
                topics = {k: (v[0], v[1]) for k, v in json.loads(r[4]).items()}
                missed = tuple(json.loads(r[5]))
            except (ValueError, TypeError, AttributeError, IndexError, KeyError):
                topics, missed = {}, ()  # a row edited by hand: keep its score, drop the detail
            out.append(QuizAttempt(r[0], r[1], r[2], r[3], topics, missed, r[6]))
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
        text = json.dumps(_cut_strings(run), ensure_ascii=False)

        def keep(conn: sqlite3.Connection) -> None:
            self._within_budget(conn)
            conn.execute(
                "INSERT INTO meta VALUES ('quiz_run', ?) ON CONFLICT (key) DO UPDATE"
                " SET value = excluded.value",
                (text,),
            )

        self._write(keep)

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
                conn.execute("DELETE FROM cards WHERE set_id = ?", (set_id,))
                return cur.rowcount
            deleted = 0
            for exercise_id in ids:
                cur = conn.execute(
                    "DELETE FROM attempts WHERE set_id = ? AND exercise_id = ?",
                    (set_id, exercise_id),
                )
                conn.execute(
                    "DELETE FROM cards WHERE set_id = ? AND exercise_id = ?",
                    (set_id, exercise_id),
                )
                deleted += cur.rowcount
            return deleted

        return self._write(forget)

    def reset(self) -> None:
        """Delete every attempt, visit and quiz result (the file stays, so does its schema)."""

        def wipe(conn: sqlite3.Connection) -> None:
            for table in ("attempts", "visits", "quiz_attempts", "self_checks", "cards", "lessons"):
                conn.execute(f"DELETE FROM {table}")

        self._write(wipe)


class Guarded:
    """The store as a screen holds it: while it works, it is the store; when it fails, reads
    answer as an empty store would and writes keep nothing, and ``on_error(err, writing)``
    hears of each failure, so the screen can say that progress is not being saved, and why,
    and practice goes on. ``store`` may be None (it could not be opened at all)."""

    def __init__(
        self,
        store: ProgressStore | None,
        on_error: Callable[[StoreError, bool], None] = lambda err, writing: None,
    ) -> None:
        self.store = store
        self.on_error = on_error

    @property
    def moved_aside(self) -> Path | None:
        return self.store.moved_aside if self.store is not None else None

    def _try(self, work: Callable[[ProgressStore], T], default: T, writing: bool) -> T:
        if self.store is None:
            return default
        try:
            return work(self.store)
        except StoreError as err:
            self.on_error(err, writing)
            return default

    # reads: what a store with nothing in it answers
    def attempts(self, set_id: str | None = None, exercise_id: str | None = None) -> list[Attempt]:
        return self._try(lambda s: s.attempts(set_id, exercise_id), [], False)

    def statuses(self, set_id: str) -> dict[str, ExerciseStatus]:
        return self._try(lambda s: s.statuses(set_id), {}, False)

    def last_visit(self, set_id: str) -> tuple[str, float] | None:
        return self._try(lambda s: s.last_visit(set_id), None, False)

    def set_progress(self, set_id: str, exercise_ids: Iterable[str]) -> SetProgress:
        ids = list(exercise_ids)
        empty = SetProgress(set_id, len(ids), 0, 0, ids[0] if ids else None, None, None)
        return self._try(lambda s: s.set_progress(set_id, ids), empty, False)

    def quiz_attempts(self, mode: str | None = None) -> list[QuizAttempt]:
        return self._try(lambda s: s.quiz_attempts(mode), [], False)

    def best_quiz(self, mode: str | None = None) -> QuizAttempt | None:
        return self._try(lambda s: s.best_quiz(mode), None, False)

    # writes: None when nothing was kept
    def record_attempt(self, *args: Any, **kwargs: Any) -> int | None:
        return self._try(lambda s: s.record_attempt(*args, **kwargs), None, True)

    def visit(self, set_id: str, exercise_id: str, at: float | None = None) -> None:
        self._try(lambda s: s.visit(set_id, exercise_id, at), None, True)

    def record_quiz(self, *args: Any, **kwargs: Any) -> int | None:
        return self._try(lambda s: s.record_quiz(*args, **kwargs), None, True)

    def record_self_check(self, *args: Any, **kwargs: Any) -> int | None:
        return self._try(lambda s: s.record_self_check(*args, **kwargs), None, True)

    def self_checks(self, set_id: str | None = None) -> list[SelfCheck]:
        return self._try(lambda s: s.self_checks(set_id), [], False)

    def quiz_run(self) -> dict[str, Any] | None:
        return self._try(lambda s: s.quiz_run(), None, False)

    def save_quiz_run(self, run: Mapping[str, Any] | None) -> None:
        self._try(lambda s: s.save_quiz_run(run), None, True)

    def reset_exercises(self, set_id: str, exercise_ids: Iterable[str] | None = None) -> int:
        ids = None if exercise_ids is None else list(exercise_ids)
        return self._try(lambda s: s.reset_exercises(set_id, ids), 0, True)

    def card(self, set_id: str, exercise_id: str) -> CardState | None:
        return self._try(lambda s: s.card(set_id, exercise_id), None, False)

    def cards(self) -> list[CardState]:
        return self._try(lambda s: s.cards(), [], False)

    def due_cards(self, now: float | None = None, limit: int = 1000) -> list[CardState]:
        return self._try(lambda s: s.due_cards(now, limit), [], False)

    def count_due(self, now: float | None = None) -> int:
        return self._try(lambda s: s.count_due(now), 0, False)

    def lessons(self) -> dict[str, LessonRecord]:
        return self._try(lambda s: s.lessons(), {}, False)

    def save_lesson(self, record: LessonRecord) -> None:
        self._try(lambda s: s.save_lesson(record), None, True)

    def close(self) -> None:
        if self.store is not None:
            self.store.close()


def cut_answer(text: str) -> str:
    """``text`` as far as grading reads it, and CUT_MARK with how much more there was."""
    if len(text) <= MAX_ANSWER_CHARS:
        return text
    return text[:MAX_ANSWER_CHARS] + CUT_MARK.format(n=len(text) - MAX_ANSWER_CHARS)


def _cut_strings(value: Any, depth: int = 0) -> Any:
    """Every string in plain JSON data cut as :func:`cut_answer` cuts an answer."""
    if isinstance(value, str):
        return cut_answer(value)
    if depth > 32:
        return value
    if isinstance(value, Mapping):
        return {k: _cut_strings(v, depth + 1) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_cut_strings(v, depth + 1) for v in value]
    return value


def _size(n: int) -> str:
    return f"{n / 2**20:.0f} MB" if n >= 2**20 else f"{n // 1024} KB"


@contextmanager
def _transaction(conn: sqlite3.Connection) -> Iterator[None]:
    """BEGIN IMMEDIATE takes the write lock up front, so a busy peer makes us wait, not fail."""
    conn.execute("BEGIN IMMEDIATE")
    try:
        yield
        conn.execute("COMMIT")  # a full disk fails here: roll back, so the next write can begin
    except BaseException:
        if conn.in_transaction:
            try:
                conn.execute("ROLLBACK")
            except sqlite3.Error:
                pass  # the failure being raised says more than this one
        raise


_CARD_COLUMNS = "set_id, exercise_id, due, reps, lapses, last_at, last_rating, card"


def _card(conn: sqlite3.Connection, set_id: str, exercise_id: str) -> CardState | None:
    row = conn.execute(
        f"SELECT {_CARD_COLUMNS} FROM cards WHERE set_id = ? AND exercise_id = ?",
        (set_id, exercise_id),
    ).fetchone()
    return CardState(*row) if row else None


def _put_card(conn: sqlite3.Connection, c: CardState) -> None:
    conn.execute(
        f"INSERT INTO cards ({_CARD_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?)"
        " ON CONFLICT (set_id, exercise_id) DO UPDATE SET due = excluded.due,"
        " reps = excluded.reps, lapses = excluded.lapses, last_at = excluded.last_at,"
        " last_rating = excluded.last_rating, card = excluded.card",
        (c.set_id, c.exercise_id, c.due, c.reps, c.lapses, c.last_at, c.last_rating, c.card),
    )


def _json_dict(text: str) -> dict[str, Any]:
    try:
        value = json.loads(text)
    except (ValueError, TypeError):
        return {}
    return value if isinstance(value, dict) else {}


def _json_list(text: str) -> tuple[Any, ...]:
    """A JSON list kept in a row; a row edited by hand into something else reads as empty."""
    try:
        value = json.loads(text)
    except (ValueError, TypeError):
        return ()
    return tuple(value) if isinstance(value, list) else ()


def _code(err: sqlite3.Error) -> int | None:
    code = getattr(err, "sqlite_errorcode", None)
    return None if code is None else code & 0xFF


def _is_corrupt(err: sqlite3.Error) -> bool:
    code = _code(err)
    if code is not None:
        return code in _CORRUPT_CODES
    text = str(err).lower()
    return "malformed" in text or "not a database" in text


def _is_busy(err: sqlite3.Error) -> bool:
    code = _code(err)
    if code is not None:
        return code in _BUSY_CODES
    return "locked" in str(err).lower() or "busy" in str(err).lower()


def _retry_busy(work: Callable[[], T]) -> T:
    """``work``, retried with backoff while SQLite says busy (for the statements its busy
    timeout does not cover, such as the switch to WAL), up to BUSY_TIMEOUT_S."""
    deadline = time.monotonic() + BUSY_TIMEOUT_S
    delay = 0.002
    while True:
        try:
            return work()
        except sqlite3.OperationalError as err:
            if not _is_busy(err) or time.monotonic() > deadline:
                raise
        time.sleep(delay * (0.5 + random.random()))
        delay = min(delay * 2, 0.25)


def _store_error(err: sqlite3.Error, path: Path) -> StoreError:
    """A SQLite failure as the reason progress cannot be kept."""
    code = _code(err)
    if _is_busy(err):
        return StoreError("store.busy", path=str(path), seconds=round(BUSY_TIMEOUT_S))
    if _is_corrupt(err):
        return StoreError("store.damaged", path=str(path))
    reason = _REASONS.get(code) if code is not None else None
    if reason is None and "disk is full" in str(err).lower():
        reason = "store.full"
    return StoreError(reason or "store.failed", path=str(path), error=str(err))


def _reason(err: OSError) -> str:
    return err.strerror or type(err).__name__


def _file_id(path: Path) -> tuple[int, int] | None:
    try:
        info = os.stat(path)
    except OSError:
        return None
    return (info.st_dev, info.st_ino)


class _Gate:
    """An flock on ``progress.db.lock``: shared by every open store, exclusive to move a
    damaged file aside. Without fcntl (Windows) it admits everyone."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.fd: int | None = None

    read_only = False  # the lock file could be opened for reading only, or not at all
    unlocked = False  # there is no lock file and none can be made: a read-only store

    def _fd(self) -> int:
        if self.fd is None:
            cloexec = getattr(os, "O_CLOEXEC", 0)
            try:
                self.fd = os.open(self.path, os.O_RDWR | os.O_CREAT | cloexec, 0o644)
            except OSError as err:
                if err.errno not in (errno.EACCES, errno.EPERM, errno.EROFS):
                    raise StoreError(
                        "store.no_dir", path=str(self.path.parent), error=_reason(err)
                    ) from None
                self.read_only = True  # a folder nobody may write: the store opens to be read
                try:
                    self.fd = os.open(self.path, os.O_RDONLY | cloexec)
                except OSError:
                    self.unlocked = True
                    return -1
        return self.fd

    def try_hold(self, exclusive: bool) -> bool:
        """Take (or convert to) the lock without waiting; False when someone else holds it."""
        if fcntl is None or self._fd() < 0:
            return True
        mode = fcntl.LOCK_EX if exclusive else fcntl.LOCK_SH
        try:
            fcntl.flock(self._fd(), mode | fcntl.LOCK_NB)
        except BlockingIOError:
            return False
        except OSError as err:
            if err.errno in (errno.EAGAIN, errno.EACCES):
                return False
            if err.errno in (errno.ENOLCK, errno.EOPNOTSUPP, errno.ENOSYS):
                return True  # a file system without locks: SQLite's own locking still applies
            raise StoreError("store.failed", path=str(self.path), error=_reason(err)) from None
        return True

    def hold(self, exclusive: bool, timeout: float, path: Path) -> None:
        """Take the lock, waiting with backoff up to ``timeout``; StoreError store.busy after."""
        deadline = time.monotonic() + timeout
        delay = 0.002
        while not self.try_hold(exclusive):
            if time.monotonic() > deadline:
                raise StoreError("store.busy", path=str(path), seconds=round(timeout))
            time.sleep(delay * (0.5 + random.random()))
            delay = min(delay * 2, 0.1)

    def release(self) -> None:
        if self.fd is not None and self.fd >= 0:
            os.close(self.fd)  # closing the descriptor drops its flock
        self.fd = None


def _move_aside(path: Path) -> Path:
    """Rename the file (and its -wal/-shm) to ``<name>.damaged-<timestamp>[-n]``; return that.

    Called under the exclusive lock only. The new name is taken with a hard link, which fails
    rather than overwrite, so a damaged file never replaces another one.
    """
    stamp = time.strftime("%Y%m%d-%H%M%S")
    n = 1
    while True:
        target = path.with_name(f"{path.name}.damaged-{stamp}" + (f"-{n}" if n > 1 else ""))
        if _rename_no_clobber(path, target):
            break
        n += 1
    for suffix in ("-wal", "-shm"):
        side = path.with_name(path.name + suffix)
        if os.path.lexists(side):
            _rename_no_clobber(side, target.with_name(target.name + suffix))
    return target


def _rename_no_clobber(source: Path, target: Path) -> bool:
    """Rename ``source`` to ``target`` unless ``target`` exists (False then)."""
    try:
        os.link(source, target)
    except FileExistsError:
        return False
    except OSError:  # no hard links here (some file systems): check, then rename
        if os.path.lexists(target):
            return False
        os.rename(source, target)
        return True
    os.unlink(source)
    return True


def open_store(data_dir: Path) -> ProgressStore:
    """Shorthand for :meth:`ProgressStore.open`."""
    return ProgressStore.open(data_dir)
