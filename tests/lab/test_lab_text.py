"""The lab's strings: both languages present, the same placeholders, every step named."""

from __future__ import annotations

import string

from attn_tui.core import lab
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


def test_every_parse_fault_has_a_lab_message():
    for code in lab._PARSE_CODES | {"empty_row", "other"}:
        assert f"lab.parse.{code}" in TEXT
