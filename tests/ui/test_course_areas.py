"""A lesson's do-task in the trainer and in the lab: the area opens with the lesson's preset,
and the task is checked from the state the learner reaches there (course_state())."""

from __future__ import annotations

import asyncio
import time

from textual.widgets import Input, Select

from attn_tui import coursebook
from attn_tui.app import AttnApp
from attn_tui.screens.lab import LabScreen
from attn_tui.screens.lesson import LessonScreen
from attn_tui.screens.trainer import TrainerScreen


async def until(condition, seconds: float = 60.0) -> None:
    deadline = time.monotonic() + seconds
    while not condition():
        assert time.monotonic() < deadline, "timed out"
        await asyncio.sleep(0.05)


async def open_lesson(pilot, lesson_id: str) -> LessonScreen:
    await until(lambda: coursebook.loaded(pilot.app) is not None)
    pilot.app.push_screen(LessonScreen(lesson_id))
    await until(lambda: isinstance(pilot.app.screen, LessonScreen))
    await pilot.pause()
    lesson = pilot.app.screen
    lesson.goto("do")
    await pilot.pause()
    return lesson


async def submit(pilot, lesson: LessonScreen, text: str) -> None:
    ask = lesson.query_one("#do-ask", Input)
    ask.focus()
    ask.value = text
    await pilot.press("enter")
    await pilot.pause()


async def test_the_masks_lesson_is_checked_from_the_lab(tmp_path):
    async with AttnApp(lang="en", data_dir=tmp_path / "d").run_test(size=(120, 40)) as pilot:
        lesson = await open_lesson(pilot, "masks")
        await pilot.press("f4")
        await until(lambda: isinstance(pilot.app.screen, LabScreen))
        lab = pilot.app.screen
        await pilot.pause()
        assert lab.form.result.d_model == 8 and lab.form.result.heads == 2  # the lesson's preset
        assert lab.form.result.n_q == 5  # 猫 坐 在 垫子 上
        weights = lab.form.result.weights[lab.views.head, 2]
        row = " ".join(f"{w:.2f}" for w in weights)  # no mask yet
        await pilot.press("escape")
        await until(lambda: pilot.app.screen is lesson)
        await submit(pilot, lesson, row)
        assert lesson.result.code == "need_causal"  # the state, not the typed row, decides
        await pilot.press("f4")
        await until(lambda: isinstance(pilot.app.screen, LabScreen))
        lab = pilot.app.screen
        lab.query_one("#causal").value = True
        await until(lambda: lab.form.result is not None and lab.form.result.causal)
        row = " ".join(f"{w:.2f}" for w in lab.form.result.weights[lab.views.head, 2])
        await until(lambda: lesson.last_state is not None and lesson.last_state.result.causal)
        await pilot.press("escape")
        await until(lambda: pilot.app.screen is lesson)
        await submit(pilot, lesson, " ".join(["0.5", "0.5"] + ["0"] * (len(row.split()) - 2)))
        assert lesson.result.code == "read_again"
        await submit(pilot, lesson, row)
        assert lesson.result.done and "do" in lesson.record.done


async def test_the_positions_lesson_is_checked_from_the_trainer(tmp_path):
    async with AttnApp(lang="en", data_dir=tmp_path / "d").run_test(size=(120, 40)) as pilot:
        lesson = await open_lesson(pilot, "positions")
        await pilot.press("f4")
        await until(lambda: isinstance(pilot.app.screen, TrainerScreen))
        trainer = pilot.app.screen
        await pilot.pause()
        assert trainer.query_one("#model", Select).value == "transformer"
        assert trainer.query_one("#positions", Select).value == "none"  # the lesson's preset
        trainer.query_one("#pace", Select).value = "fast"
        await pilot.pause()
        trainer.action_start()
        await until(lambda: trainer.live.result is not None and not trainer.running, 120)
        accuracy = trainer.live.snapshot.pos_acc
        await until(
            lambda: (
                lesson.last_state is not None
                and not lesson.last_state.running
                and lesson.last_state.iteration >= 300
            )
        )  # read on the lesson's poll
        await pilot.press("escape")
        await until(lambda: pilot.app.screen is lesson)
        await submit(pilot, lesson, "0.99")
        assert not lesson.result.done
        await submit(pilot, lesson, f"{accuracy:.3f}")
        assert lesson.result.done
        assert accuracy < 0.45  # blind to positions: near the ceiling, far from 1
