"""The lab's engine against references written without it: pure-Python loops, a per-head
numpy loop and the textbook formula softmax(QKᵀ/√d_k)·V."""

from __future__ import annotations

import json
import math
import subprocess
import sys

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from attn_tui.core.attention import lab
from attn_tui.core.parse import InputError

# ------------------------------------------------------------------ independent references


def _col(W, c):
    return [row[c] for row in W]


def _dot(a, b):
    return sum(x * y for x, y in zip(a, b, strict=True))


def _allowed(i, j, causal, window):
    if causal and j > i:
        return False
    if window is not None and abs(i - j) > window:
        return False
    return True


def loop_layer(Xq, Xkv, WQ, WK, WV, WO, h, causal=False, window=None):
    """Multi-head attention with Python lists and math.exp only, one number at a time."""
    Xq, Xkv = Xq.tolist(), Xkv.tolist()
    WQ, WK, WV, WO = WQ.tolist(), WK.tolist(), WV.tolist(), WO.tolist()
    dk, dv = len(WQ[0]) // h, len(WV[0]) // h
    weights, heads_out = [], []
    for head in range(h):
        qcols = range(head * dk, (head + 1) * dk)
        vcols = range(head * dv, (head + 1) * dv)
        q = [[_dot(x, _col(WQ, c)) for c in qcols] for x in Xq]
        k = [[_dot(x, _col(WK, c)) for c in qcols] for x in Xkv]
        v = [[_dot(x, _col(WV, c)) for c in vcols] for x in Xkv]
        A, Z = [], []
        for i, qi in enumerate(q):
            s = {
                j: _dot(qi, kj) / math.sqrt(dk)
                for j, kj in enumerate(k)
                if _allowed(i, j, causal, window)
            }
            top = max(s.values())
            e = {j: math.exp(x - top) for j, x in s.items()}
            total = sum(e.values())
            row = [e[j] / total if j in e else 0.0 for j in range(len(k))]
            A.append(row)
            Z.append([sum(row[j] * v[j][c] for j in range(len(k))) for c in range(dv)])
        weights.append(A)
        heads_out.append(Z)
    concat = [sum((heads_out[hd][i] for hd in range(h)), []) for i in range(len(Xq))]
    output = [[_dot(row, _col(WO, c)) for c in range(len(WO[0]))] for row in concat]
    return np.array(weights), np.array(heads_out), np.array(concat), np.array(output)


def np_softmax(x):
    e = np.exp(x - x.max(axis=-1, keepdims=True))
    return e / e.sum(axis=-1, keepdims=True)


def per_head_loop(X, W_Q, W_K, W_V, W_O, h):
    """The multi-head formula head by head: head_i = Attention(X W_Q^i, X W_K^i, X W_V^i)."""
    dk = W_Q.shape[1] // h
    heads = []
    for i in range(h):
        cols = slice(i * dk, (i + 1) * dk)
        Q, K, V = X @ W_Q[:, cols], X @ W_K[:, cols], X @ W_V[:, cols]
        heads.append(np_softmax(Q @ K.T / np.sqrt(dk)) @ V)
    return heads, np.hstack(heads) @ W_O


# ------------------------------------------------------------------ the formula


def test_single_head_is_the_textbook_formula():
    seq = lab.preset("cat", d_model=4, seed=3)
    r = lab.compute(seq, heads=1, seed=3)
    P = r.proj
    Q, K, V = seq.X @ P.W_Q, seq.X @ P.W_K, seq.X @ P.W_V
    expected = np_softmax(Q @ K.T / math.sqrt(4)) @ V  # softmax(QKᵀ/√d_k)·V
    np.testing.assert_allclose(r.Z[0], expected, rtol=1e-12, atol=1e-12)
    np.testing.assert_allclose(r.concat, expected, rtol=1e-12, atol=1e-12)
    np.testing.assert_allclose(r.output, expected @ P.W_O, rtol=1e-12, atol=1e-12)
    assert r.d_k == 4 and r.sqrt_d_k == 2.0


def test_hand_example_one_head_identity_projections():
    # X = [[1,0],[0,1]], W = I: scores = XXᵀ/√2 = [[.7071, 0], [0, .7071]]
    X = "1 0; 0 1"
    seq = lab.typed(X, labels=["a", "b"])
    eye = np.eye(2)
    r = lab.compute(seq, proj=lab.projections(2, W_Q=eye, W_K=eye, W_V=eye, W_O=eye))
    s = 1 / math.sqrt(2)
    np.testing.assert_allclose(r.scores[0], [[s, 0], [0, s]])
    w = math.exp(s) / (math.exp(s) + 1)  # ≈ 0.6698
    np.testing.assert_allclose(r.weights[0], [[w, 1 - w], [1 - w, w]])
    np.testing.assert_allclose(r.output, [[w, 1 - w], [1 - w, w]])
    assert round(w, 4) == 0.6698


@pytest.mark.parametrize(("d_model", "heads"), [(8, 2), (8, 4), (6, 3), (16, 8), (5, 5)])
def test_batched_heads_equal_a_per_head_loop(d_model, heads):
    seq = lab.numbered(6, d_model, seed=11)
    r = lab.compute(seq, heads=heads, seed=11)
    P = r.proj
    loop_heads, loop_out = per_head_loop(seq.X, P.W_Q, P.W_K, P.W_V, P.W_O, heads)
    for i in range(heads):
        np.testing.assert_allclose(r.Z[i], loop_heads[i], rtol=1e-12, atol=1e-12)
    np.testing.assert_allclose(r.output, loop_out, rtol=1e-12, atol=1e-12)
    assert r.Qh.shape == (heads, 6, d_model // heads)
    assert r.weights.shape == (heads, 6, 6)


@settings(max_examples=40, deadline=None)
@given(
    n=st.integers(1, 8),
    d_model=st.sampled_from([1, 2, 3, 4, 6, 8, 12, 16]),
    data=st.data(),
    causal=st.booleans(),
    window=st.one_of(st.none(), st.integers(0, 8)),
    seed=st.integers(0, 2**16),
)
def test_matches_pure_python_loops(n, d_model, data, causal, window, seed):
    heads = data.draw(st.sampled_from([h for h in range(1, d_model + 1) if d_model % h == 0]))
    seq = lab.numbered(n, d_model, seed)
    r = lab.compute(seq, heads=heads, causal=causal, window=window, seed=seed)
    P = r.proj
    W, Z, C, Out = loop_layer(seq.X, seq.X, P.W_Q, P.W_K, P.W_V, P.W_O, heads, causal, window)
    np.testing.assert_allclose(r.weights, W, rtol=1e-10, atol=1e-12)
    np.testing.assert_allclose(r.Z, Z, rtol=1e-10, atol=1e-10)
    np.testing.assert_allclose(r.concat, C, rtol=1e-10, atol=1e-10)
    np.testing.assert_allclose(r.output, Out, rtol=1e-10, atol=1e-10)
    np.testing.assert_allclose(r.row_sums, 1.0, rtol=0, atol=1e-12)


def test_typed_narrow_projections_give_d_k_from_their_width():
    seq = lab.typed("1 2 0; 0 1 1; 1 0 1")
    WQ = "1 0; 0 1; 1 1"  # 3 × 2: d_k = 2 with one head
    WV = "1 0 0 1; 0 1 0 0; 0 0 1 0"  # 3 × 4: d_v = 2 per head with two heads
    P = lab.projections(3, seed=0, W_Q=WQ, W_V=WV)
    assert P.W_K.shape == (3, 2) and P.W_O.shape == (4, 3)  # seeded partners fit
    r = lab.compute(seq, proj=P, heads=2)
    assert (r.d_k, r.d_v) == (1, 2)
    W, Z, C, Out = loop_layer(seq.X, seq.X, P.W_Q, P.W_K, P.W_V, P.W_O, 2)
    np.testing.assert_allclose(r.weights, W, rtol=1e-12)
    np.testing.assert_allclose(r.output, Out, rtol=1e-12)


def test_typing_one_matrix_leaves_the_seeded_others_unchanged():
    seeded = lab.projections(4, seed=7)
    mixed = lab.projections(4, seed=7, W_Q=np.eye(4))
    np.testing.assert_array_equal(mixed.W_Q, np.eye(4))
    for name in ("W_K", "W_V", "W_O"):
        np.testing.assert_array_equal(getattr(mixed, name), getattr(seeded, name))


# ------------------------------------------------------------------ masks


def test_causal_weights_are_exactly_zero_above_the_diagonal_and_rows_sum_to_one():
    r = lab.compute(lab.preset("cat", 8, 0), heads=2, causal=True)
    upper = np.triu(np.ones((5, 5), dtype=bool), k=1)
    for head in range(2):
        assert np.all(r.weights[head][upper] == 0.0)  # exactly, not approximately
        assert np.all(np.isneginf(r.scores[head][upper]))
        assert np.all(r.weights[head][~upper] > 0)
        np.testing.assert_allclose(r.weights[head].sum(axis=1), 1.0, atol=1e-15)
    assert r.weights[0, 0, 0] == 1.0  # the first token can only see itself


def test_causal_rows_are_the_softmax_of_the_visible_prefix():
    """Renormalised: row i equals softmax over keys 0..i of the unmasked scores."""
    seq = lab.numbered(6, 4, seed=2)
    full = lab.compute(seq, heads=1, seed=2)
    causal = lab.compute(seq, heads=1, causal=True, seed=2)
    for i in range(6):
        prefix = full.raw[0, i, : i + 1] / full.sqrt_d_k
        np.testing.assert_allclose(causal.weights[0, i, : i + 1], np_softmax(prefix), rtol=1e-12)
    # the last row sees everything, so it matches the unmasked row
    np.testing.assert_allclose(causal.weights[0, -1], full.weights[0, -1], rtol=1e-12)


def test_window_pattern():
    allowed = lab.mask(5, 5, window=1)
    expected = np.array(
        [[1, 1, 0, 0, 0],
         [1, 1, 1, 0, 0],
         [0, 1, 1, 1, 0],
         [0, 0, 1, 1, 1],
         [0, 0, 0, 1, 1]], dtype=bool,
    )  # fmt: skip
    np.testing.assert_array_equal(allowed, expected)
    np.testing.assert_array_equal(lab.mask(4, 4, window=0), np.eye(4, dtype=bool))
    np.testing.assert_array_equal(
        lab.mask(4, 4, causal=True, window=1),
        np.array([[1, 0, 0, 0], [1, 1, 0, 0], [0, 1, 1, 0], [0, 0, 1, 1]], dtype=bool),
    )
    assert lab.mask(4, 4, window=3).all()  # a window as wide as the sequence hides nothing


def test_window_zero_copies_each_value_row():
    seq = lab.numbered(4, 4, seed=5)
    r = lab.compute(seq, heads=2, window=0, seed=5)
    np.testing.assert_array_equal(r.weights, np.broadcast_to(np.eye(4), (2, 4, 4)))
    np.testing.assert_allclose(r.concat, r.V, rtol=1e-12)  # each token attends only to itself


def test_window_weights_zero_outside_band():
    r = lab.compute(lab.numbered(7, 8, seed=1), heads=4, window=2, seed=1)
    i, j = np.indices((7, 7))
    outside = np.abs(i - j) > 2
    assert np.all(r.weights[:, outside] == 0.0)
    assert np.all(r.weights[:, ~outside] > 0)
    np.testing.assert_allclose(r.row_sums, 1.0, atol=1e-15)


# ------------------------------------------------------------------ cross-attention


def test_cross_attention_is_rectangular_and_matches_loops():
    target = lab.preset("love_zh", 8, seed=4)  # 3 queries
    source = lab.numbered(5, 8, seed=4, prefix="y")  # 5 keys/values
    r = lab.compute(target, source, heads=2, seed=4)
    assert r.cross
    assert r.weights.shape == (2, 3, 5)
    assert r.output.shape == (3, 8)
    assert r.Q.shape == (3, 8) and r.K.shape == (5, 8) and r.V.shape == (5, 8)
    assert r.to_dict()["tokens"] == {
        "queries": ["我", "爱", "中国"],
        "keys": ["y1", "y2", "y3", "y4", "y5"],
    }
    P = r.proj
    W, Z, C, Out = loop_layer(target.X, source.X, P.W_Q, P.W_K, P.W_V, P.W_O, 2)
    np.testing.assert_allclose(r.weights, W, rtol=1e-12)
    np.testing.assert_allclose(r.output, Out, rtol=1e-10, atol=1e-12)


def test_cross_attention_with_itself_is_self_attention():
    seq = lab.preset("cat", 8, 0)
    same = lab.compute(seq, seq, heads=2)
    copy = lab.compute(seq, lab.Tokens(seq.labels, seq.X.copy()), heads=2)
    assert not same.cross and copy.cross
    np.testing.assert_array_equal(same.weights, copy.weights)


# ------------------------------------------------------------------ cells


def test_score_cell_explains_the_score():
    r = lab.compute(lab.preset("cat", 8, 0), heads=2, causal=True)
    cell = lab.score_cell(r, head=1, i=3, j=1)
    assert (cell.query, cell.key) == ("垫子", "坐")
    np.testing.assert_array_equal(cell.q_row, r.Q[3, 4:8])  # head 1 owns columns 4..7
    np.testing.assert_array_equal(cell.k_row, r.K[1, 4:8])
    assert math.isclose(sum(cell.products), cell.dot, rel_tol=1e-12)
    assert math.isclose(cell.scaled, cell.dot / 2.0, rel_tol=1e-12)  # √d_k = √4
    assert not cell.masked and cell.weight == r.weights[1, 3, 1]
    hidden = lab.score_cell(r, head=0, i=1, j=4)
    assert hidden.masked and hidden.weight == 0.0 and hidden.to_dict()["scaled"] is None


def test_output_and_projection_cells_add_up():
    r = lab.compute(lab.preset("cat", 8, 0), heads=2)
    out = lab.output_cell(r, head=1, i=2, c=3)
    np.testing.assert_array_equal(out.values, r.V[:, 4 + 3])
    assert math.isclose(out.terms.sum(), out.total, rel_tol=1e-12)
    assert out.total == r.concat[2, 4 + 3]
    proj = lab.projection_cell(r, "K", 4, 6)
    np.testing.assert_array_equal(proj.x_row, r.memory.X[4])
    np.testing.assert_array_equal(proj.w_col, r.proj.W_K[:, 6])
    assert math.isclose(proj.products.sum(), r.K[4, 6], rel_tol=1e-12, abs_tol=1e-15)


# ------------------------------------------------------------------ presets and JSON


def test_presets_are_the_seed_sentences_and_deterministic():
    assert lab.preset("cat").labels == ("猫", "坐", "在", "垫子", "上")
    assert lab.preset("love").labels == ("I", "love", "China")
    a, b = lab.preset("cat", 8, 0), lab.preset("cat", 8, 0)
    np.testing.assert_array_equal(a.X, b.X)
    assert not np.array_equal(a.X, lab.preset("cat", 8, 1).X)  # the seed matters
    # the same word gets the same vector wherever it appears
    np.testing.assert_array_equal(lab.embed(["在", "猫"], 8, 0).X[1], a.X[0])
    assert np.all(a.X * 10 == np.round(a.X * 10))  # shown to one decimal = used exactly


def test_to_dict_is_strict_json():
    r = lab.compute(lab.preset("cat", 8, 0), heads=2, causal=True, window=1)
    d = json.loads(json.dumps(r.to_dict(), allow_nan=False))
    assert {"shapes", "weights", "output"} <= d.keys()
    assert d["shapes"]["Q_heads"] == [2, 5, 4]
    assert d["scores"][0][0][1] is None  # −∞ is written as null
    assert len(d["weights"]) == 2 and len(d["weights"][0]) == 5


# ------------------------------------------------------------------ shapes and cost


def test_shapes_trace_of_the_seed_example():
    tr = lab.shapes_trace(10, 512, 8)
    assert tr.d_k == 64 and tr.sqrt_d_k == 8.0
    shapes = {s.key: s.shape for s in tr.steps}
    assert shapes["x"] == (10, 512)
    assert shapes["split"] == (10, 8, 64)
    assert shapes["heads"] == (8, 10, 64)
    assert shapes["scores"] == (8, 10, 10)
    assert shapes["head_out"] == (8, 10, 64)
    assert shapes["concat"] == (10, 512)
    assert shapes["output"] == (10, 512)
    assert tr.scores_per_head == 100 and tr.scores_total == 800
    assert tr.parameters == 4 * 512 * 512


def test_shapes_trace_agrees_with_a_computed_layer():
    r = lab.compute(lab.numbered(6, 12, 0), heads=3)
    tr = lab.shapes_trace(6, 12, 3)
    by_key = {s.key: s.shape for s in tr.steps}
    assert by_key["heads"] == r.Qh.shape
    assert by_key["scores"] == r.scores.shape
    assert by_key["head_out"] == r.Z.shape
    assert by_key["concat"] == r.concat.shape
    assert by_key["output"] == r.output.shape


def test_cost_figures():
    c = lab.cost(5)
    assert (c.scores, c.rnn_steps, c.attention_steps) == (25, 5, 1)
    assert (c.short_scores, c.long_scores, c.ratio) == (10_000, 1_000_000, 100)


# ------------------------------------------------------------------ faults


def _code(fn, *args, **kwargs):
    with pytest.raises(InputError) as info:
        fn(*args, **kwargs)
    return info.value


def test_heads_must_divide_d_model():
    err = _code(lab.compute, lab.numbered(3, 8), heads=3)
    assert err.code == "lab.heads"
    assert err.params == {"heads": 3, "d_model": 8, "divisors": "1, 2, 4, 8"}
    assert _code(lab.compute, lab.numbered(3, 8), heads=0).code == "lab.heads"
    assert _code(lab.shapes_trace, 10, 512, 7).code == "lab.heads"


def test_sequence_length_limits():
    assert _code(lab.numbered, 0).code == "lab.empty"
    assert _code(lab.embed, []).code == "lab.empty"
    assert _code(lab.embed, ["  ", ""]).code == "lab.empty"
    err = _code(lab.numbered, 9)
    assert err.code == "lab.too_many_tokens" and err.params == {"count": 9, "limit": 8}
    assert _code(lab.typed, "1;2;3;4;5;6;7;8;9").code == "lab.too_many_tokens"


def test_d_model_limits():
    assert _code(lab.numbered, 3, 17).params["limit"] == 16
    assert _code(lab.numbered, 3, 0).code == "lab.d_model"


def test_typed_shape_mismatch():
    err = _code(lab.projections, 3, W_Q="1 0; 0 1")  # 2×2, needs 3 rows
    assert err.code == "lab.shape"
    assert err.params == {"matrix": "W_Q", "rows": 2, "cols": 2, "want_rows": 3, "want_cols": 2}
    err = _code(lab.projections, 2, W_Q=np.eye(2), W_K=np.ones((2, 3)))
    assert err.code == "lab.shape" and err.params["matrix"] == "W_K"
    err = _code(lab.projections, 2, W_V=np.eye(2), W_O=np.ones((3, 2)))
    assert err.code == "lab.shape" and err.params["matrix"] == "W_O"
    assert _code(lab.typed, "1 0; 0 1", labels=["a"]).code == "lab.labels"


def test_typed_parse_faults_name_the_matrix():
    err = _code(lab.typed, "1 2; 3 x")
    assert err.code == "not_a_number"
    assert err.params == {"field": "X", "token": "x", "entry": 2, "row": 2}
    assert _code(lab.typed, "1 2; 3").code == "ragged"
    assert _code(lab.projections, 2, W_O="").code == "empty"


def test_bad_window_and_cross_faults():
    assert _code(lab.compute, lab.numbered(3, 4), window=-1).code == "lab.window"
    assert _code(lab.mask, 3, 3, window=1.5).code == "lab.window"
    a, b = lab.numbered(3, 4), lab.numbered(2, 4, prefix="y")
    assert _code(lab.compute, a, b, causal=True).code == "lab.cross_mask"
    assert _code(lab.compute, a, lab.numbered(2, 6)).code == "lab.cross_dim"
    assert _code(lab.preset, "dog").params == {"name": "dog", "names": "cat, love, love_zh"}


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_every_fault_reads_as_a_sentence(lang):
    from attn_tui.i18n import describe

    faults = [
        lambda: lab.compute(lab.numbered(3, 8), heads=3),
        lambda: lab.numbered(0),
        lambda: lab.numbered(9),
        lambda: lab.numbered(2, 40),
        lambda: lab.projections(3, W_Q="1 0; 0 1"),
        lambda: lab.typed("1 2; 3 x"),
        lambda: lab.typed("1 2; 3"),
        lambda: lab.typed("1 2; ,"),
        lambda: lab.typed("1 2; nan 1"),
        lambda: lab.typed("1 2; 1e9 1"),
        lambda: lab.typed("1,,2"),
        lambda: lab.typed(""),
        lambda: lab.typed("1 0", labels=["a", "b"]),
        lambda: lab.mask(2, 2, window=-3),
        lambda: lab.compute(lab.numbered(2, 4), lab.numbered(2, 4, prefix="y"), window=1),
        lambda: lab.compute(lab.numbered(2, 4), lab.numbered(2, 2)),
        lambda: lab.preset("dog"),
        lambda: lab.shapes_trace(0, 512, 8),
        lambda: lab.compute(
            lab.typed("1 0 0"), proj=lab.projections(3, W_Q=np.ones((3, 2))), heads=3
        ),
    ]
    for fault in faults:
        with pytest.raises(InputError) as info:
            fault()
        text = describe(info.value, lang=lang)
        assert text and "{" not in text, (info.value, text)


def test_core_imports_no_ui():
    code = (
        "import sys, attn_tui.core.attention.lab; "
        "bad = [m for m in ('textual', 'rich', 'attn_tui.i18n', 'attn_tui.text') "
        "if m in sys.modules]; print(bad)"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"


def test_config_builds_the_same_layer_as_the_parts():
    from dataclasses import replace

    base = lab.LabConfig()
    r = lab.build(base)
    assert r.queries.labels == lab.PRESETS["cat"] and r.heads == 2 and not r.cross
    np.testing.assert_array_equal(r.weights, lab.compute(lab.preset("cat"), heads=2).weights)
    masked = lab.build(replace(base, causal=True, heads=4))
    assert masked.weights.shape == (4, 5, 5) and masked.weights[0, 0, 1] == 0.0
    cross = lab.build(replace(base, preset="love_zh", cross="love"))
    assert cross.cross and cross.weights.shape == (2, 3, 3)
    with pytest.raises(InputError):
        lab.build(replace(base, heads=3))
