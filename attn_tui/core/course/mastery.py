"""Mastery per topic: five levels a learner can see, earned by right answers spread over days.

==============  ===============================================================
not started     no answer yet on an exercise of the topic
practised       at least one answer, right or wrong
familiar        two right answers (generated practice counts: each draw is new)
proficient      right answers on two different days
mastered        right answers on three different days, one of them a review
                answered when it came due
==============  ===============================================================

A miss in a review (an item answered wrong when it came due) costs one level, and the days
and answers counted so far start again from there: the level stays at least the one it fell
to, and climbs back only with new right answers on new days. An answer whose solution was
shown first counts as practice, never as right. A teacher's own sets join by their topics.
Pure: it folds the attempts the store keeps.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from attn_tui.core.course.clock import day_of

LEVELS = ("not-started", "practised", "familiar", "proficient", "mastered")
NOT_STARTED, PRACTISED, FAMILIAR, PROFICIENT, MASTERED = range(5)


@dataclass(frozen=True)
class TopicMastery:
    topic: str
    level: int  # index into LEVELS
    answers: int  # every graded answer on the topic
    right: int  # right answers since the last review missed
    days: int  # different days with a right answer since then
    reviews_right: int  # reviews answered right since then
    reviews_missed: int  # reviews missed, ever
    last_at: float | None

    @property
    def name(self) -> str:
        return LEVELS[self.level]

    def to_dict(self) -> dict[str, object]:
        return {
            "topic": self.topic,
            "level": self.level,
            "name": self.name,
            "answers": self.answers,
            "right": self.right,
            "days": self.days,
            "reviews_right": self.reviews_right,
            "reviews_missed": self.reviews_missed,
        }


def _earned(right: int, days: int, reviews_right: int) -> int:
    if days >= 3 and reviews_right >= 1:
        return MASTERED
    if days >= 2:
        return PROFICIENT
    if right >= 2:
        return FAMILIAR
    return PRACTISED


@dataclass
class _Evidence:
    """One topic's evidence while the attempts are folded, oldest first."""

    answers: int = 0
    right: int = 0
    days: set[int] = field(default_factory=set)
    reviews_right: int = 0
    reviews_missed: int = 0
    floor: int = PRACTISED  # the level a missed review dropped it to
    last_at: float | None = None

    @property
    def level(self) -> int:
        return max(self.floor, _earned(self.right, len(self.days), self.reviews_right))

    def add(self, attempt: Any) -> None:
        self.answers += 1
        self.last_at = attempt.at
        if attempt.correct and not attempt.revealed:
            self.right += 1
            self.days.add(day_of(attempt.at))
            self.reviews_right += bool(attempt.review)
        elif attempt.review:  # a miss when it came due: one level down, and earn it again
            self.floor = max(PRACTISED, self.level - 1)
            self.reviews_missed += 1
            self.right, self.days, self.reviews_right = 0, set(), 0

    def result(self, topic: str) -> TopicMastery:
        return TopicMastery(
            topic,
            self.level,
            self.answers,
            self.right,
            len(self.days),
            self.reviews_right,
            self.reviews_missed,
            self.last_at,
        )


def mastery(
    attempts: Iterable[Any],
    topics_of: Mapping[tuple[str, str], tuple[str, ...]],
    topics: Iterable[str] = (),
) -> dict[str, TopicMastery]:
    """Every topic's level from the attempts (``core.progress.Attempt``s, in any order).

    ``topics_of`` maps (set id, exercise id) to the exercise's topics (attempts on items no
    longer shipped are left out); ``topics`` lists topics to report even when not started.
    """
    evidence: dict[str, _Evidence] = {}
    for a in sorted(attempts, key=lambda a: (a.at, a.id)):
        for topic in topics_of.get((a.set_id, a.exercise_id), ()):
            evidence.setdefault(topic, _Evidence()).add(a)
    out = {topic: TopicMastery(topic, NOT_STARTED, 0, 0, 0, 0, 0, None) for topic in topics}
    out.update({topic: e.result(topic) for topic, e in evidence.items()})
    return out


def topics_of(sets: Iterable[Any]) -> dict[tuple[str, str], tuple[str, ...]]:
    """(set id, exercise id) → topics, for every exercise of the given sets and banks."""
    return {(s.id, e.id): tuple(e.topics) for s in sets for e in s.exercises}
