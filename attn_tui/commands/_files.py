"""Writing a file a command was asked for (a gradebook, a figure) without ever leaving half of
one: the bytes go to a temporary file beside the target, which is then renamed into place."""

from __future__ import annotations

import os
import tempfile
from collections.abc import Sequence
from pathlib import Path

from attn_tui.core.parse import InputError


def write_atomic(path: Path, data: bytes, protect: Sequence[Path] = ()) -> None:
    """Write ``data`` to ``path``; a fault is one InputError naming the path.

    ``protect`` lists files that must never be overwritten (the answer files being graded).
    """
    target = Path(path).expanduser()
    if any(target.resolve() == Path(p).resolve() for p in protect):
        raise InputError("classroom.would_overwrite", path=str(path))
    folder = target.parent if str(target.parent) else Path(".")
    try:
        fd, tmp = tempfile.mkstemp(prefix=f".{target.name}.", dir=folder)
    except OSError as err:
        raise InputError("classroom.cannot_write", path=str(path), error=err.strerror) from None
    try:
        with os.fdopen(fd, "wb") as fh:
            fh.write(data)
        os.chmod(tmp, 0o666 & ~_umask())  # mkstemp makes it owner-only; a new file is not
        os.replace(tmp, target)
    except OSError as err:
        Path(tmp).unlink(missing_ok=True)
        raise InputError("classroom.cannot_write", path=str(path), error=err.strerror) from None


def _umask() -> int:
    mask = os.umask(0o022)
    os.umask(mask)
    return mask
