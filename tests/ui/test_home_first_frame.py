"""The home screen's first frame pays for the home screen alone, and quitting soon after does
not wait for what home loads in the background — except the store's opening, which may write.

Each test runs the app in a fresh process (what is imported, and what the process's end waits
for, are the process's own), headless, with a data directory of its own.
"""

import subprocess
import sys

# Imported by what home loads once its first frame is up (the course: the exercise library,
# the lessons, the progress store, numpy), never before: the first paint must not pay for them.
HEAVY = (
    "attn_tui.coursebook",
    "attn_tui.paths",
    "attn_tui.core.exercises.loader",
    "attn_tui.core.course.lessons",
    "attn_tui.core.progress",
    "numpy",
    "sqlite3",
    "tomllib",
)
# Imported when first used, which the home screen's first frame does not: the other areas'
# strings (the catalogue reads an area's module at its first key), the number formatting and
# its regular expressions (a usage error's), html (a saved figure's), pkgutil (a command's).
LATER = (
    "attn_tui.text.calc",
    "attn_tui.text.train",
    "attn_tui.text.lab",
    "attn_tui.text.ex",
    "attn_tui.core.format",
    "html",
    "pkgutil",
)


APP = """
import sys, threading
from pathlib import Path
from attn_tui.cli import parse
parse([])  # the way a bare `attn-tui` comes in
import attn_tui.app
from attn_tui.screens import home
class AttnApp(attn_tui.app.AttnApp):  # (a class made in `-c` code: its CSS named in full)
    CSS_PATH = str(Path(attn_tui.app.__file__).with_name("app.tcss"))
"""


def run(code: str, tmp_path, timeout: float = 120) -> str:
    done = subprocess.run(
        [sys.executable, "-c", code, str(tmp_path)],
        capture_output=True, text=True, timeout=timeout,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr[-3000:]
    return done.stdout.strip()


def test_nothing_heavy_is_imported_before_the_first_frame(tmp_path):
    """At the app's Ready (the first frame painted), none of the course's modules is imported,
    and the thread that reads the course has not started (it began before the first paint
    once, and took the interpreter from it)."""
    code = (
        APP
        + f"""
class Shown(AttnApp):
    def on_ready(self):
        early = [m for m in {HEAVY + LATER!r} if m in sys.modules]
        early += [t.name for t in threading.enumerate() if t.name == home.READ_THREAD]
        print(",".join(early))
        self.exit()
Shown(lang="en", data_dir=Path(sys.argv[1])).run(headless=True)
"""
    )
    assert run(code, tmp_path) == ""


def test_quitting_while_the_course_is_read_does_not_wait_for_it(tmp_path):
    """The course's reading never ends here; the app quits while it runs, and the process ends
    (with a thread worker it waited for the reading: the bound below would fail the test)."""
    code = (
        APP
        + """
from attn_tui import coursebook
never = threading.Event()
coursebook.read = lambda app: never.wait()
class Quits(AttnApp):
    def on_ready(self):
        self.set_interval(0.01, self.quit_once_reading)
    def quit_once_reading(self):
        if any(t.name == home.READ_THREAD for t in threading.enumerate()):
            print("reading")
            self.exit()
Quits(lang="en", data_dir=Path(sys.argv[1])).run(headless=True)
print("ended")
"""
    )
    assert run(code, tmp_path, timeout=60).splitlines() == ["reading", "ended"]


def test_quitting_while_the_store_opens_waits_for_it(tmp_path):
    """Opening the store may create or migrate it: the app's end waits until it is done."""
    code = (
        APP
        + """
from attn_tui import coursebook
opening = threading.Event()
real = coursebook.of
def of(app):
    opening.set()
    threading.Event().wait(0.5)  # long enough for the app to have quit meanwhile
    book = real(app)
    print("opened", book.store is not None, flush=True)
    return book
coursebook.of = of
class Quits(AttnApp):
    def on_ready(self):
        self.set_interval(0.01, self.quit_once_opening)
    def quit_once_opening(self):
        if opening.is_set():
            print("quitting", flush=True)
            self.exit()
Quits(lang="en", data_dir=Path(sys.argv[1])).run(headless=True)
print("ended")
"""
    )
    assert run(code, tmp_path).splitlines() == ["quitting", "opened True", "ended"]
    assert (tmp_path / "progress.db").is_file()


def test_the_other_areas_strings_are_read_while_home_is_on_show(tmp_path):
    """What the first frame left out is read in the background before an area opens: every
    area's strings, with the areas' modules (an area's first string would cost its opening
    its module of strings)."""
    code = (
        APP
        + f"""
import asyncio
class Waits(AttnApp):
    def on_ready(self):
        self.run_worker(self.report())
    async def report(self):
        while not self.prepared.is_set():
            await asyncio.sleep(0.02)
        print(",".join(m for m in {LATER[:4]!r} if m not in sys.modules))
        self.exit()
Waits(lang="en", data_dir=Path(sys.argv[1])).run(headless=True)
"""
    )
    assert run(code, tmp_path) == ""
