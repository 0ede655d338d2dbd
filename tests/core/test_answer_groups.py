"""A class's written answers in groups (core.answer_groups): alike answers together, verdicts
never mixed, the same groups in every process, a bounded cost for any class; group marks read
from an overrides file by line, checked against the answers they were made for."""

from __future__ import annotations

import subprocess
import sys
import textwrap

import numpy as np
import pytest

import attn_tui.core.answer_groups as ag
from attn_tui.core.answer_groups import Answer, fingerprint, group_answers, parse_group_marks


def answer(student, text, passed=True, found=("a",), score=None, question="q", unsure=False):
    mark = score if score is not None else (1.0 if passed else 0.0)
    return Answer(student, question, text, mark, passed, unsure, tuple(found))


def members(groups) -> list[set[str]]:
    return [set(g.students) for g in groups]


# -- grouping ---------------------------------------------------------------------------------


def test_alike_answers_share_a_group_and_unlike_ones_do_not():
    xs = [
        answer("ann", "Dividing by sqrt d keeps the variance of the scores at one."),
        answer("bob", "dividing by sqrt(d) keeps the variance of the scores at 1"),
        answer("cat", "Dividing by √d keeps the scores' variance at one, so softmax is soft."),
        answer("dan", "除以 √d 让分数的方差保持为 1", found=("a",)),
        answer("eve", "除以√d，分数的方差保持在 1", found=("a",)),
        answer("fay", "Because the learning rate must be small.", passed=False, found=()),
    ]
    groups = group_answers(xs)["q"]
    assert {"ann", "bob", "cat"} in members(groups)
    assert {"dan", "eve"} in members(groups)
    assert {"fay"} in members(groups)
    assert sorted(s for g in groups for s in g.students) == [
        "ann",
        "bob",
        "cat",
        "dan",
        "eve",
        "fay",
    ]


def test_a_group_never_mixes_the_graders_verdicts():
    # word for word the same but for one word, and the grader passed one and failed the other:
    # the teacher's one mark for a group must confirm or turn one verdict, never two
    xs = [
        answer("ann", "softmax turns the scores into weights that sum to one", passed=True),
        answer("bob", "softmax turns the scores into weights that sum to one", passed=True),
        answer("cat", "softmax turns the values into weights that sum to one", passed=False),
    ]
    groups = group_answers(xs)["q"]
    for g in groups:
        assert len({a.passed for a in g.answers}) == 1
    assert members(groups) == [{"ann", "bob"}, {"cat"}]


def test_the_same_answer_folded_is_one_wording_and_the_largest_group_comes_first():
    xs = [
        answer(f"s{k}", t)
        for k, t in enumerate(["Scale by √d", "scale  by √d", "ＳＣＡＬＥ by √d"])
    ]
    xs += [answer("z", "an unrelated reply about learning rates", passed=False, found=())]
    groups = group_answers(xs)["q"]
    assert [len(g.answers) for g in groups] == [3, 1]
    assert groups[0].wordings == 1 and groups[0].number == 1 and groups[1].number == 2


def test_the_typical_answer_is_the_one_most_like_the_rest():
    core = "the query is compared with every key and softmax makes the weights"
    xs = [
        answer("edge1", core + " and then we stop"),
        answer("middle", core),
        answer("edge2", core + " of course, quite"),
    ]
    (group,) = group_answers(xs)["q"]
    # the shortest one shares all its words with both others; each longer one has words alone
    assert group.typical.student == "middle"


def test_flagged_and_scores_of_a_group():
    xs = [
        answer("a", "weights sum to one", score=0.75, unsure=True),
        answer("b", "the weights sum to one", score=1.0),
    ]
    (group,) = group_answers(xs)["q"]
    assert group.scores == (0.75, 1.0) and group.flagged == 1


@pytest.mark.slow  # three fresh processes
def test_the_same_groups_in_every_process():
    """Words are hashed with crc32, not Python's salted hash(): a teacher who runs it twice
    (or on another machine) sees the same groups in the same order."""
    script = textwrap.dedent(
        """
        import attn_tui.core.answer_groups as ag
        words = "softmax query key value weights sum scale variance 方差 梯度 权重".split()
        xs = [ag.Answer(f"s{i}", "q", " ".join(words[(i * j) % len(words)] for j in range(6)),
                        1.0, i % 2 == 0) for i in range(60)]
        print([sorted(g.students) for g in ag.group_answers(xs)["q"]])
        """
    )
    runs = {
        subprocess.run(
            [sys.executable, "-c", script],
            env={"PYTHONHASHSEED": seed, "PATH": "/usr/bin:/bin"},
            capture_output=True,
            text=True,
            check=True,
        ).stdout
        for seed in ("1", "2", "3")
    }
    assert len(runs) == 1


# -- a bounded cost whatever the class -------------------------------------------------------


def test_a_class_of_thousands_with_megabyte_answers_is_grouped_within_its_bounds(monkeypatch):
    seen_rows: list[int] = []
    seen_chars: list[int] = []
    dense, tokens = ag._Points.dense, ag._tokens

    def counted_dense(self, rows):
        seen_rows.append(len(rows))
        return dense(self, rows)

    def counted_tokens(text):
        seen_chars.append(len(text))
        return tokens(text)

    monkeypatch.setattr(ag._Points, "dense", counted_dense)
    monkeypatch.setattr(ag, "_tokens", counted_tokens)
    rng = np.random.default_rng(0)
    vocab = "softmax query key value weights sum scale variance gradient 方差 梯度 权重".split()
    xs = [
        answer(f"s{i}", " ".join(rng.choice(vocab, 8)) + f" n{i}", passed=bool(i % 3))
        for i in range(3000)
    ]
    xs += [answer(f"big{i}", ("梯度消失" * 250_000) + str(i)) for i in range(4)]  # 1 M chars
    groups = group_answers(xs)["q"]
    placed = [s for g in groups for s in g.students]
    assert sorted(placed) == sorted(a.student for a in xs)  # each answer in one group
    assert max(seen_rows) <= max(ag.FULL_GROUPING, ag.BLOCK)  # never all rows dense at once
    assert max(seen_chars) <= ag.FEATURE_CHARS  # a megabyte is read as its first characters
    big = [g for g in groups if any(s.startswith("big") for s in g.students)]
    assert len(big) == 1  # the same to their first characters: one point, one group


def test_rarer_answers_past_the_full_grouping_join_the_group_they_are_like(monkeypatch):
    monkeypatch.setattr(ag, "FULL_GROUPING", 3)
    xs = [answer(f"a{i}", "softmax turns scores into weights") for i in range(5)]
    xs += [answer(f"b{i}", "divide by the square root of d") for i in range(4)]
    xs += [answer(f"c{i}", "values are summed with the weights") for i in range(3)]
    xs += [answer("late", "softmax turns the scores into weights")]  # rare: after the three
    xs += [answer("alone", "nothing like any other reply here at all", found=())]
    groups = group_answers(xs)["q"]
    by_student = {s: g.number for g in groups for s in g.students}
    assert by_student["late"] == by_student["a0"]
    assert sum(1 for g in groups if "alone" in g.students and len(g.answers) == 1) == 1


# -- fingerprints and group marks ------------------------------------------------------------


def test_a_fingerprint_ignores_case_width_and_spaces_but_not_words():
    base = fingerprint("Softmax turns scores into weights.")
    assert fingerprint("  softmax   turns scores into WEIGHTS. ") == base
    assert fingerprint("Softmax turns values into weights.") != base
    assert len(base) == ag.FINGERPRINT_HEX


MARKS = """\
[alice]
sc-dot = 1

# a group the teacher marked
[[group]]
question = "sc-why-sqrt"
mark = 0.5
comment = "half"
[group.students]
bob = "aaaa"
"李雷" = "bbbb"

[[group]]
question = "sc-why-sqrt"
[group.students]
carol = "cccc"
"""


def test_group_marks_are_read_with_their_lines_and_an_unmarked_group_marks_nothing():
    marks, problems = parse_group_marks(MARKS, "m.toml")
    assert problems == []
    first, second = marks
    assert (first.question, first.mark, first.comment, first.line) == (
        "sc-why-sqrt",
        0.5,
        "half",
        5,
    )
    assert first.students == (("bob", "aaaa", 10), ("李雷", "bbbb", 11))
    assert second.mark is None and second.line == 13


def test_the_student_marks_of_the_same_file_are_not_disturbed_by_groups():
    from attn_tui.core.gradebook import parse_overrides

    overrides, problems = parse_overrides(MARKS, "m.toml")
    assert problems == []
    assert [(o.student, o.question, o.mark, o.line) for o in overrides] == [
        ("alice", "sc-dot", 1.0, 2)
    ]


@pytest.mark.parametrize(
    "entry, line, says",
    [
        ('question = "q"\nmark = 2\n[group.students]\nx = "1"\n', 3, "groups.ov.bad_mark"),
        ('question = "q"\nmark = true\n[group.students]\nx = "1"\n', 3, "groups.ov.bad_mark"),
        ('question = "q"\nnote = "x"\n[group.students]\nx = "1"\n', 1, "groups.ov.unknown_key"),
        ('mark = 1\n[group.students]\nx = "1"\n', 1, "groups.ov.no_question"),
        ('question = "q"\nmark = 1\n', 1, "groups.ov.no_students"),
        ('question = "q"\nmark = 1\n[group.students]\nx = 3\n', 5, "groups.ov.bad_fingerprint"),
        ('question = "q"\nmark = 1\ncomment = 4\n[group.students]\nx = "1"\n', 4,
         "groups.ov.bad_comment"),
    ],
)  # fmt: skip
def test_each_fault_of_a_group_is_named_by_its_line(entry, line, says):
    text = "[alice]\nsc-dot = 1\n[[group]]\n" + entry
    _, problems = parse_group_marks(text, "m.toml")
    assert [(p.code, p.line) for p in problems] == [(says, line + 2)]


def test_a_student_named_group_is_still_a_student():
    from attn_tui.core.gradebook import parse_overrides

    text = "[group]\nsc-dot = 0.5\n"
    assert parse_group_marks(text, "m.toml") == ([], [])
    overrides, problems = parse_overrides(text, "m.toml")
    assert problems == [] and overrides[0].student == "group"
