"""The lab whole at 80×24, with nothing misleading on it (issue 11)."""

import numpy as np
import pytest
from rich.console import Console
from textual.widgets import Input, Select

from attn_tui.app import AttnApp
from attn_tui.compat import SelectCurrent, SelectOverlay
from attn_tui.render.heatmap import Heatmap
from attn_tui.widgets.fields import inside_border, panel_of

from .conftest import screen_lines
from .test_lab import body, open_lab


def _screen_text(pilot) -> str:
    return " ".join(" ".join(line.strip("│ ") for line in screen_lines(pilot.app)).split())


@pytest.mark.parametrize("lang", ["en", "zh"])
async def test_eight_tokens_at_80_columns_say_that_the_weights_are_rounded(lang):
    async with AttnApp(lang=lang).run_test(size=(80, 24)) as pilot:
        screen = await open_lab(pilot)
        screen.query_one("#tokens", Input).value = "8"
        await pilot.pause()
        text = body(screen, width=46)
        rows = [line for line in text.splitlines() if line.startswith(("x1", "x2"))]
        one_decimal = all(len(cell) <= 3 for cell in rows[1].split()[1:9])
        assert one_decimal  # what fits at this width
        note = "Rounded to 1 decimal" if lang == "en" else "只保留 1 位小数"
        assert note in " ".join(text.split())


async def test_eight_tokens_with_room_show_four_decimals_and_no_note():
    async with AttnApp(lang="en").run_test(size=(120, 40)) as pilot:
        screen = await open_lab(pilot)
        screen.query_one("#tokens", Input).value = "8"
        await pilot.pause()
        text = body(screen, width=86)
        assert "Rounded" not in text
        assert any(
            line.startswith("x2") and "0." in line and len(line.split()[1]) == 6
            for line in text.splitlines()
        )


def _segments(heatmap: Heatmap, width: int = 60):
    console = Console(width=width, file=open("/dev/null", "w"), color_system="truecolor")
    return list(console.render(heatmap, console.options.update_width(width)))


def test_the_cursor_keeps_its_cells_colour_and_is_framed():
    w = np.array([[0.1, 0.8, 0.1], [0.3, 0.3, 0.4]])
    plain = _segments(Heatmap(w, places=2, vmin=0, vmax=1))
    marked = _segments(Heatmap(w, places=2, vmin=0, vmax=1, cursor=(0, 0)))
    cell = next(s for s in plain if s.text.strip() == "0.10")
    cursor = next(s for s in marked if s.text.strip() == "0.10")
    assert cursor.style.bgcolor == cell.style.bgcolor  # not the brightest colour any more
    brightest = next(s for s in plain if s.text.strip() == "0.80")
    assert cursor.style.bgcolor != brightest.style.bgcolor
    text = "".join(s.text for s in marked)
    assert "▕0.10▏" in text


@pytest.mark.parametrize("lang", ["en", "zh"])
async def test_the_cross_attention_fault_is_on_screen_at_80_by_24(lang):
    async with AttnApp(lang=lang).run_test(size=(80, 24)) as pilot:
        screen = await open_lab(pilot)
        await pilot.press("f3")  # causal mask
        screen.query_one("#cross", Select).value = "love"
        await pilot.pause()
        await pilot.pause()
        assert screen.form.stale
        fault = "self-attention only" if lang == "en" else "只用于自注意力"
        assert fault in _screen_text(pilot)


async def _type(pilot, field: Input, text: str) -> None:
    field.focus()
    field.value = ""
    await pilot.pause()
    await pilot.press(*text)
    await pilot.pause()


async def test_a_window_of_2_point_5_is_refused_with_a_message_not_read_as_25():
    async with AttnApp(lang="en").run_test(size=(80, 24)) as pilot:
        screen = await open_lab(pilot)
        await _type(pilot, screen.query_one("#window", Input), "2.5")
        assert screen.query_one("#window", Input).value == "2.5"
        form = screen.form
        assert form.result.window != 25 and form.stale  # the last valid window, 2, stays
        assert "“2.5” is not" in _screen_text(pilot)


async def test_zero_tokens_is_refused_with_a_message():
    async with AttnApp(lang="en").run_test(size=(80, 24)) as pilot:
        screen = await open_lab(pilot)
        await _type(pilot, screen.query_one("#tokens", Input), "0")
        assert screen.form.stale
        assert "no tokens" in _screen_text(pilot)


async def test_each_language_opens_on_its_own_sentence_and_the_weights_are_called_random():
    async with AttnApp(lang="en").run_test(size=(80, 24)) as pilot:
        pilot.app.switch_mode("lab")
        await pilot.pause()
        screen = pilot.app.screen
        assert list(screen.form.result.queries.labels) == ["I", "love", "China"]
        assert "Random weights (seed 0)" in " ".join(body(screen, width=46).split())
    async with AttnApp(lang="zh").run_test(size=(80, 24)) as pilot:
        pilot.app.switch_mode("lab")
        await pilot.pause()
        assert list(pilot.app.screen.form.result.queries.labels)[0] == "猫"


async def test_the_head_subtitle_and_singulars():
    async with AttnApp(lang="zh").run_test(size=(80, 24)) as pilot:
        screen = await open_lab(pilot)
        assert str(screen.query_one("#view-attn").border_subtitle) == "头 1/2"
    async with AttnApp(lang="en").run_test(size=(80, 24)) as pilot:
        screen = await open_lab(pilot, sentence="count")
        screen.query_one("#tokens", Input).value = "1"
        screen.query_one("#heads", Input).value = "1"
        await pilot.pause()
        text = " ".join(body(screen, width=46).split())
        assert "· 1 token ·" in text and "· 1 head ·" in text


async def test_f2_relabels_the_menus_current_choice():
    async with AttnApp(lang="en").run_test(size=(80, 24)) as pilot:
        screen = await open_lab(pilot)
        await pilot.press("f2")
        await pilot.pause()
        label = str(screen.query_one("#cross", Select).query_one(SelectCurrent).label)
        assert label == "同一句（自注意力）"


@pytest.mark.parametrize("select_id", ["sentence", "cross"])
@pytest.mark.parametrize("lang", ["en", "zh"])
async def test_the_lab_menus_stay_inside_the_settings_panel(lang, select_id):
    async with AttnApp(lang=lang).run_test(size=(80, 24)) as pilot:
        screen = await open_lab(pilot)
        select = screen.query_one(f"#{select_id}", Select)
        select.focus()
        await pilot.press("enter")
        await pilot.pause()
        overlay = select.query_one(SelectOverlay)
        assert inside_border(panel_of(select)).contains_region(overlay.region)
