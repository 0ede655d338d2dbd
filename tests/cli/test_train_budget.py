"""One time budget for every model: the estimate said before a long run, a run of hours
refused at once. Before: ``train --model transformer --layers 2 --heads 4 --d-model 32
--length 20 --batch 1024 --iters 100000`` started a run of about four hours with no estimate
(the RNN refused its equivalent in 0.3 s), and so did a Transformer ``--compare``."""

from __future__ import annotations

import subprocess
import sys
from dataclasses import replace

import pytest

from attn_tui.commands import train
from attn_tui.core.models import trainer, transformer_trainer
from attn_tui.core.models.trainer import TrainConfig
from attn_tui.core.models.transformer_trainer import TransformerConfig
from attn_tui.core.parse import InputError

BIG = ["--model", "transformer", "--layers", "2", "--heads", "4", "--d-model", "32",
       "--length", "20", "--batch", "1024"]  # fmt: skip


def train_cli(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "attn_tui", "--lang", "en", "train", *args],
                          capture_output=True, text=True, timeout=120)  # fmt: skip


@pytest.mark.parametrize(
    "args",
    [[*BIG, "--iters", "100000"], [*BIG, "--iters", "2000", "--compare", "--seeds", "20"],
     ["--length", "20", "--attention", "--batch", "1024", "--iters", "100000"]],
    ids=["transformer", "transformer-compare", "rnn"],
)  # fmt: skip
def test_a_run_of_hours_is_refused_before_it_starts(args):
    done = train_cli(*args)
    assert done.returncode == 2 and done.stdout == ""
    (line,) = done.stderr.strip().splitlines()
    assert "this would take about" in line and "past the about 30 min limit" in line
    assert "Traceback" not in done.stderr


def test_the_estimate_of_a_long_run_is_said_for_either_model(capsys):
    transformer = TransformerConfig(layers=2, heads=4, d_model=32, length=20, batch=256,
                                    iters=2000).validate()  # fmt: skip
    rnn = TrainConfig(length=20, attention=True, batch=256, iters=20000).validate()
    for config, model in ((transformer, transformer_trainer), (rnn, trainer)):
        seconds = model.estimate_seconds(config)
        assert train.SAY_BUDGET_FROM <= seconds <= train.MAX_BUDGET
        train._budget(config, runs=1, workers=1)
        err = capsys.readouterr().err
        assert err.startswith("attn-tui train: this will take about") and err.count("\n") == 1
    with pytest.raises(InputError) as refused:
        train._budget(transformer, runs=200, workers=1)
    assert refused.value.code == "train.too_long"


def test_the_transformer_estimate_grows_as_the_work_does():
    base = TransformerConfig(iters=1000, eval_every=0).validate()
    cost = transformer_trainer.estimate_seconds
    for bigger in ({"batch": 64}, {"length": 20}, {"d_model": 32}, {"layers": 2}, {"heads": 4},
                   {"iters": 2000}):  # fmt: skip
        assert cost(replace(base, **bigger).validate()) > cost(base)
    twice = cost(replace(base, iters=2000)) - cost(base)
    assert twice == pytest.approx(cost(replace(base, iters=3000)) - cost(replace(base, iters=2000)))
