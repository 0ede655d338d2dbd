"""The package's layers run one way, with no circle, and no screen grows past a size a reader can
hold: read from the source (every import, at the top or inside a function), nothing is run.

Layers, from the ground up (a module imports only from layers below its own, or from its own
package):

    core                     numpy and the standard library (test_import_hygiene.py)
    text, watching           the string catalogue; saves of one file (watchfiles)
    i18n, paths, compat      languages; where things live; Textual's private hooks
    coursebook               the course as the app loaded it (library, lessons, store)
    render                   Rich renderables (no Textual)
    widgets                  Textual widgets (they draw with render)
    screens, svg             one screen per file; figures as SVG
    app                      the App
    serve, commands          attn-tui serve; the headless commands (``serve`` starts a server)
    cli                      the front door
    __main__                 python -m attn_tui

Known exceptions are listed below with who removes them; the lists only shrink: a test fails
when an entry is no longer needed, so the one who mends it also deletes the entry.
"""

from __future__ import annotations

import ast
import functools
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PACKAGE = ROOT / "attn_tui"

LAYERS = [
    {"core", "attn_tui"},  # attn_tui: the package's face (__init__), which imports nothing
    {"text", "watching"},
    {"i18n", "paths", "compat"},
    {"coursebook"},
    {"render"},
    {"widgets"},
    {"screens", "svg"},
    {"app"},
    {"serve", "commands"},
    {"cli"},
    {"__main__"},
]
SIDEWAYS = {("commands", "serve")}  # the serve command starts the server

# Upward imports still to be moved, as (importer, imported) modules.
UPWARD_ALLOWED: set[tuple[str, str]] = set()

# Circles still to be broken, each a sorted list of modules (none: the lesson-state marks that
# made screens/home <-> screens/path live in screens/path, which home imports).
CIRCLES_ALLOWED: list[list[str]] = []

SCREEN_LINES = 500  # no file in screens/ longer
CLASS_METHODS = 40  # no class with more methods
# Ceilings while a screen is split: may only go down, then go (issue 21 emptied both).
SCREEN_LINES_ALLOWED: dict[str, int] = {}
CLASS_METHODS_ALLOWED: dict[str, int] = {}


@functools.cache
def tree(path: Path) -> ast.Module:
    return ast.parse(path.read_text("utf-8"))


def module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


MODULES = {module_name(p): p for p in sorted(PACKAGE.rglob("*.py"))}


def imports(module: str) -> set[str]:
    """The package's modules that ``module`` imports, anywhere in its source."""
    path = MODULES[module]
    package = module if path.name == "__init__.py" else module.rsplit(".", 1)[0]
    found: set[str] = set()
    for node in ast.walk(tree(path)):
        names: list[str] = []
        if isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")[: len(package.split(".")) - node.level + 1]
                source = ".".join(base + ([node.module] if node.module else []))
            else:
                source = node.module or ""
            names = [source] + [f"{source}.{alias.name}" for alias in node.names]
        for name in names:
            while name and name not in MODULES:  # a name inside a module: the module
                name = name.rpartition(".")[0]
            if name and name != module:
                found.add(name)
    return found


GRAPH = {module: imports(module) for module in MODULES}


def unit(module: str) -> str:
    """The top-level part of the package a module belongs to: core, screens, app, …"""
    parts = module.split(".")
    return parts[1] if len(parts) > 1 else parts[0]


def rank(module: str) -> int:
    name = unit(module)
    for level, names in enumerate(LAYERS):
        if name in names:
            return level
    raise AssertionError(f"{module}: {name} is in no layer; add it to LAYERS in this file")


def upward_imports() -> set[tuple[str, str]]:
    found = set()
    for module, targets in GRAPH.items():
        for target in targets:
            if unit(module) == unit(target) or (unit(module), unit(target)) in SIDEWAYS:
                continue
            if rank(target) >= rank(module):
                found.add((module, target))
    return found


def test_every_part_of_the_package_has_a_layer():
    for module in MODULES:
        rank(module)


def test_imports_run_down_the_layers_only():
    found = upward_imports()
    assert found - UPWARD_ALLOWED == set(), "imports up or sideways; see the layers above"
    assert UPWARD_ALLOWED - found == set(), "no longer needed: delete from UPWARD_ALLOWED"


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected groups of more than one module (Tarjan's algorithm)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    groups: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in sorted(graph.get(v, ())):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            group = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                group.append(w)
                if w == v:
                    break
            if len(group) > 1:
                groups.append(sorted(group))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return groups


def test_no_modules_import_each_other_in_a_circle():
    found = cycles(GRAPH)
    assert [c for c in found if c not in CIRCLES_ALLOWED] == []
    assert [c for c in CIRCLES_ALLOWED if c not in found] == [], "gone: delete from CIRCLES_ALLOWED"


def test_the_circle_finder_finds_a_circle():
    graph = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}
    assert cycles(graph) == [["a", "b", "c"]]


def test_no_screen_file_is_longer_than_a_reader_can_hold():
    too_long = {}
    for path in sorted((PACKAGE / "screens").glob("*.py")):
        name = path.relative_to(ROOT).as_posix()
        lines = len(path.read_text("utf-8").splitlines())
        ceiling = SCREEN_LINES_ALLOWED.get(name, SCREEN_LINES)
        if lines > ceiling:
            too_long[name] = (lines, ceiling)
        if name in SCREEN_LINES_ALLOWED and lines <= SCREEN_LINES:
            too_long[name] = (lines, "under the limit now: delete its SCREEN_LINES_ALLOWED entry")
    assert too_long == {}


def test_no_class_has_more_methods_than_a_reader_can_hold():
    too_many = {}
    for path in sorted(PACKAGE.rglob("*.py")):
        for node in ast.walk(tree(path)):
            if not isinstance(node, ast.ClassDef):
                continue
            name = f"{path.relative_to(ROOT).as_posix()}:{node.name}"
            methods = sum(isinstance(b, ast.FunctionDef | ast.AsyncFunctionDef) for b in node.body)
            ceiling = CLASS_METHODS_ALLOWED.get(name, CLASS_METHODS)
            if methods > ceiling:
                too_many[name] = (methods, ceiling)
            if name in CLASS_METHODS_ALLOWED and methods <= CLASS_METHODS:
                too_many[name] = (methods, "under the limit now: delete its allowed entry")
    assert too_many == {}
    assert set(CLASS_METHODS_ALLOWED) <= {f"{p}:{c}" for p, c in _classes()}, "a class was renamed"


def _classes():
    for path in sorted(PACKAGE.rglob("*.py")):
        for node in ast.walk(tree(path)):
            if isinstance(node, ast.ClassDef):
                yield path.relative_to(ROOT).as_posix(), node.name


def private_textual_imports(path: Path) -> list[str]:
    """``textual._x`` or ``textual.widgets._y`` imported by this file."""
    found = []
    for node in ast.walk(tree(path)):
        names = []
        if isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and not node.level:
            names = [node.module or ""]
            names += [f"{node.module}.{alias.name}" for alias in node.names]
        for name in names:
            parts = name.split(".")
            if parts[0] == "textual" and any(part.startswith("_") for part in parts[1:]):
                found.append(name)
    return found


def test_only_compat_imports_textuals_private_modules():
    compat = PACKAGE / "compat.py"
    files = [
        p
        for folder in ("attn_tui", "tests", "benchmarks", "scripts")
        for p in sorted((ROOT / folder).rglob("*.py"))
    ]
    found = {
        p.relative_to(ROOT).as_posix(): private_textual_imports(p) for p in files if p != compat
    }
    assert {name: hits for name, hits in found.items() if hits} == {}
    assert private_textual_imports(compat), "compat.py is where they are"


def test_the_private_hooks_are_used_through_compat_only():
    hooks = ("_mounted_event", '"__watchers"', "_watch_expanded")
    users = {}
    for path in sorted(PACKAGE.rglob("*.py")):
        if path.name == "compat.py":
            continue
        text = path.read_text("utf-8")
        if hits := [hook for hook in hooks if hook in text]:
            users[path.relative_to(ROOT).as_posix()] = hits
    assert users == {}


def test_the_layers_name_every_part_once():
    seen: defaultdict[str, int] = defaultdict(int)
    for names in LAYERS:
        for name in names:
            seen[name] += 1
    assert all(count == 1 for count in seen.values())


def test_renderables_never_import_textual():
    """render/ is Rich only: its pieces draw in the headless commands and the SVG export."""
    found = []
    for path in sorted((PACKAGE / "render").rglob("*.py")):
        for node in ast.walk(tree(path)):
            names = [a.name for a in node.names] if isinstance(node, ast.Import) else (
                [node.module or ""] if isinstance(node, ast.ImportFrom) else [])  # fmt: skip
            found += [f"{path.name}: {n}" for n in names if n.split(".")[0] == "textual"]
    assert found == []
