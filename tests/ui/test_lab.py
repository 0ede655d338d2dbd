"""Pilot tests of the lab: toggle the mask, change heads, move the cursor, switch language,
type X and the W matrices."""

import numpy as np
import pytest
from rich.console import Console
from textual.widgets import Collapsible, Input, Select, Static, TextArea

from attn_tui.app import AttnApp
from attn_tui.core.attention import lab
from attn_tui.render.heatmap import Heatmap
from attn_tui.screens.lab import LabScreen
from attn_tui.widgets.lab.settings import MatrixArea

from .conftest import shown


async def open_lab(pilot, sentence: str = "cat"):
    """The lab, on the seed's sentence 猫 坐 在 垫子 上 (English mode opens on "I love China")."""
    pilot.app.switch_mode("lab")  # not by keys: the home list grows as areas are added
    await pilot.pause()
    screen = pilot.app.screen
    assert isinstance(screen, LabScreen)
    if screen.query_one("#sentence", Select).value != sentence:
        screen.query_one("#sentence", Select).value = sentence
        await pilot.pause()
    return screen


def body(screen, view: str = "attn", width: int = 60) -> str:
    """What a view shows, once on show (F4 to it): the lab draws the view on show only."""
    screen.views.view = view
    return shown(screen.query_one(f"#{view}-body", Static), width)


def weight_rows(text: str, labels) -> list[list[str]]:
    """The weight cells of each labelled row of the shown heatmap."""
    rows = []
    for line in text.splitlines():
        parts = line.replace("▕", " ").replace("▏", " ").split()  # the cursor's frame
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
        for row, weights in zip(rows, screen.form.result.weights[0], strict=True):
            assert [float(x) for x in row] == [round(float(w), 4) for w in weights]
        assert text.count("1.000") >= 5  # each row's sum


async def test_causal_mask_zeros_above_the_diagonal_and_heads_change_the_maps():
    async with AttnApp(lang="en").run_test(size=(80, 24)) as pilot:
        screen = await open_lab(pilot)
        await pilot.press("f3")
        await pilot.pause()
        assert screen.form.result.causal
        labels = ("猫", "坐", "在", "垫子", "上")
        rows = weight_rows(body(screen), labels)
        for i, row in enumerate(rows):
            assert all(cell == "0" for cell in row[i + 1 :])  # masked: exactly 0
            assert all(cell != "0" for cell in row[: i + 1])
        assert "−∞" in body(screen).replace("\n", " ") or "exactly 0" in body(screen)
        assert np.all(np.triu(screen.form.result.weights, 1) == 0)

        heads = screen.query_one("#heads", Input)
        heads.value = "4"
        await pilot.pause()
        assert screen.form.result.heads == 4 and screen.form.result.d_k == 2
        assert body(screen, "heads", 100).count(": weights") == 4  # one heatmap per head
        assert "4 heads of d_k = 2" in body(screen, "heads", 100)
        await pilot.press("f6", "f6", "f6")
        assert "head 4/4" in body(screen)
        await pilot.press("f6")
        assert "head 1/4" in body(screen)

        await pilot.press("f3")
        await pilot.pause()
        assert not screen.form.result.causal and screen.form.result.weights[:, 0, 1].all()


@pytest.mark.slow  # types heads key by key; test_lab_bad_heads[en] draws the fault in the fast tier
async def test_heads_that_do_not_divide_d_model_are_named_and_the_last_layer_stays():
    async with AttnApp(lang="en").run_test(size=(80, 24)) as pilot:
        screen = await open_lab(pilot)
        screen.query_one("#heads", Input).value = "3"
        await pilot.pause()
        error = screen.query_one("#heads-error", Static)
        assert error.has_class("-shown")
        message = shown(error, 200)
        assert "h = 3 heads do not divide d_model = 8" in message and "1, 2, 4, 8" in message
        assert screen.form.stale and screen.form.result.heads == 2  # the last valid layer is kept
        assert "last valid settings" in shown(screen.query_one("#stale", Static), 200)
        screen.query_one("#heads", Input).value = "8"
        await pilot.pause()
        assert not error.has_class("-shown") and screen.form.result.heads == 8


async def test_cursor_shows_the_cell_arithmetic_and_masked_cells_say_why():
    async with AttnApp(lang="en").run_test(size=(80, 24)) as pilot:
        screen = await open_lab(pilot)
        await pilot.press("down", "down", "right")  # query 在, key 坐
        assert screen.views.cursor == (2, 1)
        text = body(screen, width=80)
        assert "query “在” (row 3) looks at key “坐” (column 2)" in text
        cell = screen.form.result.weights[0, 2, 1]
        assert f"weight = {cell:.4f}" in text
        assert "÷ √d_k" in text
        await pilot.press("up", "up", "right", "right")  # query 猫, key 在: after it
        await pilot.press("f3")
        await pilot.pause()
        text = body(screen, width=80)
        assert "this key is masked (it comes after the query)" in text
        for _ in range(10):
            await pilot.press("right")
        assert screen.views.cursor == (0, 4)  # stays inside the matrix


async def test_window_and_cross_attention():
    async with AttnApp(lang="en").run_test(size=(80, 24)) as pilot:
        screen = await open_lab(pilot)
        screen.query_one("#window", Input).value = "1"
        await pilot.pause()
        allowed = screen.form.result.allowed
        assert allowed[0, 1] and not allowed[0, 2] and allowed[4, 3]
        screen.query_one("#window", Input).value = ""
        screen.query_one("#cross", Select).value = "love"
        await pilot.pause()
        r = screen.form.result
        assert r.cross and r.weights.shape == (2, 5, 3)
        assert "5 rows (one per query) and 3 columns (one per key)" in body(screen, width=200)
        await pilot.press("f3")  # causal needs positions the two sentences do not share
        await pilot.pause()
        assert "self-attention only" in shown(screen.query_one("#cross-error", Static), 200)


@pytest.mark.parametrize("lang", ["en", "zh"])
async def test_three_tokens_onto_three_are_not_called_a_rectangle(lang):
    """Issue 26 #19: "a 3×3 rectangle … In self-attention … square" contradicted itself."""
    async with AttnApp(lang=lang).run_test(size=(120, 40)) as pilot:
        screen = await open_lab(pilot, sentence="love")
        screen.query_one("#cross", Select).value = "love_zh"
        await pilot.pause()
        assert screen.form.result.weights.shape[1:] == (3, 3)
        text = body(screen, width=200)
        assert "rectangle" not in text and "长方形" not in text
        said = {"en": "3 rows (one per query) and 3 columns", "zh": "3 行（每个查询一行）、3 列"}
        assert said[lang] in text


async def test_token_count_and_views():
    async with AttnApp(lang="en").run_test(size=(80, 24)) as pilot:
        screen = await open_lab(pilot)
        screen.query_one("#tokens", Input).value = "7"
        await pilot.pause()
        assert screen.query_one("#sentence", Select).value == "count"
        assert screen.form.result.queries.labels[-1] == "x7"
        screen.query_one("#tokens", Input).value = "9"
        await pilot.pause()
        assert "at most 8" in shown(screen.query_one("#tokens-error", Static), 200)
        screen.query_one("#sentence", Select).value = "love"
        await pilot.pause()
        assert screen.query_one("#tokens", Input).value == "3" and not screen.form.stale
        await pilot.press("f4")
        assert screen.views.view == "qkv" and "Q = X·W_Q (8, 8)" in body(screen, "qkv", 80)
        await pilot.press("f4", "f4")
        text = body(screen, "shapes", 80)
        assert "n = 10, d_model = 512, h = 8, d_k = 64" in text
        assert "(10, 8, 64)" in text and "(8, 10, 10)" in text and "(10, 512)" in text
        await pilot.press("f4")
        text = body(screen, "cost", 80)
        assert "3² = 9 scores" in text and "100×" in text and "10,000" in text
        assert "1,000,000" in text
        await pilot.press("f4", "f4")  # all heads small, then token to token
        assert screen.views.view == "lines"
        assert "Random weights (seed 0)" in body(screen, "lines", 80)
        await pilot.press("f4")
        assert screen.views.view == "attn"


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
        result = screen.form.result
        assert screen.views.cursor == (1, 0) and result.heads == 4 and result.causal
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
    heat = Heatmap(
        values,
        ["a", "垫子"],
        ["k1", "k2"],
        masked=np.array([[0, 1], [0, 0]], bool),
        cursor=(1, 0),
        extra=["1", "2"],
        extra_title="sum",
    )

    def text(width: int) -> str:
        console = Console(width=width, record=True, file=open("/dev/null", "w"), color_system=None)
        console.print(heat)
        return console.export_text()

    wide = text(60)
    assert "0.12" in wide and "−∞" in wide and "垫子" in wide and "sum" in wide
    assert "0.12" not in text(14) and "▕ 1▏ 0" in text(14)  # 14 cells: whole numbers
    narrow = text(13)
    assert "0.12" not in narrow and "··" in narrow  # shading alone, mask still marked


X_TYPED = "1 0 1 0\n0 2 0 1\n1 1 1 1"
W_Q_TYPED = "1 0 0 1\n0 1 1 0\n1 1 0 0\n0 0 1 1"


async def type_into(pilot, widget, text: str) -> None:
    """Focus a field, clear it (F7 selects all of a TextArea) and type, key by key."""
    widget.focus()
    await pilot.pause()
    if isinstance(widget, TextArea):
        await pilot.press("f7", "backspace")
    else:
        widget.value = ""
    keys = ["enter" if c == "\n" else "space" if c == " " else c for c in text]
    await pilot.press(*keys)
    await pilot.pause()


def independent(X, W_Q, W_K, heads: int):
    """Q and head-by-head softmax(Q Kᵀ/√d_k) by plain numpy loops, nothing from the lab core."""
    Q, K = X @ W_Q, X @ W_K
    d_k = Q.shape[1] // heads
    weights = []
    for h in range(heads):
        q, k = Q[:, h * d_k : (h + 1) * d_k], K[:, h * d_k : (h + 1) * d_k]
        s = q @ k.T / np.sqrt(d_k)
        e = np.exp(s - s.max(axis=1, keepdims=True))
        weights.append(e / e.sum(axis=1, keepdims=True))
    return Q, weights


@pytest.mark.slow  # types X and W_Q key by key
async def test_typed_x_and_w_q_give_the_numpy_weights_and_q():
    async with AttnApp(lang="en").run_test(size=(80, 24)) as pilot:
        screen = await open_lab(pilot)
        assert not screen.query_one("#typed").display  # hidden until "typed rows" is chosen
        screen.query_one("#sentence", Select).value = "typed"
        await pilot.pause()
        assert screen.query_one("#typed").display
        # Choosing it starts from the numbers on show: the layer does not change.
        assert screen.query_one("#labels", Input).value == "猫 坐 在 垫子 上"
        assert not screen.form.stale and screen.form.result.queries.X.shape == (5, 8)

        await type_into(pilot, screen.query_one("#X", MatrixArea), X_TYPED)
        await type_into(pilot, screen.query_one("#labels", Input), "I love China")
        screen.query_one("#typed-w", Collapsible).collapsed = False
        await pilot.pause()
        await type_into(pilot, screen.query_one("#W_Q", MatrixArea), W_Q_TYPED)
        assert not screen.form.stale
        assert screen.query_one("#d_model", Input).value == "4"  # d_model follows X's width
        assert screen.query_one("#d_model", Input).disabled

        X = np.array([[1, 0, 1, 0], [0, 2, 0, 1], [1, 1, 1, 1]], float)
        W_Q = np.array([[1, 0, 0, 1], [0, 1, 1, 0], [1, 1, 0, 0], [0, 0, 1, 1]], float)
        W_K = lab.projections(4, 0).W_K  # empty field: the seeded matrix
        Q, weights = independent(X, W_Q, W_K, heads=2)

        text = body(screen)
        assert "self-attention · 3 tokens · d_model = 4 · 2 heads · d_k = 2" in text
        labels = ("I", "love", "China")
        for head in range(2):
            rows = weight_rows(body(screen), labels)
            assert [[float(x) for x in row] for row in rows] == np.round(weights[head], 4).tolist()
            await pilot.press("f6")  # F6 still changes the head (TextArea alone would take it)

        qkv = body(screen, "qkv", 100)
        assert "Q = X·W_Q (4, 4)  (3, 4)" in qkv
        lines = qkv.split("Q = X·W_Q")[1].splitlines()[2:5]  # after the column numbers
        shown_q = [[float(c.replace("−", "-")) for c in line.split()[1:]] for line in lines]
        assert shown_q == np.round(Q, 2).tolist()


async def open_typed(pilot, labels: str):
    """The lab with "typed rows of X" chosen, X_TYPED typed key by key, and these labels."""
    screen = await open_lab(pilot)
    screen.query_one("#sentence", Select).value = "typed"
    await pilot.pause()
    await type_into(pilot, screen.query_one("#X", MatrixArea), X_TYPED)
    await type_into(pilot, screen.query_one("#labels", Input), labels)
    return screen


@pytest.mark.slow  # a long burst of typing (about 50 s under load)
async def test_a_malformed_x_is_named_under_its_field_and_the_views_stay():
    async with AttnApp(lang="en").run_test(size=(80, 24)) as pilot:
        screen = await open_typed(pilot, labels="")
        before = body(screen)
        screen.query_one("#X", MatrixArea).focus()
        await pilot.press("down", "down", "end")  # the end of row 3
        assert "3 tokens · d_model = 4" in before and not screen.form.stale

        # One wrong key in a valid X: the last entry of row 3 becomes "x".
        await pilot.press("backspace", "backspace", "backspace", "x", "space", "1")
        error = screen.query_one("#X-error", Static)
        assert error.has_class("-shown")
        assert shown(error, 200).strip() == "X row 3: entry 3, “x”, is not a number."
        assert screen.form.stale and body(screen) == before  # the last valid layer stays
        assert "last valid settings" in shown(screen.query_one("#stale", Static), 200)

        await type_into(pilot, screen.query_one("#X", MatrixArea), "1 0 1 0\n0 2\n1 1 1 1")
        assert "X: row 2 has length 2 but row 1 has length 4" in shown(error, 200)  # ragged
        await type_into(pilot, screen.query_one("#X", MatrixArea), "\n".join(["1 0"] * 9))
        assert "at most 8" in shown(error, 200)
        await type_into(pilot, screen.query_one("#X", MatrixArea), " ".join(["1"] * 17))
        assert "X has 17 columns, so d_model = 17; the lab takes at most 16." in shown(error, 200)

        await type_into(pilot, screen.query_one("#X", MatrixArea), X_TYPED)
        assert not error.has_class("-shown") and not screen.form.stale
        # A W with the wrong number of rows is named under W_Q, and its fold opens to show it.
        screen.query_one("#W_Q", MatrixArea).text = "1 0\n0 1\n1 1"
        await pilot.pause()
        w_error = screen.query_one("#W_Q-error", Static)
        assert shown(w_error, 200).strip() == "W_Q is 3×2, but 4×2 is needed here."
        assert not screen.query_one("#typed-w", Collapsible).collapsed and screen.form.stale
        screen.query_one("#W_Q", MatrixArea).text = ""  # empty: seeded again
        await type_into(pilot, screen.query_one("#labels", Input), "a b")
        assert "X has 3 rows but 2 token labels" in shown(screen.query_one("#labels-error"), 200)
        await type_into(pilot, screen.query_one("#labels", Input), "a b c")
        assert not screen.form.stale and screen.form.result.queries.labels == ("a", "b", "c")


@pytest.mark.slow  # types several fields key by key
async def test_language_switch_keeps_what_was_typed():
    async with AttnApp(lang="en").run_test(size=(80, 24)) as pilot:
        screen = await open_typed(pilot, labels="I love China")
        screen.query_one("#W_V", MatrixArea).text = "1 0 x"
        await pilot.pause()
        weights = screen.form.result.weights.copy()
        await pilot.press("f2")
        await pilot.pause()
        assert pilot.app.lang == "zh"
        assert screen.query_one("#X", MatrixArea).text == X_TYPED
        assert screen.query_one("#labels", Input).value == "I love China"
        assert screen.query_one("#W_V", MatrixArea).text == "1 0 x"
        assert screen.query_one("#sentence", Select).value == "typed"
        assert np.array_equal(screen.form.result.weights, weights)
        w_error = shown(screen.query_one("#W_V-error", Static), 200).strip()
        assert w_error == "W_V 第 1 行的第 3 个位置“x”不是数字。"  # the fault, now in Chinese
        assert "4 行 = d_model" in str(screen.query_one("#W_Q-label", Static).content)
        assert "自注意力 · 3 个词" in body(screen, width=80)
