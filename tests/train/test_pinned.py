"""The textbook model's numbers for a given seed never change.

These figures were recorded from the trainer before the scoring variants and the speed work
(commit 0208ea5): the losses of every iteration (as a hash of their float32 bytes), the held-out
accuracies and the held-out attention average. Any change to the arithmetic of the dot-product
model, to its initialisation or to the order of its random draws shows up here. ``score="dot"``
and ``feed="previous"`` are that model.
"""

import hashlib

import pytest

from attn_tui.core.models.trainer import TrainConfig, run_to_end


def _digest(array) -> str:
    return hashlib.sha256(array.tobytes()).hexdigest()[:16]


PINNED = [
    # (length, attention, iters, seed) → params, seq_acc, pos_acc, last loss, losses, attention
    ((5, False, 2000, 0), 838, 0.965, 0.9908, 0.016542237997055054, "82c29968b1a09cc7", None),
    ((5, True, 2000, 0), 934, 0.988, 0.9974, 0.017002770304679872, "fb718e98f2794609",
     "052884e523c562e9"),
    ((10, True, 3000, 0), 934, 0.3, 0.7027, 0.31892526149749756, "9ec2250a4ac6e82c",
     "fe73900e19b82082"),
    ((10, False, 3000, 1), 838, 0.106, 0.5528, 0.4007539749145508, "73429e41fc4b53dd", None),
]  # fmt: skip


@pytest.mark.parametrize("case", PINNED, ids=lambda c: "L{}-{}-{}it-seed{}".format(*c[0]))
def test_the_textbook_model_gives_the_same_numbers_for_the_same_seed(case):
    (length, attention, iters, seed), params, seq, pos, last, losses, attn = case
    result = run_to_end(TrainConfig(length=length, attention=attention, iters=iters, seed=seed))
    assert result.params == params
    assert (result.seq_acc, result.pos_acc) == (seq, pos)
    assert float(result.losses[-1]) == last
    assert _digest(result.losses) == losses
    mean = result.final.attention_mean
    assert (None if mean is None else _digest(mean)) == attn


# The learned scores, recorded from the trainer before the speed work of issue 14 (main at
# 72dfc9d): their arithmetic must not move either (exercises/trainer_figures.toml quotes them).
PINNED_SCORES = [
    # (length, score, feed, iters, seed) → params, seq_acc, pos_acc, last loss, losses, attention
    ((5, "general", "previous", 2000, 0), 1190, 0.992, 0.998, 0.008928488194942474,
     "9a86eed801beb897", "2376f7f2c6324759"),
    ((10, "general", "previous", 3000, 0), 1190, 1.0, 1.0, 0.0006094397511333227,
     "ab76e87ccc90565a", "31b93f6d40d06fbf"),
    ((10, "qk", "previous", 3000, 0), 1446, 1.0, 1.0, 0.0004587184637784958,
     "ca5a19f362b43079", "82eb9468f7145f67"),
    ((10, "qk", "none", 3000, 2), 1350, 0.986, 0.9985, 0.0012738710269331933,
     "b7d7babe2a338d2a", "92c207dc8190af3a"),
]  # fmt: skip


@pytest.mark.parametrize("case", PINNED_SCORES, ids=lambda c: "L{}-{}-{}-{}it-seed{}".format(*c[0]))
def test_the_learned_scores_give_the_same_numbers_for_the_same_seed(case):
    (length, score, feed, iters, seed), params, seq, pos, last, losses, attn = case
    config = TrainConfig(length=length, attention=True, score=score, feed=feed, iters=iters,
                         seed=seed)  # fmt: skip
    result = run_to_end(config)
    assert result.params == params
    assert (result.seq_acc, result.pos_acc) == (seq, pos)
    assert float(result.losses[-1]) == last
    assert _digest(result.losses) == losses
    assert _digest(result.final.attention_mean) == attn
