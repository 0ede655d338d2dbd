"""Reviews: the items due today, one after another, with fresh numbers for generated ones.

Each answer is kept as a review (``attempts.review``), so FSRS sets the next day it comes
back and mastery counts it (a miss here costs its topics a level). At the end: "next" is the
path's Continue.
"""

from __future__ import annotations

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.widgets import Static

from attn_tui import coursebook
from attn_tui.core.exercises.generators import instance
from attn_tui.i18n import get_lang, t
from attn_tui.render.prose import Prose
from attn_tui.screens.base import TutorFooter, TutorScreen
from attn_tui.widgets.item_card import ItemCard

SESSION = 20  # items in one sitting, the longest overdue first


class ReviewScreen(TutorScreen):
    CSS_PATH = "lesson.tcss"
    HELP = (("course.review", "course.help.review"),)
    BINDINGS = [
        Binding("f3", "hint", "course.key.hint"),
        Binding("f5", "skip", "course.key.next_item"),
        Binding("enter", "next", "course.key.go", show=False),
    ]

    def compose(self) -> ComposeResult:
        with Vertical(id="lesson"):
            yield Static(id="lesson-head")
            yield ItemCard(id="lesson-item")
            yield Static(id="lesson-status")
        yield TutorFooter()

    def on_mount(self) -> None:
        super().on_mount()
        self.book = coursebook.of(self.app)
        due = self.book.store.due_cards(limit=SESSION) if self.book.store else []
        self.queue = [c.key for c in due if self.book.item(c.key) is not None]
        self.done: list[tuple[str, bool]] = []
        self.answered = False
        self._show()

    def _show(self) -> None:
        card = self.query_one(ItemCard)
        head = self.query_one("#lesson-head", Static)
        if not self.queue:
            card.show(None)
            right = sum(ok for _, ok in self.done)
            nxt = self.book.status().next
            head.update(t("course.review.head_done"))
            end = t("course.review.done", right=right, total=len(self.done)) if self.done else \
                t("course.review.nothing")  # fmt: skip
            if nxt is not None:
                end += " " + t("course.review.next", n=nxt.number,
                               title=nxt.lesson.title.get(get_lang()))  # fmt: skip
            self.query_one("#lesson-status", Static).update(Prose(end))
            return
        key = self.queue[0]
        ex = self.book.item(key)
        self.inst = instance(ex)  # fresh numbers for a generated item
        total = len(self.queue) + len(self.done)
        head.update(t("course.review.head", n=len(self.done) + 1, total=total))
        card.show(self.inst, key, once=True)
        self.answered = False
        self.query_one("#lesson-status", Static).update(Prose(t("course.review.keys"),
                                                             style="dim"))  # fmt: skip
        card.focus_answer()

    @on(ItemCard.Answered)
    def _answered(self, event: ItemCard.Answered) -> None:
        if self.answered:
            return  # one answer per item in a review; Enter moves on
        self.answered = True
        self.book.record(event.inst, event.answer, event.grade, event.hints, revealed=False,
                         review=True)  # fmt: skip
        self.done.append((self.queue[0], bool(event.grade.correct)))
        self.query_one("#lesson-status", Static).update(Prose(t("course.review.answered"),
                                                             style="dim"))  # fmt: skip

    @on(ItemCard.Next)
    def _next(self, event: ItemCard.Next) -> None:
        self.action_next()

    def action_next(self) -> None:
        if self.queue and self.answered:
            self.queue.pop(0)
            self._show()
        elif not self.queue:
            nxt = self.book.status().next
            if nxt is not None:
                from attn_tui.screens.lesson import LessonScreen

                self.app.switch_screen(LessonScreen(nxt.lesson.id))

    def action_skip(self) -> None:
        if self.queue:
            self.queue.append(self.queue.pop(0))
            self._show()

    def action_hint(self) -> None:
        self.query_one(ItemCard).hint()

    def relocalize(self) -> None:
        self.query_one(ItemCard).redraw()
