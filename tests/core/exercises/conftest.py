"""Shared fixtures: the fixture set, loaded once per test through the real loader."""

from __future__ import annotations

from pathlib import Path

import pytest

from attn_tui.core.exercises.loader import load_file
from attn_tui.core.exercises.model import ExerciseSet

FIXTURES = Path(__file__).parent / "fixtures"


@pytest.fixture
def fixture_set() -> ExerciseSet:
    loaded, problems = load_file(FIXTURES / "good_set.toml")
    assert problems == []
    assert loaded is not None
    return loaded


@pytest.fixture
def ex(fixture_set: ExerciseSet):
    """``ex("weights")``: one exercise of the fixture set by id."""

    def get(exercise_id: str):
        found = fixture_set.exercise(exercise_id)
        assert found is not None, exercise_id
        return found

    return get
