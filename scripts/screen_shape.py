"""The shape of the UI code: lines per file, methods per class, reactives, query_one calls.

    .venv/bin/python scripts/screen_shape.py [ROOT]     # ROOT: a checkout (default: this one)

Prints one row per file under ``attn_tui/screens``, ``attn_tui/widgets`` and ``attn_tui/render``
(lines, classes, the largest class and its method count, reactives, ``query_one`` calls,
``__dict__`` uses), then the totals. Run it on two checkouts to compare a refactor's before and
after; it reads the source only (``ast``), it imports nothing.
"""

from __future__ import annotations

import ast
import sys
from pathlib import Path

FOLDERS = ("screens", "widgets", "render")
REACTIVE = {"reactive", "var", "Reactive"}


def _calls(node: ast.AST, name: str) -> int:
    return sum(
        1
        for n in ast.walk(node)
        if isinstance(n, ast.Call)
        and (getattr(n.func, "attr", None) == name or getattr(n.func, "id", None) == name)
    )


def _is_reactive(value: ast.AST | None) -> bool:
    if not isinstance(value, ast.Call):
        return False
    func = value.func
    return getattr(func, "id", None) in REACTIVE or getattr(func, "attr", None) in REACTIVE


def shape(path: Path) -> dict:
    source = path.read_text(encoding="utf-8")
    tree = ast.parse(source)
    classes = []
    reactives = 0
    for node in ast.walk(tree):
        if isinstance(node, ast.ClassDef):
            methods = [
                n for n in node.body if isinstance(n, ast.FunctionDef | ast.AsyncFunctionDef)
            ]
            classes.append((node.name, len(methods)))
            for item in node.body:
                value = item.value if isinstance(item, ast.Assign | ast.AnnAssign) else None
                reactives += _is_reactive(value)
    biggest = max(classes, key=lambda c: c[1], default=("", 0))
    return {
        "lines": len(source.splitlines()),
        "classes": len(classes),
        "biggest": biggest,
        "reactives": reactives,
        "query_one": _calls(tree, "query_one"),
        "dict": source.count("__dict__"),
    }


def main() -> None:
    root = Path(sys.argv[1] if len(sys.argv) > 1 else ".").resolve()
    totals = {"lines": 0, "classes": 0, "reactives": 0, "query_one": 0, "dict": 0}
    print(f"{'file':<40} {'lines':>5} {'cls':>4} {'largest class (methods)':<34} "
          f"{'react':>5} {'q_one':>5} {'dict':>4}")  # fmt: skip
    for folder in FOLDERS:
        base = root / "attn_tui" / folder
        for path in sorted(base.rglob("*.py")) if base.is_dir() else ():
            s = shape(path)
            name, methods = s["biggest"]
            print(f"{str(path.relative_to(root / 'attn_tui')):<40} {s['lines']:>5} "
                  f"{s['classes']:>4} {f'{name} ({methods})' if name else '':<34} "
                  f"{s['reactives']:>5} {s['query_one']:>5} {s['dict']:>4}")  # fmt: skip
            for key in totals:
                totals[key] += s[key]
    print(f"{'total':<40} {totals['lines']:>5} {totals['classes']:>4} {'':<34} "
          f"{totals['reactives']:>5} {totals['query_one']:>5} {totals['dict']:>4}")  # fmt: skip


if __name__ == "__main__":
    main()
