"""The calculator at 80×24, as a new learner first meets it (issue 26, items 1 and 5).

Item 1: step 4 was cut ("it cannot create a vector outside ▇") and the √d experiment's
conclusion was below the fold, with PgDn doing nothing there; the panels scrolled only after
Tab gave them focus. Now PgDn (named in the footer) shows the rest of a step before the next
one, says "PgDn: more" while there is more, and scrolls the experiment in the √d view.
"""

import pytest
from textual.widgets import Input, Select, Static, TextArea

from attn_tui.app import AttnApp
from attn_tui.compat import FooterKey

from .conftest import screen_lines, shown
from .test_calculator import open_calculator

MORE = {"en": "PgDn: more", "zh": "PgDn 看下文"}


def on_screen(pilot, text: str) -> bool:
    return any(text in row for row in screen_lines(pilot.app))


def last_line(text: str) -> str:
    return [line for line in text.splitlines() if line.strip()][-1].strip()


@pytest.mark.parametrize("lang", ["zh", "en"])
async def test_pgdn_shows_all_of_step_four_then_pgup_goes_back(lang):
    async with AttnApp(lang=lang).run_test(size=(80, 24)) as pilot:
        screen = await open_calculator(pilot)
        if lang == "zh":  # (the seed's step 4 just fits in Chinese: two keys more)
            screen.fill("1 0 1", "1 0 0\n0 1 0\n1 0 1\n1 1 0\n0 0 1\n2 1 0")
        view = screen.query_one("#steps")
        await pilot.press("pagedown", "pagedown", "pagedown")
        await pilot.pause()
        assert screen.step == 4
        end = last_line(view.text)  # the step's last words
        assert not on_screen(pilot, end)  # below the fold at 80×24 ...
        assert MORE[lang] in screen.query_one("#steps-box").border_subtitle  # ... and it says so
        for _ in range(5):
            if on_screen(pilot, end):
                break
            await pilot.press("pagedown")
            await pilot.pause()
        assert on_screen(pilot, end) and screen.step == 4
        assert MORE[lang] not in screen.query_one("#steps-box").border_subtitle
        await pilot.press("pagedown")  # at the end of the last step: nothing more
        assert screen.step == 4
        while view.scroll_y > 0:
            await pilot.press("pageup")  # back up through step 4 first ...
            await pilot.pause()
            assert screen.step == 4
        await pilot.press("pageup")  # ... then step 3
        await pilot.pause()
        assert screen.step == 3


@pytest.mark.parametrize("lang", ["zh", "en"])
async def test_the_dimension_experiment_s_conclusion_is_one_key_away(lang):
    async with AttnApp(lang=lang).run_test(size=(80, 24)) as pilot:
        screen = await open_calculator(pilot)
        await pilot.press("f4")
        await pilot.pause()
        body = screen.query_one("#exp-body", Static)
        end = last_line(shown(body, body.content_region.width))
        assert not on_screen(pilot, end)
        footer = {k.key: k for k in screen.query(FooterKey)}
        assert "pagedown" in footer and "pageup" in footer  # named where the learner looks
        for _ in range(4):
            await pilot.press("pagedown")
            await pilot.pause()
        assert on_screen(pilot, end)
        for _ in range(4):
            await pilot.press("pageup")
            await pilot.pause()
        assert screen.dimension.scroll_y == 0
        await pilot.press("f4")  # back to the steps: PgDn is the step key again
        await pilot.press("pagedown")
        assert screen.step == 2


@pytest.mark.parametrize("lang", ["zh", "en"])
async def test_f5_keeps_what_was_typed_and_brings_it_back(lang):
    """Item 5: F5 (the textbook example) threw typed vectors away, without asking or undo."""
    async with AttnApp(lang=lang).run_test(size=(80, 24)) as pilot:
        screen = await open_calculator(pilot)
        screen.query_one("#query", Input).value = "2 0 1"
        screen.query_one("#keys", TextArea).text = "1 1 1\n0 2 0\n3 0 x"  # a fault, too
        screen.query_one("#temperature", Input).value = "0.5"
        await pilot.pause()
        await pilot.press("f5")
        await pilot.pause()
        assert screen.query_one("#query", Input).value == "1 0 1"  # the example
        assert screen.query_one("#preset", Select).value == "seed"
        said = [n.message for n in pilot.app._notifications]
        assert any("F5" in message for message in said), said
        await pilot.press("f5")  # ... and back
        await pilot.pause()
        assert screen.query_one("#query", Input).value == "2 0 1"
        assert screen.query_one("#keys", TextArea).text == "1 1 1\n0 2 0\n3 0 x"
        assert screen.query_one("#temperature", Input).value == "0.5"
        assert screen.stale  # the fault is back too, named under its field
        await pilot.press("f5")  # the example again, what was typed kept again
        await pilot.press("f5")
        await pilot.pause()
        assert screen.query_one("#query", Input).value == "2 0 1"


async def test_f5_on_an_untouched_example_keeps_nothing():
    async with AttnApp(lang="en").run_test(size=(80, 24)) as pilot:
        screen = await open_calculator(pilot)
        screen.query_one("#preset", Select).value = "orthogonal"
        await pilot.pause()
        await pilot.press("f5")
        await pilot.pause()
        assert screen.query_one("#preset", Select).value == "seed"
        await pilot.press("f5")  # nothing typed to bring back: the example stays
        await pilot.pause()
        assert screen.query_one("#preset", Select).value == "seed"
        assert not any("typed" in n.message for n in pilot.app._notifications)
