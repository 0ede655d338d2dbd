"""The exercises screen's three views: the sets, one set's exercises, and one exercise.

- :class:`SetList` lists the library's sets with their stored progress (and a teacher's file
  that did not load, with its faults); choosing a set posts ``SetList.Chosen``.
- :class:`ItemsView` lists one set's exercises with their marks; choosing one posts
  ``ItemsView.Chosen``; w, r and x act on it (the screen's actions).
- :class:`ExercisePane` shows one exercise: its prompt, choices, the hints asked for, the
  feedback of the last answer, the self-check of an uncertain written answer, the
  explanation once finished, and the answer field. It holds what this showing of the exercise
  is (the instance, hints shown, the grade, finished); the screen decides what comes next and
  writes every attempt to the store.

What they draw is ``render.exercises``.
"""

from __future__ import annotations

from dataclasses import dataclass

from rich.console import Group, RenderableType
from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.message import Message
from textual.widgets import Input, OptionList, Static
from textual.widgets.option_list import Option

from attn_tui.core.exercises.generators import Instance
from attn_tui.core.exercises.grading import Grade
from attn_tui.core.exercises.loader import display_path
from attn_tui.core.exercises.model import ExerciseSet, Library
from attn_tui.core.progress import ExerciseStatus, Guarded
from attn_tui.i18n import get_lang, t
from attn_tui.render import exercises as draw
from attn_tui.render.palette import MUTED
from attn_tui.render.prose import Prose
from attn_tui.widgets.fields import OpenList
from attn_tui.widgets.localized import tr
from attn_tui.widgets.self_check import SelfCheck


class SetList(Vertical):
    """The sets, each with its progress bar and last visit; the highlighted one's summary."""

    @dataclass
    class Chosen(Message):
        set_id: str

    def __init__(self, **kwargs) -> None:
        super().__init__(**kwargs)
        self.library = Library()
        self.store: Guarded | None = None
        self.store_error: str | None = None
        self.moved_aside = None  # a damaged progress file set aside on opening
        self.load_status: str | None = None  # how far a big library has got (screens/loading.py)

    def compose(self) -> ComposeResult:
        yield Static(id="ex-notice", classes="notice")
        yield tr(Static(id="ex-intro"), "ex.choose_set")
        yield tr(OpenList(id="ex-sets"), "ex.sets", "border_title")
        yield Static(id="ex-summary")

    @property
    def sets(self) -> OptionList:
        return self.query_one("#ex-sets", OptionList)

    def show(self, library: Library, store: Guarded | None, store_error: str | None,
             moved_aside: object = None, loading: str | None = None) -> None:  # fmt: skip
        self.library, self.store, self.store_error = library, store, store_error
        self.moved_aside, self.load_status = moved_aside, loading
        self.redraw()

    def redraw(self) -> None:
        notice = self.query_one("#ex-notice", Static)
        messages = []
        if self.moved_aside is not None:
            messages.append(t("ex.moved_aside", path=self.moved_aside))
        if self.store_error is not None:
            messages.append(t("ex.store_unusable", error=self.store_error))
        notice.update(Group(*(Prose(m) for m in messages)))
        notice.set_class(bool(messages), "-shown")
        sets = self.sets
        highlighted = sets.highlighted
        sets.clear_options()
        sets.add_options(self._options())
        if sets.option_count:
            sets.highlighted = min(highlighted or 0, sets.option_count - 1)
        self._show_summary()

    def relocalize(self) -> None:
        self.redraw()

    def _options(self) -> list[Option]:
        lang = get_lang()
        options = []
        width = len(str(len(self.library.sets)))
        for n, ex_set in enumerate(self.library.sets, start=1):
            label = Text.assemble(
                (f"{n:>{width}}  ", MUTED), (ex_set.title.get(lang), "bold"), "\n"
            )
            label.append(" " * (width + 2))
            label.append_text(self._progress(ex_set))
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
            options.append(Option(self.load_status or t("ex.no_sets"), disabled=True))
        return options

    def _progress(self, ex_set: ExerciseSet) -> Text:
        total, solved, seen, visited = len(ex_set.exercises), 0, 0, None
        if self.store is not None:
            progress = self.store.set_progress(ex_set.id, ex_set.ids)
            solved, seen = progress.solved, progress.done - progress.solved
            visited = progress.last_visited_at
        return draw.progress_line(total, solved, seen, visited)

    def highlighted_set(self) -> ExerciseSet | None:
        sets = self.sets
        if sets.highlighted is None or not sets.option_count:
            return None
        option_id = sets.get_option_at_index(sets.highlighted).id or ""
        return self.library.get(option_id[4:]) if option_id.startswith("set:") else None

    def highlight(self, set_id: str) -> None:
        try:
            self.sets.highlighted = self.sets.get_option_index(f"set:{set_id}")
        except Exception:  # the set vanished: keep the highlight
            pass

    def _show_summary(self) -> None:
        ex_set = self.highlighted_set()
        summary = self.query_one("#ex-summary", Static)
        summary.update(Prose(ex_set.summary.get(get_lang()), "italic") if ex_set else "")

    @on(OptionList.OptionHighlighted, "#ex-sets")
    def _highlighted(self) -> None:
        self._show_summary()

    @on(OptionList.OptionSelected, "#ex-sets")
    def _chosen(self, event: OptionList.OptionSelected) -> None:
        event.stop()
        option_id = event.option.id or ""
        try:
            if option_id.startswith("set:"):
                self.post_message(self.Chosen(option_id[4:]))
                return  # the keys held by OpenList's Enter go on once the set is open
            if option_id.startswith("broken:"):
                broken = self.library.broken[int(option_id[7:])]
                self.notify(t("ex.broken_fix", path=display_path(broken.path)), timeout=6)
        except Exception:
            self.app.release_keys()  # type: ignore[attr-defined]
            raise
        self.app.release_keys()  # type: ignore[attr-defined]


class ItemList(OpenList):
    """The exercises of one set; the letters act on the highlighted one or on the set."""

    BINDINGS = [
        Binding("w", "screen.redo", "ex.key.redo"),
        Binding("r", "screen.reset_one", "ex.key.reset_one"),
        Binding("x", "screen.reset_set", "ex.key.reset_set"),
    ]


class ItemsView(Vertical):
    """One set's exercises, each with its mark, number, prompt and tries."""

    @dataclass
    class Chosen(Message):
        index: int

    def __init__(self, **kwargs) -> None:
        super().__init__(**kwargs)
        self.ex_set: ExerciseSet | None = None
        self.statuses: dict[str, ExerciseStatus] = {}
        self.note: str | None = None  # a line above the list (why it is shown)

    def compose(self) -> ComposeResult:
        yield Static(id="ex-items-intro")
        yield ItemList(id="ex-items-list")

    @property
    def items(self) -> ItemList:
        return self.query_one(ItemList)

    def show(self, ex_set: ExerciseSet, statuses: dict[str, ExerciseStatus],
             note: str | None = None) -> None:  # fmt: skip
        self.ex_set, self.statuses, self.note = ex_set, statuses, note
        self.redraw()

    def relocalize(self) -> None:
        if self.ex_set is not None and self.display:
            self.redraw()

    def redraw(self) -> None:
        if self.ex_set is None:
            return
        lang = get_lang()
        intro: list[RenderableType] = [
            Text(t("ex.items_title", title=self.ex_set.title.get(lang)), "bold")
        ]
        if self.note:
            intro.append(Prose(self.note, "yellow"))
        intro.append(Prose(t("ex.items_intro"), "dim"))
        self.query_one("#ex-items-intro", Static).update(Group(*intro))
        items = self.items
        highlighted = items.highlighted
        width = max(self.app.size.width - 8, 30)  # inside the padding, border and scrollbar
        digits = len(str(len(self.ex_set.exercises)))
        options = [Option(draw.item_label(n, digits, exercise, self.statuses.get(exercise.id),
                                          width, lang), id=f"item:{n - 1}")
                   for n, exercise in enumerate(self.ex_set.exercises, start=1)]  # fmt: skip
        items.clear_options()
        items.add_options(options)
        if highlighted is not None and options:
            items.highlighted = min(highlighted, len(options) - 1)

    @on(OptionList.OptionSelected, "#ex-items-list")
    def _chosen(self, event: OptionList.OptionSelected) -> None:
        event.stop()
        option_id = event.option.id or ""
        if option_id.startswith("item:"):
            self.post_message(self.Chosen(int(option_id[5:])))
        else:
            self.app.release_keys()  # type: ignore[attr-defined]  # held by OpenList's Enter


class ExercisePane(Vertical):
    """One exercise as it is being answered."""

    def __init__(self, **kwargs) -> None:
        super().__init__(**kwargs)
        self.inst: Instance | None = None
        self.hints_shown = 0
        self.grade: Grade | None = None
        self.graded_answer: str | None = None  # the text that earned self.grade
        self.finished = False  # solved or revealed in this showing: Enter moves on

    def compose(self) -> ComposeResult:
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

    @property
    def answer(self) -> Input:
        return self.query_one("#ex-answer", Input)

    def begin(self, inst: Instance) -> None:
        """A fresh showing of an exercise: nothing typed, no hint, no grade."""
        self.inst = inst
        self.hints_shown = 0
        self.grade = self.graded_answer = None
        self.finished = False
        self.query_one(SelfCheck).offer(None)
        answer = self.answer
        answer.value = ""
        answer.placeholder = t(f"ex.ph.{inst.exercise.kind}")

    def graded(self, g: Grade, typed: str) -> None:
        """An answer was graded: finished when right; an uncertain written grade offers the
        self-check."""
        self.grade, self.graded_answer, self.finished = g, typed, g.correct
        self.query_one(SelfCheck).offer(g if g.kind == "text" else None)

    def revealed(self, g: Grade, typed: str) -> None:
        """The answer was shown (no credit): finished."""
        self.grade, self.graded_answer, self.finished = g, typed, True

    def is_repeat(self, typed: str) -> bool:
        """The very answer just graded, sent again (holding Enter must not store it 500 times)."""
        return (self.grade is not None and self.graded_answer is not None
                and self.grade.is_answer
                and typed.strip() == self.graded_answer.strip())  # fmt: skip

    def show_hint(self) -> None:
        self.hints_shown += 1

    def draw(self, head: Text, title: str, status: str) -> None:
        """The exercise, under ``head`` (the set and its marks), ``title`` ("Exercise 3 of 12")
        and ``status`` (its seed, solved, tries) on the body's border."""
        if self.inst is None:
            return
        lang = get_lang()
        inst = self.inst
        self.query_one("#ex-head", Static).update(head)
        body = self.query_one("#ex-body", VerticalScroll)
        body.border_title, body.border_subtitle = title, status
        self.query_one("#ex-prompt", Static).update(draw.prompt(inst, lang))
        self._part("#ex-choices", draw.choices(inst.exercise, lang))
        self._part("#ex-hints", draw.hints(inst, self.hints_shown, lang))
        feedback = draw.feedback(self.grade, inst, self.finished, lang) if self.grade else None
        self._part("#ex-feedback", feedback)
        self._part("#ex-explanation", draw.explanation(inst, lang) if self.finished else None)

    def _part(self, selector: str, content: RenderableType | None) -> None:
        widget = self.query_one(selector, Static)
        widget.update(content if content is not None else "")
        widget.set_class(content is not None, "-shown")

    def relocalize(self) -> None:
        if self.inst is not None:
            self.answer.placeholder = t(f"ex.ph.{self.inst.exercise.kind}")

    def scroll_to_feedback(self) -> None:
        body = self.query_one("#ex-body", VerticalScroll)
        self.call_after_refresh(body.scroll_end, animate=False)

    def scroll_to_top(self) -> None:
        self.query_one("#ex-body", VerticalScroll).scroll_home(animate=False)
