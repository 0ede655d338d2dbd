"""How often the written-answer grader agrees with a teacher: pass/fail, per item.

    python benchmarks/written_agreement.py [tests/core/exercises/calibration/dev.toml ...]

Each file holds ``[[answer]]`` tables (item, expect = "pass"/"fail", text). Prints, per item
and overall: agreement, right answers passed (of all right), wrong answers failed (of all
wrong). Only public APIs are used, so the same script run from an older checkout measures
the grader as it was ("before").

The default files: dev / heldout / heldout2 (written with the rubrics, by their author) and
blind_dev / blind_heldout (written by an examiner before reading any rubric, glossary list or
calibration file; blind_dev was studied for causes, blind_heldout only scored), and a second
blind round, blind2_dev / blind2_heldout (all thirteen written items, each label with the
teacher's full / partial / none mark; the same rule: dev studied, held-out only scored), and a
third, blind3_dev / blind3_heldout (more right answers than wrong, in varied wording; written
by the session that then tuned the grader on blind3_dev, so its held-out part was scored by
its own author: blind_heldout and blind2_heldout are the fairer test). Read the blind parts
apart from the others: they are the fairer estimate of answers nobody here has seen.
"""

from __future__ import annotations

import sys
import tomllib
from collections import defaultdict
from pathlib import Path

from attn_tui import paths
from attn_tui.core.exercises.grading import grade

ROOT = Path(__file__).resolve().parent.parent
DEFAULT = [
    ROOT / "tests/core/exercises/calibration" / name
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


def find(library, item: str):
    if "/" in item:
        set_id, ex_id = item.split("/", 1)
        s = library.get(set_id)
        return s.exercise(ex_id) if s else None
    return next((e for e in library.quiz_exercises if e.id == item), None)


def agreement(files: list[Path]) -> dict[str, dict[str, list[bool]]]:
    """item → {"right": [passed?...], "wrong": [failed?...]}"""
    library = paths.load_all()
    out: dict[str, dict[str, list[bool]]] = defaultdict(lambda: {"right": [], "wrong": []})
    for f in files:
        for a in tomllib.loads(f.read_text("utf-8"))["answer"]:
            ex = find(library, a["item"])
            if ex is None:
                continue
            passed = grade(ex, a["text"]).correct
            if a["expect"] == "pass":
                out[a["item"]]["right"].append(passed)
            else:
                out[a["item"]]["wrong"].append(not passed)
    return out


def report(title: str, files: list[Path]) -> None:
    res = agreement(files)
    print(f"\n{title}")
    print(f"{'item':36} {'agree':>7} {'right passed':>13} {'wrong failed':>13}")
    tr = tw = nr = nw = 0
    for item in sorted(res):
        r, w = res[item]["right"], res[item]["wrong"]
        tr, tw, nr, nw = tr + sum(r), tw + sum(w), nr + len(r), nw + len(w)
        agree = (sum(r) + sum(w)) / max(1, len(r) + len(w))
        print(f"{item:36} {agree:7.2f} {sum(r):>6}/{len(r):<6} {sum(w):>6}/{len(w):<6}")
    n = nr + nw
    print(
        f"{'overall':36} {(tr + tw) / max(1, n):7.2f} {tr:>6}/{nr:<6} {tw:>6}/{nw:<6}"
        f"  (right side {tr / max(1, nr):.2f}, wrong side {tw / max(1, nw):.2f}, n = {n})"
    )


def main() -> None:
    files = [Path(p) for p in sys.argv[1:]] or DEFAULT
    for f in files:
        report(f.name, [f])
    if len(files) > 1:
        report("all", files)


if __name__ == "__main__":
    main()
