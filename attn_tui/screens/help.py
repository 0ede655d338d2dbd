"""The help overlay (F1 / ?): the keys that work right now, and what each panel shows."""

from __future__ import annotations

from rich.table import Table
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Static

from attn_tui.i18n import t


class HelpScreen(ModalScreen[None]):
    """Built from the screen beneath it: its active bindings and its HELP pairs."""

    BINDINGS = [
        Binding("escape", "dismiss", "app.key.home", show=False),
        Binding("f1", "dismiss", "app.key.help", show=False),
        Binding("question_mark", "dismiss", "app.key.help", show=False),
    ]

    def __init__(self, keys: list[tuple[str, str]], panels: tuple[tuple[str, str], ...]) -> None:
        super().__init__()
        self.keys = keys
        self.panels = panels

    def compose(self) -> ComposeResult:
        with VerticalScroll(id="help-box") as box:
            box.border_title = t("app.help.title")
            box.border_subtitle = t("app.help.close")
            yield Static(self._render_keys(), id="help-keys")
            yield Static(self._render_panels(), id="help-panels")

    def _render_keys(self) -> Table:
        table = Table.grid(padding=(0, 2))
        table.add_column(style="bold cyan", no_wrap=True)
        table.add_column()
        table.title = t("app.help.keys")
        table.title_justify = "left"
        table.title_style = "bold"
        for key, description in self.keys:
            table.add_row(key, description)
        table.add_row("Tab", t("app.help.global"))
        return table

    def _render_panels(self) -> Text:
        text = Text()
        text.append(t("app.help.panels") + "\n", style="bold")
        for title_key, body_key in self.panels:
            text.append(t(title_key), style="bold cyan")
            text.append("  " + t(body_key) + "\n")
        return text
