"""What a report shows, as plain strings: arrays as grids of numbers, the slice holding the
first difference of a large array, shapes, and the learner's traceback. The widgets draw
these; the command line prints them; the tests read them."""

from __future__ import annotations

from typing import Any

import numpy as np

from attn_tui.core.format import MINUS, visible

MAX_ROWS, MAX_COLS = 8, 8  # a grid larger than this shows its corner and says so


def shape(value: Any) -> str:
    a = np.asarray(value)
    return "(" + ", ".join(str(n) for n in a.shape) + ("," if a.ndim == 1 else "") + ")"


def number(x: Any) -> str:
    """One entry: booleans as T/F, integers bare, others to 4 decimals; nan and inf named."""
    if isinstance(x, bool | np.bool_):
        return "T" if x else "F"
    x = float(x)
    if np.isnan(x):
        return "nan"
    if np.isinf(x):
        return "inf" if x > 0 else MINUS + "inf"
    if x == int(x) and abs(x) < 1e6:
        text = str(int(x))
    elif abs(x) < 1e-12:  # e.g. exp(−710): nothing at four decimals, and not exactly 0
        text = "0.0000"
    elif abs(x) >= 1e5 or abs(x) < 1e-4:
        text = f"{x:.3e}"
    else:
        text = f"{x:.4f}"
    return text.replace("-", MINUS)


def as_2d(value: Any, differ: Any = None) -> tuple[np.ndarray, np.ndarray | None, tuple[int, ...]]:
    """A 0-, 1- or 2-D view of ``value`` (and of ``differ``), with the leading index chosen
    so that the view holds the first differing entry: (view, its differ, leading index)."""
    a = np.asarray(value)
    d = None if differ is None else np.asarray(differ, dtype=bool)
    lead: tuple[int, ...] = ()
    if a.ndim > 2:
        if d is not None and d.shape == a.shape and d.any():
            first = tuple(int(i) for i in np.argwhere(d)[0])
            lead = first[: a.ndim - 2]
        else:
            lead = (0,) * (a.ndim - 2)
        a = a[lead]
        d = (
            d[lead]
            if d is not None and d.shape[: len(lead)] == np.asarray(value).shape[: len(lead)]
            else None
        )
    if a.ndim == 0:
        a = a.reshape(1, 1)
        d = None if d is None else d.reshape(1, 1)
    elif a.ndim == 1:
        a = a[None, :]
        d = None if d is None else d[None, :]
    return a, d, lead


def grid(value: Any, differ: Any = None) -> dict[str, Any]:
    """``{"rows": [[str]], "marked": [[bool]], "lead": (…), "cut": bool, "shape": "(…)"}``."""
    view, d, lead = as_2d(value, differ)
    cut = view.shape[0] > MAX_ROWS or view.shape[1] > MAX_COLS
    view = view[:MAX_ROWS, :MAX_COLS]
    if d is not None:
        d = d[:MAX_ROWS, :MAX_COLS]
    rows = [[number(x) for x in row] for row in view]
    marked = (
        [[bool(x) for x in row] for row in d]
        if d is not None and d.shape == view.shape
        else [[False] * len(r) for r in rows]
    )
    return {"rows": rows, "marked": marked, "lead": lead, "cut": cut, "shape": shape(value)}


def lead_label(lead: tuple[int, ...]) -> str:
    return "[" + ", ".join(str(i) for i in lead) + ", :, :]" if lead else ""


def value_text(value: Any) -> str:
    """A non-array argument (T = 4, h = 2, mask = None)."""
    if value is None:
        return "None"
    return visible(str(value), one_line=True)


def traceback_lines(error: Any, file: str) -> list[tuple[int, str, str]]:
    """(line, function, source) of their file only, innermost last."""
    return [
        (int(f[0]), str(f[1]), str(f[2]) if len(f) > 2 else "")
        for f in (error or {}).get("frames", [])
    ]


def last_lines(text: str, count: int = 12) -> tuple[list[str], bool]:
    lines = visible(text).splitlines()
    return lines[-count:], len(lines) > count


__all__ = [
    "as_2d",
    "grid",
    "last_lines",
    "lead_label",
    "number",
    "shape",
    "traceback_lines",
    "value_text",
]
