"""``.ci/run`` runs every test that trains a second time, under another OpenBLAS kernel, so a
test that holds under one kernel only (as tests/train/test_pinned.py once did: its pins were
bits of the Haswell kernel, and a SkylakeX machine failed them) cannot land again."""

import re
import shlex
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
TRAINS = re.compile(
    r"\b(run_to_end|Trainer\(|pool_runs|over_seeds|LiveRun\(|live_loop)"
    r"|models\.loop import (?:[\w ]+, )*(?:run|train)\b"  # the one loop, by its own names
)
# Tests that call the trainer without asserting anything a kernel could move.
EXEMPT = {
    "tests/cli/hostile/test_fuzz_cli.py": "trains one iteration to have a model file to fuzz",
}


def second_pass() -> tuple[str, list[str]]:
    """The block of .ci/run that runs the second kernel, and the paths its pytest names."""
    script = (ROOT / ".ci" / "run").read_text("utf-8")
    block = script.split("# --- the tests that train, again under a second OpenBLAS kernel", 1)
    assert len(block) == 2, ".ci/run has no second-kernel pass"
    block = block[1].split("# --- end of the second-kernel pass ---", 1)[0]
    command = re.search(r'OPENBLAS_CORETYPE="\$other" (.*?)(?:\n\s*else|\nelse)', block, re.S)
    assert command, "the pass does not set OPENBLAS_CORETYPE"
    words = shlex.split(re.sub(r"\\\n\s*", " ", command.group(1)))
    paths = [w for w in words if w.startswith("tests/") and not w.endswith("two_kernels.py")]
    return block, paths


def test_the_pass_picks_a_kernel_this_cpu_runs_and_runs_the_whole_suite_of_those_paths():
    block, paths = second_pass()
    assert "other_kernel()" in block
    assert '-m "slow or not slow"' in block  # both tiers of those files
    missing = [p for p in paths if not (ROOT / p).exists()]
    assert paths and missing == []


def test_a_failing_tier_fails_ci_though_the_pass_after_it_succeeds():
    """set -e does not stop at a failure inside the README command's && list: .ci/run checks
    the list's status before the second-kernel pass (whose success would be the script's)."""
    script = (ROOT / ".ci" / "run").read_text("utf-8")
    after = script.split("# --- end of the README's test command ---\n", 1)[1]
    first = next(line for line in after.splitlines() if line and not line.startswith("#"))
    assert first == 'status=$?; [ "$status" -eq 0 ] || exit "$status"'


def test_every_test_that_trains_is_run_again_under_the_second_kernel():
    _, paths = second_pass()
    covered = [ROOT / p for p in paths]
    uncovered = []
    for path in sorted((ROOT / "tests").rglob("*.py")):
        rel = path.relative_to(ROOT).as_posix()
        if rel in EXEMPT or path == Path(__file__) or not TRAINS.search(path.read_text("utf-8")):
            continue
        if not any(path == c or c in path.parents for c in covered):
            uncovered.append(rel)
    assert uncovered == []
