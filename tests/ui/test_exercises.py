"""Pilot tests of the exercises screen: a learner answers, takes hints, retries, reveals,
quits and comes back; teacher files that do not load and a damaged progress file."""

from pathlib import Path

from textual.widgets import Input, OptionList, Static, TextArea

from attn_tui.app import AttnApp
from attn_tui.core.progress import ProgressStore
from attn_tui.screens.exercises import ExercisesScreen

from .conftest import shown


async def open_exercises(pilot) -> ExercisesScreen:
    await pilot.app.switch_mode("exercises")
    await pilot.pause()
    screen = pilot.app.screen
    assert isinstance(screen, ExercisesScreen)
    return screen


async def open_first_set(pilot) -> ExercisesScreen:
    screen = await open_exercises(pilot)
    await pilot.press("enter")  # the list has focus, the first set highlighted
    await pilot.pause()
    assert screen.current is not None and screen.current.id == "three-steps"
    return screen


def text_of(screen, selector: str, width: int = 76) -> str:
    return shown(screen.query_one(selector, Static), width)


async def answer(pilot, screen, typed: str) -> None:
    field = screen.query_one("#ex-answer", Input)
    field.value = typed
    await pilot.press("enter")
    await pilot.pause()


def attempts(data: Path, exercise_id: str):
    with ProgressStore.open(data) as store:
        return store.attempts("three-steps", exercise_id)


async def test_work_through_with_a_hint_and_a_retry_quit_and_resume(tmp_path):
    data = tmp_path / "progress"
    app = AttnApp(lang="en", data_dir=data)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await open_first_set(pilot)
        assert screen.index == 0  # nothing done yet: the first exercise
        assert "Which sequence" in text_of(screen, "#ex-prompt")
        assert "c. score the query" in text_of(screen, "#ex-choices")

        await answer(pilot, screen, "a")
        assert "Not right." in text_of(screen, "#ex-feedback")
        assert "Try again" in text_of(screen, "#ex-feedback")
        assert not screen.query_one("#ex-explanation").has_class("-shown")
        assert len(attempts(data, "order")) == 1  # stored the moment it was graded

        await pilot.press("f3")
        assert "Hint 1/2" in text_of(screen, "#ex-hints")

        await answer(pilot, screen, "c")  # the retry
        assert "Correct!" in text_of(screen, "#ex-feedback")
        assert "First the query is dotted" in text_of(screen, "#ex-explanation")
        tries = attempts(data, "order")
        assert [(a.answer, a.correct, a.hints_used) for a in tries] == [
            ("a", False, 0),
            ("c", True, 1),
        ]

        await pilot.press("enter")  # Enter after a right answer moves on
        assert screen.index == 1
        await answer(
            pilot, screen, "score with dot products, softmax to weights, weighted sum of values"
        )
        assert "Correct!" in text_of(screen, "#ex-feedback")
        await pilot.press("pagedown")
        assert screen.index == 2
        await pilot.press("ctrl+q")
    assert app.return_code == 0 and not app.is_running

    again = AttnApp(lang="en", data_dir=data)
    async with again.run_test(size=(80, 24)) as pilot:
        screen = await open_exercises(pilot)
        first = screen.query_one("#ex-sets", OptionList).get_option_at_index(0)
        assert "2/10 solved" in str(first.prompt)
        await pilot.press("enter")
        await pilot.pause()
        assert screen.index == 2  # the first exercise not yet done
        assert screen.inst is not None and screen.inst.exercise.id == "weights-sum"
        assert "✓✓" in str(screen.query_one("#ex-head", Static).content)


async def test_a_wrong_vector_shows_the_entries_off():
    async with AttnApp(lang="en").run_test(size=(80, 24)) as pilot:
        screen = await open_first_set(pilot)
        await pilot.press("pagedown", "pagedown", "pagedown", "pagedown")  # skip to scores-2d
        assert screen.inst is not None and screen.inst.exercise.id == "scores-2d"
        await answer(pilot, screen, "2 1 4 -2")
        feedback = text_of(screen, "#ex-feedback")
        assert "Partly right (75%)." in feedback
        assert "Entries off: 3." in feedback
        assert "4✗" in feedback and "2✓" in feedback
        await answer(pilot, screen, "2, 1, 3, −2")  # a fixed answer is graded again
        assert "Correct!" in text_of(screen, "#ex-feedback")


async def test_a_matrix_answer_takes_rows_split_by_semicolons():
    async with AttnApp(lang="en").run_test(size=(80, 24)) as pilot:
        screen = await open_exercises(pilot)
        screen.open_set("qkv-self-attention")
        await pilot.pause()
        assert screen.current is not None
        screen.show_exercise(screen.current.index("mask-4") or 0)
        await pilot.pause()
        await answer(pilot, screen, "1 0 0 0; 1 1 0 0; 1 1 1 0; 1 1 1 1")
        assert "Correct!" in text_of(screen, "#ex-feedback")


async def test_reveal_is_recorded_as_revealed(tmp_path):
    data = tmp_path / "progress"
    async with AttnApp(lang="en", data_dir=data).run_test(size=(80, 24)) as pilot:
        screen = await open_first_set(pilot)
        await pilot.press("f4")
        await pilot.pause()
        feedback = text_of(screen, "#ex-feedback")
        assert "recorded as revealed" in feedback
        assert "The answer: c. score the query" in feedback
        assert "First the query is dotted" in text_of(screen, "#ex-explanation")
        (tried,) = attempts(data, "order")
        assert tried.revealed and not tried.correct and tried.score == 0
        await pilot.press("enter")
        assert screen.index == 1
        await pilot.press("f6")  # back to the list: a revealed answer is seen, not solved
        await pilot.pause()
        assert screen.in_list
        first = screen.query_one("#ex-sets", OptionList).get_option_at_index(0)
        assert "0/10 solved · 1 answer seen" in str(first.prompt)


async def test_another_one_draws_new_numbers(tmp_path):
    data = tmp_path / "progress"
    async with AttnApp(lang="en", data_dir=data).run_test(size=(80, 24)) as pilot:
        screen = await open_exercises(pilot)
        screen.open_set("three-steps")
        screen.show_exercise(5)  # scores-practice, generated
        await pilot.pause()
        inst = screen.inst
        assert inst is not None and inst.generated
        await answer(pilot, screen, "0 0 0 0 0")  # a wrong answer, kept with its seed
        before = text_of(screen, "#ex-prompt")
        await pilot.press("f5")
        await pilot.pause()
        after = screen.inst
        assert after is not None and after.seed != inst.seed
        assert text_of(screen, "#ex-prompt") != before
        assert not screen.query_one("#ex-feedback").has_class("-shown")
        (tried,) = attempts(data, "scores-practice")
        assert tried.seed == inst.seed


async def test_a_generated_exercise_left_wrong_comes_back_with_its_numbers(tmp_path):
    data = tmp_path / "progress"
    async with AttnApp(lang="en", data_dir=data).run_test(size=(80, 24)) as pilot:
        screen = await open_exercises(pilot)
        screen.open_set("three-steps")
        screen.show_exercise(5)
        await pilot.pause()
        seed = screen.inst.seed
        await answer(pilot, screen, "0")
        await pilot.press("pagedown", "pageup")
        assert screen.index == 5 and screen.inst.seed == seed


async def test_a_broken_teacher_file_is_one_entry_and_the_rest_load(tmp_path):
    teacher = tmp_path / "teacher"
    teacher.mkdir()
    (teacher / "bad.toml").write_text('[set]\nid = "bad"\ntitle = "no languages"\n')
    async with AttnApp(lang="en", extra_exercises=[teacher]).run_test(size=(80, 24)) as pilot:
        screen = await open_exercises(pilot)
        sets = screen.query_one("#ex-sets", OptionList)
        prompts = [sets.get_option_at_index(i) for i in range(sets.option_count)]
        broken = [o for o in prompts if (o.id or "").startswith("broken:")]
        assert len(broken) == 1
        text = str(broken[0].prompt)
        assert "Could not load" in text and "bad.toml:" in text
        assert (
            len([o for o in prompts if (o.id or "").startswith("set:")])
            == len(screen.library.sets)
            >= 9
        )
        sets.highlighted = sets.get_option_index(broken[0].id)
        await pilot.press("enter")  # a broken entry says how to check it, and opens nothing
        await pilot.pause()
        assert screen.in_list and screen.current is None
        sets.highlighted = 0
        await pilot.press("enter")  # the shipped sets still open
        await pilot.pause()
        assert screen.current is not None and screen.current.id == "three-steps"


async def test_a_damaged_progress_file_is_named_and_practice_goes_on(tmp_path):
    data = tmp_path / "progress"
    data.mkdir()
    (data / "progress.db").write_bytes(b"this is not sqlite\x00\x01\x02" * 200)
    async with AttnApp(lang="en", data_dir=data).run_test(size=(80, 24)) as pilot:
        screen = await open_exercises(pilot)
        notice = screen.query_one("#ex-notice", Static)
        assert notice.has_class("-shown")
        assert "was damaged" in shown(notice, 200) and "progress.db.damaged" in shown(notice, 200)
        await pilot.press("enter")
        await pilot.pause()
        await answer(pilot, screen, "c")
        assert "Correct!" in text_of(screen, "#ex-feedback")
    assert [a.answer for a in attempts(data, "order")] == ["c"]
    assert list(data.glob("progress.db.damaged*"))


async def test_switching_language_redraws_the_exercise_and_its_feedback():
    async with AttnApp(lang="en").run_test(size=(80, 24)) as pilot:
        screen = await open_first_set(pilot)
        await answer(pilot, screen, "a")
        await pilot.press("f2")
        await pilot.pause()
        assert "注意力" in text_of(screen, "#ex-prompt") or "顺序" in text_of(screen, "#ex-prompt")
        assert "不对" in text_of(screen, "#ex-feedback")
        assert screen.query_one("#ex-answer", Input).placeholder == "选项字母，如 b"


async def test_try_it_in_the_calculator_fills_its_fields():
    async with AttnApp(lang="en").run_test(size=(80, 24)) as pilot:
        screen = await open_exercises(pilot)
        screen.open_set("hand-example")
        await pilot.pause()
        assert screen.inst is not None and screen.inst.exercise.id == "dots"
        fill = screen.inst.calculator
        assert fill is not None
        await pilot.press("f7")  # the first press says it counts as seeing the answer
        await pilot.pause()
        await pilot.press("f7")
        await pilot.pause()
        calc = pilot.app.screen
        assert calc.query_one("#query", Input).value == fill["query"]
        rows = [r.strip() for r in fill["keys"].split(";")]
        assert calc.query_one("#keys", TextArea).text == "\n".join(rows)


async def test_another_one_rarely_repeats_the_numbers(tmp_path, monkeypatch):
    """Issue 26 #14: twelve presses of F5 on the √d practice (six choices of d) show every d
    once before any comes back; seeds from a fixed stream, so the run is the same every time."""
    import numpy as np

    from attn_tui.core.exercises import generators

    rng = np.random.default_rng(2)
    monkeypatch.setattr(generators, "new_seed", lambda: int(rng.integers(0, 2**31)))
    async with AttnApp(lang="en", data_dir=tmp_path / "p").run_test(size=(80, 24)) as pilot:
        screen = await open_exercises(pilot)
        screen.open_set("scaling-variance")
        index = next(i for i, e in enumerate(screen.current.exercises) if e.id == "sqrt-practice")
        screen.show_exercise(index)
        await pilot.pause()
        ds = [screen.inst.drawn.values["d"]]
        for _ in range(11):
            await pilot.press("f5")
            await pilot.pause()
            ds.append(screen.inst.drawn.values["d"])
            assert f"d = {ds[-1]} components" in text_of(screen, "#ex-prompt")
        choices = sorted(screen.inst.exercise.generate["choices"])
        assert sorted(ds[:6]) == choices and sorted(ds[6:]) == choices, ds
