"""Writing a file a command was asked for (a gradebook, a figure) without ever leaving half of
one: the bytes go to a temporary file beside the target, which is then renamed into place; a
named pipe or a device (``--csv /dev/stdout``) is written into, never replaced
(:func:`attn_tui.core.files.write_output`)."""

from __future__ import annotations

import contextlib
import errno
import os
import stat
import tempfile
from collections.abc import Sequence
from pathlib import Path

from attn_tui.core.files import write_output
from attn_tui.core.parse import InputError


def resolved(protect: Sequence[Path]) -> frozenset[Path] | Sequence[Path]:
    """``protect`` resolved once, for many writes: a class's 2,000 feedback files, each checked
    against its 2,000 answer files one by one, were 4 million resolves (two minutes). A path
    that cannot be resolved leaves the list as it is: each write then reports the fault."""
    try:
        return frozenset(Path(p).resolve() for p in protect)
    except (OSError, RuntimeError):
        return protect


def write_atomic(path: Path, data: bytes, protect: frozenset[Path] | Sequence[Path] = ()) -> None:
    """Write ``data`` to ``path``; a fault is one InputError naming the path.

    ``protect`` lists files that must never be overwritten (the answer files being graded), or
    is the set :func:`resolved` made of them.
    """
    target = Path(path).expanduser()
    try:
        if isinstance(protect, frozenset):
            if target.resolve() in protect:
                raise InputError("classroom.would_overwrite", path=str(path))
        elif any(target.resolve() == Path(p).resolve() for p in protect):
            raise InputError("classroom.would_overwrite", path=str(path))
        write_output(target, data)
    except (OSError, RuntimeError) as err:  # RuntimeError: resolve() in a symlink loop
        reason = getattr(err, "strerror", None) or str(err)
        raise InputError("classroom.cannot_write", path=str(path), error=reason) from None


def write_new(path: Path, data: bytes, protect: Sequence[Path] = ()) -> bool:
    """Write ``data`` to ``path`` only if nothing is there, decided at the moment of writing.

    The bytes go to a temporary file beside the target, which is then hard-linked to the
    target's name: the link fails if anything (a file, a folder, a link, even a broken one)
    came to be there since the caller looked, so a file made in that gap is never replaced and
    a link planted there is never followed. Where the file system has no hard links, the
    target is opened with O_CREAT | O_EXCL | O_NOFOLLOW instead (a half-written file is then
    removed on a fault). False when something is there; a fault is one InputError.
    """
    target = Path(path).expanduser()
    try:
        if any(target.resolve() == Path(p).resolve() for p in protect):
            raise InputError("classroom.would_overwrite", path=str(path))
        fd, tmp = tempfile.mkstemp(prefix=f".{target.name}.", dir=target.parent)
        try:
            with os.fdopen(fd, "wb") as fh:
                fh.write(data)
            mask = os.umask(0o022)
            os.umask(mask)
            os.chmod(tmp, 0o666 & ~mask)  # mkstemp makes it owner-only; a new file is not
            try:
                os.link(tmp, target, follow_symlinks=False)
            except FileExistsError:
                return False
            except OSError as err:
                if err.errno not in (errno.EPERM, errno.EOPNOTSUPP, errno.ENOTSUP, errno.EXDEV):
                    raise
                return _write_exclusive(target, data)
        finally:
            with contextlib.suppress(OSError):
                os.unlink(tmp)
    except (OSError, RuntimeError) as err:  # RuntimeError: resolve() in a symlink loop
        reason = getattr(err, "strerror", None) or str(err)
        raise InputError("classroom.cannot_write", path=str(path), error=reason) from None
    return True


def _write_exclusive(target: Path, data: bytes) -> bool:
    flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0)
    try:
        fd = os.open(target, flags | getattr(os, "O_CLOEXEC", 0), 0o666)
    except FileExistsError:
        return False
    try:
        with os.fdopen(fd, "wb") as fh:
            fh.write(data)
    except BaseException:
        with contextlib.suppress(OSError):
            if stat.S_ISREG(os.lstat(target).st_mode):
                os.unlink(target)
        raise
    return True


def write_figure(path: Path, svg_text: str) -> None:
    """Write an SVG figure (:mod:`attn_tui.svg`) and say where on stderr; a fault is one
    InputError naming the file."""
    import sys

    from attn_tui.core.format import visible
    from attn_tui.i18n import t

    write_atomic(path, svg_text.encode("utf-8"))
    print(visible(t("classroom.fig.written", path=path), True), file=sys.stderr)
