"""The lab's heads view where two decimals do not fit (issue 26 #9): every weight reads as
whole percents, never as one decimal (a trained sorting head's 0.12 … 0.25 all read "0.1")."""

from __future__ import annotations

import re

import numpy as np
import pytest
from rich.console import Console

from attn_tui.core.attention import lab
from attn_tui.i18n import set_lang
from attn_tui.render.lab import render_heads


def ten_tokens() -> lab.Tokens:
    """Ten one-letter tokens, as the trained Transformer's sequence shows in the lab."""
    X = np.random.default_rng(3).standard_normal((10, 16))
    return lab.Tokens(labels=tuple("AAAAFCDBDA"), X=X)


def plain(renderable, width: int) -> str:
    console = Console(width=width, record=True, file=open("/dev/null", "w"), color_system=None)
    console.print(renderable)
    return console.export_text()


def head_rows(text: str, head: int, n: int) -> list[list[str]]:
    """The cells of head ``head``'s weight map (its n rows after the column header)."""
    lines = text.splitlines()
    title = next(i for i, line in enumerate(lines) if f"head {head}: weights" in line)
    return [lines[title + 2 + i].split()[1:] for i in range(n)]


@pytest.fixture(autouse=True)
def _english():
    set_lang("en")
    yield
    set_lang("en")


@pytest.mark.parametrize("heads", [1, 2])
def test_ten_tokens_at_the_lab_s_80_column_width_read_as_percents(heads):
    r = lab.compute(ten_tokens(), heads=heads, seed=3)
    text = plain(render_heads(r), 48)  # the view's width beside the settings at 80 columns
    for h in range(heads):
        cells = head_rows(text, h + 1, 10)
        want = [[str(round(100 * w)) for w in row] for row in r.weights[h]]
        assert cells == want, text
    assert not re.search(r"\b0\.\d\b", text.split("output Z")[0]), text  # no one-decimal weights
    assert text.count("Weights in percent (12 means 0.12)") == 1


def test_where_two_decimals_fit_they_are_shown_and_no_percent_note():
    r = lab.compute(ten_tokens(), heads=1, seed=3)
    text = plain(render_heads(r), 90)
    cells = head_rows(text, 1, 10)
    assert cells == [[f"{w:.2f}" for w in row] for row in np.asarray(r.weights[0])]
    assert "percent" not in text
