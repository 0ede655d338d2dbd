"""The exercises screen: the sets with their progress, then one exercise at a time.

The library and the progress store are opened once and kept for the screen's life. Every
graded answer (and every reveal) is written to the store the moment it is graded, and every
exercise shown is remembered as the set's last visit, so a learner who quits anywhere comes
back to the first exercise not yet done. A teacher's file that does not load is one entry in
the list, with its ``file:line: message`` faults; a damaged progress file is set aside by the
store and named at the top of the list.
"""

from __future__ import annotations

import re
import time
from typing import Any

import numpy as np
from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.widgets import ContentSwitcher, Input, OptionList, Static
from textual.widgets.option_list import Option

from attn_tui import paths
from attn_tui.core.exercises.generators import Instance, fmt_number, instance
from attn_tui.core.exercises.grading import Grade, grade, reveal
from attn_tui.core.exercises.loader import display_path
from attn_tui.core.exercises.model import ExerciseSet, Library
from attn_tui.core.format import cell_len
from attn_tui.core.progress import ExerciseStatus, Guarded, ProgressStore, StoreError
from attn_tui.i18n import describe, get_lang, t
from attn_tui.screens.base import TutorFooter, TutorScreen, tr
from attn_tui.screens.confirm import ConfirmScreen
from attn_tui.widgets.fields import OpenList
from attn_tui.widgets.prose import Prose, fit_words
from attn_tui.widgets.self_check import SelfCheck

BAR = 10  # cells in a set's progress bar
HEADLINE_STYLE = {
    "correct": "bold green",
    "partial": "bold yellow",
    "incorrect": "bold red",
    "unreadable": "bold red",
    "empty": "bold yellow",
    "revealed": "bold cyan",
}


def _when(at: float) -> str:
    """A visit time: the clock for today, the date otherwise."""
    local = time.localtime(at)
    if time.strftime("%Y-%m-%d", local) == time.strftime("%Y-%m-%d"):
        return time.strftime("%H:%M", local)
    return time.strftime("%Y-%m-%d", local)


def _calculator_rows(text: str) -> str:
    """``1 0; 0 1`` (the files' form) as one row per line (the calculator's form)."""
    return "\n".join(row.strip() for row in text.replace("\n", ";").split(";") if row.strip())


def _entries(g: Grade) -> Text | None:
    """What was typed, entry by entry: green where right, red and marked ✗ where off."""
    if g.kind not in ("vector", "matrix") or g.status not in ("partial", "incorrect"):
        return None
    value = np.asarray(g.value, dtype=np.float64) if g.value is not None else None
    if value is None or value.ndim not in (1, 2):
        return None
    rows = value if value.ndim == 2 else value[None, :]
    off = set(g.off)
    text = Text()
    for r, row in enumerate(rows, start=1):
        if r > 1:
            text.append("\n")
        for c, x in enumerate(row, start=1):
            bad = ((r, c) if value.ndim == 2 else (c,)) in off
            text.append(
                fmt_number(float(x)) + ("✗" if bad else "✓"), "bold red" if bad else "green"
            )
            text.append("  ")
    return text


_PLACEHOLDER = re.compile(r"\{[A-Za-z_][A-Za-z0-9_]*\}")


def _mark(status: ExerciseStatus | None) -> tuple[str, str]:
    """One exercise's mark: ✓ solved, ○ answer seen, ✗ tried and not right, · not tried."""
    if status is not None and status.solved:
        return "✓", "green"
    if status is not None and status.revealed:
        return "○", "cyan"
    if status is not None and status.attempts:
        return "✗", "red"
    return "·", "dim"


class ItemList(OpenList):
    """The exercises of one set; the letters act on the highlighted one or on the set."""

    BINDINGS = [
        Binding("w", "screen.redo", "ex.key.redo"),
        Binding("r", "screen.reset_one", "ex.key.reset_one"),
        Binding("x", "screen.reset_set", "ex.key.reset_set"),
    ]


class ExercisesScreen(TutorScreen):
    CSS_PATH = "exercises.tcss"
    HELP = (
        ("ex.sets", "ex.help.list"),
        ("ex.title", "ex.help.exercise"),
        ("ex.key.next", "ex.help.keys"),
        ("ex.key.list", "ex.help.items"),
    )
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
        self.inst: Instance | None = None
        self.hints_shown = 0
        self.grade: Grade | None = None
        self.graded_answer: str | None = None  # the text that earned self.grade
        self.finished = False  # solved or revealed in this showing: Enter moves on
        self.redo = False  # going through only the exercises not solved yet
        self._calc_armed = False  # F7 pressed once on an unfinished exercise

    # ---- loading ------------------------------------------------------------------------
    def _open(self) -> None:
        data = paths.data_dir(self.app.data_dir)  # type: ignore[attr-defined]
        self.library = paths.load_all(extra=self.app.extra_exercises, data=data)  # type: ignore[attr-defined]
        try:
            self.store = Guarded(ProgressStore.open(data), self._store_failed)
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
            with Vertical(id="ex-list"):
                yield Static(id="ex-notice", classes="notice")
                yield tr(Static(id="ex-intro"), "ex.choose_set")
                sets = OpenList(id="ex-sets")
                tr(sets, "ex.sets", "border_title")
                yield sets
                yield Static(id="ex-summary")
            with Vertical(id="ex-items"):
                yield Static(id="ex-items-intro")
                yield ItemList(id="ex-items-list")
            with Vertical(id="ex-pane"):
                yield Static(id="ex-head")
                with VerticalScroll(id="ex-body"):
                    yield Static(id="ex-prompt")
                    yield Static(id="ex-choices", classes="part")
                    yield Static(id="ex-hints", classes="part")
                    yield Static(id="ex-feedback", classes="part")
                    yield SelfCheck(id="ex-self")
                    yield Static(id="ex-explanation", classes="part")
                with Horizontal(id="ex-answer-row"):
                    yield tr(Static(classes="inline-label"), "ex.answer")
                    yield Input(id="ex-answer", compact=True)
        yield TutorFooter()

    def on_mount(self) -> None:
        super().on_mount()
        self.redraw_list()
        self.query_one("#ex-sets", OptionList).focus()

    def on_screen_resume(self) -> None:
        if self.in_list:
            self.redraw_list()

    @property
    def in_list(self) -> bool:
        return self.query_one(ContentSwitcher).current == "ex-list"

    # ---- the set list -------------------------------------------------------------------
    def redraw_list(self) -> None:
        notice = self.query_one("#ex-notice", Static)
        messages = []
        from attn_tui.coursebook import moved_aside

        if (damaged := moved_aside(self.app, self.store)) is not None:
            messages.append(t("ex.moved_aside", path=damaged))
        if self.store_error is not None:
            messages.append(t("ex.store_unusable", error=self.store_error))
        notice.update(Group(*(Prose(m) for m in messages)))
        notice.set_class(bool(messages), "-shown")
        sets = self.query_one("#ex-sets", OptionList)
        highlighted = sets.highlighted
        sets.clear_options()
        sets.add_options(self._set_options())
        if sets.option_count:
            sets.highlighted = min(highlighted or 0, sets.option_count - 1)
        self._show_summary()

    def _set_options(self) -> list[Option]:
        lang = get_lang()
        options = []
        width = len(str(len(self.library.sets)))
        for n, ex_set in enumerate(self.library.sets, start=1):
            label = Text.assemble(
                (f"{n:>{width}}  ", "dim"), (ex_set.title.get(lang), "bold"), "\n"
            )
            label.append(" " * (width + 2))
            label.append_text(self._progress_line(ex_set))
            options.append(Option(label, id=f"set:{ex_set.id}"))
        for i, broken in enumerate(self.library.broken):
            label = Text.assemble(
                ("✗ ", "bold red"), (t("ex.broken_file", path=display_path(broken.path)), "red")
            )
            if len(broken.problems) > 1:
                label.append(" " + t("ex.broken_count", count=len(broken.problems)), "red")
            for problem in broken.problems:
                label.append("\n  " + problem.format(t), "dim")
            # Enabled, so the arrow keys reach it and scroll its faults into view.
            options.append(Option(label, id=f"broken:{i}"))
        if not options:
            options.append(Option(t("ex.no_sets"), disabled=True))
        return options

    def _progress_line(self, ex_set: ExerciseSet) -> Text:
        """Solved (█) and answer seen (▒) apart: a revealed answer is not a solved exercise."""
        total, solved, seen, when = len(ex_set.exercises), 0, 0, None
        if self.store is not None:
            progress = self.store.set_progress(ex_set.id, ex_set.ids)
            solved, seen = progress.solved, progress.done - progress.solved
            when = progress.last_visited_at
        full = round(BAR * solved / total) if total else 0
        half = min(BAR - full, round(BAR * seen / total)) if total else 0
        line = Text()
        line.append("█" * full, "green")
        line.append("▒" * half, "cyan")
        line.append("░" * (BAR - full - half), "dim")
        line.append("  " + t("ex.progress_count", solved=solved, total=total))
        if seen:
            line.append(" · " + t("ex.progress_seen", seen=seen), "cyan")
        line.append(" · ", "dim")
        line.append(
            t("ex.last_visited", when=_when(when)) if when else t("ex.never_visited"), "dim"
        )
        return line

    def _highlighted_set(self) -> ExerciseSet | None:
        sets = self.query_one("#ex-sets", OptionList)
        if sets.highlighted is None or not sets.option_count:
            return None
        option_id = sets.get_option_at_index(sets.highlighted).id or ""
        return self.library.get(option_id[4:]) if option_id.startswith("set:") else None

    def _show_summary(self) -> None:
        ex_set = self._highlighted_set()
        summary = self.query_one("#ex-summary", Static)
        summary.update(Prose(ex_set.summary.get(get_lang()), "italic") if ex_set else "")

    @on(OptionList.OptionHighlighted, "#ex-sets")
    def _set_highlighted(self) -> None:
        self._show_summary()

    @on(OptionList.OptionSelected, "#ex-sets")
    def _set_chosen(self, event: OptionList.OptionSelected) -> None:
        option_id = event.option.id or ""
        try:
            if option_id.startswith("set:"):
                self.open_set(option_id[4:])
            elif option_id.startswith("broken:"):
                broken = self.library.broken[int(option_id[7:])]
                self.notify(t("ex.broken_fix", path=display_path(broken.path)), timeout=6)
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
        self.query_one(ContentSwitcher).current = "ex-pane"
        self.show_exercise(start)

    def show_exercise(self, index: int, seed: int | None = None) -> None:
        assert self.current is not None
        self.index = index
        exercise = self.current.exercises[index]
        if exercise.generated and seed is None:
            seed = self._unfinished_seed(exercise.id)
        self.inst = instance(exercise, seed=seed)
        self.hints_shown = 0
        self.grade = None
        self.graded_answer = None
        self.finished = False
        self._calc_armed = False
        self.query_one(SelfCheck).offer(None)
        answer = self.query_one("#ex-answer", Input)
        answer.value = ""
        answer.placeholder = t(f"ex.ph.{exercise.kind}")
        self._remember(lambda store: store.visit(self.current.id, exercise.id))  # type: ignore[union-attr]
        self.redraw_exercise()
        self.query_one("#ex-body", VerticalScroll).scroll_home(animate=False)
        answer.focus()

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
        lang = get_lang()
        inst, exercise = self.inst, self.inst.exercise
        total = len(self.current.exercises)
        self.query_one("#ex-head", Static).update(self._head(lang))
        body = self.query_one("#ex-body", VerticalScroll)
        body.border_title = t("ex.exercise_of", n=self.index + 1, total=total)
        body.border_subtitle = self._status_text()

        prompt: list[RenderableType] = [Prose(inst.prompt(lang))]
        if inst.calculator is not None:
            prompt.append(Prose("F7 · " + t("ex.try_in_calculator"), "dim"))
        self.query_one("#ex-prompt", Static).update(Group(*prompt))
        choices = None
        if exercise.choices:
            choices = Table.grid(padding=(0, 1))
            choices.add_column(style="bold", no_wrap=True)
            choices.add_column(ratio=1)
            for choice in exercise.choices:
                choices.add_row(f"{choice.id}.", Prose(choice.text.get(lang)))
        self._show("#ex-choices", choices)

        hints = inst.hints(lang)[: self.hints_shown]
        self._show(
            "#ex-hints",
            Group(*(Prose(t("ex.hint_n", n=i, total=len(inst.hints(lang)), text=h), "yellow")
                    for i, h in enumerate(hints, start=1))) if hints else None,
        )  # fmt: skip
        self._show("#ex-feedback", self._feedback(lang))
        explanation = None
        if self.finished:
            explanation = Group(
                Prose(t("ex.explanation"), "bold"),
                Prose(inst.explanation(lang)),
                Text(),
                Prose(t("ex.next_prompt"), "dim"),
            )
        self._show("#ex-explanation", explanation)

    def _show(self, selector: str, content: RenderableType | None) -> None:
        widget = self.query_one(selector, Static)
        widget.update(content if content is not None else "")
        widget.set_class(content is not None, "-shown")

    def _statuses(self) -> dict[str, ExerciseStatus]:
        if self.store is None or self.current is None:
            return {}
        return self._remember(lambda store: store.statuses(self.current.id)) or {}  # type: ignore[union-attr]

    def _head(self, lang: str) -> Text:
        """The set's title, then one mark per exercise (see _mark)."""
        assert self.current is not None
        statuses = self._statuses()
        head = Text(self.current.title.get(lang) + "  ", "bold")
        if self.redo:
            head = Text.assemble(head, (t("ex.redo_mode") + "  ", "yellow"))
        for i, ex_id in enumerate(self.current.ids):
            mark, style = _mark(statuses.get(ex_id))
            if i == self.index:
                style += " reverse"
            head.append(mark, style)
        return head

    def _status_text(self) -> str:
        assert self.inst is not None
        parts = []
        if self.inst.generated:
            parts.append(t("ex.seed", seed=self.inst.seed))
        if self.store is not None and self.current is not None:
            status = self.store.statuses(self.current.id).get(self.inst.exercise.id)
            if status is not None:
                if status.solved:
                    parts.append(t("ex.status.solved"))
                elif status.revealed:
                    parts.append(t("ex.status.revealed"))
                else:
                    parts.append(t("ex.status.tried", count=status.attempts))
        return " · ".join(parts)

    def _feedback(self, lang: str) -> RenderableType | None:
        if self.grade is None or self.inst is None:
            return None
        g, inst = self.grade, self.inst
        lines = g.lines(t, lang)
        if not g.is_answer and g.status != "unreadable":
            lines = lines[1:]  # not "Not right.": it was not an answer at all
        parts: list[RenderableType] = [Prose(lines[0], HEADLINE_STYLE.get(g.status, "bold"))]
        entries = _entries(g)
        if entries is not None:
            parts.append(entries)
        parts += [Prose(line) for line in lines[1:]]
        if not g.is_answer:
            parts.append(Prose(t("ex.not_counted"), "yellow"))
            return Group(*parts)
        if g.status == "revealed" or (g.correct and inst.exercise.kind == "text"):
            key = "ex.fb.reference" if inst.exercise.kind == "text" else "ex.fb.answer_was"
            parts.append(Prose(t(key, answer=inst.answer_text(t, lang)), "cyan"))
        if not self.finished and g.status != "empty":
            parts.append(Prose(t("ex.try_again"), "dim"))
        return Group(*parts)

    def relocalize(self) -> None:
        self.redraw_list()
        if self.in_items:
            self.redraw_items()
        if self.inst is not None:
            answer = self.query_one("#ex-answer", Input)
            answer.placeholder = t(f"ex.ph.{self.inst.exercise.kind}")
            self.redraw_exercise()
            self.query_one(SelfCheck).relocalize()

    # ---- answering ----------------------------------------------------------------------
    @on(Input.Submitted, "#ex-answer")
    def _submitted(self, event: Input.Submitted) -> None:
        if self.finished:
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
        if (
            self.grade is not None
            and self.graded_answer is not None
            and self.grade.is_answer
            and typed.strip() == self.graded_answer.strip()
        ):
            self.notify(t("ex.same_answer"), timeout=3)
            return self.grade
        g = grade(self.inst, typed)
        self.grade, self.graded_answer = g, typed
        if g.status != "empty" and g.is_answer:
            self._record(typed, g)
        self.finished = g.correct
        self.redraw_exercise()
        self.query_one(SelfCheck).offer(g if g.kind == "text" else None)
        self._scroll_to_feedback()
        self.refresh_bindings()
        return g

    def _record(self, typed: str, g: Grade) -> None:
        """Store this attempt now: an attempt the learner has seen graded is never lost."""
        if self.inst is None or self.current is None:
            return
        set_id, ex_id, seed = self.current.id, self.inst.exercise.id, self.inst.seed
        revealed = g.status == "revealed"
        self._remember(
            lambda store: store.record_attempt(
                set_id, ex_id, typed, correct=g.correct, score=g.score,
                hints_used=self.hints_shown, revealed=revealed, seed=seed,
            )
        )  # fmt: skip

    @on(SelfCheck.Marked)
    def _self_marked(self, event: SelfCheck.Marked) -> None:
        """Ideas the learner says they wrote: kept as self-assessed; the grade stays."""
        from attn_tui.core.exercises.grading import self_check, self_score

        if self.grade is None or self.current is None or self.inst is None:
            return
        g = self.grade = self_check(self.grade, event.indices)
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

    def _scroll_to_feedback(self) -> None:
        body = self.query_one("#ex-body", VerticalScroll)
        self.call_after_refresh(body.scroll_end, animate=False)

    # ---- actions ------------------------------------------------------------------------
    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action not in {
            "hint",
            "reveal",
            "another",
            "calculator",
            "next",
            "skip",
            "previous",
            "sets",
            "items",
            "redo",
            "reset_one",
            "reset_set",
        }:
            return True
        if action in ("redo", "reset_one", "reset_set"):
            return self.in_items
        if action in ("sets", "items") and self.in_items:
            return action == "sets"
        if self.in_list or self.in_items or self.inst is None:
            return False
        if action == "hint":
            return self.hints_shown < len(self.inst.exercise.hints) and not self.finished
        if action == "reveal":
            return not self.finished
        if action == "another":
            return self.inst.generated
        if action == "calculator":
            return self.inst.calculator is not None
        if action == "next":
            return self.finished
        if action == "skip":
            return not self.finished
        if action == "previous":
            return self.index > 0
        return True

    def action_hint(self) -> None:
        if self.inst is None:
            return
        total = len(self.inst.exercise.hints)
        if total == 0:
            self.notify(t("ex.no_hints"), timeout=2)
            return
        if self.hints_shown >= total:
            self.notify(t("ex.no_more_hints"), timeout=2)
            return
        self.hints_shown += 1
        self.redraw_exercise()
        self.refresh_bindings()

    def action_reveal(self) -> None:
        """Show the answer and the explanation; stored as revealed, with no credit."""
        if self.inst is None or self.current is None or self.finished:
            return
        typed = self.query_one("#ex-answer", Input).value
        g = reveal(self.inst)
        self._record(typed, g)
        self.grade, self.graded_answer, self.finished = g, typed, True
        self.redraw_exercise()
        self._scroll_to_feedback()
        self.refresh_bindings()

    def action_another(self) -> None:
        if self.inst is not None and self.inst.generated:
            self.show_exercise(self.index, seed=self._fresh_seed())
            self.refresh_bindings()

    def _fresh_seed(self) -> int:
        from attn_tui.core.exercises.generators import new_seed

        seed = new_seed()
        while self.inst is not None and seed == self.inst.seed:
            seed = new_seed()
        return seed

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

    def action_skip(self) -> None:
        self.action_next()

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
        if solved == len(self.current.ids):
            self.notify(t("ex.set_done"), timeout=4)
            self._next_on_the_path()
            self.action_sets()
        else:
            self._next_on_the_path()
            self.action_items(note=t("ex.set_end", solved=solved, total=len(self.current.ids)))

    def _next_on_the_path(self) -> None:
        """The end of a set says what comes next on the course path (C on home opens it)."""
        from attn_tui import coursebook
        from attn_tui.i18n import get_lang

        book = coursebook.loaded(self.app)
        nxt = book.status().next if book is not None else None
        if nxt is not None:
            self.notify(t("course.quiz.next", n=nxt.number, title=nxt.lesson.title.get(get_lang())),
                        timeout=6)  # fmt: skip

    def action_previous(self) -> None:
        if self.current is not None and self.index > 0:
            self.show_exercise(self.index - 1)
            self.refresh_bindings()

    # ---- the set's exercises: list, jump, redo, reset --------------------------------------
    @property
    def in_items(self) -> bool:
        return self.query_one(ContentSwitcher).current == "ex-items"

    def action_items(self, note: str | None = None) -> None:
        """Every exercise of the set with its mark; Enter jumps, w redoes, r / x reset."""
        if self.current is None:
            return
        self._items_note = note
        self.query_one(ContentSwitcher).current = "ex-items"
        self.redraw_items()
        items = self.query_one("#ex-items-list", ItemList)
        items.highlighted = min(self.index, max(items.option_count - 1, 0))
        items.focus()
        self.refresh_bindings()

    def redraw_items(self) -> None:
        if self.current is None:
            return
        lang = get_lang()
        intro = [Text(t("ex.items_title", title=self.current.title.get(lang)), "bold")]
        if getattr(self, "_items_note", None):
            intro.append(Prose(self._items_note, "yellow"))  # type: ignore[arg-type]
        intro.append(Prose(t("ex.items_intro"), "dim"))
        self.query_one("#ex-items-intro", Static).update(Group(*intro))
        items = self.query_one("#ex-items-list", ItemList)
        highlighted = items.highlighted
        statuses = self._statuses()
        width = max(self.app.size.width - 8, 30)  # inside the padding, border and scrollbar
        options = []
        digits = len(str(len(self.current.exercises)))
        for n, exercise in enumerate(self.current.exercises, start=1):
            status = statuses.get(exercise.id)
            mark, style = _mark(status)
            tries = t("ex.item_tries", count=status.attempts) if status and status.attempts else ""
            head = f"{mark} {n:>{digits}}  "
            room = width - len(head) - (cell_len(tries) + 1 if tries else 0)
            # A generated prompt's numbers are drawn when it is shown: "…" stands for them here.
            prompt = _PLACEHOLDER.sub("…", " ".join(exercise.prompt.get(lang).split()))
            label = Text.assemble((mark, style), f" {n:>{digits}}  ", fit_words(prompt, room))
            if tries:
                label.append(" " + tries, "dim")
            options.append(Option(label, id=f"item:{n - 1}"))
        items.clear_options()
        items.add_options(options)
        if highlighted is not None and options:
            items.highlighted = min(highlighted, len(options) - 1)

    @on(OptionList.OptionSelected, "#ex-items-list")
    def _item_chosen(self, event: OptionList.OptionSelected) -> None:
        option_id = event.option.id or ""
        try:
            if option_id.startswith("item:"):
                self.redo = False
                self.query_one(ContentSwitcher).current = "ex-pane"
                self.show_exercise(int(option_id[5:]))
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
        self.query_one(ContentSwitcher).current = "ex-pane"
        self.show_exercise(first)
        self.refresh_bindings()

    def action_reset_one(self) -> None:
        items = self.query_one("#ex-items-list", ItemList)
        if self.current is None or items.highlighted is None or self.store is None:
            return
        index = items.highlighted
        ex_id = self.current.ids[index]
        status = self._statuses().get(ex_id)
        count = status.attempts if status else 0

        def answered(yes: bool | None) -> None:
            if yes and self.current is not None:
                done = self._remember(lambda store: store.reset_exercises(self.current.id, [ex_id]))  # type: ignore[union-attr]
                self.notify(t("ex.reset_done", count=done or 0), timeout=3)
                self.redraw_items()

        self.app.push_screen(
            ConfirmScreen("ex.confirm.reset_one", "ex.confirm.reset", "ex.confirm.keep",
                          n=index + 1, count=count),
            answered,
        )  # fmt: skip

    def action_reset_set(self) -> None:
        if self.current is None or self.store is None:
            return
        title = self.current.title.get(get_lang())

        def answered(yes: bool | None) -> None:
            if yes and self.current is not None:
                done = self._remember(lambda store: store.reset_exercises(self.current.id))  # type: ignore[union-attr]
                self.notify(t("ex.reset_done", count=done or 0), timeout=3)
                self.redo = False
                self.redraw_items()

        self.app.push_screen(
            ConfirmScreen("ex.confirm.reset_set", "ex.confirm.reset", "ex.confirm.keep",
                          title=title),
            answered,
        )  # fmt: skip

    def action_sets(self) -> None:
        self.redo = False
        self.query_one(ContentSwitcher).current = "ex-list"
        self.inst = None
        self.redraw_list()
        sets = self.query_one("#ex-sets", OptionList)
        if self.current is not None:
            try:
                sets.highlighted = sets.get_option_index(f"set:{self.current.id}")
            except Exception:  # the set vanished: keep the highlight
                pass
        sets.focus()
        self.refresh_bindings()

    def action_calculator(self) -> None:
        """Open the calculator with this exercise's query, keys and values filled in, over this
        screen (Esc comes back here). The calculator works the answer out, so on an exercise not
        yet finished the first F7 says so and the second opens it, counted as a reveal."""
        if self.inst is None or self.inst.calculator is None:
            return
        if not self.finished:
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
        example = Preset(fill["query"], _calculator_rows(fill["keys"]),
                         _calculator_rows(fill.get("values", "")))  # fmt: skip
        self.app.push_screen(CalculatorScreen(example))
        self.app.notify(t("ex.calc_back"), timeout=4)
