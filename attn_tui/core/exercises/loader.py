"""Loading and checking exercise files (the format is ``exercises/README.md``).

A file is TOML, read with :mod:`tomllib`; nothing in it is executed. Every fault becomes a
:class:`Problem` that knows its file and line — tomllib only gives line numbers for syntax
errors, so for schema faults :class:`LineIndex` scans the raw text for the table header or the
``key =`` line the fault belongs to. A file with any problem loads as one :class:`BrokenFile`
entry and never stops the other files from loading.

Messages are text keys (``ex.*``) with parameters, so this module stays free of the UI:
``problem.format(attn_tui.i18n.t)`` gives ``file:line: message`` in the learner's language.
"""

from __future__ import annotations

import bisect
import hashlib
import os
import re
from collections.abc import Callable, Iterable, Mapping
from pathlib import Path
from typing import Any, Literal, SupportsInt

import numpy as np

from attn_tui.core import files
from attn_tui.core.attention.steps import check_shapes
from attn_tui.core.exercises import claims, generators
from attn_tui.core.exercises.model import (
    _ID,
    CONTRADICTION_KEYS,
    DEFAULT_ORDER,
    DEFAULT_PASS,
    EXAMPLE_KEYS,
    EXAMPLE_KINDS,
    EXAMPLE_KINDS_RIGHT,
    EXAMPLE_KINDS_WRONG,
    EXERCISE_KEYS,
    IDEA_KEYS,
    KINDS,
    LANGS,
    NUMERIC_KINDS,
    SET_KEYS,
    TOPICS,
    BrokenFile,
    Choice,
    Contradiction,
    Example,
    Exercise,
    ExerciseSet,
    Idea,
    Library,
    Problem,
    Text,
    Tolerance,
)
from attn_tui.core.exercises.written import normalise_text
from attn_tui.core.parse import InputError, parse_matrix, parse_vector

# -- finding lines in the raw text ----------------------------------------------------------

# The name is matched greedily up to the "]" (its class has no "]"), so a header line holding
# a long run of spaces costs one pass, not one per space; spaces are dropped from it below.
_HEADER = re.compile(r'^\s*(\[\[?)\s*([A-Za-z_"][A-Za-z0-9_.\-" ]*)\]\]?\s*(?:#.*)?$')
# The key a line starts with (``key =``, ``"key" =``, ``key.sub =``) ...
_LEADING_KEY = re.compile(r"""^\s*(?:"([^"]*)"|'([^']*)'|([A-Za-z0-9_-]+))\s*[=.]""")
# ... and every ``key =`` anywhere in a line (inline tables, arrays spread over lines, and the
# last part of a dotted key: ``hints.zh =``).
_ANY_KEY = re.compile(r"""(?:^|[{,.\s])(?:"([^"]*)"|([A-Za-z0-9_-]+))"?\s*=""")


class LineIndex:
    """Where tables and keys are in a TOML text, found by scanning it (tomllib cannot say).

    Built in one pass over the lines; every lookup is then a dictionary hit and a binary
    search, so a file of 50,000 tables or 20,000 choices costs no more per lookup than a small
    one. The reader asks through :class:`_LazyLines`, so only a fault pays for a lookup.
    """

    def __init__(self, text: str) -> None:
        self.lines = text.split("\n")
        self.headers: list[tuple[int, str, bool]] = []  # (line, dotted name, array table?)
        self._named: dict[str, list[int]] = {}  # dotted table name → its header lines
        self._arrays: dict[str, list[int]] = {}  # the same, [[array]] headers only
        for no, line in enumerate(self.lines, 1):
            m = _HEADER.match(line) if line.lstrip()[:1] == "[" else None
            if m:
                name = re.sub(r'[\s"]', "", m.group(2))
                is_array = m.group(1) == "[["
                self.headers.append((no, name, is_array))
                self._named.setdefault(name, []).append(no)
                if is_array:
                    self._arrays.setdefault(name, []).append(no)
        self._header_lines = [no for no, _, _ in self.headers]
        self._span_ends: dict[str, list[int]] = {}
        self._keys: tuple[dict[str, list[int]], dict[str, list[int]]] | None = None
        self.exercises = self._arrays.get("exercise", [])
        self.set_line = self._named["set"][0] if "set" in self._named else 1

    def _key_lines(self) -> tuple[dict[str, list[int]], dict[str, list[int]]]:
        """key → lines starting with it, and key → lines holding ``key =`` anywhere; built on
        the first lookup (a file without faults may never need one)."""
        if self._keys is None:
            leading: dict[str, list[int]] = {}
            anywhere: dict[str, list[int]] = {}
            for no, line in enumerate(self.lines, 1):
                if "=" not in line:
                    continue
                lead = _LEADING_KEY.match(line)
                if lead:
                    key = next(g for g in lead.groups() if g is not None)
                    leading.setdefault(key, []).append(no)
                for k in _ANY_KEY.finditer(line):
                    key = k.group(1) if k.group(1) is not None else k.group(2)
                    rows = anywhere.setdefault(key, [])
                    if not rows or rows[-1] != no:
                        rows.append(no)
            self._keys = (leading, anywhere)
        return self._keys

    @staticmethod
    def _first_in(rows: list[int] | None, lo: int, hi: int) -> int | None:
        """The first of the sorted ``rows`` in [lo, hi), if any."""
        if not rows:
            return None
        i = bisect.bisect_left(rows, lo)
        return rows[i] if i < len(rows) and rows[i] < hi else None

    def _next_header(self, after: int) -> int:
        i = bisect.bisect_right(self._header_lines, after)
        return self._header_lines[i] if i < len(self._header_lines) else len(self.lines) + 1

    def _span_end(self, start: int, prefix: str) -> int:
        """End of the table at ``start`` together with its sub-tables ``prefix.*``."""
        ends = self._span_ends.get(prefix)
        if ends is None:  # ends[k]: the first header from k on that is not under prefix
            ends = [len(self.headers)] * (len(self.headers) + 1)
            for k in range(len(self.headers) - 1, -1, -1):
                under = self.headers[k][1].startswith(prefix + ".")
                ends[k] = ends[k + 1] if under else k
            self._span_ends[prefix] = ends
        k = ends[bisect.bisect_right(self._header_lines, start)]
        return self._header_lines[k] if k < len(self.headers) else len(self.lines) + 1

    def _find(self, start: int, end: int, keys: tuple[str, ...], prefix: str) -> int | None:
        """Line of ``keys[0] = ...`` in lines (start, end) outside sub-tables, then of each
        later key on or after it (inline tables may spread arrays over lines)."""
        leading, anywhere = self._key_lines()
        stop = self._next_header(start) if start >= 1 else self._first_header()
        found = self._first_in(leading.get(keys[0]), start + 1, min(stop, end))
        if found is None:  # maybe a sub-table: [exercise.hints]
            sub = f"{prefix}.{keys[0]}" if prefix else keys[0]
            found = self._first_in(self._named.get(sub), start + 1, end)
            if found is None:
                return None
            region_end = self._next_header(found)
        else:
            region_end = stop
        for key in keys[1:]:
            later = self._first_in(anywhere.get(key), found, min(region_end, end))
            if later is None:
                break
            found = later
        return found

    def _first_header(self) -> int:
        return self.headers[0][0] if self.headers else len(self.lines) + 1

    def top(self, *keys: str) -> int:
        if not keys:
            return 1
        found = self._find(0, self._first_header(), keys, "")
        if found is None:  # a top-level table of its own: [t1] is on its header's line
            found = self._first_in(self._named.get(keys[0]), 1, len(self.lines) + 1)
        return found or 1

    def set_key(self, *keys: str) -> int:
        if not keys:
            return self.set_line
        end = self._span_end(self.set_line, "set")
        return self._find(self.set_line, end, keys, "set") or self.set_line

    def exercise(self, i: int) -> int:
        return self.exercises[i] if i < len(self.exercises) else (self.exercises or [1])[-1]

    def exercise_key(self, i: int, *keys: str) -> int:
        start = self.exercise(i)
        if not keys:
            return start
        return self._find(start, self._span_end(start, "exercise"), keys, "exercise") or start

    def sub(self, i: int, table: str, j: int, *keys: str) -> int:
        """Line of the j-th ``[[exercise.<table>]]`` of exercise i (or of a key in it)."""
        start = self.exercise(i)
        end = self._span_end(start, "exercise")
        subs = self._arrays.get(f"exercise.{table}", [])
        first = bisect.bisect_right(subs, start)
        if first + j >= len(subs) or subs[first + j] >= end:
            return self.exercise_key(i, table)
        line = subs[first + j]
        if not keys:
            return line
        return self._find(line, self._next_header(line), keys, f"exercise.{table}") or line


# A line number as the readers pass it around: an int, or a _Later that looks it up only if a
# fault is reported (int() of either gives the line).
Line = SupportsInt


class _Later:
    """A line number worked out only when a fault is reported: looking lines up for every key
    of every exercise, fault or not, cost more than checking them."""

    __slots__ = ("_find", "_line")

    def __init__(self, find: Callable[[], int]) -> None:
        self._find = find
        self._line: int | None = None

    def __int__(self) -> int:
        if self._line is None:
            self._line = self._find()
        return self._line

    __index__ = __int__

    def __eq__(self, other: object) -> bool:
        return int(self) == other

    def __hash__(self) -> int:
        return hash(int(self))

    def __repr__(self) -> str:
        return repr(int(self))


class _LazyLines:
    """The LineIndex as the reader uses it: key lookups come back as :class:`_Later`."""

    def __init__(self, index: LineIndex) -> None:
        self.index = index
        self.exercises = index.exercises
        self.exercise = index.exercise  # header lines only: cheap, and stored in Exercise.line

    def top(self, *keys: str) -> _Later:
        return _Later(lambda: self.index.top(*keys))

    def set_key(self, *keys: str) -> _Later:
        return _Later(lambda: self.index.set_key(*keys))

    def exercise_key(self, i: int, *keys: str) -> _Later:
        return _Later(lambda: self.index.exercise_key(i, *keys))

    def sub(self, i: int, table: str, j: int, *keys: str) -> _Later:
        return _Later(lambda: self.index.sub(i, table, j, *keys))


# -- checking one file ----------------------------------------------------------------------


MAX_PROBLEMS = 200  # a file this broken is not read further: the list would help nobody
# Checked claims in one file: the shipped files hold at most 171. A 9.6 MB set of 400,000 froze
# the Exercises screen for 44 s and validate for 94 s; past this the rest are not checked.
MAX_CLAIMS = 2000


class _TooManyProblems(Exception):
    pass


class _Reader:
    """Turns one parsed file into an ExerciseSet, collecting every problem on the way."""

    def __init__(self, path: str, text: str) -> None:
        self.path = path
        self.lines = _LazyLines(LineIndex(text))
        self.problems: list[Problem] = []
        self._glossary: Any = None
        self.claims = 0  # checked so far (at most MAX_CLAIMS)

    def fault(self, line: Line, code: str, exercise: str | None = None, **params: Any) -> None:
        if len(self.problems) >= MAX_PROBLEMS:
            raise _TooManyProblems
        self.problems.append(Problem(self.path, int(line), code, params, exercise))

    # small typed readers; each returns None after reporting a fault
    def text(self, value: Any, key: str, line: Line, ex: str | None) -> Text | None:
        if not isinstance(value, dict):
            self.fault(line, "ex.want_bilingual", ex, key=key)
            return None
        ok = True
        for lang in value:
            if lang not in LANGS:
                self.fault(line, "ex.unknown_lang", ex, key=key, language=lang)
                ok = False
        for lang in LANGS:
            if lang not in value:
                self.fault(line, "ex.missing_lang", ex, key=key, language=lang)
                ok = False
            elif not isinstance(value[lang], str):
                self.fault(line, "ex.want_text", ex, key=f"{key}.{lang}")
                ok = False
            elif not value[lang].strip():
                self.fault(line, "ex.empty_text", ex, key=key, language=lang)
                ok = False
        if not ok:
            return None
        return Text(self.claimed(value["zh"], line, ex), self.claimed(value["en"], line, ex))

    def claimed(self, text: str, line: Line, ex: str | None) -> str:
        """The text as the learner reads it; each false or unreadable ``{= …}`` claim is a fault.
        Past MAX_CLAIMS in the file, one fault says so and the rest are not checked."""
        if self.claims > MAX_CLAIMS:
            return claims.display(text)
        count = text.count("{=")
        if self.claims + count > MAX_CLAIMS:
            self.claims = MAX_CLAIMS + 1
            self.fault(line, "ex.too_many_claims", ex, limit=MAX_CLAIMS)
            return claims.display(text)
        self.claims += count
        for err in claims.check_text(text):
            self.fault(line, f"ex.claim.{err.reason}", ex, claim=err.claim, **err.params)
        return claims.display(text)

    def unknown_keys(
        self,
        table: Mapping[str, Any],
        allowed: set[str],
        where: Callable[[str], Line],
        ex: str | None,
    ) -> None:
        for key in table:
            if key not in allowed:
                self.fault(
                    where(key), "ex.unknown_key", ex, key=key, known=", ".join(sorted(allowed))
                )

    def topics(
        self, value: Any, key: str, line: Line, ex: str | None, required: bool
    ) -> tuple[str, ...]:
        if value is None:
            if required:
                self.fault(line, "ex.missing_key", ex, key=key)
            return ()
        if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
            self.fault(line, "ex.want_list", ex, key=key)
            return ()
        if required and not value:
            self.fault(line, "ex.no_topics", ex)
        for topic in value:
            if topic not in TOPICS:
                self.fault(line, "ex.unknown_topic", ex, topic=topic, known=", ".join(TOPICS))
        return tuple(value)

    def ident(self, value: Any, key: str, line: Line, ex: str | None) -> str | None:
        if value is None:
            self.fault(line, "ex.missing_key", ex, key=key)
            return None
        if not isinstance(value, str) or not _ID.fullmatch(value):
            self.fault(line, "ex.bad_id", ex, key=key, value=str(value))
            return None
        return value

    # -- the set table
    def read(self, data: dict[str, Any]) -> ExerciseSet | None:
        L = self.lines
        self.unknown_keys(data, {"set", "exercise"}, lambda k: L.top(k), None)
        meta = data.get("set")
        if not isinstance(meta, dict):
            self.fault(1, "ex.missing_set")
            meta = {}
        else:
            self.unknown_keys(meta, SET_KEYS, lambda k: L.set_key(k), None)
        set_id = self.ident(meta.get("id"), "set.id", L.set_key("id"), None) if meta else None
        title = summary = None
        if meta:
            for key in ("title", "summary"):
                if key not in meta:
                    self.fault(L.set_key(), "ex.missing_key", None, key=f"set.{key}")
            if "title" in meta:
                title = self.text(meta["title"], "set.title", L.set_key("title"), None)
            if "summary" in meta:
                summary = self.text(meta["summary"], "set.summary", L.set_key("summary"), None)
        order = meta.get("order", DEFAULT_ORDER)
        if not generators._is_int(order):
            self.fault(L.set_key("order"), "ex.want_int", None, key="set.order")
            order = DEFAULT_ORDER
        quiz = meta.get("quiz", False)
        if not isinstance(quiz, bool):
            self.fault(L.set_key("quiz"), "ex.want_bool", None, key="set.quiz")
            quiz = False
        topics = self.topics(meta.get("topics"), "set.topics", L.set_key("topics"), None, False)

        raw = data.get("exercise")
        exercises: list[Exercise] = []
        if raw is None or raw == []:
            self.fault(L.set_key(), "ex.no_exercises")
        elif not isinstance(raw, list) or not all(isinstance(e, dict) for e in raw):
            self.fault(L.top("exercise") if not L.exercises else L.exercise(0), "ex.want_exercises")
        else:
            seen: dict[str, int] = {}
            for i, table in enumerate(raw):
                ex = self.exercise(i, table, set_id or "")
                if ex is None:
                    continue
                if ex.id in seen:
                    self.fault(
                        L.exercise_key(i, "id"),
                        "ex.duplicate_exercise",
                        None,
                        id=ex.id,
                        first=seen[ex.id],
                    )
                else:
                    seen[ex.id] = ex.line
                exercises.append(ex)
        if self.problems or set_id is None or title is None or summary is None:
            return None
        if not topics:  # default: every topic the exercises touch, in first-seen order
            topics = tuple(dict.fromkeys(t for e in exercises for t in e.topics))
        return ExerciseSet(
            id=set_id,
            title=title,
            summary=summary,
            exercises=tuple(exercises),
            order=order,
            quiz=quiz,
            topics=topics,
        )

    # -- one [[exercise]]
    def exercise(self, i: int, e: dict[str, Any], set_id: str) -> Exercise | None:
        L = self.lines
        n_before = len(self.problems)
        line = L.exercise(i)
        ex_id = self.ident(e.get("id"), "id", L.exercise_key(i, "id"), f"#{i + 1}")
        name = ex_id or f"#{i + 1}"

        def at(*keys: str) -> Line:
            return L.exercise_key(i, *keys)

        self.unknown_keys(e, EXERCISE_KEYS, lambda k: at(k), name)
        kind = e.get("kind")
        if kind is None:
            self.fault(line, "ex.missing_key", name, key="kind")
        elif kind not in KINDS:
            self.fault(at("kind"), "ex.unknown_kind", name, kind=str(kind), known=", ".join(KINDS))
            kind = None

        prompt = explanation = None
        for key in ("prompt", "explanation"):
            if key not in e:
                self.fault(line, "ex.missing_key", name, key=key)
        if "prompt" in e:
            prompt = self.text(e["prompt"], "prompt", at("prompt"), name)
        if "explanation" in e:
            explanation = self.text(e["explanation"], "explanation", at("explanation"), name)
        topics = self.topics(
            e.get("topics"), "topics", at("topics") if "topics" in e else line, name, True
        )
        hints = self.hints(e.get("hints"), at, name)
        tolerance = self.tolerance(e.get("tolerance"), kind, at, name)
        choices = self.choices(i, e.get("choices"), kind, name)
        rubric, pass_mark = self.rubric(i, e, kind, name)
        order, contradictions, examples = (
            self.checks(i, e, rubric, name) if kind == "text" else ((), (), ())
        )
        calculator = self.calculator(e.get("calculator"), at, name)
        whole = e.get("whole", False)
        if not isinstance(whole, bool):
            self.fault(at("whole"), "ex.want_bool", name, key="whole")
        elif whole and kind not in ("vector", "matrix"):
            self.fault(at("whole"), "ex.whole_kind", name, kind=kind)

        generate = e.get("generate")
        answer = e.get("answer")
        if generate is not None:
            if answer is not None:
                self.fault(at("answer"), "ex.answer_and_generate", name)
            if "check" in e:
                self.fault(at("check"), "ex.check_and_generate", name)
            self.generator(generate, kind, at, name, e)
        elif answer is None:
            self.fault(line, "ex.missing_answer", name)
        elif kind is not None:
            answer = self.answer(answer, kind, choices, at("answer"), name)
            if "check" in e and answer is not None:
                self.check(e["check"], kind, answer, tolerance, at("check"), name)
        if "check" in e and kind is not None and kind not in NUMERIC_KINDS:
            self.fault(at("check"), "ex.check_kind", name, kind=kind)

        if len(self.problems) > n_before or ex_id is None or kind is None:
            return None
        assert prompt is not None and explanation is not None
        return Exercise(
            id=ex_id,
            kind=kind,
            prompt=prompt,
            explanation=explanation,
            topics=topics,
            answer=answer,
            tolerance=tolerance,
            whole=whole is True,
            hints=hints,
            choices=choices,
            rubric=rubric,
            pass_mark=pass_mark,
            order=order,
            contradictions=contradictions,
            examples=examples,
            check=e.get("check"),
            generate=generate,
            calculator=calculator,
            set_id=set_id,
            line=line,
        )

    def hints(self, value: Any, at: Callable[..., Line], ex: str) -> tuple[Text, ...]:
        line = at("hints")
        if value is None:
            return ()
        if not isinstance(value, dict):
            self.fault(line, "ex.want_bilingual", ex, key="hints")
            return ()
        lists: dict[str, list[str]] = {}
        for lang in value:
            if lang not in LANGS:
                self.fault(line, "ex.unknown_lang", ex, key="hints", language=lang)
        for lang in LANGS:
            items = value.get(lang)
            where = at("hints", lang)
            if items is None:
                self.fault(line, "ex.missing_lang", ex, key="hints", language=lang)
            elif not isinstance(items, list) or not all(
                isinstance(h, str) and h.strip() for h in items
            ):
                self.fault(where, "ex.want_text_list", ex, key=f"hints.{lang}")
            else:
                lists[lang] = items
        if len(lists) == 2 and len(lists["zh"]) != len(lists["en"]):
            self.fault(line, "ex.hint_counts", ex, zh=len(lists["zh"]), en=len(lists["en"]))
            return ()
        if len(lists) != 2:
            return ()
        return tuple(
            Text(self.claimed(z, at("hints", "zh"), ex), self.claimed(n, at("hints", "en"), ex))
            for z, n in zip(lists["zh"], lists["en"], strict=True)
        )

    def tolerance(
        self, value: Any, kind: str | None, at: Callable[..., Line], ex: str
    ) -> Tolerance:
        if value is None:
            return Tolerance()
        if kind is not None and kind not in NUMERIC_KINDS:
            self.fault(at("tolerance"), "ex.tolerance_kind", ex, kind=kind)
            return Tolerance()
        if not isinstance(value, dict):
            self.fault(at("tolerance"), "ex.want_table", ex, key="tolerance")
            return Tolerance()
        self.unknown_keys(value, {"abs", "rel"}, lambda k: at("tolerance", k), ex)
        bounds = {}
        for key in ("abs", "rel"):
            if key in value:
                v = value[key]
                if not generators._is_num(v):
                    self.fault(at("tolerance", key), "ex.want_number", ex, key=f"tolerance.{key}")
                elif v < 0:
                    self.fault(at("tolerance", key), "ex.negative_tolerance", ex, key=key, value=v)
                else:
                    bounds[key] = float(v)
        if not bounds:
            return Tolerance()
        # Given only one bound, the other does not loosen it: abs alone means abs only.
        return Tolerance(abs=bounds.get("abs", 0.0), rel=bounds.get("rel", 0.0))

    def choices(self, i: int, value: Any, kind: str | None, ex: str) -> tuple[Choice, ...]:
        L = self.lines
        if kind not in ("choice", "multi"):
            if value is not None and kind is not None:
                self.fault(L.exercise_key(i, "choices"), "ex.choices_kind", ex, kind=kind)
            return ()
        if value is None:
            self.fault(L.exercise(i), "ex.missing_key", ex, key="choices")
            return ()
        if not isinstance(value, list) or not all(isinstance(c, dict) for c in value):
            self.fault(L.exercise_key(i, "choices"), "ex.want_choices", ex)
            return ()
        if len(value) < 2:
            self.fault(L.sub(i, "choices", 0), "ex.too_few_choices", ex)
        out: list[Choice] = []
        seen: set[str] = set()
        for j, c in enumerate(value):

            def at(*keys: str, j: int = j) -> Line:
                return L.sub(i, "choices", j, *keys)

            self.unknown_keys(c, {"id", "zh", "en", "why"}, at, ex)
            cid = self.ident(c.get("id"), "choices.id", L.sub(i, "choices", j, "id"), ex)
            text = self.text(
                {k: v for k, v in c.items() if k not in ("id", "why")},
                f"choice {cid or j + 1}",
                L.sub(i, "choices", j),
                ex,
            )
            why = None
            if "why" in c:  # why this option is wrong: the misconception it stands for
                why = self.text(
                    c["why"], f"choice {cid or j + 1}.why", L.sub(i, "choices", j, "why"), ex
                )
            if cid is not None and cid in seen:
                self.fault(L.sub(i, "choices", j, "id"), "ex.duplicate_choice", ex, id=cid)
            if cid is not None and text is not None:
                seen.add(cid)
                out.append(Choice(cid, text, why))
        return tuple(out)

    def rubric(
        self, i: int, e: dict[str, Any], kind: str | None, ex: str
    ) -> tuple[tuple[Idea, ...], float]:
        L = self.lines
        value, pass_mark = e.get("rubric"), e.get("pass", DEFAULT_PASS)
        if kind != "text":
            if kind is not None:
                for key in ("rubric", "pass", "order", "contradiction", "example"):
                    if key in e:
                        self.fault(L.exercise_key(i, key), "ex.rubric_kind", ex, key=key, kind=kind)
            return (), DEFAULT_PASS
        if not generators._is_num(pass_mark) or not 0 < pass_mark <= 1:
            self.fault(L.exercise_key(i, "pass"), "ex.bad_pass", ex, value=str(pass_mark))
            pass_mark = DEFAULT_PASS
        if value is None:
            self.fault(L.exercise(i), "ex.missing_key", ex, key="rubric")
            return (), float(pass_mark)
        if not isinstance(value, list) or not value or not all(isinstance(r, dict) for r in value):
            self.fault(L.exercise_key(i, "rubric"), "ex.want_rubric", ex)
            return (), float(pass_mark)
        ideas: list[Idea] = []
        seen: set[str] = set()
        for j, r in enumerate(value):

            def at(*keys: str, j: int = j) -> Line:
                return L.sub(i, "rubric", j, *keys)

            self.unknown_keys(r, IDEA_KEYS, lambda k: at(k), ex)
            if "idea" not in r:
                self.fault(at(), "ex.missing_key", ex, key="rubric.idea")
                text = None
            else:
                text = self.text(r["idea"], "rubric.idea", at("idea"), ex)
            idea_id = r.get("id", f"idea{j + 1}")
            if not isinstance(idea_id, str) or not _ID.fullmatch(idea_id):
                self.fault(at("id"), "ex.bad_id", ex, key="rubric.id", value=str(idea_id))
                idea_id = None
            elif idea_id in seen:
                self.fault(at("id"), "ex.duplicate_idea", ex, id=idea_id)
            seen.add(str(idea_id))
            weight = r.get("weight", 1)
            if not generators._is_num(weight) or weight <= 0:
                self.fault(at("weight"), "ex.bad_weight", ex, value=str(weight))
                weight = None
            bonus = r.get("bonus", False)
            if not isinstance(bonus, bool):
                self.fault(at("bonus"), "ex.want_bool", ex, key="rubric.bonus")
                bonus = False
            match = self.alternatives(r.get("match"), "rubric.match", at("match"), ex)
            phrases = self.phrase_lists(r.get("phrases"), "phrases", at, ex, required=match == ())
            forbid = self.phrase_lists(r.get("forbid"), "forbid", at, ex, required=False)
            roles = {
                key: self.term_list(r.get(key), f"rubric.{key}", at(key), ex)
                for key in ("with", "against")
            }
            single = {
                key: self.term(r.get(key), f"rubric.{key}", at(key), ex)
                for key in ("from", "scope")
            }
            unless = self.alternatives(r.get("unless"), "rubric.unless", at("unless"), ex)
            if (
                text is not None
                and idea_id is not None
                and weight is not None
                and phrases is not None
                and forbid is not None
                and match is not None
                and unless is not None
                and None not in roles.values()
                and False not in single.values()
            ):
                ideas.append(
                    Idea(
                        text,
                        float(weight),
                        phrases,
                        forbid,
                        id=idea_id,
                        match=match,
                        with_roles=roles["with"] or (),
                        against=roles["against"] or (),
                        source=single["from"] or None,
                        scope=single["scope"] or None,
                        unless=unless,
                        line=int(at()),
                        bonus=bonus,
                    )
                )
        return tuple(ideas), float(pass_mark)

    # -- what the new rubric keys hold: glossary terms and alternatives of them
    def glossary(self):
        if self._glossary is None:
            from attn_tui.core.exercises.glossary import GlossaryError, shipped

            try:
                self._glossary = shipped()
            except (GlossaryError, OSError):
                self._glossary = {}
        return self._glossary

    def term(self, value: Any, key: str, line: Line, ex: str) -> str | Literal[False] | None:
        """A glossary id (None when absent, False after a fault)."""
        if value is None:
            return None
        if not isinstance(value, str):
            self.fault(line, "ex.want_text", ex, key=key)
            return False
        if value not in self.glossary():
            self.fault(line, "ex.unknown_term", ex, key=key, term=value)
            return False
        return value

    def term_list(self, value: Any, key: str, line: Line, ex: str) -> tuple[str, ...] | None:
        if value is None:
            return ()
        if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
            self.fault(line, "ex.want_text_list", ex, key=key)
            return None
        bad = [v for v in value if v not in self.glossary()]
        for v in bad:
            self.fault(line, "ex.unknown_term", ex, key=key, term=v)
        return None if bad else tuple(value)

    def alternatives(self, value: Any, key: str, line: Line, ex: str) -> tuple[str, ...] | None:
        """``["VARIANCE INCREASE", "!BOTTLENECK", "'back to 1'"]``: each parsed, each term
        known; () when absent, None after a fault."""
        from attn_tui.core.exercises.written.judge import parse_alternative

        if value is None:
            return ()
        if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
            self.fault(line, "ex.want_text_list", ex, key=key)
            return None
        ok = True
        for alt in value:
            atoms = parse_alternative(alt)
            if atoms is None:
                self.fault(line, "ex.bad_match", ex, key=key, value=alt)
                ok = False
                continue
            for name, _ in atoms:
                if name[0] != "'" and name not in self.glossary():
                    self.fault(line, "ex.unknown_term", ex, key=key, term=name)
                    ok = False
        return tuple(value) if ok else None

    def checks(
        self, i: int, e: dict[str, Any], ideas: tuple[Idea, ...], ex: str
    ) -> tuple[tuple[str, ...], tuple[Contradiction, ...], tuple[Example, ...]]:
        """A text exercise's ``order``, ``[[exercise.contradiction]]`` and
        ``[[exercise.example]]`` tables."""
        L = self.lines
        ids = [idea.id for idea in ideas]
        order: tuple[str, ...] = ()
        if "order" in e:
            value = e["order"]
            if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
                self.fault(L.exercise_key(i, "order"), "ex.want_text_list", ex, key="order")
            else:
                for v in value:
                    if v not in ids:
                        self.fault(
                            L.exercise_key(i, "order"),
                            "ex.unknown_idea",
                            ex,
                            id=v,
                            known=", ".join(ids),
                        )
                order = tuple(value)
        contradictions: list[Contradiction] = []
        for j, c in enumerate(self.tables(i, e, "contradiction", ex)):

            def at(*keys: str, j: int = j) -> Line:
                return L.sub(i, "contradiction", j, *keys)

            self.unknown_keys(c, CONTRADICTION_KEYS, lambda k: at(k), ex)
            text = None
            if "idea" in c:
                text = self.text(c["idea"], "contradiction.idea", at("idea"), ex)
            else:
                self.fault(at(), "ex.missing_key", ex, key="contradiction.idea")
            match = self.alternatives(c.get("match"), "contradiction.match", at("match"), ex)
            phrases = self.phrase_lists(c.get("phrases"), "phrases", at, ex, required=False)
            unless = self.alternatives(c.get("unless"), "contradiction.unless", at("unless"), ex)
            cancels = c.get("cancels", [])
            if not isinstance(cancels, list) or not all(isinstance(v, str) for v in cancels):
                self.fault(at("cancels"), "ex.want_text_list", ex, key="contradiction.cancels")
                cancels = None
            else:
                for v in cancels:
                    if v not in ids:
                        self.fault(at("cancels"), "ex.unknown_idea", ex, id=v, known=", ".join(ids))
            if match == () and not phrases:
                self.fault(at(), "ex.missing_key", ex, key="contradiction.match")
                match = None
            if (
                text is not None
                and match is not None
                and phrases is not None
                and unless is not None
                and cancels is not None
            ):
                contradictions.append(
                    Contradiction(text, match, phrases, unless, tuple(cancels), int(at()))
                )
        examples: list[Example] = []
        for j, x in enumerate(self.tables(i, e, "example", ex)):

            def at(*keys: str, j: int = j) -> Line:
                return L.sub(i, "example", j, *keys)

            self.unknown_keys(x, EXAMPLE_KEYS, lambda k: at(k), ex)
            answer, expect = x.get("answer"), x.get("expect")
            if not isinstance(answer, str) or not answer.strip():
                self.fault(at("answer"), "ex.want_text", ex, key="example.answer")
                continue
            mark: str | float
            if expect in ("pass", "fail"):
                mark = str(expect)
            elif generators._is_num(expect) and 0 <= expect <= 1:
                mark = expect
            else:
                self.fault(at("expect"), "ex.bad_expect", ex, value=str(expect))
                continue
            note = x.get("note", "")
            kind = x.get("kind", "")
            if kind != "" and kind not in EXAMPLE_KINDS:
                self.fault(
                    at("kind"),
                    "ex.bad_example_kind",
                    ex,
                    value=str(kind),
                    known=", ".join(EXAMPLE_KINDS),
                )
                continue
            if (
                kind in EXAMPLE_KINDS_RIGHT
                and mark == "fail"
                or kind in EXAMPLE_KINDS_WRONG
                and mark == "pass"
            ):
                self.fault(
                    at("kind"), "ex.example_kind_side", ex, value=str(kind), expect=str(mark)
                )
                continue
            examples.append(Example(answer, mark, str(note), int(at("answer")), str(kind)))
        return order, tuple(contradictions), tuple(examples)

    def tables(self, i: int, e: dict[str, Any], key: str, ex: str) -> list[dict[str, Any]]:
        value = e.get(key)
        if value is None:
            return []
        if not isinstance(value, list) or not all(isinstance(v, dict) for v in value):
            self.fault(self.lines.exercise_key(i, key), "ex.want_tables", ex, key=key)
            return []
        return value

    def phrase_lists(
        self, value: Any, key: str, at: Callable[..., Line], ex: str, required: bool
    ) -> dict[str, tuple[str, ...]] | None:
        if value is None:
            if required:
                self.fault(at(), "ex.missing_key", ex, key=f"rubric.{key}")
                return None
            return {}
        if not isinstance(value, dict):
            self.fault(at(key), "ex.want_bilingual", ex, key=f"rubric.{key}")
            return None
        out: dict[str, tuple[str, ...]] = {}
        ok = True
        for lang, items in value.items():
            if lang not in LANGS:
                self.fault(at(key), "ex.unknown_lang", ex, key=f"rubric.{key}", language=lang)
                ok = False
            elif not isinstance(items, list) or not all(isinstance(p, str) for p in items):
                self.fault(at(key, lang), "ex.want_text_list", ex, key=f"rubric.{key}.{lang}")
                ok = False
            elif any(not _norm_nonempty(p) for p in items):
                self.fault(at(key, lang), "ex.empty_phrase", ex, key=f"rubric.{key}.{lang}")
                ok = False
            else:
                out[lang] = tuple(items)
        if required and ok:
            for lang in LANGS:
                if not out.get(lang):
                    self.fault(at(key), "ex.missing_lang", ex, key=f"rubric.{key}", language=lang)
                    ok = False
        return out if ok else None

    def calculator(self, value: Any, at: Callable[..., Line], ex: str) -> dict[str, str] | None:
        if value is None:
            return None
        if not isinstance(value, dict):
            self.fault(at("calculator"), "ex.want_table", ex, key="calculator")
            return None
        self.unknown_keys(value, {"query", "keys", "values"}, lambda k: at("calculator", k), ex)
        if "query" not in value or "keys" not in value:
            self.fault(at("calculator"), "ex.calculator_needs", ex)
            return None
        if not all(isinstance(v, str) for v in value.values()):
            self.fault(at("calculator"), "ex.want_text", ex, key="calculator")
            return None
        try:
            q = parse_vector(value["query"], "query")
            K = parse_matrix(value["keys"], "keys")
            V = parse_matrix(value["values"], "values") if "values" in value else None
            check_shapes(q, K, V)
        except InputError as err:
            self.fault(at("calculator"), err.code, ex, **err.params)
            return None
        return dict(value)

    def answer(
        self, value: Any, kind: str, choices: tuple[Choice, ...], line: Line, ex: str
    ) -> Any:
        num = generators._is_num
        if kind == "number":
            if not num(value):
                self.fault(line, "ex.want_number", ex, key="answer")
                return None
        elif kind == "vector":
            if not (isinstance(value, list) and value and all(num(v) for v in value)):
                self.fault(line, "ex.want_vector", ex)
                return None
        elif kind == "matrix":
            rows_ok = (
                isinstance(value, list)
                and value
                and all(isinstance(r, list) and r and all(num(v) for v in r) for r in value)
            )
            if not rows_ok or len({len(r) for r in value}) != 1:
                self.fault(line, "ex.want_matrix", ex)
                return None
        elif kind == "truefalse":
            if not isinstance(value, bool):
                self.fault(line, "ex.want_bool", ex, key="answer")
                return None
        elif kind == "text":
            return self.text(value, "answer", line, ex)
        elif kind in ("choice", "multi"):
            ids = [c.id for c in choices]
            picks = [value] if kind == "choice" else value
            if kind == "choice" and not isinstance(value, str):
                self.fault(line, "ex.want_text", ex, key="answer")
                return None
            if kind == "multi" and not (
                isinstance(value, list) and value and all(isinstance(v, str) for v in value)
            ):
                self.fault(line, "ex.want_multi", ex)
                return None
            for pick in picks:
                if ids and pick not in ids:
                    self.fault(line, "ex.answer_not_choice", ex, answer=pick, known=", ".join(ids))
                    return None
            if kind == "multi" and len(set(picks)) != len(picks):
                self.fault(line, "ex.duplicate_choice", ex, id=", ".join(picks))
                return None
            for c in choices:  # a reason why an option is wrong, on a right one, misleads
                if c.id in picks and c.why is not None:
                    self.fault(line, "ex.why_on_right", ex, id=c.id)
        return value

    def check(self, spec: Any, kind: str, answer: Any, tol: Tolerance, line: Line, ex: str) -> None:
        if kind not in NUMERIC_KINDS:
            return  # reported by the caller
        if not isinstance(spec, dict):
            self.fault(line, "ex.want_table", ex, key="check")
            return
        try:
            computed = generators.run_check(spec)
        except InputError as err:
            self.fault(line, err.code, ex, **err.params)
            return
        fn = spec["fn"]
        want = generators.CHECKS[fn].kind
        if want != kind:
            self.fault(line, "ex.kind_mismatch", ex, fn=fn, expected=want, kind=kind)
            return
        stored = np.asarray(answer, dtype=np.float64)
        computed = np.asarray(computed, dtype=np.float64)
        if stored.shape != computed.shape:
            self.fault(
                line, "ex.check_shape", ex, fn=fn, stored=_shape(stored), computed=_shape(computed)
            )
            return
        bad = [
            (s, c)
            for s, c in zip(stored.ravel(), computed.ravel(), strict=True)
            if not tol.ok(float(s), float(c))
        ]
        if bad:
            self.fault(
                line,
                "ex.check_mismatch",
                ex,
                fn=fn,
                stored=generators.fmt_vector(stored.ravel()),
                computed=generators.fmt_vector(computed.ravel()),
            )

    def generator(
        self, spec: Any, kind: str | None, at: Callable[..., Line], ex: str, e: dict[str, Any]
    ) -> None:
        line = at("generate")
        if not isinstance(spec, dict):
            self.fault(line, "ex.want_table", ex, key="generate")
            return
        try:
            generators.draw(spec, seed=0)
        except InputError as err:
            self.fault(line, err.code, ex, **err.params)
            return
        gen = generators.GENERATORS[spec["fn"]]
        if kind is not None and gen.kind != kind:
            self.fault(line, "ex.kind_mismatch", ex, fn=spec["fn"], expected=gen.kind, kind=kind)
        texts: list[tuple[str, str]] = []
        for key in ("prompt", "explanation"):
            if isinstance(e.get(key), dict):
                texts += [(key, v) for v in e[key].values() if isinstance(v, str)]
        if isinstance(e.get("hints"), dict):
            for items in e["hints"].values():
                if isinstance(items, list):
                    texts += [("hints", h) for h in items if isinstance(h, str)]
        for key, text in texts:
            for name in sorted(generators.placeholders(text) - set(gen.draws)):
                self.fault(
                    at(key), "ex.unknown_placeholder", ex, name=name, known=", ".join(gen.draws)
                )


def _shape(a: np.ndarray) -> str:
    return "×".join(str(s) for s in a.shape) or "1"


def _norm_nonempty(phrase: str) -> bool:
    return bool(normalise_text(phrase))


# -- loading --------------------------------------------------------------------------------


def load_text(text: str, path: str = "<text>") -> tuple[ExerciseSet | None, list[Problem]]:
    """Parse and check one file's text; the set is None when there is any problem."""
    try:
        data = files.load_toml(text)
    except files.FileFault as fault:
        return None, [Problem.from_fault(path, fault)]
    if "lesson" in data and "set" not in data:
        return None, []  # a lesson of the course (core.course.lessons), not a set: not ours
    reader = _Reader(path, text)
    try:
        result = reader.read(data)
    except _TooManyProblems:
        stop = Problem(
            path, reader.problems[-1].line, "files.too_many_problems", {"count": MAX_PROBLEMS}
        )
        return None, sorted(reader.problems, key=lambda p: p.line) + [stop]
    except Exception as err:  # a file we failed to check must not stop the others
        return None, [Problem(path, 1, "files.check_failed", {"error": type(err).__name__})]
    if result is not None:
        result = _with(result, id_line=int(reader.lines.set_key("id")))
    return result, sorted(reader.problems, key=lambda p: p.line)


def display_path(path: Path) -> str:
    """The path as a teacher would type it: relative to the working directory when inside it."""
    try:
        return str(path.resolve().relative_to(Path.cwd().resolve()))
    except (ValueError, OSError, RuntimeError):  # RuntimeError: a symlink loop (Python 3.11)
        return str(path)


def load_file(
    path: Path, source: str = "shipped", cache: FileCache | None = None
) -> tuple[ExerciseSet | None, list[Problem]]:
    """One file, read with a size bound; what is not a regular file is reported, not read.
    With ``cache``, a file read before with the very same bytes is not parsed again."""
    shown = display_path(path)
    try:
        raw = files.read_bytes(path, files.EXERCISE_FILE_LIMIT)
    except files.FileFault as fault:
        return None, [Problem.from_fault(shown, fault)]
    key = (str(path), source, shown, hashlib.blake2b(raw, digest_size=20).digest())
    if cache is not None:
        cache.seen(path)
        if key in cache:
            return cache.get(key)
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError as err:
        return None, [Problem(shown, raw.count(b"\n", 0, err.start) + 1, "ex.not_utf8", {})]
    result, problems = load_text(text, shown)
    if result is not None:
        result = _with(result, path=path, source=source)
    if cache is not None:
        cache.put(key, (result, problems))
    return result, problems


class FileCache:
    """Loaded files by path, source and content (a hash of the bytes read): what an unchanged
    file gives, without parsing and checking it again. A served class shares one (the warm
    pool loads the library before it forks its sessions), so a teacher's 100,000 exercises
    are read once per server, not once per student; a file changed on disk has other bytes
    and is loaded afresh. At most MAX_CACHED files are kept, the least recently used go."""

    MAX_CACHED = 512

    def __init__(self) -> None:
        self._entries: dict[tuple, tuple[ExerciseSet | None, list[Problem]]] = {}
        self._stats: dict[str, tuple[int, int, int]] = {}  # path → what it was when read

    @staticmethod
    def _stat(path: Path) -> tuple[int, int, int] | None:
        try:
            info = os.stat(path)
        except OSError:
            return None
        return info.st_size, info.st_mtime_ns, info.st_ino

    def seen(self, path: Path) -> None:
        """Remember ``path`` as it is now (its size, time and inode), being read."""
        stat = self._stat(path)
        if stat is not None:
            self._stats[str(path)] = stat
            while len(self._stats) > 4 * self.MAX_CACHED:
                del self._stats[next(iter(self._stats))]

    def unread_bytes(self, paths: Iterable[Path]) -> int:
        """How many bytes of ``paths`` look unread since :meth:`seen` (by their size, time and
        inode: a guess, cheap, that tells a screen whether loading will take long)."""
        total = 0
        for path in paths:
            stat = self._stat(path)
            if stat is not None and self._stats.get(str(path)) != stat:
                total += stat[0]
        return total

    def __contains__(self, key: tuple) -> bool:
        return key in self._entries

    def get(self, key: tuple) -> tuple[ExerciseSet | None, list[Problem]]:
        value = self._entries.pop(key)
        self._entries[key] = value  # most recently used last
        return value[0], list(value[1])

    def put(self, key: tuple, value: tuple[ExerciseSet | None, list[Problem]]) -> None:
        self._entries[key] = value
        while len(self._entries) > self.MAX_CACHED:
            del self._entries[next(iter(self._entries))]

    def entries(self, source: str) -> list[tuple[tuple, tuple[ExerciseSet | None, list[Problem]]]]:
        """(key, what the file gave) of every file kept from ``source`` (a key is the file's
        path, source, shown name and a hash of its bytes): what a cache on disk keeps."""
        return [(key, value) for key, value in self._entries.items() if key[1] == source]


def _with(s: ExerciseSet, **changes: Any) -> ExerciseSet:
    from dataclasses import replace

    return replace(s, **changes)


CODE_FOLDER = "code"  # code exercises live here, read by attn_tui.core.coding.loader
MAX_DEPTH = 4  # folders below the one given: sets/, quiz/, a teacher's own grouping
MAX_FOLDERS = 2000  # visited at most: `--exercises ~` (or /) must not walk a whole disk


def find_files(folder: Path) -> list[Path]:
    """Every ``*.toml`` under ``folder`` (``sets/``, ``quiz/`` or flat), in name order,
    except in a ``code/`` folder: code exercises, another format (``attn_tui.core.coding``).

    The walk does not follow links to folders, goes at most MAX_DEPTH folders down and visits
    at most MAX_FOLDERS of them. Not only regular files: a FIFO or a symlink loop named
    ``*.toml`` is reported by load_file, not skipped."""
    if folder.is_dir():
        found: list[Path] = []
        todo, visited = [(folder, 0)], 0
        while todo and visited < MAX_FOLDERS:
            here, depth = todo.pop()
            visited += 1
            try:
                entries = sorted(os.scandir(here), key=lambda e: e.name)
            except OSError:
                continue  # unreadable: nothing from it
            for entry in entries:
                try:
                    is_dir = entry.is_dir(follow_symlinks=False)
                except OSError:
                    is_dir = False
                if is_dir and depth < MAX_DEPTH and entry.name != CODE_FOLDER:
                    todo.append((Path(entry.path), depth + 1))
                elif not is_dir and entry.name.endswith(".toml"):
                    found.append(Path(entry.path))
        return sorted(found)
    # Anything else that is there (a file, a FIFO, /dev/zero, a symlink loop) is tried and
    # reported by load_file; a path that does not exist gives nothing.
    return [folder] if os.path.lexists(folder) else []


def library_files(sources: Iterable[tuple[Path, str]]) -> list[tuple[Path, str]]:
    """Every (file, source) :func:`load_library` reads from ``sources``, in its order."""
    return [(path, source) for folder, source in sources for path in find_files(folder)]


def load_library(
    sources: Iterable[tuple[Path, str]],
    progress: Callable[[int, int, Path], None] | None = None,
    cache: FileCache | None = None,
) -> Library:
    """Load every file of every (folder or file, source) in turn; later duplicates are broken.

    A set id may appear once: a second file using it (typically a teacher's copy of a shipped
    set) is reported as broken, naming the first, and the first stays. ``progress(done,
    total, path)`` is told before each file is loaded (a screen shows it); ``cache``: see
    :class:`FileCache`.
    """
    lib = Library()
    owners: dict[str, Path] = {}
    todo = library_files(sources)
    for done, (path, source) in enumerate(todo):
        if progress is not None:
            progress(done, len(todo), path)
        loaded, problems = load_file(path, source, cache)
        if loaded is not None and loaded.id in owners:
            problems = [
                Problem(
                    display_path(path),
                    loaded.id_line,
                    "ex.duplicate_set",
                    {"id": loaded.id, "other": display_path(owners[loaded.id])},
                )
            ]
            loaded = None
        if loaded is None and not problems:
            continue  # a lesson in a teacher's folder: the course loads it
        if loaded is None:
            lib.broken.append(BrokenFile(path, tuple(problems), source))
            continue
        owners[loaded.id] = path
        (lib.quizzes if loaded.quiz else lib.sets).append(loaded)
    lib.sets.sort(key=lambda s: (s.order, s.id))
    lib.quizzes.sort(key=lambda s: (s.order, s.id))
    return lib
