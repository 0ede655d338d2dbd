"""A parenthesis of prose breaks like the sentence around it (issue 26, item 6).

A bracketed group was kept whole so that a vector "(2 -1 -1)" or a shape "(10, 64)" never
splits; but the rule also took "(each entry standard normal)" down whole and left the line
before it half empty ("Random q and 8 keys" / "(each entry standard normal). The…"), in the
calculator, in exercise and in quiz explanations. Checked here on every text the app ships.
"""

import re
from functools import cache

import pytest

from attn_tui import paths
from attn_tui.core.exercises.loader import load_library
from attn_tui.core.format import cell_len, wrap
from attn_tui.text import load_catalogue

CATALOGUE = load_catalogue()

WIDTHS = range(28, 80, 5)  # the panels' widths at 80 and 120 columns, and between
WORD = re.compile(r"[A-Za-z]{2,}")
FIRST_UNIT = re.compile(r"\(\S+ [=<>≤≥≈] \S+|\S+")


def prose_group(rest: str) -> bool:
    """The text from a "(" on: is its group prose (two words or more between two commas)?"""
    end = rest.find(")")
    group = rest[1:end] if end > 0 else rest[1:]
    return any(len(WORD.findall(part)) > 1 for part in group.split(","))


def went_down_whole(lines: list[str], width: int) -> list[tuple[str, str]]:
    """Pairs of lines where a prose parenthesis started the second although its first word
    fitted on the first."""
    found = []
    for before, line in zip(lines, lines[1:], strict=False):
        if line.startswith("(") and before and prose_group(line):
            first = FIRST_UNIT.match(line).group(0)  # (a short equation is one unit)
            if cell_len(before) + 1 + cell_len(first) <= width:
                found.append((before, line))
    return found


@cache
def shipped_texts() -> list[tuple[str, str]]:
    texts = []
    for key, (zh, en) in CATALOGUE.items():
        texts += [(key, re.sub(r"\{[^{}]*\}", "n", zh)), (key, re.sub(r"\{[^{}]*\}", "n", en))]
    library = load_library(paths.exercise_sources())
    for exercise_set in [*library.sets, *library.quizzes]:
        for ex in exercise_set.exercises:
            for name, text in (("prompt", ex.prompt), ("explanation", ex.explanation),
                               *(("hint", h) for h in ex.hints)):  # fmt: skip
                texts += [(f"{exercise_set.id}/{ex.id} {name}", text.zh),
                          (f"{exercise_set.id}/{ex.id} {name}", text.en)]  # fmt: skip
    return texts


def test_the_calculator_s_experiment_intro_fills_its_first_line():
    text = CATALOGUE["calc.exp.intro"][1].format(n=8)
    lines = wrap(text, 40)
    assert lines[0] == "Random q and 8 keys (each entry standard"


def test_numbers_and_shapes_in_brackets_still_stay_whole():
    for group in ("(2 -1 -1)", "(10, 64)", "[1 0 1]", "(batch, seq, d_model)", "(d_k = 16)"):
        text = "a few words to fill the line before the group " + group + " and more after"
        for width in WIDTHS:
            assert any(group in line for line in wrap(text, width)), (group, width)


@pytest.mark.parametrize("width", WIDTHS)
def test_no_prose_parenthesis_goes_down_whole_in_any_shipped_text(width):
    texts = shipped_texts()
    assert len(texts) > 2000  # the catalogue, and every exercise and quiz item
    bad = []
    for where, text in texts:
        for paragraph in text.split("\n") if "(" in text else ():
            bad += [(where, pair) for pair in went_down_whole(wrap(paragraph, width), width)]
    assert not bad, bad[:5]
