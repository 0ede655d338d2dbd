"""Pilot tests of the lab: toggle the mask, change heads, move the cursor, switch language."""

import numpy as np
from rich.console import Console
from textual.widgets import Input, Select, Static

from attn_tui.app import AttnApp
from attn_tui.screens.lab import LabScreen
from attn_tui.widgets.heatmap import Heatmap

from .conftest import shown


async def open_lab(pilot):
    pilot.app.switch_mode("lab")  # not by keys: the home list grows as areas are added
    await pilot.pause()
    assert isinstance(pilot.app.screen, LabScreen)
    return pilot.app.screen


def body(screen, view: str = "attn", width: int = 60) -> str:
    return shown(screen.query_one(f"#{view}-body", Static), width)


def weight_rows(text: str, labels) -> list[list[str]]:
    """The weight cells of each labelled row of the shown heatmap."""
    rows = []
    for line in text.splitlines():
        parts = line.split()
        numeric = len(parts) > 1 and parts[1][0] in "0123456789−+"
        if numeric and parts[0] in labels and len(parts) >= len(labels) + 1:
            rows.append(parts[1 : len(labels) + 1])
    return rows


async def test_first_view_shows_the_cat_sentence_weights_rows_summing_to_one():
    async with AttnApp(lang="en").run_test(size=(80, 24)) as pilot:
        screen = await open_lab(pilot)
        text = body(screen)
        assert "self-attention · 5 tokens · d_model = 8 · 2 heads · d_k = 4" in text
        labels = ("猫", "坐", "在", "垫子", "上")
        rows = weight_rows(text, labels)
        assert len(rows) == 5
        for row, weights in zip(rows, screen.result.weights[0], strict=True):
            assert [float(x) for x in row] == [round(float(w), 4) for w in weights]
        assert text.count("1.000") >= 5  # each row's sum


async def test_causal_mask_zeros_above_the_diagonal_and_heads_change_the_maps():
    async with AttnApp(lang="en").run_test(size=(80, 24)) as pilot:
        screen = await open_lab(pilot)
        await pilot.press("f3")
        await pilot.pause()
        assert screen.result.causal
        labels = ("猫", "坐", "在", "垫子", "上")
        rows = weight_rows(body(screen), labels)
        for i, row in enumerate(rows):
            assert all(cell == "0" for cell in row[i + 1 :])  # masked: exactly 0
            assert all(cell != "0" for cell in row[: i + 1])
        assert "−∞" in body(screen).replace("\n", " ") or "exactly 0" in body(screen)
        assert np.all(np.triu(screen.result.weights, 1) == 0)

        heads = screen.query_one("#heads", Input)
        heads.value = "4"
        await pilot.pause()
        assert screen.result.heads == 4 and screen.result.d_k == 2
        assert body(screen, "heads", 100).count(": weights") == 4  # one heatmap per head
        assert "4 heads of d_k = 2" in body(screen, "heads", 100)
        await pilot.press("f6", "f6", "f6")
        assert "head 4/4" in body(screen)
        await pilot.press("f6")
        assert "head 1/4" in body(screen)

        await pilot.press("f3")
        await pilot.pause()
        assert not screen.result.causal and screen.result.weights[:, 0, 1].all()


async def test_heads_that_do_not_divide_d_model_are_named_and_the_last_layer_stays():
    async with AttnApp(lang="en").run_test(size=(80, 24)) as pilot:
        screen = await open_lab(pilot)
        screen.query_one("#heads", Input).value = "3"
        await pilot.pause()
        error = screen.query_one("#heads-error", Static)
        assert error.has_class("-shown")
        message = shown(error, 200)
        assert "h = 3 heads do not divide d_model = 8" in message and "1, 2, 4, 8" in message
        assert screen.stale and screen.result.heads == 2  # the last valid layer is kept
        assert "last valid settings" in shown(screen.query_one("#stale", Static), 200)
        screen.query_one("#heads", Input).value = "8"
        await pilot.pause()
        assert not error.has_class("-shown") and screen.result.heads == 8


async def test_cursor_shows_the_cell_arithmetic_and_masked_cells_say_why():
    async with AttnApp(lang="en").run_test(size=(80, 24)) as pilot:
        screen = await open_lab(pilot)
        await pilot.press("down", "down", "right")  # query 在, key 坐
        assert screen.cursor == (2, 1)
        text = body(screen, width=80)
        assert "query “在” (row 3) looks at key “坐” (column 2)" in text
        cell = screen.result.weights[0, 2, 1]
        assert f"weight = {cell:.4f}" in text
        assert "÷ √d_k" in text
        await pilot.press("up", "up", "right", "right")  # query 猫, key 在: after it
        await pilot.press("f3")
        await pilot.pause()
        text = body(screen, width=80)
        assert "this key is masked (it comes after the query)" in text
        for _ in range(10):
            await pilot.press("right")
        assert screen.cursor == (0, 4)  # stays inside the matrix


async def test_window_and_cross_attention():
    async with AttnApp(lang="en").run_test(size=(80, 24)) as pilot:
        screen = await open_lab(pilot)
        screen.query_one("#window", Input).value = "1"
        await pilot.pause()
        allowed = screen.result.allowed
        assert allowed[0, 1] and not allowed[0, 2] and allowed[4, 3]
        screen.query_one("#window", Input).value = ""
        screen.query_one("#cross", Select).value = "love"
        await pilot.pause()
        r = screen.result
        assert r.cross and r.weights.shape == (2, 5, 3)
        assert "5×3 rectangle" in body(screen, width=200)
        await pilot.press("f3")  # causal needs positions the two sentences do not share
        await pilot.pause()
        assert "self-attention only" in shown(screen.query_one("#cross-error", Static), 200)


async def test_token_count_and_views():
    async with AttnApp(lang="en").run_test(size=(80, 24)) as pilot:
        screen = await open_lab(pilot)
        screen.query_one("#tokens", Input).value = "7"
        await pilot.pause()
        assert screen.query_one("#sentence", Select).value == "count"
        assert screen.result.queries.labels[-1] == "x7"
        screen.query_one("#tokens", Input).value = "9"
        await pilot.pause()
        assert "at most 8" in shown(screen.query_one("#tokens-error", Static), 200)
        screen.query_one("#sentence", Select).value = "love"
        await pilot.pause()
        assert screen.query_one("#tokens", Input).value == "3" and not screen.stale
        await pilot.press("f4")
        assert screen.view == "qkv" and "Q = X·W_Q (8, 8)" in body(screen, "qkv", 80)
        await pilot.press("f4", "f4")
        text = body(screen, "shapes", 80)
        assert "n = 10, d_model = 512, h = 8, d_k = 64" in text
        assert "(10, 8, 64)" in text and "(8, 10, 10)" in text and "(10, 512)" in text
        await pilot.press("f4")
        text = body(screen, "cost", 80)
        assert "3² = 9 scores" in text and "100×" in text and "10,000" in text
        assert "1,000,000" in text
        await pilot.press("f4")
        assert screen.view == "attn"


async def test_language_switch_redraws_in_place():
    async with AttnApp(lang="en").run_test(size=(80, 24)) as pilot:
        screen = await open_lab(pilot)
        screen.query_one("#heads", Input).value = "4"
        await pilot.press("down", "f3")
        await pilot.pause()
        await pilot.press("f2")
        await pilot.pause()
        assert pilot.app.lang == "zh"
        text = body(screen, width=80)
        assert "自注意力 · 5 个词" in text and "因果" in text
        assert screen.cursor == (1, 0) and screen.result.heads == 4 and screen.result.causal
        assert screen.query_one("#heads", Input).value == "4"
        assert "同一句" in str(screen.query_one("#cross", Select).selection or "") or (
            screen.query_one("#cross", Select).value == "off"
        )
        keys = {b.binding.description for b in screen.active_bindings.values()}
        assert "掩码" in keys
        await pilot.press("f2")
        assert "self-attention · 5 tokens" in body(screen, width=80)


def test_heatmap_fits_the_width_it_is_given():
    values = np.array([[0.12345, 0.5], [1.0, -0.25]])
    heat = Heatmap(values, ["a", "垫子"], ["k1", "k2"], masked=np.array([[0, 1], [0, 0]], bool),
                   cursor=(1, 0), extra=["1", "2"], extra_title="sum")  # fmt: skip

    def text(width: int) -> str:
        console = Console(width=width, record=True, file=open("/dev/null", "w"), color_system=None)  # noqa: SIM115
        console.print(heat)
        return console.export_text()

    wide = text(60)
    assert "0.12" in wide and "−∞" in wide and "垫子" in wide and "sum" in wide
    narrow = text(14)
    assert "0.12" not in narrow and "··" in narrow  # shading alone, mask still marked
