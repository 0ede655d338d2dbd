"""Fit the written grader's "not sure" flag (core/exercises/written/unsure.py) and measure it
on a teacher it never saw.

    python benchmarks/fit_written_flag.py            # leave-one-teacher-out, then the fit to ship
    python benchmarks/fit_written_flag.py --check FILE...   # the shipped numbers on FILEs

The data: every calibration file (benchmarks/written_agreement.py's defaults). A grade is
*misgraded* when its pass/fail differs from the teacher's. The model is an L2-regularised
logistic regression of misgraded on the signals unsure.features reads (the two intercepts,
pass and fail, are not shrunk). The independent teachers (TEACHERS) weigh the same each, and
each of their answers WEIGHT_OLDER times an answer of the older files (written by people who
had seen the rubrics). The threshold flags a share of the independent answers it is fitted on:
the budget.

The budget is chosen the way the flag meets a new teacher: by leaving one teacher out. For a
budget, each independent teacher in turn is left out, the model fitted on the others (and the
older files, the items' rates counted on the other teachers alone), its threshold set to flag
the budget of the other teachers' answers, and the left-out teacher's answers scored. The
budget shipped is the largest of BUDGETS at which no left-out teacher had more than MAX_FLAGGED
of its answers flagged (a margin under the issue's 20 %: a new teacher's share varies).

Leave-one-teacher-out, nested: the figure printed for each teacher is that of a model that never
saw it, *and* whose budget was chosen by the same rule over the other teachers alone (left out
in turn among themselves). That is the figure that says how the flag holds on a new teacher:
the share of its answers flagged and the share of its misgradings among them. Then the fit on
all of it, printed as the numbers to paste into unsure.py.
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

LAMBDA = 0.1  # L2 strength
WEIGHT_OLDER = 0.15  # an older file's answer, against an independent teacher's
FREE = 2  # the first columns (passed, failed): intercepts, not shrunk
BUDGETS = tuple(round(0.10 + 0.01 * k, 2) for k in range(11))  # 0.10 … 0.20
MAX_FLAGGED = 0.18  # on each left-out teacher: a margin under the 20 %
TEACHERS = (
    "independent_dev",
    "independent_heldout",
    "independent_a5",
    "independent_a3",
    "independent_a4",
    "independent_a9",
    "independent_a10",
    "independent_a11",
    "independent_a12",
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
            X.append(unsure.of_judgement(ex, j, rates={}, answer=r.text, glossary=glossary))
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
    """Newton's method on the weighted, L2-penalised log-likelihood (intercepts free)."""
    b = np.zeros(X.shape[1])
    pen = lam * np.eye(X.shape[1])
    pen[:FREE, :FREE] = 1e-6 * np.eye(FREE)
    for _ in range(100):
        p = 1 / (1 + np.exp(-X @ b))
        grad = X.T @ (w * (p - y)) + pen @ b
        hess = (X.T * (w * p * (1 - p))) @ X + pen
        step = np.linalg.solve(hess, grad)
        b -= step
        if np.abs(step).max() < 1e-10:
            break
    return b


def threshold(scores: np.ndarray, budget: float) -> float:
    return float(np.quantile(scores, 1 - budget))


def weights_of(where: np.ndarray) -> np.ndarray:
    """Each independent teacher weighs the same in all (its answers' count apart); an older
    file's answer WEIGHT_OLDER times one of theirs."""
    w = np.full(len(where), WEIGHT_OLDER)
    for t in TEACHERS:
        part = where == t
        if part.any():
            w[part] = 104 / part.sum()
    return w


class Data:
    def __init__(self, X, y, dk, where, items):
        self.X, self.y, self.dk, self.where, self.items = X, y, dk, where, items
        self.mis = y.astype(bool)
        self.w = weights_of(where)


def holdout(d: Data, train: np.ndarray, test: np.ndarray, teachers) -> tuple[np.ndarray, ...]:
    """Fit on ``train`` (rates over its independent teachers' answers); the scores of ``test``
    and of the training teachers' answers (what a threshold is set on)."""
    indep = train & np.isin(d.where, teachers)
    Z = with_rates(d.X, d.items, item_rates(d.y, d.items, indep))
    b = fit(Z[train], d.y[train], d.w[train])
    s = Z @ b
    return s[test], s[indep & ~d.dk]


def loto(d: Data, teachers, budgets=BUDGETS) -> dict[str, list[tuple[int, int, int, int]]]:
    """For each teacher of ``teachers`` left out (fitted on the rest of ``d``, older files
    included, minus the teachers not in play): (flagged, answers, caught, misgraded) at each
    budget."""
    play = ~np.isin(d.where, TEACHERS) | np.isin(d.where, teachers)
    out = {}
    for t in teachers:
        test = d.where == t
        s_test, s_fit = holdout(d, play & ~test, test, [x for x in teachers if x != t])
        rows = []
        for budget in budgets:
            flag = (s_test > threshold(s_fit, budget)) & ~d.dk[test]
            mis = d.mis[test]
            rows.append((int(flag.sum()), int(test.sum()), int((flag & mis).sum()), int(mis.sum())))
        out[t] = rows
    return out


def choose(per: dict[str, list[tuple[int, int, int, int]]], budgets=BUDGETS) -> int:
    """The index of the largest budget whose left-out teachers each had at most MAX_FLAGGED
    of their answers flagged (the smallest budget if none does)."""
    best = 0
    for k in range(len(budgets)):
        if max(rows[k][0] / rows[k][1] for rows in per.values()) <= MAX_FLAGGED:
            best = k
    return best


def report(name: str, flag: int, n: int, caught: int, m: int) -> str:
    return (
        f"{name:22} flagged {flag:3}/{n:<4} ({flag / max(n, 1):.2f})   "
        f"misgraded flagged {caught:2}/{m:<2} ({caught / max(m, 1):.2f})"
    )


def summary(rows: dict[str, tuple[int, int, int, int]]) -> list[str]:
    lines = ["  " + report(t, *r) for t, r in rows.items()]
    tot = [sum(r[k] for r in rows.values()) for k in range(4)]
    lines.append("  " + report("all teachers", *tot))
    caught = [r[2] / r[3] for r in rows.values() if r[3]]
    flagged = [r[0] / r[1] for r in rows.values()]
    lines.append(
        f"  {'spread':22} flagged {min(flagged):.2f}–{max(flagged):.2f}          "
        f"misgraded flagged {min(caught):.2f}–{max(caught):.2f} "
        f"(sd {np.std(caught):.2f})"
    )
    return lines


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--check", nargs="+", type=Path, help="score the shipped numbers on these")
    args = ap.parse_args(argv)
    if args.check:
        X, y, dk, where, items = dataset(args.check)
        X = with_rates(X, items, unsure.ITEM_RATE)
        flag = np.array([unsure.unsure(tuple(x), d) for x, d in zip(X, dk, strict=True)])
        mis = y.astype(bool)
        rows = {}
        for stem in dict.fromkeys(where):
            part = where == stem
            rows[str(stem)] = (
                int(flag[part].sum()), int(part.sum()),
                int((flag & mis)[part].sum()), int(mis[part].sum()),
            )  # fmt: skip
        print("\n".join(summary(rows)))
        return
    files = list(DEFAULT)
    have = {f.stem for f in files}
    missing = [t for t in TEACHERS if t not in have]
    if missing:
        sys.exit(f"not among written_agreement.DEFAULT: {', '.join(missing)}")
    d = Data(*dataset(files))
    teachers = list(TEACHERS)

    print("leave one teacher out, nested (each teacher scored by a fit that never saw it, at")
    print("the budget chosen over the other teachers alone):")
    nested = {}
    for t in teachers:
        others = [x for x in teachers if x != t]
        k = choose(loto(d, others))
        nested[t] = loto(d, teachers, budgets=(BUDGETS[k],))[t][0]
        print(f"    {t:22} budget {BUDGETS[k]:.2f}")
    print("\n".join(summary(nested)))

    per = loto(d, teachers)
    k = choose(per)
    budget = BUDGETS[k]
    print(f"\nleave one teacher out at the budget chosen over all of them ({budget:.2f}):")
    print("\n".join(summary({t: rows[k] for t, rows in per.items()})))

    independent = np.isin(d.where, teachers)
    rates = item_rates(d.y, d.items, independent)
    X = with_rates(d.X, d.items, rates)
    b = fit(X, d.y, d.w)
    cut = threshold((X @ b)[independent & ~d.dk], budget)
    flag = (X @ b > cut) & ~d.dk
    print("\nfitted on all of it (in-sample, for the record):")
    rows = {}
    for stem, part in (("independent", independent), ("older", ~independent)):
        rows[stem] = (
            int(flag[part].sum()), int(part.sum()),
            int((flag & d.mis)[part].sum()), int(d.mis[part].sum()),
        )  # fmt: skip
        print("  " + report(stem, *rows[stem]))
    print("\nthe numbers to ship (core/exercises/written/unsure.py):")
    print("WEIGHTS = (")
    print("    " + ", ".join(f"{v:.4f}" for v in b) + ",")
    print(")  # fmt: skip")
    print(f"THRESHOLD = {cut:.4f}")
    print("ITEM_RATE: dict[str, float] = {")
    for it, v in rates.items():
        print(f'    "{it}": {v},')
    print("}  # fmt: skip")
    for name, v in zip(unsure.FEATURES, b, strict=True):
        print(f"  {name:24} {v:+.3f}")


if __name__ == "__main__":
    main()
