"""A character plot of 2-D value points, their convex hull, and the attention output inside it."""

from __future__ import annotations

import numpy as np
from rich.text import Text

LABELS = "123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ"


def convex_hull(points: np.ndarray) -> list[tuple[float, float]]:
    """Andrew's monotone chain; the hull's corners in counter-clockwise order."""
    pts = sorted({(float(x), float(y)) for x, y in points})
    if len(pts) <= 2:
        return pts

    def cross(o, a, b):
        return (a[0] - o[0]) * (b[1] - o[1]) - (a[1] - o[1]) * (b[0] - o[0])

    lower: list[tuple[float, float]] = []
    upper: list[tuple[float, float]] = []
    for p in pts:
        while len(lower) >= 2 and cross(lower[-2], lower[-1], p) <= 0:
            lower.pop()
        lower.append(p)
    for p in reversed(pts):
        while len(upper) >= 2 and cross(upper[-2], upper[-1], p) <= 0:
            upper.pop()
        upper.append(p)
    return lower[:-1] + upper[:-1]


def hull_plot(values: np.ndarray, output: np.ndarray, width: int = 31, height: int = 9) -> Text:
    """Values as 1, 2, 3…, the hull's edges as dots, the output as ●."""
    pts = np.vstack([values, output[None, :]])
    lo, hi = pts.min(axis=0), pts.max(axis=0)
    span = np.where(hi - lo > 0, hi - lo, 1.0)

    def cell(p) -> tuple[int, int]:
        x = int(round((p[0] - lo[0]) / span[0] * (width - 1)))
        y = int(round((hi[1] - p[1]) / span[1] * (height - 1)))  # row 0 is the top
        return y, x

    grid = [[" "] * width for _ in range(height)]
    hull = convex_hull(values)
    for a, b in zip(hull, hull[1:] + hull[:1], strict=True) if len(hull) > 1 else ():
        (ya, xa), (yb, xb) = cell(a), cell(b)
        steps = max(abs(yb - ya), abs(xb - xa), 1)
        for s in range(steps + 1):
            grid[round(ya + (yb - ya) * s / steps)][round(xa + (xb - xa) * s / steps)] = "·"
    for i, v in enumerate(values):
        y, x = cell(v)
        grid[y][x] = LABELS[i] if i < len(LABELS) else "+"
    oy, ox = cell(output)

    text = Text()
    border = "┌" + "─" * width + "┐\n"
    text.append(border, "dim")
    for y, row in enumerate(grid):
        text.append("│", "dim")
        for x, ch in enumerate(row):
            if (y, x) == (oy, ox):
                text.append("●", "bold green")
            elif ch == "·":
                text.append(ch, "dim")
            else:
                text.append(ch, "bold cyan")
        text.append("│\n", "dim")
    text.append("└" + "─" * width + "┘", "dim")
    return text
