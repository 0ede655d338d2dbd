"""Reviews spaced over days by FSRS: what a grade earns, and the days it comes back."""

from __future__ import annotations

import json
import math

from attn_tui.core.course import review
from attn_tui.core.course.review import AGAIN, GOOD, HARD, rating_for, schedule

DAY = 86_400.0
T0 = 1_777_777_777.0


def test_the_rating_a_grade_earns():
    assert rating_for(True, 0, False) == GOOD
    assert rating_for(True, 2, False) == HARD
    assert rating_for(False, 0, False) == AGAIN
    assert rating_for(True, 0, True) == AGAIN  # the answer was shown


def test_a_first_right_answer_comes_back_in_two_days_a_miss_tomorrow():
    good = schedule(None, "s", "e", GOOD, T0)
    assert good.due - T0 == 2 * DAY
    assert schedule(None, "s", "e", AGAIN, T0).due - T0 == 1 * DAY
    assert schedule(None, "s", "e", HARD, T0).due - T0 == 1 * DAY


def test_right_answers_on_the_day_lengthen_the_interval_a_miss_shortens_it():
    c = schedule(None, "s", "e", GOOD, T0)
    gaps = []
    for _ in range(3):
        c2 = schedule(c, "s", "e", GOOD, c.due)
        gaps.append(c2.due - c2.last_at)
        c = c2
    assert gaps[0] > 2 * DAY and gaps == sorted(gaps) and gaps[-1] > gaps[0]
    missed = schedule(c, "s", "e", AGAIN, c.due)
    assert missed.lapses == 1 and missed.reps == 5
    assert missed.due - missed.last_at < gaps[-1]


def test_the_schedule_is_the_same_every_time():
    a = schedule(schedule(None, "s", "e", GOOD, T0), "s", "e", GOOD, T0 + 2 * DAY)
    b = schedule(schedule(None, "s", "e", GOOD, T0), "s", "e", GOOD, T0 + 2 * DAY)
    assert a == b


def test_a_card_edited_by_hand_starts_afresh_and_a_clock_set_back_does_not_undo():
    c = schedule(None, "s", "e", GOOD, T0)
    broken = review.CardState(**{**c.__dict__, "card": "{not json"})
    again = schedule(broken, "s", "e", GOOD, T0 + DAY)
    assert again.due - again.last_at == 2 * DAY
    back = schedule(c, "s", "e", GOOD, T0 - 10 * DAY)  # counted as made at the last review
    assert back.last_at == T0
    assert json.loads(back.card)["last_review"].startswith("2026")


def test_retrievability_falls_with_time():
    c = schedule(None, "s", "e", GOOD, T0)
    r1, r2 = review.retrievability(c, T0 + DAY), review.retrievability(c, T0 + 10 * DAY)
    assert 0 < r2 < r1 <= 1
    assert math.isnan(review.retrievability(review.CardState(**{**c.__dict__, "card": "x"}), T0))
