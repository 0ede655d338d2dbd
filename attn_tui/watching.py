"""Saves of one file, as they happen: watch mode's eyes, for the shell and the app alike.

watchfiles (Rust's notify: inotify on Linux, FSEvents on macOS) watches the folder, not the
file, so an editor that saves by writing a new file and renaming it over the old one (vim,
most IDEs) is seen too. Imported lazily: the home screen does not need it.

    step      how long the folder must stay quiet before a change is reported: a save is a
              burst of events (write, rename, chmod), reported once, 30 ms after the last
    debounce  the longest a burst is gathered before it is reported anyway
    tick      how often the generator wakes with nothing (None), so the caller can read keys
              or stop
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterator
from pathlib import Path

STEP_MS = 30
DEBOUNCE_MS = 400
TICK_S = 0.2


class WatchUnavailable(Exception):
    """watchfiles cannot be imported or cannot watch this folder; ``str()`` says why."""


def saves(folder: Path, wanted: Callable[[], str | None], stop: threading.Event,
          tick: float = TICK_S) -> Iterator[Path | None]:  # fmt: skip
    """Yield the path each time the file named ``wanted()`` (a name in ``folder``, asked
    afresh at every change) is written; yield None every ``tick`` seconds of quiet."""
    try:
        import watchfiles
    except ImportError as err:  # pragma: no cover - a dependency, but an install may lack it
        raise WatchUnavailable(str(err)) from None

    def interesting(change: watchfiles.Change, path: str) -> bool:
        return change != watchfiles.Change.deleted and Path(path).name == wanted()

    try:
        for changes in watchfiles.watch(
            folder, watch_filter=interesting, debounce=DEBOUNCE_MS, step=STEP_MS,
            stop_event=stop, rust_timeout=max(1, int(tick * 1000)), yield_on_timeout=True,
            recursive=False, raise_interrupt=False,
        ):  # fmt: skip
            yield next((Path(p) for _, p in sorted(changes)), None)
    except (OSError, RuntimeError) as err:  # a folder that went away, a watch limit reached
        raise WatchUnavailable(str(err)) from None


def signature(path: Path) -> tuple[int, int] | None:
    """A file's modification time and size: a save between watchfiles' events (made before
    the watch began, or on a file system without notifications) still changes it."""
    try:
        info = path.stat()
    except OSError:
        return None
    return (info.st_mtime_ns, info.st_size)


__all__ = ["WatchUnavailable", "saves", "signature"]
