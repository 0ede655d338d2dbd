"""Where things live: the data directory (progress) and the folders of exercise sets.

Kept outside ``core`` because it asks platformdirs; the core takes plain Paths.

    data dir   : --data-dir  >  $ATTN_TUI_DATA_DIR  >  platformdirs.user_data_dir("attn-tui")
    exercises  : shipped (package attn_tui.exercises: sets/ and quiz/), then each --exercises DIR,
                 then <data dir>/exercises — a set id may appear once; later copies are reported
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable, Mapping
from importlib.resources import files
from pathlib import Path

from attn_tui.core.exercises.loader import FileCache, library_files, load_library
from attn_tui.core.exercises.model import Library
from attn_tui.core.parse import InputError

ENV_DATA_DIR = "ATTN_TUI_DATA_DIR"
APP_NAME = "attn-tui"
LAST_TRANSFORMER = "transformer.npz"  # the last Transformer trained in the app


def data_dir(explicit: Path | None = None, environ: Mapping[str, str] | None = None) -> Path:
    """The data directory (not created here). InputError cli.home_unknown for ``~nouser/x``."""
    if explicit is not None:
        return _expand(Path(explicit))
    env = os.environ if environ is None else environ
    if env.get(ENV_DATA_DIR):
        return _expand(Path(env[ENV_DATA_DIR]))
    import platformdirs  # only when needed: the bare launch stays quick

    return Path(platformdirs.user_data_dir(APP_NAME))


def _expand(path: Path) -> Path:
    try:
        return path.expanduser()
    except RuntimeError:  # "~nouser/x": no such user, or no home directory
        raise InputError("cli.home_unknown", path=str(path)) from None


def last_transformer(data: Path) -> Path:
    """Where the app keeps the last Transformer it trained (the lab opens it)."""
    return Path(data) / LAST_TRANSFORMER


def shipped_exercises() -> Path:
    """The exercises folder inside the installed package (``sets/`` and ``quiz/`` below it)."""
    return Path(str(files("attn_tui.exercises")))


def shipped_files() -> list[Path]:
    """Every shipped set and quiz file, sets first."""
    root = shipped_exercises()
    return [p for sub in ("sets", "quiz") for p in sorted((root / sub).glob("*.toml"))]


def exercise_sources(
    extra: Iterable[Path] = (), data: Path | None = None
) -> list[tuple[Path, str]]:
    """(folder, source) pairs in load order: shipped, --exercises folders, <data dir>/exercises."""
    root = shipped_exercises()
    sources = [(root / "sets", "shipped"), (root / "quiz", "shipped")]
    sources += [(Path(folder).expanduser(), "extra") for folder in extra]
    if data is not None:
        sources.append((Path(data) / "exercises", "data"))
    return sources


def course_sources(extra: Iterable[Path] = (), data: Path | None = None) -> list[tuple[Path, str]]:
    """Where lessons are read from: the shipped ``course/`` folder, then each --exercises
    folder and ``<data dir>/exercises`` (a teacher's lesson files, told apart by ``[lesson]``)."""
    sources = [(shipped_exercises() / "course", "shipped")]
    sources += [(Path(folder).expanduser(), "extra") for folder in extra]
    if data is not None:
        sources.append((Path(data) / "exercises", "data"))
    return sources


def load_course(extra: Iterable[Path] = (), data: Path | None = None,
                library: Library | None = None):  # fmt: skip
    """The course path (``core.course.lessons.Course``), its items checked against ``library``
    (the sets as :func:`load_all` gives them; loaded here when not given)."""
    from attn_tui.core.course.lessons import load_course as load

    if library is None:
        library = load_all(extra, data)
    code_ids = {e.id for e in load_code(extra, data).exercises}
    return load(course_sources(extra, data), library, code_ids)


def code_sources(extra: Iterable[Path] = (), data: Path | None = None) -> list[tuple[Path, str]]:
    """Where code exercises are: the shipped ``code/`` folder, then ``code/`` in each
    --exercises folder and in ``<data dir>/exercises``."""
    from attn_tui.core.coding.loader import CODE_FOLDER

    folders = [(shipped_exercises() / CODE_FOLDER, "shipped")]
    folders += [(Path(folder).expanduser() / CODE_FOLDER, "extra") for folder in extra]
    if data is not None:
        folders.append((Path(data) / "exercises" / CODE_FOLDER, "data"))
    return folders


def load_code(extra: Iterable[Path] = (), data: Path | None = None):
    """Every code set (``attn_tui.core.coding.model.CodeLibrary``), broken files listed."""
    from attn_tui.core.coding.loader import load_code_library

    return load_code_library(code_sources(extra, data))


def load_all(
    extra: Iterable[Path] = (),
    data: Path | None = None,
    progress: Callable[[int, int, Path], None] | None = None,
) -> Library:
    """Every set and quiz bank the app can show; broken files listed in ``library.broken``.

    ``extra`` is ``args.exercises`` / the App's ``extra_exercises``; ``data`` the data directory.
    A file whose bytes have not changed since this process (or the serve pool it was forked
    from) last loaded it is not parsed again (``FileCache``); ``progress(done, total, path)``
    hears of each file before it is read.
    """
    return load_library(exercise_sources(extra, data), progress, _FILES)


def unread_bytes(extra: Iterable[Path] = (), data: Path | None = None) -> int:
    """Bytes of the library's files that this process has not read as they are now: what
    :func:`load_all` would parse (a screen loads at once when that is little, and in the
    background, with progress shown, when it is a teacher's megabytes)."""
    files = [path for path, _ in library_files(exercise_sources(extra, data))]
    return _FILES.unread_bytes(files)


_FILES = FileCache()  # this process's: shared by every screen, and by a served class's forks
