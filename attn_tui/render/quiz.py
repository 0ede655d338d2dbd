"""Rich renderables of the self-check quiz: the start page, a question, the feedback on an
answer (the same block in the question view and the review), the summary by topic.

Each takes what the core computed (``core.quiz``: answers, a scored run; the stored attempts)
and lays it out; none keeps state.
"""

from __future__ import annotations

import re
import time
from collections.abc import Sequence

from rich.console import Group, RenderableType
from rich.text import Text

from attn_tui.core import quiz
from attn_tui.core.exercises.generators import Instance
from attn_tui.core.exercises.grading import Grade
from attn_tui.core.format import cell_len
from attn_tui.core.progress import QuizAttempt
from attn_tui.i18n import t
from attn_tui.render.prose import Prose
from attn_tui.render.steps import columns, row_bar

GOOD, PART, BAD, DIM, ACCENT = "bold green", "bold yellow", "bold red", "dim", "bold cyan"
SIGN = {"correct": ("✓", GOOD), "partial": ("◐", PART)}  # anything else: ✗ in red
HISTORY_SHOWN = 5


def num(x: float) -> str:
    """Marks as people write them: 7, 7.5, 6.67."""
    return f"{x:.2f}".rstrip("0").rstrip(".")


def topic(tag: str) -> str:
    return t(f"quiz.topic.{tag}")


def topic_bar(fraction: float, width: int, style: str) -> Text:
    """A bar on a faint track, so an empty bar still shows where full would be. Half height:
    the topics' bars stand one under another and must not merge (``render.steps.row_bar``)."""
    filled = row_bar(fraction, width).rstrip(" ")
    return Text.assemble((filled, style), ("·" * (width - len(filled)), DIM))


def status(n: int, total: int, score: float, done: int, mode: str) -> Text:
    """Above a question: which it is, the marks so far, the kind of quiz."""
    return Text.assemble(
        (t("quiz.question_of", n=n, total=total), ACCENT),
        ("  ·  " + t("quiz.running", score=num(score), done=done), DIM),
        ("  ·  " + t(f"quiz.mode.{mode}"), DIM),
    )


def intro(bank_size: int, broken_banks: int) -> RenderableType:
    parts: list[RenderableType] = [Prose(t("quiz.intro"))]
    if not bank_size:
        parts.append(Text(t("quiz.empty_bank"), BAD))
    if broken_banks:
        parts.append(Text(t("quiz.broken_banks", count=broken_banks), "yellow"))
    return Group(*parts)


def attempt_line(key: str, a: QuizAttempt) -> str:
    when = time.strftime("%Y-%m-%d %H:%M", time.localtime(a.at))
    return t(
        key, when=when, mode=t(f"quiz.mode.{a.mode}"), score=num(a.score),
        total=num(a.total), percent=round(100 * a.fraction),
    )  # fmt: skip


def history(attempts: Sequence[QuizAttempt], bests: Sequence[QuizAttempt]) -> RenderableType:
    """The best quick and full scores, then the last few attempts, newest first."""
    lines: list[RenderableType] = [Text(t("quiz.history"), "bold")]
    if not attempts:
        lines.append(Text(t("quiz.no_history"), DIM))
        return Group(*lines)
    lines += [Text(attempt_line("quiz.best", best), GOOD) for best in bests]
    lines += [
        Text(attempt_line("quiz.history_line", a)) for a in reversed(attempts[-HISTORY_SHOWN:])
    ]
    return Group(*lines)


def question(inst: Instance, lang: str) -> RenderableType:
    """The prompt, its choices, its kind and topics."""
    ex = inst.exercise
    parts: list[RenderableType] = [Prose(inst.prompt(lang), "bold")]
    for c in ex.choices:
        parts.append(Prose(f"  {c.id}. {c.text.get(lang)}"))
    topics = t("ex.list_sep").join(topic(x) for x in ex.topics)
    parts.append(Text(f"{t(f'quiz.kind.{ex.kind}')}  ·  {t('quiz.topics', topics=topics)}", DIM))
    return Group(*parts)


def not_an_answer(g: Grade) -> RenderableType:
    """A typo in a number or a choice that does not exist: why it is not an answer."""
    lines = [t("quiz.not_an_answer"), *g.lines(t)[1:]]
    return Group(*(Prose(line, "yellow") for line in lines))


# An explanation longer than this (terminal cells) opens with its short answer; the rest
# waits behind a key. The short answer is whole sentences: the first that reach SHORT_MIN
# cells, else as many as fit SHORT_MAX, else the first clause of one long sentence.
LONG = 320
SHORT_MIN, SHORT_MAX = 60, 160
_SENTENCE_END = re.compile(r"(?<=[.!?])\s+(?=[A-Z0-9“\"(])|(?<=[。！？])(?!$)")
_CLAUSE_END = re.compile(r"(?<=[:;])\s+|(?<=[：；])")


def split_explanation(text: str) -> tuple[str, str]:
    """(short answer, the rest) when the text is longer than LONG; else (text, "")."""
    if cell_len(text) <= LONG:
        return text, ""

    def cells(end: int) -> int:
        return cell_len(text[:end])

    fits = [m.start() for m in _SENTENCE_END.finditer(text) if cells(m.start()) <= SHORT_MAX]
    cut = next((e for e in fits if cells(e) >= SHORT_MIN), None)
    if cut is None and fits and cells(fits[-1]) >= 20:
        cut = fits[-1]
    clause = False
    if cut is None:  # one long sentence first: its first clause
        ends = [
            m.start() for m in _CLAUSE_END.finditer(text) if 20 <= cells(m.start()) <= SHORT_MAX
        ]
        cut, clause = (ends[0], True) if ends else (None, False)
    if cut is None or cell_len(text[cut:].strip()) < SHORT_MIN:
        return text, ""
    short = text[:cut].rstrip()
    return (short + " …" if clause else short), text[cut:].strip()


def feedback(
    a: quiz.Answered, lang: str, numbered: int | None = None, full: bool = True
) -> RenderableType:
    """The verdict, what was typed, the notes (ideas found and missing), the reference
    answer and the explanation — the same block in the question view and the review.
    ``full=False``: a long explanation shows its short answer and says which key shows the
    rest."""
    g = a.grade
    sign, style = SIGN.get(g.status, ("✗", BAD))
    lines = g.lines(t)
    parts: list[RenderableType] = []
    if numbered is not None:
        parts.append(Prose(f"{numbered}. {a.inst.prompt(lang)}", "bold"))
    typed = str(a.answer).strip() if a.answer is not None else ""
    parts.append(Prose(t("quiz.your_answer", answer=typed or t("quiz.no_answer"))))
    parts.append(Text.assemble((f"{sign} ", style), (lines[0], style)))
    parts += [Prose(line, "yellow") for line in lines[1:]]
    parts.append(Prose(t("quiz.reference", answer=a.inst.answer_text(t)), GOOD))
    parts.append(Text(t("quiz.why"), ACCENT))
    short, rest = split_explanation(a.inst.explanation(lang))
    if full and rest:
        parts += [Prose(short), Prose(rest)]
    else:
        parts.append(Prose(short))
        if rest:
            parts.append(Prose(t("quiz.more_hint"), DIM))
    return Group(*parts)


def has_more(a: quiz.Answered, lang: str) -> bool:
    """Whether the explanation waits behind a key beyond its short answer."""
    return bool(split_explanation(a.inst.explanation(lang))[1])


def ordered_topics(res: quiz.QuizResult) -> list[tuple[str, tuple[float, float]]]:
    """(topic, (score, marks)), the weakest first, then by name."""
    return sorted(res.per_topic.items(),
                  key=lambda kv: (kv[1][0] / kv[1][1], topic(kv[0]).casefold()))  # fmt: skip


def summary(res: quiz.QuizResult, mode: str, new_best: bool) -> RenderableType:
    """The score, a bar, whether it is recorded or a new best, then the score by topic."""
    percent = round(100 * res.fraction)
    parts: list[RenderableType] = [
        Text(
            t("quiz.score", score=num(res.score), total=num(res.total), percent=percent), ACCENT
        ),  # fmt: skip
        topic_bar(res.fraction, 30, GOOD if res.fraction >= 0.8 else PART),
    ]
    if mode == "retry":
        parts.append(Text(t("quiz.not_recorded"), DIM))
    elif new_best:
        parts.append(Text(t("quiz.new_best"), GOOD))
    if res.missed:
        parts.append(Text(t("quiz.missed_count", count=len(res.missed))))
    else:
        parts.append(Text(t("quiz.all_right"), GOOD))
    parts.append(Text(""))
    parts.append(Text(t("quiz.by_topic"), "bold"))
    rows = []
    for tag, (s, m) in ordered_topics(res):
        style = GOOD if s >= m - 1e-9 else PART if s > 0 else BAD
        rows.append([topic(tag), topic_bar(s / m, 16, style), f"{num(s)}/{num(m)}"])
    parts.append(columns(rows, "llr"))
    return Group(*parts)


def review(res: quiz.QuizResult, lang: str) -> RenderableType:
    """Every question not answered right, numbered as in the quiz, with its feedback."""
    parts: list[RenderableType] = []
    for i, a in enumerate(res.answered, 1):
        if not a.grade.correct:
            parts += [feedback(a, lang, numbered=i), Text("")]
    return Group(*parts)
