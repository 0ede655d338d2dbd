"""The trainer: settings, held-out data, determinism, stopping, divergence, learning."""

import math

import numpy as np
import pytest

from attn_tui.core.models.loop import run, run_to_end, train
from attn_tui.core.models.trainer import Comparison, ReversalData, Stats, TrainConfig, compare
from attn_tui.core.parse import InputError


@pytest.mark.parametrize(
    "settings, code",
    [
        ({"length": 0}, "train.bad_length"),
        ({"length": 21}, "train.bad_length"),
        ({"score": "additive"}, "train.bad_score"),
        ({"feed": "teacher"}, "train.bad_feed"),
        ({"lr": 0.0}, "train.bad_lr"),
        ({"lr": -1.0}, "train.bad_lr"),
        ({"lr": math.nan}, "train.bad_lr"),
        ({"lr": math.inf}, "train.bad_lr"),
        ({"iters": 10**6}, "train.bad_iters"),
        ({"iters": 0}, "train.bad_iters"),
        ({"batch": 0}, "train.bad_batch"),
        ({"clip": -1.0}, "train.bad_clip"),
        ({"dtype": "float16"}, "train.bad_dtype"),
        ({"length": True}, "train.bad_length"),
    ],
)
def test_impossible_settings_are_refused(settings, code):
    with pytest.raises(InputError) as err:
        TrainConfig(**settings).build()
    assert err.value.code == code


def test_every_error_code_has_text():
    from attn_tui.i18n import catalogue, describe

    for code in ("train.bad_length", "train.bad_lr", "train.bad_iters", "train.bad_batch"):
        assert code in catalogue()
    msg = describe(InputError("train.bad_length", value=0, lo=2, hi=12), lang="en")
    assert "0" in msg and "2" in msg and "12" in msg


def test_held_out_sequences_are_never_drawn_for_training():
    data = ReversalData(5, eval_size=1000, eval_seed=7)
    assert len(data.eval_x) == 1000 and len(np.unique(data.eval_codes)) == 1000
    assert data.allowed is not None and len(data.allowed) == 6**5 - 1000
    draws = data.draw(np.random.default_rng(0), 200, 16)  # 3200 draws from 6776 sequences
    assert draws.shape == (200, 16, 5)
    assert not data.is_held_out(draws).any()
    assert data.is_held_out(data.eval_x).all()
    # the rejection path for long sequences
    long = ReversalData(10, eval_size=1000, eval_seed=7)
    assert long.allowed is None
    assert not long.is_held_out(long.draw(np.random.default_rng(0), 50, 16)).any()


def test_short_lengths_keep_half_the_sequences_for_training():
    data = ReversalData(2, eval_size=1000)
    assert len(data.eval_x) == 18 and len(data.allowed) == 18


def test_same_seed_same_numbers_whatever_the_cadence():
    cfg = TrainConfig(iters=120, eval_every=40, seed=3)
    a = [p for p in train(cfg, every=1)]
    b = [p for p in train(cfg, every=1000, max_interval=math.inf)]
    ra, rb = a[-1].result, b[-1].result
    np.testing.assert_array_equal(ra.losses, rb.losses)
    assert ra.seq_acc == rb.seq_acc and ra.pos_acc == rb.pos_acc
    assert len(a) > len(b)
    # every=1 reports each iteration's loss exactly once, in order
    np.testing.assert_array_equal(np.concatenate([p.losses for p in a]), ra.losses)
    assert [p.iteration for p in a[:-1]] == list(range(1, 120))
    other = run_to_end(TrainConfig(iters=120, eval_every=40, seed=4))
    assert not np.array_equal(other.losses, ra.losses)


def test_snapshots_carry_attention_and_a_sample():
    cfg = TrainConfig(length=4, attention=True, iters=60, eval_every=20)
    snaps = [p.snapshot for p in train(cfg, every=1000) if p.snapshot is not None]
    assert [s.iteration for s in snaps] == [20, 40, 60]
    last = snaps[-1]
    assert last.probe.attention.shape == (4, 4)  # rows = outputs, cols = inputs
    np.testing.assert_allclose(last.probe.attention.sum(axis=1), 1.0, rtol=1e-5)
    np.testing.assert_allclose(last.attention_mean.sum(axis=1), 1.0, rtol=1e-5)
    assert last.probe.target == last.probe.x[::-1]
    assert snaps[0].probe.x == snaps[-1].probe.x  # the probe stays the same sequence
    assert last.per_position.shape == (4,)


def test_should_stop_ends_the_run_at_once():
    calls = 0

    def stop():
        nonlocal calls
        calls += 1
        return calls > 25

    progress = list(train(TrainConfig(iters=5000), every=10, should_stop=stop))
    result = progress[-1].result
    assert result.outcome.kind == "stopped" and result.iters == 25
    assert result.final is not None  # the model as it stands is still evaluated


def test_the_generator_hands_back_control_every_max_interval():
    """A consumer that simply stops iterating regains control within max_interval, even when
    it asked for a Progress only every 10⁹ iterations. A fake clock makes this exact."""
    ticks = iter(range(10**6))

    def clock():  # 10 ms per reading
        return next(ticks) * 0.01

    gen = train(
        TrainConfig(iters=100_000, eval_every=0), every=10**9, max_interval=0.05, clock=clock
    )
    first = next(gen)
    second = next(gen)
    gen.close()  # stopping = no longer iterating; nothing is left running
    assert first.result is None and second.result is None
    assert 1 <= first.iteration <= 6  # ~one clock reading per iteration, 5 readings = 50 ms
    assert 1 <= second.iteration - first.iteration <= 6


def test_huge_learning_rate_ends_cleanly_as_diverged():
    progress = list(train(TrainConfig(lr=1e30, iters=200)))
    result = progress[-1].result
    assert result.outcome.kind == "diverged"
    assert result.outcome.code.startswith("train.outcome.diverged_")
    assert result.final is None and math.isnan(result.seq_acc)
    from attn_tui.i18n import t

    assert "1e+30" in t(result.outcome.code, lang="en", **result.outcome.params)


def test_injected_inf_ends_cleanly_as_diverged():
    trainer = TrainConfig(iters=50).build()
    trainer.model.Why[0, 0] = np.inf
    result = list(run(trainer))[-1].result
    assert result.outcome.kind == "diverged" and result.outcome.iteration == 0
    assert result.outcome.code == "train.outcome.diverged_loss"


@pytest.mark.parametrize("attention", [False, True])
def test_a_short_run_learns(attention):
    result = run_to_end(TrainConfig(length=4, attention=attention, iters=600, seed=1))
    assert result.outcome.kind == "finished" and result.iters == 600
    assert result.losses[:20].mean() > 1.6  # ≈ ln 6 at the start: guessing
    assert result.final_loss < 0.5 * result.losses[:20].mean()
    assert result.pos_acc > 0.6  # chance is 1/6
    assert result.seconds > 0 and result.eval_seconds > 0
    assert result.params == (934 if attention else 838)


def test_compare_runs_both_variants_per_seed():
    seen = []
    c = compare(TrainConfig(length=3, iters=40, eval_every=0), range(3), on_result=seen.append)
    assert isinstance(c, Comparison)
    assert [(r.config.seed, r.config.variant) for r in seen] == [
        (0, "none"),
        (0, "dot"),
        (1, "none"),
        (1, "dot"),
        (2, "none"),
        (2, "dot"),
    ]
    s = c.stats("dot", "pos_acc")
    values = [r.pos_acc for r in c.runs["dot"]]
    assert s.n == 3 and s.lo == min(values) and s.hi == max(values)
    assert s.mean == pytest.approx(np.mean(values)) and s.sd == pytest.approx(
        np.std(values, ddof=1)
    )
    d = c.to_dict()
    assert d["variants"][0]["reference"] is None  # the book has no length-3 run
    assert [v["params"] for v in d["variants"]] == [838, 934]
    assert "weight" in d["variants"][1] and "weight" not in d["variants"][0]


def test_stats_of_one_value_and_of_nothing():
    assert Stats.of([0.5]).sd == 0.0
    assert Stats.of([math.nan]).n == 0


def test_compare_any_two_variants_and_feeds():
    base = TrainConfig(length=3, iters=30, eval_every=0, feed="none")
    c = compare(base, range(2), ("dot", "qk"))
    assert c.variants == ("dot", "qk")
    assert [r.config.seed for r in c.runs["qk"]] == [0, 1]
    assert all(r.config.feed == "none" and r.config.score == "qk" for r in c.runs["qk"])
    d = c.to_dict()
    assert [v["params"] for v in d["variants"]] == [838, 1350]  # 934 − 96, 1446 − 96
    assert d["feed"] == "none" and d["variants"][0]["reference"] is None


def test_alignment_reads_the_reversal_diagonal():
    from attn_tui.core.models.loop import Alignment

    L = 4
    exact = np.eye(L)[::-1]  # output t reads input L+1−t
    a = Alignment.of(exact)
    assert (a.weight, a.peaks, a.left, a.right, a.row_max) == (1.0, 1.0, 0.0, 0.0, 1.0)
    shifted = np.roll(exact, -1, axis=1)  # every row one column left (the first wraps)
    a = Alignment.of(shifted)
    assert a.weight == 0.0 and a.left == 0.75 and a.peaks == 0.0
    flat = np.full((L, L), 1 / L)
    assert Alignment.of(flat).weight == pytest.approx(1 / L)


def test_variants_and_their_names():
    cfg = TrainConfig()
    assert cfg.variant == "none" and cfg.with_variant("qk").variant == "qk"
    assert cfg.with_variant("qk").with_variant("none").attention is False
    assert [cfg.with_variant(v).n_params for v in ("none", "dot", "general", "qk")] == [
        838,
        934,
        1190,
        1446,
    ]


def test_budget_estimate_grows_with_the_work():
    from attn_tui.core.models.trainer import estimate_seconds

    small = estimate_seconds(TrainConfig(length=10, iters=3000, attention=True))
    huge = estimate_seconds(TrainConfig(length=12, iters=100_000, batch=1024))
    assert 0 < small < 10 < 60 < huge
    assert estimate_seconds(TrainConfig(iters=2000)) == pytest.approx(
        2 * estimate_seconds(TrainConfig(iters=1000)), rel=0.05
    )


@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_adam_follows_pytorchs_formula(dtype):
    """Five steps against the formula written out in float64 (bias-corrected averages, eps
    outside the square root), as torch.optim.Adam computes it."""
    from attn_tui.core.models.loop import Adam

    rng = np.random.default_rng(11)
    lr, b1, b2, eps = 0.003, 0.9, 0.999, 1e-8
    params = rng.standard_normal(7).astype(dtype)
    adam = Adam(7, lr, b1, b2, eps, dtype)
    p, m, v = params.astype(np.float64), np.zeros(7), np.zeros(7)
    for t in range(1, 6):
        g = rng.standard_normal(7).astype(dtype)
        adam.step(params, g)
        m = b1 * m + (1 - b1) * g
        v = b2 * v + (1 - b2) * g.astype(np.float64) ** 2
        p -= lr / (1 - b1**t) * m / (np.sqrt(v) / math.sqrt(1 - b2**t) + eps)
        rel = 1e-5 if dtype == "float32" else 1e-12
        np.testing.assert_allclose(params, p, rtol=rel, atol=0)
        np.testing.assert_allclose(adam.m, m, rtol=rel, atol=1e-7 if dtype == "float32" else 0)
        np.testing.assert_allclose(adam.v, v, rtol=rel * 10, atol=0)
