"""The core is pure: numpy and the standard library only, never Textual or Rich."""

import pkgutil
import subprocess
import sys
from pathlib import Path

import pytest

import attn_tui.core

CORE_MODULES = sorted(
    f"attn_tui.core.{m.name}" for m in pkgutil.iter_modules(attn_tui.core.__path__)
)


def test_there_is_a_core_to_check():
    assert {"attn_tui.core.attention", "attn_tui.core.parse", "attn_tui.core.format"} <= set(
        CORE_MODULES
    )


@pytest.mark.parametrize("module", CORE_MODULES)
def test_core_module_loads_neither_textual_nor_rich(module):
    code = (
        f"import sys, {module}\n"
        "bad = sorted(m for m in sys.modules if m.split('.')[0] in "
        "{'textual', 'rich', 'platformdirs'} or (m.startswith('attn_tui.') "
        "and not m.startswith('attn_tui.core')))\n"
        "print(','.join(bad))\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "", f"{module} pulls in {out.stdout.strip()}"


@pytest.mark.parametrize("module", CORE_MODULES)
def test_core_source_imports_only_numpy_stdlib_and_core(module):
    import ast

    path = Path(attn_tui.core.__path__[0]) / (module.rsplit(".", 1)[1] + ".py")
    allowed = set(sys.stdlib_module_names) | {"numpy", "attn_tui", "__future__"}
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            names = [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom) and node.level == 0:
            names = [node.module or ""]
        else:
            continue
        for name in names:
            assert name.split(".")[0] in allowed, f"{module} imports {name}"
            if name.startswith("attn_tui"):
                assert name.startswith("attn_tui.core"), f"{module} imports {name}"
