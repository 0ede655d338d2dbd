"""The course as the screens use it: the sets, the lessons and the progress store, loaded once
per app (off the UI thread: the sets take most of a second to check) and shared by the home
screen, the lessons and the reviews.

Kept outside ``core`` because it asks ``paths`` where the data lives; everything it computes
comes from ``core.course``.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from attn_tui import paths
from attn_tui.core.course import clock
from attn_tui.core.course.lessons import Course, Lesson
from attn_tui.core.course.mastery import TopicMastery, mastery, topics_of
from attn_tui.core.course.path import PathStatus, path_status
from attn_tui.core.exercises.generators import Instance
from attn_tui.core.exercises.model import TOPICS, Exercise, Library
from attn_tui.core.progress import Guarded, LessonRecord, ProgressStore, StoreError


@dataclass
class Coursebook:
    library: Library
    course: Course
    store: Guarded | None
    store_error: str | None = None
    listeners: list[Callable[[], None]] = field(default_factory=list)
    moved_aside: Any = None  # a damaged progress file this store set aside on opening
    data_dir: Any = None  # the app's data_dir it was loaded for

    @classmethod
    def load(cls, data_dir: Any, extra: Any = (), store: bool = True,
             sets: tuple[Library, Course] | None = None) -> Coursebook:  # fmt: skip
        """The sets, the lessons (``sets``: as :func:`read` read them already) and (if
        ``store``) the progress store under ``data_dir``."""
        from attn_tui.i18n import describe

        data = paths.data_dir(data_dir)
        if sets is None:
            sets = _sets(data_dir, extra)
        library, course = sets
        book = cls(library, course, None, data_dir=data_dir)
        if not store:
            return book
        try:
            book.store = Guarded(ProgressStore.open(data), book._store_failed)
            book.moved_aside = book.store.moved_aside
        except StoreError as err:  # practice goes on without a store; the screens say why
            book.store_error = describe(err)
        return book

    def _store_failed(self, err: StoreError, writing: bool) -> None:
        from attn_tui.i18n import describe

        self.store_error = describe(err)

    # -- reading
    def records(self) -> dict[str, LessonRecord]:
        return self.store.lessons() if self.store else {}

    def status(self) -> PathStatus:
        return path_status(self.course, self.records())

    def due(self) -> int:
        """Reviews due now, of items this app can show (a code exercise's checks, or a set no
        longer installed, have cards too but are not reviewed here)."""
        if not self.store or not self.store.count_due():
            return 0
        return sum(1 for c in self.store.due_cards() if self.item(c.key) is not None)

    def next_due(self) -> float | None:
        if not self.store:
            return None
        now = clock.now()
        later = [c.due for c in self.store.cards() if c.due > now and self.item(c.key)]
        return min(later) if later else None

    def solved(self) -> set[str]:
        """Items answered right at least once (the answer not shown first): "set/id"."""
        if not self.store:
            return set()
        return {f"{a.set_id}/{a.exercise_id}" for a in self.store.attempts()
                if a.correct and not a.revealed}  # fmt: skip

    def mastery(self) -> dict[str, TopicMastery]:
        attempts = self.store.attempts() if self.store else []
        sets = self.library.sets + self.library.quizzes
        return mastery(attempts, topics_of(sets), TOPICS)

    def item(self, key: str) -> Exercise | None:
        set_id, _, ex_id = key.partition("/")
        found = self.library.get(set_id)
        return found.exercise(ex_id) if found else None

    def lesson(self, lesson_id: str) -> Lesson | None:
        return self.course.get(lesson_id)

    # -- writing (each kept the moment it happens)
    def record(self, inst: Instance, answer: str, grade: Any, hints: int, revealed: bool,
               review: bool = False) -> None:  # fmt: skip
        if self.store is None:
            return
        ex = inst.exercise
        self.store.record_attempt(ex.set_id, ex.id, answer, correct=bool(grade.correct),
                                  score=float(grade.score), hints_used=hints, revealed=revealed,
                                  seed=inst.seed, review=review)  # fmt: skip
        self.changed()

    def save_lesson(self, record: LessonRecord) -> None:
        if self.store is not None:
            self.store.save_lesson(record)
        self.changed()

    def changed(self) -> None:
        for listener in list(self.listeners):
            listener()

    def close(self) -> None:
        if self.store is not None:
            self.store.close()


_LOCK = threading.Lock()
# The sets and lessons :func:`read` read for one (data_dir, extra folders), until :func:`of`
# takes them to make that app's book.
_read: tuple[tuple[Any, tuple[Any, ...]], tuple[Library, Course]] | None = None


def _sets(data_dir: Any, extra: Any) -> tuple[Library, Course]:
    data = paths.data_dir(data_dir)
    library = paths.load_all(extra, data)
    return library, paths.load_course(extra, data, library)


def _folders(app: Any) -> tuple[Any, tuple[Any, ...]]:
    return getattr(app, "data_dir", None), tuple(getattr(app, "extra_exercises", ()))


def read(app: Any) -> None:
    """Read and check the sets and lessons :func:`of` will need for ``app``, ahead of it (which
    then only opens the store). It writes nothing of the learner's (at most the cache of the
    shipped files, whole or not at all), so it may be abandoned half way: the home screen runs
    it in a daemon thread, and quitting the app meanwhile does not wait for it."""
    global _read
    with _LOCK:
        folders = _folders(app)
        if loaded(app) is None and (_read is None or _read[0] != folders):
            _read = (folders, _sets(*folders))


def of(app: Any) -> Coursebook:
    """The app's coursebook, loaded on first use (call it from a thread worker the first time:
    it checks every set and lesson). It follows the app's ``data_dir``: when that changes (a
    served student is named), the old store is closed and the book loaded again for the new one.
    An app whose ``keeps_progress`` is false (a class's tab before its student is named) gets
    no store at all, so nothing lands in a store nobody owns."""
    global _read
    with _LOCK:
        book = loaded(app)
        if book is None:
            stale = getattr(app, "_coursebook", None)
            if stale is not None:
                stale.close()
            folders = _folders(app)
            sets = _read[1] if _read is not None and _read[0] == folders else None
            book = Coursebook.load(*folders, store=getattr(app, "keeps_progress", True),
                                   sets=sets)  # fmt: skip
            app._coursebook = book
            _read = None
        return book


def loaded(app: Any) -> Coursebook | None:
    """The coursebook if it is loaded already, for the app's data_dir now (None: not yet)."""
    book = getattr(app, "_coursebook", None)
    if book is None or book.data_dir != getattr(app, "data_dir", None):
        return None
    return book


def moved_aside(app: Any, store: Any) -> Any:
    """The damaged progress file set aside when it was opened, whichever store of this app
    found it: the screen's own, or the course's (opened first, off the UI thread)."""
    own = store.moved_aside if store is not None else None
    book = loaded(app)
    return own or (book.moved_aside if book is not None else None)
