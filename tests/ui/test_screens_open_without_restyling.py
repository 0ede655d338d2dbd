"""An area's screen opens without Textual's whole-app CSS work (what made opening slow).

Textual, left alone, re-parses every stylesheet of the app and restyles every screen when a
screen it has not shown yet appears (twice for a new mode), and again when it reads a screen's
CSS file for the first time; and it restyles the whole screen on each of the two ScreenResume
events of a mode's first switch. The app reads the areas' CSS while home is on show, marks new
screens as styled (compat.styled_as_now) and lets a first resume keep the styles its widgets
were given. These tests count that work; the snapshots show that nothing is drawn otherwise.
"""

from __future__ import annotations

import pytest
from textual.css.stylesheet import Stylesheet

from attn_tui.app import AttnApp, css_files
from attn_tui.screens.base import TutorScreen

AREAS = ("calc", "train", "exercises", "quiz", "lab")


async def _prefetched(app, pilot) -> None:
    """Wait for the app's background preparation (imports, CSS, written-answer libraries)."""
    for _ in range(1200):
        if app.prepared.is_set():
            break
        await pilot.pause(0.05)
    assert app.prepared.is_set()
    await pilot.pause()


@pytest.fixture
def reparses(monkeypatch):
    """Calls of Stylesheet.reparse (each re-parses all of the app's CSS from scratch)."""
    calls: list[int] = []
    original = Stylesheet.reparse

    def counted(self) -> None:
        calls.append(1)
        original(self)

    monkeypatch.setattr(Stylesheet, "reparse", counted)
    return calls


async def test_home_reads_the_areas_css_before_they_open(tmp_path):
    from attn_tui.app import KNOWN_AREAS, _screen_class

    app = AttnApp(lang="en", data_dir=tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        await _prefetched(app, pilot)
        for mode in app.AREAS:
            for path in css_files(_screen_class(KNOWN_AREAS[mode])):
                assert app.stylesheet.has_source(path), (mode, path)


@pytest.mark.parametrize("area", AREAS)
async def test_opening_an_area_and_going_home_reparses_no_css(tmp_path, reparses, area):
    app = AttnApp(lang="en", data_dir=tmp_path)
    async with app.run_test(size=(120, 40)) as pilot:
        await _prefetched(app, pilot)
        before = len(reparses)
        files = {k for k in app.stylesheet.source if k[0].endswith(".tcss")}
        app.switch_mode(area)
        await pilot.pause()
        await pilot.pause()
        assert app.screen.is_mounted and app.current_mode == area
        await pilot.press("escape")
        await pilot.pause()
        assert app.current_mode == "home"
        assert len(reparses) == before  # failed before: 3 or 4 full re-parses
        assert {k for k in app.stylesheet.source if k[0].endswith(".tcss")} == files


async def test_a_theme_changed_meanwhile_still_reaches_a_new_screen(tmp_path):
    """The mark is 'styled as of now': a theme set later restyles the area as Textual does."""
    app = AttnApp(lang="en", data_dir=tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        await _prefetched(app, pilot)
        app.switch_mode("quiz")
        await pilot.pause()
        quiz = app.screen
        await pilot.press("escape")
        await pilot.pause()
        app.theme = "textual-light"
        await pilot.pause()
        app.switch_mode("quiz")
        await pilot.pause()
        await pilot.pause()
        assert app.screen is quiz
        assert quiz.styles.background == app.current_theme.to_color_system().background


async def test_a_first_resume_keeps_its_styles_a_later_one_restyles(tmp_path, monkeypatch):
    seen: list[tuple[str, bool, bool]] = []
    original = TutorScreen.on_event

    async def spy(self, event):
        from textual.events import ScreenResume

        await original(self, event)
        if isinstance(event, ScreenResume):
            seen.append((type(self).__name__, event.refresh_styles, self.returned))

    monkeypatch.setattr(TutorScreen, "on_event", spy)
    app = AttnApp(lang="en", data_dir=tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        seen.clear()
        app.switch_mode("calc")
        await pilot.pause()
        calc = [s for s in seen if s[0] == "CalculatorScreen"]
        assert calc and all(s[1:] == (False, False) for s in calc)
        await pilot.press("escape")
        await pilot.pause()
        assert ("HomeScreen", True, True) in seen  # home was out of sight: restyled
        seen.clear()
        app.switch_mode("calc")
        await pilot.pause()
        assert ("CalculatorScreen", True, True) in seen


async def test_the_exercise_list_is_drawn_once_as_it_opens(tmp_path, monkeypatch):
    from attn_tui.widgets.exercises import SetList

    draws: list[int] = []
    original = SetList.redraw

    def counted(self) -> None:
        draws.append(1)
        original(self)

    monkeypatch.setattr(SetList, "redraw", counted)
    app = AttnApp(lang="en", data_dir=tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        app.switch_mode("exercises")
        await pilot.pause()
        await pilot.pause()
        assert len(draws) == 1  # failed before: 3 (on_mount, then each of two resumes)
        await pilot.press("escape")
        await pilot.pause()
        app.switch_mode("exercises")
        await pilot.pause()
        assert len(draws) == 2  # back from out of sight: drawn again (progress may have moved)


async def test_home_loads_the_written_answer_libraries_in_the_background(tmp_path):
    from attn_tui.core.exercises.written import text

    app = AttnApp(lang="en", data_dir=tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        await _prefetched(app, pilot)
        assert text._segmenter is not None
