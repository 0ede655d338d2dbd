"""Reading and checking code-exercise files: a TOML file per set, with starter and solution
files beside it (the format is ``exercises/code/README.md``).

The TOML is read as the exercise sets are (:mod:`attn_tui.core.exercises.loader`: bounded,
every fault a :class:`Problem` with its file and line, nothing executed). The Python files
it names are read with a size bound and parsed, never run, here: a syntax error is reported
at the starter's own ``file:line``, and so is a file without the function the exercise asks
for. Whether the solution passes its check, and the starter does not, needs the sandbox:
:func:`attn_tui.core.coding.validate.validate` runs both.

Folders: shipped ``exercises/code``, then ``code/`` inside each ``--exercises DIR`` and
inside ``<data dir>/exercises`` — ``*.toml`` directly in each (starters may sit below).
"""

from __future__ import annotations

import ast
import os
import re
from collections.abc import Iterable
from pathlib import Path
from typing import Any

import numpy as np

from attn_tui.core import files
from attn_tui.core.coding.checks import CHECKS, Case, Check
from attn_tui.core.coding.model import CodeExercise, CodeLibrary, CodeSet
from attn_tui.core.exercises.loader import (
    CODE_FOLDER,
    Line,
    _Reader,
    _TooManyProblems,
    display_path,
)
from attn_tui.core.exercises.model import DEFAULT_ORDER, Problem

SET_KEYS = {"id", "order", "title", "summary"}
EXERCISE_KEYS = {
    "id",
    "title",
    "check",
    "function",
    "file",
    "starter",
    "solution",
    "topics",
    "prompt",
    "hints",
    "explanation",
    "seed",
    "random",
    "cases",
    "case",
}
CASE_KEYS = {"args", "name"}
SOURCE_LIMIT = 256 * 2**10  # a starter or a solution: a few hundred lines at most
MAX_RANDOM = 50
MAX_OWN_CASES = 50
MAX_CASE_ENTRIES = 4096  # numbers in one argument of a teacher's case
_FILE = re.compile(r"[A-Za-z0-9][A-Za-z0-9_\-]*\.py")


class _CodeReader(_Reader):
    """The sets' reader (texts, ids, hints, topics, faults with lines), for code sets."""

    def __init__(self, path: Path, shown: str, text: str) -> None:
        super().__init__(shown, text)
        self.folder = path.parent

    def read_code(self, data: dict[str, Any]) -> CodeSet | None:
        L = self.lines
        self.unknown_keys(data, {"set", "exercise"}, lambda k: L.top(k), None)
        meta = data.get("set")
        if not isinstance(meta, dict):
            self.fault(1, "ex.missing_set")
            meta = {}
        self.unknown_keys(meta, SET_KEYS, lambda k: L.set_key(k), None)
        set_id = self.ident(meta.get("id"), "set.id", L.set_key("id"), None) if meta else None
        texts = {}
        for key in ("title", "summary"):
            if meta and key not in meta:
                self.fault(L.set_key(), "ex.missing_key", None, key=f"set.{key}")
            elif meta:
                texts[key] = self.text(meta[key], f"set.{key}", L.set_key(key), None)
        order = meta.get("order", DEFAULT_ORDER)
        if not _is_int(order):
            self.fault(L.set_key("order"), "ex.want_int", None, key="set.order")
            order = DEFAULT_ORDER
        raw = data.get("exercise")
        exercises: list[CodeExercise] = []
        if not raw:
            self.fault(L.set_key(), "ex.no_exercises")
        elif not isinstance(raw, list) or not all(isinstance(e, dict) for e in raw):
            self.fault(L.top("exercise"), "ex.want_exercises")
        else:
            seen: dict[str, int] = {}
            files_seen: dict[str, str] = {}
            for i, table in enumerate(raw):
                ex = self.code_exercise(i, table, set_id or "")
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
                elif ex.file in files_seen:
                    self.fault(
                        L.exercise_key(i, "file"),
                        "code.duplicate_file",
                        ex.id,
                        file=ex.file,
                        other=files_seen[ex.file],
                    )
                seen.setdefault(ex.id, ex.line)
                files_seen.setdefault(ex.file, ex.id)
                exercises.append(ex)
        title, summary = texts.get("title"), texts.get("summary")
        if self.problems or set_id is None or title is None or summary is None:
            return None
        return CodeSet(
            id=set_id,
            title=title,
            summary=summary,
            exercises=tuple(exercises),
            order=int(order),
        )

    def code_exercise(self, i: int, e: dict[str, Any], set_id: str) -> CodeExercise | None:
        L = self.lines
        before = len(self.problems)
        line = L.exercise(i)
        ex_id = self.ident(e.get("id"), "id", L.exercise_key(i, "id"), f"#{i + 1}")
        name = ex_id or f"#{i + 1}"

        def at(*keys: str) -> Line:
            return L.exercise_key(i, *keys)

        self.unknown_keys(e, EXERCISE_KEYS, lambda k: at(k), name)
        for key in (
            "title",
            "check",
            "function",
            "file",
            "starter",
            "solution",
            "prompt",
            "explanation",
            "topics",
        ):
            if key not in e:
                self.fault(line, "ex.missing_key", name, key=key)
        texts = {
            key: self.text(e[key], key, at(key), name)
            for key in ("title", "prompt", "explanation")
            if key in e
        }
        topics = self.topics(
            e.get("topics"), "topics", at("topics") if "topics" in e else line, name, "topics" in e
        )
        hints = self.hints(e.get("hints"), at, name)
        check = self.check_name(e.get("check"), at("check"), name)
        function = e.get("function")
        if "function" in e and not (isinstance(function, str) and function.isidentifier()):
            self.fault(at("function"), "code.bad_function", name, value=str(function))
            function = None
        file = e.get("file")
        if "file" in e and not (isinstance(file, str) and _FILE.fullmatch(file)):
            self.fault(at("file"), "code.bad_file", name, value=str(file))
            file = None
        paths = {
            key: self.source(e.get(key), key, at(key), name, function)
            for key in ("starter", "solution")
            if key in e
        }
        seed, random = (
            self.count(e, "seed", at, name, 2**31),
            self.count(e, "random", at, name, MAX_RANDOM),
        )
        cases = self.case_names(e.get("cases"), check, at("cases"), name)
        own = self.own_cases(i, e.get("case"), check, name)
        title, prompt, explanation = (texts.get(k) for k in ("title", "prompt", "explanation"))
        starter, solution = paths.get("starter"), paths.get("solution")
        if (
            len(self.problems) > before  # each None below has been reported as a fault
            or ex_id is None
            or check is None
            or title is None
            or prompt is None
            or explanation is None
            or starter is None
            or solution is None
        ):
            return None
        return CodeExercise(
            id=ex_id,
            title=title,
            prompt=prompt,
            explanation=explanation,
            check=check.name,
            function=str(function),
            file=str(file),
            starter=starter,
            solution=solution,
            hints=hints,
            seed=seed or 0,
            random=random,
            cases=cases,
            own_cases=own,
            topics=topics,
            set_id=set_id,
            line=line,
        )

    def check_name(self, value: Any, line: Line, ex: str) -> Check | None:
        if value is None:
            return None
        if not isinstance(value, str) or value not in CHECKS:
            self.fault(line, "code.unknown_check", ex, check=str(value), known=", ".join(CHECKS))
            return None
        return CHECKS[value]

    def count(self, e: dict[str, Any], key: str, at: Any, ex: str, most: int) -> int | None:
        value = e.get(key)
        if value is None:
            return None
        if not _is_int(value) or not 0 <= value <= most:
            self.fault(at(key), "code.bad_count", ex, key=key, value=str(value), most=most)
            return None
        return int(value)

    def source(self, value: Any, key: str, line: Line, ex: str, function: Any) -> Path | None:
        """A starter or solution file: beside the TOML (or below it), readable, valid Python
        that defines ``function``; faults in it are reported at its own lines."""
        if not isinstance(value, str) or not value.strip():
            self.fault(line, "ex.want_text", ex, key=key)
            return None
        path = (self.folder / value).resolve()
        try:
            path.relative_to(self.folder.resolve())
        except ValueError:
            self.fault(line, "code.outside", ex, key=key, value=value)
            return None
        shown = display_path(path)
        try:
            text = files.read_text(path, SOURCE_LIMIT)
        except files.FileFault as fault:
            problem = Problem.from_fault(shown, fault)
            self.problems.append(
                Problem(
                    self.path,
                    int(line),
                    "code.source_unreadable",
                    {"key": key, "file": shown, "reason": problem.code, **problem.params},
                    ex,
                )
            )
            return None
        try:
            tree = ast.parse(text, filename=shown)
        except (SyntaxError, ValueError, RecursionError, MemoryError) as err:
            where = getattr(err, "lineno", None) or 1
            detail = getattr(err, "msg", None) or type(err).__name__
            self.problems.append(
                Problem(shown, int(where), "code.source_syntax", {"detail": str(detail)}, ex)
            )
            return None
        if isinstance(function, str) and not any(
            isinstance(node, ast.FunctionDef) and node.name == function for node in tree.body
        ):
            self.problems.append(
                Problem(shown, 1, "code.source_no_function", {"function": function, "key": key}, ex)
            )
        return path

    def case_names(
        self, value: Any, check: Check | None, line: Line, ex: str
    ) -> tuple[str, ...] | None:
        if value is None or check is None:
            return None
        if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
            self.fault(line, "ex.want_list", ex, key="cases")
            return None
        for name in value:
            if name not in check.builders:
                self.fault(
                    line,
                    "code.unknown_case",
                    ex,
                    case=name,
                    check=check.name,
                    known=", ".join(check.builders),
                )
        return tuple(value)

    def own_cases(self, i: int, value: Any, check: Check | None, ex: str) -> tuple[Case, ...]:
        L = self.lines
        if value is None or check is None:
            return ()
        if not isinstance(value, list) or not all(isinstance(c, dict) for c in value):
            self.fault(L.exercise_key(i, "case"), "ex.want_table", ex, key="case")
            return ()
        if len(value) > MAX_OWN_CASES:
            self.fault(L.exercise_key(i, "case"), "code.too_many_cases", ex, most=MAX_OWN_CASES)
            return ()
        out = []
        for j, c in enumerate(value):

            def at(*keys: str, j: int = j) -> Line:
                return L.sub(i, "case", j, *keys)

            self.unknown_keys(c, CASE_KEYS, lambda k: at(k), ex)
            args = c.get("args")
            if not isinstance(args, dict):
                self.fault(at(), "ex.missing_key", ex, key="case.args")
                continue
            names = [
                p
                for p, kind in zip(check.params, check.kinds, strict=True)
                if not kind.endswith("?") or p in args
            ]
            if set(args) - set(check.params) or set(names) - set(args):
                self.fault(
                    at("args"),
                    "code.case_args",
                    ex,
                    expected=", ".join(check.params),
                    got=", ".join(args) or "∅",
                )
                continue
            values = []
            for p, kind in zip(check.params, check.kinds, strict=True):
                v = self.case_value(args.get(p), kind, p, at("args", p), ex)
                values.append(v)
            if any(v is _BAD for v in values):
                continue
            case = Case("own", tuple(values), {"number": j + 1})
            try:
                with np.errstate(all="ignore"):
                    check.expected(case)
            except Exception as err:  # the reference cannot run on them: shapes that misfit
                self.fault(at("args"), "code.case_reference", ex, error=_short(err))
                continue
            out.append(case)
        return tuple(out)

    def case_value(self, value: Any, kind: str, name: str, line: Line, ex: str) -> Any:
        if value is None:
            return None
        if kind == "int":
            if not _is_int(value) or not 1 <= value <= 64:
                self.fault(line, "code.case_int", ex, name=name, value=str(value))
                return _BAD
            return int(value)
        try:
            a = np.array(value, dtype=bool if kind.startswith("mask") else np.float64)
        except (ValueError, TypeError):
            self.fault(line, "code.case_array", ex, name=name)
            return _BAD
        if (
            a.size > MAX_CASE_ENTRIES
            or a.ndim > 4
            or (a.dtype == np.float64 and not np.all(np.isfinite(a)))
        ):
            self.fault(line, "code.case_array", ex, name=name)
            return _BAD
        return a


_BAD = object()


def _short(err: BaseException) -> str:
    text = f"{type(err).__name__}: {err}"
    return text if len(text) <= 160 else text[:157] + "…"


def _is_int(v: Any) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)


def load_text(path: Path, text: str) -> tuple[CodeSet | None, list[Problem]]:
    shown = display_path(path)
    try:
        data = files.load_toml(text)
    except files.FileFault as fault:
        return None, [Problem.from_fault(shown, fault)]
    reader = _CodeReader(path, shown, text)
    try:
        result = reader.read_code(data)
    except _TooManyProblems:
        return None, reader.problems
    except Exception as err:  # a file we failed to check must not stop the others
        return None, [Problem(shown, 1, "files.check_failed", {"error": type(err).__name__})]
    return result, sorted(reader.problems, key=lambda p: (p.path != shown, p.path, p.line))


def load_file(path: Path, source: str = "shipped") -> tuple[CodeSet | None, list[Problem]]:
    try:
        text = files.read_text(path, files.EXERCISE_FILE_LIMIT)
    except files.FileFault as fault:
        return None, [Problem.from_fault(display_path(path), fault)]
    loaded, problems = load_text(path, text)
    if loaded is not None:
        from dataclasses import replace

        loaded = replace(loaded, path=path, source=source)
    return loaded, problems


def find_files(folder: Path) -> list[Path]:
    """The ``*.toml`` files directly in ``folder`` (not below: starters live there)."""
    try:
        entries = sorted(os.scandir(folder), key=lambda e: e.name)
    except OSError:
        return []
    return [Path(e.path) for e in entries if e.name.endswith(".toml")]


def load_code_library(folders: Iterable[tuple[Path, str]]) -> CodeLibrary:
    """Every code set of every (folder, source); an exercise id may appear once, across sets,
    since the workspace and the commands name an exercise by its id alone."""
    lib = CodeLibrary()
    owners: dict[str, Path] = {}
    set_ids: set[str] = set()
    for folder, source in folders:
        for path in find_files(folder):
            loaded, problems = load_file(path, source)
            if loaded is not None:
                clash = [e.id for e in loaded.exercises if e.id in owners]
                if loaded.id in set_ids or clash:
                    what = clash[0] if clash else loaded.id
                    other = owners.get(what, path)
                    problems = [
                        Problem(
                            display_path(path),
                            1,
                            "code.duplicate_id",
                            {"id": what, "other": display_path(other)},
                        )
                    ]
                    loaded = None
            if loaded is None:
                lib.broken.append((path, tuple(problems)))
                continue
            set_ids.add(loaded.id)
            owners.update({e.id: path for e in loaded.exercises})
            lib.sets.append(loaded)
    lib.sets.sort(key=lambda s: (s.order, s.id))
    return lib


__all__ = ["CODE_FOLDER", "find_files", "load_code_library", "load_file", "load_text"]
