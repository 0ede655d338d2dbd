"""Shared pieces for tests that drive the app: a clean data dir, and reading what a widget shows."""

import pytest
from rich.console import Console


@pytest.fixture(autouse=True)
def _isolated(tmp_path, monkeypatch):
    """Each app test gets its own data directory and a fixed language default."""
    monkeypatch.setenv("ATTN_TUI_DATA_DIR", str(tmp_path / "data"))
    monkeypatch.setenv("LANG", "en_US.UTF-8")
    monkeypatch.delenv("LC_ALL", raising=False)
    monkeypatch.delenv("LC_MESSAGES", raising=False)
    yield
    from attn_tui import i18n
    from attn_tui.render import palette

    i18n.set_lang("en")
    palette.draw_without_colour(False)  # (an app under NO_COLOR said so for the process)


def shown(widget, width: int = 60) -> str:
    """The plain text a Static currently shows, rendered at `width` columns."""
    console = Console(width=width, record=True, file=open("/dev/null", "w"), color_system=None)
    console.print(widget.content)
    return console.export_text()


def screen_lines(app) -> list[str]:
    """Every row of the terminal as the learner sees it now (overlays and toasts included)."""
    return [strip.text for strip in app.screen._compositor.render_strips()]
