"""The lab's strings: both languages present, the same placeholders, every step named."""

from __future__ import annotations

import string

from attn_tui.core.attention import lab
from attn_tui.text.lab import TEXT


def _fields(text: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(text) if name}


def test_keys_and_languages():
    for key, (zh, en) in TEXT.items():
        assert key.startswith("lab."), key
        assert zh.strip() and en.strip(), key
        assert _fields(zh) == _fields(en), key


def test_every_shape_step_has_a_label():
    for step in lab.shapes_trace(10, 512, 8).steps:
        assert f"lab.step.{step.key}" in TEXT


def test_parse_faults_in_a_typed_matrix_name_the_matrix():
    import pytest

    from attn_tui.core.parse import InputError
    from attn_tui.i18n import describe

    with pytest.raises(InputError) as typed:
        lab.typed("1 2; 3 x")
    assert describe(typed.value, "en") == "X row 2: entry 2, “x”, is not a number."
    with pytest.raises(InputError) as typed:
        lab.projections(2, W_O="")
    assert "W_O" in describe(typed.value, "zh")
