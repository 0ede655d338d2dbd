"""Every checked claim in the content holds whichever OpenBLAS kernel trained the runs.

The stored tables were made under one kernel (their [made] says which). Another CPU's BLAS
rounds the last bits its own way and float32 training amplifies them, so a seed can end
elsewhere (here 53 of 170 seeds' whole-sequence accuracy moved between Haswell and
SkylakeX). A figure the content teaches must therefore be a statement about the seeds that
survives that. This test retrains every stored row the content quotes, in child processes,
under two kernels (the CPU's own choice and ``machine.other_kernel()``: Haswell, or
Sandybridge where Haswell is the CPU's own), and checks against each kernel's tables:

- every checked claim of every shipped file (``claims.tables``), and what the reversal story
  says in words (``test_reversal_story.words_hold``);
- every quoted row agrees with the stored row within the spread: for each metric the two
  means differ by less than two standard errors of their difference (never less than one
  step of the metric), as two draws of seeds from one distribution do.

About 15 minutes of CPU on two cores per run of the test (the 20 000-iteration row and the
length-20 rows are most of it); slow tier only.
"""

from __future__ import annotations

import importlib.util
import os
import re
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

from attn_tui import paths
from attn_tui.core.exercises import claims
from attn_tui.core.models import figures, transformer_figures
from attn_tui.core.models.machine import other_kernel

pytestmark = pytest.mark.slow

ROOT = Path(__file__).resolve().parents[3]
SHIPPED = paths.shipped_files()
OTHER = other_kernel()


def _strings(value):
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for v in value.values():
            yield from _strings(v)
    elif isinstance(value, list):
        for v in value:
            yield from _strings(v)


def shipped_claims() -> list[tuple[str, str, claims.Claim]]:
    """(file, exercise id, claim) of every claim in the shipped exercise and quiz files."""
    out = []
    for path in SHIPPED:
        for ex in tomllib.loads(path.read_text("utf-8")).get("exercise", []):
            for text in _strings(ex):
                out += [(path.name, ex.get("id", "?"), c) for c in claims.find(text)]
    return out


def quoted_rows() -> list[str]:
    """The trainer rows the content quotes, in the table's order."""
    quoted = {
        row for *_, c in shipped_claims() for row in re.findall(r"trainer\('([^']+)'", c.source)
    }
    return [e.id for e in figures.EXPERIMENTS if e.id in quoted]


def _retrain(kernel: str | None, out: Path) -> tuple[figures.Figures, object]:
    env = {k: v for k, v in os.environ.items() if k != "OPENBLAS_CORETYPE"}
    if kernel:
        env["OPENBLAS_CORETYPE"] = kernel
    trainer_out, tf_out = out / "trainer.toml", out / "transformer.toml"
    runs = [
        [sys.executable, str(ROOT / "scripts" / "trainer_figures.py"), "--only", *quoted_rows(),
         "--out", str(trainer_out)],
        [sys.executable, str(ROOT / "scripts" / "transformer_figures.py"), "--out", str(tf_out)],
    ]  # fmt: skip
    for args in runs:
        done = subprocess.run(args, env=env, capture_output=True, text=True, timeout=3600)
        assert done.returncode == 0, done.stderr[-2000:]
    return figures.load(trainer_out), transformer_figures.load(tf_out)


@pytest.fixture(scope="module", params=[None, OTHER], ids=["own-kernel", f"{OTHER}"])
def kernel_tables(request, tmp_path_factory):
    if request.param is None and OTHER is None:
        pytest.skip("not OpenBLAS on x86 with AVX: no second kernel to compare with")
    trainer, transformer = _retrain(request.param, tmp_path_factory.mktemp("tables"))
    if request.param is not None:  # the variable did pick the kernel the child trained on
        assert trainer.made["kernel"] == request.param == transformer.made["kernel"]
    return request.param, trainer, transformer


def test_every_claim_holds_on_this_kernels_tables(kernel_tables):
    _, trainer, transformer = kernel_tables
    with claims.tables(trainer, transformer):
        faults = [(f, ex, c.source, err.params) for f, ex, c in shipped_claims()
                  for err in [*_faults(c)]]  # fmt: skip
    assert faults == []


def _faults(claim: claims.Claim):
    try:
        claims.check(claim)
    except claims.ClaimError as err:
        yield err


def _story_module():
    """tests/…/test_reversal_story.py, loaded by path (test folders are not packages)."""
    (path,) = (ROOT / "tests").rglob("test_reversal_story.py")
    spec = importlib.util.spec_from_file_location("reversal_story", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_what_the_story_says_in_words_holds(kernel_tables):
    _, trainer, _ = kernel_tables
    _story_module().words_hold(trainer)


def test_every_quoted_row_agrees_with_the_stored_row(kernel_tables):
    _, trainer, _ = kernel_tables
    stored = figures.load()
    assert list(trainer.rows) == quoted_rows()
    disagree = []
    for row in trainer:
        stored_row = stored[row.id]
        for metric in row.stats:
            a = figures.agreement(dict(zip(trainer.seeds, row.per_seed[metric], strict=True)),
                                  stored_row, stored.seeds, metric,
                                  figures.resolution(metric, row.length, 1000))  # fmt: skip
            if not a.agree:
                disagree.append((row.id, metric, round(a.diff, 4), round(a.se, 4)))
    assert disagree == []


def test_every_transformer_row_agrees_with_the_stored_row(kernel_tables):
    """Each metric's mean within the tolerance the Transformer's own table test uses
    (transformer_figures.outside_spread: four standard errors of the wider of the two seed
    spreads, never under the metric's resolution; counted in steps for the step metrics, and
    finite in as many seeds): its rows include figures measured in steps and figures some
    seeds do not have (the induction run's plateau end), which two standard errors of
    accuracy-like metrics would not describe."""
    _, _, transformer = kernel_tables
    stored = transformer_figures.load()
    disagree = {
        row_id: bad
        for row_id, row in transformer.rows.items()
        if (bad := transformer_figures.outside_spread(stored[row_id], dict(row.per_seed)))
    }
    assert disagree == {}
