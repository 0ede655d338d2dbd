"""What a browser gets instead of the tutor says it in both languages, the class's first
(issue 26 #23: the refusal page was English only for an English class, and a student may
read only Chinese)."""

from __future__ import annotations

import html
import re

import pytest

from attn_tui.commands.serve import refusal_page
from attn_tui.i18n import t
from attn_tui.serve.gate import FULL_RESPONSE
from attn_tui.serve.server import page_html

KINDS = ("refused", "full", "host", "expired")


@pytest.mark.parametrize("lang", ["en", "zh"])
@pytest.mark.parametrize("kind", KINDS)
def test_a_refusal_page_says_it_in_the_class_s_language_then_the_other(kind, lang):
    page = html.unescape(refusal_page(page_html, kind, lang, 30))
    other = "en" if lang == "zh" else "zh"
    assert f'<html lang="{lang}">' in page
    sections = re.findall(r'<section lang="(\w+)"><h1>(.*?)</h1><p>(.*?)</p></section>', page)
    assert [code for code, _, _ in sections] == [lang, other]
    for code, title, body in sections:
        assert title == t(f"serve.{kind}.title", lang=code)
        assert body == t(f"serve.{kind}.body", lang=code, limit=30)
    assert t(f"serve.{kind}.title", lang="zh") in page.split("</title>")[0]
    assert t(f"serve.{kind}.title", lang="en") in page.split("</title>")[0]


def test_a_page_html_escapes_what_it_is_given():
    page = page_html("<b>", "a & b", "en", more=[("zh", "<i>", "“x”")])
    assert "<b>" not in page and "&lt;b&gt;" in page and "&lt;i&gt;" in page


def test_the_door_s_own_503_is_in_both_languages_and_its_length_is_right():
    head, _, body = FULL_RESPONSE.partition(b"\r\n\r\n")
    length = int(re.search(rb"Content-Length: (\d+)", head).group(1))
    assert length == len(body)
    text = body.decode("utf-8")
    assert "busy" in text and "服务器正忙" in text
