"""Lessons: plain TOML a teacher can read, edit and ``validate`` like the exercise sets.

A lesson is ``[lesson]`` (id, order, chapter, title, topics) and its ``[[step]]``s, in order.
The shipped path goes read → do → practise → check in each lesson:

- ``read``: a short text (``text.zh`` / ``text.en``; figures as checked ``{= …}`` claims);
- ``do``: a task in the calculator, trainer or lab (``area``), opened with its ``preset``
  and checked from the state it reaches by a named ``check`` (:mod:`.tasks`), with ``hints``;
- ``practise``: exercises from the sets (``items = ["set/id", …]``, ``need`` right answers);
- ``check``: two or three quiz items (``items``, ``pass`` right answers open the next lesson);
- ``code`` (optional): code exercises of the code area, by id (``items``, ``need`` passed).

Step kinds are a registry (:data:`STEP_KINDS`), so a later kind (a code exercise) is one
entry more, and a lesson may order its steps as it likes. The format is in
``exercises/README.md``; faults are :class:`~attn_tui.core.exercises.model.Problem`\\ s with
the file's line, like the sets'.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from attn_tui.core import files
from attn_tui.core.attention.lab import LabConfig, build
from attn_tui.core.attention.steps import attend, check_shapes
from attn_tui.core.course.tasks import REQUIRED, TASKS
from attn_tui.core.exercises import claims
from attn_tui.core.exercises.loader import display_path, find_files
from attn_tui.core.exercises.model import _ID, LANGS, TOPICS, Library, Problem, Text
from attn_tui.core.models.trainer import TrainConfig
from attn_tui.core.models.transformer_trainer import TransformerConfig
from attn_tui.core.parse import InputError, parse_matrix, parse_vector

STEP_KINDS = ("read", "do", "practise", "code", "check")
AREAS = ("calc", "train", "lab")
LESSON_KEYS = {"id", "order", "chapter", "title", "topics", "summary"}
STEP_KEYS = {
    "read": {"kind", "id", "text"},
    "do": {"kind", "id", "area", "preset", "task", "check", "hints", "done", "ask"},
    "practise": {"kind", "id", "items", "need", "text"},
    "check": {"kind", "id", "items", "pass", "text"},
    "code": {"kind", "id", "items", "need", "text"},  # code exercises (attn-tui code), by id
}
CALC_PRESET = {"query", "keys", "values", "scale", "hard", "temperature"}
MAX_READ_CHARS = 900  # a read step is a screen, not a page of prose (per language)
MAX_LESSONS = 200


@dataclass(frozen=True)
class Step:
    kind: str
    id: str
    text: Text | None = None  # read: the text; practise/check: an optional line above
    area: str = ""  # do
    preset: Mapping[str, Any] = field(default_factory=dict)
    task: Text | None = None
    ask: Text | None = None  # do: what to type once there (the check compares it)
    check: str = ""
    params: Mapping[str, Any] = field(default_factory=dict)
    hints: tuple[Text, ...] = ()
    done: Text | None = None
    items: tuple[str, ...] = ()  # practise/check: "set/id"
    need: int = 0  # practise: right answers needed; check: the pass mark
    line: int = 0


@dataclass(frozen=True)
class Lesson:
    id: str
    order: int
    chapter: int
    title: Text
    topics: tuple[str, ...]
    steps: tuple[Step, ...]
    summary: Text | None = None
    path: Path | None = None
    source: str = "shipped"

    def step(self, step_id: str) -> Step | None:
        return next((s for s in self.steps if s.id == step_id), None)

    def of_kind(self, kind: str) -> list[Step]:
        return [s for s in self.steps if s.kind == kind]

    @property
    def practice_sets(self) -> tuple[str, ...]:
        """The sets its practise steps draw on, in order: where a weak topic is practised."""
        ids = [i.split("/", 1)[0] for s in self.of_kind("practise") for i in s.items]
        return tuple(dict.fromkeys(ids))


@dataclass
class Course:
    lessons: list[Lesson] = field(default_factory=list)
    broken: list[tuple[Path, tuple[Problem, ...]]] = field(default_factory=list)

    def get(self, lesson_id: str) -> Lesson | None:
        return next((lesson for lesson in self.lessons if lesson.id == lesson_id), None)

    def index(self, lesson_id: str) -> int | None:
        return next((i for i, x in enumerate(self.lessons) if x.id == lesson_id), None)

    def for_topic(self, topic: str) -> Lesson | None:
        """The first lesson that teaches ``topic`` (where the quiz's weak topics point)."""
        return next((x for x in self.lessons if topic in x.topics), None)


_LESSON_HEADER = re.compile(r"^\s*\[lesson\]\s*(?:#.*)?$", re.M)


def is_lesson_text(text: str) -> bool:
    return _LESSON_HEADER.search(text) is not None


def is_lesson_file(path: Path) -> bool:
    """A lesson, not an exercise set (the set loader leaves these to the course)."""
    try:
        head = files.read_text(path, files.EXERCISE_FILE_LIMIT)
    except files.FileFault:
        return False
    return is_lesson_text(head)


class _Lines:
    """Lines of the ``[[step]]`` headers and of ``key =`` inside each table, for faults."""

    def __init__(self, text: str) -> None:
        self.rows = text.splitlines()
        self.steps = [i + 1 for i, r in enumerate(self.rows) if re.match(r"^\s*\[\[step\]\]", r)]
        m = _LESSON_HEADER.search(text)
        self.lesson = text.count("\n", 0, m.start()) + 1 if m else 1

    def _key(self, start: int, end: int, key: str) -> int:
        pat = re.compile(rf"^\s*{re.escape(key)}\s*(?:\.|=)")
        for n in range(start, min(end, len(self.rows) + 1)):
            if pat.match(self.rows[n - 1]):
                return n
        return start

    def lesson_key(self, key: str = "") -> int:
        end = self.steps[0] if self.steps else len(self.rows) + 1
        return self._key(self.lesson, end, key) if key else self.lesson

    def step(self, i: int, key: str = "") -> int:
        if i >= len(self.steps):
            return self.lesson
        start = self.steps[i]
        end = self.steps[i + 1] if i + 1 < len(self.steps) else len(self.rows) + 1
        return self._key(start, end, key) if key else start


class _Reader:
    def __init__(
        self, path: str, text: str, library: Library | None, code_ids: set[str] | None = None
    ) -> None:
        self.path = path
        self.lines = _Lines(text)
        self.library = library
        self.code_ids = code_ids
        self.problems: list[Problem] = []

    def fault(self, line: int, code: str, where: str | None = None, **params: Any) -> None:
        self.problems.append(Problem(self.path, int(line), code, params, where))

    def text(
        self, value: Any, key: str, line: int, where: str | None, limit: int | None = None
    ) -> Text | None:
        if not isinstance(value, dict):
            self.fault(line, "ex.want_bilingual", where, key=key)
            return None
        ok = True
        for lang in value:
            if lang not in LANGS:
                self.fault(line, "ex.unknown_lang", where, key=key, language=lang)
                ok = False
        for lang in LANGS:
            v = value.get(lang)
            if v is None:
                self.fault(line, "ex.missing_lang", where, key=key, language=lang)
                ok = False
            elif not isinstance(v, str):
                self.fault(line, "ex.want_text", where, key=f"{key}.{lang}")
                ok = False
            elif not v.strip():
                self.fault(line, "ex.empty_text", where, key=key, language=lang)
                ok = False
        if not ok:
            return None
        shown = {}
        for lang in LANGS:
            for err in claims.check_text(value[lang]):
                self.fault(line, f"ex.claim.{err.reason}", where, claim=err.claim, **err.params)
            shown[lang] = claims.display(value[lang])
            if limit is not None and len(shown[lang]) > limit:
                self.fault(
                    line,
                    "course.lesson.too_long",
                    where,
                    key=key,
                    language=lang,
                    chars=len(shown[lang]),
                    limit=limit,
                )
        return Text(shown["zh"], shown["en"])

    def texts(self, value: Any, key: str, line: int, where: str) -> tuple[Text, ...]:
        if value is None:
            return ()
        if not (isinstance(value, dict) and all(isinstance(value.get(g), list) for g in LANGS)):
            self.fault(line, "course.lesson.want_hints", where)
            return ()
        if len(value["zh"]) != len(value["en"]):
            self.fault(line, "ex.hint_counts", where, zh=len(value["zh"]), en=len(value["en"]))
            return ()
        out = []
        for zh, en in zip(value["zh"], value["en"], strict=True):
            t = self.text({"zh": zh, "en": en}, key, line, where)
            if t is not None:
                out.append(t)
        return tuple(out)

    def unknown(self, table: Mapping[str, Any], allowed: set[str], line_of, where) -> None:
        for key in table:
            if key not in allowed:
                self.fault(
                    line_of(key), "ex.unknown_key", where, key=key, known=", ".join(sorted(allowed))
                )

    def read(self, data: dict[str, Any]) -> Lesson | None:
        L = self.lines
        self.unknown(data, {"lesson", "step"}, lambda k: 1, None)
        meta = data.get("lesson")
        if not isinstance(meta, dict):
            self.fault(1, "course.lesson.missing")
            return None
        self.unknown(meta, LESSON_KEYS, L.lesson_key, None)
        lesson_id = meta.get("id")
        if not isinstance(lesson_id, str) or not _ID.fullmatch(lesson_id):
            self.fault(L.lesson_key("id"), "ex.bad_id", None, key="lesson.id", value=str(lesson_id))
            lesson_id = None
        ints = {}
        for key, default in (("order", 1000), ("chapter", 1)):
            value = meta.get(key, default)
            if not isinstance(value, int) or isinstance(value, bool) or not 0 <= value <= 10**6:
                self.fault(L.lesson_key(key), "ex.want_int", None, key=f"lesson.{key}")
                value = default
            ints[key] = value
        title = None
        if "title" not in meta:
            self.fault(L.lesson_key(), "ex.missing_key", None, key="lesson.title")
        else:
            title = self.text(meta["title"], "lesson.title", L.lesson_key("title"), None)
        summary = None
        if "summary" in meta:
            summary = self.text(meta["summary"], "lesson.summary", L.lesson_key("summary"), None)
        topics = meta.get("topics", [])
        if not isinstance(topics, list) or not all(isinstance(x, str) for x in topics):
            self.fault(L.lesson_key("topics"), "ex.want_list", None, key="lesson.topics")
            topics = []
        for topic in topics:
            if topic not in TOPICS:
                self.fault(
                    L.lesson_key("topics"),
                    "ex.unknown_topic",
                    None,
                    topic=topic,
                    known=", ".join(TOPICS),
                )
        raw = data.get("step")
        steps: list[Step] = []
        if not isinstance(raw, list) or not raw or not all(isinstance(s, dict) for s in raw):
            self.fault(L.lesson_key(), "course.lesson.no_steps")
        else:
            seen: set[str] = set()
            for i, table in enumerate(raw):
                step = self.step(i, table)
                if step is None:
                    continue
                if step.id in seen:
                    self.fault(L.step(i, "id"), "course.lesson.duplicate_step", step.id, id=step.id)
                seen.add(step.id)
                steps.append(step)
        if self.problems or lesson_id is None or title is None:
            return None
        return Lesson(
            lesson_id, ints["order"], ints["chapter"], title, tuple(topics), tuple(steps), summary
        )

    def step(self, i: int, s: dict[str, Any]) -> Step | None:
        L = self.lines
        kind = s.get("kind")
        if kind not in STEP_KINDS:
            self.fault(
                L.step(i, "kind"),
                "course.lesson.bad_kind",
                f"#{i + 1}",
                kind=str(kind),
                known=", ".join(STEP_KINDS),
            )
            return None
        step_id = s.get("id", kind)
        if not isinstance(step_id, str) or not _ID.fullmatch(step_id):
            self.fault(L.step(i, "id"), "ex.bad_id", f"#{i + 1}", key="id", value=str(step_id))
            return None
        n_before = len(self.problems)
        self.unknown(s, STEP_KEYS[kind], lambda k: L.step(i, k), step_id)
        at = lambda key: L.step(i, key)  # noqa: E731
        if kind == "read":
            if "text" not in s:
                self.fault(at(""), "ex.missing_key", step_id, key="text")
                return None
            text = self.text(s["text"], "text", at("text"), step_id, MAX_READ_CHARS)
            return (
                Step(kind, step_id, text=text, line=at(""))
                if len(self.problems) == n_before
                else None
            )
        if kind == "do":
            return self.do_step(i, s, step_id, n_before)
        return self.item_step(i, s, kind, step_id, n_before)

    def do_step(self, i: int, s: dict[str, Any], step_id: str, n_before: int) -> Step | None:
        at = lambda key: self.lines.step(i, key)  # noqa: E731
        area = s.get("area")
        if area not in AREAS:
            self.fault(
                at("area"),
                "course.lesson.bad_area",
                step_id,
                area=str(area),
                known=", ".join(AREAS),
            )
            return None
        for key in ("task", "check"):
            if key not in s:
                self.fault(at(""), "ex.missing_key", step_id, key=key)
        task = self.text(s["task"], "task", at("task"), step_id) if "task" in s else None
        ask = self.text(s["ask"], "ask", at("ask"), step_id) if "ask" in s else None
        done = self.text(s["done"], "done", at("done"), step_id) if "done" in s else None
        hints = self.texts(s.get("hints"), "hints", at("hints"), step_id)
        preset = s.get("preset", {})
        if not isinstance(preset, dict):
            self.fault(at("preset"), "course.lesson.bad_preset", step_id, detail="a table")
            preset = {}
        self.check_preset(area, preset, at("preset"), step_id)
        spec = s.get("check")
        fn, params = "", {}
        if spec is not None:
            if not isinstance(spec, dict) or not isinstance(spec.get("fn"), str):
                self.fault(
                    at("check"),
                    "course.lesson.bad_check",
                    step_id,
                    fn=str(spec),
                    known=", ".join(TASKS),
                )
            elif spec["fn"] not in TASKS or TASKS[spec["fn"]].area != area:
                self.fault(
                    at("check"),
                    "course.lesson.bad_check",
                    step_id,
                    fn=spec["fn"],
                    known=", ".join(k for k, v in TASKS.items() if v.area == area),
                )
            else:
                fn = spec["fn"]
                params = {k: v for k, v in spec.items() if k != "fn"}
                self.check_params(fn, params, at("check"), step_id)
                if TASKS[fn].asks and ask is None:
                    self.fault(at(""), "course.lesson.needs_ask", step_id, fn=fn)
        if len(self.problems) != n_before:
            return None
        return Step(
            "do",
            step_id,
            area=area,
            preset=dict(preset),
            task=task,
            ask=ask,
            check=fn,
            params=params,
            hints=hints,
            done=done,
            line=at(""),
        )

    def check_params(self, fn: str, params: Mapping[str, Any], line: int, where: str) -> None:
        spec = TASKS[fn]
        for name, value in params.items():
            if name not in spec.params:
                self.fault(
                    line,
                    "ex.param_unknown",
                    where,
                    fn=fn,
                    param=name,
                    known=", ".join(sorted(spec.params)),
                )
                continue
            want = spec.params[name][0]
            ok = isinstance(value, want) and not (isinstance(value, bool) and want is not bool)
            if want is float and isinstance(value, int) and not isinstance(value, bool):
                ok = True
            if not ok:
                self.fault(
                    line, "course.lesson.bad_param", where, fn=fn, param=name, want=want.__name__
                )
        for name, (_t, default) in spec.params.items():
            if default is REQUIRED and name not in params:
                self.fault(line, "ex.param_missing", where, fn=fn, param=name)
        for name in ("keys",):  # a matrix a check compares with is written as the calculator's
            if isinstance(params.get(name), str):
                try:
                    parse_matrix(params[name], name)
                except InputError as err:
                    self.fault(line, "course.lesson.bad_preset", where, detail=str(err))
        if isinstance(params.get("query"), str):
            try:
                parse_vector(params["query"], "query")
            except InputError as err:
                self.fault(line, "course.lesson.bad_preset", where, detail=str(err))

    def check_preset(self, area: str, preset: Mapping[str, Any], line: int, where: str) -> None:
        def bad(detail: str) -> None:
            self.fault(line, "course.lesson.bad_preset", where, detail=detail)

        try:
            if area == "calc":
                unknown = set(preset) - CALC_PRESET
                if unknown:
                    return bad(", ".join(sorted(unknown)))
                if "query" in preset or "keys" in preset:
                    q = parse_vector(str(preset.get("query", "")), "query")
                    K = parse_matrix(str(preset.get("keys", "")), "keys")
                    V = (
                        parse_matrix(str(preset["values"]), "values")
                        if preset.get("values")
                        else None
                    )
                    check_shapes(q, K, V)
                    attend(
                        q,
                        K,
                        V,
                        scale=bool(preset.get("scale", True)),
                        temperature=float(preset.get("temperature", 1.0)),
                    )
            elif area == "train":
                model = preset.get("model", "rnn")
                rest = {k: v for k, v in preset.items() if k != "model"}
                if model == "rnn":
                    TrainConfig(**rest).validate()
                elif model == "transformer":  # a task's own recipe, as the trainer fills it
                    TransformerConfig.for_task(rest.pop("task", "reverse"), **rest).validate()
                else:
                    bad(f"model = {model!r}")
            else:
                build(LabConfig(**preset))
        except TypeError as err:  # an unknown setting
            bad(str(err).split("() ", 1)[-1])
        except (InputError, ValueError) as err:
            bad(getattr(err, "code", str(err)))
        return None

    def item_step(
        self, i: int, s: dict[str, Any], kind: str, step_id: str, n_before: int
    ) -> Step | None:
        at = lambda key: self.lines.step(i, key)  # noqa: E731
        items = s.get("items")
        if not isinstance(items, list) or not items or not all(isinstance(x, str) for x in items):
            self.fault(at("items"), "course.lesson.want_items", step_id)
            return None
        for item in items:
            self.check_item(item, kind, at("items"), step_id)
        key = "pass" if kind == "check" else "need"
        need = s.get(key, max(1, len(items) - 1) if kind == "check" else len(items))
        if not isinstance(need, int) or isinstance(need, bool) or not 1 <= need <= len(items):
            self.fault(at(key), "course.lesson.bad_need", step_id, key=key, count=len(items))
            need = 1
        text = self.text(s["text"], "text", at("text"), step_id) if "text" in s else None
        if len(self.problems) != n_before:
            return None
        return Step(kind, step_id, text=text, items=tuple(items), need=need, line=at(""))

    def check_item(self, item: str, kind: str, line: int, where: str) -> None:
        if kind == "code":  # a code exercise's id (attn-tui code list)
            if self.code_ids is not None and item not in self.code_ids:
                self.fault(line, "course.lesson.no_code", where, item=item)
            return
        set_id, slash, ex_id = item.partition("/")
        if not slash or not set_id or not ex_id:
            self.fault(line, "course.lesson.bad_item", where, item=item)
            return
        if self.library is None:
            return
        found = self.library.get(set_id)
        if found is None or found.exercise(ex_id) is None:
            self.fault(line, "course.lesson.no_item", where, item=item)
        # any kind of item may be a check, a written one too (graded by its rubric, as in a quiz)


def load_text(
    text: str,
    path: str = "<text>",
    library: Library | None = None,
    code_ids: set[str] | None = None,
) -> tuple[Lesson | None, list[Problem]]:
    """Parse and check one lesson; ``library`` (the sets) and ``code_ids`` (the code
    exercises) let the items it names be checked."""
    try:
        data = files.load_toml(text)
    except files.FileFault as fault:
        return None, [Problem.from_fault(path, fault)]
    reader = _Reader(path, text, library, code_ids)
    try:
        lesson = reader.read(data)
    except Exception as err:
        return None, [Problem(path, 1, "files.check_failed", {"error": type(err).__name__})]
    return lesson, sorted(reader.problems, key=lambda p: p.line)


def load_file(
    path: Path,
    library: Library | None = None,
    source: str = "shipped",
    code_ids: set[str] | None = None,
) -> tuple[Lesson | None, list[Problem]]:
    shown = display_path(path)
    try:
        text = files.read_text(path, files.EXERCISE_FILE_LIMIT)
    except files.FileFault as fault:
        return None, [Problem.from_fault(shown, fault)]
    lesson, problems = load_text(text, shown, library, code_ids)
    if lesson is not None:
        from dataclasses import replace

        lesson = replace(lesson, path=path, source=source)
    return lesson, problems


def load_course(
    sources: Iterable[tuple[Path, str]], library: Library | None, code_ids: set[str] | None = None
) -> Course:
    """Every lesson file under each (folder, source); a lesson id may appear once."""
    course = Course()
    owners: dict[str, Path] = {}
    for folder, source in sources:
        for path in find_files(folder):
            if len(course.lessons) >= MAX_LESSONS:
                break
            if source != "shipped" and not is_lesson_file(path):
                continue  # a teacher's exercise set in the same folder
            lesson, problems = load_file(path, library, source, code_ids)
            if lesson is not None and lesson.id in owners:
                problems = [
                    Problem(
                        display_path(path),
                        1,
                        "course.lesson.duplicate",
                        {"id": lesson.id, "other": display_path(owners[lesson.id])},
                    )
                ]
                lesson = None
            if lesson is None:
                course.broken.append((path, tuple(problems)))
                continue
            owners[lesson.id] = path
            course.lessons.append(lesson)
    course.lessons.sort(key=lambda x: (x.order, x.id))
    return course
