"""A long quiz explanation opens with its short answer; F6 shows the rest (issue 26 #15: the
"position 3" item answered 8 under a paragraph of 20 000 iterations and 0.109 row peaks)."""

from __future__ import annotations

import pytest
from textual.widgets import Static

from attn_tui import paths
from attn_tui.app import AttnApp
from attn_tui.core.exercises.generators import instance
from attn_tui.core.format import cell_len
from attn_tui.i18n import set_lang
from attn_tui.render.quiz import LONG, SHORT_MAX, split_explanation
from attn_tui.screens.quiz import QuizScreen

from .conftest import shown

BANK = paths.load_all().quiz_exercises


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_every_long_explanation_opens_with_a_short_answer_and_loses_nothing(lang):
    set_lang(lang)
    try:
        long = 0
        for ex in BANK:
            text = instance(ex, seed=0).explanation(lang)
            short, rest = split_explanation(text)
            if cell_len(text) <= LONG:
                assert (short, rest) == (text, ""), ex.id
                continue
            long += 1
            assert rest, (ex.id, text)
            assert 20 <= cell_len(short) <= SHORT_MAX + 2, (ex.id, short)
            joined = (short.removesuffix(" …") + rest).replace(" ", "").replace("\n", "")
            assert joined == text.replace(" ", "").replace("\n", ""), ex.id
        assert long >= 10  # the bank has many: the check is not empty
    finally:
        set_lang("en")


@pytest.mark.parametrize("lang", ["en", "zh"])
async def test_the_position_3_item_answers_8_first_and_f6_shows_the_rest(lang):
    ex = next(e for e in BANK if e.id == "sc-exp-antidiag")
    async with AttnApp(lang=lang).run_test(size=(80, 24)) as pilot:
        pilot.app.switch_mode("quiz")
        await pilot.pause()
        screen = pilot.app.screen
        assert isinstance(screen, QuizScreen)
        screen.start("quick", [instance(ex)])
        await pilot.pause()
        screen.query_one("#answer").value = "8"
        await pilot.press("enter")
        await pilot.pause()
        feedback = shown(screen.query_one("#q-feedback", Static), 76)
        first = {"en": "Output t is input L + 1 − t: 10 + 1 − 3 = 8.",
                 "zh": "输出第 t 位等于输入第 L + 1 − t 位：10 + 1 − 3 = 8。"}  # fmt: skip
        assert first[lang] in feedback.replace("\n", " ").replace("  ", " ")
        assert "20 000" not in feedback and "0.109" not in feedback
        assert "F6" in feedback
        assert screen.check_action("more", ()) is True
        await pilot.press("f6")
        await pilot.pause()
        full = shown(screen.query_one("#q-feedback", Static), 76)
        assert "20 000" in full and "0.109" in full
        await pilot.press("f6")  # and back to the short answer
        await pilot.pause()
        assert "20 000" not in shown(screen.query_one("#q-feedback", Static), 76)
