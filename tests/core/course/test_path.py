"""The path's states, Continue, and one lesson's steps kept as the learner goes (and quits)."""

from __future__ import annotations

import pytest

from attn_tui import paths
from attn_tui.core.course import path as P
from attn_tui.core.progress import ProgressStore


@pytest.fixture(scope="module")
def course():
    return paths.load_course()


def test_a_new_learner_starts_at_lesson_one_and_the_rest_are_locked(course):
    status = P.path_status(course, {})
    assert status.next.number == 1 and status.next.state == P.OPEN
    assert [s.state for s in status.lessons[1:]] == [P.LOCKED] * (len(course.lessons) - 1)


def test_passing_a_lessons_check_opens_the_next(course):
    lesson = course.lessons[0]
    rec = P.start(lesson, None, 1.0)
    rec = P.mark_done(lesson, rec, "read", 2.0)
    assert rec.at_step == "do"
    check = lesson.of_kind("check")[0]
    first, second, third = check.items
    rec = P.answer_check(lesson, rec, check, first, True, 3.0)
    rec = P.answer_check(lesson, rec, check, second, False, 4.0)
    assert not rec.passed
    status = P.path_status(course, {lesson.id: rec})
    assert status.lessons[0].state == P.STARTED and status.lessons[1].state == P.LOCKED
    rec = P.answer_check(lesson, rec, check, third, True, 5.0)  # 2 of 3: the pass mark
    assert rec.passed and rec.passed_at == 5.0
    status = P.path_status(course, {lesson.id: rec})
    assert status.lessons[0].state == P.PASSED
    assert status.next.number == 2 and status.next.state == P.OPEN


def test_a_failed_round_starts_afresh(course):
    lesson = course.lessons[0]
    check = lesson.of_kind("check")[0]
    rec = P.start(lesson, None, 1.0)
    for item in check.items:
        rec = P.answer_check(lesson, rec, check, item, False, 2.0)
    assert not rec.passed and P.check_round(rec, check).complete(check)
    rec = P.answer_check(lesson, rec, check, check.items[0], True, 3.0)
    assert P.check_round(rec, check).answers == {check.items[0]: True}


def test_quitting_mid_lesson_loses_nothing(course, tmp_path):
    lesson = course.lessons[1]
    with ProgressStore.open(tmp_path) as store:
        rec = P.start(lesson, None, 1.0)
        rec = P.mark_done(lesson, rec, "read", 2.0)
        rec = P.keep_draft(rec, "do", "0.99", 3.0)
        store.save_lesson(rec)
    with ProgressStore.open(tmp_path) as store:  # the app was closed and opened again
        back = store.lessons()[lesson.id]
        assert back.done == ("read",) and back.at_step == "do" and back.draft == {"do": "0.99"}
        assert P.start(lesson, back, 9.0) == back
        status = P.path_status(course, store.lessons())
        assert status.next.lesson.id == course.lessons[0].id  # lesson 1 is still to pass


def test_weak_topics_point_at_the_lesson_and_set_that_practise_them(course):
    assert course.for_topic("variance").id == "why-sqrt-d"
    assert "scaling-variance" in course.for_topic("variance").practice_sets
    assert course.for_topic("mlm").id == "masks"
