"""``attn-tui lab`` through the real front door, as a script or a classroom would run it."""

from __future__ import annotations

import json
import re

import numpy as np
import pytest

from attn_tui.cli import main


def run_json(capsys, *args):
    assert main(["--lang", "en", "lab", *args, "--json"]) == 0
    return json.loads(capsys.readouterr().out)


def test_json_has_shapes_weights_output(capsys):
    d = run_json(capsys, "--tokens", "5", "--d-model", "8", "--heads", "2", "--seed", "0")
    assert {"shapes", "weights", "output", "cost"} <= d.keys()
    assert d["shapes"]["Q_heads"] == [2, 5, 4]
    assert d["shapes"]["scores"] == [2, 5, 5]
    assert d["shapes"]["output"] == [5, 8]
    assert d["tokens"]["queries"] == ["x1", "x2", "x3", "x4", "x5"]
    W = np.array(d["weights"])
    assert W.shape == (2, 5, 5)  # per head, rows = queries
    np.testing.assert_allclose(W.sum(axis=-1), 1.0, atol=1e-12)
    assert np.array(d["output"]).shape == (5, 8)
    assert d["cost"]["scores"] == 25 and d["cost"]["ratio"] == 100


def test_json_is_reproducible_from_its_own_inputs(capsys):
    """The printed X and W matrices recompute the printed weights (nothing hidden)."""
    d = run_json(capsys, "--preset", "love", "--heads", "1", "--d-model", "4", "--seed", "3")
    X = np.array(d["inputs"]["X_q"])
    WQ, WK = np.array(d["inputs"]["W_Q"]), np.array(d["inputs"]["W_K"])
    s = (X @ WQ) @ (X @ WK).T / 2.0
    e = np.exp(s - s.max(axis=1, keepdims=True))
    np.testing.assert_allclose(d["weights"][0], e / e.sum(axis=1, keepdims=True), rtol=1e-12)


def test_causal_json_zero_above_diagonal(capsys):
    d = run_json(capsys, "--tokens", "4", "--heads", "2", "--causal")
    W = np.array(d["weights"])
    assert np.all(W[:, np.triu_indices(4, 1)[0], np.triu_indices(4, 1)[1]] == 0.0)
    assert d["scores"][0][0][3] is None  # −∞ as null
    assert d["causal"] is True


def test_window_json(capsys):
    d = run_json(capsys, "--tokens", "5", "--window", "1", "--heads", "1")
    allowed = np.array(d["allowed"])
    assert allowed[0].tolist() == [True, True, False, False, False]
    assert np.all(np.array(d["weights"])[0][~allowed] == 0.0)


def test_cross_json_is_rectangular(capsys):
    d = run_json(capsys, "--preset", "love_zh", "--cross", "I love China today", "--heads", "2")
    assert d["mode"] == "cross"
    assert np.array(d["weights"]).shape == (2, 3, 4)
    assert d["tokens"]["keys"] == ["I", "love", "China", "today"]
    d = run_json(capsys, "--tokens", "2", "--cross", "3")
    assert d["tokens"]["keys"] == ["y1", "y2", "y3"]


def test_typed_x(capsys):
    d = run_json(capsys, "--x", "1 0 1 0; 0 1 0 1; 1 1 0 0", "--heads", "2")
    assert d["d_model"] == 4 and d["n_q"] == 3
    assert d["inputs"]["X_q"] == [[1, 0, 1, 0], [0, 1, 0, 1], [1, 1, 0, 0]]


def test_shapes_trace_json(capsys):
    d = run_json(capsys, "--shapes")
    assert d["shapes"]["d_k"] == 64
    steps = {s["step"]: s["shape"] for s in d["shapes"]["steps"]}
    assert steps["split"] == [10, 8, 64] and steps["scores"] == [8, 10, 10]
    assert d["cost"]["n"] == 10


@pytest.mark.parametrize(
    ("lang", "words"),
    [("en", ["head 1", "head 2", "row sum", "Cost"]), ("zh", ["第 1 个头", "行和", "计算量"])],
)
def test_tables_in_both_languages(capsys, lang, words):
    assert main(["--lang", lang, "lab", "--heads", "2", "--causal"]) == 0
    out = capsys.readouterr().out
    for word in words:
        assert word in out
    assert "猫" in out and "垫子" in out  # the default preset labels rows and columns
    assert "(2, 5, 4)" in out  # Q split into heads


def test_shapes_tables(capsys):
    assert main(["--lang", "en", "lab", "--shapes", "--tokens", "10"]) == 0
    out = capsys.readouterr().out
    assert "(10, 8, 64)" in out and "(8, 10, 10)" in out and "1,048,576" in out


@pytest.mark.parametrize(
    ("args", "needle"),
    [
        (["--heads", "3"], "1, 2, 4, 8"),
        (["--tokens", "9"], "8"),
        (["--tokens", "0"], "no tokens"),
        (["--window", "-1"], "-1"),
        (["--d-model", "20"], "16"),
        (["--x", "1 2; 3"], "row 2"),
        (["--preset", "dog"], "cat, love, love_zh"),
        (["--cross", "3", "--causal"], "self-attention only"),
        (["--shapes", "--d-model", "512", "--heads", "7"], "h = 7"),
    ],
)
def test_bad_input_exits_2_with_a_sentence(capsys, args, needle):
    assert main(["--lang", "en", "lab", *args]) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    assert captured.err.startswith("attn-tui lab: ")
    assert needle in captured.err


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_tables_write_the_minus_sign_as_the_app_does(capsys, monkeypatch, lang):
    """The output matrix's negatives are "−0.25" (U+2212) like every other figure, not "-0.25";
    the cost lines keep their indent when they wrap at 80 columns."""
    monkeypatch.setenv("COLUMNS", "80")
    assert main(["--lang", lang, "lab", "--seed", "0"]) == 0
    out = capsys.readouterr().out
    assert not re.search(r"(?<![\w])-\d", out)
    assert re.search(r"−\d\.\d\d", out)
    cost = out.split("\n" + ("计算量" if lang == "zh" else "Cost") + "\n")[1]
    assert all(line.startswith("  ") for line in cost.splitlines())
