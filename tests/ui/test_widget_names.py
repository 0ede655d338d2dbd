"""No widget or screen of ours shadows a name its Textual base class already uses.

A method or an attribute set in ``__init__`` with a Textual name replaces Textual's own:
``_render`` (a widget's render pipeline), ``_options`` (OptionList's list), ``layers`` (a
style), ``_nodes`` (the children), ``scroll_home`` (a scroll method) each broke a screen in a
way no type checker sees. Overriding on purpose (``compose``, handlers, ``check_action`` ...)
is listed here.
"""

import ast
import importlib
import inspect
import pkgutil

import pytest
from textual.dom import DOMNode

import attn_tui.screens
import attn_tui.widgets

MEANT = {  # names our classes override on purpose
    "DEFAULT_CSS", "BINDINGS", "CSS_PATH", "HELP", "AUTO_FOCUS", "COMPONENT_CLASSES",
    "compose", "render", "check_action", "active_bindings", "refresh_bindings", "can_focus",
    "BUTTON_INNER", "virtual_size", "HORIZONTAL_BREAKPOINTS", "render_line",
    "notify_style_update",
    "_watch_expanded",  # PanelSelect: Textual's private hook, the one way to fit the menu
    "bindings_changed",  # TutorFooter: its keys composed at once, in the screen's first frame
}  # fmt: skip


def modules():
    for package in (attn_tui.widgets, attn_tui.screens):
        for info in pkgutil.walk_packages(package.__path__, package.__name__ + "."):
            yield info.name


def defined_names(node: ast.ClassDef) -> set[str]:
    """Methods and class attributes of the class, and what its __init__ sets on self."""
    names = set()
    for item in node.body:
        if isinstance(item, ast.FunctionDef | ast.AsyncFunctionDef):
            names.add(item.name)
            if item.name == "__init__":
                for sub in ast.walk(item):
                    targets = sub.targets if isinstance(sub, ast.Assign) else (
                        [sub.target] if isinstance(sub, ast.AnnAssign) else [])  # fmt: skip
                    for target in targets:
                        for e in ast.walk(target):
                            if (isinstance(e, ast.Attribute) and isinstance(e.value, ast.Name)
                                    and e.value.id == "self"):  # fmt: skip
                                names.add(e.attr)
        elif isinstance(item, ast.Assign | ast.AnnAssign):
            for target in item.targets if isinstance(item, ast.Assign) else [item.target]:
                if isinstance(target, ast.Name):
                    names.add(target.id)
    return names


def textual_names(cls: type) -> set[str]:
    base = next(c for c in cls.__mro__[1:] if c.__module__.startswith("textual"))
    names = set(dir(base))
    try:
        names |= set(vars(base()))
    except Exception:
        pass
    return names


def clashes(module_name: str) -> list[str]:
    module = importlib.import_module(module_name)
    found = []
    for node in ast.walk(ast.parse(inspect.getsource(module))):
        if not isinstance(node, ast.ClassDef):
            continue
        cls = getattr(module, node.name, None)
        if not (inspect.isclass(cls) and issubclass(cls, DOMNode)
                and cls.__module__ == module_name):  # fmt: skip
            continue
        theirs = textual_names(cls)
        for name in sorted(defined_names(node) & theirs):
            if name in MEANT or name.startswith(("__", "on_", "watch_", "action_", "_on_")):
                continue
            found.append(f"{cls.__name__}.{name}")
    return found


@pytest.mark.parametrize("module_name", sorted(modules()))
def test_no_textual_name_is_shadowed(module_name):
    assert clashes(module_name) == []


def test_the_check_sees_a_shadowed_name(tmp_path, monkeypatch):
    source = (
        "from textual.widgets import OptionList\n"
        "class Bad(OptionList):\n"
        "    def _options(self):\n"
        "        return []\n"
    )
    (tmp_path / "shadowing_example.py").write_text(source)
    monkeypatch.syspath_prepend(str(tmp_path))
    assert clashes("shadowing_example") == ["Bad._options"]
