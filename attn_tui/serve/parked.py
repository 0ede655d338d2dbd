"""A session made before its student arrives: the tutor started, its first screen and the
calculator laid out, waiting for a browser tab (see pool.py).

A fork of the warm pool still has to start the app: build the home screen, apply the CSS,
lay out and draw it, and the same again for the calculator when the student opens it. That is
most of a session's CPU, and when a class arrives at once it is what makes the last student
wait. So the pool keeps a few sessions *parked*: each is a fork that has already done all of
that, with nowhere to draw yet. :class:`ParkedDriver` is textual-serve's own ``WebDriver``
with its output held back until a tab arrives; nothing it draws before then is kept, since
the tab is shown the whole screen at once on arrival.

When the pool hands a parked session a tab, it sends the tab's stdin, stdout and stderr over
the session's own socket (``SCM_RIGHTS``), with the student's name and the terminal size. The
session takes the descriptors as its 0, 1 and 2, says ``__GANGLION__`` (textual-serve waits for
it), switches the browser's terminal on as ``WebDriver`` does when it starts, starts reading
input, and only then learns who its student is, exactly as a session started for that
student would (:meth:`ServedApp.begin`). Before that moment it has no student and no data
folder: it can neither read nor write anyone's progress.
"""

from __future__ import annotations

import asyncio
import json
import os
import signal
import socket
from pathlib import Path
from typing import Any

from textual import events
from textual.app import App
from textual.drivers.web_driver import WebDriver
from textual.geometry import Size

from attn_tui.compat import InputReader
from attn_tui.serve.session import ServedApp

MAX_MESSAGE = 4096  # a tab's request: its student's name and the terminal size
SETTLE_S = 0.1  # a screen just switched to is laid out and drawn within this
SIZES = {"COLUMNS": (10, 500), "ROWS": (5, 200)}  # as server.WIDTH, HEIGHT


def tab_settings(request: dict) -> tuple[str | None, dict[str, str]]:
    """A tab's request → (its student's name or None, its terminal size as COLUMNS/ROWS)."""
    student = request.get("student")
    if not isinstance(student, str) or len(student) > 400:
        student = None
    env = request.get("env")
    size: dict[str, str] = {}
    for key, (low, high) in SIZES.items():
        try:
            value = int(env.get(key, "")) if isinstance(env, dict) else None
        except (TypeError, ValueError):
            value = None
        if value is not None:
            size[key] = str(min(max(value, low), high))
    return student, size


class ParkedDriver(WebDriver):
    """``WebDriver``, silent until :meth:`attach` gives it a tab to speak to."""

    def __init__(self, app: App[Any], **kwargs: Any) -> None:
        super().__init__(app, **kwargs)
        self.attached = False

    def write(self, data: str) -> None:
        if self.attached:
            super().write(data)

    def write_meta(self, data: dict[str, object]) -> None:
        if self.attached:
            super().write_meta(data)

    def write_binary_encoded(self, data: tuple[str | bytes, ...]) -> None:
        if self.attached:
            super().write_binary_encoded(data)

    def start_application_mode(self) -> None:
        """What ``WebDriver`` does at start, less everything that speaks to the tab."""
        loop = asyncio.get_running_loop()
        for sig in (signal.SIGINT, signal.SIGTERM):  # end the app, as WebDriver does
            loop.add_signal_handler(sig, self._app.exit)
        size = Size(80, 24) if self._size is None else Size(*self._size)
        self._app.post_message(events.Resize(size, size))

    def attach(self, size: tuple[int, int] | None) -> None:
        """Descriptors 0, 1 and 2 are the tab's now: start speaking to it, as ``WebDriver``
        does in ``start_application_mode``, and show it the whole screen."""
        self.attached = True
        self._input_reader._selector.close()  # it watched the parked session's empty pipe
        self._input_reader = InputReader()  # on the tab's stdin
        self._write(b"__GANGLION__\n")
        self.write("\x1b[?1049h")  # alternate screen
        self._enable_mouse_support()
        self.write("\x1b[?25l")  # hide the cursor
        self.write("\033[?1003h")
        if size is not None and size != self._size:
            self._size = size
            self._app.post_message(events.Resize(Size(*size), Size(*size)))
        self._request_terminal_sync_mode_support()
        self._enable_bracketed_paste()
        self._key_thread.start()
        self._app.post_message(events.AppBlur())  # until the browser says "focus"
        self._app.screen.refresh()  # everything: nothing drawn before now reached the tab

    def stop_application_mode(self) -> None:
        self.exit_event.set()
        self._input_reader.close()
        if self.attached:
            self.write_meta({"type": "exit"})


class ParkedApp(ServedApp):
    """The tutor for a student not yet known, waiting on ``park`` for their tab."""

    def __init__(
        self, root: Path, lang: str | None, extra_exercises: Any, park: socket.socket
    ) -> None:
        super().__init__(root, None, lang, extra_exercises)
        self.driver_class = ParkedDriver
        self.parked = True
        self._park = park

    async def _prepare(self) -> None:
        """Lay out what a student sees first (the home screen, then the calculator, its first
        area), then say so to the pool and wait for a tab."""
        try:
            for mode in ("calc", "home"):
                await App.switch_mode(self, mode)  # no student yet: ServedApp would refuse
                await asyncio.sleep(SETTLE_S)  # laid out and drawn (to nowhere)
                # Textual restyles a screen on every switch to it until a CSS refresh finds it
                # mounted and current (a switch's own refresh comes before it is mounted):
                # done here, the student's first switch to the calculator skips restyling all.
                self.refresh_css(animate=False)
        except Exception:  # a warm-up is an optimisation: the session works without it
            pass
        asyncio.get_running_loop().add_reader(self._park.fileno(), self._arrive)
        try:
            self._park.send(b"ready")
        except OSError:  # the pool has already sent a tab and closed its end: _arrive reads it
            pass

    def _arrive(self) -> None:
        """The pool sent a tab (or closed the socket: it is gone, and so is this session)."""
        asyncio.get_running_loop().remove_reader(self._park.fileno())
        try:
            data, fds, _, _ = socket.recv_fds(self._park, MAX_MESSAGE, 3)
            request = json.loads(data.decode("utf-8")) if data else None
        except (OSError, ValueError):
            data, fds, request = b"", [], None
        self._park.close()
        if len(fds) != 3 or not isinstance(request, dict):
            for fd in fds:
                os.close(fd)
            self.exit()
            return
        for target, fd in enumerate(fds):
            os.dup2(fd, target)
            os.close(fd)
        student, size = tab_settings(request)
        os.environ.update(size)
        columns, rows = size.get("COLUMNS"), size.get("ROWS")
        self.parked = False
        assert isinstance(self._driver, ParkedDriver)
        self._driver.attach((int(columns), int(rows)) if columns and rows else None)
        self.begin(student)
