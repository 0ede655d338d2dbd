"""Shared by the quiz tests: a scratch data directory for every test (the CLI writes progress),
the language put back to English after it, and the shipped quiz bank loaded once."""

from __future__ import annotations

import pytest

from attn_tui import paths


@pytest.fixture(autouse=True)
def _isolated(tmp_path, monkeypatch):
    monkeypatch.setenv("ATTN_TUI_DATA_DIR", str(tmp_path / "data"))
    yield
    from attn_tui import i18n

    i18n.set_lang("en")


@pytest.fixture(scope="module")
def bank():
    return paths.load_all().quiz_exercises
