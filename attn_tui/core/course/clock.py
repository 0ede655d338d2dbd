"""The course's clock: real time, or a time set for tests and demos.

``ATTN_TUI_NOW`` sets it:

- an ISO date or date-time, read as UTC when it names no zone: ``2026-05-03``,
  ``2026-05-03T09:30``, ``2026-05-03T09:30+08:00``;
- an offset from the real time: ``+2d``, ``+36h``, ``-1d``, ``+90m`` (days, hours, minutes);
- unix seconds: ``1777777777``.

Every attempt, review and lesson step is stamped with :func:`now`, so a learner "two days
later" is ``ATTN_TUI_NOW=+2d attn-tui``. A value that cannot be read is an InputError
``course.bad_now`` (the CLI says so and stops; the app does the same at start).
"""

from __future__ import annotations

import os
import re
import time
from collections.abc import Mapping
from datetime import UTC, datetime

from attn_tui.core.parse import InputError

ENV_NOW = "ATTN_TUI_NOW"
DAY = 86_400.0
_OFFSET = re.compile(r"^([+-])\s*(\d{1,6}(?:\.\d{1,6})?)\s*([dhm])$")
_UNIT = {"d": DAY, "h": 3600.0, "m": 60.0}
MAX_TEXT = 64  # an environment variable may be long; a time is not


def parse_now(text: str, real: float | None = None) -> float:
    """The unix time ``text`` names (see the module docstring); InputError when unreadable."""
    raw = text.strip()
    if not raw or len(raw) > MAX_TEXT:
        raise InputError("course.bad_now", value=raw[:MAX_TEXT], var=ENV_NOW)
    m = _OFFSET.match(raw)
    if m:
        sign = -1.0 if m.group(1) == "-" else 1.0
        base = time.time() if real is None else real
        return base + sign * float(m.group(2)) * _UNIT[m.group(3)]
    if re.fullmatch(r"\d{9,11}(?:\.\d+)?", raw):
        return float(raw)
    try:
        when = datetime.fromisoformat(raw)
    except ValueError:
        raise InputError("course.bad_now", value=raw, var=ENV_NOW) from None
    if when.tzinfo is None:
        when = when.replace(tzinfo=UTC)
    return when.timestamp()


def now(environ: Mapping[str, str] | None = None) -> float:
    """Unix seconds: ``ATTN_TUI_NOW`` when it is set, else the real time."""
    env = os.environ if environ is None else environ
    value = env.get(ENV_NOW)
    if not value:
        return time.time()
    return parse_now(value)


def check_env(environ: Mapping[str, str] | None = None) -> None:
    """Raise the InputError now, at start, rather than at the first attempt recorded."""
    now(environ)


def day_of(at: float) -> int:
    """The day number (UTC) of a unix time: answers on two different days are two days."""
    return int(at // DAY)


def iso(at: float) -> str:
    """A unix time as an ISO date-time in UTC, to the second (for --json)."""
    return datetime.fromtimestamp(at, UTC).strftime("%Y-%m-%dT%H:%M:%SZ")
