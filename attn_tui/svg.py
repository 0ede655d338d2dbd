"""Figures for slides, as SVG: any screen of the app with one key, and from the shell the
calculator's four steps (``attn-tui calc … --svg FILE``) or the lab's weight heatmaps
(``attn-tui lab … --svg FILE``).

An SVG keeps the text as text, so Chinese stays sharp at any size (and searchable); a viewer
without a CJK font draws it in its fallback font. Rich sizes each run of text by its number of
characters rather than terminal cells (Textualize/rich#2742), which squeezes every Chinese
character into half its width; :func:`widen` sets each run's length from its cells.

The screen figure is Textual's own screenshot: saved to the Downloads folder (or the working
folder when there is none) at a terminal, and handed to the browser as a download under
``attn-tui serve``.
"""

from __future__ import annotations

import io
import os
import re
import time
from pathlib import Path
from typing import TYPE_CHECKING

from rich.cells import cell_len
from rich.console import Console, Group, RenderableType

from attn_tui.i18n import t

if TYPE_CHECKING:
    from textual.app import App
    from textual.events import DeliveryComplete, DeliveryFailed

FIGURE_KEY = "ctrl+s"  # no screen binds it; the help overlay lists it with the global keys
DELIVERY = "attn-figure"  # the name a saved figure is delivered under
SVG_WIDTH = 100  # most terminal cells of a figure drawn from the shell
MIN_WIDTH = 40


_TEXT_RUN = re.compile(r'(<text\b[^>]*?\btextLength=")([0-9.]+)("[^>]*>)([^<]*)(</text>)')


def widen(svg_text: str) -> str:
    """Each ``<text>`` run's ``textLength`` from the cells it fills (wide characters: two)."""
    import html  # (not at import: the app's first screen imports this module)

    def fix(m: re.Match) -> str:
        text = html.unescape(m.group(4))
        if not text or cell_len(text) == len(text):
            return m.group(0)
        length = float(m.group(2)) / len(text) * cell_len(text)
        return f"{m.group(1)}{length:g}{m.group(3)}{m.group(4)}{m.group(5)}"

    return _TEXT_RUN.sub(fix, svg_text)


def shown(svg_text: str) -> str:
    """Control characters in a figure's text (an ESC or an OSC 52 typed as a token, a name)
    as visible escapes: they are not XML, and ``cat figure.svg`` would run them."""
    from attn_tui.core.format import visible

    return visible(svg_text)


def svg(renderable: RenderableType, title: str, width: int = SVG_WIDTH) -> str:
    """``renderable`` drawn as Rich draws it in a terminal at most ``width`` cells wide (no
    wider than it needs, so a slide holds no empty band), as SVG."""
    from rich.measure import Measurement

    with open(os.devnull, "w", encoding="utf-8") as sink:
        console = Console(width=width, record=True, file=sink, color_system="truecolor",
                          force_terminal=True, legacy_windows=False)  # fmt: skip
        needed = Measurement.get(console, console.options, renderable).maximum
        console.width = max(MIN_WIDTH, cell_len(title) + 10, min(width, needed))
        console.print(renderable)
        return shown(widen(console.export_svg(title=title)))


def calc_figure(steps) -> RenderableType:
    """The four steps of one calculation, each in its panel (what ``attn-tui calc`` prints)."""
    from rich.panel import Panel

    from attn_tui.render.steps import STEPS

    return Group(*(Panel(render(steps), expand=False, border_style="dim") for render in STEPS))


def lab_figure(result) -> RenderableType:
    """Each head's attention weights as a heatmap (rows: queries, columns: keys), row sums."""
    from rich.text import Text

    from attn_tui.core import format as fmt
    from attn_tui.render.heatmap import Heatmap

    parts: list[RenderableType] = []
    for head in range(result.heads):
        parts.append(
            Heatmap(result.weights[head], result.queries.labels, result.memory.labels,
                    title=Text(t("lab.weights_title", head=head + 1), style="bold"),
                    masked=~result.allowed, masked_text="0", places=4, vmin=0.0, vmax=1.0,
                    extra=[fmt.fixed(s, 3) for s in result.row_sums[head]],
                    extra_title=t("lab.sum"), legend=head == result.heads - 1)
        )  # fmt: skip
        parts.append(Text(""))
    return Group(*parts[:-1])


# -- the key that saves any screen ------------------------------------------------------------


def figure_name(area: str) -> str:
    return f"attn-tui-{area}-{time.strftime('%Y%m%d-%H%M%S')}.svg"


def save_screen(app: App) -> None:
    """Save the screen as it is now; the app says where once it is written."""
    import platformdirs

    downloads = platformdirs.user_downloads_path()
    folder = downloads if downloads.is_dir() else Path.cwd()
    mode = getattr(app, "current_mode", "home")
    area = mode if mode in getattr(app, "AREAS", ()) else "home"
    title = "attn-tui" if area == "home" else f"attn-tui · {t(f'app.area.{area}')}"
    app.deliver_text(
        io.StringIO(shown(widen(app.export_screenshot(title=title)))),
        save_directory=folder,
        save_filename=figure_name(area),
        open_method="download",
        mime_type="image/svg+xml",
        name=DELIVERY,
    )


def announce(app: App, event: DeliveryComplete | DeliveryFailed, ok: bool) -> None:
    """Say where the figure went (a path at a terminal; the browser's downloads when served)."""
    if getattr(event, "name", None) != DELIVERY:
        return
    if not ok:
        app.notify(t("classroom.fig.failed"), severity="error")
    elif event.path is None:
        app.notify(t("classroom.fig.sent"), timeout=4)
    else:
        app.notify(t("classroom.fig.saved", path=event.path), timeout=6)
