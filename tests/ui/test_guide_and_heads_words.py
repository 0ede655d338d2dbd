"""Words on the trainer's guide and the lab's heads view (items 10 and 20 of issue 26): a guide
row's figure stands apart from its label, "off" in zh is 关 (不用 read oddly) and the row is
not cut, and one head is "1 head", not "1 heads"."""

from __future__ import annotations

import re

import pytest
from textual.widgets import Input

from attn_tui.app import AttnApp

from .conftest import screen_lines
from .test_lab import body, open_lab
from .test_trainer import open_trainer


@pytest.mark.parametrize("lang", ["zh", "en"])
async def test_every_guide_row_has_a_space_before_its_figure(lang):
    async with AttnApp(lang=lang).run_test(size=(80, 24)) as pilot:
        await open_trainer(pilot)
        await pilot.pause()
        rows = [line for line in screen_lines(pilot.app) if re.search(r"\b[1-5] \S", line)]
        figures = [line for line in rows if re.search(r"\d\.\d\d", line)]
        assert figures, rows
        for line in figures:
            assert re.search(r"\s\d\.\d\d", line), line
        if lang == "zh":
            text = "\n".join(rows)
            assert "3 关 长度10" in text and "不用" not in text and "…" not in text


@pytest.mark.parametrize(("heads", "said"), [("1", "1 head of d_k"), ("2", "2 heads of d_k")])
async def test_the_heads_view_counts_heads_in_words(heads, said):
    async with AttnApp(lang="en").run_test(size=(80, 24)) as pilot:
        screen = await open_lab(pilot)
        screen.query_one("#heads", Input).value = heads
        await pilot.pause()
        text = " ".join(body(screen, "heads", width=200).split())
        assert said in text
