"""How often the written-answer grader agrees with a teacher: pass/fail, per item, per kind of
answer, per language, and how well its "uncertain" flag finds its own misgradings.

    python benchmarks/written_agreement.py [FILE ...] [--misgraded] [--json]

A FILE is either TOML (``[[answer]]`` tables: item, expect = "pass"/"fail", text, optional
kind, lang, author) or JSON Lines (one object a line: author, item, lang, text,
judgment = "pass"/"fail", kind, why — the form independent teachers write; lines that start
with ``#`` are the file's header). An item is a quiz
id (``sc-steps``), ``SET/ID`` (``three-steps/name-steps``) or a bare exercise id that one set
alone has (``name-steps``). The language is the file's ``lang`` where given, else read from
the text (any Chinese character: zh). Prints, for each file and (with several) for all of
them: agreement, right answers passed (of all right), wrong answers failed (of all wrong),
per item, per kind and per language; the share of answers flagged uncertain and the share of
misgraded answers among them. ``--misgraded`` lists each disagreement (item, kind, judgment,
score, flag, text): use it on a dev part only, never on a part kept aside for measuring.
``--json`` prints the figures as one JSON object instead.

Only public APIs are used (``grading.grade``, a Grade's ``.correct``, ``.score`` and
``.uncertain``), so the same script run from an older checkout measures the grader as it was
("before").

The default files: dev / heldout / heldout2 (written with the rubrics, by their author) and
blind_dev / blind_heldout (written by an examiner before reading any rubric, glossary list or
calibration file; blind_dev was studied for causes, blind_heldout only scored), and a second
blind round, blind2_dev / blind2_heldout (all thirteen written items, each label with the
teacher's full / partial / none mark; the same rule: dev studied, held-out only scored), and a
third, blind3_dev / blind3_heldout (more right answers than wrong, in varied wording; written
by the session that then tuned the grader on blind3_dev, so its held-out part was scored by
its own author: blind_heldout and blind2_heldout are the fairer test), and independent_*.jsonl
(written and judged by teachers who never saw the grader, its rubrics or its examples: the
fairest test; see the header of each for which part was tuned on).
"""

from __future__ import annotations

import argparse
import json
import re
import sys
import tomllib
from collections import defaultdict
from dataclasses import dataclass
from pathlib import Path

from attn_tui import paths
from attn_tui.core.exercises.grading import grade

ROOT = Path(__file__).resolve().parent.parent
CALIBRATION = ROOT / "tests/core/exercises/calibration"
DEFAULT = [
    CALIBRATION / name
    for name in (
        "dev.toml",
        "heldout.toml",
        "heldout2.toml",
        "blind_dev.toml",
        "blind_heldout.toml",
        "blind2_dev.toml",
        "blind2_heldout.toml",
        "blind3_dev.toml",
        "blind3_heldout.toml",
    )
]
DEFAULT += [
    CALIBRATION / name
    for name in (
        "independent_dev.jsonl",
        "independent_heldout.jsonl",
        "independent_a5.jsonl",
        "independent_a3.jsonl",
        "independent_a4.jsonl",
        "independent_a9.jsonl",
        "independent_a10.jsonl",
        "independent_a11.jsonl",
        "independent_a12.jsonl",
    )
]
_CJK = re.compile(r"[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]")


def find(library, item: str):
    """A quiz id, SET/ID, or an exercise id that exactly one set has."""
    if "/" in item:
        set_id, ex_id = item.split("/", 1)
        s = library.get(set_id)
        return s.exercise(ex_id) if s else None
    hit = next((e for e in library.quiz_exercises if e.id == item), None)
    if hit is None:
        hits = [e for s in library.sets for e in s.exercises if e.id == item]
        hit = hits[0] if len(hits) == 1 else None
    return hit


@dataclass
class Row:
    item: str
    text: str
    right: bool  # the teacher passed it
    kind: str
    lang: str
    author: str


def load(path: Path) -> list[Row]:
    """The judged answers of one file (TOML or JSON Lines)."""
    raw = path.read_text("utf-8")
    if path.suffix == ".jsonl":
        records = [  # a line starting with "#" is the file's header: where it came from
            json.loads(line) for line in raw.splitlines() if line.strip() and line[0] != "#"
        ]
        verdict = "judgment"
    else:
        records = tomllib.loads(raw).get("answer", [])
        verdict = "expect"
    out = []
    for r in records:
        text = str(r["text"])
        lang = r.get("lang") or ("zh" if _CJK.search(text) else "en")
        out.append(
            Row(
                r["item"],
                text,
                r[verdict] == "pass",
                r.get("kind", "?"),
                lang,
                r.get("author", path.stem),
            )
        )
    return out


@dataclass
class Graded:
    row: Row
    passed: bool
    score: float
    uncertain: bool

    @property
    def agrees(self) -> bool:
        return self.passed == self.row.right


def grade_all(rows: list[Row], library) -> list[Graded]:
    out = []
    for r in rows:
        ex = find(library, r.item)
        if ex is None:
            print(f"unknown item {r.item!r}: skipped", file=sys.stderr)
            continue
        g = grade(ex, r.text)
        out.append(Graded(r, g.correct, g.score, bool(getattr(g, "uncertain", False))))
    return out


def figures(graded: list[Graded]) -> dict:
    """Agreement overall, per side, per item, per kind, per language, and the flag's figures."""

    def block(gs: list[Graded]) -> dict:
        right = [g for g in gs if g.row.right]
        wrong = [g for g in gs if not g.row.right]
        return {
            "n": len(gs),
            "agree": sum(g.agrees for g in gs),
            "right": len(right),
            "right_passed": sum(g.passed for g in right),
            "wrong": len(wrong),
            "wrong_failed": sum(not g.passed for g in wrong),
        }

    def by(key) -> dict:
        groups: dict[str, list[Graded]] = defaultdict(list)
        for g in graded:
            groups[key(g)].append(g)
        return {k: block(v) for k, v in sorted(groups.items())}

    mis = [g for g in graded if not g.agrees]
    return {
        "overall": block(graded),
        "flagged": sum(g.uncertain for g in graded),
        "misgraded": len(mis),
        "misgraded_flagged": sum(g.uncertain for g in mis),
        "item": by(lambda g: g.row.item),
        "kind": by(lambda g: f"{'right' if g.row.right else 'wrong'}: {g.row.kind}"),
        "lang": by(lambda g: g.row.lang),
    }


def _ratio(a: int, b: int) -> str:
    return f"{a / b:.2f}" if b else "  - "


def _line(name: str, b: dict) -> str:
    return (
        f"{name:36} {_ratio(b['agree'], b['n']):>6} {b['agree']:>4}/{b['n']:<4}"
        f" {b['right_passed']:>5}/{b['right']:<5} {b['wrong_failed']:>5}/{b['wrong']:<5}"
    )


def report(title: str, graded: list[Graded], misgraded: bool = False) -> None:
    f = figures(graded)
    head = f"{'':36} {'agree':>6} {'':9} {'right passed':>11} {'wrong failed':>11}"
    print(f"\n== {title}")
    for section in ("item", "kind", "lang"):
        print(f"{head.replace(' ' * 36, ('per ' + section).ljust(36), 1)}")
        for name, b in f[section].items():
            print(_line(name, b))
    o = f["overall"]
    print(_line("overall", o))
    print(
        f"right side {_ratio(o['right_passed'], o['right'])}, "
        f"wrong side {_ratio(o['wrong_failed'], o['wrong'])}, n = {o['n']}; "
        f"flagged uncertain {f['flagged']}/{o['n']} ({_ratio(f['flagged'], o['n'])}), "
        f"misgraded flagged {f['misgraded_flagged']}/{f['misgraded']} "
        f"({_ratio(f['misgraded_flagged'], f['misgraded'])})"
    )
    if misgraded:
        for g in graded:
            if not g.agrees:
                r = g.row
                flag = "?" if g.uncertain else " "
                verdict = "pass" if r.right else "fail"
                print(f"  {flag} {r.item} [{r.lang} {r.kind}] teacher {verdict}, grader "
                      f"{g.score:.2f}: {r.text}")  # fmt: skip


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("files", nargs="*", type=Path)
    ap.add_argument("--misgraded", action="store_true", help="list each disagreement")
    ap.add_argument("--json", action="store_true", help="the figures as one JSON object")
    args = ap.parse_args(argv)
    files = args.files or DEFAULT
    library = paths.load_all()
    per_file = {f: grade_all(load(f), library) for f in files}
    if args.json:
        out = {f.name: figures(g) for f, g in per_file.items()}
        if len(files) > 1:
            out["all"] = figures([g for gs in per_file.values() for g in gs])
        print(json.dumps(out, ensure_ascii=False, indent=1))
        return
    for f, graded in per_file.items():
        report(f.name, graded, args.misgraded)
    if len(files) > 1:
        report("all", [g for gs in per_file.values() for g in gs], args.misgraded)


if __name__ == "__main__":
    main()
