"""What a screen shows, as a small frozen value: the interface the course's do-tasks read.

Each area's screen hands the lesson one of these (``course_state()``) whenever it changes;
a do-task is checked against it alone (:mod:`.tasks`), so a check can be tested with states
built from the core, without a terminal, and a screen's inner widgets can change freely as
long as they still fill these in.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from attn_tui.core.attention.lab import LabConfig, LabResult
from attn_tui.core.attention.steps import AttentionSteps, DimensionExperiment


@dataclass(frozen=True)
class CalcState:
    """The calculator: the steps on show (None while an input has a fault)."""

    steps: AttentionSteps | None
    values_given: bool = False  # values typed apart from the keys
    # the √d experiment on show: random q, K at a small and a large d (None when not shown)
    experiment: tuple[DimensionExperiment, DimensionExperiment] | None = None
    step: int = 1  # the step revealed, 1–4


@dataclass(frozen=True)
class TrainState:
    """The trainer: the model chosen, its settings, and the latest held-out evaluation.

    ``config`` is a ``TrainConfig`` (model "rnn") or a ``TransformerConfig`` ("transformer");
    ``snapshot`` the last held-out ``Snapshot`` of the run on show (None before the first).
    """

    model: str
    config: Any
    running: bool = False
    iteration: int = 0
    snapshot: Any = None
    finished: tuple[Any, ...] = field(default_factory=tuple)  # RunResults of this visit
    ablated: bool = False  # the finished induction run's previous-token head is off (key a)


@dataclass(frozen=True)
class LabState:
    """The self-attention lab: its settings, the layer computed, and where the learner looks."""

    config: LabConfig
    result: LabResult | None
    view: str = "weights"  # what the main panel shows
    head: int = 0  # 0-based head on show
    cell: tuple[int, int] | None = None  # (row, column) under the cursor, 0-based
    trained: bool = False  # a trained Transformer's layer rather than random weights


AREA_STATES = {"calc": CalcState, "train": TrainState, "lab": LabState}
