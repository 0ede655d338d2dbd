"""The code area, driven as a learner does: open it from home, check the starter, write a
wrong softmax and read the mistake, take a hint, open the solution only after an attempt,
fix it in the editor inside the app, and watch a save move on to the next exercise."""

from __future__ import annotations

import asyncio
import shutil
import time
from pathlib import Path

import pytest

from attn_tui.app import AttnApp

from .conftest import shown

SOLUTIONS = Path(__file__).resolve().parents[2] / "exercises" / "code" / "solutions"
UNSTABLE = (
    "import numpy as np\n\n\ndef softmax(x):\n    e = np.exp(x)\n"
    "    return e / e.sum(axis=-1, keepdims=True)\n"
)


async def open_code(pilot, folder: Path, exercise: str = "softmax"):
    app = pilot.app
    app.switch_mode("code")
    await pilot.pause()
    screen = app.screen
    screen.open_exercise(exercise, folder=folder)
    await pilot.pause()
    return screen


async def checked(pilot, screen, before: int, timeout: float = 30.0) -> None:
    """Wait (bounded) for a report to arrive after ``before`` had."""
    deadline = time.monotonic() + timeout
    while screen.checks_done <= before:
        assert time.monotonic() < deadline, "no report"
        await asyncio.sleep(0.02)
    await pilot.pause()


def report_text(screen, width: int = 90) -> str:
    return shown(screen.query_one("#code-report"), width)


async def test_the_code_area_is_on_home_and_lists_every_exercise(tmp_path):
    app = AttnApp(lang="en")
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("end", "enter")
        await pilot.pause()
        assert app.current_mode == "code"
        listing = app.screen.query_one("#code-list")
        assert listing.option_count == 15
        assert app.screen.current.id == "scores"  # the first not passed


async def test_a_wrong_softmax_is_diagnosed_then_a_fix_passes(tmp_path):
    app = AttnApp(lang="en")
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await open_code(pilot, tmp_path)
        before = screen.checks_done
        await pilot.press("f5")
        await checked(pilot, screen, before)
        assert "still the starter" in report_text(screen)
        await pilot.press("f7")  # the untouched starter is no attempt: still locked
        await pilot.pause()
        assert not isinstance(app.screen, __import__("textual").screen.ModalScreen)
        (tmp_path / "03_softmax.py").write_text(UNSTABLE)
        before = screen.checks_done
        await pilot.press("f5")
        await checked(pilot, screen, before)
        text = report_text(screen)
        assert "Case 10 of 14: large scores" in text
        assert "overflows for scores ≥ 710" in text and "nan*" in text
        await pilot.press("f6")
        await pilot.pause()
        assert "Hint 1 of 3" in shown(screen.query_one("#code-hints"), 90)
        await pilot.press("f7")  # after an attempt the solution opens
        await pilot.pause()
        from attn_tui.screens.code_editor import SourceScreen

        assert isinstance(app.screen, SourceScreen)
        await pilot.press("escape")
        await pilot.pause()
        shutil.copy(SOLUTIONS / "03_softmax.py", tmp_path / "03_softmax.py")
        before = screen.checks_done
        await pilot.press("f5")
        await checked(pilot, screen, before)
        assert "All 14 cases pass" in report_text(screen)


async def test_the_editor_inside_the_app_saves_and_checks(tmp_path):
    app = AttnApp(lang="en")
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await open_code(pilot, tmp_path, "scores")
        await pilot.press("e")
        await pilot.pause()
        from textual.widgets import TextArea

        area = app.screen.query_one(TextArea)
        assert "def scores(Q, K):" in area.text
        area.text = "import numpy as np\n\n\ndef scores(Q, K):\n    return K @ Q.T\n"
        before = screen.checks_done
        await pilot.press("ctrl+s")
        await pilot.pause()
        assert "return K @ Q.T" in (tmp_path / "01_scores.py").read_text()
        await pilot.press("escape")
        await checked(pilot, screen, before)
        assert "transposed" in report_text(screen)


async def test_an_unsaved_edit_is_not_lost_to_one_escape(tmp_path):
    app = AttnApp(lang="en")
    async with app.run_test(size=(80, 24)) as pilot:
        await open_code(pilot, tmp_path, "scores")
        await pilot.press("e")
        await pilot.pause()
        from textual.widgets import TextArea

        editor = app.screen
        editor.query_one(TextArea).text = "changed"
        await pilot.press("escape")
        await pilot.pause()
        assert app.screen is editor  # warned, still open
        await pilot.press("escape")
        await pilot.pause()
        assert app.screen is not editor
        assert "changed" not in (tmp_path / "01_scores.py").read_text()


@pytest.mark.slow  # a watcher thread and warm children
@pytest.mark.parametrize("lang", ["en", "zh"])
async def test_watch_rechecks_on_save_and_moves_on_when_it_passes(tmp_path, lang):
    app = AttnApp(lang=lang)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await open_code(pilot, tmp_path, "softmax")
        await pilot.press("f8")
        await pilot.pause(0.5)
        assert screen.watching
        before = screen.checks_done
        (tmp_path / "03_softmax.py").write_text(UNSTABLE)
        await checked(pilot, screen, before)
        assert screen.report is not None and "overflow" in [d.code for d in screen.report.diagnoses]
        before = screen.checks_done
        shutil.copy(SOLUTIONS / "03_softmax.py", tmp_path / "03_softmax.py")
        await checked(pilot, screen, before)
        await pilot.pause()
        assert screen.current.id == "weighted-sum"  # the next one not passed
        await pilot.press("f8")
        await pilot.pause()
        assert not screen.watching


@pytest.mark.slow  # held to the 3 s limit
async def test_a_hang_in_the_learners_code_leaves_the_app_responsive(tmp_path):
    app = AttnApp(lang="en")
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await open_code(pilot, tmp_path, "softmax")
        spin = "def softmax(x):\n    while True:\n        pass\n"
        (tmp_path / "03_softmax.py").write_text(spin)
        before = screen.checks_done
        await pilot.press("f5")
        await pilot.pause()
        await pilot.press("f6")  # keys still work while the child spins
        await pilot.pause()
        assert screen.hints_shown == 1
        await checked(pilot, screen, before)
        assert "Stopped after 3 s" in report_text(screen)
        assert "03_softmax.py line 2" in report_text(screen) or "line 3" in report_text(screen)
