"""Where things live: the data directory (progress) and the folders of exercise sets.

Kept outside ``core`` because it asks platformdirs; the core takes plain Paths.

    data dir   : --data-dir  >  $ATTN_TUI_DATA_DIR  >  platformdirs.user_data_dir("attn-tui")
    cache dir  : $ATTN_TUI_CACHE_DIR (empty: none)  >  platformdirs.user_cache_dir("attn-tui")
    exercises  : shipped (package attn_tui.exercises: sets/ and quiz/), then each --exercises DIR,
                 then <data dir>/exercises — a set id may appear once; later copies are reported
"""

from __future__ import annotations

import os
import threading
from collections.abc import Callable, Iterable, Mapping
from importlib.resources import files
from pathlib import Path

from attn_tui.core.exercises.loader import FileCache, library_files, load_library
from attn_tui.core.exercises.model import Library
from attn_tui.core.parse import InputError

ENV_DATA_DIR = "ATTN_TUI_DATA_DIR"
ENV_CACHE_DIR = "ATTN_TUI_CACHE_DIR"
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
    key = _COURSE.key(extra, data, library)
    course = _COURSE.get(key)
    if course is None:
        code_ids = {e.id for e in load_code(extra, data).exercises}
        course = load(course_sources(extra, data), library, code_ids)
        _COURSE.put(key, course)
    return course


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
    _SHIPPED.read()
    library = load_library(exercise_sources(extra, data), progress, _FILES)
    _SHIPPED.write()
    _COURSE.loaded(library)
    return library


def unread_bytes(extra: Iterable[Path] = (), data: Path | None = None) -> int:
    """Bytes of the library's files that this process has not read as they are now: what
    :func:`load_all` would parse (a screen loads at once when that is little, and in the
    background, with progress shown, when it is a teacher's megabytes)."""
    files = [path for path, _ in library_files(exercise_sources(extra, data))]
    return _FILES.unread_bytes(files)


_FILES = FileCache()  # this process's: shared by every screen, and by a served class's forks


def cache_dir(environ: Mapping[str, str] | None = None) -> Path | None:
    """Where the app keeps what it can compute again (None: nowhere)."""
    env = os.environ if environ is None else environ
    if ENV_CACHE_DIR in env:
        return _expand(Path(env[ENV_CACHE_DIR])) if env[ENV_CACHE_DIR] else None
    import platformdirs

    return Path(platformdirs.user_cache_dir(APP_NAME))


class ShippedOnDisk:
    """The shipped sets and quiz banks as the loader gave them, kept on disk between runs.

    Parsing the shipped files and checking every figure their texts claim is most of the
    course's loading (~1 s of CPU, in home's background worker at every start); what a file
    gives depends only on its bytes and on this package's code, so it is kept, like Python's
    ``__pycache__``, in the cache dir: each entry under the key the loader's FileCache uses (the
    file's path and a hash of its bytes), the whole under a fingerprint of the code of
    ``attn_tui.core`` and the versions of the package, Python and numpy. A file changed since
    has another key and is loaded afresh; other code, another fingerprint: nothing is used.
    Only shipped files are kept (a teacher's files stay in memory, as ever). An unreadable,
    damaged or foreign cache file is ignored and written anew; one that cannot be written is
    left. (Pickle: the file is the user's own, written by this app, as ``__pycache__`` is.)
    """

    NAME = "shipped-library.pickle"
    LIMIT = 64 * 1024 * 1024

    def __init__(self, cache: FileCache) -> None:
        self.cache = cache
        self._lock = threading.Lock()
        self._read_done = False
        self._kept: set[tuple] = set()  # the keys the file on disk holds

    def path(self) -> Path | None:
        folder = cache_dir()
        return None if folder is None else folder / self.NAME

    @staticmethod
    def fingerprint() -> str:
        import hashlib
        import sys

        import numpy

        from attn_tui import __version__, core

        digest = hashlib.blake2b(digest_size=20)
        root = Path(core.__file__).parent
        for path in sorted(root.rglob("*.py")):
            digest.update(path.relative_to(root).as_posix().encode() + b"\0" + path.read_bytes())
        digest.update(f"{__version__} {sys.version} {numpy.__version__}".encode())
        return digest.hexdigest()

    def read(self) -> None:
        """Put what the file holds into the cache (once per process)."""
        with self._lock:
            if self._read_done:
                return
            self._read_done = True
            try:
                entries = self._entries()
            except Exception:  # unreadable, damaged, foreign: as if there were none
                entries = []
            for key, value in entries:
                self.cache.put(key, value)
                self._kept.add(key)

    def _entries(self) -> list:
        import pickle

        path = self.path()
        if path is None:
            return []
        stored = pickle.loads(_own_bytes(path, self.LIMIT))
        if not (isinstance(stored, dict) and stored.get("fingerprint") == self.fingerprint()):
            return []
        entries = stored["entries"]
        return [(tuple(key), (value[0], list(value[1]))) for key, value in entries
                if isinstance(key, tuple) and len(key) == 4 and key[1] == "shipped"]  # fmt: skip

    def write(self) -> None:
        """Keep the shipped files' entries on disk when some were loaded afresh."""
        import pickle

        with self._lock:
            entries = self.cache.entries("shipped")
            if not entries or {key for key, _ in entries} <= self._kept:
                return
            path = self.path()
            if path is None:
                return
            blob = pickle.dumps({"fingerprint": self.fingerprint(), "entries": entries},
                                protocol=pickle.HIGHEST_PROTOCOL)  # fmt: skip
            if _write_whole(path, blob):
                self._kept = {key for key, _ in entries}


_SHIPPED = ShippedOnDisk(_FILES)


class CourseOnDisk:
    """The shipped course (its lessons checked against the shipped sets and code exercises),
    kept on disk between runs beside :class:`ShippedOnDisk`, for the common case of a learner
    with no files of their own: no --exercises folder and nothing in ``<data dir>/exercises``.
    Its key is the fingerprint of the code and a hash of the bytes of every lesson, code and
    exercise file it was made from; a library other than the one :func:`load_all` just gave is
    never looked up. Anything unusable in the file is ignored, as for ShippedOnDisk."""

    NAME = "shipped-course.pickle"

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._library: Library | None = None  # the last library load_all gave
        self._memory: tuple[str, object] | None = None

    def loaded(self, library: Library) -> None:
        self._library = library

    def key(self, extra: Iterable[Path], data: Path | None, library: Library) -> str | None:
        """None when the course is not to be kept: a teacher's files, another library."""
        import hashlib

        from attn_tui.core import files

        if list(extra) or library is not self._library:
            return None
        if data is not None and library_files([(Path(data) / "exercises", "data")]):
            return None
        folders = course_sources((), None) + code_sources((), None) + exercise_sources((), None)
        digest = hashlib.blake2b(ShippedOnDisk.fingerprint().encode(), digest_size=20)
        try:
            for path, _ in library_files(folders):
                digest.update(str(path).encode() + b"\0")
                digest.update(files.read_bytes(path, files.EXERCISE_FILE_LIMIT))
        except files.FileFault:
            return None
        return digest.hexdigest()

    def path(self) -> Path | None:
        folder = cache_dir()
        return None if folder is None else folder / self.NAME

    def get(self, key: str | None):
        if key is None:
            return None
        with self._lock:
            if self._memory is not None and self._memory[0] == key:
                return self._memory[1]
            try:
                import pickle

                from attn_tui.core.course.lessons import Course

                path = self.path()
                blob = None if path is None else _own_bytes(path, ShippedOnDisk.LIMIT)
                stored = None if blob is None else pickle.loads(blob)
            except Exception:  # unreadable, damaged, foreign: as if there were none
                return None
            if not (isinstance(stored, dict) and stored.get("key") == key
                    and isinstance(stored.get("course"), Course)):  # fmt: skip
                return None
            self._memory = (key, stored["course"])
            return stored["course"]

    def put(self, key: str | None, course: object) -> None:
        if key is None:
            return
        import pickle

        with self._lock:
            self._memory = (key, course)
            path = self.path()
            if path is None:
                return
            blob = pickle.dumps({"key": key, "course": course}, protocol=pickle.HIGHEST_PROTOCOL)
            _write_whole(path, blob)


def _own_bytes(path: Path, limit: int) -> bytes:
    """A cache file's bytes, only if it is a regular file this user owns and nobody else can
    write (what is unpickled must be what this app wrote: a file another user planted or
    could change, e.g. in a shared or world-writable cache folder, or a link, is refused)."""
    import stat

    flags = os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_NONBLOCK", 0)
    fd = os.open(path, flags)
    try:
        info = os.fstat(fd)
        mine = not hasattr(os, "geteuid") or info.st_uid == os.geteuid()
        if not (stat.S_ISREG(info.st_mode) and mine and not info.st_mode & 0o022):
            raise OSError(f"{path}: not this user's own cache file")
        if info.st_size > limit:
            raise OSError(f"{path}: too large")
        with os.fdopen(os.dup(fd), "rb") as stream:
            blob = stream.read(limit + 1)
        if len(blob) > limit:
            raise OSError(f"{path}: too large")
        return blob
    finally:
        os.close(fd)


def _write_whole(path: Path, blob: bytes) -> bool:
    """Write ``blob`` to ``path`` whole or not at all (another process may write it too)."""
    part = path.with_name(f".{path.name}.{os.getpid()}.{threading.get_ident()}")
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        create = os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0)
        fd = os.open(part, create, 0o600)  # this user's alone: only such a file is read back
        with os.fdopen(fd, "wb") as out:
            out.write(blob)
        os.replace(part, path)
    except OSError:
        try:
            part.unlink(missing_ok=True)
        except OSError:
            pass
        return False
    return True


_COURSE = CourseOnDisk()
