"""One lesson of the course: read → do → practise → check, each step kept the moment it is done.

The do-task opens its area (the calculator, the trainer or the lab) with the lesson's preset
and is checked from the state that area reaches (``course_state()``), polled while it is on
show and once more when the learner comes back; the check passes the lesson and opens the
next. What is typed and not yet submitted is kept as a draft, so quitting half-way loses
nothing.
"""

from __future__ import annotations

from typing import Any

from rich.console import Group
from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical, VerticalScroll
from textual.events import ScreenResume
from textual.widgets import ContentSwitcher, Input, Static

from attn_tui import coursebook
from attn_tui.core.course import clock, tasks
from attn_tui.core.course import path as P
from attn_tui.core.course.lessons import Lesson, Step
from attn_tui.core.exercises.generators import instance
from attn_tui.i18n import get_lang, t
from attn_tui.render.prose import Prose
from attn_tui.screens.base import TutorFooter, TutorScreen
from attn_tui.widgets.fields import LineInput
from attn_tui.widgets.item_card import ItemCard

POLL_S = 0.25  # how often an area's state is read while its do-task is open
DRAFT_S = 1.0  # a draft is written at most this often (and always on leaving)
MARK = {"read": "course.step.read", "do": "course.step.do", "practise": "course.step.practise",
        "check": "course.step.check", "code": "course.step.code"}  # fmt: skip


def area_state(screen: Any) -> Any:
    """What an area's screen shows, as the do-task reads it (None for another screen)."""
    getter = getattr(screen, "course_state", None)
    return getter() if callable(getter) else None


def open_area(app: Any, step: Step) -> Any:
    """The area's screen with the lesson's preset, pushed; returns it."""
    pre = dict(step.preset)
    if step.area == "calc":
        from attn_tui.screens.calculator import CalculatorScreen, Preset

        rows = lambda text: "\n".join(r.strip() for r in str(text).split(";"))  # noqa: E731
        screen = CalculatorScreen(Preset(
            pre.get("query", "1 0 1"), rows(pre.get("keys", "1 0 0; 0 1 0; 1 0 1; 1 1 0")),
            rows(pre.get("values", "")) if pre.get("values") else "",
            bool(pre.get("scale", True)), bool(pre.get("hard", False)),
            str(pre.get("temperature", "1")),
        ))  # fmt: skip
    elif step.area == "train":
        from attn_tui.screens.trainer import TrainerScreen

        screen = TrainerScreen()
        if hasattr(screen, "apply_preset"):
            screen.apply_preset(pre)
    else:
        from attn_tui.screens.lab import LabScreen

        screen = LabScreen()
        if hasattr(screen, "apply_preset"):
            screen.apply_preset(pre)
    app.push_screen(screen)
    return screen


class LessonScreen(TutorScreen):
    CSS_PATH = "lesson.tcss"
    HELP = (("course.lesson", "course.help.lesson"),)
    BINDINGS = [
        Binding("pagedown", "step(1)", "course.key.next_step"),
        Binding("pageup", "step(-1)", "course.key.prev_step"),
        Binding("f4", "open_area", "course.key.open_area"),
        Binding("f3", "hint", "course.key.hint"),
        Binding("f5", "next_item", "course.key.next_item"),
        Binding("enter", "enter", "course.key.go", priority=False, show=False),
    ]

    def __init__(self, lesson_id: str) -> None:
        super().__init__()
        self.lesson_id = lesson_id
        self.book = None
        self.lesson: Lesson | None = None
        self.record = None
        self.step: Step | None = None
        self.item_index = 0
        self.result: tasks.TaskResult | None = None
        self.task_hints = 0
        self.area: Any = None  # the area screen pushed for the do-task
        self.last_state: Any = None
        self._poll = None
        self._draft_dirty = False

    def compose(self) -> ComposeResult:
        with Vertical(id="lesson"):
            yield Static(id="lesson-head")
            yield Static(id="lesson-steps")
            with ContentSwitcher(initial="lesson-read", id="lesson-body"):
                with VerticalScroll(id="lesson-read"):
                    yield Static(id="read-text")
                with VerticalScroll(id="lesson-do"):
                    yield Static(id="do-task")
                    yield Static(id="do-status")
                    yield LineInput(id="do-ask", compact=True)
                yield ItemCard(id="lesson-item")
            yield Static(id="lesson-status")
        yield TutorFooter()

    def on_mount(self) -> None:
        super().on_mount()
        self.book = coursebook.of(self.app)  # loaded by home already (else it loads now)
        self.lesson = self.book.lesson(self.lesson_id)
        if self.lesson is None:
            self.app.pop_screen()
            return
        now = clock.now()
        self.record = P.start(self.lesson, self.book.records().get(self.lesson.id), now)
        self.goto(self.record.at_step, save=False)
        self.set_interval(DRAFT_S, self._flush_draft, name="lesson draft")

    # ---- steps ---------------------------------------------------------------------------
    def goto(self, step_id: str, save: bool = True) -> None:
        assert self.lesson is not None
        step = self.lesson.step(step_id) or self.lesson.steps[0]
        self.step = step
        self.record = P.goto(self.record, step.id, clock.now())
        if save:
            self.book.save_lesson(self.record)
        body = self.query_one(ContentSwitcher)
        if step.kind == "read":
            body.current = "lesson-read"
        elif step.kind == "code":
            body.current = "lesson-read"
        elif step.kind == "do":
            body.current = "lesson-do"
            ask = self.query_one("#do-ask", Input)
            ask.display = step.ask is not None
            with ask.prevent(Input.Changed):
                ask.value = str(self.record.draft.get(step.id, ""))
        else:
            body.current = "lesson-item"
            self.item_index = self._first_open_item(step)
            self._show_item()
        self.redraw()
        self._focus_step()

    def _focus_step(self) -> None:
        if self.step is None:
            return
        if self.step.kind == "do" and self.step.ask is not None:
            self.query_one("#do-ask", Input).focus()
        elif self.step.kind in ("practise", "check"):
            self.query_one(ItemCard).focus_answer()
        else:
            self.query_one("#lesson-read").focus()

    def action_step(self, delta: int) -> None:
        ids = [s.id for s in self.lesson.steps]
        i = ids.index(self.step.id) + delta
        if 0 <= i < len(ids):
            if delta > 0 and self.step.kind == "read":
                self._done(self.step)
            self.goto(ids[i])

    def action_enter(self) -> None:
        if self.step is not None and self.step.kind == "read":
            self.action_step(1)
        elif self.step is not None and self.step.kind == "do" and self.step.ask is None:
            self.action_open_area()

    def _done(self, step: Step) -> None:
        if step.id not in self.record.done:
            self.record = P.mark_done(self.lesson, self.record, step.id, clock.now())
            self.record = P.goto(self.record, step.id, clock.now())
            self.book.save_lesson(self.record)

    # ---- the do-task ---------------------------------------------------------------------
    def _code_passed(self) -> list[str]:
        from attn_tui.core.coding import progress as code_progress

        store = self.book.store
        return [i for i in self.step.items if code_progress.passed(store, i)]

    def _open_code(self) -> None:
        """The code area, on the first code exercise of the step not passed yet."""
        from attn_tui.screens.code import CodeScreen

        passed = self._code_passed()
        todo = next((i for i in self.step.items if i not in passed), self.step.items[0])
        screen = CodeScreen()
        self.area = screen
        self.app.push_screen(screen)
        self.app.call_after_refresh(screen.open_exercise, todo)

    def action_open_area(self) -> None:
        if self.step is not None and self.step.kind == "code":
            self._open_code()
            return
        if self.step is None or self.step.kind != "do":
            return
        self.area = open_area(self.app, self.step)
        self.app.notify(t("course.do.opened", task=self.step.task.get(get_lang())), timeout=6)
        self._poll = self.app.set_interval(POLL_S, self._poll_area, name="do-task")

    def _poll_area(self) -> None:
        if self.area is None or self.area not in self.app.screen_stack:
            return
        try:
            state = area_state(self.area)
        except Exception:
            return
        if state is None:
            return
        self.last_state = state
        if self.step is not None and self.step.ask is None:
            was_done = self.result is not None and self.result.done
            self._check(None)
            if self.result.done and not was_done:
                self.app.notify(t("course.do.done_back"), timeout=6)

    def on_screen_resume(self, event: ScreenResume) -> None:
        super().on_screen_resume(event)
        if self._poll is not None:
            self._poll.stop()
            self._poll = None
        if self.area is not None and self.step is not None and self.step.kind == "code":
            self.area = None
            if len(self._code_passed()) >= self.step.need:
                self._done(self.step)
            self.redraw()
        if self.area is not None:
            self.area = None
            if self.step is not None and self.step.kind == "do":
                self._check(self.query_one("#do-ask", Input).value or None)
                self.redraw()
        self._focus_step()

    def _check(self, typed: str | None) -> None:
        step = self.step
        state = self.last_state
        self.result = tasks.check(step.check, state, step.params, typed)
        if self.result.done:
            self._done(step)
        self.redraw()

    @on(Input.Submitted, "#do-ask")
    def _asked(self, event: Input.Submitted) -> None:
        event.stop()
        if self.last_state is None:
            self.result = tasks.TaskResult(False, f"open_{self.step.area}")
            self.redraw()
            return
        self._check(event.value)

    @on(Input.Changed, "#do-ask")
    def _ask_typed(self, event: Input.Changed) -> None:
        self.record = P.keep_draft(self.record, self.step.id, event.value, clock.now())
        self._draft_dirty = True

    def action_hint(self) -> None:
        if self.step is None:
            return
        if self.step.kind == "do":
            if self.task_hints < len(self.step.hints):
                self.task_hints += 1
                self.redraw()
        elif self.step.kind in ("practise", "check"):
            self.query_one(ItemCard).hint()

    # ---- practise and check --------------------------------------------------------------
    def _first_open_item(self, step: Step) -> int:
        if step.kind == "practise":
            solved = self.book.solved()
            return next((i for i, k in enumerate(step.items) if k not in solved), 0)
        rnd = P.check_round(self.record, step)
        if rnd.complete(step):
            return 0
        return next((i for i, k in enumerate(step.items) if k not in rnd.answers), 0)

    def _show_item(self) -> None:
        step = self.step
        key = step.items[self.item_index]
        ex = self.book.item(key)
        card = self.query_one(ItemCard)
        if ex is None:
            card.show(None)
            return
        inst = instance(ex)  # a generated item draws fresh numbers each time it is shown
        heading = t("course.item.heading", n=self.item_index + 1, total=len(step.items))
        card.show(inst, heading, str(self.record.draft.get(f"{step.id}:{key}", "")),
                  once=step.kind == "check")  # fmt: skip

    def action_next_item(self) -> None:
        if self.step is None or self.step.kind not in ("practise", "check"):
            return
        self.item_index = (self.item_index + 1) % len(self.step.items)
        self._show_item()
        self.redraw()
        self.query_one(ItemCard).focus_answer()

    @on(ItemCard.Next)
    def _item_next(self, event: ItemCard.Next) -> None:
        step = self.step
        if step.kind == "check" and self.record.passed:
            self.action_next_lesson()
            return
        if step.kind == "practise" and step.id in self.record.done:
            self.goto(P.next_step(self.lesson, step.id).id if P.next_step(self.lesson, step.id)
                      else step.id)  # fmt: skip
            return
        if step.kind == "check":
            rnd = P.check_round(self.record, step)
            left = [i for i, k in enumerate(step.items) if k not in rnd.answers]
            self.item_index = left[0] if left and not rnd.complete(step) else 0
            self._show_item()
            self.redraw()
            self.query_one(ItemCard).focus_answer()
            return
        self.action_next_item()

    def action_next_lesson(self) -> None:
        """The path's next: the lesson this check opened (or home when all are passed)."""
        nxt = self.book.status().next
        if nxt is None:
            self.app.pop_screen()
        else:
            self.app.switch_screen(LessonScreen(nxt.lesson.id))

    @on(ItemCard.Typed)
    def _item_typed(self, event: ItemCard.Typed) -> None:
        key = self.step.items[self.item_index]
        self.record = P.keep_draft(self.record, f"{self.step.id}:{key}", event.text, clock.now())
        self._draft_dirty = True

    @on(ItemCard.Answered)
    def _answered(self, event: ItemCard.Answered) -> None:
        step = self.step
        key = step.items[self.item_index]
        self.book.record(event.inst, event.answer, event.grade, event.hints, revealed=False)
        self.record = P.keep_draft(self.record, f"{step.id}:{key}", None, clock.now())
        if step.kind == "practise":
            if P.practised(step, self.book.solved()) >= step.need:
                self._done(step)
        else:
            passed_before = self.record.passed
            self.record = P.answer_check(self.lesson, self.record, step, key,
                                         event.grade.correct, clock.now())  # fmt: skip
            self.record = P.goto(self.record, step.id, clock.now())
            self.book.save_lesson(self.record)
            if self.record.passed and not passed_before:
                self.app.notify(t("course.check.passed_note"), timeout=6)
        self.book.save_lesson(self.record)
        self.redraw()

    # ---- drawing -------------------------------------------------------------------------
    def redraw(self) -> None:
        if self.lesson is None or self.step is None:
            return
        lang = get_lang()
        status = self.book.status()
        me = status.get(self.lesson.id)
        head = Text.assemble(
            (t("course.lesson.head", n=me.number, total=len(status.lessons)), "bold"),
            " · ", (self.lesson.title.get(lang), "bold"),
        )  # fmt: skip
        self.query_one("#lesson-head", Static).update(head)
        tabs = Text()
        for n, s in enumerate(self.lesson.steps, 1):
            mark = "✓" if s.id in self.record.done else "·"
            label = f" {n} {t(MARK.get(s.kind, 'course.step.read'))} {mark} "
            tabs.append(label, style="reverse" if s.id == self.step.id else "")
            tabs.append(" ")
        self.query_one("#lesson-steps", Static).update(tabs)
        step = self.step
        if step.kind == "read":
            self.query_one("#read-text", Static).update(Prose(step.text.get(lang)))
            self._status(t("course.read.next"))
        elif step.kind == "code":
            passed = self._code_passed()
            lines = [Prose(step.text.get(lang))] if step.text else []
            for item in step.items:
                lines.append(Text(f"{'✓' if item in passed else '·'} {item}"))
            self.query_one("#read-text", Static).update(Group(*lines))
            key = "course.code.done" if step.id in self.record.done else "course.code.status"
            self._status(t(key, passed=len(passed), total=len(step.items), need=step.need))
        elif step.kind == "do":
            parts: list[Any] = [Prose(step.task.get(lang))]
            if step.ask is not None:
                parts.append(Text(""))
                parts.append(Prose(step.ask.get(lang), style="bold"))
            for n, hint in enumerate(step.hints[: self.task_hints], 1):
                parts.append(Prose(t("ex.hint_n", n=n, total=len(step.hints),
                                     text=hint.get(lang)), style="italic"))  # fmt: skip
            self.query_one("#do-task", Static).update(Group(*parts))
            done = step.id in self.record.done
            lines: list[Any] = []
            if self.result is not None and not self.result.done and not done:
                lines.append(Prose(t(self.result.key, **self.result.params)))
            if done:
                lines.append(Text(t("course.task.done"), style="bold green"))
                if step.done is not None:
                    lines.append(Prose(step.done.get(lang)))
            self.query_one("#do-status", Static).update(Group(*lines))
            area = t(f"course.area.{step.area}")
            self._status(t("course.do.keys", area=area) if not done else t("course.do.next"))
        elif step.kind == "practise":
            right = P.practised(step, self.book.solved())
            key = (
                "course.practise.done" if step.id in self.record.done else "course.practise.status"
            )
            self._status(t(key, right=right, need=step.need, total=len(step.items)))
        else:
            rnd = P.check_round(self.record, step)
            if self.record.passed:
                nxt = status.next
                self._status(t("course.check.passed", next=nxt.number) if nxt
                             else t("course.check.all_passed"))  # fmt: skip
            elif rnd.complete(step):
                self._status(t("course.check.failed", right=rnd.right(), need=step.need,
                               total=len(step.items)))  # fmt: skip
            else:
                answered, right = len(rnd.answers), rnd.right()
                self._status(t("course.check.status", answered=answered, total=len(step.items),
                               right=right, need=step.need))  # fmt: skip

    def _status(self, text: str) -> None:
        self.query_one("#lesson-status", Static).update(Prose(text, style="dim"))

    def relocalize(self) -> None:
        if self.step is not None and self.step.kind in ("practise", "check"):
            self.query_one(ItemCard).redraw()
        self.redraw()

    # ---- keeping what was typed ----------------------------------------------------------
    def _flush_draft(self) -> None:
        if self._draft_dirty and self.record is not None:
            self._draft_dirty = False
            self.book.save_lesson(self.record)

    def on_unmount(self) -> None:
        if self._poll is not None:
            self._poll.stop()
        self._flush_draft()
