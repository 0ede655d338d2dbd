"""One check: build the cases, run the learner's file in the sandbox, compare, diagnose.

The expected values are computed here, in the parent, before the learner's code starts;
the child only sends back what the function returned. The first case that went wrong is the
:class:`Failure` shown: its inputs, the expected and received arrays, the entries that
differ, and the mistakes that fit (see :mod:`checks`: a mistake is named only when the
learner's results equal what that mistake computes).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import replace
from pathlib import Path
from typing import Any

import numpy as np

from attn_tui.core.coding.checks import CHECKS, Case, Check, Mistake, NotApplicable
from attn_tui.core.coding.model import CodeExercise, Diagnosis, Failure, Report
from attn_tui.core.coding.sandbox import CaseResult, Run, Sandbox

Runner = Callable[[Path, str, list[list[Any]]], Run]


def cases_for(exercise: CodeExercise) -> list[Case]:
    check = CHECKS[exercise.check]
    return list(exercise.own_cases) + check.cases(exercise.seed, exercise.random, exercise.cases)


def check_file(
    exercise: CodeExercise,
    file: Path,
    *,
    sandbox: Sandbox | None = None,
    runner: Runner | None = None,
) -> Report:
    """Check ``file`` (the learner's) for ``exercise``. ``sandbox`` keeps a warm child between
    checks (watch mode); ``runner`` replaces the sandbox altogether (tests of the diagnoses)."""
    check = CHECKS[exercise.check]
    cases = cases_for(exercise)
    expected = [check.expected(c) for c in cases]  # before their code runs: in this process
    if runner is None:
        if sandbox is None:
            with Sandbox() as once:
                run = once.run(file, exercise.function, [list(c.args) for c in cases])
        else:
            run = sandbox.run(file, exercise.function, [list(c.args) for c in cases])
    else:
        run = runner(file, exercise.function, [list(c.args) for c in cases])
    return judge(exercise, check, cases, expected, run, str(file))


def judge(
    exercise: CodeExercise,
    check: Check,
    cases: Sequence[Case],
    expected: Sequence[Any],
    run: Run,
    file: str = "",
) -> Report:
    base = Report(
        exercise=exercise.id,
        passed=False,
        total=len(cases),
        ran=0,
        output=run.output,
        seconds=run.seconds,
        landlock=run.landlock,
        signal=run.signal,
        by_differences=check.by_differences,
        file=file,
    )
    if run.load_error or run.missing or run.too_large:
        stopped = "too_large" if run.too_large else ("missing" if run.missing else "load")
        if run.load_error and run.load_error.get("type") == "MemoryError":
            stopped = "memory"
        return replace(
            base,
            stopped=stopped,
            load_error=run.load_error,
            missing=run.missing,
            defined=tuple(run.defined),
        )
    for i, case in enumerate(cases):
        result = run.results.get(i)
        if result is None:
            lost = Failure(index=i, case=case, inputs=_inputs(check, case), reason="stopped")
            where = tuple((int(f[0]), str(f[1])) for f in run.where)
            return replace(base, ran=i, failure=lost, stopped=run.stopped or "exited", where=where)
        failure = _compare(check, i, case, expected[i], result, run, cases, expected)
        if failure is not None:
            memory = failure.error and failure.error.get("type") == "MemoryError"
            return replace(base, ran=i, failure=failure, stopped="memory" if memory else None)
    if run.stopped and not run.done:  # every case back, then the process misbehaved
        return replace(base, ran=len(cases), stopped=run.stopped)
    return replace(base, passed=True, ran=len(cases))


def _inputs(check: Check, case: Case) -> tuple[tuple[str, Any], ...]:
    return tuple(zip(check.params, case.args, strict=True))


def _outputs(check: Check, value: Any) -> list[Any]:
    return list(value) if len(check.outputs) > 1 else [value]


def _as_array(value: Any) -> np.ndarray | None:
    try:
        a = np.asarray(value)
    except (TypeError, ValueError):
        return None
    return a if a.dtype.kind in "biuf" else None


def _close(check: Check, got: Any, want: Any) -> np.ndarray | None:
    """The entries that differ (bool, shaped like want), or None when shapes differ."""
    g, w = _as_array(got), np.asarray(want, dtype=np.float64)
    if g is None or g.shape != w.shape:
        return None
    g = g.astype(np.float64)
    with np.errstate(invalid="ignore"):
        return ~np.isclose(g, w, rtol=check.rtol, atol=check.atol) | ~np.isfinite(g)


def _compare(
    check: Check,
    i: int,
    case: Case,
    want: Any,
    result: CaseResult,
    run: Run,
    cases: Sequence[Case],
    expected: Sequence[Any],
) -> Failure | None:
    inputs = _inputs(check, case)
    changed = tuple(check.params[k] for k in sorted(result.changed) if k < len(check.params))
    if result.error is not None:
        return Failure(
            index=i,
            case=case,
            inputs=inputs,
            reason="error",
            error=result.error,
            diagnoses=_error_diagnoses(check, result.error, case),
        )
    wants = _outputs(check, want)
    if result.kind in ("NoneType",) or (result.out is None and result.kind == ""):
        return Failure(
            index=i,
            case=case,
            inputs=inputs,
            reason="type",
            expected=wants[0],
            diagnoses=(Diagnosis("returned_none"),),
        )
    if len(check.outputs) > 1:
        if not isinstance(result.out, tuple) or len(result.out) != len(check.outputs):
            count = len(result.out) if isinstance(result.out, tuple) else 1
            return Failure(
                index=i,
                case=case,
                inputs=inputs,
                reason="count",
                diagnoses=(
                    Diagnosis(
                        "wrong_count",
                        {
                            "expected": len(check.outputs),
                            "got": count,
                            "names": ", ".join(check.outputs),
                        },
                    ),
                ),
            )
    gots = _outputs(check, result.out)
    for name, got, w in zip(check.outputs, gots, wants, strict=True):
        g = _as_array(got)
        label = name if len(check.outputs) > 1 else ""
        if g is None:
            kind = result.kind if len(check.outputs) == 1 else type(got).__name__
            return Failure(
                index=i,
                case=case,
                inputs=inputs,
                reason="type",
                output=label,
                expected=w,
                diagnoses=(Diagnosis("not_an_array", {"kind": kind}),),
            )
        differ = _close(check, g, w)
        if differ is None or differ.any():
            reason = "shape" if differ is None else "values"
            found = _diagnoses(check, case, w, got, gots, run, cases, expected, name)
            return Failure(
                index=i,
                case=case,
                inputs=inputs,
                reason=reason,
                output=label,
                expected=w,
                received=g,
                differ=differ,
                changed=changed,
                diagnoses=found,
            )
    if changed:
        return Failure(
            index=i,
            case=case,
            inputs=inputs,
            reason="in_place",
            changed=changed,
            expected=wants[0],
            received=_as_array(gots[0]),
            diagnoses=(Diagnosis("in_place", {"names": ", ".join(changed)}),),
        )
    return None


def _error_diagnoses(check: Check, error: Any, case: Case) -> tuple[Diagnosis, ...]:
    if error.get("type") == "NotImplementedError":
        return (Diagnosis("not_written"),)
    if error.get("type") == "MemoryError":
        return (Diagnosis("memory"),)
    return tuple(
        Diagnosis(m.code, m.params(case))
        for m in check.mistakes
        if m.error is not None and m.error(error, case)
    )


def _same(a: Any, b: Any, check: Check) -> bool:
    """Do two results agree (shapes equal, entries close, NaN where NaN)?"""
    x, y = _as_array(a), _as_array(b)
    if x is None or y is None or x.shape != y.shape:
        return False
    x, y = x.astype(np.float64), y.astype(np.float64)
    with np.errstate(invalid="ignore"):
        return bool(np.all(np.isclose(x, y, rtol=check.rtol, atol=check.atol, equal_nan=True)))


def _variant(mistake: Mistake, case: Case) -> Any:
    """What the mistaken code returns on this case; NotApplicable when it would not return."""
    assert mistake.variant is not None
    try:
        with np.errstate(all="ignore"):
            return mistake.variant(
                *[a.copy() if isinstance(a, np.ndarray) else a for a in case.args]
            )
    except NotApplicable:
        raise
    except Exception:  # the mistake fails on these inputs: it cannot explain a result
        raise NotApplicable from None


def _fits(
    check: Check,
    mistake: Mistake,
    case: Case,
    gots: list[Any],
    name: str,
    run: Run,
    cases: Sequence[Case],
    expected: Sequence[Any],
) -> bool:
    """Does the mistake explain this result, and every other result that came back?"""
    k = check.outputs.index(name)
    try:
        mine = _outputs(check, _variant(mistake, case))
    except NotApplicable:
        return False
    if not _same(mine[k], gots[k], check):
        return False
    for j, other in enumerate(cases):
        res = run.results.get(j)
        if other is case or res is None or res.error is not None or res.out is None:
            continue
        try:
            theirs = _outputs(check, _variant(mistake, other))
        except NotApplicable:
            continue
        received = _outputs(check, res.out)
        if len(received) != len(theirs) or not _same(theirs[k], received[k], check):
            return False
    return True


def _diagnoses(
    check: Check,
    case: Case,
    want: Any,
    got: Any,
    gots: list[Any],
    run: Run,
    cases: Sequence[Case],
    expected: Sequence[Any],
    name: str,
) -> tuple[Diagnosis, ...]:
    g = _as_array(got)
    found: list[Diagnosis] = []
    w = np.asarray(want)
    if (
        g is not None
        and g.ndim >= 2
        and g.shape == w.shape[:-2] + w.shape[-2:][::-1]
        and g.shape != w.shape
        and _same(np.swapaxes(g, -1, -2), w, check)
    ):
        found.append(Diagnosis("transposed", {"got": _shape(g), "expected": _shape(w)}))
    for mistake in check.mistakes:
        if mistake.when is not None and mistake.when(case, want, got):
            found.append(Diagnosis(mistake.code, mistake.params(case)))
        elif mistake.variant is not None and _fits(
            check, mistake, case, gots, name, run, cases, expected
        ):
            found.append(Diagnosis(mistake.code, mistake.params(case)))
    unique = {d.code: d for d in reversed(found)}  # the first of each code
    return tuple(d for d in found if unique[d.code] is d)


def _shape(a: np.ndarray) -> str:
    return "(" + ", ".join(str(n) for n in a.shape) + ("," if a.ndim == 1 else "") + ")"


__all__ = ["cases_for", "check_file", "judge"]
