"""The self-check quiz: choose quick or full, answer one question at a time, see each answer
graded with the reference answer and why, then a score by topic, a review of what was missed,
and a retry of just those. Quick and full runs are kept in the progress store (history, best).

All the state is plain data (the run, the answers so far, which view is up), and every view is
drawn from it by one method, so switching language (F2) redraws any view in place.
"""

from __future__ import annotations

import time

from rich.console import Group, RenderableType
from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.widgets import Button, ContentSwitcher, Input, Static

from attn_tui import paths
from attn_tui.core import quiz
from attn_tui.core.exercises.generators import Instance, instance
from attn_tui.core.exercises.model import Exercise
from attn_tui.core.progress import Guarded, ProgressStore, QuizAttempt, StoreError
from attn_tui.i18n import describe, get_lang, t
from attn_tui.screens.base import TutorFooter, TutorScreen, tr
from attn_tui.screens.confirm import ConfirmScreen
from attn_tui.widgets.prose import Prose
from attn_tui.widgets.self_check import SelfCheck
from attn_tui.widgets.steps import bar, columns

GOOD, PART, BAD, DIM, ACCENT = "bold green", "bold yellow", "bold red", "dim", "bold cyan"
SIGN = {"correct": ("✓", GOOD), "partial": ("◐", PART)}  # anything else: ✗ in red
HISTORY_SHOWN = 5


def _num(x: float) -> str:
    """Marks as people write them: 7, 7.5, 6.67."""
    return f"{x:.2f}".rstrip("0").rstrip(".")


def _topic(tag: str) -> str:
    return t(f"quiz.topic.{tag}")


def _topic_bar(fraction: float, width: int, style: str) -> Text:
    """A bar on a faint track, so an empty bar still shows where full would be."""
    filled = bar(fraction, width).rstrip(" ")
    return Text.assemble((filled, style), ("·" * (width - len(filled)), DIM))


class QuizScreen(TutorScreen):
    CSS_PATH = "quiz.tcss"
    HELP = (
        ("quiz.panel.start", "quiz.help.start"),
        ("quiz.panel.question", "quiz.help.question"),
        ("quiz.panel.summary", "quiz.help.summary"),
    )
    BINDINGS = [
        Binding("f3", "review", "quiz.key.review"),
        Binding("f4", "retry", "quiz.key.retry"),
        Binding("f5", "new_quiz", "quiz.key.new"),
        # Esc mid-quiz asks first, and what was answered is kept to resume (else: home).
        Binding("escape", "leave", "app.key.home"),
    ]
    SEED: int | None = None  # the quick draw's seed; None = a fresh draw (tests fix it)

    def __init__(self) -> None:
        super().__init__()
        self.bank: list[Exercise] = []
        self.broken_banks = 0
        self.store: Guarded | None = None  # None: progress could not be opened
        self.view = "start"
        self.mode = "quick"  # quick, full or retry
        self.run: list[Instance] = []
        self._leave_armed = False  # F5 pressed once mid-quiz; a second press leaves
        self.answered: list[quiz.Answered] = []
        self.current: quiz.Answered | None = None  # the graded answer on screen, before Next
        self.result: quiz.QuizResult | None = None
        self.new_best = False
        self.saved: dict | None = None  # a quiz left unfinished (in the store), to resume

    # ---- layout -------------------------------------------------------------------------
    def compose(self) -> ComposeResult:
        yield Static(id="quiz-status")
        with ContentSwitcher(initial="start", id="quiz-views"):
            with VerticalScroll(id="start"):
                yield Static(id="start-intro")
                yield Button(id="resume", compact=True, variant="warning")
                with Horizontal(classes="buttons"):
                    yield Button(id="quick", compact=True, variant="primary")
                    yield Button(id="full", compact=True)
                yield Static(id="history")
            with Vertical(id="question"):
                with VerticalScroll(id="q-panel"):
                    yield Static(id="q-prompt")
                    yield Static(id="q-feedback")
                    yield SelfCheck(id="quiz-self")
                with Horizontal(id="q-bar", classes="bar"):
                    yield tr(
                        Input(id="answer", compact=True), "quiz.answer_placeholder", "placeholder"
                    )
                    yield tr(
                        Button(id="submit", compact=True, variant="primary"), "quiz.submit", "label"
                    )
                    yield tr(Button(id="skip", compact=True), "quiz.skip", "label")
                    yield Button(id="next", compact=True, variant="primary")
            with Vertical(id="summary"):
                with VerticalScroll(id="sum-panel"):
                    yield Static(id="sum-body")
                with Horizontal(classes="bar"):
                    yield tr(
                        Button(id="review", compact=True, variant="primary"), "quiz.review", "label"
                    )
                    yield tr(Button(id="retry", compact=True), "quiz.retry", "label")
                    yield tr(Button(id="again", compact=True), "quiz.again", "label")
            with Vertical(id="review-view"):
                with VerticalScroll(id="review-panel") as review:
                    tr(review, "quiz.review_title", "border_title")
                    yield Static(id="review-body")
                with Horizontal(classes="bar"):
                    yield tr(Button(id="back", compact=True), "quiz.back_to_summary", "label")
        yield TutorFooter()

    def on_mount(self) -> None:
        super().on_mount()
        data = paths.data_dir(self.app.data_dir)  # type: ignore[attr-defined]
        library = paths.load_all(self.app.extra_exercises, data)  # type: ignore[attr-defined]
        self.bank = library.quiz_exercises
        self.broken_banks = sum(1 for b in library.broken if "quiz" in b.path.parts)
        try:
            self.store = Guarded(ProgressStore.open(data), self._store_failed)
        except StoreError as err:  # the quiz works without a store; the learner is told why
            self._store_failed(err, True)
        from attn_tui.coursebook import moved_aside

        if (damaged := moved_aside(self.app, self.store)) is not None:
            self.notify(t("ex.moved_aside", path=damaged), severity="warning")
        self.saved = self._remember(lambda store: store.quiz_run())
        self.show("start")

    def _store_failed(self, err: StoreError, writing: bool) -> None:
        if writing:  # a failed read only empties the history shown
            self.notify(t("store.not_saved", reason=describe(err)), severity="error")

    def on_unmount(self) -> None:
        if self.store is not None:
            self.store.close()

    # ---- drawing ------------------------------------------------------------------------
    def show(self, view: str) -> None:
        self._leave_armed = False  # any move on (next question, summary...) disarms a lone F5
        self.view = view
        self.query_one("#quiz-views", ContentSwitcher).current = view
        self.redraw()
        self.refresh_bindings()
        focus = {"start": "#resume" if self.saved else "#quick", "summary": "#review",
                 "review-view": "#back"}.get(view)  # fmt: skip
        if view == "question":
            focus = "#next" if self.current else "#answer"
        if view == "summary" and not (self.result and self.result.missed):
            focus = "#again"
        if focus:
            self.query_one(focus).focus()

    def relocalize(self) -> None:
        self.redraw()
        self.query_one(SelfCheck).relocalize()

    def redraw(self) -> None:
        {
            "start": self._draw_start,
            "question": self._draw_question,
            "summary": self._draw_summary,
            "review-view": self._draw_review,
        }[self.view]()
        self._draw_status()

    def _draw_status(self) -> None:
        status = self.query_one("#quiz-status", Static)
        if self.view == "question" and self.run:
            done = self.answered + ([self.current] if self.current else [])
            score = sum(a.grade.score for a in done)
            status.update(
                Text.assemble(
                    (t("quiz.question_of", n=self._index() + 1, total=len(self.run)), ACCENT),
                    ("  ·  " + t("quiz.running", score=_num(score), done=len(done)), DIM),
                    ("  ·  " + t(f"quiz.mode.{self.mode}"), DIM),
                )
            )
        else:
            status.update(Text(t("quiz.title"), ACCENT))

    def _index(self) -> int:
        return len(self.answered)

    def _draw_start(self) -> None:
        parts: list[RenderableType] = [Prose(t("quiz.intro"))]
        if not self.bank:
            parts.append(Text(t("quiz.empty_bank"), BAD))
        if self.broken_banks:
            parts.append(Text(t("quiz.broken_banks", count=self.broken_banks), "yellow"))
        self.query_one("#start-intro", Static).update(Group(*parts))
        quick = self.query_one("#quick", Button)
        full = self.query_one("#full", Button)
        quick.label = t("quiz.quick", n=min(quiz.QUICK_SIZE, len(self.bank)))
        full.label = t("quiz.full", n=len(self.bank))
        quick.disabled = full.disabled = not self.bank
        resume = self.query_one("#resume", Button)
        resume.display = bool(self.saved)
        if self.saved:
            resume.label = t("quiz.resume", mode=t(f"quiz.mode.{self.saved.get('mode', 'quick')}"),
                             n=len(self.saved.get("answers", [])) + 1,
                             total=len(self.saved.get("questions", [])))  # fmt: skip
        self.query_one("#history", Static).update(self._history())

    def _history(self) -> RenderableType:
        lines: list[RenderableType] = [Text(t("quiz.history"), "bold")]
        attempts = self.store.quiz_attempts() if self.store else []
        if not attempts:
            lines.append(Text(t("quiz.no_history"), DIM))
            return Group(*lines)
        for mode in ("quick", "full"):
            best = self.store.best_quiz(mode) if self.store else None
            if best is not None:
                lines.append(Text(self._attempt_line("quiz.best", best), GOOD))
        for a in reversed(attempts[-HISTORY_SHOWN:]):
            lines.append(Text(self._attempt_line("quiz.history_line", a)))
        return Group(*lines)

    @staticmethod
    def _attempt_line(key: str, a: QuizAttempt) -> str:
        when = time.strftime("%Y-%m-%d %H:%M", time.localtime(a.at))
        return t(
            key, when=when, mode=t(f"quiz.mode.{a.mode}"), score=_num(a.score),
            total=_num(a.total), percent=round(100 * a.fraction),
        )  # fmt: skip

    def _draw_question(self) -> None:
        if not self.run:
            return
        lang = get_lang()
        inst = self.run[self._index()]
        ex = inst.exercise
        parts: list[RenderableType] = [Prose(inst.prompt(lang), "bold")]
        for c in ex.choices:
            parts.append(Prose(f"  {c.id}. {c.text.get(lang)}"))
        topics = t("ex.list_sep").join(_topic(x) for x in ex.topics)
        parts.append(
            Text(f"{t(f'quiz.kind.{ex.kind}')}  ·  {t('quiz.topics', topics=topics)}", DIM)
        )
        self.query_one("#q-prompt", Static).update(Group(*parts))
        feedback = self.query_one("#q-feedback", Static)
        feedback.update(self._feedback(self.current) if self.current else "")
        feedback.set_class(self.current is not None, "-shown")
        graded = self.current is not None
        for wid in ("#submit", "#skip"):
            self.query_one(wid).display = not graded
        nxt = self.query_one("#next", Button)
        nxt.display = graded
        last = self._index() + 1 >= len(self.run)
        nxt.label = t("quiz.finish" if last else "quiz.next")
        self.query_one("#answer", Input).disabled = graded

    def _feedback(self, a: quiz.Answered, numbered: int | None = None) -> RenderableType:
        """The verdict, what was typed, the notes (ideas found and missing), the reference
        answer and the explanation — the same block in the question view and the review."""
        lang = get_lang()
        g = a.grade
        sign, style = SIGN.get(g.status, ("✗", BAD))
        lines = g.lines(t)
        parts: list[RenderableType] = []
        if numbered is not None:
            parts.append(Prose(f"{numbered}. {a.inst.prompt(lang)}", "bold"))
        typed = str(a.answer).strip() if a.answer is not None else ""
        parts.append(Prose(t("quiz.your_answer", answer=typed or t("quiz.no_answer"))))
        parts.append(Text.assemble((f"{sign} ", style), (lines[0], style)))
        parts += [Prose(line, "yellow") for line in lines[1:]]
        parts.append(Prose(t("quiz.reference", answer=a.inst.answer_text(t)), GOOD))
        parts.append(Text(t("quiz.why"), ACCENT))
        parts.append(Prose(a.inst.explanation(lang)))
        return Group(*parts)

    def _draw_summary(self) -> None:
        res = self.result
        if res is None:
            return
        percent = round(100 * res.fraction)
        parts: list[RenderableType] = [
            Text(
                t("quiz.score", score=_num(res.score), total=_num(res.total), percent=percent),
                ACCENT,
            ),
            _topic_bar(res.fraction, 30, GOOD if res.fraction >= 0.8 else PART),
        ]
        if self.mode == "retry":
            parts.append(Text(t("quiz.not_recorded"), DIM))
        elif self.new_best:
            parts.append(Text(t("quiz.new_best"), GOOD))
        if res.missed:
            parts.append(Text(t("quiz.missed_count", count=len(res.missed))))
        else:
            parts.append(Text(t("quiz.all_right"), GOOD))
        parts.append(Text(""))
        parts.append(Text(t("quiz.by_topic"), "bold"))
        rows = []
        ordered = sorted(
            res.per_topic.items(), key=lambda kv: (kv[1][0] / kv[1][1], _topic(kv[0]).casefold())
        )
        for tag, (s, m) in ordered:
            style = GOOD if s >= m - 1e-9 else PART if s > 0 else BAD
            rows.append([_topic(tag), _topic_bar(s / m, 16, style), f"{_num(s)}/{_num(m)}"])
        parts.append(columns(rows, "llr"))
        parts += self._course_links([tag for tag, (s, m) in ordered if s < 0.8 * m])
        self.query_one("#sum-body", Static).update(Group(*parts))
        has_missed = bool(res.missed)
        self.query_one("#review", Button).disabled = not has_missed
        self.query_one("#retry", Button).disabled = not has_missed

    def _course_links(self, weak: list[str]) -> list[RenderableType]:
        """Each weak topic's lesson and set, and the path's next lesson (the quiz's "next")."""
        from attn_tui import coursebook

        book = coursebook.of(self.app)  # loaded at start by home; waits if still loading
        lang = get_lang()
        out: list[RenderableType] = []
        status = book.status()
        for tag in weak[:4]:
            lesson = book.course.for_topic(tag)
            if lesson is None:
                continue
            number = status.get(lesson.id).number
            practice = book.library.get(lesson.practice_sets[0]) if lesson.practice_sets else None
            sets = practice.title.get(lang) if practice is not None else "—"
            out.append(Prose(t("course.quiz.weak", topic=_topic(tag), n=number,
                               title=lesson.title.get(lang), sets=sets), DIM))  # fmt: skip
        nxt = status.next
        if nxt is not None:
            out.append(Text(t("course.quiz.next", n=nxt.number, title=nxt.lesson.title.get(lang)),
                            ACCENT))  # fmt: skip
        return [Text(""), *out] if out else []

    def _draw_review(self) -> None:
        res = self.result
        if res is None:
            return
        parts: list[RenderableType] = []
        for i, a in enumerate(res.answered, 1):
            if not a.grade.correct:
                parts += [self._feedback(a, numbered=i), Text("")]
        self.query_one("#review-body", Static).update(Group(*parts))

    # ---- the run ------------------------------------------------------------------------
    def start(self, mode: str, exercises: list[Exercise] | list[Instance]) -> None:
        self.mode = mode
        self._leave_armed = False
        self.run = [e if isinstance(e, Instance) else instance(e) for e in exercises]
        self.answered = []
        self.current = None
        self.result = None
        self.new_best = False
        self._fresh_input()
        self._save_run()
        self.show("question")

    # ---- a quiz left unfinished ---------------------------------------------------------
    def _remember(self, work):
        """Use the store; a failure is said and the quiz goes on."""
        if self.store is None:
            return None
        try:
            return work(self.store)
        except Exception as err:  # losing the store must not lose the quiz
            self.notify(t("ex.store_unusable", error=err), severity="error")
            return None

    def _save_run(self) -> None:
        """Keep the run (each question's id and seed, every answer typed) after each change,
        so that Esc, a quit or a crash leaves it to resume."""
        if not self.run:
            return
        done = self.answered + ([self.current] if self.current else [])
        self.saved = {
            "mode": self.mode,
            "questions": [[inst.exercise.id, inst.seed] for inst in self.run],
            "answers": [a.answer if isinstance(a.answer, str) else "" for a in done],
        }
        self._remember(lambda store: store.save_quiz_run(self.saved))

    def _forget_run(self) -> None:
        self.saved = None
        self._remember(lambda store: store.save_quiz_run(None))

    def resume(self) -> None:
        """Rebuild the run left unfinished: the same questions and numbers, each kept answer
        graded again (grading is deterministic), on at the first question not answered."""
        saved = self.saved or {}
        by_id = {ex.id: ex for ex in self.bank}
        try:
            run = [instance(by_id[qid], seed=seed) for qid, seed in saved["questions"]]
            answers = list(saved.get("answers", []))[: len(run)]
        except (KeyError, TypeError, ValueError):
            self.notify(t("quiz.resume_gone"), severity="warning", timeout=5)
            self._forget_run()
            self.show("start")
            return
        mode = saved.get("mode") if saved.get("mode") in ("quick", "full", "retry") else "quick"
        self.start(mode, run)
        self.answered = [
            quiz.answer(inst, typed) for inst, typed in zip(run, answers, strict=False)
        ]
        if len(self.answered) >= len(run):
            self.finish()
            return
        self._save_run()
        self.show("question")

    def action_leave(self) -> None:
        """Esc: mid-quiz, ask first (the answers are kept either way); else home."""
        in_quiz = self.view == "question" and self.run
        if not in_quiz:
            self.app.action_home()  # type: ignore[attr-defined]
            return
        done = len(self.answered) + (1 if self.current else 0)

        def answered(leave: bool | None) -> None:
            if leave:
                self._save_run()
                self.app.action_home()  # type: ignore[attr-defined]

        self.app.push_screen(
            ConfirmScreen("quiz.confirm_escape", "quiz.confirm_escape_yes",
                          "quiz.confirm_escape_no", done=done),
            answered,
        )  # fmt: skip

    def _fresh_input(self) -> None:
        box = self.query_one("#answer", Input)
        box.disabled = False
        box.value = ""

    def submit(self, typed: str) -> None:
        self._leave_armed = False  # carrying on with the quiz disarms a lone F5
        """Grade what was typed (once); an empty answer asks again rather than scoring 0."""
        if self.current is not None or not self.run:
            return
        if not typed.strip():
            self.notify(t("quiz.type_first"), timeout=3)
            return
        self._grade(typed)

    def skip(self) -> None:
        if self.current is None and self.run:
            self._grade("")

    def _grade(self, typed: str) -> None:
        answered = quiz.answer(self.run[self._index()], typed)
        if typed and not answered.grade.is_answer:
            # A typo in a number or a choice that does not exist is not an answer: say why
            # and let the learner fix it, rather than spend the question on it.
            feedback = self.query_one("#q-feedback", Static)
            lines = [t("quiz.not_an_answer"), *answered.grade.lines(t)[1:]]
            feedback.update(Group(*(Prose(line, "yellow") for line in lines)))
            feedback.add_class("-shown")
            return
        self.current = answered
        self._save_run()
        self._remember_answer(answered, typed)
        self.redraw()
        self.query_one(SelfCheck).offer(answered.grade if answered.grade.kind == "text" else None)
        self.query_one("#next", Button).focus()
        self.query_one("#q-panel").scroll_to_widget(self.query_one("#q-feedback"), top=True)

    def _remember_answer(self, answered, typed: str) -> None:
        """Each question answered is an attempt of its own (its bank as the set): it comes
        back in the reviews on its FSRS schedule and counts for its topics' mastery."""
        if self.store is None or self.mode not in ("quick", "full") or not typed:
            return
        inst = self.run[self._index()]
        ex, g = inst.exercise, answered.grade
        self.store.record_attempt(ex.set_id, ex.id, typed, correct=bool(g.correct),
                                  score=float(g.score), seed=inst.seed)  # fmt: skip

    def next_question(self) -> None:
        if self.current is None:
            return
        self.answered.append(self.current)
        self.current = None
        self.query_one(SelfCheck).offer(None)
        if len(self.answered) >= len(self.run):
            self.finish()
            return
        self._fresh_input()
        self.query_one("#q-panel").scroll_home(animate=False)
        self.show("question")

    def finish(self) -> None:
        self._forget_run()
        res = quiz.score_run(self.answered)
        self.result = res
        if self.mode in ("quick", "full") and self.store is not None:
            before = self.store.best_quiz(self.mode)
            self.new_best = before is not None and res.fraction > before.fraction + 1e-9
            self.store.record_quiz(self.mode, res.score, res.total, res.per_topic, res.missed)
        self.show("summary")

    @on(SelfCheck.Marked)
    def _self_marked(self, event: SelfCheck.Marked) -> None:
        """Ideas the learner says they wrote: stored as self-assessed; the mark stays."""
        from dataclasses import replace

        from attn_tui.core.exercises.grading import self_check, self_score

        if self.current is None:
            return
        g = self_check(self.current.grade, event.indices)
        self.current = replace(self.current, grade=g)
        ex = self.current.inst.exercise
        if self.store is not None:
            self.store.record_self_check(
                ex.set_id, ex.id, [i.id for i in g.self_marked], score=g.score,
                claimed=self_score(g),
            )  # fmt: skip
        ideas = t("ex.list_sep").join(i.text.get(get_lang()) for i in g.self_marked)
        self.notify(t("ex.self.recorded", ideas=ideas, percent=round(100 * g.score)), timeout=4)
        self.redraw()

    # ---- events -------------------------------------------------------------------------
    @on(Button.Pressed, "#quick")
    def _quick(self) -> None:
        self.start("quick", quiz.draw_quick(self.bank, seed=self.SEED))

    @on(Button.Pressed, "#resume")
    def _resume(self) -> None:
        self.resume()

    @on(Button.Pressed, "#full")
    def _full(self) -> None:
        self.start("full", quiz.draw_full(self.bank))

    @on(Input.Submitted, "#answer")
    def _submitted(self, event: Input.Submitted) -> None:
        self.submit(event.value)

    @on(Button.Pressed, "#submit")
    def _submit_pressed(self) -> None:
        self.submit(self.query_one("#answer", Input).value)

    @on(Button.Pressed, "#skip")
    def _skip(self) -> None:
        self.skip()

    @on(Button.Pressed, "#next")
    def _next(self) -> None:
        self.next_question()

    @on(Button.Pressed, "#review")
    def _review(self) -> None:
        self.action_review()

    @on(Button.Pressed, "#retry")
    def _retry(self) -> None:
        self.action_retry()

    @on(Button.Pressed, "#again")
    def _again(self) -> None:
        self.action_new_quiz()

    @on(Button.Pressed, "#back")
    def _back(self) -> None:
        self.show("summary")

    # ---- actions ------------------------------------------------------------------------
    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        missed = self.result is not None and bool(self.result.missed)
        if action in ("review", "retry"):
            return missed and self.view in ("summary", "review-view")
        if action == "new_quiz":
            return self.view != "start"
        return True

    def action_review(self) -> None:
        if self.result is not None and self.result.missed:
            self.show("review-view")

    def action_retry(self) -> None:
        if self.result is not None and self.result.missed:
            # The same instances again: a generated question keeps the numbers it was missed with.
            self.start("retry", [a.inst for a in self.result.missed_answers])

    def action_new_quiz(self) -> None:
        # Mid-quiz, the first F5 only warns: a quiz in progress is not thrown away by one key.
        if self.view == "question" and self.run and not self._leave_armed:
            self._leave_armed = True
            self.notify(t("quiz.confirm_leave"), timeout=4)
            return
        self._leave_armed = False
        if self.view == "question" and self.run:
            self._forget_run()  # abandoned on purpose, with two presses
        self.run = []
        self.current = None
        self.show("start")
