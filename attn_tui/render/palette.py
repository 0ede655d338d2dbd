"""The 16 ANSI colours the app's RGB themes draw in, made to read on those themes' greys.

Much of the app writes in ANSI colour names ("green" for a right answer, "yellow" for a hint,
"cyan" for what is picked out). A terminal of 16 colours draws them in its own palette, which
is the learner's to choose. On an RGB theme Textual draws them in a palette of its own, and its
stock ones do not all read on its backgrounds: Monokai's red on the dark theme's black at
4.5:1, its grey at 3.4:1; Alabaster's yellow on the light theme's grey at 2.1:1, its cyan at
3.3:1. :func:`readable` moves each colour of such a palette (not black, white or the default
ink) toward the theme's ink just far enough that it reaches ``floor`` on every background given,
keeping its hue; the app sets the two results as ``App.ansi_theme_dark`` / ``ansi_theme_light``.

:func:`draw_without_colour` is the app's word to the renderables that colour must carry
nothing (NO_COLOR, or an ANSI theme, whose 16 colours are the terminal's): heatmaps then write
their values as numbers and shade glyphs. One app runs in a process, so this is the process's.
"""

from __future__ import annotations

from collections.abc import Sequence

from rich.terminal_theme import TerminalTheme

RGB = tuple[int, int, int]

# The backgrounds text is written on in each theme: screen, surface, panel, input, the
# highlighted row of a list that has lost the focus (Textual's textual-dark / attn-light).
DARK_BACKGROUNDS: tuple[RGB, ...] = ((18, 18, 18), (30, 30, 30), (39, 39, 39), (43, 43, 43))
LIGHT_BACKGROUNDS: tuple[RGB, ...] = ((247, 247, 247), (224, 224, 224), (216, 216, 216),
                                      (208, 208, 208), (206, 206, 206))  # fmt: skip
FLOOR = 4.6  # WCAG AA for text (4.5), with a little room for rounding
KEEP = (0, 7, 8 + 7)  # black, white, bright white: drawn as backgrounds and inks as they are


def _linear(c: int) -> float:
    c = c / 255
    return c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4


_LINEAR = tuple(_linear(c) for c in range(256))  # (the app makes two palettes at start)


def luminance(rgb: RGB) -> float:
    r, g, b = rgb
    if r.__class__ is g.__class__ is b.__class__ is int and 0 <= min(r, g, b) <= max(r, g, b) < 256:
        return 0.2126 * _LINEAR[r] + 0.7152 * _LINEAR[g] + 0.0722 * _LINEAR[b]
    return 0.2126 * _linear(r) + 0.7152 * _linear(g) + 0.0722 * _linear(b)


def _ratio(x: float, y: float) -> float:
    hi, lo = (x, y) if x >= y else (y, x)
    return (hi + 0.05) / (lo + 0.05)


def contrast(a: RGB, b: RGB) -> float:
    return _ratio(luminance(a), luminance(b))


def _toward(rgb: RGB, target: RGB, u: float) -> RGB:
    (r, g, b), (tr, tg, tb) = rgb, target
    return round(r + (tr - r) * u), round(g + (tg - g) * u), round(b + (tb - b) * u)


def nearest_readable(rgb: RGB, backgrounds: Sequence[RGB], floor: float = FLOOR) -> RGB:
    """``rgb`` moved toward white (dark backgrounds) or black (light ones) in steps of 1 %
    until it reaches ``floor`` against every one of ``backgrounds``."""
    lit = [luminance(bg) for bg in backgrounds]
    dark = lit[0] < 0.18
    target: RGB = (255, 255, 255) if dark else (0, 0, 0)
    for step in range(101):
        moved = _toward(rgb, target, step / 100)
        own = luminance(moved)
        if min(_ratio(own, bg) for bg in lit) >= floor:
            return moved
    return target


def readable(
    base: TerminalTheme, backgrounds: Sequence[RGB], floor: float = FLOOR
) -> TerminalTheme:
    """``base`` with each colour but black and white made to read on ``backgrounds``."""
    colours = [tuple(c) for c in base.ansi_colors]
    for n, rgb in enumerate(colours):
        if n not in KEEP:
            colours[n] = nearest_readable(rgb, backgrounds, floor)  # type: ignore[arg-type]
    return TerminalTheme(
        tuple(base.background_color), tuple(base.foreground_color),  # type: ignore[arg-type]
        colours[:8], colours[8:],  # type: ignore[arg-type]
    )  # fmt: skip


_without_colour = [False]


def draw_without_colour(on: bool) -> None:
    """Say whether colour may carry a value (the app calls this whenever its theme changes)."""
    _without_colour[0] = on


def without_colour() -> bool:
    return _without_colour[0]


# The quieter part of a list's row (a description, a count, a number): the plain ink, never
# "dim". A highlighted row draws on the theme's colour, where dim text fell to 2.5:1; the bold
# title beside it still sets it apart.
MUTED = ""
