"""Each student's own progress folder: ``<data dir>/students/<folder>/progress.db``.

A name comes from a browser (typed on the first screen, or ``?name=`` in the address), so it is
hostile input. It is tidied into a *canonical* name (Unicode NFKC, spaces collapsed, case folded,
at most :data:`MAX_NAME` characters, no control characters), and the folder is derived from the
canonical name alone:

- a name made only of letters, digits and ``_`` (any script: ``alice``, ``李雷``) is its own
  folder name;
- any other name (``Ann Lee``, ``o'neil``, ``../bob``) becomes its letters, digits and ``_``
  followed by ``-`` and 16 hex digits of the canonical name's SHA-256 (``ann_lee-3f1c…``).

Plain folder names never contain ``-`` and hashed ones always do, so two different canonical
names never share a folder, and no name can reach outside ``students/``: the folder name has no
separator, no dot, and is checked again after resolving links. The same name typed again
(``Alice``, `` alice ``) finds the same folder, which is what lets a student come back.
Standard library only.
"""

from __future__ import annotations

import hashlib
import re
import unicodedata
from pathlib import Path

MAX_NAME = 40  # characters of a canonical name
STUDENTS = "students"
_SPACES = re.compile(r"\s+")
_RUNS = re.compile(r"_{2,}")
# Names Windows keeps for devices: never a folder name, even on a Linux server (copies travel).
_RESERVED = {"con", "prn", "aux", "nul", *(f"com{i}" for i in range(10)),
             *(f"lpt{i}" for i in range(10))}  # fmt: skip


class BadName(ValueError):
    """A name that cannot be a student's: empty, too long, or holding control characters."""

    def __init__(self, code: str) -> None:
        super().__init__(code)
        self.code = code  # a text key: serve.name.empty / serve.name.long / serve.name.control


def canonical(name: str) -> str:
    """The name as it is compared: NFKC, spaces collapsed and trimmed, case folded."""
    if len(name) > 4 * MAX_NAME:  # bound the work before normalising a megabyte
        raise BadName("serve.name.long")
    text = _SPACES.sub(" ", unicodedata.normalize("NFKC", name)).strip().casefold()
    if not text:
        raise BadName("serve.name.empty")
    if len(text) > MAX_NAME:
        raise BadName("serve.name.long")
    if any(unicodedata.category(ch)[0] == "C" for ch in text):
        raise BadName("serve.name.control")
    return text


def display(name: str) -> str:
    """The name as typed, tidied for showing (NFKC, spaces collapsed); call after canonical()."""
    return _SPACES.sub(" ", unicodedata.normalize("NFKC", name)).strip()


def _plain(ch: str) -> bool:
    return ch == "_" or (ch.isalnum() and ch.isprintable())


def folder_name(name: str) -> str:
    """The folder of a student's progress, from their name (see the module's doc)."""
    key = canonical(name)
    if all(_plain(ch) for ch in key) and key not in _RESERVED:
        return key
    slug = _RUNS.sub("_", "".join(ch if _plain(ch) else "_" for ch in key)).strip("_")
    slug = slug or "student"
    digest = hashlib.sha256(key.encode("utf-8")).hexdigest()[:16]
    return f"{slug}-{digest}"


def student_dir(root: Path, name: str) -> Path:
    """``root/students/<folder>``, created (owner-only) if new.

    Raises :class:`BadName` for a name that cannot be a student's, and ``OSError`` when the
    folder exists but is not a plain folder inside ``students/`` (a link placed there).
    """
    base = Path(root) / STUDENTS
    base.mkdir(parents=True, exist_ok=True)
    folder = base / folder_name(name)
    if folder.is_symlink() or (folder.exists() and not folder.is_dir()):
        raise OSError(f"{folder} is not a plain folder")
    folder.mkdir(mode=0o700, exist_ok=True)
    if folder.resolve().parent != base.resolve():
        raise OSError(f"{folder} is outside {base}")
    return folder
