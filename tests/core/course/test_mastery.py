"""Mastery per topic: raised by right answers spread over days, lowered by misses in review."""

from __future__ import annotations

from attn_tui.core.course.mastery import (
    FAMILIAR,
    MASTERED,
    NOT_STARTED,
    PRACTISED,
    PROFICIENT,
    mastery,
)
from attn_tui.core.progress import Attempt

DAY = 86_400.0
T0 = 1_777_766_400.0  # a midnight, UTC
TOPICS = {("s", "a"): ("softmax",), ("s", "b"): ("softmax", "scaling"), ("s", "g"): ("softmax",)}


def attempt(n, ex, day, correct=True, review=False, revealed=False, hour=10):
    return Attempt(
        n,
        "s",
        ex,
        "x",
        correct,
        float(correct),
        0,
        revealed,
        None,
        T0 + day * DAY + hour * 3600,
        review,
    )


def level(attempts, topic="softmax"):
    return mastery(attempts, TOPICS, ["softmax", "scaling", "convex"])[topic].level


def test_levels_climb_with_right_answers_spread_over_days():
    assert level([]) == NOT_STARTED
    assert level([attempt(1, "a", 0, correct=False)]) == PRACTISED
    assert level([attempt(1, "a", 0)]) == PRACTISED
    two = [attempt(1, "a", 0), attempt(2, "g", 0, hour=11)]  # generated practice counts
    assert level(two) == FAMILIAR
    assert level(two + [attempt(3, "a", 1)]) == PROFICIENT
    three_days = two + [attempt(3, "a", 1), attempt(4, "b", 3)]
    assert level(three_days) == PROFICIENT  # no review answered yet
    assert level(three_days + [attempt(5, "a", 5, review=True)]) == MASTERED


def test_many_right_answers_on_one_day_are_not_spread_over_time():
    same_day = [attempt(i, "g", 0, hour=8 + i % 12) for i in range(1, 30)]
    assert level(same_day) == FAMILIAR


def test_a_miss_in_review_costs_a_level_and_days_must_be_earned_again():
    mastered = [attempt(1, "a", 0), attempt(2, "a", 2), attempt(3, "a", 4, review=True)]
    assert level(mastered) == MASTERED
    missed = mastered + [attempt(4, "a", 9, correct=False, review=True)]
    assert level(missed) == PROFICIENT
    again = missed + [attempt(5, "a", 10), attempt(6, "a", 12), attempt(7, "a", 15, review=True)]
    assert level(again) == MASTERED
    assert level(missed + [attempt(5, "a", 10)]) == PROFICIENT  # one new day is not enough
    # a miss outside review (practice) does not lower anything
    assert level(mastered + [attempt(4, "a", 9, correct=False)]) == MASTERED


def test_a_revealed_answer_is_never_right_and_topics_are_counted_apart():
    shown = [attempt(1, "b", 0, revealed=True), attempt(2, "b", 1, revealed=True)]
    assert level(shown, "scaling") == PRACTISED
    m = mastery([attempt(1, "b", 0), attempt(2, "b", 1)], TOPICS, ["convex"])
    assert m["scaling"].level == PROFICIENT and m["softmax"].level == PROFICIENT
    assert m["convex"].level == NOT_STARTED
    assert m["scaling"].to_dict()["name"] == "proficient"


def test_attempts_on_items_no_longer_shipped_are_left_out():
    gone = [Attempt(1, "old", "x", "1", True, 1.0, 0, False, None, T0, False)]
    assert level(gone) == NOT_STARTED
