"""The tutor's one glossary (``exercises/glossary.toml``): each term's zh and en form.

Three readers: the app's text uses the chosen form (``zh``/``en``), ``validate`` warns when a
text uses a form the glossary says to avoid, and the written-answer grader accepts the
``*_also`` forms as the same term. The file is data like the exercise sets; nothing in it runs.
"""

from __future__ import annotations

import re
import tomllib
import unicodedata
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from functools import cache
from importlib.resources import files
from pathlib import Path
from typing import Any

LANGS = ("zh", "en")
_ID = re.compile(r"[A-Z][A-Z0-9_]*")
_ASCII_WORD = re.compile(r"[A-Za-z0-9]")


@dataclass(frozen=True)
class Term:
    id: str
    forms: Mapping[str, str]  # lang → the form the app's text uses
    avoid: Mapping[str, tuple[str, ...]]  # lang → forms that text should not use
    also: Mapping[str, tuple[str, ...]]  # lang → other forms a learner may write

    def get(self, lang: str) -> str:
        return self.forms[lang]


@dataclass(frozen=True)
class Glossary:
    terms: Mapping[str, Term]  # id → term, in file order

    def __getitem__(self, term_id: str) -> Term:
        return self.terms[term_id]

    def __contains__(self, term_id: object) -> bool:
        return term_id in self.terms

    def __iter__(self) -> Iterator[Term]:
        return iter(self.terms.values())

    def avoided(self, text: str, lang: str) -> list[tuple[Term, str]]:
        """Every (term, form) where ``text`` uses a form the glossary avoids in ``lang``."""
        folded = fold(text)
        return [
            (term, form)
            for term in self
            for form in term.avoid.get(lang, ())
            if _occurs(fold(form), folded)
        ]


def fold(text: str) -> str:
    """NFKC (full-width → half-width) and case folding: how forms are compared."""
    return unicodedata.normalize("NFKC", text).casefold()


def _occurs(form: str, text: str) -> bool:
    """``form`` in ``text``; an ASCII word only as a whole word ("key" not in "keyboard")."""
    if not _ASCII_WORD.search(form):
        return form in text
    left = r"(?<![A-Za-z0-9])" if _ASCII_WORD.match(form[0]) else ""
    right = r"(?![A-Za-z0-9])" if _ASCII_WORD.match(form[-1]) else ""
    return re.search(left + re.escape(form) + right, text) is not None


class GlossaryError(ValueError):
    """The glossary file is malformed: the message names the entry and the fault."""


def _strings(entry: Mapping[str, Any], key: str, where: str) -> tuple[str, ...]:
    value = entry.get(key, [])
    if not isinstance(value, list) or not all(isinstance(v, str) and v.strip() for v in value):
        raise GlossaryError(f"{where}: {key} must be a list of non-empty strings")
    return tuple(value)


def parse(text: str) -> Glossary:
    """Read a glossary from TOML text; any fault raises :class:`GlossaryError`."""
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as err:
        raise GlossaryError(str(err)) from None
    entries = data.get("term", [])
    if not isinstance(entries, list):
        raise GlossaryError("[[term]] must be an array of tables")
    terms: dict[str, Term] = {}
    for n, entry in enumerate(entries, 1):
        where = f"term {n}"
        term_id = entry.get("id") if isinstance(entry, dict) else None
        if not isinstance(term_id, str) or not _ID.fullmatch(term_id):
            raise GlossaryError(f"{where}: id must be upper case, like QUERY")
        where = f"term {term_id}"
        if term_id in terms:
            raise GlossaryError(f"{where}: the id appears twice")
        forms = {}
        for lang in LANGS:
            form = entry.get(lang)
            if not isinstance(form, str) or not form.strip():
                raise GlossaryError(f"{where}: {lang} must be a non-empty string")
            forms[lang] = form
        avoid = {lang: _strings(entry, f"{lang}_avoid", where) for lang in LANGS}
        also = {lang: _strings(entry, f"{lang}_also", where) for lang in LANGS}
        for lang in LANGS:
            if fold(forms[lang]) in map(fold, avoid[lang]):
                raise GlossaryError(f"{where}: {lang} avoids its own form {forms[lang]!r}")
        unknown = (
            set(entry)
            - {"id", *LANGS}
            - {f"{lang}_{k}" for lang in LANGS for k in ("avoid", "also")}
        )
        if unknown:
            raise GlossaryError(f"{where}: unknown key {sorted(unknown)[0]!r}")
        terms[term_id] = Term(term_id, forms, avoid, also)
    return Glossary(terms)


def shipped_path() -> Path:
    return Path(str(files("attn_tui.exercises"))) / "glossary.toml"


@cache
def shipped() -> Glossary:
    """The glossary that ships with the app (read once)."""
    return parse(shipped_path().read_text(encoding="utf-8"))
