"""When the written-answer grader should say it is not sure: a small logistic model of its own
signals, fitted on judged answers and shipped as the numbers below.

A grade is flagged when the model's log-odds that the grade disagrees with a teacher exceed
:data:`THRESHOLD`. Its inputs (:func:`features`) are what a careful reader of the grader's work
would look at: which side of the pass mark the grade fell on, how close a fail came to it,
whether a pass found every idea, an idea denied or said both ways, a turn after the ideas
("actually…"), the share of words the grader does not know, the answer's length; what follows
the last sentence that credited an idea (a pass that goes on to say what the grader has no rule
for: where a contradiction or a misconception sits); a second reading of a fail, each sentence
judged alone, that credits an idea the whole answer did not (the two readings disagree); whether
the answer has Chinese in it; and how often the grader misread answers to this question
(:data:`ITEM_RATE`; the mean for a question it was never fitted on). An answer that only says it
does not know is never flagged (a "not sure" beside "no idea" tells the learner nothing).

What the fit made of them (the signs of :data:`WEIGHTS`): a long fail, a fail in words the
grader does not know, a fail just under the mark, a fail with an idea both found and denied,
a turn, and a pass that goes on for a share of its words after its last credited sentence are
doubted; a pass that found every idea, or whose only doubt is an idea it denied, is trusted, and
so is a fail whose sentences, read alone, say an idea the whole answer took back (the context
the grader read is what cost it the idea).

The numbers are fitted by ``benchmarks/fit_written_flag.py``: an L2-regularised logistic
regression on the nine independent teachers' answers (each teacher weighing the same) and, at
0.15 the weight an answer, the older calibration files (written by people who had seen the
rubrics); the threshold flags 11 % of the independent answers it is fitted on, the largest
share at which no teacher left out had more than 18 % of its answers flagged (a margin under
20 %: a new teacher's share varies). How well it holds on a teacher it never saw is measured by
the same script, leaving each teacher out in turn: fitted on the others (the items' rates, and
the share to flag, chosen on the others alone) and scored on the one left out. Over the nine
teachers' 936 answers at the time of this fit: 122 flagged (13 %; per teacher 7–20 %), 28 of
the 36 misgradings among them (0.78; per teacher 0–1: A12 had one, unflagged; A5 5/8, the rest
2/3 or more); in-sample 103 (11 %) and 32/36 —
the gap is what fitting on the answers themselves is worth, and why the first figure is the
one to quote.
"""

from __future__ import annotations

import math
import re

from attn_tui.core.exercises.written import normalise_text

FEATURES = (
    "passed",  # 1 on a pass
    "failed",  # 1 on a fail
    "failed × near",  # exp(−|score − pass mark| / 0.1): 1 at the mark, 0.37 one tenth away
    "passed × all found",  # every idea of the rubric found
    "passed × denied",  # an idea negated, swapped or contradicted
    "passed × conflict",  # an idea found and also denied or swapped elsewhere
    "failed × conflict",
    "turn",  # a turn after the first idea found
    "failed × unknown",  # share of content words the grader knows nothing of
    "passed × log words",  # log(1 + words) / 4
    "failed × log words",
    "passed × tail",  # share of the answer's words after the last sentence that credits an idea
    "passed × tail sentences",  # how many sentences come after it: 0, ½ (one), 1 (two or more)
    "failed × other reading",  # read sentence by sentence, it credits an idea the whole did not
    "failed × Chinese",  # the answer has Chinese in it
    "item's misgrading rate",  # × 10: how often the grader misread this question's answers
)
WEIGHTS = (
    -0.2642, -11.9604, 4.1255, -2.0808, -1.9083, 1.6197, 2.4220, 1.3577, 3.3455, -3.3206,
    7.5004, 4.1609, -0.2983, -3.0277, -0.1825, 1.9995,
)  # fmt: skip
THRESHOLD = -2.3091
ITEM_RATE: dict[str, float] = {
    "bx-cross-text": 0.0544,
    "cannot-create": 0.0674,
    "name-steps": 0.0155,
    "sc-steps": 0.0025,
    "sc-why-lost": 0.0285,
    "sc-why-sqrt": 0.0285,
    "tf-why-order": 0.0804,
    "what-weights-explain": 0.0415,
    "why-heads": 0.0025,
    "why-nonzero-helps": 0.0544,
    "why-positions": 0.0804,
    "why-scale": 0.0285,
    "why-worse": 0.0155,
}  # fmt: skip

_CJK = re.compile(r"[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]")
_EN_WORD = re.compile(r"[A-Za-z]+")
# where a sentence ends: the judge's own sentence marks (a full stop not inside a number)
_SENTENCE_END = re.compile(r"(?<=[。．！？!?；;\n])|(?<=\.)(?!\d)")


def features(
    score: float,
    pass_mark: float,
    *,
    all_found: bool,
    denied: bool,
    conflict: bool,
    turn: bool,
    unknown: float,
    words: int,
    tail: float = 0.0,
    tail_sentences: int = 0,
    other_reading: bool = False,
    chinese: bool = False,
    item_rate: float = 0.0,
) -> tuple[float, ...]:
    """The model's inputs for one grade, in the order of :data:`FEATURES`."""
    passed = 1.0 if score >= pass_mark - 1e-9 else 0.0
    failed = 1.0 - passed
    near = math.exp(-abs(score - pass_mark) / 0.1)
    size = math.log1p(words) / 4
    return (
        passed,
        failed,
        failed * near,
        passed * float(all_found),
        passed * float(denied),
        passed * float(conflict),
        failed * float(conflict),
        float(turn),
        failed * unknown,
        passed * size,
        failed * size,
        passed * tail,
        passed * min(tail_sentences, 2) / 2,
        failed * float(other_reading),
        failed * float(chinese),
        10 * item_rate,
    )


def log_odds(values: tuple[float, ...], weights: tuple[float, ...] = WEIGHTS) -> float:
    """The model's log-odds that a grade with these inputs disagrees with a teacher."""
    return sum(w * x for w, x in zip(weights, values, strict=True))


def unsure(values: tuple[float, ...], dont_know: bool) -> bool:
    """Whether a grade with these inputs is flagged uncertain."""
    return not dont_know and log_odds(values) > THRESHOLD


def sentences(answer: str) -> list[str]:
    """The answer's sentences, cut where the judge cuts them (。！？; and a full stop)."""
    return [s for s in _SENTENCE_END.split(answer) if normalise_text(s)]


def _words(s: str) -> float:
    """An English word counts one, a Chinese character a half (about two to a word)."""
    return len(_EN_WORD.findall(s)) + len(_CJK.findall(s)) / 2


def tail_after_credit(answer: str, quotes: list[str]) -> tuple[float, int]:
    """The share of ``answer``'s words in the sentences after the last one that holds a quote
    of a credited idea, and how many such sentences there are ((0, 0) when none holds one)."""
    sents = sentences(answer)
    keys = [k for k in (normalise_text(q) for q in quotes) if k]
    last = -1
    for i, s in enumerate(sents):
        n = normalise_text(s)
        if any(k in n or (len(k) > 12 and k[:12] in n) for k in keys):
            last = i
    if last < 0:
        return 0.0, 0
    sizes = [_words(s) for s in sents]
    total = sum(sizes)
    return (sum(sizes[last + 1 :]) / total if total else 0.0), len(sents) - 1 - last


def other_reading(exercise, answer: str, found: set[str], glossary) -> bool:
    """Whether judging each sentence of ``answer`` alone credits an idea that the whole answer,
    judged at once, did not: the two ways of reading it disagree."""
    from attn_tui.core.exercises.model import FOUND
    from attn_tui.core.exercises.written.judge import judge

    sents = sentences(answer)
    if len(sents) < 2:
        return False
    for s in sents:
        j = judge(exercise, s, glossary)
        if any(r.state == FOUND and r.idea.id not in found for r in j.results):
            return True
    return False


def of_judgement(
    exercise,
    j,
    rates: dict[str, float] | None = None,
    *,
    answer: str = "",
    glossary=None,
) -> tuple[float, ...]:
    """The model's inputs for a judged answer (``j``: a :class:`.judge.Judgement` of
    ``answer``); ``rates`` the items' misgrading rates (:data:`ITEM_RATE` unless given: the fit
    passes its own). Without the answer's text (or the glossary it was judged with), the
    signals read from the text count as absent."""
    from attn_tui.core.exercises.model import FOUND

    core = [r for r in j.results if not r.idea.bonus]
    found = {r.idea.id for r in j.results if r.state == FOUND}
    passed = j.score >= exercise.pass_mark - 1e-9
    tail, after = 0.0, 0
    if answer and passed:
        quotes = [q for r in j.results if r.state == FOUND for q in r.matched]
        tail, after = tail_after_credit(answer, quotes)
    other = (
        bool(answer)
        and glossary is not None
        and not passed
        and other_reading(exercise, answer, found, glossary)
    )
    return features(
        j.score,
        exercise.pass_mark,
        all_found=bool(core) and all(r.state == FOUND for r in core),
        denied=j.denied or j.conflict,
        conflict=j.conflict,
        turn=j.turn,
        unknown=j.unknown_share,
        words=j.words,
        tail=tail,
        tail_sentences=after,
        other_reading=other,
        chinese=bool(_CJK.search(answer)),
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
    "other_reading",
    "sentences",
    "tail_after_credit",
    "unsure",
]
