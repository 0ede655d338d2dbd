"""`attn-tui calc`: the seed table as JSON, Rich tables, and one-line faults with exit 2."""

import json
import math
import subprocess
import sys

import pytest

from attn_tui.cli import main


def run_json(capsys, *argv):
    assert main(["calc", *argv, "--json"]) == 0
    return json.loads(capsys.readouterr().out)


def test_default_is_the_seed_example_at_full_precision(capsys):
    out = run_json(capsys)
    assert set(out) >= {"d", "scale", "scores", "scaled", "weights", "output"}
    assert out["d"] == 3 and out["scores"] == [1.0, 0.0, 2.0, 1.0]
    assert math.isclose(out["scale"], 1 / math.sqrt(3))
    assert [round(w, 4) for w in out["weights"]] == [0.2303, 0.1293, 0.4102, 0.2303]
    assert [round(o, 4) for o in out["output"]] == [0.8707, 0.3595, 0.4102]
    # full precision, not rounded
    assert out["weights"][0] != round(out["weights"][0], 4)


def test_switches(capsys):
    assert run_json(capsys, "--no-scale")["scaled"] == [1.0, 0.0, 2.0, 1.0]
    assert run_json(capsys, "--hard")["weights"] == [0.0, 0.0, 1.0, 0.0]
    hot = run_json(capsys, "-T", "0.1")["weights"]
    assert hot[2] > 0.99
    out = run_json(capsys, "-q", "1 2", "-k", "1 0; 0 1", "--values", "10 0; 0 10")
    assert math.isclose(sum(out["weights"]), 1.0) and math.isclose(sum(out["output"]), 10.0)


def test_rich_tables_show_every_step(capsys):
    assert main(["--lang", "en", "calc"]) == 0
    out = capsys.readouterr().out
    for piece in [
        "1×1 + 0×0 + 1×0",
        "= 2",
        "1.7321",
        "0.5774",
        "1.1547",
        "0.2303",
        "0.4102",
        "+0.8707",
        "+0.3595",
        "Step 4 of 4",
    ]:
        assert piece in out, piece


@pytest.mark.parametrize(
    ("argv", "fragment"),
    [
        (["-q", ""], "query is empty"),
        (["-q", "1 a 1"], "“a”"),
        (["-q", "1,,2,3"], "entry 2 is empty"),
        (["-k", "1 0 0; 0 1"], "row 2"),
        (["-q", "1 0"], "2 dimensions"),
        (["--values", "1; 2"], "2 values but 4 keys"),
        (["-q", "nan 0 1"], "finite"),
        (["-q", "inf 0 1"], "finite"),
        (["-q", "1e400 0 1"], "too large"),
        (["-q", " ".join(["1"] * 65), "-k", " ".join(["1"] * 65)], "limit is 64"),
        (["-k", "; ".join(["1 0 1"] * 65)], "limit is 64"),
        (["-T", "0"], "temperature"),
        (["-T", "hot"], "temperature"),
    ],
)
def test_bad_input_exits_2_with_one_line(capsys, argv, fragment):
    assert main(["--lang", "en", "calc", *argv]) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    lines = captured.err.strip().splitlines()
    assert len(lines) == 1 and fragment in lines[0], lines
    assert "Traceback" not in captured.err


def test_huge_scores_still_give_finite_weights(capsys):
    out = run_json(
        capsys, "-q", "1000000 1000000", "-k", "1000000 1000000; -1000000 -1000000", "--no-scale"
    )
    assert out["weights"] == [1.0, 0.0]


def test_faults_in_chinese(capsys):
    assert main(["--lang", "zh", "calc", "-q", "1 0"]) == 2
    assert "维" in capsys.readouterr().err


def test_module_entry_point_runs_without_traceback():
    done = subprocess.run(
        [sys.executable, "-m", "attn_tui", "--lang", "en", "calc", "-q", "x"],
        capture_output=True,
        text=True,
    )
    assert done.returncode == 2 and done.stderr.count("\n") == 1 and "Traceback" not in done.stderr


@pytest.mark.parametrize("lang", ["en", "zh"])
@pytest.mark.parametrize("columns", [80, 120])
@pytest.mark.parametrize("switches", [[], ["--hard"], ["--no-scale", "-T", "0.5"]])
def test_the_four_boxes_are_one_width(capsys, monkeypatch, lang, columns, switches):
    """Each step's box as wide as the others (in zh they were 40, 80, 76 and 72 columns), and
    within the terminal."""
    from rich.cells import cell_len

    from attn_tui import i18n

    monkeypatch.setenv("COLUMNS", str(columns))
    try:
        assert main(["--lang", lang, "calc", *switches]) == 0
    finally:
        i18n.set_lang("en")
    lines = capsys.readouterr().out.splitlines()
    tops = [cell_len(line) for line in lines if line.startswith("╭")]
    sides = {cell_len(line.rstrip()) for line in lines if line.startswith("│")}
    assert len(tops) == 4 and len(set(tops)) == 1 and sides == set(tops)
    assert tops[0] <= columns
