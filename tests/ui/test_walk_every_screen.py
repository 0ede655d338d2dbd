"""Walk every screen at 80×24 and 120×40, in Chinese and English, and read it as a learner does.

At each stop the terminal's rows are checked for:

- a panel line that ends in "…" straight after a character: something was cut there (a score,
  a weight, an accuracy, a key name). A deliberate elision is written " …", after a space;
- an overlay outside its bounds: an open drop-down must stay inside the panel it belongs to, a
  toast and a dialog inside the screen and off the footer;
- a footer key that does not fit on the footer row.

Each area is one test per language and size, so a failure names where it is. New states of a
screen belong in its STOPS entry.
"""

from __future__ import annotations

import re

import pytest
from textual.containers import Container
from textual.geometry import Region
from textual.screen import ModalScreen
from textual.widgets import Footer, Input, Select, TextArea

from attn_tui.app import AttnApp
from attn_tui.compat import FooterKey, SelectOverlay, Toast
from attn_tui.widgets.fields import inside_border, panel_of

from .conftest import screen_lines

SIZES = [(80, 24), (120, 40)]
LANGS = ["zh", "en"]
_TRAILING = " ▁▂▃▄▅▆▇█▔"  # blanks and a scrollbar's thumb beside the panel's edge
_CUT = re.compile(r"[^\s]…$")


def cut_lines(lines: list[str]) -> list[str]:
    """Rows (or panel parts of rows) that end in a "…" glued to what it cut."""
    cut = []
    for row in lines:
        for part in re.split(r"[│┃]", row):
            text = part.rstrip(_TRAILING)
            if _CUT.search(text):
                cut.append(row)
    return cut


def misplaced_overlays(app) -> list[str]:
    screen = app.screen
    bounds = Region(0, 0, *app.size)
    faults = []
    footers = list(screen.query(Footer))
    footer_rows = footers[0].region if footers else Region(0, app.size.height, app.size.width, 0)
    for overlay in screen.query(SelectOverlay):
        if overlay.display and overlay.parent.expanded:  # type: ignore[union-attr]
            room = inside_border(panel_of(overlay.parent))
            if not room.contains_region(overlay.region):
                faults.append(f"menu of #{overlay.parent.id} at {overlay.region}, panel {room}")
    for toast in screen.query(Toast):
        if not bounds.contains_region(toast.region) or toast.region.overlaps(footer_rows):
            faults.append(f"toast at {toast.region}")
    if isinstance(screen, ModalScreen):
        for box in screen.query(Container):
            if box.parent is screen and not bounds.contains_region(box.region):
                faults.append(f"dialog {box.id} at {box.region}")
    for key in screen.query(FooterKey):
        if key.region.right > app.size.width or key.region.width == 0:
            faults.append(f"footer key {key.key!r} at {key.region}")
    return faults


async def check(pilot, where: str) -> None:
    await pilot.pause()
    for _ in range(10):  # a footer rebuilt after a key press is laid out a frame later
        if all(key.region.width for key in pilot.app.screen.query(FooterKey)):
            break
        await pilot.pause(0.05)
    lines = screen_lines(pilot.app)
    cut = cut_lines(lines)
    faults = misplaced_overlays(pilot.app)
    assert not cut and not faults, f"{where}:\n" + "\n".join([*cut, *faults, "", *lines])


async def _still(pilot) -> None:
    for widget in pilot.app.screen.query("Input, TextArea"):
        assert isinstance(widget, Input | TextArea)
        widget.cursor_blink = False
    await pilot.pause()


async def _open_menus(pilot, where: str) -> None:
    """Open each drop-down on the screen in turn and check it."""
    for select in list(pilot.app.screen.query(Select)):
        if select.disabled or not all(node.display for node in select.ancestors_with_self):
            continue  # (a hidden row's menu, the other model's, say, cannot be opened)
        select.expanded = True
        await pilot.pause()
        await check(pilot, f"{where}, menu #{select.id} open")
        select.expanded = False
        await pilot.pause()


# ---- the stops, one walk per area ------------------------------------------------------------


async def walk_home(pilot) -> None:
    from attn_tui.i18n import t

    # Home's course line reads "Loading the path…" until its worker is done: an ellipsis the
    # checker would take for a cut figure, and shown only while a slow machine loads. Walk the
    # home a learner sees once the course is on it.
    loading = t("course.home.loading")
    for _ in range(600):
        if loading not in "\n".join(screen_lines(pilot.app)):
            break
        await pilot.pause(0.1)
    assert loading not in "\n".join(screen_lines(pilot.app)), "the course never loaded"
    await check(pilot, "home")
    await pilot.press("f1")
    await check(pilot, "home, help")
    await pilot.press("f2")  # the help redrawn in the other language, and the toast
    await check(pilot, "home, help after F2")


async def walk_calculator(pilot) -> None:
    await pilot.app.switch_mode("calc")
    screen = pilot.app.screen
    await _still(pilot)
    for step in (1, 2, 3, 4):
        screen.step = step
        await check(pilot, f"calculator step {step}")
    screen.show_all = True
    await check(pilot, "calculator, all steps")
    await _open_menus(pilot, "calculator")
    # decimals and 64 dimensions: the scores must survive
    screen.query_one("#query", Input).value = "0.5 -1.25 2"
    screen.query_one("#keys", TextArea).text = "0.25 -3.5 1.75\n-2.5 0.125 3\n1 1 1"
    await check(pilot, "calculator, decimals")
    screen.query_one("#query", Input).value = " ".join(f"{(i % 7) - 3.25:g}" for i in range(64))
    screen.query_one("#keys", TextArea).text = "\n".join(
        " ".join(f"{((i * j) % 11) / 4 - 1:g}" for i in range(64)) for j in range(1, 9)
    )
    for step in (1, 2, 3, 4):
        screen.show_all = False
        screen.step = step
        await check(pilot, f"calculator, 64 dimensions, step {step}")
    screen.query_one("#query", Input).value = "1 0"
    await check(pilot, "calculator, a fault")
    await pilot.press("f4")
    await check(pilot, "calculator, √d experiment")
    await pilot.press("f1")
    await check(pilot, "calculator, help")


async def walk_lab(pilot) -> None:
    await pilot.app.switch_mode("lab")
    screen = pilot.app.screen
    await _still(pilot)
    from attn_tui.widgets.lab.views import VIEWS

    for view in range(len(VIEWS)):
        await check(pilot, f"lab view {view + 1}")
        await pilot.press("f4")
    await _open_menus(pilot, "lab")
    screen.query_one("#tokens", Input).value = "8"
    await check(pilot, "lab, 8 tokens")
    await pilot.press("f5")
    await check(pilot, "lab, 8 tokens, scores")
    await pilot.press("f3")
    screen.query_one("#cross", Select).value = "love"
    await check(pilot, "lab, cross-attention fault")
    await _help(pilot, "lab")


async def walk_exercises(pilot) -> None:
    await pilot.app.switch_mode("exercises")
    screen = pilot.app.screen
    await _still(pilot)
    await check(pilot, "exercise sets")
    for ex_set in screen.library.sets:
        screen.open_set(ex_set.id)
        for index, exercise in enumerate(ex_set.exercises):
            if (
                index
                and exercise.kind not in ("matrix", "multi", "text")
                and not exercise.generated
            ):
                continue  # every set's first, and each long kind
            screen.show_exercise(index, seed=1 if exercise.generated else None)
            await _still(pilot)
            await check(pilot, f"exercise {ex_set.id}/{exercise.id}")
        screen.action_reveal()
        await check(pilot, f"exercise {ex_set.id}, answer shown")
        screen.action_items()
        await check(pilot, f"exercise list of {ex_set.id}")
    screen.action_reset_set()
    await check(pilot, "exercises, reset dialog")
    await pilot.press("escape")
    # a wrong answer with its feedback, then a hint, on a vector exercise
    screen.open_set("hand-example")
    await pilot.pause()
    screen.query_one("#ex-answer", Input).value = "9 9 9 9"
    await pilot.press("enter")
    await check(pilot, "exercise, a wrong answer's feedback")
    await pilot.press("f3")
    await check(pilot, "exercise, a hint")
    await _help(pilot, "exercises")


async def walk_quiz(pilot) -> None:
    await pilot.app.switch_mode("quiz")
    screen = pilot.app.screen
    await check(pilot, "quiz start")
    screen.start("full", screen.bank)
    for n in range(len(screen.run)):
        await _still(pilot)
        await check(pilot, f"quiz question {n + 1}")
        screen.skip()
        await check(pilot, f"quiz question {n + 1}, answered")
        screen.next_question()
    await check(pilot, "quiz summary")
    screen.action_review()
    await check(pilot, "quiz review")
    screen.start("quick", screen.bank[:3])
    await pilot.press("escape")
    await check(pilot, "quiz, leave dialog")
    await pilot.press("escape")
    await _help(pilot, "quiz")


async def walk_trainer(pilot) -> None:
    await pilot.app.switch_mode("train")
    screen = pilot.app.screen
    await _still(pilot)
    await check(pilot, "trainer before a run")
    await _open_menus(pilot, "trainer")
    screen.query_one("#iters", Input).value = "300"  # a small run of the default model
    screen.query_one("#pace", Select).value = "fast"
    await pilot.pause()
    await pilot.press("f5")
    await pilot.app.workers.wait_for_complete()
    await check(pilot, "trainer after a small run")
    await pilot.press("f4")
    await check(pilot, "trainer, tables")
    await pilot.press("f4")
    await check(pilot, "trainer after a finished run, back to the live view")
    # single-step (F8): the first iteration, its heatmap and the "press F8" line
    screen.query_one("#length", Input).value = "10"
    await pilot.pause()
    screen.action_step()
    await _until(pilot, lambda: screen.live.snapshot is not None and screen.live.iteration >= 1)
    await check(pilot, "trainer, single-step")
    screen.action_stop()
    await pilot.app.workers.wait_for_complete()
    await check(pilot, "trainer, single-step stopped")
    # F9: the settings against the versus variant on one seed, then its table
    screen.query_one("#pace", Select).value = "fast"
    screen.query_one("#iters", Input).value = "100"
    await pilot.pause()
    await pilot.press("f9")
    await pilot.app.workers.wait_for_complete()
    await check(pilot, "trainer after F9")
    # F10: the same over seeds, shown in the tables
    screen.query_one("#seeds", Input).value = "3"
    await pilot.pause()
    await pilot.press("f10")
    await pilot.app.workers.wait_for_complete()
    await check(pilot, "trainer, F10 seeds table")
    await _help(pilot, "trainer")
    await pilot.press("f4")
    screen.query_one("#model", Select).value = "transformer"
    await check(pilot, "trainer, the Transformer chosen")
    await _open_menus(pilot, "trainer, Transformer")
    await pilot.press("f5")
    await pilot.app.workers.wait_for_complete()
    await check(pilot, "trainer after a Transformer run")
    for field, value in (
        ("positions", "none"),
        ("layers", "2"),
        ("heads", "2"),
        ("length", "6"),
        ("iters", "100"),
        ("seeds", "2"),
    ):
        screen.query_one(f"#{field}").value = value  # type: ignore[attr-defined]
    await pilot.pause()
    await pilot.press("f5")
    await pilot.app.workers.wait_for_complete()
    await check(pilot, "trainer after a 2×2-head run without positions")
    screen.query_one("#live").scroll_end(animate=False)
    await check(pilot, "trainer after a 2×2-head run, scrolled down")
    screen.query_one("#tf-versus", Select).value = "learned"
    await pilot.pause()
    await pilot.press("f10")
    await pilot.app.workers.wait_for_complete()
    await check(pilot, "trainer, Transformer over seeds")
    await pilot.press("ctrl+o")
    await _still(pilot)
    await check(pilot, "lab opened on the trainer's Transformer")


async def _until(pilot, condition, tries: int = 400) -> None:
    """Wait for a live run's state without pilot.pause (which waits for the app to go idle)."""
    import asyncio

    for _ in range(tries):
        if condition():
            return
        await asyncio.sleep(0.05)
    raise AssertionError("the run never reached the state waited for")


async def walk_student(pilot) -> None:
    """The first screen of a served session: the name, and a name refused."""
    from attn_tui.screens.student import StudentScreen

    await pilot.app.push_screen(StudentScreen())
    await check(pilot, "student name")
    pilot.app.screen.query_one("#student-name", Input).value = "../.."
    await pilot.press("enter")
    await check(pilot, "student name refused")


async def _help(pilot, where: str) -> None:
    await pilot.press("f1")
    await check(pilot, f"{where}, help")
    await pilot.press("f1")


WALKS = {
    "home": walk_home,
    "student": walk_student,
    "calculator": walk_calculator,
    "lab": walk_lab,
    "exercises": walk_exercises,
    "quiz": walk_quiz,
    "trainer": walk_trainer,
}


def _cases():
    for area in WALKS:
        for lang in LANGS:
            for size in SIZES:
                yield pytest.param(area, lang, size, id=f"{area}-{lang}-{size[0]}x{size[1]}")


@pytest.mark.slow  # the walker
@pytest.mark.parametrize("area, lang, size", list(_cases()))
async def test_every_screen_is_whole(area, lang, size, tmp_path):
    app = AttnApp(lang=lang, data_dir=tmp_path / "data")
    async with app.run_test(size=size) as pilot:
        await pilot.pause()
        await WALKS[area](pilot)


def test_the_walker_sees_a_cut_figure_and_lets_an_elision_pass():
    """The checker itself: a number cut by '…' fails, a deliberate ' …' passes."""
    assert cut_lines(["│ k₁ 0.5×0.25 + (−1.2… │"]) and cut_lines(["│ per pos. 0… ▅▅│"])
    assert not cut_lines(["│ 1  Which sequence …   │", "│ k₁ … + 2×1.75  = 8 │"])
