"""A plain, non-editable `pip install .` must carry the exercise files and the stylesheets."""

import importlib.util
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


@pytest.mark.skipif(importlib.util.find_spec("setuptools") is None, reason="needs setuptools")
def test_wheel_ships_exercises_and_stylesheets(tmp_path):
    pip = [sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation", "-q"]
    subprocess.run([*pip, "-w", str(tmp_path), str(ROOT)], check=True, capture_output=True)
    (wheel,) = tmp_path.glob("attn_tui-*.whl")
    names = set(zipfile.ZipFile(wheel).namelist())
    shipped_sets = {
        f"attn_tui/exercises/sets/{p.name}" for p in (ROOT / "exercises/sets").glob("*.toml")
    }
    shipped_quiz = {
        f"attn_tui/exercises/quiz/{p.name}" for p in (ROOT / "exercises/quiz").glob("*.toml")
    }
    assert shipped_sets and shipped_quiz
    assert shipped_sets <= names and shipped_quiz <= names
    assert "attn_tui/exercises/README.md" in names
    assert "attn_tui/exercises/trainer_figures.toml" in names  # the trainer screen reads it
    # set 10 and quiz 3 claims read it
    assert "attn_tui/exercises/transformer_figures.toml" in names
    code = {
        f"attn_tui/exercises/code/{p.relative_to(ROOT / 'exercises/code').as_posix()}"
        for p in (ROOT / "exercises/code").rglob("*")
        if p.suffix in (".toml", ".py", ".md")
    }
    assert len(code) >= 31 and code <= names  # the code set, its starters and solutions
    stylesheets = {f"attn_tui/screens/{p.name}" for p in (ROOT / "attn_tui/screens").glob("*.tcss")}
    assert stylesheets <= names and "attn_tui/app.tcss" in names
    # every Python package under attn_tui/ made it (the package list in pyproject is explicit)
    for init in (ROOT / "attn_tui").rglob("__init__.py"):
        assert init.relative_to(ROOT).as_posix() in names
