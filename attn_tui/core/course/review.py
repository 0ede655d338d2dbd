"""Reviews spaced over days, scheduled by FSRS (the ``fsrs`` package, pinned in pyproject).

This is the one module of the core that uses a library beyond numpy and the standard
library, and only inside :func:`_fsrs` (the import-hygiene test names it): importing the
core, opening the home screen or counting what is due never loads it — a card's due time is
a plain number in the store. Only grading an answer loads it, to compute the next due time.

A card is one exercise (``set_id/exercise_id``); a generated exercise is one card whatever
numbers were drawn, and its review draws fresh ones. The rating comes from the grade:

==================================  ==========
correct, no hint                    Good
correct after a hint                Hard
wrong, partly right, answer shown   Again
==================================  ==========

The scheduler has no learning steps (a first answer goes straight to a review in days, not
minutes: a course is not a deck drilled in one sitting) and no fuzz (the same answers on the
same days give the same schedule, so a test or a demo can say "due in two days"). With the
default parameters a first Good answer is due again in 2 days, Hard and Again in 1.
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

AGAIN, HARD, GOOD, EASY = 1, 2, 3, 4
RATINGS = {AGAIN: "again", HARD: "hard", GOOD: "good", EASY: "easy"}
RETENTION = 0.9  # the chance of recall the schedule aims for when an item comes due


@dataclass(frozen=True)
class CardState:
    """One item's schedule as the store keeps it."""

    set_id: str
    exercise_id: str
    due: float  # unix time
    reps: int  # reviews so far (every graded answer counts)
    lapses: int  # answers rated Again
    last_at: float  # the last answer's time
    last_rating: int
    card: str  # the scheduler's own state, JSON

    @property
    def key(self) -> str:
        return f"{self.set_id}/{self.exercise_id}"

    def is_due(self, now: float) -> bool:
        return self.due <= now


def rating_for(correct: bool, hints_used: int, revealed: bool) -> int:
    """The FSRS rating a graded answer earns (table in the module docstring)."""
    if revealed or not correct:
        return AGAIN
    return HARD if hints_used > 0 else GOOD


def _fsrs() -> Any:
    """The fsrs package, loaded on first use (the only third-party import of the core)."""
    import fsrs

    return fsrs


_SCHEDULER: Any = None


def _scheduler() -> Any:
    global _SCHEDULER
    if _SCHEDULER is None:
        fsrs = _fsrs()
        _SCHEDULER = fsrs.Scheduler(
            desired_retention=RETENTION,
            learning_steps=(),
            relearning_steps=(),
            enable_fuzzing=False,
        )
    return _SCHEDULER


def _when(at: float) -> datetime:
    return datetime.fromtimestamp(at, UTC)


def schedule(
    previous: CardState | None, set_id: str, exercise_id: str, rating: int, at: float
) -> CardState:
    """The card after one answer rated ``rating`` at ``at`` (unix time)."""
    fsrs = _fsrs()
    if rating not in RATINGS:
        raise ValueError(f"rating must be 1-4, not {rating!r}")
    card = None
    if previous is not None:
        try:
            card = fsrs.Card.from_dict(json.loads(previous.card))
        except (ValueError, TypeError, KeyError, AttributeError):
            card = None  # a row edited by hand: start the item afresh
    if card is None:
        card = fsrs.Card(card_id=_card_id(set_id, exercise_id), due=_when(at))
    # A review dated before the card's last one (a clock set back) counts as made then.
    if card.last_review is not None and card.last_review > _when(at):
        at = card.last_review.timestamp()
    card, _log = _scheduler().review_card(card, fsrs.Rating(rating), review_datetime=_when(at))
    reps = (previous.reps if previous else 0) + 1
    lapses = (previous.lapses if previous else 0) + (rating == AGAIN)
    return CardState(
        set_id,
        exercise_id,
        card.due.timestamp(),
        reps,
        lapses,
        at,
        rating,
        json.dumps(card.to_dict()),
    )


def _card_id(set_id: str, exercise_id: str) -> int:
    """A stable id from the item's name (fsrs would use the clock, and sleep 1 ms for it)."""
    h = 1469598103934665603
    for byte in f"{set_id}/{exercise_id}".encode():
        h = ((h ^ byte) * 1099511628211) % 2**61
    return h


def interval_days(state: CardState) -> float:
    """Days from the last answer to the next due time."""
    return (state.due - state.last_at) / 86_400.0


def retrievability(state: CardState, now: float) -> float:
    """The scheduler's estimate of the chance of recall at ``now`` (0 … 1; nan if unknown)."""
    fsrs = _fsrs()
    try:
        card = fsrs.Card.from_dict(json.loads(state.card))
    except (ValueError, TypeError, KeyError, AttributeError):
        return math.nan
    return float(_scheduler().get_card_retrievability(card, _when(now)))
