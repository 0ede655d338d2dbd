"""Text that follows the language: widgets marked with a catalogue key, redrawn in place.

``tr(widget, key)`` fills a widget from the catalogue now and records the key (and the
attribute it fills: its content, a label, a placeholder, a border title) so that
:func:`localize_tree` can fill it again after the language changes. Widgets whose text is
computed rather than looked up define ``relocalize()``, which :func:`localize_tree` calls too,
in the order the widgets appear.

The marks live here, in a weak dictionary, not on the widgets: a widget removed from the screen
takes its mark with it.
"""

from __future__ import annotations

from typing import Any, TypeVar
from weakref import WeakKeyDictionary

from textual.dom import DOMNode
from textual.widget import Widget

from attn_tui.i18n import t

W = TypeVar("W", bound=Widget)

_marks: WeakKeyDictionary[Widget, dict[str, tuple[str, dict[str, Any]]]] = WeakKeyDictionary()


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
    _marks.setdefault(widget, {})[attr] = (key, params)
    _apply(widget, attr, key, params)
    return widget


def localize_tree(root: DOMNode) -> None:
    """Re-apply every mark under ``root`` and let each widget redraw what it computes."""
    for widget in root.query("*"):
        for attr, (key, params) in _marks.get(widget, {}).items():
            _apply(widget, attr, key, params)
        relocalize = getattr(widget, "relocalize", None)
        if relocalize is not None:
            relocalize()
