"""The quiz's four views, one widget each: the start page, a question, the summary, the review.

Each draws what the screen hands it (``show``) and keeps it, so a language switch redraws it
in place (``relocalize``); their buttons run the screen's actions (``screen.quick`` …) or, for a
question, post what the learner did (``QuestionView.Answered``, ``Skipped``, ``Next``). The
run itself — the questions, the answers so far, the store — is the screen's.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from rich.console import Group, RenderableType
from textual import on
from textual.app import ComposeResult
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.message import Message
from textual.widgets import Button, Input, Static

from attn_tui.core import quiz
from attn_tui.core.exercises.generators import Instance
from attn_tui.core.exercises.grading import Grade
from attn_tui.core.progress import QuizAttempt
from attn_tui.i18n import get_lang, t
from attn_tui.render import quiz as draw
from attn_tui.widgets.localized import tr
from attn_tui.widgets.self_check import SelfCheck


class StartView(VerticalScroll):
    """Quick or full (or resume the quiz left unfinished), and the scores so far."""

    def __init__(self, **kwargs) -> None:
        super().__init__(**kwargs)
        self.bank_size = 0
        self.broken_banks = 0
        self.saved: dict | None = None
        self.attempts: list[QuizAttempt] = []
        self.bests: list[QuizAttempt] = []

    def compose(self) -> ComposeResult:
        yield Static(id="start-intro")
        yield Button(id="resume", compact=True, variant="warning", action="screen.resume")
        with Horizontal(classes="buttons"):
            yield Button(id="quick", compact=True, variant="primary", action="screen.quick")
            yield Button(id="full", compact=True, action="screen.full")
        yield Static(id="history")

    def show(self, bank_size: int, broken_banks: int, saved: dict | None,
             attempts: list[QuizAttempt], bests: list[QuizAttempt]) -> None:  # fmt: skip
        self.bank_size, self.broken_banks, self.saved = bank_size, broken_banks, saved
        self.attempts, self.bests = attempts, bests
        self.redraw()

    def redraw(self) -> None:
        self.query_one("#start-intro", Static).update(draw.intro(self.bank_size,
                                                                 self.broken_banks))  # fmt: skip
        quick, full = self.query_one("#quick", Button), self.query_one("#full", Button)
        quick.label = t("quiz.quick", n=min(quiz.QUICK_SIZE, self.bank_size))
        full.label = t("quiz.full", n=self.bank_size)
        quick.disabled = full.disabled = not self.bank_size
        resume = self.query_one("#resume", Button)
        resume.display = bool(self.saved)
        if self.saved:
            resume.label = t("quiz.resume", mode=t(f"quiz.mode.{self.saved.get('mode', 'quick')}"),
                             n=len(self.saved.get("answers", [])) + 1,
                             total=len(self.saved.get("questions", [])))  # fmt: skip
        self.query_one("#history", Static).update(draw.history(self.attempts, self.bests))

    def relocalize(self) -> None:
        if self.display:  # (a view out of sight is drawn when the screen shows it)
            self.redraw()

    def focus_first(self) -> None:
        self.query_one("#resume" if self.saved else "#quick").focus()


class QuestionView(Vertical):
    """One question, its answer field, and once graded its feedback and Next."""

    @dataclass
    class Answered(Message):
        """Enter or Submit on an answer (empty or not)."""

        typed: str

    class Skipped(Message):
        pass

    class Next(Message):
        pass

    def __init__(self, **kwargs) -> None:
        super().__init__(**kwargs)
        self.inst: Instance | None = None
        self.answered: quiz.Answered | None = None  # graded, before Next
        self.last = False  # the run's last question: Next says Finish
        self.more = False  # a long explanation in full (F6), not just its short answer

    def compose(self) -> ComposeResult:
        with VerticalScroll(id="q-panel"):
            yield Static(id="q-prompt")
            yield Static(id="q-feedback")
            yield SelfCheck(id="quiz-self")
        with Horizontal(id="q-bar", classes="bar"):
            yield tr(Input(id="answer", compact=True), "quiz.answer_placeholder", "placeholder")
            yield tr(Button(id="submit", compact=True, variant="primary"), "quiz.submit", "label")
            yield tr(Button(id="skip", compact=True), "quiz.skip", "label")
            yield Button(id="next", compact=True, variant="primary")

    @property
    def answer(self) -> Input:
        return self.query_one("#answer", Input)

    def ask(self, inst: Instance, last: bool) -> None:
        """A new question: nothing typed yet."""
        self.inst, self.answered, self.last, self.more = inst, None, last, False
        box = self.answer
        box.disabled = False
        box.value = ""
        self.query_one(SelfCheck).offer(None)
        self.query_one("#q-panel").scroll_home(animate=False)
        self.redraw()

    def graded(self, answered: quiz.Answered) -> None:
        """The answer was graded: its feedback, the self-check of an uncertain written one."""
        self.answered = answered
        self.redraw()
        grade = answered.grade
        self.query_one(SelfCheck).offer(grade if grade.kind == "text" else None)
        self.query_one("#next", Button).focus()
        self.query_one("#q-panel").scroll_to_widget(self.query_one("#q-feedback"), top=True)

    def not_an_answer(self, grade: Grade) -> None:
        """What was typed cannot be read as an answer: say why; the question stays open."""
        feedback = self.query_one("#q-feedback", Static)
        feedback.update(draw.not_an_answer(grade))
        feedback.add_class("-shown")

    def redraw(self) -> None:
        if self.inst is None:
            return
        lang = get_lang()
        self.query_one("#q-prompt", Static).update(draw.question(self.inst, lang))
        feedback = self.query_one("#q-feedback", Static)
        graded = self.answered is not None
        feedback.update(draw.feedback(self.answered, lang, full=self.more) if self.answered else "")
        feedback.set_class(graded, "-shown")
        for wid in ("#submit", "#skip"):
            self.query_one(wid).display = not graded
        nxt = self.query_one("#next", Button)
        nxt.display = graded
        nxt.label = t("quiz.finish" if self.last else "quiz.next")
        self.answer.disabled = graded

    @property
    def has_more(self) -> bool:
        """The explanation on show has more than its short answer (F6 shows it)."""
        return self.answered is not None and draw.has_more(self.answered, get_lang())

    def show_more(self) -> None:
        """The whole explanation, or back to its short answer."""
        self.more = not self.more
        self.redraw()

    def relocalize(self) -> None:
        if self.display:  # (a view out of sight is drawn when the screen shows it)
            self.redraw()

    def focus_first(self) -> None:
        (self.query_one("#next") if self.answered else self.answer).focus()

    @on(Input.Submitted, "#answer")
    def _entered(self, event: Input.Submitted) -> None:
        event.stop()
        self.post_message(self.Answered(event.value))

    @on(Button.Pressed, "#submit")
    def _submit(self, event: Button.Pressed) -> None:
        event.stop()
        self.post_message(self.Answered(self.answer.value))

    @on(Button.Pressed, "#skip")
    def _skip(self, event: Button.Pressed) -> None:
        event.stop()
        self.post_message(self.Skipped())

    @on(Button.Pressed, "#next")
    def _next(self, event: Button.Pressed) -> None:
        event.stop()
        self.post_message(self.Next())


class SummaryView(Vertical):
    """The score, by topic; review the missed ones, retry them, or a new quiz."""

    def __init__(self, **kwargs) -> None:
        super().__init__(**kwargs)
        self.result: quiz.QuizResult | None = None
        self.mode = "quick"
        self.new_best = False
        # below the topics: lines for the topics under 80 % (the course's lessons for them)
        self.links: Callable[[list[str]], list[RenderableType]] = lambda weak: []

    def compose(self) -> ComposeResult:
        with VerticalScroll(id="sum-panel"):
            yield Static(id="sum-body")
        with Horizontal(classes="bar"):
            yield tr(Button(id="review", compact=True, variant="primary", action="screen.review"),
                     "quiz.review", "label")  # fmt: skip
            yield tr(Button(id="retry", compact=True, action="screen.retry"), "quiz.retry",
                     "label")  # fmt: skip
            yield tr(Button(id="again", compact=True, action="screen.new_quiz"), "quiz.again",
                     "label")  # fmt: skip

    def show(self, result: quiz.QuizResult, mode: str, new_best: bool,
             links: Callable[[list[str]], list[RenderableType]] | None = None) -> None:  # fmt: skip
        self.result, self.mode, self.new_best = result, mode, new_best
        if links is not None:
            self.links = links
        self.redraw()

    def redraw(self) -> None:
        if self.result is None:
            return
        weak = [tag for tag, (s, m) in draw.ordered_topics(self.result) if s < 0.8 * m]
        body = draw.summary(self.result, self.mode, self.new_best)
        self.query_one("#sum-body", Static).update(Group(body, *self.links(weak)))
        # Nothing missed (a first try or a retry at 100 %): nothing to review or retry, so the
        # two buttons go, not just grey out.
        missed = bool(self.result.missed)
        for wid in ("#review", "#retry"):
            self.query_one(wid, Button).display = missed

    def relocalize(self) -> None:
        if self.display:  # (a view out of sight is drawn when the screen shows it)
            self.redraw()

    def focus_first(self) -> None:
        missed = self.result is not None and self.result.missed
        self.query_one("#review" if missed else "#again").focus()


class ReviewView(Vertical):
    """What was missed, each with its feedback."""

    def __init__(self, **kwargs) -> None:
        super().__init__(**kwargs)
        self.result: quiz.QuizResult | None = None

    def compose(self) -> ComposeResult:
        with VerticalScroll(id="review-panel") as review:
            tr(review, "quiz.review_title", "border_title")
            yield Static(id="review-body")
        with Horizontal(classes="bar"):
            yield tr(Button(id="back", compact=True, action="screen.summary"),
                     "quiz.back_to_summary", "label")  # fmt: skip

    def show(self, result: quiz.QuizResult) -> None:
        self.result = result
        self.redraw()

    def redraw(self) -> None:
        if self.result is not None:
            self.query_one("#review-body", Static).update(draw.review(self.result, get_lang()))

    def relocalize(self) -> None:
        if self.display:  # (a view out of sight is drawn when the screen shows it)
            self.redraw()

    def focus_first(self) -> None:
        self.query_one("#back").focus()
