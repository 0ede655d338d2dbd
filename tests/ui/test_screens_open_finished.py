"""A screen's first frame is the finished screen: nothing it shows on opening waits for a
later frame (each later frame re-lays-out or repaints the screen, and the screen is "drawn"
only after the last of them).

What used to come a frame or two late, and is counted here (the snapshots show the finished
screens are unchanged): the calculator's breakpoint classes (set on Textual's first Resize,
which restyled the whole screen and laid it out again), its steps (written once the steps
panel had had its Resize), every screen's footer keys (Textual's Footer composes them after
the first refresh), and the √d experiment's fields and numbers, built though hidden.
"""

from __future__ import annotations

import pytest
from textual.widgets import Select, Static

from attn_tui.app import AttnApp
from attn_tui.screens.base import TutorFooter
from attn_tui.screens.calculator import CalculatorScreen
from attn_tui.widgets.calculator import DimensionPanel
from attn_tui.widgets.lab.views import LabViews
from attn_tui.widgets.stepsview import StepsView
from attn_tui.widgets.training_run import TrainingRun

from .conftest import shown


@pytest.mark.parametrize(("size", "wanted"), [((120, 40), "-wide"), ((80, 24), "-normal"),
                                              ((60, 20), "-narrow")])  # fmt: skip
async def test_the_calculator_has_its_breakpoint_class_before_it_is_styled(size, wanted):
    async with AttnApp(lang="en").run_test(size=size) as pilot:
        await pilot.pause()
        screen = CalculatorScreen()  # made, not yet on show: Textual has not resized it
        assert {c for c in screen.classes if c.startswith("-")} == {wanted}
        pilot.app.push_screen(screen)
        await pilot.pause()
        assert {c for c in screen.classes if c in ("-wide", "-normal", "-narrow")} == {wanted}


@pytest.mark.parametrize("area", ["calc", "lab", "exercises", "quiz"])
async def test_an_areas_footer_keys_are_composed_with_it_not_rebuilt_after(tmp_path, monkeypatch,
                                                                           area):  # fmt: skip
    rebuilt: list[int] = []
    original = TutorFooter.recompose

    async def counted(self):
        rebuilt.append(1)
        await original(self)

    monkeypatch.setattr(TutorFooter, "recompose", counted)
    app = AttnApp(lang="en", data_dir=tmp_path)
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        app.switch_mode(area)
        await pilot.pause()
        await pilot.pause()
        footer = app.screen.query_one(TutorFooter)
        assert {key.key for key in footer.children} >= {"f1", "f2", "escape"}
        if area != "lab":  # (the lab's F5 depends on its first layout: FOOTER_AT_ONCE)
            assert rebuilt == []  # failed before: one rebuild after the first frame
        await pilot.press("f2")  # what the footer shows still follows the screen
        await pilot.pause()
        assert any("中" in str(key.description) or "EN" in str(key.description)
                   for key in footer.query("FooterKey"))  # fmt: skip


async def test_the_steps_are_in_the_calculators_first_frame(tmp_path, monkeypatch):
    """The first time the steps panel is drawn, it draws the steps (not blank lines waiting
    for its Resize)."""
    first: list[str] = []
    original = StepsView.render_line

    def spy(self, y):
        strip = original(self, y)
        if not first:
            first.append(strip.text)
        return strip

    monkeypatch.setattr(StepsView, "render_line", spy)
    app = AttnApp(lang="en", data_dir=tmp_path)
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.press("enter")
        await pilot.pause()
        assert isinstance(app.screen, CalculatorScreen)
        assert first and first[0].startswith("Step 1 of 4")


async def test_the_dimension_experiment_is_built_when_first_shown(tmp_path):
    app = AttnApp(lang="en", data_dir=tmp_path)
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.press("enter")
        await pilot.pause()
        panel = app.screen.query_one(DimensionPanel)
        assert not panel.children and panel.experiment is None
        await pilot.press("f4")
        await pilot.pause()
        assert panel.children and panel.experiment is not None
        assert "d = 3 vs 300" in str(panel.border_title)


async def test_the_lab_opens_with_only_what_it_shows_and_draws_its_layer_once(
    tmp_path, monkeypatch
):
    """The typed and trained sources' fields, the other six views and the TrainingRun are
    built when first wanted; the layer is drawn once (each field's first Changed drew it)."""
    drawn: list[int] = []
    original = LabViews.show

    def counted(self, message) -> None:
        drawn.append(1)
        original(self, message)

    monkeypatch.setattr(LabViews, "show", counted)
    app = AttnApp(lang="en", data_dir=tmp_path)
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        app.switch_mode("lab")
        await pilot.pause()
        await pilot.pause()
        screen = app.screen
        assert drawn == [1]  # failed before: 8
        assert not screen.query_one("#typed").children and not screen.query_one("#trained").children
        assert not screen.query(TrainingRun) and not screen.query("#view-qkv")
        await pilot.press("f4")  # the next view, built as it is shown
        await pilot.pause()
        assert screen.views.view == "qkv"
        assert "Q = X·W_Q" in shown(screen.query_one("#qkv-body", Static), 100)
        screen.query_one("#sentence", Select).value = "typed"
        await pilot.pause()
        assert screen.query_one("#X").text.strip()  # started from the numbers on show
        assert not screen.form.stale
