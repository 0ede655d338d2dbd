"""Checked claims ``{= …}``: what holds, what does not, what cannot be read, and their costs."""

from __future__ import annotations

import math
import time

import pytest

from attn_tui.core.exercises import claims
from attn_tui.core.exercises.loader import load_text
from attn_tui.i18n import t

HAND_K = "((1,0,0),(0,1,0),(1,0,1),(1,1,0))"


@pytest.mark.parametrize(
    "claim",
    [
        "e + 1 + e² + e ≈ 13.826",
        "0.5614 + 0.3152 + 1 + 0.5614 ≈ 2.4379",  # rounded terms, written as ≈
        "0.5614 + 0.3152 + 1 + 0.5614 = 2.4380",  # the shown terms add up exactly
        "1×1 + 0×1 + 1×0 = 1",
        "2×(−1)+1×0 = −2",
        "32×6 − 16×6 = 192 − 96 = 96",
        "√3 ≈ 1.7321",
        "2/√3 ≈ 1.1547",
        "(1000/100)² = 100",
        "e⁻⁴ ≈ 0.0183",
        "√512 ≈ 22.6",
        "√512 ≈ 23",  # a lone whole number under ≈ is read as rounded
        "softmax(3, 1, −1) ≈ (0.8668, 0.1173, 0.0159)",
        "softmax([6, 2, −2]) ≈ (0.9817, 0.0180, 0.0003)",
        "0.3×(1, 0) + 0.7×(0, 1) = (0.3, 0.7)",
        "(1,0,1)·(1,1,0) = 1",
        "0.7679×(4,0) + 0.1867×(0,4) + 0.0454×(0,0) ≈ (3.0717, 0.7468)",
        "1.6% ≈ 0.016",
        "0.8707 < 1 ≤ 1",
        f"weights((1,0,1), {HAND_K}) ≈ (0.2303, 0.1293, 0.4102, 0.2303)",
        f"output((1,0,1), {HAND_K}) ≈ (0.8707, 0.3595, 0.4102)",
        "rnn_params(6, 16, 6, 0) = 838",
        "sin(2 / 10000^(1/8)) ≈ 0.5911",  # PE[2, 2] at d 16, the sinusoidal encoding
        "cos(0) = 1",
        "transformer('reverse', 'params') = 2454",
        "blind_ceiling('reverse', 10) > 1/6",
    ],
)
def test_true_claims_hold(claim):
    assert claims.check_text("{=" + claim + "}") == []


@pytest.mark.parametrize(
    ("claim", "reason"),
    [
        ("e + 1 + e² + e ≈ 14.826", "does_not_hold"),  # issue 13, item 1
        ("0.5614 + 0.3152 + 1 + 0.5614 = 2.4379", "does_not_hold"),  # rounding as equality
        ("0.2303 + 0.4102 + 0.2303 = 0.8707", "does_not_hold"),  # they add to 0.8708
        ("0.1293 + 0.2303 = 0.3595", "does_not_hold"),  # 0.3596
        ("√512 = 22.6", "does_not_hold"),  # = is exact
        ("√512 ≈ 22.7", "does_not_hold"),
        ("1 > 2", "does_not_hold"),
        ("(1, 2) = (1, 2, 3)", "shapes_differ"),
        ("1 + 1", "no_relation"),
        ("foo(1) = 1", "unknown_name"),
        ("1 / 0 = 1", "division_by_zero"),
        ("2^1000 = 1", "power"),
        ("exp(800) = 1", "not_finite"),
        ("√(0 − 1) = 1", "negative_root"),
        ("(1, 2)[3] = 1", "no_entry"),
        ("1 + # = 2", "cannot_read"),
        ("(1 + 2 = 3", "expected"),
        ("weights((1,0), ((1,0,0))) = 1", "want_matrix"),
        ("sin(0) = 1", "does_not_hold"),
        ("transformer('nope', 'pos_acc') = 1", "transformer_row"),
        ("transformer('sort', 'weight') = 1", "transformer_metric"),
        ("transformer(1, 'pos_acc') = 1", "transformer_args"),
        ("blind_ceiling('reverse', 1) = 1", "blind_args"),
        ("blind_ceiling('copy', 10) = 1", "blind_args"),
    ],
)
def test_false_or_unreadable_claims_say_why(claim, reason):
    faults = claims.check_text("{=" + claim + "}")
    assert [f.reason for f in faults] == [reason]
    text = f"ex.claim.{reason}"
    for lang in ("zh", "en"):  # every reason has a sentence in both languages
        assert t(text, lang=lang, claim=claim, **faults[0].params)


def test_the_sum_of_exponentials_is_recomputed_independently():
    # The hint's figure, against plain arithmetic: e + 1 + e² + e.
    assert round(math.e + 1 + math.e**2 + math.e, 3) == 13.826
    assert claims.check_text("{= e + 1 + e² + e ≈ 13.826}") == []


@pytest.mark.parametrize(
    ("shown", "expression", "ok"),
    [
        ("0.41", f"weights((1,0,1), {HAND_K})[3]", True),
        ("0.2303、0.1293、0.4102、0.2303", f"weights((1,0,1), {HAND_K})", True),
        ("96", "rnn_params(6,16,6,1) − rnn_params(6,16,6,0)", True),
        ("97", "rnn_params(6,16,6,1) − rnn_params(6,16,6,0)", False),
        ("96.0", "rnn_params(6,16,6,1) − rnn_params(6,16,6,0)", True),
        ("约 17 倍", "√300", True),  # a whole number shown for a non-whole value: rounded
        ("about 2.5 times", "0.25/0.10", True),
        ("0.2303、0.1293", f"weights((1,0,1), {HAND_K})", False),  # too few numbers
        ("6%", "0.06", True),
        ("−0.5774", "−1/√3", True),
        ("0.3545", "blind_ceiling('reverse', 10)", True),  # the Transformer test's own figure
        ("0.3546", "blind_ceiling('reverse', 10)", False),
        ("0.85", "transformer('sort', 'content_head_by_symbol')", True),
        ("0.86", "transformer('sort', 'content_head_by_symbol')", False),
    ],
)
def test_shown_figures_match_their_expression(shown, expression, ok):
    assert (claims.check_text("{=" + shown + " | " + expression + "}") == []) is ok


def test_display_shows_the_claim_or_only_its_figure():
    text = "分母 {= e + 1 + e² + e ≈ 13.826}，k₃ 拿到约 {=0.41 | weights((1,0,1), ((1,0,1)))[1]}。"
    assert claims.display(text) == "分母 e + 1 + e² + e ≈ 13.826，k₃ 拿到约 0.41。"
    assert claims.display("{a, b} and {name} stay") == "{a, b} and {name} stay"


def test_an_unclosed_claim_is_a_fault():
    assert [f.reason for f in claims.check_text("x {= 1 + 1 = 2")] == ["unclosed"]


FILE = """\
[set]
id = "s"
title = {{ zh = "题", en = "set" }}
summary = {{ zh = "题", en = "set" }}

[[exercise]]
id = "x"
kind = "number"
answer = 1
topics = ["softmax"]
prompt = {{ zh = "题", en = "q" }}
hints.zh = ["{hint}"]
hints.en = ["fine {{= 2/√3 ≈ 1.1547}}"]
explanation = {{ zh = "解 {{= 1 + 1 = 2}}", en = "why" }}
"""


def test_the_loader_reports_a_false_claim_at_its_line_and_shows_claims_plainly():
    loaded, problems = load_text(FILE.format(hint="分母 {= e + 1 + e² + e ≈ 14.826}"), "f.toml")
    assert loaded is None
    assert [(p.line, p.code) for p in problems] == [(12, "ex.claim.does_not_hold")]
    assert "14.826" in problems[0].format(t, "en")

    loaded, problems = load_text(FILE.format(hint="分母 {= e + 1 + e² + e ≈ 13.826}"), "f.toml")
    assert problems == []
    ex = loaded.exercises[0]
    assert ex.hints[0].zh == "分母 e + 1 + e² + e ≈ 13.826"
    assert ex.hints[0].en == "fine 2/√3 ≈ 1.1547"
    assert ex.explanation.zh == "解 1 + 1 = 2"


@pytest.mark.parametrize(
    "hostile",
    [
        "{=" + "√" * 5000 + "2 = 1}",
        "{=" + "(" * 5000 + "1 = 1}",
        "{=" + "−" * 5000 + "1 = 1}",
        "{=" + "+".join(["1"] * 300) + " = 300}",
        "{=" + "9" * 5000 + " = 1}",
    ],
)
def test_hostile_claims_fail_cleanly(hostile):
    faults = claims.check_text(hostile)
    assert len(faults) == 1 and faults[0].code == "syntax"


def test_many_claims_cost_linear_time():
    one = "{= 0.5614 + 0.3152 + 1 + 0.5614 ≈ 2.4379} "
    start = time.perf_counter()
    assert claims.check_text(one * 2000) == []
    # a generous bound: 2000 claims in well under the time a learner would notice on load
    assert time.perf_counter() - start < 20
