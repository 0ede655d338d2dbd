"""A checked claim with a power past what a float holds is a fault of the file, by line, not an
internal error. Before: ``{= 2⁹⁹⁹…}`` (309 superscript digits) raised OverflowError in the
tokenizer, and ``exercises validate`` said "checking this file failed unexpectedly … please
report" instead of naming the claim."""

from __future__ import annotations

import subprocess
import sys

from hypothesis import given, settings
from hypothesis import strategies as st

from attn_tui.core.exercises import claims

SUPER = "⁰¹²³⁴⁵⁶⁷⁸⁹"


def power(digits: str) -> str:
    return "".join(SUPER[int(c)] for c in digits)


def test_a_power_of_309_digits_is_named_not_an_overflow():
    for claim in (f"2{power('9' * 309)} > 1", f"10{power('1' * 5)} > 1",
                  f"e⁻{power('9' * 400)} ≥ 0"):  # fmt: skip
        (fault,) = claims.check_text("{= " + claim + "}")
        assert fault.reason == "power_too_long" and fault.params["limit"] == 4
    assert claims.check_text("{= 10⁴ = 10000}") == []
    assert claims.check_text("{= 2⁹⁹⁹⁹ > 1}")[0].reason == "power"  # 4 digits: read, then bounded


def test_validate_names_the_file_line_and_claim(tmp_path):
    path = tmp_path / "s.toml"
    path.write_text(
        '[set]\nid = "cl"\ntitle = { zh = "t", en = "t" }\nsummary = { zh = "s", en = "s" }\n\n'
        '[[exercise]]\nid = "a"\nkind = "number"\ntopics = ["dot-product"]\n'
        f'prompt = {{ zh = "x", en = "x {{= 2{power("9" * 309)} > 1}}" }}\nanswer = 1\n'
        'explanation = { zh = "e", en = "e" }\n',
        "utf-8",
    )
    argv = [sys.executable, "-m", "attn_tui", "--lang", "en", "exercises", "validate", str(path)]
    done = subprocess.run(argv, capture_output=True, text=True, timeout=120)
    assert done.returncode == 1, done.stdout + done.stderr
    assert f"{path}:10: exercise a: in the checked claim" in done.stdout
    assert "superscript power “²⁹⁹⁹" not in done.stdout  # the power, not the base
    assert "is too long: at most 4 digits" in done.stdout
    assert "unexpectedly" not in done.stdout + done.stderr


ALPHABET = "0123456789.,+-−×*·/÷^√()[]% =≈<>≤≥⁰¹²³⁴⁵⁶⁷⁸⁹⁻eπ" + "abcsoftmaxqrt"


@settings(max_examples=400, deadline=None)
@given(st.text(ALPHABET, min_size=1, max_size=120))
def test_any_claim_is_checked_or_a_claim_fault(text):
    for fault in claims.check_text("{= " + text + "}"):
        assert isinstance(fault, claims.ClaimError)
