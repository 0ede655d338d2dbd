"""The first screen of a served session (``attn-tui serve``): who is learning?

The name picks the student's own progress folder (``attn_tui.core.students``); nothing else
opens until a usable name is given. Esc has nowhere to go from here, F2 switches the language.
"""

from __future__ import annotations

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.widgets import Footer, Input, Static

from attn_tui.core.students import BadName, canonical
from attn_tui.i18n import t
from attn_tui.render.prose import Prose
from attn_tui.screens.base import TutorScreen
from attn_tui.widgets.localized import tr
from attn_tui.widgets.panel import MessageLine


class StudentScreen(TutorScreen):
    """Dismissed with the name as typed (tidied), once it is one a student can have."""

    CSS_PATH = "student.tcss"
    HELP = (("serve.name.title", "serve.name.help"),)
    # There is nothing behind this screen to go back to: Esc stays (and leaves the footer).
    BINDINGS = [Binding("escape", "stay", show=False)]

    def action_stay(self) -> None:
        """Esc: nowhere to go before a name is given."""

    def compose(self) -> ComposeResult:
        with Vertical(id="student"):
            yield tr(Static(classes="student-title"), "serve.name.title")
            yield tr(Static(classes="student-intro"), "serve.name.intro")
            yield tr(Input(id="student-name", max_length=80), "serve.name.placeholder",
                     "placeholder")  # fmt: skip
            yield MessageLine(Prose, id="student-error", classes="error")
        yield Footer(show_command_palette=False)

    def on_mount(self) -> None:
        super().on_mount()
        self.query_one("#student-name", Input).focus()

    @on(Input.Submitted, "#student-name")
    def _submitted(self, event: Input.Submitted) -> None:
        try:
            canonical(event.value)
        except BadName as err:
            self.query_one("#student-error", MessageLine).say(err.message(t))
            return
        self.dismiss(event.value)
