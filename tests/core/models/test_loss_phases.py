"""The plateau-and-drop detector on curves whose phases are known by construction: each step
where a mark falls, recomputed here from a moving average written out with numpy."""

from __future__ import annotations

import math

import numpy as np
import pytest

from attn_tui.core.models.phases import DROP, FLAT, NEAR_START, SPAN, WINDOW, PhaseDetector, detect


def _smooth(losses: np.ndarray) -> np.ndarray:
    """s[t] for steps t = 1..n (1-based; NaN before WINDOW steps): the mean of the last WINDOW."""
    s = np.full(len(losses) + 1, np.nan)
    c = np.convolve(losses, np.ones(WINDOW) / WINDOW, mode="valid")  # ends at WINDOW..n
    s[WINDOW:] = c
    return s


def _expected(losses: np.ndarray) -> dict:
    """The rule of phases.py, written out from the averages."""
    s = _smooth(losses)
    first = s[WINDOW]
    flat = [t for t in range(WINDOW + SPAN, len(losses) + 1)
            if abs(s[t - SPAN] - s[t]) < FLAT and s[t] > first - NEAR_START]  # fmt: skip
    out = {"plateau_seen": None, "plateau_end": None, "drop_seen": None}
    if not flat:
        return out
    out["plateau_seen"] = flat[0]
    end = None
    for t in range(flat[0], len(losses) + 1):
        if t in flat:
            end = t
        elif s[t] < s[end] - DROP:
            out["drop_seen"] = t
            break
    out["plateau_end"] = end
    return out


def _phase_change(rng, sit: int = 320, fall: int = 150, n: int = 1000, noise: float = 0.05):
    """Near chance (ln 64) for ``sit`` steps, down 3 nats over ``fall`` steps, then flat."""
    t = np.arange(n)
    level = np.log(64) - np.clip((t - sit) / fall, 0, 1) * 3.0
    return level + rng.normal(0, noise, n)


def test_a_phase_change_is_marked_where_the_rule_says():
    losses = _phase_change(np.random.default_rng(0))
    p = detect(losses)
    want = _expected(losses)
    assert p.plateau_seen == want["plateau_seen"] == WINDOW + SPAN  # flat from the start
    assert p.plateau_start == WINDOW
    assert p.plateau_end == want["plateau_end"] == p.drop
    assert p.drop_seen == want["drop_seen"]
    # and where a person would put them: the fall starts at 320
    assert 300 <= p.plateau_end <= 380 and p.plateau_end < p.drop_seen <= 420
    assert p.plateau_level == pytest.approx(_smooth(losses)[p.plateau_end])
    assert p.drop_level < p.plateau_level - DROP


def test_a_curve_that_falls_at_once_has_no_plateau():
    t = np.arange(600)
    losses = 1.79 * np.exp(-t / 40) + 0.01  # reversal: down from ln 6 within ~100 steps
    p = detect(losses)
    assert p.plateau_start is None and p.drop is None
    assert _expected(losses)["plateau_seen"] is None


def test_a_plateau_that_never_drops_has_no_drop():
    losses = np.full(800, 1.6) + np.random.default_rng(1).normal(0, 0.02, 800)
    p = detect(losses)
    assert p.plateau_seen == WINDOW + SPAN and p.plateau_end == 800 and p.drop is None
    assert p.to_dict()["drop"] is None and p.to_dict()["plateau"]["end"] == 800


def test_a_slow_steady_fall_is_no_plateau():
    """Down 0.4 nats every 100 steps: never flat by the rule, so no plateau and no drop."""
    losses = np.log(64) - 0.004 * np.arange(900)
    assert detect(losses).plateau_start is None


def test_events_arrive_once_each_at_the_steps_they_are_known_in_any_chunking():
    losses = _phase_change(np.random.default_rng(2), sit=250)
    whole = detect(losses)
    d = PhaseDetector()
    events = []
    rng = np.random.default_rng(3)
    i = 0
    while i < len(losses):  # chunks of random size, as the screen receives them
        k = int(rng.integers(1, 60))
        events += d.extend(losses[i : i + k])
        i += k
    assert d.phases == whole
    assert events == [(whole.plateau_seen, "plateau"), (whole.drop_seen, "drop")]
    assert d.step == len(losses) and d.smooth == pytest.approx(losses[-WINDOW:].mean())


def test_a_non_finite_loss_is_skipped_not_averaged():
    losses = _phase_change(np.random.default_rng(4))
    spoilt = losses.copy()
    spoilt[50] = math.nan
    p = detect(spoilt)
    assert p.plateau_seen is not None and p.drop is not None
    assert math.isfinite(p.plateau_level)
