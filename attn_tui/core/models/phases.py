"""A plateau and a drop in a loss curve, found as the losses arrive (the phase change).

An induction head forms suddenly: the loss sits near chance (ln 64 ≈ 4.16 nats) for a few
hundred steps, then falls by nats in a hundred. The detector marks both while training runs,
from the per-step losses alone, one step at a time, so the screen can draw each mark the moment
it is known and the finished run's JSON gives the same steps::

    d = PhaseDetector()
    for loss in losses:
        for event in d.add(loss):     # "plateau" once, then maybe "drop" once
            mark(event, d.phases)

The rule, on the loss averaged over the last ``WINDOW`` steps (``smooth``):

* **plateau** — over the last ``SPAN`` steps the average has moved by less than ``FLAT`` nats,
  and it is still within ``NEAR_START`` nats of its first value (a flat stretch near the end
  of a run that has learned is convergence, not a plateau). It is confirmed ``SPAN`` steps after
  it began and grows for as long as the average stays flat.
* **drop** — after a plateau, the average falls ``DROP`` nats below its value at the plateau's
  last flat step. The drop is marked at that step (where the fall began); ``drop_seen`` is the
  step at which it became certain.

The four numbers were chosen on the loss curves of seeds 0–4 of the default induction run and
then checked once on seeds the choice never saw (see the report of issue 25 and the slow test).
"""

from __future__ import annotations

import math
from collections import deque
from dataclasses import dataclass, replace

WINDOW = 25  # steps averaged
SPAN = 100  # steps over which a plateau must stay flat
FLAT = 0.25  # nats: the most the average may move over SPAN steps and still be flat
NEAR_START = 0.5  # nats: how far below its first value the average may sit on a plateau
DROP = 0.5  # nats below the plateau's last level that make a drop


@dataclass(frozen=True)
class Phases:
    """Steps are 1-based iteration counts (the step whose loss completed the average); None
    while not (yet) seen."""

    plateau_start: int | None = None  # first step of the flat stretch
    plateau_end: int | None = None  # last flat step so far (the plateau's end once dropped)
    plateau_level: float = math.nan  # the average at plateau_end
    plateau_seen: int | None = None  # the step at which the plateau was confirmed
    drop: int | None = None  # the step the fall began (= plateau_end)
    drop_seen: int | None = None  # the step at which the average was DROP below the level
    drop_level: float = math.nan  # the average at drop_seen

    @property
    def dropped(self) -> bool:
        return self.drop is not None

    def to_dict(self) -> dict[str, object]:
        def num(x: float) -> float | None:
            return x if math.isfinite(x) else None

        return {
            "plateau": None if self.plateau_start is None else {
                "start": self.plateau_start, "end": self.plateau_end,
                "level": num(self.plateau_level), "seen": self.plateau_seen},
            "drop": None if self.drop is None else {
                "start": self.drop, "seen": self.drop_seen, "level": num(self.drop_level),
                "fall": num(self.plateau_level - self.drop_level)},
        }  # fmt: skip


class PhaseDetector:
    """Feed the losses one by one (``add``) or in a batch (``extend``)."""

    def __init__(self) -> None:
        self.step = 0
        self._window: deque[float] = deque(maxlen=WINDOW)
        self._sum = 0.0
        self._smooth: deque[float] = deque(maxlen=SPAN + 1)  # the last SPAN + 1 averages
        self._first = math.nan
        self.phases = Phases()

    @property
    def smooth(self) -> float:
        """The average of the last WINDOW losses (NaN before WINDOW of them)."""
        return self._smooth[-1] if self._smooth else math.nan

    def add(self, loss: float) -> list[str]:
        """One more step's loss; returns the events it made: "plateau", "drop" or none."""
        self.step += 1
        loss = float(loss)
        if not math.isfinite(loss):  # a diverged step: nothing to learn from it
            return []
        if len(self._window) == WINDOW:
            self._sum -= self._window[0]
        self._window.append(loss)
        self._sum += loss
        if len(self._window) < WINDOW:
            return []
        avg = self._sum / WINDOW
        self._smooth.append(avg)
        if math.isnan(self._first):
            self._first = avg
        p = self.phases
        if p.drop is not None:
            return []
        events = []
        flat = (
            len(self._smooth) == SPAN + 1
            and abs(self._smooth[0] - avg) < FLAT
            and avg > self._first - NEAR_START
        )
        if flat:
            if p.plateau_start is None:
                p = replace(p, plateau_start=self.step - SPAN, plateau_seen=self.step)
                events.append("plateau")
            p = replace(p, plateau_end=self.step, plateau_level=avg)
        elif p.plateau_end is not None and avg < p.plateau_level - DROP:
            p = replace(p, drop=p.plateau_end, drop_seen=self.step, drop_level=avg)
            events.append("drop")
        self.phases = p
        return events

    def extend(self, losses) -> list[tuple[int, str]]:
        """Many steps at once; returns (step, event) for each event."""
        out = []
        for loss in losses:
            out += [(self.step, e) for e in self.add(loss)]
        return out


def average_at(losses, step: int) -> float:
    """The average of the WINDOW losses ending at ``step`` (1-based), as the detector sees it
    there; NaN if the curve is shorter or the step too early."""
    if step < WINDOW or step > len(losses):
        return math.nan
    window = [float(v) for v in losses[step - WINDOW : step]]
    return math.fsum(window) / WINDOW


def detect(losses) -> Phases:
    """The phases of a whole loss curve (what the detector finds fed step by step)."""
    d = PhaseDetector()
    d.extend(losses)
    return d.phases
