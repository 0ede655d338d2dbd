"""Exercises and quiz, as a learner expects them (issues 11 and 12): one rule for answers that
are not answers, no free hints, the calculator as a counted reveal with Esc back, a list of the
set's exercises to jump to, redo and reset, a quiz that asks before Esc and can be resumed."""

import pytest
from textual.widgets import Button, Input, OptionList, Static

from attn_tui.app import AttnApp
from attn_tui.core.format import wrap
from attn_tui.core.progress import ProgressStore
from attn_tui.screens.calculator import CalculatorScreen
from attn_tui.screens.confirm import ConfirmScreen
from attn_tui.screens.exercises import ExercisesScreen
from attn_tui.screens.quiz import QuizScreen

from .conftest import screen_lines, shown
from .test_exercises import answer, open_exercises, text_of


def stored(data, set_id: str, exercise_id: str | None = None):
    with ProgressStore.open(data) as store:
        return store.attempts(set_id, exercise_id)


def _index_of_kind(screen: ExercisesScreen, kind: str) -> int:
    return next(i for i, e in enumerate(screen.current.exercises) if e.kind == kind)


@pytest.mark.parametrize("typed, kind", [("ture", "truefalse"), ("√", "number"), ("zz", "choice")])
async def test_an_answer_that_cannot_be_read_is_not_spent(tmp_path, typed, kind):
    data = tmp_path / "d"
    async with AttnApp(lang="en", data_dir=data).run_test(size=(80, 24)) as pilot:
        screen = await open_exercises(pilot)
        set_id = next(s.id for s in screen.library.sets if any(e.kind == kind for e in s.exercises))
        screen.open_set(set_id)
        screen.show_exercise(_index_of_kind(screen, kind))
        await pilot.pause()
        ex_id = screen.inst.exercise.id
        await answer(pilot, screen, typed)
        feedback = " ".join(text_of(screen, "#ex-feedback").split())
        assert "Not counted as an attempt" in feedback
        assert "Not right." not in feedback
        assert stored(data, set_id, ex_id) == []
        assert "attempts" not in str(screen.query_one("#ex-body").border_subtitle)


async def test_a_root_is_read_where_a_number_is_asked(tmp_path):
    data = tmp_path / "d"
    async with AttnApp(lang="en", data_dir=data).run_test(size=(80, 24)) as pilot:
        screen = await open_exercises(pilot)
        set_id = next(
            s.id for s in screen.library.sets if any(e.kind == "number" for e in s.exercises)
        )
        screen.open_set(set_id)
        screen.show_exercise(_index_of_kind(screen, "number"))
        await pilot.pause()
        await answer(pilot, screen, "1/√3")
        (tried,) = stored(data, set_id, screen.inst.exercise.id)
        assert tried.answer == "1/√3"  # read, graded and counted: an answer, right or not
        assert screen.pane.grade.status in ("correct", "incorrect")


async def test_holding_enter_on_a_wrong_answer_stores_one_attempt(tmp_path):
    data = tmp_path / "d"
    async with AttnApp(lang="en", data_dir=data).run_test(size=(80, 24)) as pilot:
        screen = await open_exercises(pilot)
        await pilot.press("enter")  # the first set, its first exercise (a choice)
        await pilot.pause()
        screen.query_one("#ex-answer", Input).value = "a"
        for _ in range(40):
            await pilot.press("enter")
        await pilot.pause()
        assert len(stored(data, "three-steps", "order")) == 1
        await answer(pilot, screen, "b")  # a changed answer is a new attempt
        assert len(stored(data, "three-steps", "order")) == 2


async def test_the_calculator_from_an_exercise_counts_as_a_reveal_and_esc_comes_back(tmp_path):
    data = tmp_path / "d"
    async with AttnApp(lang="en", data_dir=data).run_test(size=(80, 24)) as pilot:
        screen = await open_exercises(pilot)
        screen.open_set("hand-example")
        await pilot.pause()
        ex_id = screen.inst.exercise.id
        await pilot.press("f7")
        await pilot.pause()
        assert pilot.app.screen is screen  # only the warning: nothing seen yet
        assert stored(data, "hand-example", ex_id) == []
        await pilot.press("f7")
        await pilot.pause()
        assert isinstance(pilot.app.screen, CalculatorScreen)
        (seen,) = stored(data, "hand-example", ex_id)
        assert seen.revealed and not seen.correct
        await pilot.press("escape")
        await pilot.pause()
        assert pilot.app.screen is screen and pilot.app.current_mode == "exercises"
        assert screen.inst.exercise.id == ex_id and screen.pane.finished


async def _three_states(pilot, screen):
    """Exercise 1 wrong, 2 right, 3 answer seen."""
    await pilot.press("enter")
    await pilot.pause()
    await answer(pilot, screen, "a")  # wrong
    screen.show_exercise(1)
    await answer(
        pilot, screen, "score with dot products, softmax to weights, weighted sum of values"
    )
    assert screen.pane.grade.correct
    screen.show_exercise(2)
    await pilot.press("f4")
    await pilot.pause()


@pytest.mark.slow  # a whole set walked twice
async def test_the_set_list_marks_each_exercise_and_redo_visits_only_the_unsolved(tmp_path):
    async with AttnApp(lang="en", data_dir=tmp_path / "d").run_test(size=(80, 24)) as pilot:
        screen = await open_exercises(pilot)
        await _three_states(pilot, screen)
        await pilot.press("f8")
        await pilot.pause()
        assert screen.in_items
        items = screen.query_one("#ex-items-list", OptionList)
        marks = [str(items.get_option_at_index(i).prompt)[0] for i in range(4)]
        assert marks == ["✗", "✓", "○", "·"]
        await pilot.press("w")
        await pilot.pause()
        assert screen.redo and screen.index == 0
        await pilot.press("pagedown")  # skip: on to the next one not solved, past the solved 2
        assert screen.index == 2
        await pilot.press("pagedown")
        assert screen.index == 3


async def test_jump_from_the_list_to_any_exercise(tmp_path):
    async with AttnApp(lang="en", data_dir=tmp_path / "d").run_test(size=(80, 24)) as pilot:
        screen = await open_exercises(pilot)
        await pilot.press("enter")
        await pilot.pause()
        await pilot.press("f8")
        await pilot.pause()
        await pilot.press("down", "down", "down", "down", "enter")
        await pilot.pause()
        assert not screen.in_items and screen.index == 4


async def test_reset_one_exercise_and_the_whole_set_ask_first(tmp_path):
    data = tmp_path / "d"
    async with AttnApp(lang="en", data_dir=data).run_test(size=(80, 24)) as pilot:
        screen = await open_exercises(pilot)
        await _three_states(pilot, screen)
        await pilot.press("f8")
        await pilot.pause()
        screen.query_one("#ex-items-list", OptionList).highlighted = 0
        await pilot.press("r")
        await pilot.pause()
        assert isinstance(pilot.app.screen, ConfirmScreen)
        await pilot.press("n")  # keep
        await pilot.pause()
        assert len(stored(data, "three-steps", "order")) == 1
        await pilot.press("r")
        await pilot.pause()
        await pilot.press("y")
        await pilot.pause()
        assert stored(data, "three-steps", "order") == []
        assert len(stored(data, "three-steps")) == 2  # the others kept theirs
        items = screen.query_one("#ex-items-list", OptionList)
        assert str(items.get_option_at_index(0).prompt)[0] == "·"
        await pilot.press("x")
        await pilot.pause()
        await pilot.press("y")
        await pilot.pause()
        assert stored(data, "three-steps") == []


async def test_the_set_summary_is_on_screen_at_80_by_24(tmp_path):
    async with AttnApp(lang="en", data_dir=tmp_path / "d").run_test(size=(80, 24)) as pilot:
        screen = await open_exercises(pilot)
        for _ in range(8):  # to the last set: the list scrolls, the summary stays
            await pilot.press("down")
        await pilot.pause()
        summary = screen.query_one("#ex-summary", Static)
        ex_set = screen.set_list.highlighted_set()
        text = " ".join(ex_set.summary.en.split())
        lines = screen_lines(pilot.app)
        assert summary.region.bottom <= 23  # above the footer
        shown_text = " ".join(" ".join(line.strip() for line in lines).split())
        assert text in shown_text


def test_a_prompts_vectors_are_not_broken_across_lines():
    prompt = (
        "Query q = (2 -2 -2), keys (separated by semicolons) -1 -2 2; 2 0 -2; -2 -1 0. "
        "Give the raw dot-product score q·kᵢ for each key (no scaling)."
    )
    for width in range(24, 90):
        text = "\n".join(wrap(prompt, width))
        for group in ("(2 -2 -2)", "-1 -2 2;", "2 0 -2;", "-2 -1 0."):
            assert group in text, (width, text)


def test_a_number_stays_with_its_unit_in_chinese():
    for width in range(10, 40):
        lines = wrap("查询是 2 维，键是 3 维：两者维数必须相同才能做点积。", width)
        assert all(not line.rstrip().endswith(("2", "3")) for line in lines), (width, lines)


async def test_f2_clears_a_message_in_the_old_language(tmp_path):
    async with AttnApp(lang="zh", data_dir=tmp_path / "d").run_test(size=(80, 24)) as pilot:
        pilot.app.notify("这一组全部做对了！")
        await pilot.pause()
        await pilot.press("f2")
        await pilot.pause()
        messages = [n.message for n in pilot.app._notifications]
        assert messages == ["Interface language: English"]


# ---- the quiz ----------------------------------------------------------------------------


async def _start_full_quiz(pilot) -> QuizScreen:
    await pilot.app.switch_mode("quiz")
    await pilot.pause()
    screen = pilot.app.screen
    assert isinstance(screen, QuizScreen)
    await pilot.click("#full")
    await pilot.pause()
    return screen


@pytest.mark.slow  # two app sessions, a quiz walked in each
async def test_esc_mid_quiz_asks_and_the_quiz_resumes_even_after_a_restart(tmp_path):
    data = tmp_path / "d"
    async with AttnApp(lang="en", data_dir=data).run_test(size=(80, 24)) as pilot:
        screen = await _start_full_quiz(pilot)
        for _ in range(3):  # three questions skipped (answered empty)
            await pilot.click("#skip")
            await pilot.pause()
            await pilot.press("enter")
            await pilot.pause()
        ids = [inst.exercise.id for inst in screen.run]
        await pilot.press("escape")
        await pilot.pause()
        assert isinstance(pilot.app.screen, ConfirmScreen)
        await pilot.press("n")  # stay
        await pilot.pause()
        assert pilot.app.screen is screen and len(screen.answered) == 3
        await pilot.press("escape")
        await pilot.pause()
        await pilot.press("y")
        await pilot.pause()
        assert pilot.app.current_mode == "home"

    async with AttnApp(lang="en", data_dir=data).run_test(size=(80, 24)) as pilot:
        await pilot.app.switch_mode("quiz")
        await pilot.pause()
        screen = pilot.app.screen
        resume = screen.query_one("#resume", Button)
        assert resume.display and "question 4 of" in str(resume.label)
        await pilot.click("#resume")
        await pilot.pause()
        assert [inst.exercise.id for inst in screen.run] == ids
        assert len(screen.answered) == 3 and screen.view == "question"
        status = shown(screen.query_one("#quiz-status", Static), 78)
        assert f"Question 4 of {len(ids)}" in status


@pytest.mark.slow  # a whole quiz walked to its end
async def test_a_finished_quiz_leaves_nothing_to_resume(tmp_path):
    data = tmp_path / "d"
    async with AttnApp(lang="en", data_dir=data).run_test(size=(80, 24)) as pilot:
        await pilot.app.switch_mode("quiz")
        await pilot.pause()
        screen = pilot.app.screen
        await pilot.press("enter")  # quick
        await pilot.pause()
        for _ in range(len(screen.run)):
            await pilot.click("#skip")
            await pilot.pause()
            await pilot.press("enter")
            await pilot.pause()
        assert screen.view == "summary"
    with ProgressStore.open(data) as store:
        assert store.quiz_run() is None
