"""How readable the screen on show is: every letter's contrast against its background, as a
terminal would draw it (WCAG's contrast ratio, 1 to 21).

A segment's colours are taken as the driver would send them: RGB as they are, ANSI colours
and "default" in the terminal palette the app maps them with (``app.ansi_theme``), reverse
video swapped, dim text drawn halfway to its background. With ``sixteen_colours`` RGB colours
are first squeezed to the 16 standard ones, as Rich does for a 16-colour terminal.

Over a dialog only the dialog is read: the screen beneath is dimmed on purpose.

Box-drawing and block characters (U+2500–U+259F: borders, scrollbars, bars, shading) and
Braille (lines drawn as bright as a weight) are left out: they draw shapes, not text, and
several are meant to be faint. Text must reach TEXT_FLOOR, a symbol (▼ ◆ ✓ ✗) GLYPH_FLOOR.
"""

from __future__ import annotations

import unicodedata
from dataclasses import dataclass

from rich.cells import cell_len
from rich.color import ColorSystem
from textual.screen import ModalScreen

from attn_tui import compat

TEXT_FLOOR = 4.5  # the least contrast a letter, digit or mark of text may have (WCAG AA)
GLYPH_FLOOR = 3.0  # of a symbol drawn as a part of the interface: ▼ ◆ ✓ → (WCAG's for UI parts)
FLOOR = GLYPH_FLOOR  # (the floor of every character, where one is asked for)


def floor_of(ch: str) -> float:
    """A symbol (Unicode's S* categories: arrows, shapes, check marks) is a UI glyph; every
    other character is text. A terminal has no "large" text: bold letters are text too."""
    return GLYPH_FLOOR if unicodedata.category(ch).startswith("S") else TEXT_FLOOR


def _linear(c: int) -> float:
    c = c / 255
    return c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4


def luminance(rgb: tuple[int, int, int]) -> float:
    r, g, b = rgb
    return 0.2126 * _linear(r) + 0.7152 * _linear(g) + 0.0722 * _linear(b)


def ratio(a: tuple[int, int, int], b: tuple[int, int, int]) -> float:
    hi, lo = sorted((luminance(a), luminance(b)), reverse=True)
    return (hi + 0.05) / (lo + 0.05)


@dataclass(frozen=True)
class Cell:
    y: int
    x: int
    char: str
    contrast: float
    fg: tuple[int, int, int]
    bg: tuple[int, int, int]


def _rgb(color, theme, foreground: bool, sixteen: bool) -> tuple[int, int, int]:
    if color is None:
        c = theme.foreground_color if foreground else theme.background_color
        return (c.red, c.green, c.blue)
    if sixteen and color.is_system_defined is False:
        color = color.downgrade(ColorSystem.STANDARD)
    c = color.get_truecolor(theme, foreground=foreground)
    return (c.red, c.green, c.blue)


def _shape(ch: str) -> bool:
    """Box drawing, blocks and shading (U+2500–U+259F), and Braille (U+2800–U+28FF: the lab's
    lines between tokens, as bright as their weight, so faint on purpose)."""
    return "\u2500" <= ch <= "\u259f" or "\u2800" <= ch <= "\u28ff"


def _read_regions(app) -> list | None:
    """Where a learner reads: over a dialog (a ModalScreen), the dialog's own boxes, not the
    screen beneath that it dims on purpose; else everywhere (None)."""
    screen = app.screen
    if not isinstance(screen, ModalScreen):
        return None
    return [child.region for child in screen.children if child.display]


def cells(app, sixteen_colours: bool = False, palette=None) -> list[Cell]:
    """Every letter on the screen now, with its contrast; ANSI colours and "default" in
    ``palette`` (a Rich TerminalTheme; else the app's own, ``app.ansi_theme``)."""
    theme = palette or app.ansi_theme
    regions = _read_regions(app)
    out: list[Cell] = []
    for y, strip in enumerate(compat.screen_strips(app)):
        x = 0
        for seg in strip:
            text, style = seg.text, seg.style
            if style is None or seg.control:
                x += len(text)
                continue
            fg = _rgb(style.color, theme, True, sixteen_colours)
            bg = _rgb(style.bgcolor, theme, False, sixteen_colours)
            if style.reverse:
                fg, bg = bg, fg
            if style.dim:
                fg = tuple(round((f + b) / 2) for f, b in zip(fg, bg, strict=True))
            for ch in text:
                seen = regions is None or any(r.contains(x, y) for r in regions)
                if seen and not ch.isspace() and not _shape(ch):
                    out.append(Cell(y, x, ch, ratio(fg, bg), fg, bg))
                x += cell_len(ch)
    return out


def unreadable(
    app, floor: float | None = None, sixteen_colours: bool = False, palette=None
) -> list[str]:
    """Runs of characters drawn below their floor (``floor`` for every one, if given; else
    :func:`floor_of`), one line each: the row, the characters, the worst contrast and the
    colours, so a failure says what to fix."""
    found: dict[tuple, list[Cell]] = {}
    for cell in cells(app, sixteen_colours, palette):
        if cell.contrast < (floor_of(cell.char) if floor is None else floor):
            found.setdefault((cell.y, cell.fg, cell.bg), []).append(cell)
    return [
        f"row {y}: {''.join(c.char for c in run)[:40]!r} {min(c.contrast for c in run):.2f} "
        f"fg={fg} bg={bg}"
        for (y, fg, bg), run in sorted(found.items())
    ]
