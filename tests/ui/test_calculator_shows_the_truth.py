"""The calculator stays whole at 80×24 and says nothing its numbers contradict (issue 11).

Each test reads what the learner reads: the steps panel's rows, or the terminal's rows.
"""

import numpy as np
import pytest
from textual.widgets import Input, Select, TextArea

from attn_tui.app import AttnApp
from attn_tui.compat import SelectOverlay
from attn_tui.core import format as fmt
from attn_tui.widgets.fields import Tick

from .conftest import screen_lines
from .test_calculator import open_calculator, steps_text


async def _fill(pilot, screen, query: str, keys: str, values: str = "") -> None:
    screen.query_one("#query", Input).value = query
    screen.query_one("#keys", TextArea).text = keys
    screen.query_one("#values", TextArea).text = values
    await pilot.pause()


def _no_cut_lines(text: str) -> None:
    cut = [line for line in text.splitlines() if line.rstrip().endswith("…")]
    assert not cut, f"rows cut short: {cut}"


@pytest.mark.parametrize("lang", ["en", "zh"])
async def test_every_score_shows_when_the_inputs_have_decimals(lang):
    async with AttnApp(lang=lang).run_test(size=(80, 24)) as pilot:
        screen = await open_calculator(pilot)
        await _fill(pilot, screen, "0.5 -1.25 2", "0.25 -3.5 1.75\n-2.5 0.125 3\n1 1 1")
        text = steps_text(screen)
        for i, score in enumerate(screen.result.scores, start=1):
            row = next(line for line in text.splitlines() if line.startswith(f"k{fmt.sub(i)}"))
            assert row.rstrip().endswith("= " + fmt.num(score)), row
        assert "= 8" in text
        _no_cut_lines(text)


async def test_every_score_shows_at_64_dimensions_and_the_shortening_is_said():
    rng = np.random.default_rng(1)
    q = rng.normal(size=64).round(2)
    K = rng.normal(size=(5, 64)).round(2)
    async with AttnApp(lang="en").run_test(size=(80, 24)) as pilot:
        screen = await open_calculator(pilot)
        await _fill(
            pilot,
            screen,
            " ".join(map(str, q)),
            "\n".join(" ".join(map(str, row)) for row in K),
        )
        text = steps_text(screen)
        for i, score in enumerate(screen.result.scores, start=1):
            assert f"= {fmt.num(score)}" in text, (i, text)
        assert "…" in text and "terms" in text  # the written-out sum is shortened, and says so
        _no_cut_lines(text)
        for step in range(4):  # no step cuts a row at 64 dimensions
            screen.step = step + 1
            await pilot.pause()
            _no_cut_lines(steps_text(screen))


async def test_a_preset_sets_every_input_it_names_switches_included():
    async with AttnApp(lang="en").run_test(size=(120, 40)) as pilot:
        screen = await open_calculator(pilot)
        screen.query_one("#temperature", Input).value = "0.5"
        screen.query_one("#scale", Tick).value = False
        screen.query_one("#hard", Tick).value = True
        await pilot.pause()
        preset = screen.query_one("#preset", Select)
        assert preset.value == Select.NULL  # these settings are no preset any more
        preset.value = "orthogonal"
        await pilot.pause()
        preset.value = "seed"
        await pilot.pause()
        assert screen.query_one("#temperature", Input).value == "1"
        assert screen.query_one("#scale", Tick).value and not screen.query_one("#hard", Tick).value
        assert [round(w, 4) for w in screen.result.weights] == [0.2303, 0.1293, 0.4102, 0.2303]
        assert preset.value == "seed"


async def test_after_an_edit_the_preset_menu_no_longer_claims_the_preset():
    async with AttnApp(lang="en").run_test(size=(80, 24)) as pilot:
        screen = await open_calculator(pilot)
        preset = screen.query_one("#preset", Select)
        assert preset.value == "seed"
        screen.query_one("#query", Input).value = "1 1 1"
        await pilot.pause()
        assert preset.value == Select.NULL
        assert not any("Textbook hand example" in line for line in screen_lines(pilot.app))
        screen.query_one("#query", Input).value = "1 0 1"  # typed back: it is the example again
        await pilot.pause()
        assert preset.value == "seed"


def _panel_inner(widget):
    """The content region of the nearest bordered ancestor (the panel a control sits in)."""
    node = widget.parent
    while node is not None and not any(edge[0] for edge in node.styles.border):
        node = node.parent
    return node.region.shrink(node.styles.border.spacing)


@pytest.mark.parametrize("size", [(80, 24), (120, 40), (60, 20)])
@pytest.mark.parametrize("lang", ["en", "zh"])
async def test_the_preset_menu_stays_inside_its_panel(lang, size):
    async with AttnApp(lang=lang).run_test(size=size) as pilot:
        screen = await open_calculator(pilot)
        select = screen.query_one("#preset", Select)
        select.focus()
        await pilot.press("enter")
        await pilot.pause()
        assert select.expanded
        overlay = select.query_one(SelectOverlay)
        inner = _panel_inner(select)
        assert inner.contains_region(overlay.region), (overlay.region, inner)
        labels = [str(p) for p, _ in select._options[1:]]
        shown = "\n".join(screen_lines(pilot.app))
        for label in labels:  # every choice readable whole (none wrapped onto a border)
            assert label in shown, label


async def test_dimension_experiment_sigma_sits_near_sqrt_d_with_its_sample_size_shown():
    async with AttnApp(lang="en").run_test(size=(80, 24)) as pilot:
        screen = await open_calculator(pilot)
        await pilot.press("f4")
        await pilot.pause()
        text = "\n".join(screen_lines(pilot.app))
        assert "d = 3 vs 300" in text
        assert "pairs" in text  # the sample size is on screen
        screen.query_one("#d-small", Input).value = "5"
        screen.query_one("#d-large", Input).value = "500"
        await pilot.pause()
        box = screen.query_one("#experiment")
        assert "d = 5 vs 500" in str(box.border_title)
        small = screen.experiment[0]
        assert abs(small.score_std / small.d**0.5 - 1) < 0.1


async def test_an_underflowed_weight_is_not_called_never_zero():
    async with AttnApp(lang="en").run_test(size=(120, 40)) as pilot:
        screen = await open_calculator(pilot)
        await _fill(pilot, screen, "1000 1000", "1000 1000\n0 0")
        assert screen.result.weights.tolist() == [1.0, 0.0]
        screen.step = 3
        await pilot.pause()
        text = " ".join(steps_text(screen).split())
        assert "never gives exactly 0" not in text
        assert "underflow" in text and "k₂" in text


async def test_a_weight_that_is_tiny_but_not_zero_is_not_printed_as_zero():
    async with AttnApp(lang="en").run_test(size=(120, 40)) as pilot:
        screen = await open_calculator(pilot)
        await _fill(pilot, screen, "10 10", "10 10\n0 0")  # α₂ = e^-141.4/(1+…) ≈ 4e-62
        screen.step = 3
        await pilot.pause()
        row = next(
            line
            for line in steps_text(screen).splitlines()
            if line.startswith(" k₂") or line.startswith("k₂")
        )
        assert "e−" in row, row


async def test_step_four_names_the_value_rows_v():
    async with AttnApp(lang="en").run_test(size=(120, 40)) as pilot:
        screen = await open_calculator(pilot)
        screen.step = 4
        await pilot.pause()
        text = steps_text(screen)
        assert "v₁ 0.2303×(1, 0, 0)" in text
        assert "k₁ 0.2303" not in text


async def test_the_values_box_and_the_inputs_panel_grow_with_the_terminal():
    heights, widths = {}, {}
    for size in ((80, 24), (120, 40)):
        async with AttnApp(lang="en").run_test(size=size) as pilot:
            screen = await open_calculator(pilot)
            heights[size] = screen.query_one("#values").size.height
            widths[size] = screen.query_one("#calc-inputs").size.width
    assert heights[(120, 40)] > heights[(80, 24)] >= 2
    assert widths[(120, 40)] > widths[(80, 24)]


@pytest.mark.parametrize("lang", ["en", "zh"])
async def test_the_weights_column_survives_a_60_by_20_terminal(lang):
    async with AttnApp(lang=lang).run_test(size=(60, 20)) as pilot:
        screen = await open_calculator(pilot)
        screen.step = 3
        await pilot.pause()
        text = steps_text(screen)
        for w in ("0.2303", "0.1293", "0.4102"):
            assert w in text
        _no_cut_lines(text)


async def test_f5_the_textbook_example_is_in_the_footer():
    async with AttnApp(lang="en").run_test(size=(80, 24)) as pilot:
        screen = await open_calculator(pilot)
        footer = screen_lines(pilot.app)[-1]
        assert "f5" in footer.lower()
        await pilot.pause()
        screen.query_one("#query", Input).value = "3 3 3"
        await pilot.press("f5")
        assert screen.query_one("#query", Input).value == "1 0 1"
