"""The self-check quiz: choose quick or full, answer one question at a time, see each answer
graded with the reference answer and why, then a score by topic, a review of what was missed,
and a retry of just those. Quick and full runs are kept in the progress store (history, best).

The run is plain data on the screen (the questions, the answers so far, the result); each of
the four views is a widget of its own (``widgets.quiz``: StartView, QuestionView, SummaryView,
ReviewView) that draws what it is handed and redraws itself in the other language (F2).
"""

from __future__ import annotations

from dataclasses import replace

from rich.console import RenderableType
from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.content import Content
from textual.widgets import ContentSwitcher, Static

from attn_tui import coursebook, paths
from attn_tui.core import quiz
from attn_tui.core.exercises.generators import Instance, instance
from attn_tui.core.exercises.model import Exercise
from attn_tui.core.progress import Guarded, ProgressStore, StoreError
from attn_tui.i18n import describe, get_lang, t
from attn_tui.render import quiz as draw
from attn_tui.render.prose import Prose
from attn_tui.screens.base import TutorFooter, TutorScreen
from attn_tui.screens.confirm import ConfirmScreen
from attn_tui.widgets.quiz import QuestionView, ReviewView, StartView, SummaryView
from attn_tui.widgets.self_check import SelfCheck


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
        Binding("f6", "more", "quiz.key.more"),  # a long explanation in full
        # Esc mid-quiz asks first, and what was answered is kept to resume (else: home).
        Binding("escape", "leave", "app.key.home"),
    ]
    SEED: int | None = None  # the quick draw's seed; None = a fresh draw (tests fix it)

    def __init__(self) -> None:
        super().__init__()
        self.bank: list[Exercise] = []
        self.broken_banks = 0
        self.store: Guarded | None = None  # None: progress could not be opened
        self.mode = "quick"  # quick, full or retry
        self.run: list[Instance] = []
        self._leave_armed = False  # F5 pressed once mid-quiz; a second press leaves
        self.answered: list[quiz.Answered] = []
        self.current: quiz.Answered | None = None  # the graded answer on screen, before Next
        self.result: quiz.QuizResult | None = None
        self.new_best = False
        self.saved: dict | None = None  # a quiz left unfinished (in the store), to resume
        self.views = {"start": StartView(id="start"), "question": QuestionView(id="question"),
                      "summary": SummaryView(id="summary"),
                      "review-view": ReviewView(id="review-view")}  # fmt: skip

    # ---- layout -------------------------------------------------------------------------
    def compose(self) -> ComposeResult:
        yield Static(id="quiz-status")
        with ContentSwitcher(initial="start", id="quiz-views"):
            yield from self.views.values()
        yield TutorFooter()

    def on_mount(self) -> None:
        super().on_mount()
        data = paths.data_dir(self.app.data_dir)  # type: ignore[attr-defined]
        book = coursebook.loaded(self.app)  # home loads it in the background: read once
        library = book.library if book is not None else paths.load_all(
            self.app.extra_exercises, data)  # type: ignore[attr-defined]  # fmt: skip
        self.bank = library.quiz_exercises
        self.broken_banks = sum(1 for b in library.broken if "quiz" in b.path.parts)
        try:
            self.store = Guarded(ProgressStore.open(data), self._store_failed)
        except StoreError as err:  # the quiz works without a store; the learner is told why
            self._store_failed(err, True)
        if (damaged := coursebook.moved_aside(self.app, self.store)) is not None:
            self.notify(t("ex.moved_aside", path=damaged), severity="warning")
        self.saved = self._remember(lambda store: store.quiz_run())
        self.show("start")

    def _store_failed(self, err: StoreError, writing: bool) -> None:
        if writing:  # a failed read only empties the history shown
            self.notify(t("store.not_saved", reason=describe(err)), severity="error")

    def on_unmount(self) -> None:
        if self.store is not None:
            self.store.close()

    # ---- the views ------------------------------------------------------------------------
    @property
    def view(self) -> str:
        """The view on show: "start", "question", "summary" or "review-view"."""
        return self.query_one("#quiz-views", ContentSwitcher).current or "start"

    def show(self, view: str) -> None:
        """Bring a view up, drawn from the run as it stands, with the focus where it acts."""
        self._leave_armed = False  # any move on (next question, summary...) disarms a lone F5
        self.query_one("#quiz-views", ContentSwitcher).current = view
        if view == "start":
            store = self.store
            attempts = store.quiz_attempts() if store else []
            bests = [b for m in ("quick", "full") if store and (b := store.best_quiz(m))]
            self.views["start"].show(len(self.bank), self.broken_banks, self.saved, attempts,
                                     bests)  # fmt: skip
        elif view == "question" and self.run:
            question = self.views["question"]
            if self.current is None:
                question.ask(self.run[self._index()], self._index() + 1 >= len(self.run))
        elif view == "summary" and self.result is not None:
            self.views["summary"].show(self.result, self.mode, self.new_best, self._course_links)
        elif view == "review-view" and self.result is not None:
            self.views["review-view"].show(self.result)
        self._draw_status()
        self.refresh_bindings()
        self.views[view].focus_first()

    def relocalize(self) -> None:
        self._draw_status()

    def _draw_status(self) -> None:
        status = self.query_one("#quiz-status", Static)
        if self.view == "question" and self.run:
            done = self.answered + ([self.current] if self.current else [])
            score = sum(a.grade.score for a in done)
            status.update(draw.status(self._index() + 1, len(self.run), score, len(done),
                                      self.mode))  # fmt: skip
        else:
            # the theme's accent: Rich's "cyan" reached a Static as pure cyan, 1.05:1 on light
            status.update(Content.from_markup("[b $accent]$title", title=t("quiz.title")))

    def _index(self) -> int:
        return len(self.answered)

    def _course_links(self, weak: list[str]) -> list[RenderableType]:
        """Each weak topic's lesson and set, and the path's next lesson (the quiz's "next")."""
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
            out.append(Prose(t("course.quiz.weak", topic=draw.topic(tag), n=number,
                               title=lesson.title.get(lang), sets=sets), draw.DIM))  # fmt: skip
        nxt = status.next
        if nxt is not None:
            out.append(Text(t("course.quiz.next", n=nxt.number, title=nxt.lesson.title.get(lang)),
                            draw.ACCENT))  # fmt: skip
        return [Text(""), *out] if out else []

    # ---- the run ------------------------------------------------------------------------
    def start(self, mode: str, exercises: list[Exercise] | list[Instance]) -> None:
        self.mode = mode
        self._leave_armed = False
        self.run = [e if isinstance(e, Instance) else instance(e) for e in exercises]
        self.answered = []
        self.current = None
        self.result = None
        self.new_best = False
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

    def submit(self, typed: str) -> None:
        """Grade what was typed (once); an empty answer asks again rather than scoring 0."""
        self._leave_armed = False  # carrying on with the quiz disarms a lone F5
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
            self.views["question"].not_an_answer(answered.grade)
            return
        self.current = answered
        self._save_run()
        self._remember_answer(answered, typed)
        self._draw_status()
        self.views["question"].graded(answered)
        self.refresh_bindings()  # (F6, when the explanation has more than its short answer)

    def _remember_answer(self, answered: quiz.Answered, typed: str) -> None:
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
        if len(self.answered) >= len(self.run):
            self.finish()
            return
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
        self.views["question"].answered = self.current
        self.views["question"].redraw()
        self._draw_status()

    # ---- what the question view says -------------------------------------------------------
    def on_question_view_answered(self, message: QuestionView.Answered) -> None:
        self.submit(message.typed)

    def on_question_view_skipped(self) -> None:
        self.skip()

    def on_question_view_next(self) -> None:
        self.next_question()

    # ---- actions ------------------------------------------------------------------------
    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        missed = self.result is not None and bool(self.result.missed)
        if action in ("review", "retry"):
            return missed and self.view in ("summary", "review-view")
        if action == "new_quiz":
            return self.view != "start"
        if action == "more":
            return self.view == "question" and self.views["question"].has_more
        return True

    def action_more(self) -> None:
        self.views["question"].show_more()

    def action_quick(self) -> None:
        self.start("quick", quiz.draw_quick(self.bank, seed=self.SEED))

    def action_full(self) -> None:
        self.start("full", quiz.draw_full(self.bank))

    def action_resume(self) -> None:
        self.resume()

    def action_summary(self) -> None:
        self.show("summary")

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
