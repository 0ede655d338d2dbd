"""What every screen of the tutor shares: redrawing in the other language, in place.

Widgets that show catalogue text are marked with :func:`~attn_tui.widgets.localized.tr`
(which records the text key and the attribute it fills); when ``app.lang`` changes,
:meth:`TutorScreen.localize` re-applies every mark, lets every widget with a ``relocalize``
redraw what it computes, then calls the screen's own ``relocalize``. Binding descriptions
are text keys too, translated in :attr:`TutorScreen.active_bindings`, so the Footer, the help
overlay and the command palette all follow the language without special cases.
"""

from __future__ import annotations

import gc
from dataclasses import replace

from textual.binding import ActiveBinding
from textual.compose import compose
from textual.events import Event, ScreenResume, ScreenSuspend
from textual.screen import ModalScreen, Screen
from textual.widgets import Footer

from attn_tui.compat import drop_closed_watchers, footer_composes_now, styled_as_now
from attn_tui.i18n import catalogue, t
from attn_tui.widgets.localized import localize_tree


def describe_binding(description: str) -> str:
    """A binding's description is a text key where it names one; Textual's own are looked up
    as ``app.textual.<description>`` and stay as they are when the catalogue has no entry."""
    if description in catalogue():
        return t(description)
    own = f"app.textual.{description}"
    return t(own) if own in catalogue() else description


class TutorFooter(Footer):
    """The footer, compact so that an area's keys fit in 80 columns (Ctrl+P still works, and
    the help overlay lists it).

    Its keys are in the screen's first frame: Textual's Footer composes none until the screen
    first publishes its bindings, and then rebuilds itself only after the next refresh (a
    second frame, every key composed again). That first publication comes as the screen gets
    its focus, or at the latest as it is put on show, both before its first frame: the keys
    are composed then and there. Later changes are Textual's (TutorScreen.refresh_bindings
    publishes only those that change what the footer shows). A screen whose keys depend on
    its first layout (``TutorScreen.FOOTER_AT_ONCE = False``) keeps Textual's way: composed
    at once, its footer would show a key for a frame that the layout then takes away."""

    _keys_composed = False

    def __init__(self) -> None:
        super().__init__(show_command_palette=False, compact=True)

    def bindings_changed(self, screen: Screen) -> None:
        if (not self._keys_composed and self.is_attached and screen is self.screen
                and screen.app.app_focus and getattr(screen, "FOOTER_AT_ONCE", True)):  # fmt: skip
            self._keys_composed = True
            footer_composes_now(self)
            self.mount_all(compose(self))
            return
        super().bindings_changed(screen)


def freeze_heap() -> None:
    """Move every object alive now out of the garbage collector's sight (``gc.freeze``).

    Textual, Rich, numpy and our screens leave ~100,000 long-lived objects, and each full
    (generation 2) collection walked them all: ~40 ms, on about one keystroke in twenty in
    the calculator, which put that key's frame three frames late. Frozen objects are never
    walked again; a full collection then walks only what came after (~6 ms). Done when the
    app is ready and when an area's screen first opens (they live as long as the app), so
    the garbage frozen with them is bounded; a screen pushed and popped is not frozen.
    """
    gc.freeze()


class TutorScreen(Screen):
    """A screen whose text follows ``app.lang``.

    ``HELP`` lists (title key, body key) pairs the help overlay shows for this screen.
    """

    HELP: tuple[tuple[str, str], ...] = ()
    FOOTER_AT_ONCE = True  # the footer's keys in the first frame (see TutorFooter)

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self._take_breakpoints()

    def _take_breakpoints(self) -> None:
        """Give the screen the breakpoint classes of the app's size now, before it is styled.

        Textual sets them when the screen gets its first Resize, just after its first frame:
        a screen with breakpoints (the calculator) was drawn once at the wrong widths, then
        restyled whole and laid out again. With the classes right from the start, that Resize
        changes nothing. (Textual's rule: of a dimension's breakpoints, the largest at or
        below the size gives its class.)"""
        try:
            width, height = self.app.size
        except Exception:  # made outside a running app: Textual sets them on its Resize
            return
        horizontal = (self.HORIZONTAL_BREAKPOINTS if self.HORIZONTAL_BREAKPOINTS is not None
                      else self.app.HORIZONTAL_BREAKPOINTS) or []  # fmt: skip
        vertical = (self.VERTICAL_BREAKPOINTS if self.VERTICAL_BREAKPOINTS is not None
                    else self.app.VERTICAL_BREAKPOINTS) or []  # fmt: skip
        if not (horizontal or vertical):
            return
        classes = {name: False for _, name in (*horizontal, *vertical)}
        for size, breakpoints in ((width, horizontal), (height, vertical)):
            for at, name in sorted(breakpoints, reverse=True):
                if size >= at:
                    classes[name] = True
                    break
        self.update_classes(classes, update=False)

    _relabel_pending = False  # a language switch waits to be drawn (see _language_changed)
    _shown_bindings: tuple | None = None  # what the footer was last built from
    _suspended = False  # put out of sight since its styles were last refreshed
    returned = False  # the ScreenResume being handled brings it back from out of sight

    async def on_event(self, event: Event) -> None:
        """A screen shown for the first time keeps the styles its widgets were given as they
        were registered: Textual restyles the whole screen on every ScreenResume, and a mode's
        first switch sends two, so every widget of a new area was styled three times over
        (half the time the trainer took to open). Once it has been out of sight (suspended),
        a resume restyles it as Textual does; ``returned`` says which kind of resume it is."""
        if isinstance(event, ScreenSuspend):
            self._suspended = True
        elif isinstance(event, ScreenResume):
            self.returned = self._suspended
            if not self._suspended:
                event.refresh_styles = False
            self._suspended = False
        await super().on_event(event)

    def on_mount(self) -> None:
        # styled as composed: the first switch back to it re-parses no stylesheet (compat)
        styled_as_now(self, self.app)
        self.watch(self.app, "lang", self._language_changed, init=False)
        if self.app.screen_stack[:1] == [self]:  # an area's own screen, kept while the app runs
            self.call_after_refresh(freeze_heap)

    def _language_changed(self, _lang: str) -> None:
        """Redraw in the new language once, however many switches arrive before it is drawn.

        Holding F2 sends a switch every 30 ms or so, and a redraw can take longer: drawing each
        one in turn left a queue that took 25 s to drain. A screen out of sight waits until it
        is shown again.
        """
        if self._relabel_pending:
            return
        self._relabel_pending = True
        if self._in_sight():
            self.call_later(self._relabel)

    def _in_sight(self) -> bool:
        """On show: the current screen, or beneath overlays only (the help, a dialog), which
        leave its panels and footer in view — those must not stay in the old language."""
        stack = self.app.screen_stack
        if self not in stack:
            return False
        above = stack[stack.index(self) + 1 :]
        return all(isinstance(screen, ModalScreen) for screen in above)

    def _relabel(self) -> None:
        if self._relabel_pending and self.is_attached:
            self._relabel_pending = False
            self.localize()

    def on_screen_resume(self, _event: ScreenResume) -> None:
        if self._relabel_pending:
            self.call_later(self._relabel)

    def refresh_bindings(self) -> None:
        """Rebuild the footer only when what it shows changed, and never leak its old keys."""
        for footer in self.query(Footer):
            drop_closed_watchers(footer)
        try:
            shown = tuple(
                (key, b.binding.description, b.enabled)
                for key, b in self.active_bindings.items()
                if b.binding.show
            )
        except Exception:  # mid-teardown: let Textual decide
            shown = None
        if shown is not None and shown == self._shown_bindings:
            return
        self._shown_bindings = shown if self.app.app_focus else None  # else it is not rebuilt
        super().refresh_bindings()

    def localize(self) -> None:
        """Re-apply every ``tr`` mark, redraw computed content, relabel the footer."""
        localize_tree(self)
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
