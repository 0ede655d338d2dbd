"""Rich renderables of the self-check quiz: the start page, a question, the feedback on an
answer (the same block in the question view and the review), the summary by topic.

Each takes what the core computed (``core.quiz``: answers, a scored run; the stored attempts)
and lays it out; none keeps state.
"""

from __future__ import annotations

import time
from collections.abc import Sequence

from rich.console import Group, RenderableType
from rich.text import Text

from attn_tui.core import quiz
from attn_tui.core.exercises.generators import Instance
from attn_tui.core.exercises.grading import Grade
from attn_tui.core.progress import QuizAttempt
from attn_tui.i18n import t
from attn_tui.render.prose import Prose
from attn_tui.render.steps import bar, columns

GOOD, PART, BAD, DIM, ACCENT = "bold green", "bold yellow", "bold red", "dim", "bold cyan"
SIGN = {"correct": ("✓", GOOD), "partial": ("◐", PART)}  # anything else: ✗ in red
HISTORY_SHOWN = 5


def num(x: float) -> str:
    """Marks as people write them: 7, 7.5, 6.67."""
    return f"{x:.2f}".rstrip("0").rstrip(".")


def topic(tag: str) -> str:
    return t(f"quiz.topic.{tag}")


def topic_bar(fraction: float, width: int, style: str) -> Text:
    """A bar on a faint track, so an empty bar still shows where full would be."""
    filled = bar(fraction, width).rstrip(" ")
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


def feedback(a: quiz.Answered, lang: str, numbered: int | None = None) -> RenderableType:
    """The verdict, what was typed, the notes (ideas found and missing), the reference
    answer and the explanation — the same block in the question view and the review."""
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
    parts.append(Prose(a.inst.explanation(lang)))
    return Group(*parts)


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
