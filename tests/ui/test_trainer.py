"""Pilot tests of the training screen: small real runs, stop, pause, step, faults, leaving.

Runs are small (a few hundred iterations, well under a second) and train in a child process.
Where training is still going, the test calls the screen's actions directly and polls its
state instead of ``pilot.press``/``pilot.pause``, which wait for the app to go idle.
"""

import asyncio
import sys
import threading
import time
import traceback

import pytest
from textual.widgets import Input, OptionList, Select, Static
from textual.worker import WorkerState

from attn_tui.app import AttnApp
from attn_tui.compat import FooterKey
from attn_tui.screens.trainer import GUIDE, TrainerScreen

from .conftest import shown

SELECTS = ("variant", "feed", "pace", "versus")


async def open_trainer(pilot, **settings) -> TrainerScreen:
    await pilot.press("down", "enter")  # the trainer is the second area on the home screen
    await pilot.pause()
    screen = pilot.app.screen
    assert isinstance(screen, TrainerScreen)
    settings.setdefault("pace", "fast")
    for field, value in settings.items():
        if field in SELECTS:
            screen.query_one(f"#{field}", Select).value = value
        else:
            screen.query_one(f"#{field}", Input).value = str(value)
    await pilot.pause()
    return screen


def text(screen, selector: str, width: int = 60) -> str:
    """What a panel shows, lines joined by single spaces (so wrapping does not matter)."""
    return " ".join(shown(screen.query_one(selector, Static), width).split())


def as_shown(screen, selector: str) -> list[str]:
    """The lines a panel shows at the width it really has on screen."""
    widget = screen.query_one(selector, Static)
    return shown(widget, widget.content_region.width).splitlines()


def select_label(screen, field: str) -> str:
    """The text a Select shows for its current value."""
    label = screen.query_one(f"#{field}", Select).query_one("SelectCurrent #label", Static)
    return str(label.render())


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


def the_run_process():
    """The live run's child process (the newest child of this process still alive)."""
    import multiprocessing

    children = multiprocessing.active_children()
    assert children, "no child process"
    return max(children, key=lambda p: p.pid)


async def until(condition, timeout: float = 20.0) -> None:
    start = time.perf_counter()
    while not condition():
        assert time.perf_counter() - start < timeout, "timed out"
        await asyncio.sleep(0.01)


async def finish(pilot) -> None:
    await pilot.app.workers.wait_for_complete()
    await pilot.pause()


async def test_the_defaults_train_q_k_attention_at_length_10_at_a_watchable_pace():
    async with AttnApp(lang="en").run_test(size=(80, 24)) as pilot:
        await pilot.press("down", "enter")
        await pilot.pause()
        screen = pilot.app.screen
        cfg = screen.form.read().config
        assert (cfg.variant, cfg.length, cfg.feed, cfg.iters) == ("qk", 10, "previous", 3000)
        assert screen.query_one("#pace", Select).value == "watch"
        assert screen.query_one("#versus", Select).value == "dot"
        assert isinstance(screen.focused, OptionList)  # the guide: 1–5 work at once
        assert "1446 parameters" in text(screen, "#outcome")


async def test_a_small_run_fills_every_panel():
    async with AttnApp(lang="en").run_test(size=(80, 24)) as pilot:
        screen = await open_trainer(pilot, length=5, variant="dot", iters=300)
        await pilot.press("f5")
        await finish(pilot)
        assert screen.live.result is not None and screen.live.result.outcome.kind == "finished"
        progress = text(screen, "#progress")
        assert "100%" in progress and "300/300" in progress and "it/s" in progress
        assert "Training finished after 300 iterations." in text(screen, "#outcome")
        accuracy = text(screen, "#accuracy")
        assert "Held-out at 300: whole" in accuracy and "pos." in accuracy
        assert "1000 held-out sequences" in text(screen, "#note")
        decode = text(screen, "#decode")
        assert "input" in decode and "expected" in decode
        heat = text(screen, "#heat")
        assert "rows = output t" in heat and "reversal diagonal L+1−t" in heat
        assert "Uniform = 1/L = 20" in heat  # length 5: 20 %
        assert len(screen.live.chunks) and sum(len(c) for c in screen.live.chunks) == 300
        finished = screen.tables.finished["rnn"]
        assert len(finished) == 1 and finished[0].params == 934
        # the loss curve spans the run and the timeline sits at its last snapshot
        assert "300" in text(screen, "#loss")
        assert screen.live.frame == len(screen.live.result.snapshots) - 1


async def test_the_heatmap_marks_the_diagonal_and_says_which_scale_is_on():
    async with AttnApp(lang="en").run_test(size=(120, 40)) as pilot:
        screen = await open_trainer(pilot, length=4, iters=200)
        await pilot.press("f5")
        await finish(pilot)
        heat = text(screen, "#heat", 100)
        assert "absolute 0–100" in heat
        lines = shown(screen.query_one("#heat", Static), 100).splitlines()
        rows = [line.split() for line in lines if line.split() and line.split()[0] in "1234"]
        weights = screen.live.snapshot.probe.attention
        for i, cells in enumerate(rows[1:5]):  # the header row is first
            assert [int(c) for c in cells[1:5]] == [round(100 * w) for w in weights[i]]
            peak = int(weights[i].argmax())
            assert cells[5].rstrip("✓←→") == str(peak + 1)
            assert cells[5].endswith("✓") == (peak == 3 - i)  # input L+1−t
        await pilot.press("ctrl+r")
        heat = text(screen, "#heat", 100)
        lo, hi = round(100 * weights.min()), round(100 * weights.max())
        assert f"this map's own range {lo}–{hi}" in heat and "absolute" not in heat


async def test_the_timeline_scrubs_back_through_snapshots():
    async with AttnApp(lang="en").run_test(size=(80, 24)) as pilot:
        screen = await open_trainer(pilot, iters=300, length=5)
        await pilot.press("f5")
        await finish(pilot)
        assert [s.iteration for s in screen.live.result.snapshots] == [100, 200, 300]
        await pilot.press("pageup")
        assert screen.live.frame == 1
        assert "Held-out at 200" in text(screen, "#accuracy")
        assert "Timeline 2/3" in text(screen, "#outcome")
        screen.query_one("#live").focus()
        await pilot.press("left", "[")  # stops at the first snapshot
        assert screen.live.frame == 0 and "at 100" in text(screen, "#accuracy")
        await pilot.press("pagedown", "]", "right")
        assert screen.live.frame == 2


async def test_a_run_without_attention_says_there_is_no_matrix():
    async with AttnApp(lang="en").run_test(size=(80, 24)) as pilot:
        screen = await open_trainer(pilot, variant="none", length=5, iters=100)
        await pilot.press("f5")
        await finish(pilot)
        assert "no attention" in text(screen, "#heat")
        assert screen.tables.finished["rnn"][0].params == 838


async def test_stop_ends_a_long_run_quickly_as_stopped_and_leaves_no_eta():
    async with AttnApp(lang="en").run_test(size=(80, 24)) as pilot:
        screen = await open_trainer(pilot, iters=100000)
        screen.action_start()
        await until(lambda: screen.live.iteration > 0)
        assert "ETA" in text(screen, "#progress")
        start = time.perf_counter()
        screen.action_stop()
        await until(lambda: not screen.running, timeout=5)
        assert time.perf_counter() - start < 2  # (generous: the machine may be busy)
        await pilot.pause()
        assert screen.live.result.outcome.kind == "stopped"
        assert screen.live.result.iters < 100000
        assert "Stopped after iteration" in text(screen, "#outcome")
        assert "ETA" not in text(screen, "#progress")  # no time left to estimate
        assert screen.tables.finished["rnn"] == []  # only finished runs go in the table


async def test_pause_holds_the_run_and_resume_continues_it():
    async with AttnApp(lang="en").run_test(size=(80, 24)) as pilot:
        screen = await open_trainer(pilot, iters=100000)
        screen.action_start()
        await until(lambda: screen.live.iteration > 0)
        screen.action_pause()
        await asyncio.sleep(0.3)  # let the child reach its wait and the last update land
        held = screen.live.iteration
        progress = text(screen, "#progress")
        assert "paused" in progress and "ETA" not in progress
        await asyncio.sleep(0.3)
        assert screen.live.iteration == held
        screen.action_pause()
        await until(lambda: screen.live.iteration > held)
        screen.action_stop()
        await finish(pilot)
        assert screen.live.result.outcome.kind == "stopped"


async def test_single_step_trains_one_iteration_per_press_and_shows_the_heatmap_at_once():
    async with AttnApp(lang="en").run_test(size=(80, 24)) as pilot:
        screen = await open_trainer(pilot, iters=50, length=5, pace="step")
        screen.action_step()  # starts the run: the first iteration
        await until(lambda: screen.live.iteration == 1)
        await until(lambda: screen.live.snapshot is not None)
        # the panels are redrawn at the next frame (at most ~20 a second), not on the message
        await until(lambda: "reversal diagonal" in text(screen, "#heat"))
        assert screen.live.snapshot.iteration == 1  # the map of the first iteration, not the 100th
        assert "It appears at the first evaluation" not in text(screen, "#heat")
        assert "ETA" not in text(screen, "#progress")
        for n in (2, 3, 4):
            screen.action_step()
            await until(lambda n=n: screen.live.iteration == n)
        await asyncio.sleep(0.2)
        assert screen.live.iteration == 4  # nothing moves without a press
        assert screen.live.snapshot.iteration == 4  # evaluated at every step
        screen.action_stop()
        await finish(pilot)
        assert screen.live.result.outcome.kind == "stopped" and screen.live.result.iters == 4


async def test_a_huge_learning_rate_diverges_with_advice():
    async with AttnApp(lang="en").run_test(size=(80, 24)) as pilot:
        screen = await open_trainer(pilot, iters=500, lr="1e30")
        await pilot.press("f5")
        await finish(pilot)
        assert screen.live.result.outcome.kind == "diverged"
        outcome = text(screen, "#outcome")
        assert "Try a smaller learning rate than 1e+30" in outcome
        assert screen.tables.finished["rnn"] == []


async def test_impossible_settings_are_refused_inline():
    async with AttnApp(lang="en").run_test(size=(80, 24)) as pilot:
        screen = await open_trainer(pilot, length=0)
        error = text(screen, "#train-error")
        assert "sequence length 0 is not usable" in error and "from 2 to 20" in error
        await pilot.press("f5")
        assert not screen.running and screen.run.run_id == 0  # nothing started
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


async def test_language_switch_redraws_in_place_menus_included():
    async with AttnApp(lang="en").run_test(size=(80, 24)) as pilot:
        screen = await open_trainer(pilot, length=5, iters=200)
        assert select_label(screen, "pace") == "full speed"
        await pilot.press("f5")
        await finish(pilot)
        heat = screen.query_one("#heat")
        await pilot.press("f2")
        assert pilot.app.screen is screen and screen.query_one("#heat") is heat
        assert "训练完成" in text(screen, "#outcome")
        assert "探针" in text(screen, "#heat")
        assert "留出集" in text(screen, "#accuracy")
        assert screen.query_one("#live").border_title == "训练"
        # every menu follows the language, and keeps its value
        assert select_label(screen, "pace") == "全速"
        assert select_label(screen, "variant") == "q·k"
        assert select_label(screen, "versus") == "书中点积"
        assert select_label(screen, "feed") == "上一个字母"
        assert screen.query_one("#pace", Select).value == "fast"
        await pilot.press("f4")
        assert "本次完成的运行" in text(screen, "#session", 76)


@pytest.mark.slow  # two whole runs in child processes
async def test_f9_compares_the_settings_with_the_versus_variant_on_one_seed():
    async with AttnApp(lang="en").run_test(size=(100, 30)) as pilot:
        screen = await open_trainer(
            pilot, iters=100, seed=3, length=5, variant="general", versus="none"
        )
        await pilot.press("f9")
        await finish(pilot)
        assert [(r.config.variant, r.config.seed) for r in screen.tables.finished["rnn"]] == [
            ("general", 3), ("none", 3)]  # fmt: skip
        assert "Seed 3: general attention whole" in text(screen, "#outcome", 96)
        # F9 again: the same settings give the same numbers, so no row is added
        await pilot.press("f9")
        await finish(pilot)
        assert len(screen.tables.finished["rnn"]) == 4
        await pilot.press("f4")
        session = text(screen, "#session", 96)
        assert session.count("general") == 1 and session.count(" off ") == 1
        assert "1190" in session and "838" in session


@pytest.mark.slow  # real processes: a run over several seeds
async def test_multi_seed_comparison_table_and_the_tables_scroll_at_once():
    async with AttnApp(lang="en").run_test(size=(80, 16)) as pilot:
        screen = await open_trainer(pilot, iters=50, seeds=3, length=4)
        await pilot.press("f10")
        await finish(pilot)
        assert {v: len(r) for v, r in screen.tables.runs.items()} == {"dot": 3, "qk": 3}
        assert [r.config.seed for r in screen.tables.runs["qk"]] == [0, 1, 2]
        multi = text(screen, "#multi", 76)
        assert "Length 4, 50 iterations, 3 seeds" in multi
        assert "±" in multi and "may be noise" in multi
        tables = screen.query_one("#tables")
        assert screen.focused is tables  # arrows and PgDn scroll without a Tab first
        await pilot.pause()
        assert tables.max_scroll_y > 0
        await pilot.press("pagedown")
        await pilot.pause()
        assert tables.scroll_y > 0


async def test_a_guide_key_loads_its_experiment_and_says_what_to_look_at():
    async with AttnApp(lang="en").run_test(size=(120, 40)) as pilot:
        screen = await open_trainer(pilot)
        screen.query_one("#guide").focus()
        await pilot.press("2")  # the book's model at length 10
        await until(lambda: screen.running and screen.live.config.variant == "dot")
        cfg = screen.form.read().config
        assert (cfg.variant, cfg.length, cfg.feed) == ("dot", 10, "previous")
        assert screen.form.read().versus == "qk"
        assert "one column left of the diagonal" in text(screen, "#outcome", 100)
        screen.action_stop()
        await finish(pilot)
        note = text(screen, "#guide-note", 100)
        assert "This app over 10 seeds (stored table): whole" in note
        assert "The book's run: per letter 0.682" in note
        guide = GUIDE[1].experiment
        row = screen.figures[guide.id]
        assert f"{row.stats['seq_acc'].mean:.3f}" in note


async def test_ctrl_t_sets_the_book_model():
    async with AttnApp(lang="en").run_test(size=(80, 24)) as pilot:
        screen = await open_trainer(pilot, feed="none")
        screen.query_one("#length", Input).focus()  # works even while typing in a field
        await pilot.press("ctrl+t")
        cfg = screen.form.read().config
        assert (cfg.variant, cfg.feed) == ("dot", "previous") and cfg.n_params == 934


async def test_the_footer_lists_every_key_when_there_is_room():
    async with AttnApp(lang="en").run_test(size=(120, 40)) as pilot:
        await open_trainer(pilot)
        footer = list(pilot.app.screen.query(FooterKey))
        keys = {k.key for k in footer}
        assert {"f3", "f5", "f8", "f9", "f10", "escape"} <= keys
        assert max(k.region.right for k in footer) <= 120  # none pushed off the edge
        await pilot.resize_terminal(80, 24)
        await pilot.pause()
        keys = {k.key for k in pilot.app.screen.query(FooterKey)}
        assert {"f5", "f9", "f10"} <= keys and "f3" not in keys  # what starts a run, at 80


async def test_nothing_is_cut_at_80x24_in_english():
    """The progress and accuracy lines wrap instead of ending in '…' (a figure lost)."""
    async with AttnApp(lang="en").run_test(size=(80, 24)) as pilot:
        screen = await open_trainer(pilot, iters=200, length=10, pace="step")
        screen.action_step()
        await until(lambda: screen.live.snapshot is not None)
        for selector in ("#progress", "#accuracy"):
            assert not any(line.rstrip().endswith("…") for line in as_shown(screen, selector))
        assert "press F8 for one iteration" in text(screen, "#progress")
        screen.action_stop()
        await finish(pilot)
        accuracy = text(screen, "#accuracy")
        assert f"per letter {screen.live.result.pos_acc:.3f}" in accuracy


@pytest.mark.slow  # a walk over terminal sizes after a run
async def test_per_position_figures_survive_a_resize_round_trip():
    async with AttnApp(lang="en").run_test(size=(120, 40)) as pilot:
        screen = await open_trainer(pilot, iters=100, length=5)
        await pilot.press("f5")
        await finish(pilot)
        await pilot.press("f4")
        await pilot.resize_terminal(80, 24)
        await pilot.pause()
        await pilot.resize_terminal(120, 40)
        await pilot.pause()
        await pilot.press("f4")
        await pilot.pause()
        lines = as_shown(screen, "#accuracy")
        assert any(line.startswith("%") for line in lines)  # numbers, not bars
        assert not any("█" in line or "▁" in line for line in lines)


@pytest.mark.slow  # real processes
async def test_leaving_mid_run_leaves_no_thread_and_no_process():
    async with AttnApp(lang="en").run_test(size=(80, 24)) as pilot:
        screen = await open_trainer(pilot, iters=100000)
        screen.action_start()
        await until(lambda: screen.live.iteration > 0)
        worker, process = screen.run.worker, the_run_process()
        assert process.is_alive()
        pilot.app.action_home()  # Esc
        await until(lambda: worker.state in (WorkerState.CANCELLED, WorkerState.SUCCESS), timeout=5)
        await until(lambda: not threads_in_our_code(), timeout=5)
        await until(lambda: not process.is_alive(), timeout=5)
        assert pilot.app.current_mode == "home"


@pytest.mark.slow  # real processes: four seeds' workers, started and stopped
async def test_leaving_a_multi_seed_comparison_stops_every_worker():
    import multiprocessing

    async with AttnApp(lang="en").run_test(size=(100, 30)) as pilot:
        screen = await open_trainer(pilot, iters=100000, seeds=4)
        screen.action_seeds()
        await until(lambda: len(multiprocessing.active_children()) >= 2, timeout=10)
        children = multiprocessing.active_children()
        worker = screen.run.worker
        pilot.app.action_home()
        await until(lambda: worker.state in (WorkerState.CANCELLED, WorkerState.SUCCESS), timeout=5)
        await until(lambda: not any(c.is_alive() for c in children), timeout=5)


async def test_quitting_mid_run_leaves_no_thread():
    app = AttnApp(lang="en")
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await open_trainer(pilot, iters=100000)
        screen.action_start()
        await until(lambda: screen.live.iteration > 0)
        worker, process = screen.run.worker, the_run_process()
        app.exit()
    await until(lambda: worker.state in (WorkerState.CANCELLED, WorkerState.SUCCESS), timeout=5)
    await until(lambda: not threads_in_our_code(), timeout=5)
    await until(lambda: not process.is_alive(), timeout=5)
