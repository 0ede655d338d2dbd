"""The exercises screen: the sets with their progress, then one exercise at a time.

The library and the progress store are opened once and kept for the screen's life. Every
graded answer (and every reveal) is written to the store the moment it is graded, and every
exercise shown is remembered as the set's last visit, so a learner who quits anywhere comes
back to the first exercise not yet done. A teacher's file that does not load is one entry in
the list, with its ``file:line: message`` faults; a damaged progress file is set aside by the
store and named at the top of the list.

The screen is a composition of three views (``widgets.exercises``): ``SetList``,
``ItemsView`` and ``ExercisePane``, one shown at a time. They draw; the screen holds the
library, the store and where the learner is (the set, the exercise, redoing), writes every
attempt, and decides what comes next.
"""

from __future__ import annotations

from typing import Any

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.widgets import ContentSwitcher, Input

from attn_tui import coursebook
from attn_tui.core.exercises.generators import RecentDraws, instance
from attn_tui.core.exercises.grading import Grade, grade, reveal
from attn_tui.core.exercises.model import ExerciseSet, Library
from attn_tui.core.progress import ExerciseStatus, Guarded, ProgressStore, StoreError
from attn_tui.i18n import describe, get_lang, t
from attn_tui.render import exercises as draw
from attn_tui.screens.base import TutorFooter, TutorScreen
from attn_tui.screens.confirm import ConfirmScreen
from attn_tui.screens.loading import LibraryLoad
from attn_tui.widgets.exercises import ExercisePane, ItemsView, SetList
from attn_tui.widgets.self_check import SelfCheck


def _next_on_the_path(app) -> str | None:
    """The end of a set says what comes next on the course path, once the course is loaded."""
    book = coursebook.loaded(app)
    nxt = book.status().next if book is not None else None
    if nxt is None:
        return None
    return t("course.quiz.next", n=nxt.number, title=nxt.lesson.title.get(get_lang()))


class ExercisesScreen(TutorScreen):
    CSS_PATH = "exercises.tcss"
    HELP = (
        ("ex.sets", "ex.help.list"),
        ("ex.title", "ex.help.exercise"),
        ("ex.key.next", "ex.help.keys"),
        ("ex.key.list", "ex.help.items"),
    )
    AUTO_FOCUS = "#ex-sets"  # focused as it is composed: one restyle of the screen, not two
    BINDINGS = [
        Binding("f3", "hint", "ex.key.hint"),
        Binding("f4", "reveal", "ex.key.reveal"),
        Binding("f5", "another", "ex.key.another"),
        # named in the exercise itself; priority, so the calculator opens while F7 is handled
        # and keys typed straight after it go there, not into the answer field
        Binding("f7", "calculator", "ex.key.calc", show=False, priority=True),
        Binding("pagedown", "next", "ex.key.next", priority=True),
        Binding("pagedown", "skip", "ex.key.skip", priority=True),
        Binding("pageup", "previous", "ex.key.previous", priority=True, show=False),
        Binding("f8", "items", "ex.key.list"),
        Binding("f6", "sets", "ex.key.sets"),
    ]

    def __init__(self) -> None:
        super().__init__()
        self.library: Library = Library()
        self.store: Guarded | None = None  # None: progress could not be opened (store_error)
        self.store_error: str | None = None
        self.current: ExerciseSet | None = None
        self.index = 0
        self.redo = False  # going through only the exercises not solved yet
        self._calc_armed = False  # F7 pressed once on an unfinished exercise
        self.recent = RecentDraws()  # so that "another one" brings numbers not seen lately
        self.set_list = SetList(id="ex-list")
        self.items = ItemsView(id="ex-items")
        self.pane = ExercisePane(id="ex-pane")

    @property
    def inst(self):
        """The exercise on show (None on the lists)."""
        return self.pane.inst

    # ---- loading ------------------------------------------------------------------------
    def _open(self) -> None:
        """The library (the course's, which home loads in the background, when it is in; else
        read now, or in a thread when it is big: screens/loading.py) and the progress store."""
        book = coursebook.loaded(self.app)
        self.load = LibraryLoad(self, book.library if book is not None else None)
        try:
            self.store = Guarded(ProgressStore.open(self.load.data), self._store_failed)
        except StoreError as err:  # an unusable data dir or file must not stop practice
            self.store, self.store_error = None, describe(err)

    def _store_failed(self, err: StoreError, writing: bool) -> None:
        """The store failed mid-session: say so (at once when an answer was not kept)."""
        self.store_error = describe(err)
        if writing:
            self.notify(t("ex.store_unusable", error=self.store_error), severity="error")

    def on_unmount(self) -> None:
        if self.store is not None:
            self.store.close()

    # ---- layout -------------------------------------------------------------------------
    def compose(self) -> ComposeResult:
        self._open()
        with ContentSwitcher(initial="ex-list", id="ex-switcher"):
            yield self.set_list
            yield self.items
            yield self.pane
        yield TutorFooter()

    def on_mount(self) -> None:
        super().on_mount()
        self.redraw_list()
        self.set_list.sets.focus()

    def on_screen_resume(self) -> None:
        if self.in_list and self.returned:  # (drawn by on_mount the first time)
            self.redraw_list()

    @property
    def in_list(self) -> bool:
        return self.query_one(ContentSwitcher).current == "ex-list"

    @property
    def in_items(self) -> bool:
        return self.query_one(ContentSwitcher).current == "ex-items"

    def _switch(self, view: str) -> None:
        self.query_one(ContentSwitcher).current = view

    # ---- the set list -------------------------------------------------------------------
    def redraw_list(self) -> None:
        damaged = coursebook.moved_aside(self.app, self.store)
        self.set_list.show(self.library, self.store, self.store_error, damaged,
                           loading=self.load.status())  # fmt: skip

    def on_set_list_chosen(self, message: SetList.Chosen) -> None:
        try:
            self.open_set(message.set_id)
        finally:
            self.app.release_keys()  # type: ignore[attr-defined]  # held by OpenList's Enter

    # ---- one set ------------------------------------------------------------------------
    def open_set(self, set_id: str) -> None:
        """Show the set at its first exercise not yet done (the last one visited when all are)."""
        ex_set = self.library.get(set_id)
        if ex_set is None:
            return
        self.current = ex_set
        start = 0
        if self.store is not None:
            progress = self.store.set_progress(ex_set.id, ex_set.ids)
            resume = progress.first_unsolved or progress.last_visited
            start = ex_set.index(resume) or 0 if resume else 0
        self._switch("ex-pane")
        self.show_exercise(start)

    def show_exercise(self, index: int, seed: int | None = None) -> None:
        assert self.current is not None
        self.index = index
        exercise = self.current.exercises[index]
        if exercise.generated and seed is None:
            seed = self._unfinished_seed(exercise.id)
        self.pane.begin(instance(exercise, seed=seed))
        self.recent.seen(self.pane.inst)
        self._calc_armed = False
        self._remember(lambda store: store.visit(self.current.id, exercise.id))  # type: ignore[union-attr]
        self.redraw_exercise()
        self.pane.scroll_to_top()
        self.pane.answer.focus()

    def _unfinished_seed(self, exercise_id: str) -> int | None:
        """A generated exercise left wrong comes back with the same numbers; otherwise new ones."""
        if self.store is None or self.current is None:
            return None
        attempts = self.store.attempts(self.current.id, exercise_id)
        if attempts and not (attempts[-1].correct or attempts[-1].revealed):
            return attempts[-1].seed
        return None

    def _remember(self, work: Any) -> Any:
        """Write to the store; a failure is said once and practice goes on."""
        if self.store is None:
            return None
        try:
            return work(self.store)
        except Exception as err:  # losing the store must not lose the screen
            self.store_error = str(err)
            self.notify(t("ex.store_unusable", error=err), severity="error")
            return None

    # ---- drawing the exercise -----------------------------------------------------------
    def redraw_exercise(self) -> None:
        if self.current is None or self.inst is None:
            return
        statuses = self._statuses()
        head = draw.head(self.current, statuses, self.index, self.redo, get_lang())
        title = t("ex.exercise_of", n=self.index + 1, total=len(self.current.exercises))
        status = statuses.get(self.inst.exercise.id) if self.store is not None else None
        self.pane.draw(head, title, draw.status_text(self.inst, status))

    def _statuses(self) -> dict[str, ExerciseStatus]:
        if self.store is None or self.current is None:
            return {}
        return self._remember(lambda store: store.statuses(self.current.id)) or {}  # type: ignore[union-attr]

    def relocalize(self) -> None:
        if self.inst is not None:
            self.redraw_exercise()

    # ---- answering ----------------------------------------------------------------------
    @on(Input.Submitted, "#ex-answer")
    def _submitted(self, event: Input.Submitted) -> None:
        if self.pane.finished:
            self.action_next()
            return
        self.submit(event.value)

    def submit(self, typed: str) -> Grade | None:
        """Grade what was typed, store it at once, and show the feedback.

        Not attempts, so neither counted nor stored: an empty Enter, something that cannot be
        read as an answer of this kind (said, with what can be read), and the very answer just
        graded sent again (holding Enter on a wrong answer stored it 500 times).
        """
        if self.inst is None or self.current is None:
            return None
        if self.pane.is_repeat(typed):
            self.notify(t("ex.same_answer"), timeout=3)
            return self.pane.grade
        g = grade(self.inst, typed)
        if g.status != "empty" and g.is_answer:
            self._record(typed, g)
        self.pane.graded(g, typed)
        self.redraw_exercise()
        self.pane.scroll_to_feedback()
        self.refresh_bindings()
        return g

    def _record(self, typed: str, g: Grade) -> None:
        """Store this attempt now: an attempt the learner has seen graded is never lost."""
        if self.inst is None or self.current is None:
            return
        set_id, ex_id, seed = self.current.id, self.inst.exercise.id, self.inst.seed
        revealed, hints = g.status == "revealed", self.pane.hints_shown
        self._remember(
            lambda store: store.record_attempt(
                set_id, ex_id, typed, correct=g.correct, score=g.score,
                hints_used=hints, revealed=revealed, seed=seed,
            )
        )  # fmt: skip

    @on(SelfCheck.Marked)
    def _self_marked(self, event: SelfCheck.Marked) -> None:
        """Ideas the learner says they wrote: kept as self-assessed; the grade stays."""
        from attn_tui.core.exercises.grading import self_check, self_score

        pane = self.pane
        if pane.grade is None or self.current is None or self.inst is None:
            return
        g = pane.grade = self_check(pane.grade, event.indices)
        set_id, ex_id = self.current.id, self.inst.exercise.id
        ids = [i.id for i in g.self_marked]
        self._remember(
            lambda store: store.record_self_check(
                set_id, ex_id, ids, score=g.score, claimed=self_score(g)
            )
        )
        ideas = t("ex.list_sep").join(i.text.get(get_lang()) for i in g.self_marked)
        self.notify(t("ex.self.recorded", ideas=ideas, percent=round(100 * g.score)), timeout=4)
        self.redraw_exercise()

    # ---- actions ------------------------------------------------------------------------
    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action not in {"hint", "reveal", "another", "calculator", "next", "skip", "previous",
                          "sets", "items", "redo", "reset_one", "reset_set"}:  # fmt: skip
            return True
        if action in ("redo", "reset_one", "reset_set"):
            return self.in_items
        if action in ("sets", "items") and self.in_items:
            return action == "sets"
        inst, pane = self.inst, self.pane
        if self.in_list or self.in_items or inst is None:
            return False
        return {
            "hint": pane.hints_shown < len(inst.exercise.hints) and not pane.finished,
            "reveal": not pane.finished,
            "another": inst.generated,
            "calculator": inst.calculator is not None,
            "next": pane.finished,
            "skip": not pane.finished,
            "previous": self.index > 0,
        }.get(action, True)

    def action_hint(self) -> None:
        if self.inst is None:
            return
        total = len(self.inst.exercise.hints)
        if total == 0:
            self.notify(t("ex.no_hints"), timeout=2)
            return
        if self.pane.hints_shown >= total:
            self.notify(t("ex.no_more_hints"), timeout=2)
            return
        self.pane.show_hint()
        self.redraw_exercise()
        self.refresh_bindings()

    def action_reveal(self) -> None:
        """Show the answer and the explanation; stored as revealed, with no credit."""
        if self.inst is None or self.current is None or self.pane.finished:
            return
        typed = self.pane.answer.value
        g = reveal(self.inst)
        self._record(typed, g)
        self.pane.revealed(g, typed)
        self.redraw_exercise()
        self.pane.scroll_to_feedback()
        self.refresh_bindings()

    def action_another(self) -> None:
        """The same generated exercise with new numbers."""
        if self.inst is None or not self.inst.generated:
            return
        seed = self.recent.fresh_seed(self.inst.exercise, current=self.inst.seed)
        self.show_exercise(self.index, seed=seed)
        self.refresh_bindings()

    def action_next(self) -> None:
        if self.current is None:
            return
        if self.redo:
            following = self._unsolved(after=self.index)
            if following is None:
                self.redo = False
                self.notify(t("ex.redo_done"), timeout=4)
                self.action_items()
            else:
                self.show_exercise(following)
        elif self.index + 1 < len(self.current.exercises):
            self.show_exercise(self.index + 1)
        else:
            self._after_last()
        self.refresh_bindings()

    def _unsolved(self, after: int = -1) -> int | None:
        """The next exercise (after index `after`, wrapping round) not solved yet."""
        if self.current is None:
            return None
        statuses = self._statuses()
        n = len(self.current.ids)
        for step in range(1, n + 1):
            i = (after + step) % n
            status = statuses.get(self.current.ids[i])
            if i != after and not (status is not None and status.solved):
                return i
        return None

    action_skip = action_next  # (PgDn's name before the exercise is finished)

    def _after_last(self) -> None:
        """Past the last exercise: back to the first one not yet tried or seen; else the set's
        list of exercises, so that what is not solved (answers seen count as done for resuming,
        not as solved) can be redone."""
        assert self.current is not None
        first = None
        if self.store is not None:
            first = self.store.set_progress(self.current.id, self.current.ids).first_unsolved
        if first is not None and self.current.index(first) is not None:
            self.show_exercise(self.current.index(first) or 0)
            return
        statuses = self._statuses()
        solved = sum(1 for i in self.current.ids if (s := statuses.get(i)) and s.solved)
        done = solved == len(self.current.ids)
        if done:
            self.notify(t("ex.set_done"), timeout=4)
        if (nxt := _next_on_the_path(self.app)) is not None:  # what comes next on the course
            self.notify(nxt, timeout=6)
        if done:
            self.action_sets()
        else:
            self.action_items(note=t("ex.set_end", solved=solved, total=len(self.current.ids)))

    def action_previous(self) -> None:
        if self.current is not None and self.index > 0:
            self.show_exercise(self.index - 1)
            self.refresh_bindings()

    # ---- the set's exercises: list, jump, redo, reset --------------------------------------
    def action_items(self, note: str | None = None) -> None:
        """Every exercise of the set with its mark; Enter jumps, w redoes, r / x reset."""
        if self.current is None:
            return
        self._switch("ex-items")
        self.items.show(self.current, self._statuses(), note)
        items = self.items.items
        items.highlighted = min(self.index, max(items.option_count - 1, 0))
        items.focus()
        self.refresh_bindings()

    def on_items_view_chosen(self, message: ItemsView.Chosen) -> None:
        try:
            self.redo = False
            self._switch("ex-pane")
            self.show_exercise(message.index)
            self.refresh_bindings()
        finally:
            self.app.release_keys()  # type: ignore[attr-defined]  # held by OpenList's Enter

    def action_redo(self) -> None:
        """Go through the exercises not solved yet (wrong, or answer seen), in order."""
        first = self._unsolved()
        if first is None:
            self.notify(t("ex.redo_none"), timeout=4)
            return
        statuses = self._statuses()
        count = sum(1 for i in self.current.ids if not ((s := statuses.get(i)) and s.solved))  # type: ignore[union-attr]
        self.redo = True
        self.notify(t("ex.redo_start", count=count), timeout=4)
        self._switch("ex-pane")
        self.show_exercise(first)
        self.refresh_bindings()

    def _reset(self, ids: list[str] | None, prompt: str, **params: Any) -> None:
        """Ask, then forget the attempts at ``ids`` (None: the whole set)."""
        current = self.current

        def answered(yes: bool | None) -> None:
            if yes and current is not None:
                done = self._remember(lambda store: store.reset_exercises(current.id, ids))
                self.notify(t("ex.reset_done", count=done or 0), timeout=3)
                if ids is None:
                    self.redo = False
                self.items.show(current, self._statuses(), self.items.note)

        self.app.push_screen(
            ConfirmScreen(prompt, "ex.confirm.reset", "ex.confirm.keep", **params), answered
        )

    def action_reset_one(self) -> None:
        index = self.items.items.highlighted
        if self.current is None or index is None or self.store is None:
            return
        ex_id = self.current.ids[index]
        status = self._statuses().get(ex_id)
        count = status.attempts if status else 0
        self._reset([ex_id], "ex.confirm.reset_one", n=index + 1, count=count)

    def action_reset_set(self) -> None:
        if self.current is None or self.store is None:
            return
        self._reset(None, "ex.confirm.reset_set", title=self.current.title.get(get_lang()))

    def action_sets(self) -> None:
        self.redo = False
        self._switch("ex-list")
        self.pane.inst = None
        self.redraw_list()
        if self.current is not None:
            self.set_list.highlight(self.current.id)
        self.set_list.sets.focus()
        self.refresh_bindings()

    def action_calculator(self) -> None:
        """Open the calculator with this exercise's query, keys and values filled in, over this
        screen (Esc comes back here). The calculator works the answer out, so on an exercise not
        yet finished the first F7 says so and the second opens it, counted as a reveal."""
        if self.inst is None or self.inst.calculator is None:
            return
        if not self.pane.finished:
            if not self._calc_armed:
                self._calc_armed = True
                self.notify(t("ex.calc_is_reveal"), timeout=5)
                return
            self.action_reveal()
        self._calc_armed = False
        from attn_tui.screens.calculator import CalculatorScreen, Preset

        fill = self.inst.calculator
        # Filled before it is shown: keys typed as it opens go to it and stay (the app holds
        # them until it is mounted), not overwritten by a fill that came after them.
        example = Preset.of_exercise(fill["query"], fill["keys"], fill.get("values", ""))
        self.app.push_screen(CalculatorScreen(example))
        self.app.notify(t("ex.calc_back"), timeout=4)
