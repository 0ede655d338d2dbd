"""Writing a file a command was asked for (a gradebook, a figure) without ever leaving half of
one: the bytes go to a temporary file beside the target, which is then renamed into place; a
named pipe or a device (``--csv /dev/stdout``) is written into, never replaced
(:func:`attn_tui.core.files.write_output`)."""

from __future__ import annotations

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


def write_figure(path: Path, svg_text: str) -> None:
    """Write an SVG figure (:mod:`attn_tui.svg`) and say where on stderr; a fault is one
    InputError naming the file."""
    import sys

    from attn_tui.core.format import visible
    from attn_tui.i18n import t

    write_atomic(path, svg_text.encode("utf-8"))
    print(visible(t("classroom.fig.written", path=path), True), file=sys.stderr)
