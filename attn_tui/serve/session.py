"""What one browser tab runs under ``attn-tui serve``: the tutor, for one named student.

    python -m attn_tui.serve.session --root DATA_DIR [--lang zh] [--student NAME] [--exercises DIR]

The server starts one such process per tab (textual-serve speaks to it over stdin/stdout).
Progress goes to the student's own folder, ``DATA_DIR/students/<folder>`` (see core/students.py);
the teacher's own sets in ``DATA_DIR/exercises`` are shown to everyone. Without ``--student``
(or with one that is not a usable name) the first screen asks, and no area opens before it is
answered, so nothing is ever written outside the student's folder.
"""

from __future__ import annotations

import argparse
import os
from collections.abc import Iterable
from pathlib import Path

from textual import events
from textual.drivers.web_driver import WebDriver

from attn_tui import app as app_module
from attn_tui import i18n
from attn_tui.app import AttnApp
from attn_tui.core.progress import ProgressStore
from attn_tui.core.students import BadName, display, student_dir

SERVE_CODE_ENV = "ATTN_TUI_SERVE_CODE"  # "1": code exercises on (set by serve --code)


STUDENT_BUDGET = 8 << 20  # bytes one student's progress may grow to on the teacher's disk (a
# term of daily use is well under 1 MB; answers are kept to what is graded, see core/progress.py)


class ServedApp(AttnApp):
    # Textual reads a relative CSS_PATH beside the module of the class that uses it.
    CSS_PATH = str(Path(app_module.__file__).with_name(AttnApp.CSS_PATH))
    # Off in a class unless the teacher turns them on (each check then runs in a child of
    # this session, with the sandbox's limits, in the student's own folder).
    CODE_EXERCISES = os.environ.get(SERVE_CODE_ENV) == "1"

    def __init__(
        self,
        root: Path,
        student: str | None = None,
        lang: str | None = None,
        extra_exercises: Iterable[Path] = (),
    ) -> None:
        root = Path(root)
        super().__init__(lang=lang, data_dir=None, extra_exercises=[*extra_exercises,
                                                                   root / "exercises"])  # fmt: skip
        self.root = root
        self.student: str | None = None
        self._given = student

    parked = False  # a session made before its tab arrived (parked.py), until it does

    @property
    def keeps_progress(self) -> bool:
        """No store is opened before the student is named (coursebook.of): it would be the
        server's own, shared by every unnamed tab."""
        return self.student is not None

    def on_mount(self) -> None:
        if self.parked:
            self.call_later(self._prepare)
        else:
            self.begin(self._given)

    async def _prepare(self) -> None:
        """A parked session's start (see parked.py)."""

    def begin(self, student: str | None) -> None:
        """The session's student: the one given, or else asked for on the first screen."""
        if not self.is_headless:  # a real tab's process (the pool's warm-up runs headless)
            if isinstance(self._driver, WebDriver):  # it draws on stdout; a terminal's on stderr
                errors_to_log(self.root)
            ProgressStore.budget = STUDENT_BUDGET  # every store it opens is this student's
        if student is not None and self.set_student(student):
            return
        self.ask_name()

    def on_descendant_focus(self, event: events.DescendantFocus) -> None:
        """A steady cursor: a blinking one redraws twice a second in every idle tab, about 1%
        of a core each, which a class of 30 pays for doing nothing."""
        if hasattr(event.widget, "cursor_blink"):
            event.widget.cursor_blink = False

    def ask_name(self) -> None:
        from attn_tui.screens.student import StudentScreen

        if not any(isinstance(s, StudentScreen) for s in self.screen_stack):
            self.push_screen(StudentScreen(), self._named)

    def _named(self, name: str | None) -> None:
        if name is None or not self.set_student(name):
            self.ask_name()

    def set_student(self, name: str) -> bool:
        """Point the progress store at this student's folder; False (and a message) if not."""
        try:
            folder = student_dir(self.root, name)
        except BadName as err:
            self.notify(err.message(i18n.t), severity="error")
            return False
        except OSError as err:
            self.notify(i18n.t("serve.name.no_folder", error=str(err)), severity="error")
            return False
        self.data_dir = folder
        self.student = display(name)
        from attn_tui.screens.home import HomeScreen

        try:
            home = self.get_screen_stack("home")
        except KeyError:  # not made yet: it loads the course for this student when it is
            home = []
        for screen in home:  # its course was loaded with no store
            if isinstance(screen, HomeScreen) and screen.is_attached:
                screen.reload_course()
        self.sub_title = self.student
        self.notify(i18n.t("serve.name.welcome", name=self.student), timeout=4)
        return True

    def switch_mode(self, mode: str):  # type: ignore[override]
        """No area opens before the student is named: its progress would have nowhere to go."""
        if self.student is None and mode != "home":
            self.ask_name()
            return super().switch_mode(self.current_mode)
        return super().switch_mode(mode)


LOG = Path("logs") / "sessions.log"  # below the data directory
MAX_LOG = 4 << 20  # then it is moved to sessions.log.1 (one older copy kept)


def errors_to_log(root: Path) -> Path | None:
    """From now on, what this session writes to stderr (a traceback, should it crash) goes to
    ``<root>/logs/sessions.log``, not back to the server, which would print it in the
    teacher's terminal. The log is owner-only, never followed through a link, and kept under
    MAX_LOG; None (stderr unchanged) when it cannot be opened."""
    import os

    path = Path(root) / LOG
    flags = os.O_WRONLY | os.O_APPEND | os.O_CREAT | getattr(os, "O_NOFOLLOW", 0)
    try:
        path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
        try:
            if path.stat().st_size > MAX_LOG:
                os.replace(path, path.with_name(path.name + ".1"))
        except FileNotFoundError:
            pass
        fd = os.open(path, flags | getattr(os, "O_CLOEXEC", 0), 0o600)
    except OSError:
        return None
    try:
        os.dup2(fd, 2)
    finally:
        os.close(fd)
    return path


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="attn-tui-session", description=__doc__)
    parser.add_argument("--root", type=Path, required=True, help="the data directory")
    parser.add_argument("--lang", choices=i18n.LANGS)
    parser.add_argument("--student", help="the student's name (else the first screen asks)")
    parser.add_argument("--exercises", type=Path, action="append", default=[])
    args = parser.parse_args(argv)
    lang = args.lang or i18n.default_lang()
    i18n.set_lang(lang)
    ServedApp(args.root, args.student, lang, args.exercises).run()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
