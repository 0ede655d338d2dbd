"""Every learner-facing string, in Chinese and English.

Each module in this package holds one area's strings as ``TEXT = {key: (zh, en)}``, and
every key starts with the module's name and a dot (``calc.title`` lives in ``calc.py``),
so areas never collide. Modules are discovered, not listed: adding ``train.py`` here is
all it takes. ``attn_tui.i18n.t`` looks keys up; ``tests/test_i18n.py`` checks that every
string exists in both languages, is non-empty and uses the same ``{placeholders}``.
"""

from __future__ import annotations

import importlib
import os

Entry = tuple[str, str]


def _areas() -> list[str]:
    """The area modules beside this file (a directory listing: pkgutil alone costs a first
    screen several milliseconds to import)."""
    names = set()
    for directory in __path__:
        for entry in os.scandir(directory):
            stem, dot, ext = entry.name.partition(".")
            if dot and ext in ("py", "pyc") and stem.isidentifier() and not stem.startswith("_"):
                names.add(stem)
    return sorted(names)


def load_catalogue() -> dict[str, Entry]:
    """Merge every area module's TEXT into one dict, refusing keys outside the area's prefix."""
    catalogue: dict[str, Entry] = {}
    for name in _areas():
        module = importlib.import_module(f"{__name__}.{name}")
        for key, entry in module.TEXT.items():
            if not key.startswith(name + "."):
                raise KeyError(f"text key {key!r} must start with {name + '.'!r}")
            catalogue[key] = entry
    return catalogue
