"""Every character the app can draw is as wide to Rich, which lays out the screen, as to the
terminal, which draws it.

Rich measures a character with its own table (``rich.cells.cell_len``); tmux, xterm and the
other terminals measure it with wcwidth, which follows the Unicode East Asian Width property
(W and F: two cells; the rest: one). Where the two disagree, every row holding that character
is one cell off on the terminal: the row's right border is drawn twice (the home screen's
"☰ The path" row showed ``▎▎`` at its end). So no such character may appear in what the app
draws: its code (labels built in Python), its texts (the TOML strings of both languages) and
the exercises.
"""

from __future__ import annotations

import unicodedata
from pathlib import Path

from rich.cells import cell_len

import attn_tui

PACKAGE = Path(attn_tui.__file__).resolve().parent
EXERCISES = PACKAGE.parent / "exercises"


def terminal_width(ch: str) -> int:
    """The width wcwidth gives a printable, non-combining character."""
    return 2 if unicodedata.east_asian_width(ch) in "WF" else 1


def drawn_characters() -> dict[str, set[str]]:
    """Each non-ASCII printable character of the app's sources and texts → the files holding it."""
    files = [p for root in (PACKAGE, EXERCISES) if root.is_dir() for p in root.rglob("*")
             if p.suffix in {".py", ".toml", ".tcss", ".md"}]  # fmt: skip
    found: dict[str, set[str]] = {}
    for path in files:
        for ch in set(path.read_text(encoding="utf-8")):
            if ord(ch) < 0x80 or unicodedata.category(ch)[0] in "CM":
                continue  # ASCII, controls and formats, combining marks
            found.setdefault(ch, set()).add(path.name)
    return found


def test_the_sources_hold_wide_and_narrow_characters():
    """The scan sees what it must judge: Chinese text (two cells) and box glyphs (one)."""
    found = drawn_characters()
    assert "注" in found and terminal_width("注") == cell_len("注") == 2
    assert "▎" in found and terminal_width("▎") == cell_len("▎") == 1


def test_rich_and_the_terminal_agree_on_every_drawn_character():
    disagree = {
        f"{ch} U+{ord(ch):04X} {unicodedata.name(ch, '?')}: Rich {cell_len(ch)}, "
        f"terminal {terminal_width(ch)} ({', '.join(sorted(files))})"
        for ch, files in drawn_characters().items()
        if cell_len(ch) != terminal_width(ch)
    }
    assert not disagree, "\n".join(sorted(disagree))


def test_the_check_catches_a_character_rich_measures_wider():
    """U+2630 ☰ is one cell to wcwidth (East Asian Width N) and two to Rich."""
    assert cell_len("☰") != terminal_width("☰")
