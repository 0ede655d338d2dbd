"""The guided comparisons, keys 1–5 on the trainer: the RNN's five experiments of the stored
table, or the Transformer's five steps (``core.models.transformer_guide``) when it is chosen.

Each step is a configuration the stored multi-seed table has a row for, what F9/F10 compares it
with, and the sentence that says what to look at. :class:`GuideList` lists them with this app's
mean whole-sequence accuracy over the table's seeds; choosing one is the screen's business
(``OptionList.OptionSelected`` bubbles up to it).
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from rich.table import Table
from rich.text import Text
from textual.reactive import var
from textual.widgets import OptionList, Static
from textual.widgets.option_list import Option

from attn_tui.core.models import figures as stored
from attn_tui.core.models.trainer import TrainConfig
from attn_tui.core.models.transformer_guide import TF_GUIDE
from attn_tui.i18n import t
from attn_tui.render.palette import MUTED


@dataclass(frozen=True)
class GuideStep:
    """One step of the guided comparison: an experiment of the stored table, what it is
    compared with (F9 / F10), and the sentence that says what to look at."""

    experiment: stored.Experiment
    versus: str
    text: str  # catalogue key of the sentence


GUIDE = (
    GuideStep(stored.Experiment(10, "qk"), "dot", "train.guide.qk10"),
    GuideStep(stored.Experiment(10, "dot"), "qk", "train.guide.dot10"),
    GuideStep(stored.Experiment(10, "none"), "dot", "train.guide.none10"),
    GuideStep(stored.Experiment(20, "qk", "none"), "none", "train.guide.qk20"),
    GuideStep(stored.Experiment(20, "none", "none"), "qk", "train.guide.none20"),
)


def guide_step(config: TrainConfig) -> GuideStep | None:
    """The guide step these settings are (seed, pace and evaluation aside), if any."""
    for step in GUIDE:
        e = step.experiment.config()
        if replace(config, seed=0, eval_every=e.eval_every) == e:
            return step
    return None


def load_figures() -> stored.Figures | None:
    """The stored multi-seed table, or None when the install is broken (figures not shown)."""
    try:
        return stored.load()
    except (OSError, ValueError, KeyError, TypeError):
        return None


def _two_columns(left: str, right: Text | str) -> Table:
    # one column of space between the label and its figure ("无输入0.00" ran together)
    line = Table.grid(expand=True, padding=(0, 0, 0, 1), pad_edge=False)
    line.add_column(ratio=1, no_wrap=True, overflow="ellipsis")
    line.add_column(justify="right", no_wrap=True)
    line.add_row(left, right)
    return line


class GuideTitle(Static):
    """'Guide (keys 1–5)' with the figure's name right-aligned over the list's figures."""

    def __init__(self, **kwargs) -> None:
        super().__init__(self._title(), **kwargs)

    @staticmethod
    def _title() -> Table:
        return _two_columns(t("train.ui.guide_title"), t("train.ui.guide_figure"))

    def relocalize(self) -> None:
        self.update(self._title())


class GuideList(OptionList):
    """One line per guide step of the chosen model: for the RNN its name and this app's mean
    whole-sequence accuracy over the stored table's seeds, right-aligned; for the Transformer
    its five steps (``core.models.transformer_guide``)."""

    model: var[str] = var("rnn", init=False)  # whose guide is listed

    def __init__(self, figures: stored.Figures | None, *, focused: bool = False, **kwargs) -> None:
        self.figures = figures
        self._focus_at_mount = focused
        super().__init__(*self._guide_options("rnn"), compact=True, **kwargs)

    def on_mount(self) -> None:
        # ``focused``: the screen's first focus, taken as the list is mounted, before the rows
        # around it are: focused once they are all styled, its panel's :focus-within border
        # restyled every one of them (the trainer's settings, ~60 widgets)
        if self._focus_at_mount and self.screen.focused is None:
            self.screen.set_focus(self)

    def watch_model(self, model: str) -> None:
        self.clear_options()
        self.add_options(self._guide_options(model))

    def _guide_options(self, model: str) -> list[Option]:
        if model == "transformer":
            return [Option(t(step.label), id=f"guide-{k}") for k, step in enumerate(TF_GUIDE)]
        options = []
        for k, step in enumerate(GUIDE):
            e = step.experiment
            variant = t("train.ui.guide_no_attention" if e.variant == "none"
                        else f"train.ui.variant.{e.variant}")  # fmt: skip
            label = t("train.ui.guide_item", k=k + 1, variant=variant, length=e.length)
            if e.feed == "none":
                label += t("train.ui.guide_nofeed")
            row = self.figures[e.id] if self.figures and e.id in self.figures.rows else None
            figure = Text(f"{row.stats['seq_acc'].mean:.2f}" if row else "", MUTED)
            options.append(Option(_two_columns(label, figure), id=f"guide-{k}"))
        return options

    def relocalize(self) -> None:
        highlighted = self.highlighted
        self.clear_options()
        self.add_options(self._guide_options(self.model))
        self.highlighted = highlighted
