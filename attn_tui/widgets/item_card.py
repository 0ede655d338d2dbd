"""One exercise to answer inside a lesson or a review: its prompt (and choices), an answer
field, and the feedback — with the mistake named when the bank knows it.

Grading is the core's (``core.exercises.grading``); the card posts :class:`ItemCard.Answered`
with the grade, and its parent keeps it (attributes down, messages up).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from rich.console import Group
from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.containers import VerticalScroll
from textual.message import Message
from textual.widgets import Input, Static

from attn_tui.core.exercises.generators import Instance
from attn_tui.core.exercises.grading import grade
from attn_tui.i18n import get_lang, t
from attn_tui.render.prose import Prose
from attn_tui.widgets.fields import LineInput


class ItemCard(VerticalScroll):
    """Shows one :class:`Instance`; Enter in the field grades what is typed."""

    DEFAULT_CSS = """
    ItemCard { height: 1fr; }
    ItemCard #item-prompt { margin-bottom: 1; }
    ItemCard #item-answer { margin-bottom: 1; }
    ItemCard .item-feedback { color: $text-muted; }
    """

    @dataclass
    class Answered(Message):
        card: ItemCard
        inst: Instance
        answer: str
        grade: Any
        hints: int

    class Next(Message):
        """Enter again once the item is finished: the parent moves on."""

    class Typed(Message):
        """The answer field changed (the parent keeps it as a draft)."""

        def __init__(self, text: str) -> None:
            super().__init__()
            self.text = text

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.inst: Instance | None = None
        self.heading = ""
        self.hints = 0
        self.graded: Any = None
        self.once = False  # one answer per showing (a check, a review): Enter then moves on

    def compose(self) -> ComposeResult:
        yield Static(id="item-prompt")
        yield LineInput(id="item-answer", compact=True)
        yield Static(id="item-feedback", classes="item-feedback")

    def show(self, inst: Instance | None, heading: str = "", draft: str = "",
             once: bool = False) -> None:  # fmt: skip
        self.inst, self.heading, self.hints, self.graded = inst, heading, 0, None
        self.once = once
        field = self.query_one("#item-answer", Input)
        with field.prevent(Input.Changed):
            field.value = draft
        field.placeholder = t(f"course.item.type.{inst.exercise.kind}") if inst else ""
        self.query_one("#item-feedback", Static).update("")
        self.redraw()

    def redraw(self) -> None:
        lang = get_lang()
        inst = self.inst
        if inst is None:
            self.query_one("#item-prompt", Static).update("")
            return
        parts: list[Any] = []
        if self.heading:
            parts.append(Text(self.heading, style="bold"))
        parts.append(Prose(inst.prompt(lang)))
        for c in inst.exercise.choices:
            parts.append(Prose(f"  {c.id}. {c.text.get(lang)}"))
        for n, hint in enumerate(inst.hints(lang)[: self.hints], 1):
            parts.append(Prose(t("ex.hint_n", n=n, total=len(inst.exercise.hints), text=hint),
                               style="italic"))  # fmt: skip
        self.query_one("#item-prompt", Static).update(Group(*parts))
        if self.graded is not None:
            self._feedback(self.graded)

    def hint(self) -> bool:
        """Show the next hint; False when there is none left."""
        if self.inst is None or self.hints >= len(self.inst.exercise.hints):
            return False
        self.hints += 1
        self.redraw()
        return True

    def focus_answer(self) -> None:
        self.query_one("#item-answer", Input).focus()

    @on(Input.Changed, "#item-answer")
    def _typed(self, event: Input.Changed) -> None:
        event.stop()
        self.post_message(self.Typed(event.value))

    @on(Input.Submitted, "#item-answer")
    def _submitted(self, event: Input.Submitted) -> None:
        event.stop()
        if self.inst is None:
            return
        if self.graded is not None and (self.once or self.graded.correct):
            self.post_message(self.Next())  # finished with: Enter moves on
            return
        g = grade(self.inst, event.value)
        if not g.is_answer:  # a slip, not an attempt: say what can be read, count nothing
            self._feedback(g)
            return
        self.graded = g
        self._feedback(g)
        self.post_message(self.Answered(self, self.inst, event.value, g, self.hints))

    def _feedback(self, g: Any) -> None:
        """The grade's lines (the diagnosis among them); the explanation once it is right."""
        lines = g.lines(t)
        body: list[Any] = [Text(lines[0], style="bold green" if g.correct else "bold")]
        body += [Prose(line) for line in lines[1:]]
        if g.correct and self.inst is not None:
            body.append(Prose(self.inst.explanation(get_lang()), style="dim"))
        self.query_one("#item-feedback", Static).update(Group(*body))
