"""Wording: a text that uses a form the glossary says to avoid (``exercises/glossary.toml``).

``attn-tui exercises validate`` reports these as warnings, not faults: a teacher's set with
"key" in its Chinese text still loads, but is told that the app writes 键. The shipped sets
and the text catalogue (``attn_tui/text``) carry none; a test holds them to it.

Some spans are not prose and are not checked: code in backquotes (```keys```), a quoted
name (“query”, a field of a file), a command-line option (``--show-key``), a ``{placeholder}``,
and an English gloss in brackets right after the Chinese term it translates (键（key）).
"""

from __future__ import annotations

import re
import tomllib
from collections.abc import Iterator
from typing import Any

from attn_tui.core.exercises import claims, glossary
from attn_tui.core.exercises.glossary import Glossary
from attn_tui.core.exercises.loader import LineIndex
from attn_tui.core.exercises.model import LANGS, Problem

_LITERAL = re.compile(
    r"`[^`\n]*`"  # code
    r"|[“\"][A-Za-z0-9_.\- ]+[”\"]"  # a quoted name
    r"|(?<![A-Za-z0-9])--?[A-Za-z][A-Za-z0-9-]*"  # an option
    r"|\{[A-Za-z_][A-Za-z0-9_]*(?:[:!][^{}]*)?\}"  # a placeholder, {value:.2f} too
    r"|(?<=[\u3400-\u9fff])\s*[（(][A-Za-z][A-Za-z \-]*[)）]"  # 键（key）: a gloss
)


def prose(text: str) -> str:
    """``text`` as the learner reads it, without the spans that are not prose."""
    return _LITERAL.sub(" ", claims.display(text))


def avoided(text: str, lang: str, terms: Glossary | None = None) -> list[tuple[str, str, str]]:
    """(term id, form used, form to use) for every avoided form in ``text``."""
    terms = glossary.shipped() if terms is None else terms
    return [(term.id, form, term.get(lang)) for term, form in terms.avoided(prose(text), lang)]


def _strings(value: Any, lang: str) -> Iterator[str]:
    if isinstance(value, dict) and isinstance(value.get(lang), str):
        yield value[lang]
    elif isinstance(value, dict) and isinstance(value.get(lang), list):
        yield from (s for s in value[lang] if isinstance(s, str))


def lint_text(text: str, path: str, terms: Glossary | None = None) -> list[Problem]:
    """Warnings for one exercise file's text (a file that loads; faults are the loader's)."""
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError:
        return []
    lines = LineIndex(text)
    out: list[Problem] = []

    def warn(line: int, where: str, lang: str, value: Any, ex: str | None) -> None:
        for s in _strings(value, lang):
            for term, form, chosen in avoided(s, lang, terms):
                params = {"key": where, "language": lang, "form": form, "chosen": chosen}
                out.append(Problem(path, line, "ex.warn.avoided", params | {"term": term}, ex))

    meta = data["set"] if isinstance(data.get("set"), dict) else {}
    for key in ("title", "summary"):
        for lang in LANGS:
            warn(lines.set_key(key), f"set.{key}", lang, meta.get(key), None)
    exercises = data["exercise"] if isinstance(data.get("exercise"), list) else []
    for i, e in enumerate(exercises):
        if not isinstance(e, dict):
            continue
        name = str(e.get("id", f"#{i + 1}"))
        for lang in LANGS:
            for key in ("prompt", "explanation", "hints", "answer"):
                warn(lines.exercise_key(i, key, lang), key, lang, e.get(key), name)
            for j, c in enumerate(e.get("choices") or []):
                if isinstance(c, dict):
                    line = lines.sub(i, "choices", j, lang)
                    warn(line, f"choice {c.get('id', j + 1)}", lang, c, name)
            for j, r in enumerate(e.get("rubric") or []):
                if isinstance(r, dict):
                    warn(
                        lines.sub(i, "rubric", j, "idea"), "rubric.idea", lang, r.get("idea"), name
                    )
    return sorted(out, key=lambda p: p.line)
