"""Build it yourself: the code exercises, checked on every save.

The list of exercises on the left (✓ passed, ✗ tried); on the right the task, the hints
asked for, and the last check's report. The learner writes in the workspace file, in their
own editor (ctrl+e suspends the app and runs $VISUAL or $EDITOR) or in the editor inside the
app (e: Textual's TextArea, imported only then). F5 checks now; F8 turns watch mode on: every
save of the file re-checks it, and when it passes the next exercise opens. Every check runs
the learner's code in a child process with limits (``attn_tui.core.coding.sandbox``); the
watch keeps one started ahead so a save is checked in the code's own time plus milliseconds.
"""

from __future__ import annotations

import os
import shlex
import subprocess
import threading
from pathlib import Path

from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, VerticalScroll
from textual.widgets import OptionList

from attn_tui import paths
from attn_tui.core.coding import progress, workspace
from attn_tui.core.coding.engine import check_file
from attn_tui.core.coding.model import CodeExercise, CodeLibrary, Report
from attn_tui.core.coding.sandbox import Sandbox
from attn_tui.core.progress import Guarded, ProgressStore, StoreError
from attn_tui.i18n import describe, get_lang, t
from attn_tui.screens.base import TutorFooter, TutorScreen
from attn_tui.widgets.code_panels import ExerciseList, HintsPanel, ReportPanel, TaskPanel
from attn_tui.widgets.localized import tr

WORKSPACE_ENV = "ATTN_TUI_CODE_DIR"  # the serve session sets it to the student's own folder


class CodeScreen(TutorScreen):
    CSS_PATH = "code.tcss"
    HELP = (("code.list", "code.help.list"), ("code.task", "code.help.task"),
            ("code.result", "code.help.result"))  # fmt: skip
    BINDINGS = [
        Binding("f5", "check", "code.key.check"),
        Binding("f6", "hint", "code.key.hint"),
        Binding("f7", "solution", "code.key.solution"),
        Binding("f8", "watch", "code.key.watch"),
        Binding("e", "edit", "code.key.edit"),
        Binding("ctrl+e", "external", "code.key.editor", show=False),
    ]

    def __init__(self) -> None:
        super().__init__()
        self.library = CodeLibrary()
        self.store: Guarded | None = None
        self.folder = Path(".")
        self.current: CodeExercise | None = None
        self.report: Report | None = None
        self.hints_shown = 0
        self.checking = False
        self.checks_done = 0  # how many reports arrived (the watch benchmark waits on it)
        self._stop: threading.Event | None = None  # set: the watch ends
        self._sandbox: Sandbox | None = None
        self._lock = threading.Lock()

    # ---- loading --------------------------------------------------------------------------
    def _open(self) -> None:
        data = paths.data_dir(self.app.data_dir)  # type: ignore[attr-defined]
        self.library = paths.load_code(self.app.extra_exercises, data)  # type: ignore[attr-defined]
        given = os.environ.get(WORKSPACE_ENV)
        self.folder = Path(given) if given else workspace.default_folder(data)
        try:
            self.store = Guarded(ProgressStore.open(data), self._store_failed)
        except StoreError as err:
            self.store = Guarded(None)
            self.notify(t("ex.store_unusable", error=describe(err)), severity="warning")

    def _store_failed(self, err: StoreError, writing: bool) -> None:
        if writing:
            self.notify(t("ex.store_unusable", error=describe(err)), severity="error")

    def compose(self) -> ComposeResult:
        self._open()
        with Horizontal(id="code-body"):
            listing = ExerciseList(id="code-list")
            tr(listing, "code.list", "border_title")
            yield listing
            with VerticalScroll(id="code-main"):
                yield TaskPanel(id="code-task")
                yield HintsPanel(id="code-hints")
                yield ReportPanel(id="code-report")
        yield TutorFooter()

    def on_mount(self) -> None:
        super().on_mount()
        done = self._statuses()
        self.query_one(ExerciseList).show(self.library.exercises, done)
        first = progress.current(self.library.exercises, done) or next(
            iter(self.library.exercises), None)  # fmt: skip
        if first is not None:
            self.open_exercise(first.id)
        self.query_one(ExerciseList).focus()

    def on_unmount(self) -> None:
        self.stop_watch()
        if self.store is not None:
            self.store.close()

    def _statuses(self) -> dict[str, progress.CodeStatus]:
        return progress.statuses(self.store, self.library.exercises)

    # ---- showing --------------------------------------------------------------------------
    def open_exercise(self, exercise_id: str, folder: Path | None = None) -> None:
        """Show one exercise (its file made from the starter if missing)."""
        ex = self.library.get(exercise_id)
        if ex is None:
            return
        if folder is not None:
            self.folder = Path(folder)
        self.current, self.report = ex, None
        self.hints_shown = progress.status(self.store, ex).hints
        try:
            workspace.ensure_file(self.folder, ex)
        except OSError as err:
            self.notify(t("code.cannot_make", path=str(self.folder), error=err.strerror or ""),
                        severity="error")  # fmt: skip
        listing = self.query_one(ExerciseList)
        index = self.library.exercises.index(ex)
        if listing.highlighted != index:
            listing.highlighted = index
        self.redraw()

    def redraw(self) -> None:
        ex = self.current
        if ex is None:
            return
        status = progress.status(self.store, ex)
        n = self.library.exercises.index(ex) + 1
        self.query_one(TaskPanel).show(ex, workspace.file_for(self.folder, ex), n,
                                       len(self.library.exercises), status)  # fmt: skip
        self.query_one(HintsPanel).show(ex, self.hints_shown)
        self.query_one(ReportPanel).show(self.report, ex, checking=self.checking,
                                         watching=self.watching)  # fmt: skip

    def relocalize(self) -> None:
        self.query_one(ExerciseList).show(self.library.exercises, self._statuses())
        self.redraw()

    @on(OptionList.OptionSelected, "#code-list")
    def _chosen(self, event: OptionList.OptionSelected) -> None:
        if event.option.id is not None:
            self.open_exercise(event.option.id)

    # ---- checking -------------------------------------------------------------------------
    @property
    def watching(self) -> bool:
        return self._stop is not None and not self._stop.is_set()

    def action_check(self) -> None:
        if self.current is not None:
            self.checking = True
            self.redraw()
            self._check_in_thread(self.current)

    @work(thread=True, exclusive=True, group="code-check", exit_on_error=False)
    def _check_in_thread(self, ex: CodeExercise) -> None:
        self.app.call_from_thread(self.show_report, ex, self._check(ex))

    def _check(self, ex: CodeExercise) -> Report:
        """Run one check (off the UI thread): the learner's code in the sandbox."""
        file = workspace.file_for(self.folder, ex)
        with self._lock:
            sandbox = self._sandbox
        if sandbox is None:
            with Sandbox() as once:
                return check_file(ex, file, sandbox=once)
        return check_file(ex, file, sandbox=sandbox)

    def show_report(self, ex: CodeExercise, report: Report) -> None:
        self.checking = False
        self.checks_done += 1
        progress.record_check(self.store, ex, report, self.hints_shown)
        if ex is not self.current:
            return
        self.report = report
        self.query_one(ExerciseList).show(self.library.exercises, self._statuses())
        self.redraw()
        self.call_after_refresh(self._report_in_view)
        if report.passed and self.watching:
            later = self._next_not_passed(ex)
            if later is not None:
                self.notify(f"{ex.title.get(get_lang())}: {t('code.passed', total=report.total)}"
                            f"\n{t('code.cli.moving_on')}", timeout=4)  # fmt: skip
                self.open_exercise(later.id)

    def _next_not_passed(self, ex: CodeExercise) -> CodeExercise | None:
        """The next exercise after ``ex`` not passed yet, in order, going round once."""
        order = self.library.exercises
        i = order.index(ex)
        done = self._statuses()
        return next((e for e in order[i + 1 :] + order[:i] if not done[e.id].passed), None)

    def _report_in_view(self) -> None:
        """The report's first line at the top: the task is one scroll up (it was read)."""
        self.query_one("#code-main", VerticalScroll).scroll_to_widget(
            self.query_one(ReportPanel), animate=False, top=True)  # fmt: skip

    # ---- watch mode -----------------------------------------------------------------------
    def action_watch(self) -> None:
        if self.watching:
            self.stop_watch()
        else:
            self.start_watch()
        self.redraw()

    def start_watch(self) -> None:
        self._stop = threading.Event()
        with self._lock:
            self._sandbox = Sandbox(warm=True, folder=self.folder)
        self._watch(self._stop)

    def stop_watch(self) -> None:
        if self._stop is not None:
            self._stop.set()
        with self._lock:
            sandbox, self._sandbox = self._sandbox, None
        if sandbox is not None:
            sandbox.close()

    @work(thread=True, group="code-watch", exit_on_error=False)
    def _watch(self, stop: threading.Event) -> None:
        from attn_tui.watching import WatchUnavailable, saves, signature

        seen: dict[str, tuple[int, int] | None] = {}
        try:
            for saved in saves(self.folder, lambda: self.current and self.current.file, stop):
                ex = self.current
                if stop.is_set() or ex is None:
                    break
                file = workspace.file_for(self.folder, ex)
                now = signature(file)
                if saved is None and seen.setdefault(ex.id, now) == now:
                    continue
                seen[ex.id] = now
                self.app.call_from_thread(self._mark_checking)
                self.app.call_from_thread(self.show_report, ex, self._check(ex))
        except WatchUnavailable as err:
            self.app.call_from_thread(self.notify, t("code.watch_unavailable", error=str(err)),
                                      severity="error")  # fmt: skip
            stop.set()

    def _mark_checking(self) -> None:
        self.checking = True
        self.redraw()

    # ---- hints and the solution -----------------------------------------------------------
    def action_hint(self) -> None:
        ex = self.current
        if ex is None:
            return
        if not ex.hints:
            self.notify(t("code.no_hints"))
        elif self.hints_shown >= len(ex.hints):
            self.notify(t("code.hints_done"))
        else:
            self.hints_shown += 1
            self.redraw()

    def action_solution(self) -> None:
        ex = self.current
        if ex is None:
            return
        status = progress.status(self.store, ex)
        if not status.may_see_solution:
            self.notify(t("code.solution_locked"), severity="warning", timeout=5)
            return
        from attn_tui.screens.code_editor import SourceScreen

        progress.record_solution(self.store, ex, self.hints_shown)
        self.app.push_screen(SourceScreen(ex))

    # ---- editing --------------------------------------------------------------------------
    def action_edit(self) -> None:
        if self.current is None:
            return
        from attn_tui.screens.code_editor import EditorScreen

        file = workspace.ensure_file(self.folder, self.current)

        def saved(changed: bool | None) -> None:
            if changed and not self.watching:
                self.action_check()

        self.app.push_screen(EditorScreen(file), saved)

    def action_external(self) -> None:
        if self.current is None:
            return
        file = workspace.ensure_file(self.folder, self.current)
        command = os.environ.get("VISUAL") or os.environ.get("EDITOR") or "vi"
        try:
            argv = shlex.split(command) + [str(file)]
            with self.app.suspend():
                subprocess.run(argv, check=False)
        except Exception as err:  # no such editor, or a driver that cannot suspend (a browser)
            self.notify(t("code.editor_failed", editor=command, error=str(err)), severity="error")
            return
        if not self.watching:
            self.action_check()


__all__ = ["CodeScreen", "WORKSPACE_ENV"]
