"""The home screen: the areas that work, one line each, Enter to open."""

from __future__ import annotations

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.widgets import Footer, OptionList, Static
from textual.widgets.option_list import Option

from attn_tui.i18n import t
from attn_tui.screens.base import TutorScreen
from attn_tui.widgets.localized import tr


class HomeScreen(TutorScreen):
    HELP = (("app.key.home", "app.help.home"),)  # (not titled "Calculator": it is the home)
    # Priority: the area opens while Enter is handled, so keys typed straight after it go to
    # the new screen (held by the app until it is mounted), not to this list. The list's moves
    # are priority too, so that "down down enter" typed at once opens the third area: a move
    # left for the list to handle later would come after the Enter.
    BINDINGS = [
        Binding("enter", "open", "app.key.open", show=True, priority=True),
        *(Binding(key, f"move('{action}')", show=False, priority=True)
          for key, action in (("down", "cursor_down"), ("up", "cursor_up"), ("home", "first"),
                              ("end", "last"), ("pagedown", "page_down"),
                              ("pageup", "page_up"))),
    ]  # fmt: skip

    def compose(self) -> ComposeResult:
        with Vertical(id="home"):
            yield tr(Static(classes="home-title"), "app.home.title")
            yield tr(Static(classes="home-intro"), "app.home.intro")
            yield OptionList(*self._options(), id="areas")
        yield Footer()

    def _options(self) -> list[Option]:
        options = []
        for mode in self.app.AREAS:
            label = Text.assemble(
                (t(f"app.area.{mode}"), "bold"), "\n", (t(f"app.area.{mode}.desc"), "dim")
            )
            options.append(Option(label, id=mode))
        return options

    def relocalize(self) -> None:
        areas = self.query_one("#areas", OptionList)
        highlighted = areas.highlighted
        areas.clear_options()
        areas.add_options(self._options())
        areas.highlighted = highlighted

    def action_move(self, action: str) -> None:
        getattr(self.query_one("#areas", OptionList), f"action_{action}")()

    def action_open(self) -> None:
        areas = self.query_one("#areas", OptionList)
        if areas.highlighted is not None:
            self.app.switch_mode(areas.get_option_at_index(areas.highlighted).id)

    @on(OptionList.OptionSelected, "#areas")
    def _selected(self, event: OptionList.OptionSelected) -> None:
        self.app.switch_mode(event.option.id)
