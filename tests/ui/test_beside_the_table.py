"""Where the trainer shows the learner's own runs next to the stored table (F10, the guided
comparison, ``train --compare``), one line says whether they agree within the spread and why
a single seed can differ between machines."""

import json
import subprocess
import sys
from types import SimpleNamespace

import pytest
from rich.console import Console

from attn_tui.core.models import figures
from attn_tui.core.models.loop import Alignment, Outcome
from attn_tui.core.models.machine import Machine
from attn_tui.core.models.trainer import TrainConfig
from attn_tui.i18n import set_lang, t
from attn_tui.render import beside
from attn_tui.render.trainer import render_guide_note, render_multi

TABLE = figures.load()
BASE = TrainConfig(length=5, iters=2000)


def _runs(row_id: str, shift: float = 0.0, seeds=range(10)):
    row = TABLE[row_id]
    out = []
    for k, seed in enumerate(TABLE.seeds):
        if seed not in seeds:
            continue
        weight = row.per_seed["weight"][k] if "weight" in row.per_seed else None
        out.append(SimpleNamespace(
            config=BASE.with_variant(row.variant).__class__(**{
                **BASE.with_variant(row.variant).__dict__, "seed": seed}),
            seq_acc=row.per_seed["seq_acc"][k] + shift, pos_acc=row.per_seed["pos_acc"][k],
            alignment=None if weight is None else Alignment(weight, 0.0, 0.0, 0.0, weight),
            outcome=Outcome("finished", 2000, "train.done"),
        ))  # fmt: skip
    return out


def _text(renderable, width=80) -> str:
    console = Console(width=width, record=True, file=open("/dev/null", "w"), color_system=None)
    console.print(renderable)
    return " ".join(console.export_text().split())


@pytest.fixture
def lang():
    yield set_lang
    set_lang("en")


@pytest.fixture
def here(monkeypatch):
    """Pretend this machine is another kernel than the table's."""
    monkeypatch.setattr(beside, "machine", lambda: Machine("2.4.6", "scipy-openblas", "Zen"))


def test_f10_says_the_runs_agree_with_the_table_within_the_spread(here):
    runs = {"none": _runs("L5-none"), "dot": _runs("L5-dot")}
    shown = _text(render_multi(BASE, tuple(range(10)), ("none", "dot"), runs, False, 76, TABLE))
    assert shown.count("agrees with it within the spread") == 2
    assert "20 of 20 seeds gave the stored figure exactly" in shown
    assert "can end elsewhere on another machine" in shown
    assert "this machine uses Zen" in shown
    assert shown.count("stored (10 seeds)") == 2  # the stored rows, even for the same seeds


def test_f10_says_when_they_differ(here, lang):
    runs = {"none": _runs("L5-none", shift=-0.05), "dot": _runs("L5-dot")}
    shown = _text(render_multi(BASE, tuple(range(10)), ("none", "dot"), runs, False, 76, TABLE))
    assert "differs from it by more than the spread allows" in shown
    assert "agrees with it within the spread" in shown  # the other variant
    lang("zh")
    shown = _text(render_multi(BASE, tuple(range(10)), ("none", "dot"), runs, False, 76, TABLE))
    assert "超出了波动能解释的范围" in shown and "在波动之内一致" in shown


def test_no_line_when_the_table_has_no_such_experiment():
    other = TrainConfig(length=5, iters=1500)
    runs = {"none": _runs("L5-none")}
    shown = _text(render_multi(other, tuple(range(10)), ("none", "dot"), runs, False, 76, TABLE))
    assert "Beside the stored table" not in shown


def test_the_guided_run_is_set_beside_the_stored_seeds(here):
    (run,) = _runs("L5-none", seeds=[3])
    row = TABLE["L5-none"]
    shown = _text(render_guide_note("", row, TABLE, run.config, run))
    assert "lies inside the range of its 10 stored seeds" in shown and "1 of 1 seeds" in shown
    assert "Beside the stored table" not in _text(render_guide_note("", row, TABLE, BASE, None))


@pytest.mark.parametrize("code", ["en", "zh"])
def test_the_compare_note_measures_a_gap_by_its_standard_error(code):
    note = t("train.compare_note", lang=code)
    assert "√(sd₁²/n₁ + sd₂²/n₂)" in note and ("standard error" in note or "标准误" in note)


@pytest.mark.slow
def test_train_compare_prints_the_line_and_its_json():
    """Trains 2 × 2 short runs; asserts the wiring, not a verdict (that depends on the seeds
    this CPU's BLAS leads where; either verdict has the same fields)."""
    args = [sys.executable, "-m", "attn_tui", "train", "--compare", "--length", "5", "--seeds",
            "2"]  # fmt: skip
    text = subprocess.run(args, capture_output=True, text=True, timeout=600, check=True).stdout
    assert "Beside the stored table:" in " ".join(text.split())
    assert "stored (10" in text  # the stored rows (the narrow column wraps "seeds)")
    out = json.loads(subprocess.run([*args, "--json"], capture_output=True, text=True,
                                    timeout=600, check=True).stdout)  # fmt: skip
    stored = out["stored_table"]
    assert set(stored["variants"]) == {"none", "dot"}
    for v in stored["variants"].values():
        assert v["agreement"]["kind"] in ("agree", "differ")
        assert v["agreement"]["shared_seeds"] == 2 and 0 <= v["agreement"]["same_seeds"] <= 2
