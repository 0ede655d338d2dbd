"""Each student's own progress folder: ``<data dir>/students/<folder>/progress.db``.

A name comes from a browser (typed on the first screen, or ``?name=`` in the address), so it is
hostile input. Two names are the same student exactly when their *canonical* forms are equal,
and the canonical form is, in this order:

1. Unicode **NFKC** normalisation: compatibility characters become the plain ones they stand
   for — full-width ``ａｎｎ`` is ``ann``, the ligature ``ﬁ`` is ``fi``, ``Ⅸ`` is ``IX``, ``²`` is
   ``2``, the Kelvin sign ``K`` is ``K``, an accent typed apart (``e`` + U+0301) is ``é``;
2. white space (any kind, any amount) made one space, and none at either end;
3. Unicode **full case folding** (``str.casefold``): ``ANN`` is ``ann``, ``ß`` is ``ss`` (so
   ``Weiß`` is ``Weiss``), the long ``ſ`` is ``s``, final ``ς`` is ``σ``.

Nothing else folds: accents stay (``José`` is not ``Jose``), and so do scripts. A canonical
name is refused (:class:`BadName`, with the reason's text key) when it is empty, longer than
:data:`MAX_NAME` characters, holds a control or format character (which include the invisible
zero-width ones), or mixes letters of two scripts that have look-alikes of each other — Latin,
Greek, Cyrillic, Armenian, Cherokee, Coptic: a Latin ``ann`` whose ``а`` is Cyrillic would
otherwise be another student with a folder that looks the same. One script throughout
(``анна``, ``Ἀλέξανδρος``) is a name like any other, and so are Chinese, Japanese and Korean
with any of them (``李 Lee``), which nobody takes for one another.

The folder is derived from the canonical name alone:

- a name made only of letters, digits and ``_`` (any script: ``alice``, ``李雷``) is its own
  folder name;
- any other name (``Ann Lee``, ``o'neil``, ``../bob``) becomes its letters, digits and ``_``
  followed by ``-`` and 16 hex digits of the canonical name's SHA-256 (``ann_lee-3f1c…``).

Plain folder names never contain ``-`` and hashed ones always do, so two different canonical
names never share a folder, and no name can reach outside ``students/``: the folder name has no
separator, no dot, and is checked again after resolving links. The same name typed again
(``Alice``, `` alice ``) finds the same folder, which is what lets a student come back.
Standard library only (the served session and its first screen both use it).
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


# Scripts whose letters include look-alikes of each other's: one name may use one of them.
LOOK_ALIKE_SCRIPTS = ("LATIN", "GREEK", "CYRILLIC", "ARMENIAN", "CHEROKEE", "COPTIC")


class BadName(ValueError):
    """A name that cannot be a student's: empty, too long, holding control characters, or
    mixing look-alike scripts."""

    def __init__(self, code: str, scripts: tuple[str, ...] = ()) -> None:
        super().__init__(code)
        self.code = code  # a text key: serve.name.empty / .long / .control / .mixed
        self.scripts = scripts  # .mixed: the scripts mixed, as LOOK_ALIKE_SCRIPTS names them

    def message(self, t) -> str:
        """The reason in words; ``t`` is ``attn_tui.i18n.t`` (the core imports no UI)."""
        names = t("ex.list_sep").join(t(f"serve.script.{s.lower()}") for s in self.scripts)
        return t(self.code, scripts=names) if self.scripts else t(self.code)


def canonical(name: str) -> str:
    """The name as it is compared (see the module's doc): NFKC, spaces collapsed and trimmed,
    case folded; BadName when it cannot be a student's."""
    if len(name) > 4 * MAX_NAME:  # bound the work before normalising a megabyte
        raise BadName("serve.name.long")
    text = _SPACES.sub(" ", unicodedata.normalize("NFKC", name)).strip().casefold()
    if not text:
        raise BadName("serve.name.empty")
    if len(text) > MAX_NAME:
        raise BadName("serve.name.long")
    if any(unicodedata.category(ch)[0] == "C" for ch in text):
        raise BadName("serve.name.control")
    scripts = _look_alike_scripts(text)
    if len(scripts) > 1:
        raise BadName("serve.name.mixed", tuple(sorted(scripts)))
    return text


def _look_alike_scripts(text: str) -> set[str]:
    """The scripts of LOOK_ALIKE_SCRIPTS that the letters of ``text`` come from."""
    found = set()
    for ch in text:
        if ch.isalpha():
            script = unicodedata.name(ch, "").split(" ", 1)[0]
            if script in LOOK_ALIKE_SCRIPTS:
                found.add(script)
    return found


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
