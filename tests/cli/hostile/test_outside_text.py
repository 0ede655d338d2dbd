"""What the CLI prints of outside text, and the streamed JSON of a class."""

from __future__ import annotations

import io
import json
import sys

import pytest

from attn_tui.commands import print_json
from attn_tui.core.format import visible


@pytest.mark.parametrize(
    "text, one_line, shown",
    [
        ("plain 中文 text", False, "plain 中文 text"),
        ("a\x1b[31mb", False, "a\\x1b[31mb"),
        ("bell\x07 nul\x00 del\x7f c1\x9b", False, "bell\\x07 nul\\x00 del\\x7f c1\\x9b"),
        ("two\nlines\tand a tab", False, "two\nlines\tand a tab"),
        ("two\nlines\tand a tab", True, "two\\nlines\\tand a tab"),
        ("not utf-8: \udcff", False, "not utf-8: \\xff"),  # a byte kept by surrogateescape
        ("lone \ud800", False, "lone \\ud800"),
        ("bidi \u202eevil", False, "bidi \\u202eevil"),
    ],
)
def test_visible_escapes_what_would_act_on_the_terminal(text, one_line, shown):
    assert visible(text, one_line) == shown
    visible(text, one_line).encode("utf-8")  # always encodable


@pytest.mark.parametrize(
    "data",
    [
        {"files": [{"a": [1, {"b": "é"}], "c": []}, {"x": None}], "totals": {"n": 2}},
        {"files": [], "totals": {}},
        {"only": [1, 2, [3]]},
        {},
    ],
)
def test_print_json_streams_exactly_what_json_dumps_prints(data, monkeypatch):
    want = json.dumps(data, ensure_ascii=False, indent=2) + "\n"
    streamed = {k: iter(v) if k == "files" else v for k, v in data.items()}
    out = io.StringIO()
    monkeypatch.setattr(sys, "stdout", out)
    print_json(streamed)
    assert out.getvalue() == want
