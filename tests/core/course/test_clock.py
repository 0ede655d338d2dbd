"""The course clock: ATTN_TUI_NOW sets the time for tests and demos; bad values are named."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from attn_tui.core.course import clock
from attn_tui.core.parse import InputError
from attn_tui.core.progress import ProgressStore


def test_the_forms_it_reads():
    day = datetime(2026, 5, 3, tzinfo=UTC).timestamp()
    assert clock.parse_now("2026-05-03") == day
    assert clock.parse_now("2026-05-03T09:30") == day + 9.5 * 3600
    assert clock.parse_now("2026-05-03T09:30+08:00") == day + 1.5 * 3600
    assert clock.parse_now("+2d", real=day) == day + 2 * 86400
    assert clock.parse_now("-36h", real=day) == day - 36 * 3600
    assert clock.parse_now("+90m", real=day) == day + 5400
    assert clock.parse_now("1777777777") == 1777777777.0


@pytest.mark.parametrize("bad", ["", "tomorrow", "+2w", "2026-13-01", "x" * 10_000, "+d"])
def test_a_value_it_cannot_read_is_an_input_error(bad):
    with pytest.raises(InputError) as err:
        clock.parse_now(bad)
    assert err.value.code == "course.bad_now"


def test_unset_is_the_real_time():
    assert abs(clock.now({}) - datetime.now(UTC).timestamp()) < 5


def test_the_store_stamps_attempts_with_the_course_clock(tmp_path, monkeypatch):
    monkeypatch.setenv(clock.ENV_NOW, "2026-05-03T10:00")
    with ProgressStore.open(tmp_path) as store:
        store.record_attempt("s", "e", "1", correct=True, score=1.0)
        store.visit("s", "e")
        (attempt,) = store.attempts()
        assert attempt.at == clock.parse_now("2026-05-03T10:00")
        assert store.count_due() == 0
        monkeypatch.setenv(clock.ENV_NOW, "2026-05-05T10:00")  # two days later
        assert store.count_due() == 1
