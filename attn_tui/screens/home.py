"""The home screen: the course first (Continue: lesson N, the reviews due, the path), then the
areas that work, one line each, Enter to open.

The course needs the sets and lessons checked and the store opened (most of a second), so it
is loaded in the background once the first frame is painted; until then its line says so.
Reading the sets and lessons (and importing the modules they need) writes nothing of the
learner's, and runs in a daemon thread that quitting abandons; opening the store (which may
create or migrate it) runs in a thread that the app's end waits for.
"""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Callable
from typing import Any, TypeVar

from rich.text import Text
from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.widgets import Footer, OptionList, Static
from textual.widgets.option_list import Option

from attn_tui.i18n import get_lang, t
from attn_tui.render.palette import MUTED
from attn_tui.screens.base import TutorScreen
from attn_tui.widgets.localized import tr

COURSE_OPTIONS = ("continue", "review", "path")


_coursebook: Any = None  # the coursebook module, once the background worker has imported it
READ_THREAD = "course-read"  # the daemon thread that reads the course (tests look for it)

T = TypeVar("T")


async def in_daemon_thread(work: Callable[[], T], name: str) -> T:
    """``work()`` in a daemon thread of its own, awaited: unlike a thread worker's (Textual runs
    those in asyncio's default executor, whose threads the process's end joins), quitting does
    not wait for it. Only for work that may be abandoned half way (it writes nothing that must
    be whole). Cancelling the awaiting task leaves the thread to finish on its own."""
    loop = asyncio.get_running_loop()
    done: asyncio.Future[T] = loop.create_future()

    def settle(result: T | None, error: BaseException | None) -> None:
        if not done.done():  # (cancelled meanwhile: nobody waits)
            if error is None:
                done.set_result(result)  # type: ignore[arg-type]
            else:
                done.set_exception(error)

    def run() -> None:
        result, error = None, None
        try:
            result = work()
        except BaseException as err:  # handed to the awaiting task
            error = err
        try:
            loop.call_soon_threadsafe(settle, result, error)
        except RuntimeError:  # the loop is closed: the app ended meanwhile
            pass

    threading.Thread(target=run, name=name, daemon=True).start()
    return await done


def _read_course(app: Any) -> None:
    global _coursebook
    from attn_tui import coursebook  # whole once this returns, whichever thread began it

    coursebook.read(app)
    _coursebook = coursebook


def loaded_book(app):  # -> coursebook.Coursebook | None
    """The course as the app loaded it, or None before that; without importing the
    coursebook, which reads the exercise library and the store (most of a cold start): the
    home screen comes up first, and the course is imported and read in its background.
    (Not ``sys.modules``: there a module stands half made while another thread imports it.)"""
    return None if _coursebook is None else _coursebook.loaded(app)


def path_strip(status) -> Text:
    """Each lesson's state as one mark, chapter by chapter: ✓ ✓ ▸ · · │ · · …"""
    from attn_tui.core.course.path import OPEN, PASSED, STARTED  # loaded with the course
    from attn_tui.screens.path import STATE_MARK

    out = Text()
    chapter = None
    for s in status.lessons:
        if chapter is not None and s.lesson.chapter != chapter:
            out.append("│ ", style="dim")
        chapter = s.lesson.chapter
        style = {PASSED: "green", STARTED: "bold", OPEN: "bold"}.get(s.state, "dim")
        out.append(STATE_MARK[s.state] + " ", style=style)
    return out


class HomeScreen(TutorScreen):
    HELP = (("app.key.home", "app.help.home"),)  # (not titled "Calculator": it is the home)
    # Priority: the area opens while Enter is handled, so keys typed straight after it go to
    # the new screen (held by the app until it is mounted), not to this list. The list's moves
    # are priority too, so that "down down enter" typed at once opens the third area: a move
    # left for the list to handle later would come after the Enter.
    BINDINGS = [
        Binding("enter", "open", "app.key.open", show=True, priority=True),
        Binding("c", "course('continue')", "course.key.continue", show=True, priority=True),
        Binding("r", "course('review')", "course.key.review", show=True, priority=True),
        Binding("p", "course('path')", "course.key.path", show=False, priority=True),
        *(Binding(key, f"move('{action}')", show=False, priority=True)
          for key, action in (("down", "cursor_down"), ("up", "cursor_up"), ("home", "first"),
                              ("end", "last"), ("pagedown", "page_down"),
                              ("pageup", "page_up"))),
    ]  # fmt: skip

    def compose(self) -> ComposeResult:
        with Vertical(id="home"):
            yield tr(Static(classes="home-title"), "app.home.title")
            yield tr(Static(classes="home-intro"), "app.home.intro")
            yield Static(id="home-path", classes="home-path")
            yield OptionList(*self._course_options(), id="course")
            yield OptionList(*self._options(), id="areas")
        yield Footer()

    def on_mount(self) -> None:
        super().on_mount()
        self.query_one("#areas", OptionList).focus()  # Enter opens the calculator, as ever
        self._load_course()  # once the first frame is painted: home is drawn first

    @work(exclusive=True, exit_on_error=False, group="course")
    async def _load_course(self) -> None:
        """Wait for the app's first frame (AttnApp.first_frame), so that nothing of the course
        competes with drawing it; read the sets and lessons in a daemon thread (abandoned if
        the learner quits first); open the store in a thread the app's end waits for; draw."""
        app = self.app
        first_frame = getattr(app, "first_frame", None)
        if first_frame is not None:
            await first_frame.wait()
        await in_daemon_thread(lambda: _read_course(app), READ_THREAD)
        await asyncio.to_thread(_coursebook.of, app)
        self.refresh_course()

    def on_screen_resume(self, event) -> None:
        super().on_screen_resume(event)
        if loaded_book(self.app) is not None:
            self.refresh_course()
        else:  # not yet, or loaded for another data_dir (a served student was just named)
            self.reload_course()

    def reload_course(self) -> None:
        """Load the course again if the app's data_dir has moved since (else just redraw)."""
        self.refresh_course()
        self._load_course()

    def refresh_course(self) -> None:
        """Redraw the course's lines (after loading, and whenever home is shown again)."""
        if not self.is_attached:
            return
        for selector, options in (("#course", self._course_options), ("#areas", self._options)):
            listing = self.query_one(selector, OptionList)
            highlighted = listing.highlighted
            listing.clear_options()
            listing.add_options(options())
            listing.highlighted = highlighted if highlighted is not None else 0
        book = loaded_book(self.app)
        line = self.query_one("#home-path", Static)
        if book is None:
            line.update(t("course.home.loading"))
            return
        status = book.status()
        strip = path_strip(status)
        strip.append(t("course.home.passed", passed=status.passed, total=len(status.lessons)),
                     style="dim")  # fmt: skip
        line.update(strip)

    def _options(self) -> list[Option]:
        options = []
        for mode in self.app.AREAS:
            label = Text.assemble(
                (t(f"app.area.{mode}"), "bold"), "\n", (t(f"app.area.{mode}.desc"), MUTED)
            )
            options.append(Option(label, id=mode))
        return options

    def _course_options(self) -> list[Option]:
        """One line each: Continue: lesson N · title, the reviews due, the path."""
        book = loaded_book(self.app)
        if book is None:
            return [Option(Text(t("course.home.loading"), style=MUTED), id="continue")]
        lang = get_lang()
        status = book.status()
        nxt = status.next
        if nxt is None:
            first = Text.assemble(("▶ ", "bold"), (t("course.home.all_passed"), "bold"))
        else:
            step = nxt.lesson.step(nxt.at_step)
            first = Text.assemble(
                ("▶ ", "bold"),
                (t("course.home.continue", n=nxt.number, title=nxt.lesson.title.get(lang)),
                 "bold"),
                (t("course.home.continue.desc", step=t(f"course.step.{step.kind}")), MUTED),
            )  # fmt: skip
        due = book.due()
        later = book.next_due()
        from attn_tui.core.course import clock  # loaded with the course

        when = clock.iso(later)[:10] if later else None
        review = Text.assemble(
            ("↻ ", "bold"), (t("course.home.review", count=due), "bold" if due else ""),
            ("" if due else t("course.home.review.later", when=when) if when else
             t("course.home.review.none"), MUTED),
        )  # fmt: skip
        chapters = len({entry.lesson.chapter for entry in status.lessons})
        counts = t("course.home.path.desc", chapters=chapters, lessons=len(status.lessons))
        path = Text.assemble(("≡ ", "bold"), t("course.home.path"), (counts, MUTED))
        for line in (first, review, path):
            line.no_wrap, line.overflow = True, "ellipsis"
        return [Option(first, id="continue"), Option(review, id="review"), Option(path, id="path")]

    def relocalize(self) -> None:
        self.refresh_course()

    def _listing(self) -> OptionList:
        """The list the keys move in: the course's when it has the focus, else the areas'."""
        course = self.query_one("#course", OptionList)
        return course if course.has_focus else self.query_one("#areas", OptionList)

    def action_move(self, action: str) -> None:
        listing = self._listing()
        course = self.query_one("#course", OptionList)
        areas = self.query_one("#areas", OptionList)
        # Up from the first area reaches the course; down from its last option, the areas.
        if listing is areas and action == "cursor_up" and areas.highlighted in (0, None):
            course.focus()
            course.highlighted = course.option_count - 1
            return
        if listing is course and action == "cursor_down" and (
                course.highlighted == course.option_count - 1):  # fmt: skip
            areas.focus()
            areas.highlighted = 0
            return
        getattr(listing, f"action_{action}")()

    def action_open(self) -> None:
        listing = self._listing()
        if listing.highlighted is not None:
            self._open(listing.get_option_at_index(listing.highlighted).id)

    def action_course(self, option_id: str) -> None:
        self._open(option_id)

    @on(OptionList.OptionSelected)
    def _selected(self, event: OptionList.OptionSelected) -> None:
        self._open(event.option.id)

    def _open(self, option_id: str | None) -> None:
        if option_id not in COURSE_OPTIONS:
            self.app.switch_mode(option_id)
            return
        book = loaded_book(self.app)
        if book is None:
            self.notify(t("course.home.loading"), timeout=2)
            return
        if option_id == "continue":
            nxt = book.status().next
            if nxt is not None:
                from attn_tui.screens.lesson import LessonScreen

                self.app.push_screen(LessonScreen(nxt.lesson.id))
            return
        if option_id == "review":
            from attn_tui.screens.review import ReviewScreen

            self.app.push_screen(ReviewScreen())
            return
        from attn_tui.screens.path import PathScreen

        self.app.push_screen(PathScreen())
