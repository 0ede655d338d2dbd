"""How readable the screen on show is: every letter's contrast against its background, as a
terminal would draw it (WCAG's contrast ratio, 1 to 21).

A segment's colours are taken as the driver would send them: RGB as they are, ANSI colours
and "default" in the terminal palette the app maps them with (``app.ansi_theme``), reverse
video swapped, dim text drawn halfway to its background. With ``sixteen_colours`` RGB colours
are first squeezed to the 16 standard ones, as Rich does for a 16-colour terminal.

Box-drawing and block characters (U+2500–U+259F: borders, scrollbars, bars, shading) are left
out: they draw shapes, not text, and several are meant to be faint.
"""

from __future__ import annotations

from dataclasses import dataclass

from rich.color import ColorSystem

from attn_tui import compat

FLOOR = 3.0  # the least contrast any letter may have (WCAG's for large text and UI parts)


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


def cells(app, sixteen_colours: bool = False) -> list[Cell]:
    """Every letter on the screen now, with its contrast."""
    theme = app.ansi_theme
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
                if not ch.isspace() and not ("\u2500" <= ch <= "\u259f"):
                    out.append(Cell(y, x, ch, ratio(fg, bg), fg, bg))
                x += 1
    return out


def unreadable(app, floor: float = FLOOR, sixteen_colours: bool = False) -> list[str]:
    """Runs of letters drawn below ``floor``, one line each: the row, the letters, the worst
    contrast and the colours, so a failure says what to fix."""
    found: dict[tuple, list[Cell]] = {}
    for cell in cells(app, sixteen_colours):
        if cell.contrast < floor:
            found.setdefault((cell.y, cell.fg, cell.bg), []).append(cell)
    return [
        f"row {y}: {''.join(c.char for c in run)[:40]!r} {min(c.contrast for c in run):.2f} "
        f"fg={fg} bg={bg}"
        for (y, fg, bg), run in sorted(found.items())
    ]
