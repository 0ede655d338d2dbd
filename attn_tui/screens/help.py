"""The help overlay (F1 / ?): the keys that work right now, and what each panel shows."""

from __future__ import annotations

from collections.abc import Callable

from rich.console import Group, RenderableType
from rich.padding import Padding
from rich.table import Table
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Static

from attn_tui.i18n import t
from attn_tui.render.prose import Prose


class HelpScreen(ModalScreen[None]):
    """Built from the screen beneath it: its active bindings and its HELP pairs."""

    BINDINGS = [
        Binding("escape", "dismiss", "app.key.home", show=False),
        Binding("f1", "dismiss", "app.key.help", show=False),
        Binding("question_mark", "dismiss", "app.key.help", show=False),
        # A modal screen hides the app's own keys: F2 is passed on, so it works here too.
        Binding("f2", "app.toggle_lang", "app.key.lang", show=False),
    ]

    def __init__(
        self,
        keys: list[tuple[str, str]] | Callable[[], list[tuple[str, str]]],
        panels: tuple[tuple[str, str], ...],
    ) -> None:
        """``keys`` is the list, or a function giving it in the current language (so that F2
        while the help is open redraws it in the other language)."""
        super().__init__()
        self._keys = keys
        self.panels = panels

    @property
    def keys(self) -> list[tuple[str, str]]:
        return self._keys() if callable(self._keys) else self._keys

    def compose(self) -> ComposeResult:
        with VerticalScroll(id="help-box"):
            yield Static(id="help-keys")
            yield Static(id="help-panels")

    def on_mount(self) -> None:
        self.watch(self.app, "lang", self._draw, init=True)

    def _draw(self, _lang: str | None = None) -> None:
        box = self.query_one("#help-box")
        box.border_title = t("app.help.title")
        box.border_subtitle = t("app.help.close")
        self.query_one("#help-keys", Static).update(self._render_keys())
        self.query_one("#help-panels", Static).update(self._render_panels())

    def _render_keys(self) -> Group:
        table = Table.grid(padding=(0, 2))
        table.add_column(style="bold cyan", no_wrap=True)
        table.add_column()
        table.title = t("app.help.keys")
        table.title_justify = "left"
        table.title_style = "bold"
        for key, description in self.keys:
            table.add_row(key, description)
        return Group(table, Text(""), Prose(t("app.help.global"), "dim"))

    def _render_panels(self) -> Group:
        parts: list[RenderableType] = [Text(t("app.help.panels"), style="bold")]
        for title, bodies in panel_sections(self.panels).items():
            parts.append(Text(title, style="bold cyan"))
            # (a blank line between two paragraphs on one panel)
            parts.extend(
                Padding(Prose(body), (int(i > 0), 0, 0, 2)) for i, body in enumerate(bodies)
            )
        return Group(*parts)


def panel_sections(panels: tuple[tuple[str, str], ...]) -> dict[str, list[str]]:
    """Each panel's title once, over every paragraph about it, in the order the titles first
    come: a screen may have several paragraphs on one panel (the trainer has four on its
    "Training" panel), and a heading said four times reads as four panels."""
    sections: dict[str, list[str]] = {}
    for title_key, body_key in panels:
        sections.setdefault(t(title_key), []).append(t(body_key))
    return sections
