"""The lab's fields say what they take (items 17 and 18 of issue 26): the window field's own
word for "no window" (its placeholder, all / 不限) is accepted, an empty number field is called
empty (not “∅”), and the header names the seed of the weights on show, not "seed ?"."""

from __future__ import annotations

import pytest
from textual.widgets import Input, Static

from attn_tui.app import AttnApp

from .conftest import shown
from .test_lab import body, open_lab


# the fast tier reads the English word; the Chinese one and another case of it are slow
@pytest.mark.parametrize(
    ("lang", "word"),
    [("en", "all"), pytest.param("zh", "不限", marks=pytest.mark.slow),
     pytest.param("en", "ALL", marks=pytest.mark.slow)],
)  # fmt: skip
async def test_the_window_fields_placeholder_word_means_no_window(lang, word):
    async with AttnApp(lang=lang).run_test(size=(80, 24)) as pilot:
        screen = await open_lab(pilot)
        window = screen.query_one("#window", Input)
        window.value = "1"
        await pilot.pause()
        assert not screen.form.result.allowed.all()
        window.value = word
        await pilot.pause()
        assert "window" not in screen.form.errors
        assert screen.form.result.allowed.all()  # no window: every key allowed
        assert window.placeholder.lower() == word.lower() or lang == "en"


async def test_an_empty_seed_is_called_empty_and_the_header_keeps_the_seed_on_show():
    async with AttnApp(lang="en").run_test(size=(80, 24)) as pilot:
        screen = await open_lab(pilot)
        seed = screen.query_one("#seed", Input)
        shown_seed = seed.value
        seed.value = ""
        await pilot.pause()
        said = shown(screen.query_one("#seed-error", Static), 200)
        assert "is empty" in said and "∅" not in said
        text = body(screen, width=200)
        assert f"Random weights (seed {shown_seed})" in text and "seed ?" not in text
