"""``attn-tui progress`` at 80 columns: every set's id, its figures and the next item's id
whole (a squeezed table showed ``│ 4/… │ scores-pra… │ 2026-12-01 1… │``), and counts in
English said with their plural ("1 attempt", not "1 attempts")."""

from __future__ import annotations

import re

import pytest
from rich.cells import cell_len

from attn_tui import paths
from attn_tui.cli import main
from attn_tui.core.progress import ProgressStore


@pytest.fixture(autouse=True)
def _restore_language(monkeypatch):
    monkeypatch.delenv("ATTN_TUI_DATA_DIR", raising=False)
    monkeypatch.setenv("COLUMNS", "80")
    yield
    from attn_tui import i18n

    i18n.set_lang("en")


def sets_table(out: str) -> list[str]:
    lines = out.splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith("┏"))
    end = next(i for i, line in enumerate(lines) if line.startswith("└"))
    return lines[start : end + 1]


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_every_set_whole_at_80_columns(tmp_path, capsys, lang):
    data = tmp_path / "data"
    library = paths.load_all([], data)
    with ProgressStore.open(data) as store:
        for s in library.sets:  # the first four done in each set: "4/10", the next id long
            for e in s.exercises[:4]:
                store.record_attempt(s.id, e.id, "x", correct=True, score=1)
            store.visit(s.id, s.exercises[0].id)
        store.record_quiz("quick", 1, 10, {"softmax": (0, 3)})
    assert main(["--lang", lang, "--data-dir", str(data), "progress"]) == 0
    out = capsys.readouterr().out
    table = sets_table(out)
    drawn = [line for line in out.splitlines() if line[:1] in "┏┃┡│└"]  # every table's lines
    assert drawn and all(cell_len(line) <= 80 for line in drawn)
    assert not any("…" in line for line in table)
    for s in library.sets:
        with ProgressStore.open(data) as store:
            p = store.set_progress(s.id, s.ids)
        [row] = [i for i, line in enumerate(table) if re.match(rf"│ {re.escape(s.id)} +│", line)]
        block = "\n".join(table[row - 2 : row + 1])  # the title's lines above the id
        assert f" {p.done}/{p.total} " in block and f" {p.solved}/{p.total} " in block
        assert f" {p.first_unsolved} " in block
    if lang == "en":
        assert "Quiz (quick): 1 attempt, best 10%" in out
