"""When the written-answer grader should say it is not sure: a small logistic model of its own
signals, fitted on judged answers and shipped as the numbers below.

A grade is flagged when the model's log-odds that the grade disagrees with a teacher exceed
:data:`THRESHOLD`. Its inputs (:func:`features`) are what a careful reader of the grader's work
would look at: which side of the pass mark the grade fell on and how far, how close that is
(a pass or a fail one idea away), how much of the credit was found (a fail that found most of
the ideas), the share of the answer's words in sentences that credited nothing (what the grader
passed over), an idea denied or said both ways, a turn after the ideas ("actually…"), a
comparison ("it's like…"), the share of words the grader does not know, the answer's length
and whether it is a bare list of keywords, and how often the grader misread answers to this
question (:data:`ITEM_RATE`; the mean for a question it was never fitted on). An answer that only
says it does not know is never flagged (a "not sure" beside "no idea" tells the learner nothing).

The numbers are fitted by ``benchmarks/fit_written_flag.py`` (L2-regularised logistic
regression; the independent teachers' answers weigh three times the older calibration files',
which were written by people who had seen the rubrics); the threshold flags 18 % of the
independent teachers' answers it was fitted on. How well it holds on a teacher it never saw is
measured by the same script, fitting on the other teachers (and the older files) and scoring the
one left out — the items' rates too are counted on the other teachers alone. On the 520
independent dev answers (five teachers) at the time of this fit: 100 flagged (19 %), 20 of the 28
misgradings among them (0.71); in-sample 94 (18 %) and 22/28 — the gap is what fitting on the
answers themselves is worth, and why the first figure is the one to quote.
"""

from __future__ import annotations

import math

FEATURES = (
    "passed",  # 1 on a pass
    "failed",  # 1 on a fail
    "passed × margin",  # score − pass mark, on a pass
    "failed × margin",  # … on a fail (negative)
    "passed × near",  # exp(−|margin| / 0.1): 1 at the mark, 0.37 one tenth away
    "failed × near",
    "failed × found share",  # the share of the rubric's weight found, on a fail
    "passed × unread",  # share of words in sentences that credit no idea
    "failed × unread",
    "passed × denied",  # an idea negated, swapped, contradicted or said both ways
    "turn",  # a turn after the first idea found
    "failed × comparison",  # the answer leans on a comparison
    "passed × unknown",  # share of content words the grader knows nothing of
    "failed × unknown",
    "passed × log words",  # log(1 + words) / 4
    "failed × log words",
    "keyword list",
    "item's misgrading rate",  # × 10: how often the grader misread this question's answers
)
# Fitted by benchmarks/fit_written_flag.py (see its output for the data and the figures).
WEIGHTS = (
    -1.9285, -5.3479, -1.2950, 1.3257, 1.9747, -0.2064, 4.5764, -0.5130, -0.3859, -0.4631,
    1.7997, 1.9162, 1.0690, 1.7277, -2.6522, 0.3574, -1.2341, 1.2625,
)  # fmt: skip
THRESHOLD = -2.3383
# How often the grader misread each question's answers, over the independent teachers' answers
# (fitted with the weights): the grader knows which questions it reads less well.
ITEM_RATE: dict[str, float] = {
    "bx-cross-text": 0.0511,
    "cannot-create": 0.0733,
    "name-steps": 0.0288,
    "sc-steps": 0.0288,
    "sc-why-lost": 0.0288,
    "sc-why-sqrt": 0.0511,
    "tf-why-order": 0.14,
    "what-weights-explain": 0.0733,
    "why-heads": 0.0066,
    "why-nonzero-helps": 0.14,
    "why-positions": 0.1177,
    "why-scale": 0.0288,
    "why-worse": 0.0066,
}  # fmt: skip


def features(
    score: float,
    pass_mark: float,
    found_share: float,
    *,
    unread: float,
    denied: bool,
    turn: bool,
    comparison: bool,
    unknown: float,
    words: int,
    keyword_list: bool,
    item_rate: float = 0.0,
) -> tuple[float, ...]:
    """The model's inputs for one grade, in the order of :data:`FEATURES`."""
    passed = 1.0 if score >= pass_mark - 1e-9 else 0.0
    failed = 1.0 - passed
    margin = score - pass_mark
    near = math.exp(-abs(margin) / 0.1)
    size = math.log1p(words) / 4
    return (
        passed,
        failed,
        passed * margin,
        failed * margin,
        passed * near,
        failed * near,
        failed * found_share,
        passed * unread,
        failed * unread,
        passed * float(denied),
        float(turn),
        failed * float(comparison),
        passed * unknown,
        failed * unknown,
        passed * size,
        failed * size,
        float(keyword_list),
        10 * item_rate,
    )


def log_odds(values: tuple[float, ...], weights: tuple[float, ...] = WEIGHTS) -> float:
    """The model's log-odds that a grade with these inputs disagrees with a teacher."""
    return sum(w * x for w, x in zip(weights, values, strict=True))


def unsure(values: tuple[float, ...], dont_know: bool) -> bool:
    """Whether a grade with these inputs is flagged uncertain."""
    return not dont_know and log_odds(values) > THRESHOLD


def of_judgement(exercise, j, rates: dict[str, float] | None = None) -> tuple[float, ...]:
    """The model's inputs for a judged answer (``j``: a :class:`.judge.Judgement`); ``rates``
    the items' misgrading rates (:data:`ITEM_RATE` unless given: the fit passes its own)."""
    from attn_tui.core.exercises.model import FOUND
    from attn_tui.core.exercises.written.judge import core_weight

    total = core_weight(exercise.rubric)
    found = sum(r.idea.weight for r in j.results if r.state == FOUND and not r.idea.bonus)
    return features(
        j.score,
        exercise.pass_mark,
        found / total if total else 0.0,
        unread=j.unread,
        denied=j.denied or j.conflict,
        turn=j.turn,
        comparison=j.analogy,
        unknown=j.unknown_share,
        words=j.words,
        keyword_list=j.keyword_list,
        item_rate=item_rate(exercise.id, ITEM_RATE if rates is None else rates),
    )


def item_rate(item: str, rates: dict[str, float]) -> float:
    """An item's misgrading rate; for one the fit never saw, the mean over those it did."""
    if item in rates:
        return rates[item]
    return sum(rates.values()) / len(rates) if rates else 0.0


__all__ = [
    "FEATURES",
    "ITEM_RATE",
    "THRESHOLD",
    "WEIGHTS",
    "features",
    "item_rate",
    "log_odds",
    "of_judgement",
    "unsure",
]
