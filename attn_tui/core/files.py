"""Reading the files teachers and learners hand us, with every cost bounded.

An exercise set or an answer file may be anything: /dev/zero, a FIFO nobody writes to, a
directory, a symlink loop, a gigabyte, text nested 3,000 brackets deep, a key of 20,000 dotted
parts, a number with 5,000 digits. Everything here either returns the content or raises
:class:`FileFault` — a code (a text key: ``files.*``, or an older ``ex.*`` / ``quiz.*`` one),
its parameters and the line it concerns — within time linear in the size read and memory
bounded by ``limit``:

- :func:`read_text` opens without blocking, refuses what is not a regular file, and reads at
  most ``limit`` bytes (a file that grows while read is still cut off there);
- :func:`load_toml` / :func:`load_json` parse, turning deep nesting (``RecursionError``),
  over-long dotted keys (whose cost in tomllib grows with the square of their parts) and
  integers past Python's digit limit into faults with a line.

And writing the files a command is asked for (a figure, a gradebook, a saved model):
:func:`write_output` writes a regular file whole or not at all (a temporary file beside it,
then a rename) and writes *into* a named pipe or a character device (``/dev/stdout``,
``/dev/null``) instead of renaming a file over it — which replaced ``/dev/full`` or a FIFO with
a plain file whenever the directory was writable (as root, ``/dev`` is).

Standard library only, like the rest of the core.
"""

from __future__ import annotations

import errno
import json
import os
import re
import stat
import sys
import tempfile
import tomllib
from collections.abc import Callable
from pathlib import Path
from typing import IO, Any

EXERCISE_FILE_LIMIT = 16 * 2**20  # an exercise set: 10,000 exercises fit in about 10 MB
ANSWER_FILE_LIMIT = 4 * 2**20  # one learner's answers
MAX_KEY_PARTS = 16  # a.b.c = 1 has 3; tomllib's cost per key grows with parts²
_CHUNK = 2**20


class FileFault(Exception):
    """Why a file could not be read: ``code`` (a text key), ``params``, and its ``line``.
    ``texts`` names the params whose values are text keys themselves (translated too)."""

    def __init__(self, code: str, line: int = 1, texts: tuple[str, ...] = (), **params: object):
        self.code = code
        self.line = line
        self.params = params
        self.texts = texts
        super().__init__(f"{code} at line {line} {params}")


# -- reading --------------------------------------------------------------------------------

_KINDS = (
    (stat.S_ISDIR, "directory"),
    (stat.S_ISFIFO, "fifo"),
    (stat.S_ISCHR, "device"),
    (stat.S_ISBLK, "device"),
    (stat.S_ISSOCK, "socket"),
)


def read_bytes(path: Path, limit: int, within: Path | None = None) -> bytes:
    """At most ``limit`` bytes of a regular file, or FileFault (ex.unreadable, files.not_regular,
    files.too_large). Never blocks on a FIFO and never reads past ``limit``. With ``within`` (a
    folder), a file that is not inside it once links are followed (a link a student planted in
    a hand-in folder, pointing at the teacher's files) is refused unread: files.outside."""
    flags = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_CLOEXEC", 0)
    try:
        fd = os.open(path, flags)
    except OSError as err:
        raise FileFault("ex.unreadable", error=_reason(err)) from None
    except ValueError:  # a NUL byte in the name
        raise FileFault("ex.unreadable", error="invalid file name") from None
    try:
        info = os.fstat(fd)
        if within is not None and not _opened_within(path, info, within):
            raise FileFault("files.outside")
        if not stat.S_ISREG(info.st_mode):
            kind = next((name for test, name in _KINDS if test(info.st_mode)), "special")
            raise FileFault("files.not_regular", kind=f"files.kind.{kind}", texts=("kind",))
        if info.st_size > limit:
            raise FileFault("files.too_large", size=_mib(info.st_size), limit=_mib(limit))
        chunks, total = [], 0
        while total <= limit:
            chunk = os.read(fd, min(_CHUNK, limit + 1 - total))
            if not chunk:
                break
            chunks.append(chunk)
            total += len(chunk)
        if total > limit:  # it grew while we read
            raise FileFault("files.too_large", size=f"> {_mib(limit)}", limit=_mib(limit))
        return b"".join(chunks)
    except OSError as err:
        raise FileFault("ex.unreadable", error=_reason(err)) from None
    finally:
        os.close(fd)


def _opened_within(path: Path, opened: os.stat_result, folder: Path) -> bool:
    """Is the file opened at ``path`` inside ``folder``? Its resolved path must be below the
    folder's, and be the very file opened (a link swapped between the open and the check
    points at another inode)."""
    real = os.path.realpath(path)
    base = os.path.realpath(folder)
    if os.path.commonpath([real, base]) != base or real == base:
        return False
    try:
        now = os.stat(real)
    except OSError:
        return False
    return (now.st_dev, now.st_ino) == (opened.st_dev, opened.st_ino)


def read_text(path: Path, limit: int, within: Path | None = None) -> str:
    """:func:`read_bytes`, decoded as UTF-8 (a leading byte-order mark is dropped)."""
    raw = read_bytes(path, limit, within)
    try:
        return raw.decode("utf-8-sig")
    except UnicodeDecodeError as err:
        raise FileFault("ex.not_utf8", line=raw.count(b"\n", 0, err.start) + 1) from None


def _reason(err: OSError) -> str:
    return err.strerror or type(err).__name__


def _mib(size: int) -> str:
    return f"{size / 2**20:.1f} MB" if size >= 2**20 else f"{size:,} bytes"


# -- writing --------------------------------------------------------------------------------


def _target(path: Path) -> tuple[Path, os.stat_result | None]:
    """The file a write to ``path`` lands in (a symlink's target, so the link is kept) and its
    status (None: it does not exist yet). OSError for a loop; IsADirectoryError for a folder;
    a block device or a socket is refused (OSError), never written."""
    try:
        info = os.stat(path)
    except FileNotFoundError:
        return path, None
    if stat.S_ISDIR(info.st_mode):
        raise IsADirectoryError(errno.EISDIR, os.strerror(errno.EISDIR), str(path))
    if stat.S_ISREG(info.st_mode):
        return Path(os.path.realpath(path)), info
    if stat.S_ISFIFO(info.st_mode) or stat.S_ISCHR(info.st_mode):
        return path, info
    raise OSError(errno.EINVAL, "not a regular file, a pipe or a terminal", str(path))


def check_output(path: str | os.PathLike) -> None:
    """Raise the OSError :func:`write_output` would raise for ``path`` before anything was
    written, if it can be known now (a command checks before a long computation)."""
    target, info = _target(Path(path))
    if info is not None and not stat.S_ISREG(info.st_mode):
        return  # a pipe or a device: whether it takes the bytes is known only when written
    fd, tmp = tempfile.mkstemp(prefix=f".{target.name}.", dir=target.parent)
    os.close(fd)
    os.unlink(tmp)


def write_output(path: str | os.PathLike, data: bytes | Callable[[IO[bytes]], None]) -> None:
    """Write ``data`` (bytes, or a function writing into a binary file) to ``path``: a regular
    file whole or not at all, a pipe or a character device straight into it (a FIFO nobody
    reads is refused at once, not waited on). Faults are OSError, nothing else."""
    target, info = _target(Path(path))
    write = data if callable(data) else (lambda fh: fh.write(data))
    if info is not None and not stat.S_ISREG(info.st_mode):
        flags = os.O_WRONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_CLOEXEC", 0)
        try:
            fd = os.open(target, flags)  # no O_CREAT: the device or the pipe stays what it is
        except OSError as err:
            if err.errno == errno.ENXIO:  # a FIFO without a reader
                raise OSError(errno.ENXIO, "nothing is reading from this pipe", str(path)) from None
            raise
        if hasattr(os, "set_blocking"):
            os.set_blocking(fd, True)
        with os.fdopen(fd, "wb") as fh:
            write(fh)
        return
    fd, tmp = tempfile.mkstemp(prefix=f".{target.name}.", dir=target.parent)
    try:
        with os.fdopen(fd, "wb") as fh:
            write(fh)
        mode = stat.S_IMODE(info.st_mode) if info is not None else 0o666 & ~_umask()
        os.chmod(tmp, mode)  # mkstemp makes it owner-only; a new file is not
        os.replace(tmp, target)
    except BaseException:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise


def _umask() -> int:
    mask = os.umask(0o022)
    os.umask(mask)
    return mask


# -- parsing --------------------------------------------------------------------------------

_TOML_AT = re.compile(r"\s*\(at line (\d+), column (\d+)\)\s*$")
# One dotted key of more than MAX_KEY_PARTS parts (bare or quoted), on one line. The lookbehind
# starts a match only at the start of a part, so a long run of letters is scanned once.
_PART = r"""(?:[A-Za-z0-9_-]+|"[^"\n]*"|'[^'\n]*')"""
_LONG_KEY = re.compile(
    rf"(?<![A-Za-z0-9_\-\"']){_PART}(?:[ \t]*\.[ \t]*{_PART}){{{MAX_KEY_PARTS}}}"
)
_BRACKETS = re.compile(r"[\[{]")
_DIGIT_RUN = re.compile(r"[0-9_]+")


def load_toml(text: str) -> dict[str, Any]:
    """tomllib.loads, with every fault a FileFault: ex.toml_syntax (detail), files.too_deep,
    files.long_key (parts, limit), files.long_number (digits, limit)."""
    if text.count(".") >= MAX_KEY_PARTS:  # only lines with that many dots can hold such a key
        for no, row in enumerate(text.split("\n"), 1):
            if row.count(".") >= MAX_KEY_PARTS and _LONG_KEY.search(row):
                raise FileFault("files.long_key", line=no, limit=MAX_KEY_PARTS)
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as err:
        message = str(err)
        m = _TOML_AT.search(message)
        line = int(m.group(1)) if m else max(1, text.count("\n") + (not text.endswith("\n")))
        detail = _TOML_AT.sub("", message).replace(" (at end of document)", "")
        raise FileFault("ex.toml_syntax", line=line, detail=detail) from None
    except RecursionError:
        raise FileFault("files.too_deep", line=_deepest_line(text)) from None
    except ValueError:  # int() past sys.get_int_max_str_digits()
        raise _long_number(text) from None


def load_json(text: str) -> Any:
    """json.loads, with every fault a FileFault: quiz.json_syntax (detail), files.too_deep.
    An integer past the digit limit reads as a float (so as ±inf: too large, like 1e999)."""
    limit = _digit_limit()
    try:
        return json.loads(text, parse_int=lambda s: int(s) if len(s) <= limit else float(s))
    except json.JSONDecodeError as err:
        raise FileFault("quiz.json_syntax", line=err.lineno, detail=err.msg) from None
    except RecursionError:
        raise FileFault("files.too_deep", line=_deepest_line(text)) from None


def _digit_limit() -> int:
    get = getattr(sys, "get_int_max_str_digits", None)
    return (get() or 10**9) if get else 4300


def _deepest_line(text: str) -> int:
    """The line with the most opening brackets: where a too-deep nesting most likely is."""
    best, best_count, line = 1, -1, 1
    for no, row in enumerate(text.split("\n"), 1):
        count = len(_BRACKETS.findall(row))
        if count > best_count:
            best, best_count = no, count
        line = no
    return best if best_count > 0 else line


def _long_number(text: str) -> FileFault:
    limit = _digit_limit()
    for m in _DIGIT_RUN.finditer(text):
        if len(m.group()) - m.group().count("_") > limit:
            line = text.count("\n", 0, m.start()) + 1
            return FileFault("files.long_number", line=line, limit=limit)
    return FileFault("files.long_number", line=1, limit=limit)


__all__ = [
    "ANSWER_FILE_LIMIT",
    "EXERCISE_FILE_LIMIT",
    "MAX_KEY_PARTS",
    "FileFault",
    "check_output",
    "load_json",
    "load_toml",
    "read_bytes",
    "read_text",
    "write_output",
]
