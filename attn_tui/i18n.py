"""Language choice and string lookup.

``t("calc.title")`` returns the string in the current language. The language is one
process-wide setting (the app is one learner at one terminal); the App changes it with
``set_lang`` and then asks its screens to redraw.
"""

from __future__ import annotations

import os
import string
from collections.abc import Mapping
from functools import cache

from attn_tui.text import Catalogue

LANGS = ("zh", "en")
_current = "en"


@cache
def catalogue() -> Catalogue:
    """Every string, each area's read at its first lookup (``catalogue().load_all()``: now)."""
    return Catalogue()


def default_lang(environ: Mapping[str, str] | None = None) -> str:
    """zh when the locale says Chinese (zh_CN, zh_TW.UTF-8, ...), else en.

    Follows POSIX precedence: LC_ALL, then LC_MESSAGES, then LANG; LANGUAGE is a list
    and its first entry wins when set.
    """
    env = os.environ if environ is None else environ
    for var in ("LC_ALL", "LC_MESSAGES", "LANG"):
        value = env.get(var, "")
        if value:
            return "zh" if value.lower().startswith("zh") else "en"
    first = env.get("LANGUAGE", "").split(":")[0]
    return "zh" if first.lower().startswith("zh") else "en"


def set_lang(lang: str) -> None:
    global _current
    if lang not in LANGS:
        raise ValueError(f"unknown language {lang!r}; choose one of {', '.join(LANGS)}")
    _current = lang


def get_lang() -> str:
    return _current


class _Formatter(string.Formatter):
    """str.format, plus ``{n:file|files}``: the word that goes with the number n."""

    def format_field(self, value: object, format_spec: str) -> str:
        if "|" in format_spec:
            one, many = format_spec.split("|", 1)
            return one if value == 1 else many
        return super().format_field(value, format_spec)


_FORMATTER = _Formatter()


def t(key: str, /, lang: str | None = None, **params: object) -> str:
    """The string for ``key`` in ``lang`` (default: the current language), formatted with params.

    English plurals are written ``{count} {count:file|files}`` ("1 file", "2 files").
    """
    zh, en = catalogue()[key]
    text = zh if (lang or _current) == "zh" else en
    if not params:
        return text
    return _FORMATTER.vformat(text, (), params) if "|" in text else text.format(**params)


def describe(err: Exception, lang: str | None = None) -> str:
    """One sentence for an InputError: what is wrong and where, in the learner's language.

    Codes without a dot are the parser's (``err.<code>``); an area's own codes carry their
    prefix (``train.bad_length``) and are looked up as they are.
    """
    code = getattr(err, "code", None)
    if code is None:
        return str(err)
    # a fault inside another (a saved file's bad setting) is described in the same language
    params = {
        name: describe(value, lang) if getattr(value, "code", None) else value
        for name, value in getattr(err, "params", {}).items()
    }
    key = code if "." in code else f"err.{code}"
    if "field" in params:
        name_key = f"common.field.{params['field']}"
        # A field the catalogue does not name (the lab's X, W_Q ...) reads the same in both.
        field = t(name_key, lang=lang) if name_key in catalogue() else str(params["field"])
        if (lang or _current) == "zh" and field[-1:].isascii():
            field += " "  # "X 的第 2 行", not "X的第 2 行": a space between Latin and Chinese
        if "row" in params and "{row}" not in catalogue()[key][1]:
            field = t("common.field_row", lang=lang, field=field, row=params["row"])
        params["field"] = field
    return t(key, lang=lang, **params)
