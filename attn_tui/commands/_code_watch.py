"""``attn-tui code watch``: rustlings' watch mode for attention.

It starts at the first exercise not passed, checks it once, then re-checks it on every save
of its file; when it passes, it says so and moves on to the next. Keys (a line each, when
standard input is a terminal): h a hint, s the solution (after an attempt), n skip to the
next exercise, q quit. A child for the learner's code is kept started ahead, so a save is
checked in the time the code itself takes plus a few milliseconds (benchmarks/bench_watch.py).
"""

from __future__ import annotations

import queue
import sys
import threading
import time
from pathlib import Path
from typing import Any

from attn_tui.core.errors import InputError
from attn_tui.watching import signature


class Watch:
    def __init__(self, lib: Any, folder: Path, store: Any, *, timeout: float | None = None,
                 out: Any = None, keys: Any = None) -> None:  # fmt: skip
        self.lib = lib
        self.folder = Path(folder)
        self.store = store
        self.timeout = timeout
        self.out = out or sys.stdout
        self.keys = keys if keys is not None else (sys.stdin if _is_tty(sys.stdin) else None)
        self.commands: queue.Queue[str] = queue.Queue()
        self.stop = threading.Event()
        self.current = None
        self.hints = 0
        self.checks = 0
        self.seen: tuple[int, int] | None = None  # the file as it was when last checked

    # -- printing
    def say(self, text: str, style: str = "") -> None:
        from attn_tui.core.format import visible

        self.console.print(visible(text), style=style or None, highlight=False)

    def announce(self) -> None:
        from attn_tui.i18n import get_lang, t

        ex = self.current
        n = self.lib.exercises.index(ex) + 1
        self.say(t("code.cli.now", n=n, total=len(self.lib.exercises),
                   title=ex.title.get(get_lang()), file=self.folder / ex.file), "bold")  # fmt: skip

    # -- the loop
    def run(self) -> int:
        from rich.console import Console

        from attn_tui.core.coding import progress, workspace
        from attn_tui.core.coding.sandbox import Sandbox
        from attn_tui.i18n import t
        from attn_tui.watching import WatchUnavailable, saves

        self.console = Console(file=self.out, highlight=False)
        workspace.init(self.folder, self.lib)
        self.current = progress.current(
            self.lib.exercises, progress.statuses(self.store, self.lib.exercises)
        )
        if self.current is None:
            self.say(t("code.cli.all_passed", total=len(self.lib.exercises)), "green")
            return 0
        self.hints = progress.status(self.store, self.current).hints
        self.say(t("code.cli.watch_start", folder=self.folder))
        if self.keys is not None:
            self.say(t("code.cli.watch_keys"), "dim")
            threading.Thread(target=self._read_keys, daemon=True, name="keys").start()
        if self.timeout is not None:
            threading.Timer(self.timeout, self.stop.set).start()
        self.announce()
        with Sandbox(warm=True, folder=self.folder) as sandbox:
            self.sandbox = sandbox
            self.check(self.folder / self.current.file)
            try:
                for saved in saves(self.folder, lambda: self.current and self.current.file,
                                   self.stop):  # fmt: skip
                    self._commands()
                    if self.current is None or self.stop.is_set():
                        break
                    file = self.folder / self.current.file
                    if saved is not None or signature(file) != self.seen:
                        self.check(file)
            except WatchUnavailable as err:
                raise InputError("code.cli.no_watch", error=str(err)) from None
            except KeyboardInterrupt:
                pass
        self.stop.set()
        self.say(t("code.cli.bye"), "dim")
        return 0

    def check(self, file: Path) -> None:
        from attn_tui.core.coding import progress
        from attn_tui.core.coding.engine import check_file
        from attn_tui.i18n import get_lang, t
        from attn_tui.render.code_report import render

        ex = self.current
        if not file.is_file():
            return
        started = time.monotonic()
        self.seen = signature(file)
        report = check_file(ex, file, sandbox=self.sandbox)
        self.checks += 1
        progress.record_check(self.store, ex, report, self.hints)
        self.say("")
        self.say(t("code.cli.checked", time=time.strftime("%H:%M:%S"), file=file.name,
                   seconds=f"{time.monotonic() - started:.2f}"), "dim")  # fmt: skip
        self.console.print(render(report, ex, file.name))
        if report.passed:
            self.say(
                t("code.explanation") + t("code.colon") + ex.explanation.get(get_lang()), "dim"
            )
            self.say(t("code.cli.moving_on"), "green")
            self.next()

    def next(self) -> None:
        from attn_tui.core.coding import progress
        from attn_tui.i18n import t

        done = progress.statuses(self.store, self.lib.exercises)
        order = self.lib.exercises
        after = order[order.index(self.current) + 1 :] + order[: order.index(self.current)]
        self.current = next((e for e in after if not done[e.id].passed), None)
        if self.current is None:
            self.say(t("code.cli.all_passed", total=len(order)), "bold green")
            self.stop.set()
            return
        self.hints = progress.status(self.store, self.current).hints
        self.announce()

    # -- keys
    def _read_keys(self) -> None:
        while not self.stop.is_set():
            try:
                line = self.keys.readline(256)
            except (OSError, ValueError):
                return
            if not line:
                return
            self.commands.put(line.strip().lower()[:1])

    def _commands(self) -> None:
        from attn_tui.core import files
        from attn_tui.core.coding import progress
        from attn_tui.core.coding.loader import SOURCE_LIMIT
        from attn_tui.i18n import get_lang, t

        while True:
            try:
                key = self.commands.get_nowait()
            except queue.Empty:
                return
            ex = self.current
            if ex is None:
                return
            if key == "q":
                self.stop.set()
            elif key == "n":
                self.next_anyway()
            elif key == "h":
                if not ex.hints:
                    self.say(t("code.no_hints"))
                elif self.hints >= len(ex.hints):
                    self.say(t("code.hints_done"), "dim")
                else:
                    self.hints += 1
                    self.say(
                        t(
                            "code.hint",
                            n=self.hints,
                            total=len(ex.hints),
                            text=ex.hints[self.hints - 1].get(get_lang()),
                        ),
                        "yellow",
                    )
            elif key == "s":
                status = progress.status(self.store, ex)
                if not status.may_see_solution:
                    self.say(t("code.solution_locked"), "yellow")
                else:
                    progress.record_solution(self.store, ex, self.hints)
                    self.say(t("code.solution_title", file=ex.file), "bold")
                    self.say(files.read_text(ex.solution, SOURCE_LIMIT))

    def next_anyway(self) -> None:
        order = self.lib.exercises
        i = order.index(self.current)
        self.current = order[(i + 1) % len(order)]
        self.hints = 0
        self.announce()


def _is_tty(stream: Any) -> bool:
    try:
        return stream is not None and stream.isatty()
    except (AttributeError, ValueError, OSError):
        return False


__all__ = ["Watch"]
