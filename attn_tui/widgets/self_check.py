"""The self-check offered when the grader is unsure of a written answer.

It lists each idea the grader did not find; the learner ticks the ones they did say and
presses the button. The screen records those as *self-assessed* (``ProgressStore.
record_self_check``), apart from the graded attempt, whose score does not change.
"""

from __future__ import annotations

from dataclasses import dataclass

from textual import on
from textual.app import ComposeResult
from textual.containers import Vertical
from textual.message import Message
from textual.widgets import Button, SelectionList, Static

from attn_tui.core.exercises.grading import Grade
from attn_tui.core.exercises.model import MISSING
from attn_tui.i18n import get_lang, t


class SelfCheck(Vertical):
    """Hidden until :meth:`offer` gets an uncertain written grade."""

    DEFAULT_CSS = """
    SelfCheck { height: auto; display: none; border: round $warning; padding: 0 1; }
    SelfCheck.-shown { display: block; }
    SelfCheck SelectionList { height: auto; max-height: 8; border: none; padding: 0; }
    SelfCheck Button { margin-top: 1; }
    """

    @dataclass
    class Marked(Message):
        """The learner marked these ideas (indices into ``grade.ideas``) as said."""

        indices: list[int]

    def __init__(self, **kwargs) -> None:
        super().__init__(**kwargs)
        self.grade: Grade | None = None

    def on_mount(self) -> None:
        # A screen that shows this may grade written answers: load the text libraries in the
        # background now, so the first answer does not wait for them (~0.2–0.8 s).
        import threading

        from attn_tui.core.exercises.written.text import warm

        threading.Thread(target=warm, name="warm-written", daemon=True).start()

    def compose(self) -> ComposeResult:
        yield Static(id="self-check-intro")
        yield SelectionList[int](id="self-check-ideas")
        yield Button(id="self-check-record", compact=True, variant="warning")

    def offer(self, grade: Grade | None) -> None:
        """Show the ideas not found when ``grade`` is an uncertain written grade; else hide."""
        self.grade = grade
        show = (
            grade is not None
            and grade.uncertain
            and not grade.self_marked
            and any(r.state == MISSING for r in grade.ideas)
        )
        self.set_class(show, "-shown")
        if show:
            self.relocalize()

    def relocalize(self) -> None:
        g = self.grade
        self.query_one("#self-check-intro", Static).update(t("ex.self.intro"))
        self.query_one("#self-check-record", Button).label = t("ex.self.record")
        ideas = self.query_one("#self-check-ideas", SelectionList)
        ideas.clear_options()
        if g is None:
            return
        lang = get_lang()
        ideas.add_options(
            [(r.idea.text.get(lang), k) for k, r in enumerate(g.ideas) if r.state == MISSING]
        )

    @on(Button.Pressed, "#self-check-record")
    def _record(self, event: Button.Pressed) -> None:
        event.stop()
        chosen = list(self.query_one("#self-check-ideas", SelectionList).selected)
        if chosen:
            self.post_message(self.Marked(chosen))
        self.set_class(False, "-shown")
