"""What the calculator says is what it does (items 2, 3 and 4 of issue 26): hard max's step 3
is titled for hard max and shows no unused exp column; step 1 says a score grows with the key's
length as well as its direction; the √d view's footer offers no step keys (they do nothing
there)."""

from __future__ import annotations

import pytest
from textual.widgets import Checkbox

from attn_tui.app import AttnApp

from .conftest import screen_lines
from .test_calculator import open_calculator, steps_text


@pytest.mark.parametrize(
    ("lang", "title", "soft_title"),
    [("en", "Hard max", "Softmax: turn"), ("zh", "硬注意力：最大的分数", "softmax：把分数")],
)
async def test_hard_max_step_3_is_titled_for_it_and_has_no_exp_column(lang, title, soft_title):
    async with AttnApp(lang=lang).run_test(size=(120, 40)) as pilot:
        screen = await open_calculator(pilot)
        await pilot.press("pagedown", "pagedown")
        text = steps_text(screen)
        assert soft_title in text and "exp" in text
        screen.query_one("#hard", Checkbox).value = True
        await pilot.pause()
        text = steps_text(screen)
        assert title in text and soft_title not in text
        header = next(line for line in text.splitlines() if "α" in line and "k₁" not in line)
        assert "exp" not in header


@pytest.mark.parametrize(("lang", "length"), [("en", "longer key"), ("zh", "键越长")])
async def test_step_1_says_a_longer_key_scores_larger(lang, length):
    async with AttnApp(lang=lang).run_test(size=(120, 40)) as pilot:
        screen = await open_calculator(pilot)
        text = " ".join(steps_text(screen).split())
        assert length in text and "cos θ" in text


async def test_the_sqrt_d_view_offers_no_step_keys_and_they_do_nothing_there():
    async with AttnApp(lang="en").run_test(size=(80, 24)) as pilot:
        screen = await open_calculator(pilot)
        assert "Next" in screen_lines(pilot.app)[-1]
        await pilot.press("f4")
        await pilot.pause()
        footer = screen_lines(pilot.app)[-1]
        assert "Next" not in footer and "Back" not in footer and "All" not in footer
        assert "√d test" in footer
        await pilot.press("pagedown", "f3")
        await pilot.pause()
        assert screen.step == 1 and not screen.show_all
        await pilot.press("f4")  # back to the steps: the keys are back
        await pilot.pause()
        assert "Next" in screen_lines(pilot.app)[-1]
        await pilot.press("pagedown")
        assert screen.step == 2
