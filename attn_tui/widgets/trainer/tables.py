"""The trainer's tables: the runs finished this session, and the multi-seed comparison (F10).

:class:`RunTables` keeps both: every finished run (by model), and F10's seeds, variants and
results as they arrive. Before any F10 it previews the comparison the settings would run. It
draws only while shown (``F4`` switches the trainer's right side to it).
"""

from __future__ import annotations

from typing import Any

from rich.console import Group, RenderableType
from rich.text import Text
from textual.app import ComposeResult
from textual.containers import VerticalScroll
from textual.widgets import Static

from attn_tui.core.models import figures as stored
from attn_tui.widgets.trainer.models import MODELS, view_of

PREVIEW_SEEDS = tuple(range(10))  # what the preview shows while a setting is unusable
PREVIEW_VARIANTS = ("dot", "qk")


class RunTables(VerticalScroll):
    """Runs finished this session beside the book's single run, and the multi-seed view."""

    def __init__(self, figures: stored.Figures | None, **kwargs) -> None:
        super().__init__(**kwargs)
        self.figures = figures
        self.finished: dict[str, list] = {name: [] for name in MODELS}  # by model
        self.preview: tuple[Any, tuple[int, ...], tuple[str, ...]] | None = None
        self.comparison: tuple[Any, tuple[int, ...], tuple[str, ...]] | None = None
        self.runs: dict[str, list] = {}  # F10's results by variant, in seed order
        self.comparing = False  # F10 is running

    def compose(self) -> ComposeResult:
        yield Static(id="session")
        yield Static(id="multi")

    # ---- what the screen tells it ----------------------------------------------------------
    def add_finished(self, result) -> None:
        self.finished[view_of(result.config).name].append(result)
        self.redraw()

    def show_settings(self, base: Any, seeds: tuple[int, ...], variants: tuple[str, ...]) -> None:
        """What F10 would compare (shown until it runs)."""
        self.preview = (base, seeds, variants)
        if self.comparison is None:
            self.redraw()

    def begin_comparison(self, base: Any, seeds: tuple[int, ...], variants: tuple[str, ...]):
        self.comparison = (base, seeds, variants)
        self.runs = {v: [] for v in variants}
        self.comparing = True
        self.redraw()

    def add_seed(self, result) -> None:
        runs = self.runs.setdefault(view_of(result.config).variant_of(result.config), [])
        runs.append(result)
        runs.sort(key=lambda r: r.config.seed)
        self.redraw()

    def comparison_ended(self) -> None:
        self.comparing = False
        self.redraw()

    # ---- drawing ---------------------------------------------------------------------------
    def on_resize(self) -> None:
        self.redraw()

    def relocalize(self) -> None:
        self.redraw()

    def redraw(self) -> None:
        if not self.display or not self.is_mounted:
            return  # drawn when shown
        self.query_one("#session", Static).update(self._session())
        base, seeds, variants = self.comparison or self.preview or (None, PREVIEW_SEEDS,
                                                                      PREVIEW_VARIANTS)  # fmt: skip
        if base is None:
            self.query_one("#multi", Static).update("")
            return
        runs = self.runs if self.comparison is not None else {}
        width = max(self.size.width - 4, 40)
        multi = view_of(base).render_multi(base, seeds, variants, runs, self.comparing, width,
                                           self.figures)  # fmt: skip
        self.query_one("#multi", Static).update(multi)

    def _session(self) -> RenderableType:
        """The table of each model with runs (the first model's, empty, when none has)."""
        tables = [MODELS[name].render_session(results)
                  for name, results in self.finished.items() if results]  # fmt: skip
        if not tables:
            first = next(iter(MODELS.values()))
            return first.render_session([])
        parts: list[RenderableType] = []
        for table in tables:
            parts += [Text(""), table] if parts else [table]
        return tables[0] if len(tables) == 1 else Group(*parts)
