"""What every screen of the tutor shares: redrawing in the other language, in place.

Widgets that show catalogue text are marked with :func:`tr` (which records the text key and
the attribute it fills); when ``app.lang`` changes, :meth:`TutorScreen.localize` re-applies
every mark and the screen's own ``relocalize`` redraws computed content. Binding descriptions
are text keys too, translated in :attr:`TutorScreen.active_bindings`, so the Footer, the help
overlay and the command palette all follow the language without special cases.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any, TypeVar

from textual.binding import ActiveBinding
from textual.screen import Screen
from textual.widget import Widget

from attn_tui.i18n import catalogue, t

W = TypeVar("W", bound=Widget)


def _apply(widget: Widget, attr: str, key: str, params: dict[str, Any]) -> None:
    text = t(key, **params)
    if attr == "content":
        widget.update(text)  # type: ignore[attr-defined]
    else:
        setattr(widget, attr, text)


def tr(widget: W, key: str, attr: str = "content", **params: Any) -> W:
    """Fill ``widget.<attr>`` from the catalogue now and again after every language switch.

    ``attr`` is "content" (Static.update), "label", "placeholder", "border_title", ...
    """
    marks = widget.__dict__.setdefault("_i18n", {})
    marks[attr] = (key, params)
    _apply(widget, attr, key, params)
    return widget


def describe_binding(description: str) -> str:
    """A binding's description is a text key where it names one; Textual's own stay as they are."""
    return t(description) if description in catalogue() else description


class TutorScreen(Screen):
    """A screen whose text follows ``app.lang``.

    ``HELP`` lists (title key, body key) pairs the help overlay shows for this screen.
    """

    HELP: tuple[tuple[str, str], ...] = ()

    def on_mount(self) -> None:
        self.watch(self.app, "lang", self._language_changed, init=False)

    def _language_changed(self, _lang: str) -> None:
        self.localize()

    def localize(self) -> None:
        """Re-apply every :func:`tr` mark, redraw computed content, relabel the footer."""
        for widget in self.query("*"):
            for attr, (key, params) in widget.__dict__.get("_i18n", {}).items():
                _apply(widget, attr, key, params)
        self.relocalize()
        self.refresh_bindings()

    def relocalize(self) -> None:
        """Redraw content that is computed rather than looked up (override in screens)."""

    def help_keys(self) -> list[tuple[str, str]]:
        """(keys, what they do) for the tutor's own bindings active here, for the help overlay.

        Textual's built-in widget keys (scrolling, copying...) are left out: their descriptions
        are not catalogue keys. Keys sharing a description are merged ("F1 / ?").
        """
        merged: dict[str, list[str]] = {}
        for active in super().active_bindings.values():
            description = active.binding.description
            if description in catalogue():
                display = self.app.get_key_display(active.binding)
                keys = merged.setdefault(t(description), [])
                if display not in keys:
                    keys.append(display)
        return [(" / ".join(keys), text) for text, keys in merged.items()]

    @property
    def active_bindings(self) -> dict[str, ActiveBinding]:
        translated = {}
        for key, active in super().active_bindings.items():
            binding = active.binding
            text = describe_binding(binding.description)
            if text != binding.description:
                binding = replace(binding, description=text)
            translated[key] = active._replace(binding=binding)
        return translated
