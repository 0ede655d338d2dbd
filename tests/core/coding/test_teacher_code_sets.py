"""A teacher's own code exercise: written as data beside a starter and a solution, loaded by
the app, and checked with faults as file:line — in the TOML and in the Python files."""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest

from attn_tui import i18n
from attn_tui.core.coding.engine import check_file
from attn_tui.core.coding.loader import load_code_library, load_file
from attn_tui.core.coding.validate import validate

GOOD = """
[set]
id = "mine"
title = { zh = "我的", en = "Mine" }
summary = { zh = "老师自己的", en = "A teacher's own" }

[[exercise]]
id = "my-softmax"
title = { zh = "温度 softmax", en = "Softmax again" }
check = "softmax"
function = "softmax"
file = "my_softmax.py"
starter = "start.py"
solution = "answer.py"
topics = ["softmax"]
prompt = { zh = "写 softmax。", en = "Write softmax." }
explanation = { zh = "好。", en = "Good." }
hints = { zh = ["减去最大值。"], en = ["Subtract the maximum."] }
random = 2
seed = 7
cases = ["large", "ties"]

[[exercise.case]]
args = { x = [[1.0, 2.0], [3.0, 3.0]] }
"""

START = "import numpy as np\n\n\ndef softmax(x):\n    raise NotImplementedError\n"
ANSWER = (
    "import numpy as np\n\n\ndef softmax(x):\n    e = np.exp(x - x.max(-1, keepdims=True))\n"
    "    return e / e.sum(-1, keepdims=True)\n"
)


def folder_with(tmp_path: Path, toml: str, start: str = START, answer: str = ANSWER) -> Path:
    code = tmp_path / "exercises" / "code"
    code.mkdir(parents=True)
    (code / "mine.toml").write_text(textwrap.dedent(toml), "utf-8")
    (code / "start.py").write_text(start, "utf-8")
    (code / "answer.py").write_text(answer, "utf-8")
    return code


def faults(path: Path) -> list[str]:
    _, problems = load_file(path)
    return [p.format(i18n.t, "en") for p in problems]


def test_a_teachers_set_loads_beside_the_shipped_one_and_runs_its_own_cases(tmp_path, library):
    code = folder_with(tmp_path, GOOD)
    lib = load_code_library([(library.sets[0].path.parent, "shipped"), (code, "extra")])
    assert not lib.broken
    ex = lib.get("my-softmax")
    assert ex is not None and ex.seed == 7 and ex.random == 2
    from attn_tui.core.coding.engine import cases_for

    names = [c.name for c in cases_for(ex)]
    assert names == ["own", "large", "random", "random", "ties"]
    from .conftest import run_here

    assert check_file(ex, ex.solution, runner=run_here).passed


@pytest.mark.parametrize(
    ("change", "where", "says"),
    [
        (('check = "softmax"', 'check = "softmaxx"'), "mine.toml:10", "no check named softmaxx"),
        (('cases = ["large", "ties"]', 'cases = ["huge"]'), "mine.toml:21", "no case named huge"),
        (("random = 2", "random = 500"), "mine.toml:19", "from 0 to 50"),
        (('file = "my_softmax.py"', 'file = "../x.py"'), "mine.toml:12", "file must be a .py"),
        (('solution = "answer.py"', 'solution = "../../../etc/passwd"'), "mine.toml:14", "outside"),
        (('solution = "answer.py"', 'solution = "nope.py"'), "mine.toml:14", "cannot be read"),
        (
            ("args = { x = [[1.0, 2.0], [3.0, 3.0]] }", "args = { y = [1.0] }"),
            "mine.toml:24",
            "must name these arguments: x",
        ),
        (
            ("args = { x = [[1.0, 2.0], [3.0, 3.0]] }", "args = { x = [[1.0, 2.0], [3.0]] }"),
            "mine.toml:24",
            "rectangular",
        ),
        (
            ('hints = { zh = ["减去最大值。"], en = ["Subtract the maximum."] }', 'hint = "x"'),
            "mine.toml:18",
            "hint",
        ),
        (('topics = ["softmax"]', 'topics = ["softmaxes"]'), "mine.toml:15", "softmaxes"),
    ],
)
def test_a_fault_in_the_toml_is_reported_at_its_line(tmp_path, change, where, says):
    code = folder_with(tmp_path, GOOD.replace(*change))
    found = faults(code / "mine.toml")
    assert any(where in f and says in f for f in found), found


def test_a_syntax_error_in_the_starter_is_reported_at_the_starters_own_line(tmp_path):
    code = folder_with(tmp_path, GOOD, start="import numpy as np\n\n\ndef softmax(x)\n    pass\n")
    found = faults(code / "mine.toml")
    assert any(f.startswith(f"{code / 'start.py'}:4:") for f in found), found
    assert any("syntax error" in f for f in found)


def test_a_solution_without_the_function_is_named(tmp_path):
    code = folder_with(tmp_path, GOOD, answer="def soft_max(x):\n    return x\n")
    found = faults(code / "mine.toml")
    assert any("answer.py:1:" in f and "defines no function softmax" in f for f in found), found


def test_duplicate_ids_across_sets_are_refused(tmp_path, library):
    code = folder_with(tmp_path, GOOD.replace('id = "my-softmax"', 'id = "softmax"'))
    lib = load_code_library([(library.sets[0].path.parent, "shipped"), (code, "extra")])
    assert len(lib.broken) == 1
    ((path, problems),) = lib.broken
    assert "already used" in problems[0].format(i18n.t, "en")


@pytest.mark.slow  # runs both files in real children
def test_validate_runs_the_solution_and_the_starter(tmp_path):
    wrong = (
        "import numpy as np\n\n\ndef softmax(x):\n    e = np.exp(x)\n"
        "    return e / e.sum(-1, keepdims=True)\n"
    )
    code = folder_with(tmp_path, GOOD, answer=wrong, start=ANSWER)
    _, problems = validate(code / "mine.toml")
    said = [p.format(i18n.t, "en") for p in problems]
    assert any("answer.py" in s and "fails its own check" in s and "overflow" in s for s in said), (
        said
    )
    assert any("start.py:1:" in s and "already passes" in s for s in said), said


def test_the_shipped_set_validates_statically(library):
    _, problems = load_file(library.sets[0].path)
    assert problems == []


def test_the_sets_loader_leaves_code_folders_alone(tmp_path):
    from attn_tui.core.exercises.loader import find_files

    folder_with(tmp_path, GOOD)
    assert find_files(tmp_path / "exercises") == []
