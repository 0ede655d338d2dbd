"""Code exercises in the progress store: a check of one's own code is an attempt, the
untouched starter is not; the solution opens after an attempt; passed() for a lesson step."""

from __future__ import annotations

from attn_tui.core.coding import progress
from attn_tui.core.coding.engine import check_file
from attn_tui.core.progress import ProgressStore

from .conftest import run_here


def test_checks_solutions_and_passed(tmp_path, library, learner_file):
    ex = library.get("softmax")
    with ProgressStore.open(tmp_path) as store:
        starter = check_file(ex, ex.starter, runner=run_here)
        assert not progress.record_check(store, ex, starter)
        assert not progress.status(store, ex).may_see_solution  # the starter is no attempt
        wrong = learner_file("import numpy as np\ndef softmax(x):\n    return np.exp(x)\n")
        assert progress.record_check(store, ex, check_file(ex, wrong, runner=run_here), hints=1)
        status = progress.status(store, ex)
        assert status.attempts == 1 and not status.passed and status.may_see_solution
        assert status.hints == 1
        assert not progress.passed(store, "softmax")
        progress.record_check(store, ex, check_file(ex, ex.solution, runner=run_here))
        assert progress.passed(store, "softmax")
        assert progress.status(store, ex).unaided
        other = library.get("scores")
        progress.record_solution(store, other)
        progress.record_check(store, other, check_file(other, other.solution, runner=run_here))
        seen = progress.status(store, other)
        assert seen.passed and seen.solution_seen and not seen.unaided
        assert progress.current(
            library.exercises, progress.statuses(store, library.exercises)
        ) == library.get("scaled-scores")


def test_a_code_attempt_does_not_show_as_an_exercise_set(tmp_path, library):
    """The attempts sit under code:<set>, which no exercise set is called."""
    from attn_tui import paths

    with ProgressStore.open(tmp_path) as store:
        ex = library.get("softmax")
        progress.record_check(store, ex, check_file(ex, ex.solution, runner=run_here))
        sets = paths.load_all().sets
        assert all(store.set_progress(s.id, s.ids).done == 0 for s in sets)
