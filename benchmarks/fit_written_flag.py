"""Fit the written grader's "not sure" flag (core/exercises/written/unsure.py) and measure it
on a teacher it never saw.

    python benchmarks/fit_written_flag.py            # leave-one-teacher-out, then the fit to ship
    python benchmarks/fit_written_flag.py --check FILE...   # the shipped numbers on FILEs

The data: every calibration file (benchmarks/written_agreement.py's defaults). A grade is
*misgraded* when its pass/fail differs from the teacher's. The model is an L2-regularised
logistic regression of misgraded on the signals unsure.features reads; the independent
teachers' answers (A1, A2, A5) weigh WEIGHT_INDEPENDENT times the older files'. The threshold
flags BUDGET of the independent answers it is fitted on (a margin under the issue's 20 %).

Leave-one-teacher-out: for each independent teacher, fit on the other two and the older files,
set the threshold on those two, and score the third: the share of its answers flagged and the
share of its misgradings among them — the figure that says how the flag holds on a new teacher.
Then the fit on all of it, printed as the numbers to paste into unsure.py.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))

from written_agreement import DEFAULT, find, load

from attn_tui import paths
from attn_tui.core.exercises.glossary import shipped
from attn_tui.core.exercises.written import unsure
from attn_tui.core.exercises.written.judge import judge

LAMBDA = 0.3  # L2 strength
WEIGHT_INDEPENDENT = 3.0
BUDGET = 0.18
TEACHERS = (
    "independent_dev",
    "independent_heldout",
    "independent_a5",
    "independent_a3",
    "independent_a4",
)


RATE = len(unsure.FEATURES) - 1  # the column of the item's misgrading rate
PRIOR = 5.0  # answers' worth of the overall rate each item's rate is drawn toward


def dataset(files: list[Path]):
    """(features, misgraded, dont_know, file stem, item id) for every judged answer of
    ``files``; the item-rate column is filled in by :func:`with_rates`."""
    library = paths.load_all()
    glossary = shipped()
    X, y, dk, where, items = [], [], [], [], []
    for f in files:
        for r in load(f):
            ex = find(library, r.item)
            if ex is None:
                continue
            j = judge(ex, r.text, glossary)
            passed = j.score >= ex.pass_mark - 1e-9
            X.append(unsure.of_judgement(ex, j, rates={}))
            y.append(float(passed != r.right))
            dk.append(j.dont_know)
            where.append(f.stem)
            items.append(ex.id)
    return np.array(X), np.array(y), np.array(dk), np.array(where), np.array(items)


def item_rates(y: np.ndarray, items: np.ndarray, part: np.ndarray) -> dict[str, float]:
    """Each item's misgrading rate over the answers in ``part`` (the independent teachers'
    answers being fitted on), drawn toward the overall rate by PRIOR answers' worth."""
    base = float(y[part].mean())
    return {
        str(it): round(float((y[part & (items == it)].sum() + PRIOR * base)
                             / ((part & (items == it)).sum() + PRIOR)), 4)
        for it in sorted(set(items[part]))
    }  # fmt: skip


def with_rates(X: np.ndarray, items: np.ndarray, rates: dict[str, float]) -> np.ndarray:
    Z = X.copy()
    Z[:, RATE] = [10 * unsure.item_rate(str(it), rates) for it in items]
    return Z


def fit(X: np.ndarray, y: np.ndarray, w: np.ndarray, lam: float = LAMBDA) -> np.ndarray:
    """Newton's method on the weighted, L2-penalised log-likelihood."""
    b = np.zeros(X.shape[1])
    for _ in range(100):
        p = 1 / (1 + np.exp(-X @ b))
        grad = X.T @ (w * (p - y)) + lam * b
        hess = (X.T * (w * p * (1 - p))) @ X + lam * np.eye(X.shape[1])
        step = np.linalg.solve(hess, grad)
        b -= step
        if np.abs(step).max() < 1e-10:
            break
    return b


def threshold(scores: np.ndarray, budget: float = BUDGET) -> float:
    return float(np.quantile(scores, 1 - budget))


def weights_of(where: np.ndarray) -> np.ndarray:
    return np.where(np.char.startswith(where.astype(str), "independent"), WEIGHT_INDEPENDENT, 1.0)


def report(name: str, flag: np.ndarray, mis: np.ndarray) -> str:
    return (
        f"{name:22} flagged {flag.sum():3}/{len(flag):<3} ({flag.mean():.2f})   "
        f"misgraded flagged {int((flag & mis).sum()):2}/{int(mis.sum()):<2} "
        f"({(flag & mis).sum() / max(mis.sum(), 1):.2f})"
    )


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--check", nargs="+", type=Path, help="score the shipped numbers on these")
    args = ap.parse_args(argv)
    if args.check:
        X, y, dk, where, items = dataset(args.check)
        X = with_rates(X, items, unsure.ITEM_RATE)
        flag = np.array([unsure.unsure(tuple(x), d) for x, d in zip(X, dk, strict=True)])
        for stem in dict.fromkeys(where):
            part = where == stem
            print(report(stem, flag[part], y[part].astype(bool)))
        print(report("all", flag, y.astype(bool)))
        return
    X, y, dk, where, items = dataset(DEFAULT)
    mis = y.astype(bool)
    independent = np.char.startswith(where.astype(str), "independent")
    print("leave one teacher out (fit on the others and the older files, scored on this one):")
    caught = flagged = n = m = 0
    for teacher in TEACHERS:
        train, test = where != teacher, where == teacher
        indep = independent & train
        Z = with_rates(X, items, item_rates(y, items, indep))  # rates of the training part only
        b = fit(Z[train], y[train], weights_of(where[train]))
        cut = threshold(Z[indep] @ b)
        flag = (Z[test] @ b > cut) & ~dk[test]
        print("  " + report(teacher, flag, mis[test]))
        caught += int((flag & mis[test]).sum())
        flagged += int(flag.sum())
        n += int(test.sum())
        m += int(mis[test].sum())
    print(f"  {'all teachers':22} flagged {flagged}/{n} ({flagged / n:.2f})   "
          f"misgraded flagged {caught}/{m} ({caught / m:.2f})")  # fmt: skip
    rates = item_rates(y, items, independent)
    X = with_rates(X, items, rates)
    b = fit(X, y, weights_of(where))
    indep = independent
    cut = threshold(X[indep] @ b)
    flag = (X @ b > cut) & ~dk
    print("\nfitted on all of it (in-sample, for the record):")
    for stem in ("independent", "older"):
        part = indep if stem == "independent" else ~indep
        print("  " + report(stem, flag[part], mis[part]))
    print("\nthe numbers to ship (core/exercises/written/unsure.py):")
    print("WEIGHTS = (")
    print("    " + ", ".join(f"{v:.4f}" for v in b) + ",")
    print(")  # fmt: skip")
    print(f"THRESHOLD = {cut:.4f}")
    print("ITEM_RATE = {")
    for it, v in rates.items():
        print(f'    "{it}": {v},')
    print("}")
    for name, v in zip(unsure.FEATURES, b, strict=True):
        print(f"  {name:24} {v:+.3f}")


if __name__ == "__main__":
    main()
