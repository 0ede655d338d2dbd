"""The core is pure: numpy and the standard library only, never Textual or Rich."""

import pkgutil
import subprocess
import sys
from pathlib import Path

import pytest

import attn_tui.core

CORE_MODULES = sorted(
    m.name for m in pkgutil.walk_packages(attn_tui.core.__path__, "attn_tui.core.") if not m.ispkg
)
CORE_ROOT = Path(attn_tui.core.__path__[0])


def _source(module: str) -> Path:
    return CORE_ROOT.joinpath(*module.split(".")[2:]).with_suffix(".py")


def _core_imports(module: str) -> set[str]:
    """Every core module ``module`` imports, at the top or inside a function."""
    import ast

    found = set()
    for node in ast.walk(ast.parse(_source(module).read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            base = node.module
            found |= {f"{base}.{a.name}" for a in node.names} | {base}
        elif isinstance(node, ast.Import):
            found |= {a.name for a in node.names}
    return {m for m in found if m in CORE_MODULES and m != module}


def test_there_is_a_core_to_check():
    assert {
        "attn_tui.core.attention.steps",
        "attn_tui.core.models.rnn",
        "attn_tui.core.exercises.grading",
        "attn_tui.core.parse",
    } <= set(CORE_MODULES)


def test_core_modules_import_each_other_without_a_cycle():
    """Imports run one way (e.g. model ← generators ← loader), so a newcomer can read a module
    knowing only what it imports, and no import needs to hide inside a function."""
    graph = {m: _core_imports(m) for m in CORE_MODULES}
    state: dict[str, int] = {}  # 1 = on the current path, 2 = done

    def visit(m: str, path: list[str]) -> None:
        state[m] = 1
        for n in sorted(graph[m]):
            if state.get(n) == 1:
                cycle = path[path.index(n) :] + [n] if n in path else [m, n]
                pytest.fail("import cycle: " + " → ".join(cycle))
            if n not in state:
                visit(n, path + [n])
        state[m] = 2

    for m in CORE_MODULES:
        if m not in state:
            visit(m, [m])


# One process imports every core module in turn and says, after each import, which of the
# forbidden modules (Textual, Rich, platformdirs, the app's own upper layers) had newly
# appeared: whatever a module loads appears right after its own import, so one process finds
# what one process per module would (about 60 fewer interpreter starts in the quick loop).
# A module imported after another one already loaded a forbidden module cannot be told
# apart: it fails too, naming the module that did.
_LOADS = """
import importlib, json, sys
def bad():
    return {m for m in sys.modules if m.split('.')[0] in {'textual', 'rich', 'platformdirs'}
            or (m.startswith('attn_tui.') and not m.startswith('attn_tui.core'))}
out, seen = {}, set()
for module in sys.argv[1:]:
    importlib.import_module(module)
    now = bad()
    out[module] = {"loads": sorted(now - seen), "already": sorted(seen)}
    seen = now
print(json.dumps(out))
"""


@pytest.fixture(scope="module")
def what_each_core_module_loads() -> dict[str, dict[str, list[str]]]:
    import json

    out = subprocess.run(
        [sys.executable, "-c", _LOADS, *CORE_MODULES], capture_output=True, text=True, check=True
    )
    return json.loads(out.stdout)


@pytest.mark.parametrize("module", CORE_MODULES)
def test_core_module_loads_neither_textual_nor_rich(module, what_each_core_module_loads):
    found = what_each_core_module_loads[module]
    assert found["loads"] == [], f"{module} pulls in {','.join(found['loads'])}"
    assert found["already"] == [], f"cannot tell: an earlier module loaded {found['already']}"


def test_the_import_check_finds_a_core_module_that_loads_rich():
    """The one-process check sees what a module loads (here a module that imports Rich)."""
    out = subprocess.run(
        [sys.executable, "-c", _LOADS, "attn_tui.core.parse", "rich.text", "attn_tui.core.format"],
        capture_output=True, text=True, check=True,
    )  # fmt: skip
    import json

    found = json.loads(out.stdout)
    assert found["attn_tui.core.parse"]["loads"] == []
    assert "rich.text" in found["rich.text"]["loads"]
    assert found["attn_tui.core.format"]["already"]  # after it, nothing can be told apart


# The written-answer reader may use these text libraries, only inside a function (so that
# importing the core never loads them), and only in core/exercises/written/text.py.
TEXT_LIBRARIES = {"rjieba", "snowballstemmer", "rapidfuzz"}
TEXT_READER = "attn_tui.core.exercises.written.text"
# The review schedule uses the maintained FSRS implementation, only inside a function of this
# one module: importing the core, or counting what is due, never loads it.
REVIEW_LIBRARIES = {"fsrs"}
REVIEW_SCHEDULER = "attn_tui.core.course.review"
LAZY = {TEXT_READER: TEXT_LIBRARIES, REVIEW_SCHEDULER: REVIEW_LIBRARIES}


@pytest.mark.parametrize("module", CORE_MODULES)
def test_core_source_imports_only_numpy_stdlib_and_core(module):
    import ast

    path = _source(module)
    tree = ast.parse(path.read_text(encoding="utf-8"))
    allowed = set(sys.stdlib_module_names) | {"numpy", "attn_tui", "__future__"}
    top_level = {id(n) for n in tree.body}
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names = [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom) and node.level == 0:
            names = [node.module or ""]
        else:
            continue
        for name in names:
            root = name.split(".")[0]
            if root in LAZY.get(module, ()):
                assert id(node) not in top_level, f"{module} imports {name} at import time"
                continue
            assert root in allowed, f"{module} imports {name}"
            if name.startswith("attn_tui"):
                assert name.startswith("attn_tui.core"), f"{module} imports {name}"


def test_grading_a_number_loads_no_text_library():
    """The libraries for written answers load on the first written answer, not before."""
    code = (
        "import sys\n"
        "from attn_tui import paths\n"
        "from attn_tui.core.exercises.grading import grade\n"
        "lib = paths.load_all()\n"
        "ex = next(e for s in lib.sets for e in s.exercises\n"
        "          if e.kind == 'number' and not e.generated)\n"
        "grade(ex, '1')\n"
        f"print(sorted(m for m in sys.modules if m.split('.')[0] in {sorted(TEXT_LIBRARIES)!r}))\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"


def test_opening_a_store_and_counting_due_loads_no_scheduler(tmp_path):
    """The home screen counts due reviews with one query; FSRS loads at the first answer."""
    code = (
        "import sys\n"
        "from attn_tui.core.progress import ProgressStore\n"
        f"with ProgressStore.open({str(tmp_path)!r}) as store:\n"
        "    store.count_due(); store.due_cards(); store.lessons()\n"
        "    before = 'fsrs' in sys.modules\n"
        "    store.record_attempt('s', 'e', '1', correct=True, score=1.0)\n"
        "print(before, 'fsrs' in sys.modules)\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.split() == ["False", "True"]
