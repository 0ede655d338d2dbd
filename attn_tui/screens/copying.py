"""What the copy key (ctrl+g) puts on the clipboard: the figure or matrix on show, as text.

A screen, or any widget on it, may define ``figure_text() -> (what, text) | None``: ``what``
names it in the learner's language ("the weights of head 1"), ``text`` is plain text that
reads on its own when pasted (numbers to the precision shown, rows and columns labelled).
The focused widget and its ancestors are asked first, then the screen's other widgets, then
the screen. Where none has a figure, the screen itself is copied, line by line, as the
learner sees it.

The text goes to the terminal's clipboard by OSC 52 (``App.copy_to_clipboard``): most
terminals take it; tmux passes it on with ``set -g set-clipboard on``; a served session's
page hands it to the browser. Where the escape goes nowhere (over SSH into a terminal that
does not take OSC 52, or tmux without set-clipboard) nothing says so, so the text is also
written to ``copied.txt`` in the data folder (the last copy; one file, replaced whole) and
the toast names it. A served session writes no file: its learner has only the browser.
"""

from __future__ import annotations

from pathlib import Path

from textual.screen import Screen

from attn_tui import compat
from attn_tui.core.errors import InputError
from attn_tui.i18n import describe, t

COPY_KEY = "ctrl+g"  # no widget of Textual's nor any screen of ours binds it
MAX_CHARS = 200_000  # of one copy: a terminal may refuse a longer OSC 52 sequence
COPIED_FILE = "copied.txt"  # in the data folder: the last copy, for a clipboard that got none


def figure_of(screen: Screen) -> tuple[str, str] | None:
    """(what, text) of the first widget or screen that has a figure on show, else None."""
    focused = screen.focused
    candidates = list(focused.ancestors_with_self) if focused is not None else []
    candidates += [w for w in screen.query("*") if w not in candidates]
    candidates.append(screen)
    for node in candidates:
        provide = getattr(node, "figure_text", None)
        if callable(provide) and getattr(node, "display", True):
            found = provide()
            if found:
                return found
    return None


def screen_text(app) -> str:
    """The screen as plain text, as the learner sees it (trailing blanks dropped)."""
    lines = [strip.text.rstrip() for strip in compat.screen_strips(app)]
    while lines and not lines[-1]:
        lines.pop()
    return "\n".join(lines)


def copied_path(app) -> Path:
    """Where the last copy is written: ``copied.txt`` in the app's data folder."""
    from attn_tui import paths

    return paths.data_dir(getattr(app, "data_dir", None)) / COPIED_FILE


def write_copy(path: Path, text: str) -> None:
    """The copy as UTF-8, the file replaced whole (never half written). OSError if it cannot."""
    from attn_tui.core import files

    path.parent.mkdir(parents=True, exist_ok=True)
    files.write_output(path, (text + "\n").encode("utf-8"))


def copy_figure(app) -> str:
    """Copy the figure on show (or the screen), write it to the data folder too (but in a
    served session), and say what went and where; returns the text."""
    found = figure_of(app.screen)
    what, text = found if found else (t("app.copy.the_screen"), screen_text(app))
    text = text[:MAX_CHARS]
    app.copy_to_clipboard(text)
    lines = text.count("\n") + 1
    if app.is_web:
        app.notify(t("app.copy.sent", what=what, lines=lines), timeout=6)
        return text
    try:
        path = copied_path(app)
    except InputError as err:  # a data folder of "~nouser/…"
        app.notify(t("app.copy.not_written", what=what, lines=lines, path=COPIED_FILE,
                     why=describe(err)), timeout=8)  # fmt: skip
        return text
    try:
        write_copy(path, text)
    except OSError as err:
        app.notify(t("app.copy.not_written", what=what, lines=lines, path=str(path),
                     why=err.strerror or type(err).__name__), timeout=8)  # fmt: skip
        return text
    app.notify(t("app.copy.done", what=what, lines=lines, path=str(path)), timeout=8)
    return text
