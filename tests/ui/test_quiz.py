"""Pilot tests of the quiz screen: a seeded quick quiz end to end, the review of what was
missed, a retry of just those, the history kept in the progress store, and F2 mid-question."""

from __future__ import annotations

import pytest
from textual.widgets import Button, Input, Static

from attn_tui.app import AttnApp
from attn_tui.core.progress import ProgressStore
from attn_tui.screens.quiz import QuizScreen

from .conftest import shown

SEED = 3


@pytest.fixture(autouse=True)
def _seeded(monkeypatch):
    monkeypatch.setattr(QuizScreen, "SEED", SEED)


def key_for(inst, lang="en") -> str:
    """What a learner who knows the answer types."""
    ex = inst.exercise
    if ex.kind == "text":
        return inst.answer.get(lang)
    if ex.kind == "multi":
        return " ".join(sorted(inst.answer))
    if ex.kind == "truefalse":
        return "t" if inst.answer else "f"
    if ex.kind == "number":
        return repr(float(inst.answer))
    return str(inst.answer)


async def open_quiz(pilot) -> QuizScreen:
    pilot.app.switch_mode("quiz")
    await pilot.pause()
    screen = pilot.app.screen
    assert isinstance(screen, QuizScreen)
    return screen


async def answer(pilot, screen: QuizScreen, typed: str) -> None:
    box = screen.query_one("#answer", Input)
    assert box.has_focus
    box.value = typed
    await pilot.press("enter")  # submit
    await pilot.pause()


@pytest.mark.slow  # a whole quiz, its review and a retry
async def test_quick_quiz_end_to_end_with_review_and_retry(tmp_path):
    async with AttnApp(lang="en").run_test(size=(80, 24)) as pilot:
        screen = await open_quiz(pilot)
        assert "No quiz taken yet" in shown(screen.query_one("#history", Static), 78)
        await pilot.press("enter")  # the Quick button has the focus
        await pilot.pause()
        assert screen.view == "question" and len(screen.run) == 10
        ids = [inst.exercise.id for inst in screen.run]
        wrong_at = {1, 4, 7}
        for i in range(10):
            assert f"Question {i + 1} of 10" in shown(screen.query_one("#quiz-status", Static), 78)
            inst = screen.run[i]
            if i in wrong_at:
                await pilot.click("#skip")
                await pilot.pause()
            else:
                await answer(pilot, screen, key_for(inst))
            feedback = shown(screen.query_one("#q-feedback", Static), 76)
            assert "Reference answer:" in feedback and "Why" in feedback
            assert ("Correct!" in feedback) == (i not in wrong_at)
            assert screen.query_one("#next", Button).has_focus
            await pilot.press("enter")  # next
            await pilot.pause()

        assert screen.view == "summary"
        body = shown(screen.query_one("#sum-body", Static), 76)
        assert "Score 7/10 (70%)" in body and "3 questions not fully right" in body
        assert "By topic" in body
        missed = [ids[i] for i in sorted(wrong_at)]
        assert list(screen.result.missed) == missed
        assert screen.query_one("#review", Button).display
        assert screen.query_one("#retry", Button).display

        store = ProgressStore.open(tmp_path / "data")
        (attempt,) = store.quiz_attempts()
        assert attempt.mode == "quick" and attempt.score == 7 and attempt.total == 10
        assert list(attempt.missed) == missed
        store.close()

        await pilot.press("f3")  # review what I missed
        await pilot.pause()
        assert screen.view == "review-view"
        review = shown(screen.query_one("#review-body", Static), 76)
        for i in sorted(wrong_at):
            assert f"{i + 1}. " in review
        assert review.count("Reference answer:") == 3 and "(no answer)" in review

        await pilot.press("f4")  # retry missed: just those three, not recorded
        await pilot.pause()
        assert screen.view == "question" and screen.mode == "retry"
        assert [inst.exercise.id for inst in screen.run] == missed
        for inst in list(screen.run):
            await answer(pilot, screen, key_for(inst))
            await pilot.press("enter")
            await pilot.pause()
        # Under load the last Enter can still be on its way (keys pressed while a view is being
        # built are held and replayed): wait for the retry's own summary, a bounded number of turns.
        for _ in range(100):
            body = shown(screen.query_one("#sum-body", Static), 76)
            if screen.view == "summary" and "Score 7/10" not in body:
                break
            await pilot.pause(0.05)
        assert "Score 3/3 (100%)" in body and "not recorded" in body
        assert "Every question right" in body
        # nothing missed this time: no "Review missed" / "Retry missed" to press (issue 26 #16)
        assert not screen.query_one("#review", Button).display
        assert not screen.query_one("#retry", Button).display
        assert screen.query_one("#again", Button).has_focus

        await pilot.press("f5")  # a new quiz: the history now shows the attempt and the best
        await pilot.pause()
        assert screen.view == "start"
        history = shown(screen.query_one("#history", Static), 78)
        assert "Best: quick 7/10 (70%)" in history and "quick  7/10  70%" in history


@pytest.mark.slow  # a full quiz, skipped through to a number question
async def test_an_unreadable_answer_is_not_spent_and_empty_asks_again():
    async with AttnApp(lang="en").run_test(size=(80, 24)) as pilot:
        screen = await open_quiz(pilot)
        await pilot.click("#full")
        await pilot.pause()
        assert len(screen.run) == len(screen.bank) >= 30
        number = next(i for i, inst in enumerate(screen.run) if inst.exercise.kind == "number")
        for _ in range(number):  # skip to the first number question
            await pilot.click("#skip")
            await pilot.pause()
            await pilot.press("enter")
            await pilot.pause()
        await answer(pilot, screen, "")
        assert screen.current is None  # nothing graded
        await answer(pilot, screen, "2.x")
        assert screen.current is None
        assert "not used up" in shown(screen.query_one("#q-feedback", Static), 76)
        await answer(pilot, screen, key_for(screen.run[number]))
        assert screen.current is not None and screen.current.grade.correct


async def test_language_switch_redraws_the_question_and_its_feedback():
    async with AttnApp(lang="en").run_test(size=(80, 24)) as pilot:
        screen = await open_quiz(pilot)
        await pilot.press("enter")
        await pilot.pause()
        inst = screen.run[0]
        await answer(pilot, screen, key_for(inst))
        await pilot.press("f2")
        await pilot.pause()
        assert "第 1 题 / 共 10 题" in shown(screen.query_one("#quiz-status", Static), 78)
        prompt = shown(screen.query_one("#q-prompt", Static), 76)
        assert inst.exercise.prompt.zh[:6] in prompt
        feedback = shown(screen.query_one("#q-feedback", Static), 76)
        assert "正确" in feedback and "参考答案" in feedback


async def test_f5_mid_quiz_asks_before_throwing_the_quiz_away():
    async with AttnApp(lang="en").run_test(size=(80, 24)) as pilot:
        screen = await open_quiz(pilot)
        await pilot.press("enter")  # quick quiz
        await pilot.pause()
        await answer(pilot, screen, key_for(screen.run[0]))
        await pilot.press("f5")
        await pilot.pause()
        assert screen.view == "question" and screen.run  # only a warning
        await pilot.press("enter")  # carry on: next question; a later lone F5 warns again
        await pilot.pause()
        await pilot.press("f5")
        await pilot.pause()
        assert screen.view == "question"
        await pilot.press("f5")
        await pilot.pause()
        assert screen.view == "start" and not screen.run
