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
