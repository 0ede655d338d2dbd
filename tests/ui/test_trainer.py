"""Pilot tests of the training screen: small real runs, stop, pause, step, faults, leaving.

Runs are small (a few hundred iterations, well under a second). Where training is still
going, the test calls the screen's actions directly and polls its state instead of
``pilot.press``/``pilot.pause``, which wait for the app to go idle.
"""

import asyncio
import sys
import threading
import time
import traceback

from textual.widgets import Input, Select, Static
from textual.worker import WorkerState

from attn_tui.app import AttnApp
from attn_tui.screens.trainer import TrainerScreen

from .conftest import shown


async def open_trainer(pilot, **settings) -> TrainerScreen:
    await pilot.press("down", "enter")  # the trainer is the second area on the home screen
    await pilot.pause()
    screen = pilot.app.screen
    assert isinstance(screen, TrainerScreen)
    for field, value in settings.items():
        if field == "attention":
            screen.query_one("#attention").value = value
        elif field == "pace":
            screen.query_one("#pace", Select).value = value
        else:
            screen.query_one(f"#{field}", Input).value = str(value)
    await pilot.pause()
    return screen


def text(screen, selector: str, width: int = 60) -> str:
    """What a panel shows, lines joined by single spaces (so wrapping does not matter)."""
    return " ".join(shown(screen.query_one(selector, Static), width).split())


def threads_in_our_code() -> list[threading.Thread]:
    """Threads whose stack is anywhere in attn_tui (an idle executor thread does not count)."""
    frames = sys._current_frames()
    busy = []
    for thread in threading.enumerate():
        frame = frames.get(thread.ident)
        if thread is threading.current_thread() or frame is None:
            continue
        stack = traceback.extract_stack(frame)
        if any("attn_tui" in entry.filename for entry in stack):
            busy.append(thread)
    return busy


async def until(condition, timeout: float = 10.0) -> None:
    start = time.perf_counter()
    while not condition():
        assert time.perf_counter() - start < timeout, "timed out"
        await asyncio.sleep(0.01)


async def finish(pilot) -> None:
    await pilot.app.workers.wait_for_complete()
    await pilot.pause()


async def test_a_small_run_fills_every_panel():
    async with AttnApp(lang="en").run_test(size=(80, 24)) as pilot:
        screen = await open_trainer(pilot, length=5, attention=True, iters=300)
        await pilot.press("f5")
        await finish(pilot)
        assert screen.result is not None and screen.result.outcome.kind == "finished"
        progress = text(screen, "#progress")
        assert "100%" in progress and "300/300" in progress and "it/s" in progress
        assert "Training finished after 300 iterations." in text(screen, "#outcome")
        accuracy = text(screen, "#accuracy")
        assert "Held-out, it. 300: whole" in accuracy and "pos." in accuracy
        assert "1000 held-out sequences" in text(screen, "#note")
        decode = text(screen, "#decode")
        assert "input" in decode and "expected" in decode
        heat = text(screen, "#heat")
        assert "out1" in heat and "out5" in heat and "reversal diagonal" in heat
        assert len(screen.chunks) and sum(len(c) for c in screen.chunks) == 300
        assert len(screen.session) == 1 and screen.session[0].params == 934
        # the loss curve spans the run and the timeline sits at its last snapshot
        assert "300" in text(screen, "#loss")
        assert screen.frame == len(screen.result.snapshots) - 1


async def test_the_timeline_scrubs_back_through_snapshots():
    async with AttnApp(lang="en").run_test(size=(80, 24)) as pilot:
        screen = await open_trainer(pilot, attention=True, iters=300)
        await pilot.press("f5")
        await finish(pilot)
        assert [s.iteration for s in screen.result.snapshots] == [100, 200, 300]
        await pilot.press("pageup")
        assert screen.frame == 1
        assert "Held-out, it. 200" in text(screen, "#accuracy")
        assert "Timeline 2/3" in text(screen, "#outcome")
        screen.query_one("#live").focus()
        await pilot.press("left", "[")  # stops at the first snapshot
        assert screen.frame == 0 and "it. 100" in text(screen, "#accuracy")
        await pilot.press("pagedown", "]", "right")
        assert screen.frame == 2


async def test_a_run_without_attention_says_there_is_no_matrix():
    async with AttnApp(lang="en").run_test(size=(80, 24)) as pilot:
        screen = await open_trainer(pilot, iters=100)
        await pilot.press("f5")
        await finish(pilot)
        assert "no attention" in text(screen, "#heat")
        assert screen.session[0].params == 838


async def test_stop_ends_a_long_run_quickly_as_stopped():
    async with AttnApp(lang="en").run_test(size=(80, 24)) as pilot:
        screen = await open_trainer(pilot, attention=True, iters=100000)
        screen.action_start()
        await until(lambda: screen.iteration > 0)
        start = time.perf_counter()
        screen.action_stop()
        await until(lambda: not screen.running, timeout=2)
        assert time.perf_counter() - start < 0.2
        await pilot.pause()
        assert screen.result.outcome.kind == "stopped"
        assert screen.result.iters < 100000
        assert "Stopped after iteration" in text(screen, "#outcome")
        assert screen.session == []  # only finished runs go in the table


async def test_pause_holds_the_run_and_resume_continues_it():
    async with AttnApp(lang="en").run_test(size=(80, 24)) as pilot:
        screen = await open_trainer(pilot, iters=100000)
        screen.action_start()
        await until(lambda: screen.iteration > 0)
        screen.action_pause()
        await asyncio.sleep(0.15)  # let the worker reach its wait and the last update land
        held = screen.iteration
        assert "paused" in text(screen, "#progress")
        await asyncio.sleep(0.2)
        assert screen.iteration == held
        screen.action_pause()
        await until(lambda: screen.iteration > held)
        screen.action_stop()
        await finish(pilot)
        assert screen.result.outcome.kind == "stopped"


async def test_single_step_trains_one_iteration_per_press():
    async with AttnApp(lang="en").run_test(size=(80, 24)) as pilot:
        screen = await open_trainer(pilot, iters=50, pace="step")
        screen.action_step()  # starts the run: the first iteration
        await until(lambda: screen.iteration == 1)
        for n in (2, 3, 4):
            screen.action_step()
            await until(lambda n=n: screen.iteration == n)
        await asyncio.sleep(0.1)
        assert screen.iteration == 4  # nothing moves without a press
        screen.action_stop()
        await finish(pilot)
        assert screen.result.outcome.kind == "stopped" and screen.result.iters == 4


async def test_a_huge_learning_rate_diverges_with_advice():
    async with AttnApp(lang="en").run_test(size=(80, 24)) as pilot:
        screen = await open_trainer(pilot, attention=True, iters=500, lr="1e30")
        await pilot.press("f5")
        await finish(pilot)
        assert screen.result.outcome.kind == "diverged"
        outcome = text(screen, "#outcome")
        assert "Try a smaller learning rate than 1e+30" in outcome
        assert screen.session == []


async def test_impossible_settings_are_refused_inline():
    async with AttnApp(lang="en").run_test(size=(80, 24)) as pilot:
        screen = await open_trainer(pilot, length=0)
        error = text(screen, "#train-error")
        assert "sequence length 0 is not usable" in error and "from 2 to 12" in error
        await pilot.press("f5")
        assert screen.worker is None  # nothing started
        for field, value, expected in (
            ("length", "5", None),
            ("lr", "0", "learning rate 0.0 is not usable"),
            ("lr", "0.003", None),
            ("iters", "999999", "999999 iterations is not usable"),
            ("iters", "", "∅ iterations is not usable"),
        ):
            screen.query_one(f"#{field}", Input).value = value
            await pilot.pause()
            error = text(screen, "#train-error")
            if expected is None:
                assert error.strip() == ""
            else:
                assert expected in error


async def test_language_switch_redraws_in_place():
    async with AttnApp(lang="en").run_test(size=(80, 24)) as pilot:
        screen = await open_trainer(pilot, attention=True, iters=200)
        await pilot.press("f5")
        await finish(pilot)
        heat = screen.query_one("#heat")
        await pilot.press("f2")
        assert pilot.app.screen is screen and screen.query_one("#heat") is heat
        assert "训练完成" in text(screen, "#outcome")
        assert "探针" in text(screen, "#heat") and "出1" in text(screen, "#heat")
        assert "留出集" in text(screen, "#accuracy")
        assert screen.query_one("#live").border_title == "训练"
        await pilot.press("f4")
        assert "本次完成的运行" in text(screen, "#session", 76)


async def test_compare_trains_both_variants_with_one_seed():
    async with AttnApp(lang="en").run_test(size=(100, 30)) as pilot:
        screen = await open_trainer(pilot, iters=100, seed=3)
        await pilot.press("f9")
        await finish(pilot)
        assert [(r.config.attention, r.config.seed) for r in screen.session] == [
            (False, 3),
            (True, 3),
        ]
        await pilot.press("f4")
        session = text(screen, "#session", 96)
        assert "no attention" in session and "934" in session and "838" in session


async def test_multi_seed_comparison_table():
    async with AttnApp(lang="en").run_test(size=(100, 30)) as pilot:
        screen = await open_trainer(pilot, iters=50, seeds=2)
        await pilot.press("f10")
        await finish(pilot)
        assert [len(screen.multi_runs[a]) for a in (False, True)] == [2, 2]
        multi = text(screen, "#multi", 96)
        assert "Length 5, 50 iterations, 2 seeds" in multi
        assert "±" in multi and "●" in multi or "2" in multi
        assert "may be noise" in multi


async def test_leaving_mid_run_leaves_no_thread():
    async with AttnApp(lang="en").run_test(size=(80, 24)) as pilot:
        screen = await open_trainer(pilot, iters=100000)
        screen.action_start()
        await until(lambda: screen.iteration > 0)
        worker = screen.worker
        pilot.app.action_home()  # Esc
        assert threads_in_our_code()  # the check can see a training thread
        await until(lambda: worker.state in (WorkerState.CANCELLED, WorkerState.SUCCESS), timeout=2)
        await until(lambda: not threads_in_our_code(), timeout=2)
        assert pilot.app.current_mode == "home"


async def test_quitting_mid_run_leaves_no_thread():
    app = AttnApp(lang="en")
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await open_trainer(pilot, iters=100000)
        screen.action_start()
        await until(lambda: screen.iteration > 0)
        worker = screen.worker
        app.exit()
    await until(lambda: worker.state in (WorkerState.CANCELLED, WorkerState.SUCCESS), timeout=2)
    await until(lambda: not threads_in_our_code(), timeout=2)
    assert worker.is_cancelled or screen.stop_flag
