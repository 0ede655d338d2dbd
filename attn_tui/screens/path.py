"""The path: every lesson with its state and steps, and mastery per topic; Enter opens one."""

from __future__ import annotations

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.events import ScreenResume
from textual.widgets import OptionList, Static
from textual.widgets.option_list import Option

from attn_tui import coursebook
from attn_tui.core.course.mastery import LEVELS
from attn_tui.core.course.path import LOCKED, OPEN, PASSED, STARTED
from attn_tui.i18n import get_lang, t
from attn_tui.render.palette import MUTED
from attn_tui.screens.base import TutorFooter, TutorScreen

STATE_MARK = {PASSED: "✓", STARTED: "▸", OPEN: "○", LOCKED: "·"}  # a lesson's state, one mark


class PathScreen(TutorScreen):
    CSS_PATH = "path.tcss"
    HELP = (("course.path", "course.help.path"),)

    def compose(self) -> ComposeResult:
        with Horizontal(id="path"):
            with Vertical(id="path-lessons"):
                yield OptionList(id="path-list")
            with VerticalScroll(id="path-mastery"):
                yield Static(id="path-levels")
        yield TutorFooter()

    def on_mount(self) -> None:
        super().on_mount()
        self.book = coursebook.of(self.app)
        self.redraw()
        self.query_one("#path-list").focus()

    def on_screen_resume(self, event: ScreenResume) -> None:
        super().on_screen_resume(event)
        self.redraw()

    def redraw(self) -> None:
        lang = get_lang()
        status = self.book.status()
        box = self.query_one("#path-lessons")
        box.border_title = t("course.path.title", passed=status.passed, total=len(status.lessons))
        listing = self.query_one("#path-list", OptionList)
        highlighted = listing.highlighted
        listing.clear_options()
        chapter = None
        for s in status.lessons:
            if s.lesson.chapter != chapter:
                chapter = s.lesson.chapter
                listing.add_option(Option(Text(t(f"course.chapter.{chapter}"), style="bold"),
                                          disabled=True))  # fmt: skip
            label = Text.assemble(
                (f"{STATE_MARK[s.state]} {s.number:>2} ", "bold"),
                (f"{s.steps_done}/{len(s.lesson.steps)} ", MUTED), s.lesson.title.get(lang),
            )  # fmt: skip
            label.no_wrap, label.overflow = True, "ellipsis"
            listing.add_option(Option(label, id=s.lesson.id))
        nxt = status.next
        if highlighted is None and nxt is not None:
            highlighted = next(i for i in range(listing.option_count)
                               if listing.get_option_at_index(i).id == nxt.lesson.id)  # fmt: skip
        listing.highlighted = highlighted
        levels = self.book.mastery()
        self.query_one("#path-mastery").border_title = t("course.prog.mastery")
        taught = sorted(dict.fromkeys(tp for s in status.lessons for tp in s.lesson.topics),
                        key=lambda tp: -(levels[tp].level if tp in levels else 0))  # fmt: skip
        rows = Text(t("course.path.legend") + "\n", style="dim")
        for topic in taught:
            level = levels[topic].level if topic in levels else 0
            bar = "■" * level + "□" * (len(LEVELS) - 1 - level)
            rows.append(f"{bar} ", style="green" if level >= 3 else "")
            rows.append(f"{t('quiz.topic.' + topic)}\n", style="" if level else "dim")
        self.query_one("#path-levels", Static).update(rows)

    def relocalize(self) -> None:
        self.redraw()

    @on(OptionList.OptionSelected, "#path-list")
    def _open(self, event: OptionList.OptionSelected) -> None:
        if event.option.id:
            from attn_tui.screens.lesson import LessonScreen

            self.app.push_screen(LessonScreen(event.option.id))
