"""Training in other processes: the pool gives the sequential results, stops at once; the live
run's protocol (pause, step, stop); Ctrl+C on the headless command stops every worker."""

import multiprocessing
import os
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import numpy as np
import pytest

from attn_tui.core.models.loop import run_to_end
from attn_tui.core.models.loop import run_to_end as transformer_run_to_end
from attn_tui.core.models.processes import LiveRun, Update, live_loop, pool_runs
from attn_tui.core.models.trainer import TrainConfig, compare_configs
from attn_tui.core.models.transformer_trainer import TransformerConfig


def _same(a, b) -> bool:
    return (
        a.config == b.config
        and np.array_equal(a.losses, b.losses)
        and (a.seq_acc, a.pos_acc) == (b.seq_acc, b.pos_acc)
    )


def test_the_pool_gives_exactly_the_sequential_results():
    configs = compare_configs(
        TrainConfig(length=4, iters=60, eval_every=20), range(3), ("none", "qk")
    )
    sequential = {c: run_to_end(c) for c in configs}
    pooled = list(pool_runs(configs, workers=2))
    assert sorted(r.config.seed for r in pooled) == [0, 0, 1, 1, 2, 2]
    for r in pooled:
        assert _same(r, sequential[r.config])
        assert len(r.snapshots) == len(sequential[r.config].snapshots)


def test_the_pool_from_a_threaded_process_uses_the_forkserver_and_the_same_numbers():
    """The app has threads, so its pool comes from the forkserver, not fork: same results."""
    configs = compare_configs(
        TrainConfig(length=3, iters=40, eval_every=0), range(2), ("dot", "general")
    )
    sequential = {c: run_to_end(c) for c in configs}
    busy = threading.Event()
    other = threading.Thread(target=busy.wait)  # a second thread, as a running app has
    other.start()
    try:
        pooled = list(pool_runs(configs, workers=2))
    finally:
        busy.set()
        other.join()
    assert len(pooled) == 4 and all(_same(r, sequential[r.config]) for r in pooled)


@pytest.mark.slow  # real processes
def test_stopping_the_pool_ends_every_worker_at_once():
    configs = compare_configs(TrainConfig(length=10, iters=100_000), range(4), ("dot",))
    stop = threading.Event()
    results = []

    def consume():
        results.extend(pool_runs(configs, workers=2, should_stop=stop.is_set))

    thread = threading.Thread(target=consume)
    thread.start()
    deadline = time.perf_counter() + 30
    while len(multiprocessing.active_children()) < 2:
        assert time.perf_counter() < deadline, "the workers never started"
        time.sleep(0.02)
    children = multiprocessing.active_children()
    stop.set()
    thread.join(timeout=10)
    assert not thread.is_alive() and results == []
    for child in children:
        child.join(timeout=5)
        assert not child.is_alive()


def _script(commands):
    """A wait() that hands out ``commands`` one per call (None = nothing arrived)."""
    queue = list(commands)

    def wait(timeout):
        return queue.pop(0) if queue else None

    return wait


def test_live_loop_pauses_steps_and_stops_on_command():
    cfg = TrainConfig(length=4, iters=1000, eval_every=0)
    sent = []
    # step pace: one iteration, then each "step" one more; a "pause" is ignored there
    live_loop(
        cfg, "step", lambda kind, p: sent.append((kind, p)), _script(["step", "step", "stop"])
    )
    updates = [p for kind, p in sent if kind == "update"]
    assert [u.iteration for u in updates] == [1, 2, 3, 3]
    assert all(u.state == "stepping" for u in updates[:3])
    kind, result = sent[-1]
    assert kind == "done" and result.outcome.kind == "stopped" and result.iters == 3
    assert np.array_equal(np.concatenate([u.losses for u in updates]), result.losses)


def test_live_loop_pause_holds_until_resumed():
    cfg = TrainConfig(length=4, iters=200, eval_every=0)
    sent = []
    commands = ["pause", "resume"]  # answered at the first report's check

    def wait(timeout):
        return commands.pop(0) if commands else None

    live_loop(cfg, "fast", lambda kind, p: sent.append((kind, p)), wait, post_interval=0.0)
    states = [p.state for kind, p in sent if kind == "update"]
    assert "paused" in states
    kind, result = sent[-1]
    assert kind == "done" and result.outcome.kind == "finished"
    assert _same(result, run_to_end(cfg))  # pausing changes no number


def test_a_live_run_in_a_child_process_gives_the_same_result():
    cfg = TrainConfig(length=5, iters=300, attention=True)
    live = LiveRun(cfg, "fast")
    updates, result = [], None
    try:
        while result is None:
            assert live.poll(30), "the child said nothing for 30 s"
            kind, payload = live.recv()
            if kind == "update":
                assert isinstance(payload, Update)
                updates.append(payload)
            else:
                assert kind == "done"
                result = payload
    finally:
        live.kill()
    assert _same(result, run_to_end(cfg))
    assert not live.process.is_alive()


@pytest.mark.slow  # real processes
def test_killing_a_live_run_from_two_threads_at_once_closes_its_pipe_once():
    """The screen's relay thread kills its run as it ends while leaving the screen kills it too:
    two closes racing each other closed one descriptor twice (EBADF), which killed the app."""
    live = LiveRun(TrainConfig(length=5, iters=100000, attention=True), "fast")
    real_close, closes = live.conn.close, []

    def slow_close():  # hold the door open long enough for the other thread to arrive
        closes.append(threading.get_ident())
        time.sleep(0.2)
        real_close()

    live.conn.close = slow_close
    start = threading.Barrier(2)
    errors = []

    def kill():
        start.wait()
        try:
            live.kill()
        except Exception as err:  # the assertion names it
            errors.append(err)

    threads = [threading.Thread(target=kill) for _ in range(2)]
    for th in threads:
        th.start()
    for th in threads:
        th.join(10)
    assert errors == [] and len(closes) == 1
    assert not live.process.is_alive()
    live.kill()  # and once more, later: nothing happens
    assert len(closes) == 1


def test_a_live_transformer_run_in_a_child_gives_the_core_run_weights_and_all():
    """The training screen's Transformer: the same losses, accuracy and trained weights as the
    same settings trained in this process (the lab opens those weights)."""
    cfg = TransformerConfig(length=6, heads=2, iters=80, eval_every=20)
    live = LiveRun(cfg, "fast")
    snapshots, result = [], None
    try:
        while result is None:
            assert live.poll(30), "the child said nothing for 30 s"
            kind, payload = live.recv()
            assert kind in ("update", "done"), payload
            if kind == "update":
                snapshots += [payload.snapshot] if payload.snapshot is not None else []
            else:
                result = payload
    finally:
        live.kill()
    here = transformer_run_to_end(cfg)
    assert _same(result, here)
    assert result.final.attention_mean.shape == (1, 2, 6, 6)
    assert np.array_equal(result.model.params, here.model.params)


def test_the_pool_trains_transformers_too_with_the_sequential_numbers():
    configs = [
        TransformerConfig(length=4, iters=40, positions=p, seed=s)
        for p in ("learned", "none")
        for s in range(2)
    ]
    pooled = list(pool_runs(configs, workers=2))
    assert sorted((r.config.positions, r.config.seed) for r in pooled) == sorted(
        (c.positions, c.seed) for c in configs
    )
    for r in pooled:
        assert _same(r, transformer_run_to_end(r.config))
        assert (r.ceiling is not None) == (r.config.positions == "none")


@pytest.mark.skipif(not hasattr(signal, "SIGINT") or os.name != "posix", reason="POSIX signals")
@pytest.mark.parametrize(
    "extra",
    [
        ["--iters", "100000", "--batch", "1024", "--length", "12"],  # issue 12's runaway run
        ["--compare", "--seeds", "20", "--iters", "20000", "--length", "10"],
    ],
    ids=["single", "compare"],
)
@pytest.mark.slow  # real processes
def test_ctrl_c_stops_cleanly_with_one_line(extra):
    marker = "0.0030123"  # a learning rate no other process uses: finds our children
    argv = [sys.executable, "-m", "attn_tui", "--lang", "en", "train", "--lr", marker, *extra]
    proc = subprocess.Popen(
        argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, start_new_session=True
    )
    time.sleep(3)  # started, stated its budget, training (or its workers training)
    os.killpg(proc.pid, signal.SIGINT)  # what the terminal does on Ctrl+C
    try:
        out, err = proc.communicate(timeout=20)
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)
        raise
    assert proc.returncode == 130
    lines = [line for line in err.splitlines() if line.strip()]
    assert lines[-1] == "attn-tui train: interrupted."
    assert "Traceback" not in err and len(lines) == 2
    # before it started, the budget: a time in minutes and how to stop it
    assert lines[0].startswith("attn-tui train: this will take about ") and "min" in lines[0]
    assert "Ctrl+C stops it" in lines[0]
    time.sleep(0.5)
    assert processes_with(marker) == []


def processes_with(marker: str) -> list[str]:
    """Pids whose command line contains ``marker`` (Linux /proc; empty elsewhere)."""
    found = []
    for entry in Path("/proc").glob("[0-9]*") if Path("/proc").exists() else ():
        try:
            if marker in (entry / "cmdline").read_bytes().decode(errors="replace"):
                found.append(entry.name)
        except OSError:  # gone while we looked
            pass
    return found
