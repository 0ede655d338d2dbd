"""The one training loop: any model that implements loop.Model trains in it, the RNN and the
Transformer are two such models, and what the loop promises (reports, evaluations, stopping,
divergence, the learning rate a model asks for) holds whatever the model.

The third model here is a least-squares fit of a line, small enough that its best weights are
known in closed form and Adam's every step can be checked against the arithmetic."""

from __future__ import annotations

import math
from dataclasses import dataclass, replace

import numpy as np
import pytest

from attn_tui.core.models import loop
from attn_tui.core.models.loop import Adam, Decode, RunResult, Snapshot, run, run_to_end, train
from attn_tui.core.models.trainer import TrainConfig
from attn_tui.core.models.transformer_trainer import TransformerConfig


@dataclass(frozen=True)
class LineConfig:
    """y = 2x − 1 from 64 points; the settings the loop reads, and nothing else."""

    iters: int = 400
    eval_every: int = 100
    clip: float = 0.0
    lr: float = 0.05
    beta1: float = 0.9
    beta2: float = 0.999
    eps: float = 1e-8
    seed: int = 0
    length: int = 1
    decay: bool = False

    def build(self) -> LineFit:
        return LineFit(self)

    def describe(self) -> dict[str, object]:
        return {"model": "line", "seed": self.seed}


class LineFit:
    def __init__(self, config: LineConfig) -> None:
        self.config = config
        rng = np.random.default_rng(config.seed)
        self.x = rng.uniform(-1, 1, 64)
        self.y = 2 * self.x - 1
        self.params = np.zeros(2)  # slope, intercept
        self.grads = np.zeros(2)
        self.rates: list[float] = []

    def step(self) -> float:
        error = self.params[0] * self.x + self.params[1] - self.y
        self.grads[:] = (2 * (error * self.x).mean(), 2 * error.mean())
        return float((error**2).mean())

    def learning_rate(self, done: int, total: int) -> float:
        rate = self.config.lr * (1 - done / total) if self.config.decay else self.config.lr
        self.rates.append(rate)
        return rate

    def evaluate(self, iteration: int, sample_index: int = 0) -> Snapshot:
        error = float(np.abs(self.params - (2.0, -1.0)).max())
        probe = Decode((0,), (0,), (0,), None)
        return Snapshot(
            iteration, float(error < 0.01), 1 - error, np.zeros(1), None, probe, probe, 64, 0.0
        )

    def result(self, **figures) -> RunResult:
        return RunResult(config=self.config, params=2, model=self.params.copy(), **figures)


def test_a_third_model_plugs_in_and_learns_its_line():
    result = run_to_end(LineConfig())
    assert result.outcome.kind == "finished" and result.iters == 400
    np.testing.assert_allclose(result.model, [2.0, -1.0], atol=1e-2)
    assert result.losses[-1] < 1e-4 < result.losses[0]
    assert [s.iteration for s in result.snapshots] == [100, 200, 300, 400]  # and at the end
    assert result.seq_acc == 1.0
    assert result.to_dict()["model"] == "line" and result.to_dict()["iters"] == 400


def test_every_step_is_adams_arithmetic_with_the_rate_the_model_asks_for():
    config = LineConfig(iters=5, eval_every=0, decay=True)
    model = config.build()
    by_hand = np.zeros(2)
    m = np.zeros(2)
    v = np.zeros(2)
    for t in range(1, 6):  # Adam written out, PyTorch's form
        error = by_hand[0] * model.x + by_hand[1] - model.y
        g = np.array([2 * (error * model.x).mean(), 2 * error.mean()])
        m = 0.9 * m + 0.1 * g
        v = 0.999 * v + 0.001 * g * g
        lr = 0.05 * (1 - (t - 1) / 5)
        by_hand -= lr / (1 - 0.9**t) * m / (np.sqrt(v) / math.sqrt(1 - 0.999**t) + 1e-8)
    list(run(model))
    np.testing.assert_allclose(model.params, by_hand, rtol=1e-12)
    assert model.rates == pytest.approx([0.05, 0.04, 0.03, 0.02, 0.01])


def test_reports_come_every_n_iterations_and_at_each_evaluation():
    reports = list(train(LineConfig(iters=50, eval_every=20), every=7, max_interval=math.inf))
    assert [p.iteration for p in reports] == [7, 14, 20, 27, 34, 40, 47, 50]
    assert [p.iteration for p in reports if p.snapshot is not None] == [20, 40, 50]
    assert sum(len(p.losses) for p in reports) == 50 and reports[-1].done
    assert all(p.result is None for p in reports[:-1])


def test_a_stop_lands_at_once_and_is_evaluated():
    seen = []

    def stop() -> bool:
        seen.append(1)
        return len(seen) > 12

    result = run_to_end(LineConfig(iters=1000), should_stop=stop)
    assert result.outcome.kind == "stopped" and result.iters == 12
    assert result.final is not None and result.final.iteration == 12


def test_an_infinite_loss_ends_the_run_as_diverged_whatever_the_model():
    model = LineConfig().build()
    model.y[0] = np.inf
    result = list(run(model))[-1].result
    assert result.outcome.kind == "diverged" and result.iters == 0 and result.final is None
    assert result.outcome.code == "train.outcome.diverged_loss"


@pytest.mark.parametrize(
    "config",
    [TrainConfig(length=4, iters=3), TransformerConfig(length=4, iters=3)],
    ids=["rnn", "transformer"],
)
def test_the_rnn_and_the_transformer_are_models_of_the_one_loop(config):
    model = config.build()
    for name in ("params", "grads", "step", "learning_rate", "evaluate", "result", "config"):
        assert hasattr(model, name), name
    assert model.params.shape == model.grads.shape == (config.n_params,)
    result = run_to_end(config)
    assert isinstance(result, loop.RunResult) and result.config is config
    assert result.params == config.n_params and result.to_dict()["params"] == config.n_params


def test_the_transformers_rate_decays_to_zero_and_the_rnns_stays():
    rnn, tf = TrainConfig(lr=0.003).build(), TransformerConfig(lr=0.01).build()
    assert [rnn.learning_rate(d, 100) for d in (0, 50, 99)] == [0.003] * 3
    assert [tf.learning_rate(d, 100) for d in (0, 50, 99)] == pytest.approx([0.01, 0.005, 1e-4])


def test_a_comparison_varies_each_models_own_variant():
    assert TrainConfig().with_variant("qk").variant == "qk"
    assert TransformerConfig().with_variant("none").variant == "none"
    assert TrainConfig(length=12).recommended_iters == 3000
    assert TransformerConfig(task="sort").recommended_iters == 3000
    assert {TrainConfig.kind, TransformerConfig.kind} == {"rnn", "transformer"}


def test_an_optimiser_of_ones_own_is_the_one_that_steps():
    config = LineConfig(iters=3, eval_every=0)
    model = config.build()
    adam = Adam(2, config.lr, config.beta1, config.beta2, config.eps, np.float64)
    list(run(model, adam=adam))
    assert adam.t == 3 and np.abs(adam.m).sum() > 0
    again = replace(config).build()
    list(run(again))
    np.testing.assert_array_equal(again.params, model.params)  # the same steps either way
