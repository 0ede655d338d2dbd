"""Switching a head off: exactly that head's share of the output is gone, nothing else moves,
and the copy figures are the ones the evaluation reports."""

from __future__ import annotations

import numpy as np

from attn_tui.core.models import tasks
from attn_tui.core.models.ablation import ablate, copy_figures, pick_heads, without_head
from attn_tui.core.models.transformer import Architecture, TinyTransformer
from attn_tui.core.models.transformer_trainer import evaluate


def _model(arch, seed=0):
    rng = np.random.default_rng(seed)
    model = TinyTransformer(arch, dtype=np.float64, rng=rng)
    model.params += rng.normal(0, 0.1, model.n_params)
    return model, rng


def test_switching_a_head_off_removes_its_share_of_the_output_and_nothing_else():
    """One layer of two heads, no feed-forward, no norm: the logits are (H + O) W_out + b with
    O = Σ_h Z_h W_O[rows of h]; without head 1 they lose exactly Z_1 W_O[rows of head 1]."""
    arch = Architecture(length=6, d_model=8, heads=2, layers=1, feed_forward=False, vocab=9)
    model, rng = _model(arch)
    x = rng.integers(0, 9, (4, 6))
    logits, caches, _ = model.forward(x)
    off = without_head(model, 1, 1)
    assert off is not model and not np.shares_memory(off.params, model.params)
    W_O = model.layers[0].W_O
    Zc = caches[0].Zc  # (N, d): head 1 in columns 0..3, head 2 in 4..7
    expected = logits - (Zc[:, :4] @ W_O[:4]).dot(model.W_out).T
    np.testing.assert_allclose(off.forward(x)[0], expected, rtol=0, atol=1e-12)
    # the weights of both heads are unchanged (switching off acts on the output only)
    np.testing.assert_array_equal(off.forward(x)[1][0].A, caches[0].A)
    changed = np.flatnonzero(off.params != model.params)
    s = model.slices["1.W_O"]
    assert set(changed) <= set(range(s.start, s.start + 4 * 8))  # W_O's first 4 rows only


def test_the_ablation_reports_the_evaluations_figures_and_picks_the_telling_heads():
    arch = Architecture(length=20, d_model=8, heads=2, layers=2, feed_forward=False,
                        causal=True, vocab=64)  # fmt: skip
    model, rng = _model(arch, seed=1)
    batch = tasks.draw_induction(np.random.default_rng(5), 60, 20)
    snap = evaluate(model, "induction", batch)
    prev, ind = pick_heads(model, batch)
    assert prev[0] == 1 and ind[0] == 2
    layer1 = [h for h in snap.heads if h.layer == 1]
    layer2 = [h for h in snap.heads if h.layer == 2]
    assert prev[1] == 1 + int(np.argmax([h.scores.previous for h in layer1]))
    assert ind[1] == 1 + int(np.argmax([h.scores.induction for h in layer2]))
    before = copy_figures(model, batch, prev, ind)
    assert before.copy_acc == snap.pos_acc and before.seq_acc == snap.seq_acc
    assert before.induction == layer2[ind[1] - 1].scores.induction
    result = ablate(model, batch)
    assert result.off == prev and result.before == before
    after = evaluate(without_head(model, *prev), "induction", batch)
    assert result.after.copy_acc == after.pos_acc
    assert result.after.induction == after.heads[2 + ind[1] - 1].scores.induction
    d = result.to_dict()
    assert d["off"] == {"layer": 1, "head": prev[1]}
    assert d["copy_acc"] == {"before": before.copy_acc, "after": result.after.copy_acc}


def test_no_ablation_for_one_layer_or_without_copies():
    model, _ = _model(Architecture(length=20, d_model=8, layers=1, causal=True, vocab=64))
    batch = tasks.draw_induction(np.random.default_rng(0), 10, 20)
    assert ablate(model, batch) is None
    model, _ = _model(Architecture(length=20, d_model=8, layers=2, causal=True, vocab=64))
    assert ablate(model, tasks.Batch(batch.x, batch.y)) is None


def test_an_induction_run_reads_back_from_a_stored_run_with_its_scores_and_ablation():
    from attn_tui.core.models import stored_run
    from attn_tui.core.models.transformer_trainer import TransformerConfig, run_to_end

    r = run_to_end(TransformerConfig.for_task("induction", iters=3, eval_size=8, eval_every=0))
    back = stored_run.loads(stored_run.dumps(r))
    assert back.ablation == r.ablation and back.uniform_head == r.uniform_head
    assert back.final.heads == r.final.heads and back.final.probe.copy == r.final.probe.copy
    assert back.to_dict() == r.to_dict()
