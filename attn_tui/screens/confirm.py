"""A yes/no question in a small box over the screen: "Reset this set?", "Leave the quiz?".

Dismissed with True (y, Enter on Yes) or False (n, Esc, Enter on No). Its words follow F2.
"""

from __future__ import annotations

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.screen import ModalScreen
from textual.widgets import Button, Static

from attn_tui.i18n import t
from attn_tui.render.prose import Prose


class ConfirmScreen(ModalScreen[bool]):
    DEFAULT_CSS = """
    ConfirmScreen {
        align: center middle;
    }
    ConfirmScreen #confirm-box {
        width: 60;
        max-width: 100%;
        height: auto;
        max-height: 100%;
        border: heavy $warning;
        background: $surface;
        padding: 0 1;
    }
    ConfirmScreen #confirm-buttons {
        height: 1;
        margin-top: 1;
        align: center middle;
    }
    ConfirmScreen Button {
        margin: 0 2;
    }
    ConfirmScreen Button:focus {
        text-style: reverse bold;
    }
    """
    BINDINGS = [
        Binding("y", "answer(True)", "app.confirm.yes", show=False),
        Binding("n", "answer(False)", "app.confirm.no", show=False),
        Binding("escape", "answer(False)", "app.confirm.no", show=False),
        Binding("left,right", "app.focus_next", show=False),
        # A modal screen hides the app's own keys: F2 is passed on, so it works here too.
        Binding("f2", "app.toggle_lang", "app.key.lang", show=False),
    ]

    def __init__(self, question_key: str, yes_key: str, no_key: str, **params: object) -> None:
        super().__init__()
        self.question_key, self.yes_key, self.no_key = question_key, yes_key, no_key
        self.params = params

    def compose(self) -> ComposeResult:
        with Vertical(id="confirm-box"):
            yield Static(id="confirm-question")
            with Horizontal(id="confirm-buttons"):
                yield Button(id="yes", compact=True, variant="warning")
                yield Button(id="no", compact=True, variant="primary")

    def on_mount(self) -> None:
        self.watch(self.app, "lang", self._draw, init=True)
        self.query_one("#no", Button).focus()  # the safe answer is the default

    def _draw(self, _lang: str | None = None) -> None:
        self.query_one("#confirm-question", Static).update(
            Prose(t(self.question_key, **self.params))
        )
        self.query_one("#yes", Button).label = f"{t(self.yes_key)} (y)"
        self.query_one("#no", Button).label = f"{t(self.no_key)} (n)"

    def action_answer(self, yes: bool) -> None:
        self.dismiss(yes)

    @on(Button.Pressed, "#yes")
    def _yes(self) -> None:
        self.dismiss(True)

    @on(Button.Pressed, "#no")
    def _no(self) -> None:
        self.dismiss(False)
