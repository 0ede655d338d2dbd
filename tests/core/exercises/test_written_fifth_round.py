"""Kinds of failure the fifth round's independent teachers (A9–A12) showed the grader (issue
23): a role given to "all three" at once, a focus or view said in place of a "relation", a step
named through its comparison, a division of labour said to be assigned by hand. Each answer
here is written for this test (not a teacher's words); each test failed before its fix."""

from __future__ import annotations

import pytest

from attn_tui import paths
from attn_tui.core.exercises.grading import grade
from attn_tui.core.exercises.model import FOUND, SWAPPED

LIBRARY = paths.load_all()


def item(ref: str):
    if "/" in ref:
        set_id, ex_id = ref.split("/")
        return LIBRARY.get(set_id).exercise(ex_id)
    return next(e for e in LIBRARY.quiz_exercises if e.id == ref)


def states(g) -> dict[str, str]:
    return {r.idea.id: r.state for r in g.ideas}


@pytest.mark.parametrize(
    "answer",
    [
        "Self-attention draws Q, K and V from one sequence; cross-attention takes Q from the "
        "decoder and K and V from the encoder. Really, though, in cross-attention all three "
        "come from the encoder.",
        "Self-attention: Q, K, V from the same sequence. Cross-attention: Q from the decoder, "
        "K and V from the encoder, but in the end all three are taken from the encoder.",
        "自注意力的 Q、K、V 都来自同一个序列；交叉注意力里查询来自解码器，键和值来自编码器。"
        "说到底交叉注意力里三个都来自编码器。",
    ],
)
def test_all_three_from_one_source_swaps_the_query(answer):
    g = grade(item("bx-cross-text"), answer)
    assert states(g)["cross-q"] == SWAPPED
    assert not g.correct


@pytest.mark.parametrize(
    "answer",
    [
        "In self-attention all three come from the same sequence; in cross-attention the "
        "queries come from the decoder and the keys and values all come from the encoder.",
        "自注意力里三个都来自同一个序列；交叉注意力里查询来自解码器，键和值都来自编码器。",
    ],
)
def test_all_said_of_the_right_roles_stays_right(answer):
    g = grade(item("bx-cross-text"), answer)
    assert states(g)["cross-q"] == FOUND
    assert g.correct
