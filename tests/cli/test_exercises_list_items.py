"""``attn-tui exercises list`` leads to the ids ``exercises try`` needs: ``list SET`` shows each
item's id whole (and its kind and prompt) within 80 columns, and the plain listing says so."""

from __future__ import annotations

import json
import re

import pytest
from rich.cells import cell_len

from attn_tui import paths
from attn_tui.cli import main


@pytest.fixture(autouse=True)
def _restore_language(monkeypatch):
    monkeypatch.delenv("ATTN_TUI_DATA_DIR", raising=False)
    monkeypatch.setenv("COLUMNS", "80")
    yield
    from attn_tui import i18n

    i18n.set_lang("en")


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_list_set_shows_every_id_whole(tmp_path, capsys, lang):
    library = paths.load_all([], tmp_path)
    for s in library.sets + library.quizzes:
        assert main(["--lang", lang, "--data-dir", str(tmp_path), "exercises", "list", s.id]) == 0
        out = capsys.readouterr().out
        lines = out.splitlines()
        assert all(cell_len(line) <= 80 for line in lines)
        rows = [line for line in lines if line.startswith("│")]
        assert len(rows) == len(s.exercises)
        for n, (row, ex) in enumerate(zip(rows, s.exercises, strict=True), 1):
            assert re.match(rf"│ {n} +│ {re.escape(ex.id)} +│", row), row
        assert f"exercises try {s.id}/{s.exercises[0].id}" in out


def test_the_listing_says_how_to_see_ids_and_the_ids_work(tmp_path, capsys):
    assert main(["--lang", "en", "--data-dir", str(tmp_path), "exercises", "list"]) == 0
    assert "attn-tui exercises list SET" in capsys.readouterr().out
    args = ["--data-dir", str(tmp_path), "exercises", "list", "softmax", "--json"]
    assert main(args) == 0
    listing = json.loads(capsys.readouterr().out)
    first = listing["items"][0]
    assert listing["set"] == "softmax" and first["try"] == f"softmax/{first['id']}"
    assert (
        main(["--data-dir", str(tmp_path), "exercises", "try", first["try"], "--answer", "1"]) == 0
    )
    assert first["try"] in capsys.readouterr().out
    assert main(["--data-dir", str(tmp_path), "exercises", "list", "--json"]) == 0
    sets = json.loads(capsys.readouterr().out)["sets"]
    assert next(s for s in sets if s["id"] == "softmax")["items"][0] == first["id"]


def test_an_unknown_set_is_named_with_the_known_ones(tmp_path, capsys):
    args = ["--lang", "en", "--data-dir", str(tmp_path), "exercises", "list", "nope"]
    assert main(args) == 2
    err = capsys.readouterr().err
    assert "no set or quiz bank with the id “nope”" in err and "three-steps" in err
    assert "Traceback" not in err
