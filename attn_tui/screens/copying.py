"""What the copy key (ctrl+g) puts on the clipboard: the figure or matrix on show, as text.

A screen, or any widget on it, may define ``figure_text() -> (what, text) | None``: ``what``
names it in the learner's language ("the weights of head 1"), ``text`` is plain text that
reads on its own when pasted (numbers to the precision shown, rows and columns labelled).
The focused widget and its ancestors are asked first, then the screen's other widgets, then
the screen. Where none has a figure, the screen itself is copied, line by line, as the
learner sees it.

The text goes to the terminal's clipboard by OSC 52 (``App.copy_to_clipboard``): most
terminals take it; tmux passes it on with ``set -g set-clipboard on``; a served session's
page hands it to the browser.
"""

from __future__ import annotations

from textual.screen import Screen

from attn_tui import compat
from attn_tui.i18n import t

COPY_KEY = "ctrl+g"  # no widget of Textual's nor any screen of ours binds it
MAX_CHARS = 200_000  # of one copy: a terminal may refuse a longer OSC 52 sequence


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


def copy_figure(app) -> str:
    """Copy the figure on show (or the screen) and say what went; returns the text."""
    found = figure_of(app.screen)
    what, text = found if found else (t("app.copy.the_screen"), screen_text(app))
    text = text[:MAX_CHARS]
    app.copy_to_clipboard(text)
    lines = text.count("\n") + 1
    app.notify(t("app.copy.done", what=what, lines=lines), timeout=6)
    return text
