"""The exercise library, loaded for a screen without freezing it.

Loading is parsing and checking every set (the shipped ones, the teacher's): the shipped 0.36 MB
take a fraction of a second, but a teacher's 9.6 MB set of 400,000 checked claims took 44 s,
during which the screen ignored every key and Ctrl+Q waited. :class:`LibraryLoad` loads at once
what is little (LOAD_AT_ONCE bytes not yet read by this process: ``paths.unread_bytes``) and
the rest in a thread, telling the screen how far it has got; files already read, by this
process or by the serve pool it was forked from, are not parsed again (``paths.load_all``).
A screen uses it in two lines::

    self.load = LibraryLoad(self)                    # sets self.library, now or later
    Option(self.load.status() or t("ex.no_sets"))    # what the empty list says meanwhile

and has ``library`` set and ``redraw_list()`` called once the thread is done.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from attn_tui import paths
from attn_tui.core.exercises.model import Library
from attn_tui.i18n import t

LOAD_AT_ONCE = 1 << 20  # bytes not yet read that load while the screen opens


class LibraryLoad:
    def __init__(self, screen: Any, library: Library | None = None) -> None:
        """The library of ``screen``'s app (its ``extra_exercises`` and data directory), or
        ``library`` when it is loaded already (the course's)."""
        self.screen = screen
        self.extra: list[Path] = list(screen.app.extra_exercises)
        self.data: Path = paths.data_dir(screen.app.data_dir)
        self.progress: tuple[int, int, str] | None = None  # while loading: read, of, now
        data = self.data
        if library is not None:
            screen.library = library
            return
        if paths.unread_bytes(self.extra, data) <= LOAD_AT_ONCE:
            screen.library = paths.load_all(self.extra, data)
            return
        self.progress = (0, 0, "…")
        screen.library = Library()
        screen.run_worker(self._run, thread=True, exclusive=True, exit_on_error=False,
                          group="library")  # fmt: skip

    def status(self) -> str | None:
        """What to show while loading (None once loaded)."""
        if self.progress is None:
            return None
        done, total, name = self.progress
        return t("ex.loading_sets", done=done, total=total or "…", name=name)

    def _run(self) -> None:
        def heard(done: int, total: int, path: Path) -> None:
            self.screen.app.call_from_thread(self._told, (done, total, path.name), None)

        library = paths.load_all(self.extra, self.data, heard)
        self.screen.app.call_from_thread(self._told, None, library)

    def _told(self, progress: tuple[int, int, str] | None, library: Library | None) -> None:
        self.progress = progress
        if library is not None:
            self.screen.library = library
        if self.screen.is_mounted:
            self.screen.redraw_list()


__all__ = ["LOAD_AT_ONCE", "LibraryLoad"]
