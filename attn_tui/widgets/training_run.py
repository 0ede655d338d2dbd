"""The one owner of training in the UI: a run in a child process, relayed as messages.

    run = TrainingRun()                      # composed by a screen (it draws nothing)
    run.start([config], pace="watch")        # one run, or F9's two one after the other
    run.start_seeds(configs)                 # many runs over a process pool (F10)
    run.pause(); run.step(); run.stop()      # while it runs; stop() ends it as "stopped"
    run.kill()                               # leaving the screen: at once, nothing reported

and the screen handles ``TrainingRun.Started``, ``Progressed``, ``Finished``, ``SeedFinished``
and ``Ended``. The trainer and the lab (which trains its default Transformer) both use it.

Who owns what. The child process belongs to the thread worker that started it, alone: it
creates it, reads its reports, forwards the commands, and kills it when the run ends, however
it ends. The UI thread never touches the child. It sends commands down an inbox pipe that the
worker waits on beside the child's pipe (so a step or a stop is answered at once), and it stops
a run with an Event (F7: the child stops where it is and reports the run as stopped) or with
the worker's cancel (leaving: the worker kills the child). The pool of F10 is the worker's
too (``pool_runs`` terminates it when told to stop).

Messages carry the number of the run that sent them: a message of a run already replaced
(F5 again, or a run stopped while its last report was on its way) is dropped here, before it
bubbles, so the screen only hears from the current run.

The process-level pieces come from the core's ``processes`` module, imported here only: the one
place to change when the core's training API changes.
"""

from __future__ import annotations

import threading
from collections.abc import Sequence
from dataclasses import dataclass
from multiprocessing import Pipe
from multiprocessing.connection import Connection, wait

from textual import on, work
from textual.message import Message
from textual.reactive import var
from textual.widget import Widget
from textual.worker import Worker, WorkerState, get_current_worker

from attn_tui.core.models.processes import (
    AnyConfig,
    LiveRun,
    Update,
    default_workers,
    pool_runs,
    warm_up,
)
from attn_tui.i18n import t

__all__ = ["AnyConfig", "TrainingRun", "Update", "warm_up"]

WAKE = 0.1  # s: the longest the relay waits before looking at its cancel flag again


class TrainingRun(Widget):
    """Starts, steers and stops training; posts what it reports. Draws nothing."""

    DEFAULT_CSS = "TrainingRun { display: none; }"

    # "idle", "running", "paused", "stepping" (each iteration waits for step()), "stopping",
    # or "seeds" (a pool of runs, which cannot be paused)
    activity: var[str] = var("idle")

    @dataclass
    class Started(Message):
        """A run began (one of F9's two, say): the live view starts over for ``config``."""

        run_id: int
        config: AnyConfig

    @dataclass
    class Progressed(Message):
        """Losses since the last report, the newest evaluation, the time trained."""

        run_id: int
        update: Update

    @dataclass
    class Finished(Message):
        """A live run ended: finished, stopped or diverged (``result.outcome``)."""

        run_id: int
        result: object  # the model's RunResult

    @dataclass
    class SeedFinished(Message):
        """One run of a multi-seed comparison finished (in the order they finish)."""

        run_id: int
        result: object

    @dataclass
    class Ended(Message):
        """Nothing is training any more; ``error`` says why, when a run failed."""

        run_id: int
        error: str | None

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.run_id = 0
        self.pace = "watch"
        self._worker: Worker | None = None
        self._stop = threading.Event()  # this run's F7 (each run has its own)
        self._inbox: Connection | None = None  # the UI's end of the worker's command pipe

    @property
    def worker(self) -> Worker | None:
        """The thread worker of the current (or last) run."""
        return self._worker

    @property
    def running(self) -> bool:
        return self._worker is not None and self._worker.state in (
            WorkerState.PENDING,
            WorkerState.RUNNING,
        )

    # ---- starting ---------------------------------------------------------------------------
    def start(self, configs: Sequence[AnyConfig], pace: str) -> int:
        """Train ``configs`` one after another, each live in a child process at ``pace``
        ("watch", "fast" or "step"); returns the run's number."""
        stop, (inbox, self._inbox) = self._begin(), Pipe(duplex=False)
        self.pace = pace
        self.activity = "stepping" if pace == "step" else "running"
        self._worker = self._relay(list(configs), pace, self.run_id, stop, inbox)
        return self.run_id

    def start_seeds(self, configs: Sequence[AnyConfig]) -> int:
        """Train every configuration to its end over a pool of processes (one per core)."""
        stop = self._begin()
        self.pace = "fast"
        self.activity = "seeds"
        self._worker = self._pool(list(configs), self.run_id, stop)
        return self.run_id

    def _begin(self) -> threading.Event:
        self.kill()  # (a screen refuses to start while running; this only makes sure)
        if self._inbox is not None:
            self._inbox.close()  # (what it said is still read; then the relay sees its end)
            self._inbox = None
        self.run_id += 1
        self._stop = threading.Event()
        return self._stop

    # ---- steering (the UI thread) -------------------------------------------------------------
    def pause(self) -> None:
        """Pause a live run, or resume it; a step-by-step run or a pool has no pause."""
        if self.activity == "running":
            self._send("pause")
            self.activity = "paused"
        elif self.activity == "paused":
            self._send("resume")
            self.activity = "running"

    def step(self) -> None:
        """One iteration of a step-by-step run."""
        if self.activity == "stepping":
            self._send("step")

    def stop(self) -> None:
        """End the run where it is: it reports as stopped, and F9's second run never starts."""
        if self.running:
            self._stop.set()
            self._send("stop")
            self.activity = "stopping"

    def kill(self) -> None:
        """Stop at once and report nothing more (leaving the screen, quitting): the worker
        kills the child (or the pool) as it wakes, which the inbox makes immediate."""
        self._stop.set()
        self._send("kill")
        if self._worker is not None:
            self._worker.cancel()

    def _send(self, command: str) -> None:
        if self._inbox is None:
            return
        try:
            self._inbox.send(command)
        except OSError:  # the relay has ended and closed its end: nothing to tell
            pass

    # ---- the workers (threads: no widgets here, only messages) --------------------------------
    @work(thread=True, exclusive=True, exit_on_error=False, group="training")
    def _relay(
        self,
        configs: list[AnyConfig],
        pace: str,
        run_id: int,
        stop: threading.Event,
        inbox: Connection,
    ) -> None:
        worker = get_current_worker()
        try:
            for config in configs:
                if worker.is_cancelled or stop.is_set():
                    return
                self._relay_one(LiveRun(config, pace), config, run_id, stop, inbox, worker)
        finally:
            inbox.close()

    def _relay_one(self, live: LiveRun, config, run_id, stop, inbox, worker) -> None:
        """One child, from its start to its report of the end; killed on the way out."""
        try:
            if worker.is_cancelled:  # left while the child was starting
                return
            if stop.is_set():  # stopped while the child was starting
                live.send("stop")
            self.post_message(self.Started(run_id, config))
            while not worker.is_cancelled:
                ready = wait([live.conn, inbox], WAKE)
                if inbox in ready:
                    try:
                        command = inbox.recv()
                    except EOFError:  # the UI let go of this run
                        return
                    if command == "kill":
                        return
                    live.send(command)
                if live.conn not in ready:
                    continue
                kind, payload = live.recv()
                if kind == "update":
                    self.post_message(self.Progressed(run_id, payload))  # type: ignore[arg-type]
                elif kind == "done":
                    self.post_message(self.Finished(run_id, payload))
                    return
                else:  # the child failed: its message becomes the notification
                    raise RuntimeError(str(payload))
        except (EOFError, OSError, ValueError):  # a pipe closed: killed, or the child died
            if not (worker.is_cancelled or stop.is_set()):
                raise RuntimeError(t("train.ui.child_died")) from None
        finally:
            live.kill()

    @work(thread=True, exclusive=True, exit_on_error=False, group="training")
    def _pool(self, configs: list[AnyConfig], run_id: int, stop: threading.Event) -> None:
        worker = get_current_worker()

        def should_stop() -> bool:
            return worker.is_cancelled or stop.is_set()

        for result in pool_runs(configs, default_workers(len(configs)), should_stop=should_stop):
            self.post_message(self.SeedFinished(run_id, result))

    # ---- what reaches the screen ------------------------------------------------------------
    @on(Started)
    @on(Progressed)
    @on(Finished)
    @on(SeedFinished)
    def _drop_stale(self, message: Started | Progressed | Finished | SeedFinished) -> None:
        if message.run_id != self.run_id:
            message.stop()

    def on_worker_state_changed(self, event: Worker.StateChanged) -> None:
        event.stop()  # what it means for the screen is Ended
        if event.worker is not self._worker or event.state in (
            WorkerState.PENDING,
            WorkerState.RUNNING,
        ):
            return
        self.activity = "idle"
        error = event.worker.error if event.state == WorkerState.ERROR else None
        self.post_message(self.Ended(self.run_id, str(error) if error is not None else None))

    def on_unmount(self) -> None:
        self.kill()
