"""The misconception bank names a wrong answer only when the mistake fits it exactly.

Every code is shown on a stored item and on a generated one (fresh numbers, so the mistake is
recomputed on the draw), typed as a learner types it; a random wrong answer gets nothing; and
whatever is diagnosed is, recomputed, the very number the learner gave.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from attn_tui import paths
from attn_tui.core.exercises import misconceptions as M
from attn_tui.core.exercises.generators import fmt_matrix, fmt_number, fmt_vector, instance
from attn_tui.core.exercises.grading import grade
from attn_tui.core.exercises.loader import load_file
from attn_tui.i18n import t

FIXTURE = Path(__file__).parent / "fixtures" / "mistakes.toml"


@pytest.fixture(scope="module")
def items():
    lib = paths.load_all()
    found = {f"{s.id}/{e.id}": e for s in lib.sets + lib.quizzes for e in s.exercises}
    fixture, problems = load_file(FIXTURE)
    assert not problems, problems
    found.update({f"{fixture.id}/{e.id}": e for e in fixture.exercises})
    return found


# code → (stored items, generated items) that show it
CASES = {
    "std-for-variance": (["scaling-variance/variance-dk"], ["mistakes-fixture/variance-gen"]),
    "variance-for-std": (["scaling-variance/std-64"], ["mistakes-fixture/std-gen"]),
    "variance-after-scaling": (["scaling-variance/variance-dk"], ["mistakes-fixture/variance-gen"]),
    "no-root": (
        ["scaling-variance/sqrt-512", "hand-example/sqrt3"],
        ["scaling-variance/sqrt-practice"],
    ),
    "unscaled": (
        ["hand-example/scaled", "hand-example/weights", "hand-example/output"],
        ["hand-example/weights-practice", "convex/output-practice"],
    ),
    "scaled-anyway": (["hand-example/unscaled-weights"], ["mistakes-fixture/unscaled-gen"]),
    "divided-by-d": (
        ["hand-example/scaled", "hand-example/weights"],
        ["hand-example/weights-practice", "convex/output-practice"],
    ),
    "sqrt-where-d-asked": (["scaling-variance/divide-by-d"], ["mistakes-fixture/std-by-d-gen"]),
    "scaled-for-raw": (["hand-example/dots"], ["three-steps/scores-practice"]),
    "temperature-ignored": (
        ["mistakes-fixture/temperature-stored"],
        ["mistakes-fixture/temperature-gen"],
    ),
    "scores-as-weights": (["hand-example/weights"], ["hand-example/weights-practice"]),
    "no-exp": (["hand-example/weights", "softmax/three-scores"], ["softmax/softmax-practice"]),
    "not-normalised": (
        ["hand-example/weights", "softmax/three-scores"],
        ["softmax/softmax-practice"],
    ),
    "no-max-shift": (["hand-example/exp-sum"], ["mistakes-fixture/exp-sum-gen"]),
    "uniform": (
        ["hand-example/weights", "qkv-self-attention/masked-row"],
        ["softmax/softmax-practice", "qkv-self-attention/masked-row-practice"],
    ),
    "plain-average": (["hand-example/output"], ["convex/output-practice"]),
    "hard-max": (["hand-example/weights", "hand-example/output"], ["softmax/softmax-practice"]),
    "mask-after-softmax": (
        ["qkv-self-attention/masked-row"],
        ["qkv-self-attention/masked-row-practice"],
    ),
    "mask-transposed": (["qkv-self-attention/mask-4"], ["qkv-self-attention/mask-practice"]),
    "mask-no-diagonal": (["qkv-self-attention/mask-4"], ["qkv-self-attention/mask-practice"]),
    "mask-inverted": (["qkv-self-attention/mask-4"], ["qkv-self-attention/mask-practice"]),
    "dmodel-for-dk": (["multi-head/head-dim"], ["multi-head/head-dim-practice"]),
    "heads-times": (["multi-head/head-dim"], ["multi-head/head-dim-practice"]),
    "rnn-no-wider-output": (["rnn-attention/params-attention"], ["rnn-attention/params-practice"]),
    "rnn-no-bias": (["rnn-attention/params-plain"], ["rnn-attention/params-practice"]),
    "rnn-one-rnn": (["rnn-attention/params-attention"], ["rnn-attention/params-practice"]),
    "rnn-projections": (["rnn-attention/params-attention"], ["rnn-attention/params-practice"]),
    "cost-linear": (["kinds-cost/cost-100-1000"], ["kinds-cost/cost-practice"]),
    "count-linear": (["kinds-cost/count-100"], ["kinds-cost/count-practice"]),
}

# What fits any answer: the wrong value from the right one.
UNIVERSAL = {
    "percent": (
        ["hand-example/sqrt3", "hand-example/weights"],
        ["scaling-variance/sqrt-practice"],
        lambda a: a * 100,
    ),
    "sign": (
        ["hand-example/sqrt3", "three-steps/one-dot"],
        ["scaling-variance/sqrt-practice"],
        lambda a: -a,
    ),
    "rounded": (
        ["hand-example/sqrt3", "hand-example/weights"],
        ["hand-example/weights-practice"],
        lambda a: np.round(a, 1),
    ),
    # a generated matrix is a causal mask, whose transpose is the specific "mask-transposed"
    "transposed": (["qkv-self-attention/cross-scores"], [], lambda a: a.T),
    # no generator draws shapes
    "shape-swapped": (
        ["qkv-self-attention/shape-q", "multi-head/head-shape"],
        [],
        lambda a: a[::-1],
    ),
}


def typed(value, kind: str) -> str:
    """The value as a learner types it (the app's own 4 decimals)."""
    if kind == "number":
        return fmt_number(float(np.ravel(value)[0]))
    if kind == "vector":
        return fmt_vector(value)
    return fmt_matrix(value)


def _wrong_values(inst, code):
    ctx = M.context(inst)
    assert ctx is not None and ctx[0] in M._BANK, "the item's function is not in the bank"
    return [np.asarray(w, dtype=np.float64) for c, w, _ in M._BANK[ctx[0]](ctx[1]) if c == code]


def _shows(inst, code, wrong) -> bool:
    g = grade(inst, typed(wrong, inst.exercise.kind))
    return not g.correct and [d.code for d in g.diagnoses] == [code]


def test_every_code_has_a_text_in_both_languages_and_a_test():
    for code in M.CODES:
        for lang in ("zh", "en"):
            assert t(f"course.mis.{code}", lang=lang)
    tested = set(CASES) | set(UNIVERSAL) | {"choice"}
    assert tested == set(M.CODES)


@pytest.mark.parametrize("code", sorted(CASES))
def test_a_mistake_recomputed_on_stored_and_generated_items_is_named(code, items):
    stored, generated = CASES[code]
    assert stored and generated
    for key in stored:
        inst = instance(items[key])
        wrong = _wrong_values(inst, code)
        assert any(_shows(inst, code, w) for w in wrong), key
    for key in generated:
        shown = 0
        for seed in range(12):  # fresh numbers each time; the diagnosis follows them
            inst = instance(items[key], seed)
            for w in _wrong_values(inst, code):
                g = grade(inst, typed(w, inst.exercise.kind))
                if g.correct:
                    continue  # on this draw the mistake gives the right answer
                if [d.code for d in g.diagnoses] == [code]:
                    shown += 1
                    d = g.diagnoses[0]
                    for lang in ("zh", "en"):  # said in both languages, with this draw's d
                        assert d.message(t, lang) in g.lines(t, lang)
                    if "d" in d.params and "d" in inst.drawn.values:
                        assert str(d.params["d"]) == fmt_number(inst.drawn.values["d"])
        assert shown >= 3, (key, shown)


@pytest.mark.parametrize("code", sorted(UNIVERSAL))
def test_what_fits_any_answer_is_named_on_stored_and_generated_items(code, items):
    stored, generated, make = UNIVERSAL[code]
    for key in stored + generated:
        insts = (
            [instance(items[key], seed) for seed in range(6)]
            if items[key].generated
            else [instance(items[key])]
        )
        hits = 0
        for inst in insts:
            answer = np.asarray(inst.answer, dtype=np.float64)
            wrong = make(answer)
            g = grade(inst, typed(wrong, inst.exercise.kind))
            if not g.correct and [d.code for d in g.diagnoses] == [code]:
                hits += 1
        assert hits >= max(1, len(insts) // 2), (key, hits)


def test_the_examples_the_issue_names(items):
    g = grade(items["scaling-variance/variance-dk"], "8")
    assert [d.code for d in g.diagnoses] == ["std-for-variance"]
    assert "8 is √64, the standard deviation" in " ".join(g.lines(t, "en"))
    # dividing by √d where the question divides by d is not "divided by d" (it was, before)
    g = grade(items["scaling-variance/divide-by-d"], "1")
    assert [d.code for d in g.diagnoses] == ["sqrt-where-d-asked"]
    assert "the usual division by √d = 8" in " ".join(g.lines(t, "en"))
    g = grade(items["hand-example/scaled"], "1 0 2 1")  # q·k unscaled, 2 for k₃
    assert [d.code for d in g.diagnoses] == ["unscaled"]


def test_a_random_wrong_answer_gets_no_diagnosis(items):
    rng = np.random.default_rng(7)
    checked = 0
    for key, ex in sorted(items.items()):
        if ex.kind not in ("number", "vector", "matrix"):
            continue
        insts = [instance(ex, s) for s in range(5)] if ex.generated else [instance(ex)]
        for inst in insts:
            answer = np.atleast_1d(np.asarray(inst.answer, dtype=np.float64))
            known = _every_mistake(inst)
            for _ in range(20):
                if rng.random() < 0.5:  # near the answer, as a slip would be, but not a mistake
                    wrong = answer * (1 + rng.uniform(0.03, 0.4, answer.shape)) + 0.0137
                else:
                    wrong = rng.uniform(-9.5, 9.5, answer.shape).round(3) + 0.0001
                wrong = wrong.reshape(answer.shape)
                if any(_near(wrong, k, ex.tolerance) for k in known):
                    continue  # a random draw that happens to be a known mistake is not random
                g = grade(inst, typed(wrong, ex.kind))
                assert g.correct or not g.diagnoses, (key, typed(wrong, ex.kind), g.diagnoses)
                checked += 1
    assert checked > 2000


def _every_mistake(inst) -> list[np.ndarray]:
    """Every value the bank could name for this item, computed here from its parts."""
    ctx = M.context(inst)
    answer = np.atleast_1d(np.asarray(inst.answer, dtype=np.float64))
    out = (
        [np.asarray(w, dtype=np.float64) for _, w, _ in M._BANK[ctx[0]](ctx[1])]
        if (ctx and ctx[0] in M._BANK)
        else []
    )
    out += [
        np.asarray(w, dtype=np.float64)
        for _, w, _ in M._universal(inst.exercise.kind, answer, True)
    ]
    out += [np.round(answer, k) for k in range(4)]
    return out


def _near(got, w, tol) -> bool:
    w = np.asarray(w, dtype=np.float64).reshape(-1)
    g = np.asarray(got, dtype=np.float64).reshape(-1)
    return g.shape == w.shape and all(
        abs(a - b) <= 3 * tol.bound(b) for a, b in zip(g, w, strict=True)
    )


def test_whatever_is_diagnosed_is_the_recomputed_mistake(items):
    """Never a diagnosis that does not fit: each one, recomputed, is the number typed."""
    rng = np.random.default_rng(11)
    for key, ex in sorted(items.items()):
        if ex.kind not in ("number", "vector", "matrix"):
            continue
        for seed in range(4) if ex.generated else [None]:
            inst = instance(ex, seed)
            ctx = M.context(inst)
            pool = list(M._BANK[ctx[0]](ctx[1])) if ctx and ctx[0] in M._BANK else []
            answer = np.asarray(inst.answer, dtype=np.float64)
            for _code, w, _ in pool:  # the mistakes themselves, nudged within and past tolerance
                for nudge in (0.0, 2e-4, 0.05):
                    got = np.asarray(w, dtype=np.float64) + nudge * rng.choice([-1, 1])
                    if got.shape != answer.shape:
                        continue
                    g = grade(inst, typed(got, ex.kind))
                    for d in g.diagnoses:
                        again = [np.asarray(v, dtype=np.float64) for c, v, _ in pool if c == d.code]
                        value = np.asarray(g.value, dtype=np.float64)
                        fits = (
                            any(
                                v.shape == value.shape
                                and all(
                                    ex.tolerance.ok(float(a), float(b))
                                    for a, b in zip(value.ravel(), v.ravel(), strict=True)
                                )
                                for v in again
                            )
                            or d.code in UNIVERSAL
                        )
                        assert fits, (key, d.code, typed(got, ex.kind))


def test_two_mistakes_with_the_same_numbers_are_not_guessed_between(items):
    # 1 as a learner's answer to "the std after dividing by d": both "divided by √d" (1) and
    # nothing else — but at d = 1 every scaling gives the same numbers, so nothing is said.
    ex = items["hand-example/weights"]
    inst = instance(ex)
    g = grade(inst, "0.25 0.25 0.25 0.25")
    assert [d.code for d in g.diagnoses] == ["uniform"]
    inst = instance(items["softmax/equal-scores"])  # uniform is the right answer here
    g = grade(inst, "1 0 0 0")
    assert all(d.code != "uniform" for d in g.diagnoses)
