"""The editor inside the app (Textual's TextArea, imported only when it opens) and the view
of a solution. Python is highlighted when tree-sitter and its Python grammar are installed
(``pip install 'attn-tui[syntax]'``); without them the editor works as plain text."""

from __future__ import annotations

import importlib.util
from pathlib import Path

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import Static

from attn_tui.core import files
from attn_tui.core.coding.loader import SOURCE_LIMIT
from attn_tui.core.coding.model import CodeExercise
from attn_tui.i18n import get_lang, t
from attn_tui.screens.base import TutorFooter, describe_binding
from attn_tui.widgets.localized import tr


def python_highlighting() -> str | None:
    """ "python" when the TextArea can highlight it here, else None (plain text)."""
    found = importlib.util.find_spec
    return "python" if found("tree_sitter") and found("tree_sitter_python") else None


class KeysModal(ModalScreen[bool]):
    """Footer keys of a modal in the learner's language, as TutorScreen does."""

    @property
    def active_bindings(self):  # type: ignore[override]
        from dataclasses import replace

        out = {}
        for key, active in super().active_bindings.items():
            text = describe_binding(active.binding.description)
            out[key] = active._replace(binding=replace(active.binding, description=text))
        return out


class EditorScreen(KeysModal):
    """Edit one file; ctrl+s writes it (whole or not at all), Esc closes. Dismissed with True
    when something was saved."""

    CSS_PATH = "code.tcss"
    BINDINGS = [
        Binding("ctrl+s", "save", "code.key.save", priority=True),
        Binding("escape", "close", "code.key.close", priority=True),
    ]

    def __init__(self, file: Path) -> None:
        super().__init__()
        self.file = Path(file)
        self.saved = False
        self._warned = False

    def compose(self) -> ComposeResult:
        from textual.widgets import TextArea

        try:
            text = files.read_text(self.file, SOURCE_LIMIT)
        except files.FileFault:
            text = ""
        with Vertical(id="code-editor"):
            yield Static(str(self.file), id="code-editor-title")
            area = TextArea.code_editor(
                text,
                language=python_highlighting(),
                id="code-area",
                theme="monokai" if python_highlighting() else "css",
            )
            yield area
        yield TutorFooter()

    def on_mount(self) -> None:
        self.query_one("#code-area").focus()
        self._original = self.query_one("#code-area").text  # type: ignore[attr-defined]

    def action_save(self) -> None:
        text = self.query_one("#code-area").text  # type: ignore[attr-defined]
        try:
            files.write_output(self.file, text.encode("utf-8"))
        except OSError as err:
            self.notify(t("code.cannot_make", path=str(self.file), error=err.strerror or ""),
                        severity="error")  # fmt: skip
            return
        self._original = text
        self.saved = True
        self.notify(t("code.editor_saved", file=self.file.name), timeout=2)

    def action_close(self) -> None:
        text = self.query_one("#code-area").text  # type: ignore[attr-defined]
        if text != self._original and not self._warned:
            self._warned = True  # a second Esc discards
            self.notify(t("code.editor_unsaved"), severity="warning", timeout=4)
            return
        self.dismiss(self.saved)


class SourceScreen(KeysModal):
    """A solution, read-only, with its explanation."""

    CSS_PATH = "code.tcss"
    BINDINGS = [Binding("escape", "close", "code.key.close", priority=True)]

    def __init__(self, exercise: CodeExercise) -> None:
        super().__init__()
        self.exercise = exercise

    def compose(self) -> ComposeResult:
        from textual.widgets import TextArea

        text = files.read_text(self.exercise.solution, SOURCE_LIMIT)
        with Vertical(id="code-editor"):
            yield tr(Static(id="code-editor-title"), "code.solution_title",
                     file=self.exercise.file)  # fmt: skip
            yield TextArea.code_editor(
                text,
                language=python_highlighting(),
                read_only=True,
                id="code-area",
                theme="monokai" if python_highlighting() else "css",
            )
            why = self.exercise.explanation.get(get_lang())
            yield Static(t("code.explanation") + t("code.colon") + why, id="code-editor-note")
        yield TutorFooter()

    def action_close(self) -> None:
        self.dismiss(False)


__all__ = ["EditorScreen", "SourceScreen", "python_highlighting"]
