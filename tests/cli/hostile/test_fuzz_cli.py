"""Fuzz: every headless command and every option, with hostile values, files and data dirs.

The cases are generated from the parser itself (so an option added tomorrow is fuzzed too) and
from a fixed list of hostile values; the same run always tries the same cases. Each must end with
exit status 0 or 2 (1 where a command documents it: validation found faults, nothing could be
graded, a reset was declined), at most one line on stderr and no traceback, within a time bound
linear in the size of its input, and memory bounded: each in-process run may grow this
process's peak resident set by at most GROWTH_LIMIT_MB, and the megabyte cases run in fresh
processes whose own peak is bounded. Failures are collected and reported together.
"""

from __future__ import annotations

import argparse
import json
import os
import sqlite3
from pathlib import Path

import pytest

from .hostile import (
    DATA_DIRS,
    PATHS,
    VALUES,
    can_measure_each_peak,
    hostile_files,
    megabyte_texts,
    run,
    run_batch,
    run_process,
    verdict,
)

pytestmark = [
    pytest.mark.slow,  # the fuzz
    pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="POSIX: FIFOs, SIGALRM"),
]

# Every leaf command is fuzzed. `serve` runs until stopped: here its server only binds the
# address it was given and closes again (see _serve_binds_and_returns), so every option up
# to the listening socket is driven with real values.
NOT_FUZZED: dict[tuple[str, ...], str] = {}
# Exit 1 is documented for these: faults found, nothing graded, a reset declined, a NaN run.
ALLOWS_ONE = {
    ("exercises", "validate"),
    ("quiz", "grade"),
    ("progress",),
    ("train",),
    ("code", "check"),
    ("code", "solution"),
    ("code", "validate"),
}
FAST_TRAIN = ["--iters", "1", "--batch", "1", "--length", "2"]
# The command lines each option is tried on: fast settings for what would otherwise compute
# for long, a positional a command needs to get past its parser, and the modes whose options
# only work together (the Transformer's, a saved model's) — an option tried only where it is
# refused at once is not fuzzed at all (`exercises try` without ITEM never reached --answer;
# the Transformer's flags without --model transformer never reached the trainer).
BASES: dict[tuple[str, ...], list[list[str]]] = {
    ("train",): [FAST_TRAIN, ["--model", "transformer", *FAST_TRAIN]],
    ("lab",): [[], ["--model", "MODEL"]],
    ("quiz", "grade"): [["GOOD_ANSWERS"]],
    ("exercises", "try"): [["WRITTEN_ITEM", "--answer", "the scores are scaled"]],
    ("serve",): [["--port", "FREE_PORT", "--no-preload"]],
    # watch mode runs until stopped: --timeout 0 checks once and stops
    ("code", "watch"): [["--timeout", "0"]],
    ("code", "check"): [["softmax"]],
    ("code", "hint"): [["softmax"]],
    ("code", "solution"): [["softmax"]],
    ("code", "validate"): [["/dev/null", "--no-run"]],
}
# Positional arguments, fuzzed like options: (command) → the base with "{}" where it goes.
POSITIONALS: dict[tuple[str, ...], list[str]] = {
    ("quiz", "grade"): ["{}"],
    ("exercises", "validate"): ["{}"],
    ("exercises", "try"): ["{}", "--answer", "x"],
    ("exercises", "list"): ["{}"],
    ("code", "check"): ["{}"],
    ("code", "hint"): ["softmax", "{}"],
    ("code", "validate"): ["{}", "--no-run"],
}
# Options naming a file the command writes, and ones naming a file it reads.
OUTPUTS = {
    ("calc", "--svg"),
    ("lab", "--svg"),
    ("quiz", "grade", "--csv"),
    ("train", "--save"),
    ("quiz", "grade", "--feedback"),
    ("quiz", "grade", "--write-groups"),
}
INPUTS = {("lab", "--model"), ("quiz", "grade", "--overrides")}


def bases(command: tuple[str, ...]) -> list[list[str]]:
    return BASES.get(command, [[]])


def allowed(command: tuple[str, ...]) -> frozenset[int]:
    ones = any(command[: len(c)] == c for c in ALLOWS_ONE)
    return frozenset({0, 1, 2} if ones else {0, 2})


def commands() -> list[tuple[tuple[str, ...], argparse.ArgumentParser]]:
    """Every leaf command of the parser: ("calc",), ("exercises", "validate"), ..."""
    from attn_tui.cli import _subparsers, build_parser

    found = []

    def walk(path: tuple[str, ...], parser: argparse.ArgumentParser) -> None:
        subs = [
            (name, p)
            for action in parser._actions
            if isinstance(action, argparse._SubParsersAction)
            for name, p in action.choices.items()
        ]
        if not subs:
            found.append((path, parser))
        for name, child in subs:
            walk((*path, name), child)

    for action in build_parser()._actions:
        if isinstance(action, argparse._SubParsersAction):
            for name, parser in action.choices.items():
                walk((name,), parser)
    assert _subparsers  # the helper this walk mirrors
    return [(c, p) for c, p in found if c not in NOT_FUZZED]


def options(parser: argparse.ArgumentParser) -> tuple[list[str], list[str]]:
    """(options taking a value, flags) of one parser, by their longest spelling."""
    values, flags = [], []
    for action in parser._actions:
        if not action.option_strings or action.help == argparse.SUPPRESS:
            continue
        if isinstance(action, (argparse._HelpAction, argparse._VersionAction)):
            continue
        name = max(action.option_strings, key=len)
        (flags if action.nargs == 0 else values).append(name)
    return values, flags


def slow_when_valid(command: tuple[str, ...], option: str, value: str) -> bool:
    """A value that is fine and would make the command compute for long (the trainer's budget
    is the trainer's issue): not tried here."""
    if command == ("train",):
        try:
            number = float(value)
        except ValueError:
            return False
        return option in ("--iters", "--seeds", "--batch") and number > 2
    return False


@pytest.fixture(autouse=True)
def _serve_binds_and_returns(monkeypatch):
    """`serve` as far as its listening socket: bind the address and port it was given (as the
    web server would: the event loop's create_server), announce, close."""
    import asyncio

    from attn_tui.serve.server import ClassroomServer

    def bind_only(self, debug: bool = False) -> None:
        loop = asyncio.new_event_loop()
        try:
            create = loop.create_server(asyncio.Protocol, self.host, self.port)
            server = loop.run_until_complete(create)
            if self.announce:
                self.announce()
            server.close()
            loop.run_until_complete(server.wait_closed())
        finally:
            loop.close()

    monkeypatch.setattr(ClassroomServer, "serve", bind_only)


@pytest.fixture(scope="module")
def world(tmp_path_factory) -> dict[str, Path]:
    """A good answer file, hostile answer files and sets, and hostile data directories."""
    root = tmp_path_factory.mktemp("fuzz")
    good = root / "good.toml"
    good.write_text('sc-dot = "2"\n', "utf-8")
    made = {"GOOD_ANSWERS": good, "root": root}
    for suffix in (".toml", ".json"):
        for name, path in hostile_files(root / f"answers{suffix}", suffix).items():
            made[f"answers{suffix}:{name}"] = path
    sets = root / "sets"
    for name, path in hostile_files(sets, ".toml").items():
        made[f"set:{name}"] = path
    made["sets"] = sets
    # data directories that cannot hold a store, or hold one that is not ours
    dirs = root / "data"
    dirs.mkdir()
    (dirs / "file").write_text("not a directory")
    for name, make in {
        "db-dir": lambda d: (d / "progress.db").mkdir(),
        "db-fifo": lambda d: os.mkfifo(d / "progress.db"),
        "db-zero": lambda d: (d / "progress.db").symlink_to("/dev/zero"),
        "db-loop": lambda d: (d / "progress.db").symlink_to("progress.db"),
        "db-garbage": lambda d: (d / "progress.db").write_bytes(b"garbage" * 1000),
        "db-other": lambda d: _other_program(d / "progress.db"),
        "db-newer": lambda d: _newer_schema(d),
        "exercises-hostile": lambda d: hostile_files(d / "exercises", ".toml"),
    }.items():
        d = dirs / name
        d.mkdir()
        make(d)
        made[f"data:{name}"] = d
    made["data:file"] = dirs / "file"
    made.update(_model_and_friends(root))
    for name, path in hostile_files(root / "models", ".npz").items():
        made[f"model:{name}"] = path
    made.update(output_targets(root / "out"))
    return made


def _model_and_friends(root: Path) -> dict[str, Path]:
    """A saved Transformer for `lab --model`, a written quiz item for `exercises try`, and a
    port nobody listens on for `serve`."""
    import socket

    from attn_tui.core.models import transformer_file
    from attn_tui.core.models.loop import run_to_end
    from attn_tui.core.models.transformer_trainer import TransformerConfig

    config = TransformerConfig(iters=1, batch=1, length=2)
    result = run_to_end(config)
    model = transformer_file.save(root / "model.npz", result.model, config, result.final.probe.x)
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    return {"MODEL": model, "WRITTEN_ITEM": Path("sc-steps"), "FREE_PORT": Path(str(port))}


def output_targets(folder: Path) -> dict[str, Path]:
    """Where a figure, a gradebook or a model might be sent: a pipe nobody reads, a full
    device, a directory, a loop, a dangling link, a folder that is missing, a file not ours."""
    folder.mkdir()
    made = {
        "out:fifo": folder / "fifo",
        "out:dir": folder / "dir",
        "out:loop": folder / "loop",
        "out:dangling": folder / "dangling",
        "out:missing-folder": folder / "missing" / "x",
        "out:under-a-file": folder / "file" / "x",
        "out:dev-full": Path("/dev/full"),
        "out:dev-null": Path("/dev/null"),
    }
    os.mkfifo(made["out:fifo"])
    made["out:dir"].mkdir()
    made["out:loop"].symlink_to("loop")
    made["out:dangling"].symlink_to(folder / "gone" / "x")
    (folder / "file").write_text("a file, not a folder")
    return {k: v for k, v in made.items() if k[4:8] != "dev-" or v.exists()}


def _other_program(path: Path) -> None:
    conn = sqlite3.connect(path)
    conn.execute("CREATE TABLE notes (text TEXT)")
    conn.commit()
    conn.close()


def _newer_schema(folder: Path) -> None:
    from attn_tui.core.progress import ProgressStore

    with ProgressStore.open(folder) as store:
        store.conn.execute("UPDATE meta SET value = '99' WHERE key = 'schema'")


def check_all(cases, world, failures_allowed: int = 0) -> int:
    """Run (argv, command, stdin) cases; assert none fails; return how many ran."""
    failures = []
    for argv, command, stdin in cases:
        argv = [str(world[a]) if a in world else a for a in argv]
        problem = verdict(run(argv, stdin=stdin), allowed(command))
        if problem:
            failures.append(problem)
    assert failures == [], f"{len(failures)} of {len(cases)} cases failed:\n" + "\n".join(
        failures[:40]
    )
    return len(cases)


def _leaf_cases() -> list[tuple[list[str], tuple[str, ...], str]]:
    cases = []
    for command, parser in commands():
        values, flags = options(parser)
        for base in bases(command):
            base = [*command, *base]
            for option in values:
                files = (*command, option) in OUTPUTS | INPUTS  # file names: PATHS, and files
                for value in PATHS if files else VALUES:
                    if not slow_when_valid(command, option, value):
                        cases.append(([*base, option, value], command, ""))
                if (*command, option) in OUTPUTS:
                    cases += [([*base, option, k], command, "") for k in OUTPUT_KEYS]
                if (*command, option) in INPUTS:
                    cases += [([*base, option, k], command, "") for k in INPUT_KEYS]
            for flag in flags:
                cases.append(([*base, flag], command, "y\n"))
            cases.append(([*base, *flags], command, "n\n"))
        if command in POSITIONALS:
            shape = POSITIONALS[command]
            # an item id is looked up, not parsed: every other value, for the suite's time
            # (each `exercises try` loads the whole library, about half a second)
            looked_up = command in {("exercises", "try"), ("exercises", "list")}
            for value in VALUES[::2] if looked_up else VALUES:
                cases.append(([*command, *(value if a == "{}" else a for a in shape)], command, ""))
    return cases


# the hostile files and targets world() makes, by key (kept in step with it by a test)
OUTPUT_KEYS = (
    "out:fifo out:dir out:loop out:dangling out:missing-folder out:under-a-file out:dev-full"
    " out:dev-null"
).split()
INPUT_KEYS = [
    f"model:{name}"
    for name in ("empty", "garbage", "too-large", "fifo", "loop", "zero", "dir", "deep", "not-utf8")
] + [
    "answers.toml:deep",
    "answers.toml:dotted-20000",
    "answers.toml:int-5000",
    "GOOD_ANSWERS",
]


LEAF_CASES = _leaf_cases()


def test_the_fuzz_names_only_files_that_world_makes(world):
    """A key world() no longer makes would be passed as a literal name, and fuzz nothing."""
    assert [k for k in OUTPUT_KEYS + INPUT_KEYS if k not in world] == []


@pytest.mark.parametrize(
    "command", sorted({c for _, c, _ in LEAF_CASES}), ids=lambda c: " ".join(c)
)
def test_every_option_of_every_command_with_hostile_values(command, world):
    ran = check_all([c for c in LEAF_CASES if c[1] == command], world)
    assert ran >= 1


def test_global_options_before_and_after_the_command(world):
    cases = []
    for value in VALUES:
        cases += [
            (["--lang", value, "calc"], ("calc",), ""),
            (["calc", "--lang", value], ("calc",), ""),
        ]
    for value in DATA_DIRS:
        cases += [
            (["--data-dir", value, "progress", "--json"], ("progress",), ""),
            (["progress", "--data-dir", value], ("progress",), ""),
        ]
    for value in PATHS:
        cases += [
            (["--exercises", value, "exercises", "list"], ("exercises", "list"), ""),
            (["quiz", "template", "--exercises", value], ("quiz", "template"), ""),
        ]
    assert check_all(cases, world) == 2 * len(VALUES) + 2 * len(DATA_DIRS) + 2 * len(PATHS)


def test_hostile_files_given_to_grade_and_validate(world):
    cases = []
    for n, key in enumerate(world):
        # every file once as a report, every other one also as JSON (the two share the reading)
        if key.startswith("answers"):
            cases.append((["quiz", "grade", key], ("quiz", "grade"), ""))
            if n % 2:
                cases.append(
                    (["quiz", "grade", key, "--json", "--show-key"], ("quiz", "grade"), "")
                )
        if key.startswith("set:"):
            cases.append((["exercises", "validate", key], ("exercises", "validate"), ""))
            if n % 2:
                cases.append(
                    (["exercises", "validate", key, "--json"], ("exercises", "validate"), "")
                )
    assert check_all(cases, world) > 60


@pytest.mark.parametrize("suffix", [".toml", ".json"])
def test_a_class_with_every_hostile_file_is_still_graded(world, suffix):
    """One folder: every bad file beside one good one. The good one is graded; exit 0."""
    folder = world[f"answers{suffix}:empty"].parent
    (folder / f"zz-good{suffix}").write_text(
        '{"sc-dot": 2}' if suffix == ".json" else "sc-dot = 2\n", "utf-8"
    )
    for extra in ([], ["--json"]):
        outcome = run(["quiz", "grade", str(folder), *extra])
        assert verdict(outcome) is None, verdict(outcome)
        assert outcome.code == 0  # graded: the broken files are reported, the good one marked
        assert "zz-good" in outcome.out  # the table names the student; --json the file too


def test_hostile_exercise_sets_never_stop_the_library(world):
    """A teacher's folder of bad sets: list, progress, quiz template and validate all finish."""
    sets = str(world["sets"])
    data = str(world["data:exercises-hostile"])
    for argv in (
        ["--exercises", sets, "exercises", "list"],
        ["--exercises", sets, "exercises", "list", "--json"],
        ["--exercises", sets, "progress", "--json"],
        ["--exercises", sets, "quiz", "template"],
        ["--data-dir", data, "exercises", "list"],
        ["--data-dir", data, "progress"],
        ["--data-dir", data, "quiz", "template", "--json"],
    ):
        outcome = run(argv)
        assert verdict(outcome) is None, verdict(outcome)
        assert outcome.code == 0, outcome.short()
    outcome = run(["exercises", "validate", sets])
    assert verdict(outcome, frozenset({1})) is None, verdict(outcome)


def test_data_directories_that_cannot_hold_progress(world):
    cases = []
    for key in world:
        if key.startswith("data:"):
            for argv in (
                ["--data-dir", key, "progress"],
                ["progress", "--json", "--data-dir", key],
                ["--data-dir", key, "progress", "--reset", "--yes"],
            ):
                cases.append((argv, ("progress",), ""))
    assert check_all(cases, world) >= 27


@pytest.mark.parametrize("stdin", ["", "y", "\x00" * 5000, "y" * 2**20, "是\n", "\udcff\n"])
def test_reset_reads_a_bounded_answer_from_any_stdin(world, stdin, tmp_path):
    outcome = run(["--data-dir", str(tmp_path), "progress", "--reset"], stdin=stdin)
    assert verdict(outcome, frozenset({0, 1})) is None, verdict(outcome)


# -- a megabyte in every text field ---------------------------------------------------------

TEXT_FIELDS = [
    ["calc", "--query"],
    ["calc", "--keys"],
    ["calc", "--values"],
    ["calc", "--temperature"],
    ["lab", "--tokens"],
    ["lab", "--preset"],
    ["lab", "--x"],
    ["lab", "--cross"],
    ["lab", "--shapes", "--tokens"],
    ["--lang"],
    ["quiz", "template", "--lang"],
    ["train", "--lr"],
    ["train", "--length"],
    ["--data-dir"],
    ["--exercises"],
    ["quiz", "grade"],
    ["exercises", "validate"],
]


@pytest.mark.parametrize("field", TEXT_FIELDS, ids=lambda f: " ".join(f))
def test_a_megabyte_in_every_text_field(field):
    """Each shape that once cost the square of its length, in this field, in this process."""
    shapes = megabyte_texts() if field[:2] == ["calc", "--query"] else megabyte_texts()[:3]
    failures = []
    for name, text in shapes:
        argv = [*field, text] + (["calc"] if field == ["--lang"] else [])
        if field[0] in ("--data-dir", "--exercises"):
            argv.append("progress")
        command = tuple(a for a in field if not a.startswith("-"))
        problem = verdict(run(argv), allowed(command or ("x",)))
        if problem:
            failures.append(f"{name}: {problem}")
    assert failures == []


def _megabyte_cases() -> dict[tuple[str, ...], list[tuple[list[str], str]]]:
    """A megabyte in every option of every command (on every base it is fuzzed on), in every
    positional argument, and as `--answer -`'s standard input: generated from the parser, so a
    new option gets its megabyte too."""
    mb = 2**20
    text = "1" * mb + "x"
    out: dict[tuple[str, ...], list[tuple[list[str], str]]] = {}
    for command, parser in commands():
        values, _ = options(parser)
        rows = out.setdefault(command, [])
        for base in bases(command):
            for option in values:
                rows.append(([*command, *base, option, text], ""))
        for value in ("1" * mb + "x", "猫" * (mb // 3) + "/"):
            rows += [
                ([*command, *(value if a == "{}" else a for a in shape)], "")
                for shape in [POSITIONALS.get(command)]
                if shape
            ]
    out[("exercises", "try")].append((["exercises", "try", "sc-steps", "--answer", "-"], text))
    out[("exercises", "try")].append(
        (["exercises", "try", "sc-steps", "--answer", "-"], "the scores are scaled " * 50_000)
    )
    out[("global",)] = [([opt, text, "progress"], "") for opt in ("--data-dir", "--exercises")]
    out[("global",)].append((["--lang", text, "calc"], ""))
    return {command: rows for command, rows in out.items() if rows}


MEGABYTE_CASES = _megabyte_cases()


@pytest.mark.skipif(not can_measure_each_peak(), reason="needs /proc/self/clear_refs (Linux)")
@pytest.mark.parametrize("command", sorted(MEGABYTE_CASES), ids=lambda c: " ".join(c))
def test_a_megabyte_in_every_option_and_argument_in_bounded_time_and_memory(command, world):
    """Each case in a fresh process (several to a process, each with its own peak): exit 0 or
    2, one line on stderr that does not echo the megabyte back, time linear in the input,
    peak memory under MEMORY_LIMIT_MB."""
    cases = [
        ([str(world[a]) if a in world else a for a in argv], stdin)
        for argv, stdin in MEGABYTE_CASES[command]
    ]
    failures = []
    for outcome in run_batch(cases):
        problem = verdict(outcome, allowed(command))
        if problem is None and len(outcome.err) > 2000:
            problem = f"stderr of {len(outcome.err)} characters: {outcome.short()}"
        if problem:
            failures.append(problem)
    assert failures == [], f"{len(failures)} of {len(cases)} failed:\n" + "\n".join(failures)


@pytest.mark.parametrize(
    "field", [["calc", "--query"], ["calc", "--keys"], ["lab", "--x"], ["lab", "--tokens"]]
)
def test_a_megabyte_argument_in_a_fresh_process_stays_within_memory(field):
    text = "1 " * 2**19 + "1"  # a megabyte of numbers: the parser's longest path
    outcome = run_process([*field, text])
    assert verdict(outcome) is None, verdict(outcome)
    assert outcome.peak_mb is not None


def test_megabyte_answer_and_exercise_files_in_a_fresh_process(tmp_path):
    mb = 2**20
    answers = tmp_path / "a.toml"
    answers.write_text(
        "\n".join(f'{q} = "{"1 " * (mb // 20)}"' for q in ("sc-dot", "sc-steps", "sc-why")),
        "utf-8",
    )
    exercise = tmp_path / "s.toml"
    exercise.write_text(
        '[set]\nid = "s"\ntitle = { zh = "x", en = "x" }\nsummary = { zh = "x", en = "x" }\n'
        '[[exercise]]\nid = "e"\nkind = "number"\nanswer = 1\ntopics = ["dot-product"]\n'
        f'prompt = {{ zh = "{"猫" * (mb // 3)}", en = "x" }}\n'
        'explanation = { zh = "x", en = "x" }\n'
        f'check = {{ fn = "dot", a = "{"1" * mb}x", b = "1" }}\n',
        "utf-8",
    )
    for argv, code in (
        (["quiz", "grade", str(answers), "--json"], frozenset({0})),
        (["exercises", "validate", str(exercise)], frozenset({1})),
    ):
        outcome = run_process(argv, size=mb)
        assert verdict(outcome, code) is None, verdict(outcome, code)


def test_a_megabyte_answer_for_every_kind_of_question(tmp_path):
    """A multi-choice answer of a million digits raised ValueError (int() of the token) and
    a megabyte of "1 1 1 …" took a minute of choice lookups."""
    from attn_tui import paths

    bank = paths.load_all().quiz_exercises
    failures = []
    for kind in sorted({ex.kind for ex in bank}):
        ids = [ex.id for ex in bank if ex.kind == kind][:2]
        shapes = [megabyte_texts()[0], megabyte_texts()[3]]
        for name, text in [*shapes, ("distinct", " ".join(f"a{i}" for i in range(150_000)))]:
            path = tmp_path / f"{kind}-{name}.json"
            path.write_text(json.dumps({i: text for i in ids}), "utf-8")
            outcome = run(["quiz", "grade", str(path), "--json"])
            problem = verdict(outcome, frozenset({0}))
            if problem or json.loads(outcome.out)["files"][0]["ok"] is not True:
                failures.append(f"{kind} {name}: {problem or outcome.out[:300]}")
    assert failures == []


def test_grading_any_value_an_answer_file_can_hold():
    """Seeded: values of every type an answer file can give (and text a learner can type),
    against every exercise of every shipped set and quiz bank. Grading never raises."""
    import math
    import random

    from attn_tui import paths
    from attn_tui.core.exercises.grading import grade
    from attn_tui.core.quiz import file_instance

    rng = random.Random(12)
    library = paths.load_all()
    exercises = [ex for s in library.sets + library.quizzes for ex in s.exercises]
    atoms = [
        None, True, False, 0, -1, 10**400, -(10**400), 1e308, math.inf, -math.inf, math.nan,
        "", " ", "a", "1", "-1", "1/0", "0/0", "1/3", "1,000", "1,,0", "[", "]", "[/]", "\x1b",
        "\ud800", "\udcff", "t", "对", "√", "፩", "²", "abc" * 50, "a c", "a、c", "(B)",
        "1e309", "nan", "1 2; 3", "[[1,2],[3,4]]", {}, {"a": 1}, [], [[]], [[1, 2], [3]],
    ]  # fmt: skip

    def value(depth: int = 0):
        roll = rng.random()
        if roll < 0.55 or depth > 3:
            return rng.choice(atoms)
        if roll < 0.85:
            return [value(depth + 1) for _ in range(rng.randrange(0, 6))]
        return {str(rng.random()): value(depth + 1)}

    statuses = set()
    for ex in exercises:
        inst = file_instance(ex)
        for _ in range(60):
            answer = value()
            g = grade(inst, answer)  # must not raise
            assert 0.0 <= g.score <= 1.0, (ex.id, answer, g)
            statuses.add(g.status)
    assert {"incorrect", "unreadable", "empty"} <= statuses
