"""The heatmaps' colours (issue 26, item 31): a ramp every reader sees rising, numbers that read
on every cell of it, and maps that still carry their values where there is no colour at all.

How the colour-blind check works: each colour of the ramp is passed through the simulation of
Machado, Oliveira & Fernandes (2009, severity 1: a full protanopia, deuteranopia or
tritanopia), applied in linear RGB, and its WCAG luminance is taken. A ramp a reader can read
as "lighter = more" has that luminance rising from each step to the next, for the normal eye
and for each simulated one, and spanning a wide range end to end. (The old navy→teal→amber
ramp passed this too, over a narrower span, 0.01–0.58 against cividis's 0.02–0.79; what it
failed was its numbers, drawn in the terminal's white, which Textual's palette makes
(196, 197, 181), on teal at 3.2:1, and under NO_COLOR or in 16 colours its shading alone was
blank cells.)
"""

from __future__ import annotations

import io

import numpy as np
import pytest
from rich.console import Console

from attn_tui.render import palette
from attn_tui.render.attention_views import ModelView
from attn_tui.render.heatmap import SPARK, Heatmap, contrast, ink_on, luminance, shade

# Machado et al. 2009, Table 1 at severity 1.0 (linear RGB → simulated linear RGB)
SIMULATIONS = {
    "normal": np.eye(3),
    "protanopia": np.array(
        [[0.152286, 1.052583, -0.204868], [0.114503, 0.786281, 0.099216],
         [-0.003882, -0.048116, 1.051998]]
    ),
    "deuteranopia": np.array(
        [[0.367322, 0.860646, -0.227968], [0.280085, 0.672501, 0.047413],
         [-0.011820, 0.042940, 0.968881]]
    ),
    "tritanopia": np.array(
        [[1.255528, -0.076749, -0.178779], [-0.078411, 0.930809, 0.147602],
         [0.004733, 0.691367, 0.303900]]
    ),
}  # fmt: skip


def _linear(rgb) -> np.ndarray:
    c = np.asarray(rgb, float) / 255
    return np.where(c <= 0.04045, c / 12.92, ((c + 0.055) / 1.055) ** 2.4)


def seen_luminance(rgb, how: str) -> float:
    lin = np.clip(SIMULATIONS[how] @ _linear(rgb), 0, 1)
    return float(lin @ [0.2126, 0.7152, 0.0722])


RAMP_SAMPLES = [shade(k / 63) for k in range(64)]


@pytest.mark.parametrize("how", list(SIMULATIONS))
def test_the_ramp_rises_in_lightness_for_every_eye(how):
    seen = [seen_luminance(rgb, how) for rgb in RAMP_SAMPLES]
    steps = np.diff(seen)
    assert (steps > 0).all(), (how, np.round(seen, 3))
    assert seen[-1] - seen[0] > 0.5, (how, seen[0], seen[-1])  # dark end to light end


def test_the_simulation_is_the_published_one():
    """Each matrix keeps white white (its rows sum to 1), and a deuteranope cannot tell a
    red from a green of the same lightness that a normal eye tells apart at once."""
    for matrix in SIMULATIONS.values():
        assert np.allclose(matrix.sum(axis=1), 1, atol=1e-3)
    red, green = _linear((200, 80, 60)), _linear((100, 140, 60))
    normal_gap = np.abs(red - green).max()
    deutan = SIMULATIONS["deuteranopia"]
    assert np.abs(deutan @ red - deutan @ green).max() < normal_gap / 3


def test_every_cell_of_the_ramp_takes_a_number_that_reads():
    for rgb in RAMP_SAMPLES:
        assert contrast(ink_on(rgb), rgb) >= 4.5, rgb
    assert luminance((255, 255, 255)) == pytest.approx(1) and luminance((0, 0, 0)) == 0


def _draw(renderable, color_system: str | None, no_color: bool = False, width: int = 60):
    console = Console(
        file=io.StringIO(), width=width, color_system=color_system, no_color=no_color,
        force_terminal=True,
    )  # fmt: skip
    return list(console.render(renderable, console.options))


def _coloured(segments) -> bool:
    """Any colour but the plain ink of a Text (rich gives a no-colour console's segments
    none at all; without colour the renderable sets none of its own)."""
    return any(s.style and (s.style.color or s.style.bgcolor) for s in segments)


WEIGHTS = np.array([[0.7, 0.2, 0.1], [0.05, 0.9, 0.05], [0.3, 0.3, 0.4]])


@pytest.mark.parametrize("how", ["console", "app"])
def test_without_colour_the_shading_is_drawn_in_glyphs(how):
    """Shading alone (the numbers do not fit) drew blank cells told apart by background only:
    under NO_COLOR, or squeezed into 16 colours, a blank page. Without colour is a console
    of no colour, or the app's word (NO_COLOR, an ANSI theme)."""
    heat = Heatmap(WEIGHTS, ["a", "b", "c"], ["x", "y", "z"], all_or_shade=True, places=4)
    palette.draw_without_colour(how == "app")
    segments = _draw(heat, "truecolor", how == "console", width=14)  # 4 decimals do not fit
    text = "".join(s.text for s in segments)
    assert not _coloured(segments)
    rows = [line for line in text.splitlines() if line[:1] in "abc"]
    assert rows[1].count("█") >= 2 and rows[1].count("░") >= 4  # b: low, high, low
    assert set(rows[0]) & set(SPARK)


def test_in_colour_the_numbers_are_black_or_white_on_the_ramp():
    heat = Heatmap(WEIGHTS, ["a", "b", "c"], ["x", "y", "z"])
    segments = [s for s in _draw(heat, "truecolor") if s.style and s.style.bgcolor]
    assert segments
    for s in segments:
        fg = s.style.color.get_truecolor()
        bg = s.style.bgcolor.get_truecolor()
        assert contrast(tuple(fg), tuple(bg)) >= 4.5, (s.text, fg, bg)


def test_the_model_view_without_colour_writes_each_weight_as_a_glyph():
    weights = np.zeros((1, 1, 4, 4))
    weights[0, 0] = np.eye(4)[::-1]  # a reversal anti-diagonal
    segments = _draw(ModelView(weights), "truecolor", no_color=True)
    lines = "".join(s.text for s in segments).splitlines()
    grid = [line[:4] for line in lines[2:6]]
    assert grid == ["░░░█", "░░█░", "░█░░", "█░░░"]
    assert not _coloured(segments)
