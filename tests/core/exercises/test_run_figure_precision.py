"""A figure quoted from runs is given no more precisely than its spread allows.

A mean over n seeds is known to about its standard error, sd/√n; a digit below that is noise
that another machine's runs would change (another BLAS kernel moves single seeds). So where a
claim shows the mean of a stored row, ``{=0.98 | trainer('L5-none', 'seq_acc')}`` or the first
figure of ``{=0.98 ± 0.02 | (trainer(…), trainer(…, 'sd'))}``, the unit of its last digit must
be at least that standard error. (Bounds, ranges and sds are statements of another kind.)
"""

from __future__ import annotations

import math
import re
import tomllib

import pytest

from attn_tui import paths
from attn_tui.core.exercises import claims
from attn_tui.core.models import figures, transformer_figures

MEAN = re.compile(r"^\(?\s*(trainer|transformer)\('([^']+)', '([^']+)'(?:, 'mean')?\)\s*[,)]?")
TABLES = {"trainer": figures.load(), "transformer": transformer_figures.load()}


def _strings(value):
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for v in value.values():
            yield from _strings(v)
    elif isinstance(value, list):
        for v in value:
            yield from _strings(v)


def quoted_means():
    for path in paths.shipped_files():
        for ex in tomllib.loads(path.read_text("utf-8")).get("exercise", []):
            for text in _strings(ex):
                for claim in claims.find(text):
                    m = claim.hidden and MEAN.match(claim.hidden)
                    if m and m.group(3) not in ("params", "iters", "length"):
                        yield path.name, ex["id"], claim, m.group(1), m.group(2), m.group(3)


QUOTED = list(quoted_means())


def test_there_are_quoted_means_to_check():
    assert len(QUOTED) >= 30


@pytest.mark.parametrize("where", QUOTED, ids=lambda q: f"{q[1]}:{q[2].shown}")
def test_a_quoted_mean_has_no_digit_below_its_standard_error(where):
    _, _, claim, kind, row_id, metric = where
    stats = TABLES[kind][row_id].stats[metric]
    se = stats.sd / math.sqrt(stats.n)
    shown = claims.shown_numbers(claim.shown)[0]
    unit = 2 * shown.half  # 0.98 → 0.01; 82% → 0.01
    assert unit >= se or math.isclose(unit, se), (claim.shown, f"standard error {se:.2g}")
