"""Generated exercises explain with their own numbers: ``{worked}`` is the arithmetic from the
drawn values to the answer, and every line of it is true (checked as a claim)."""

from __future__ import annotations

import re

import numpy as np
import pytest

from attn_tui import paths
from attn_tui.core.exercises import claims
from attn_tui.core.exercises.generators import GENERATORS, draw, instance
from attn_tui.core.exercises.loader import load_file
from attn_tui.core.exercises.worked import num

SPECS = [
    {"fn": "attention.scores"},
    {"fn": "attention.weights", "keys": 4, "dim": 3, "low": -1, "high": 2},
    {"fn": "attention.weights", "keys": 6, "dim": 6, "low": -9, "high": 9},
    {"fn": "attention.output", "keys": 3, "dim": 2},
    {"fn": "attention.output", "keys": 4, "dim": 4, "low": -5, "high": 5},
    {"fn": "softmax", "n": 4},
    {"fn": "softmax", "n": 6, "low": -20, "high": 20},
    {"fn": "sqrt", "choices": [2, 3, 5, 16, 64, 100, 300, 512]},
    {"fn": "causal_mask", "n_min": 1, "n_max": 16},
    {"fn": "rnn_params"},
    {"fn": "head_dim", "d_model": [64, 100, 768], "heads": [3, 8, 12]},
    {"fn": "score_count"},
    {"fn": "cost_ratio", "choices": [[10, 100], [100, 1000], [50, 200], [64, 512], [3, 7]]},
]


def _claim(line: str) -> str:
    """A line of working without its label ("q·k₁: …", "Σ: …")."""
    return line.split(": ", 1)[1] if ": " in line else line


@pytest.mark.parametrize("spec", SPECS, ids=lambda s: f"{s['fn']}-{len(s)}")
def test_every_line_of_working_is_true(spec):
    for seed in range(60):
        drawn = draw(spec, seed)
        lines = drawn.worked.split("\n")
        assert lines and all(lines)
        for line in lines:
            if line.startswith("max = "):  # a label, not arithmetic
                continue
            faults = claims.check_text("{=" + _claim(line) + "}")
            assert faults == [], f"seed {seed}: {line}: {faults[0].reason} {faults[0].params}"


@pytest.mark.parametrize("spec", SPECS, ids=lambda s: f"{s['fn']}-{len(s)}")
def test_the_working_ends_at_the_answer(spec):
    for seed in range(60):
        drawn = draw(spec, seed)
        last = drawn.worked.split("\n")[-1]
        if drawn.kind == "matrix":  # the mask: its count of blocked cells
            n = drawn.values["n"]
            assert last.endswith(f"= {n * (n - 1) // 2}")
            continue
        answer = np.ravel(np.asarray(drawn.answer, dtype=np.float64))
        lines = drawn.worked.split("\n")
        if drawn.fn == "attention.scores":  # one line per key
            shown = " ".join(re.split(" [=≈] ", line)[-1] for line in lines)
        elif drawn.fn == "head_dim":  # d_k first, then the concatenation back to d_model
            shown = re.split(" [=≈] ", lines[0])[-1]
        else:
            shown = re.split(" [=≈] ", last)[-1]
        figures = [float(s) for s in shown.replace("−", "-").strip("()").replace(",", " ").split()]
        assert len(figures) == answer.size, (seed, last)
        for figure, exact in zip(figures, answer, strict=True):
            assert abs(figure - exact) <= 5e-5 + 1e-12, (seed, last)


def test_small_figures_are_never_shown_as_an_exact_zero():
    assert num(0) == "0" and num(2.5) == "2.5" and num(-3) == "−3"
    assert num(4.7e-5) == "0.000047"  # a softmax weight is never exactly 0
    assert num(0.99999997) == "1.0000"  # rounded, so not written as the whole number 1
    assert num(1e-9) == "0.000000"


def test_every_generator_offers_worked():
    assert all("worked" in gen.draws for gen in GENERATORS.values())


GENERATED = [
    (s, e)
    for s in (load_file(p)[0] for p in paths.shipped_files())
    for e in s.exercises
    if e.generated
]


@pytest.mark.parametrize("pair", GENERATED, ids=lambda p: f"{p[0].id}/{p[1].id}")
def test_shipped_generated_explanations_show_their_own_numbers(pair):
    _, exercise = pair
    for seed in (1, 2, 3):
        inst = instance(exercise, seed=seed)
        for lang in ("zh", "en"):
            text = inst.explanation(lang)
            assert "{worked}" in exercise.explanation.get(lang)
            assert inst.drawn.worked in text


def test_attention_reads_as_adding_it_or_not_in_chinese():
    (exercise,) = [e for s, e in GENERATED if e.generate["fn"] == "rnn_params"]
    prompts = {instance(exercise, seed=seed).prompt("zh") for seed in range(20)}
    assert any("加点积注意力" in p and "不加" not in p for p in prompts)
    assert any("不加点积注意力" in p for p in prompts)
    assert not any("无点积注意力" in p or "有点积注意力" in p for p in prompts)
