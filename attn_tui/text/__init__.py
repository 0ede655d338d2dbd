"""Every learner-facing string, in Chinese and English.

Each module in this package holds one area's strings as ``TEXT = {key: (zh, en)}``, and
every key starts with the module's name and a dot (``calc.title`` lives in ``calc.py``),
so areas never collide. Modules are discovered, not listed: adding ``train.py`` here is
all it takes. ``attn_tui.i18n.t`` looks keys up in a :class:`Catalogue`, which imports an
area's module at the first lookup of one of its keys (the home screen needs three of the
twenty; all of them cost a cold start ~14 ms); ``tests/test_i18n.py`` checks that every
string exists in both languages, is non-empty and uses the same ``{placeholders}``.
"""

from __future__ import annotations

import importlib
import os
import threading
from collections.abc import Iterator, Mapping

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


def _area_text(name: str) -> dict[str, Entry]:
    """One area module's TEXT, refusing keys outside the area's prefix."""
    module = importlib.import_module(f"{__name__}.{name}")
    for key in module.TEXT:
        if not key.startswith(name + "."):
            raise KeyError(f"text key {key!r} must start with {name + '.'!r}")
    return dict(module.TEXT)


def load_catalogue() -> dict[str, Entry]:
    """Merge every area module's TEXT into one dict, refusing keys outside the area's prefix."""
    catalogue: dict[str, Entry] = {}
    for name in _areas():
        catalogue.update(_area_text(name))
    return catalogue


class Catalogue(Mapping[str, Entry]):
    """Every key of :func:`load_catalogue`, each area's module imported when a key of its area
    (the part before the first dot) is first looked up. Iterating or counting loads them all.
    Safe to share between threads (the app's background imports look strings up too)."""

    def __init__(self) -> None:
        self._entries: dict[str, Entry] = {}
        self._loaded: set[str] = set()  # areas read (or found not to exist)
        self._areas: frozenset[str] | None = None
        self._lock = threading.Lock()

    def _load(self, area: str) -> None:
        with self._lock:
            if area in self._loaded:
                return
            if self._areas is None:
                self._areas = frozenset(_areas())
            if area in self._areas:
                self._entries.update(_area_text(area))
            self._loaded.add(area)

    def load_all(self) -> Catalogue:
        for area in _areas():
            self._load(area)
        return self

    def __getitem__(self, key: str) -> Entry:
        try:
            return self._entries[key]
        except KeyError:
            area = key.partition(".")[0]
            if area in self._loaded:
                raise
        self._load(area)
        return self._entries[key]

    def __contains__(self, key: object) -> bool:
        if not isinstance(key, str):
            return False
        if key not in self._entries:
            self._load(key.partition(".")[0])
        return key in self._entries

    def __iter__(self) -> Iterator[str]:
        self.load_all()
        return iter(dict(self._entries))

    def __len__(self) -> int:
        return len(self.load_all()._entries)
