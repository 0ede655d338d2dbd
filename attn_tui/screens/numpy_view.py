"""The numpy behind the screen: a window over the calculator or the lab showing the short
numpy that computes what is on show (``attn_tui.core.attention.as_numpy``), highlighted."""

from __future__ import annotations

from rich.syntax import Syntax
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.screen import Screen
from textual.widgets import Static

from attn_tui.core.attention import as_numpy
from attn_tui.core.attention.lab import LabResult
from attn_tui.core.attention.steps import AttentionSteps
from attn_tui.screens.base import TutorFooter
from attn_tui.screens.code_editor import KeysModal
from attn_tui.widgets.localized import tr


def source_for(screen: Screen) -> str | None:
    """The numpy for what ``screen`` shows: the calculator's steps or the lab's layer, found
    as the ``result`` the screen (or one of its widgets) holds; None when it holds none."""
    holders = [screen, *screen.query("*")]
    for holder in holders:
        result = getattr(holder, "result", None)
        if isinstance(result, AttentionSteps):
            return as_numpy.calculator(result)
        if isinstance(result, LabResult):
            return as_numpy.lab(result)
    return None


class NumpyScreen(KeysModal):
    CSS_PATH = "code.tcss"
    BINDINGS = [Binding("escape", "close", "code.key.close", priority=True)]

    def __init__(
        self, source: str, title: str = "code.numpy_title", note: str = "code.numpy_note"
    ) -> None:
        """``source`` shown highlighted under the text keys ``title`` and ``note``."""
        super().__init__()
        self.source = source
        self.title_key, self.note_key = title, note

    def compose(self) -> ComposeResult:
        with VerticalScroll(id="numpy-view"):
            yield tr(Static(id="numpy-title"), self.title_key)
            yield tr(Static(id="numpy-note"), self.note_key)
            yield Static(Syntax(self.source, "python", theme="ansi_dark", line_numbers=False,
                                word_wrap=True), id="numpy-code")  # fmt: skip
        yield TutorFooter()

    def action_close(self) -> None:
        self.dismiss(False)


__all__ = ["NumpyScreen", "source_for"]
