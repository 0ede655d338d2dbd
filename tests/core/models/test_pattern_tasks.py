"""The Transformer's tasks: each target against examples worked by hand, and the induction
task's sequences (a segment copied to a later, varying place; the loss on its tokens 2–8)."""

from __future__ import annotations

import numpy as np
import pytest

from attn_tui.core.models import tasks
from attn_tui.core.models.transformer_trainer import TransformerConfig
from attn_tui.core.parse import InputError

X = np.array([[3, 0, 5, 0, 1, 2], [2, 2, 1, 4, 0, 5]])  # D A F A B C, C C B E A F


@pytest.mark.parametrize(
    "task, expected",
    [
        ("reverse", [[2, 1, 0, 5, 0, 3], [5, 0, 4, 1, 2, 2]]),
        ("sort", [[0, 0, 1, 2, 3, 5], [0, 1, 2, 2, 4, 5]]),
        # y_1 = x_1, then each letter its left neighbour
        ("previous", [[3, 3, 0, 5, 0, 1], [2, 2, 2, 1, 4, 0]]),
        # the largest of itself and its two neighbours (one at the ends)
        ("local", [[3, 5, 5, 5, 2, 2], [2, 2, 4, 4, 5, 5]]),
        # the first letter everywhere
        ("first", [[3] * 6, [2] * 6]),
        # the largest of each block of 4: positions 1–4, then 5–6
        ("block", [[5, 5, 5, 5, 2, 2], [4, 4, 4, 4, 5, 5]]),
        # the next token; the last position (never scored) keeps its own
        ("induction", [[0, 5, 0, 1, 2, 2], [2, 1, 4, 0, 5, 5]]),
    ],
)
def test_targets_worked_by_hand(task, expected):
    np.testing.assert_array_equal(tasks.targets(task, X), expected)
    # a stack of batches gets the same, batch by batch
    stacked = tasks.targets(task, np.stack([X, X[::-1]]))
    np.testing.assert_array_equal(stacked[0], expected)


def test_an_unknown_task_is_refused_by_name():
    with pytest.raises(InputError) as err:
        tasks.targets("copy", X)
    assert err.value.params["value"] == "copy" and "induction" in err.value.params["choices"]


def test_copy_pairs_land_after_their_source_and_inside_the_sequence():
    pairs = tasks.copy_pairs(32)
    assert len(pairs) == 153 == sum(17 - s for s in range(17))  # sources 0..16
    s, d = pairs[:, 0], pairs[:, 1]
    assert (d >= s + tasks.SEGMENT).all() and (d + tasks.SEGMENT <= 32).all()
    assert len({(a, b) for a, b in pairs}) == len(pairs)


def test_induction_sequences_hold_their_copy_and_score_its_tokens_2_to_8():
    rng = np.random.default_rng(7)
    batch = tasks.draw_induction(rng, 400, 32)
    x, copies = batch.x, batch.copies
    assert x.shape == (400, 32) and x.min() >= 0 and x.max() < 64
    for n in range(400):
        s, d = copies[n]
        np.testing.assert_array_equal(x[n, d : d + 8], x[n, s : s + 8])
    # the loss reads positions d..d+6, whose next tokens are the copy's tokens 2..8
    rows = batch.rows.reshape(400, 7)
    assert (rows // 32 == np.arange(400)[:, None]).all()
    pos = rows % 32
    np.testing.assert_array_equal(pos, copies[:, 1:2] + np.arange(7))
    y = batch.y
    for n in range(0, 400, 37):
        s, d = copies[n]
        np.testing.assert_array_equal(y[n, pos[n]], x[n, s + 1 : s + 8])
    # both offsets vary: many sources, many destinations, many distances
    assert len(set(copies[:, 0])) >= 15 and len(set(copies[:, 1])) >= 15
    assert len(set(copies[:, 1] - copies[:, 0])) >= 15


def test_the_held_out_set_is_fixed_and_training_draws_differ_from_it():
    a = tasks.InductionData(32, 200, 2024)
    b = tasks.InductionData(32, 200, 2024)
    np.testing.assert_array_equal(a.eval.x, b.eval.x)
    np.testing.assert_array_equal(a.eval.copies, b.eval.copies)
    drawn = a.draw(np.random.default_rng(0), 3, 32)
    assert len(drawn) == 3 and all(len(batch) == 32 for batch in drawn)
    seen = {tuple(r) for r in a.eval.x}
    assert not any(tuple(r) in seen for batch in drawn for r in batch.x)
    # each batch's rows index into that batch
    for batch in drawn:
        assert batch.rows.min() >= 0 and batch.rows.max() < 32 * 32


def test_the_trainer_draws_the_tasks_data():
    trainer = TransformerConfig.for_task("induction", eval_size=50).build()
    batch = next(trainer._draw())
    assert batch.x.shape == (32, 32) and batch.rows.shape == (32 * 7,)
    assert trainer.model.arch.vocab == 64 and trainer.model.arch.causal
    trainer = TransformerConfig.for_task("block", eval_size=50).build()
    batch = next(trainer._draw())
    assert batch.x.shape == (16, 12) and batch.rows is None
    np.testing.assert_array_equal(batch.y, tasks.targets("block", batch.x))


def test_find_copy_finds_the_copied_segment():
    rng = np.random.default_rng(11)
    batch = tasks.draw_induction(rng, 200, 32)
    found = 0
    for x, (s, d) in zip(batch.x, batch.copies, strict=True):
        got = tasks.find_copy(x)
        assert got is not None
        # the copy itself, or one a chance match extends by a token before it
        found += got == (s, d)
        assert got[1] - got[0] == d - s or got == (s, d)
    assert found >= 190
    assert tasks.find_copy(np.arange(32)) is None  # nothing repeats


def test_induction_settings_are_checked():
    cfg = TransformerConfig.for_task("induction")
    assert (cfg.length, cfg.layers, cfg.heads, cfg.d_model, cfg.feed_forward, cfg.causal,
            cfg.lr, cfg.batch) == (32, 2, 1, 32, False, True, 0.003, 32)  # fmt: skip
    assert cfg.validate() is cfg and cfg.arch.vocab == 64
    with pytest.raises(InputError) as err:
        TransformerConfig.for_task("induction", causal=False).validate()
    assert err.value.code == "transformer.induction_causal"
    for bad in (17, 65, "32"):
        with pytest.raises(InputError) as err:
            TransformerConfig.for_task("induction", length=bad).validate()
        assert err.value.code == "transformer.bad_induction_length"
    # a letter task keeps the RNN's lengths, 2..20
    with pytest.raises(InputError):
        TransformerConfig.for_task("previous", length=32).validate()


def test_parse_reads_letters_or_tokens():
    np.testing.assert_array_equal(tasks.parse("sort", "ab cd", 4), [0, 1, 2, 3])
    np.testing.assert_array_equal(tasks.parse("induction", "Aa0*", 4), [0, 26, 52, 63])
    assert tasks.labels("induction", [0, 26, 52, 63]) == "Aa0*"
    for task, text in (("sort", "ABCG"), ("induction", "Aa0-"), ("sort", "ABC")):
        with pytest.raises(InputError):
            tasks.parse(task, text, 4)


def test_a_position_blind_pattern_run_claims_no_ceiling():
    """position_blind_ceiling's bound is derived for reversal and sorting alone; a pattern run
    without positions shows no bound rather than one that does not hold for it."""
    from attn_tui.core.models.loop import run_to_end
    from attn_tui.core.models.transformer_trainer import TransformerConfig

    def ceiling(task: str) -> float | None:
        config = TransformerConfig(task=task, positions="none", iters=2, eval_every=0)
        return run_to_end(config).ceiling

    assert all(ceiling(task) is None for task in ("previous", "local", "first", "block"))
    assert ceiling("sort") is not None and ceiling("reverse") is not None
