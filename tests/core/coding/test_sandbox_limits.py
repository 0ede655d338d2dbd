"""The learner's code in its own process: a hang, a memory bomb, a flood of output, too many
open files, a syntax error, an exit, writes outside its scratch folder — each a clear verdict
within a bound, and none able to touch this process, the expected values or the store.

Real child processes: slow."""

from __future__ import annotations

import os
import time

import numpy as np
import pytest

from attn_tui.core.coding.engine import check_file
from attn_tui.core.coding.sandbox import Limits, Sandbox

pytestmark = [
    pytest.mark.slow,  # real child processes, some of them held to their time limit
    pytest.mark.skipif(os.name != "posix", reason="POSIX: resource limits, signals"),
]

SOFTMAX_HEAD = "import numpy as np\n\n"


@pytest.fixture
def softmax(library):
    return library.get("softmax")


def timed(exercise, path, **kw):
    start = time.monotonic()
    report = check_file(exercise, path, **kw)
    return report, time.monotonic() - start


def test_every_shipped_solution_passes_in_a_real_child(library):
    folder = library.sets[0].path.parent / "solutions"
    with Sandbox(warm=True, folder=folder) as sandbox:
        for ex in library.exercises:
            report = check_file(ex, ex.solution, sandbox=sandbox)
            assert report.passed, (ex.id, report.failure, report.stopped, report.load_error)


def test_an_endless_loop_is_stopped_in_a_few_seconds_and_its_line_named(softmax, learner_file):
    path = learner_file(
        SOFTMAX_HEAD + "def softmax(x):\n    n = 0\n    while True:\n        n += 1\n"
    )
    report, took = timed(softmax, path)
    assert report.stopped == "time"
    assert report.where and report.where[0][0] in (5, 6)  # the loop's lines
    assert report.where[0][1] == "softmax"
    assert took < Limits().seconds + 4  # stopped, not waited out


def test_a_sleeping_loop_is_stopped_too(softmax, learner_file):
    path = learner_file(SOFTMAX_HEAD + "import time\n\ndef softmax(x):\n    time.sleep(60)\n")
    report, took = timed(softmax, path)
    assert report.stopped == "time"
    assert took < Limits().seconds + 4


def test_a_billion_floats_is_refused_at_once_not_swapped(softmax, learner_file):
    path = learner_file(SOFTMAX_HEAD + "def softmax(x):\n    return np.ones(10**9)\n")
    report, took = timed(softmax, path)
    assert report.stopped == "memory"
    assert report.failure.error["type"] == "MemoryError"
    assert report.failure.error["frames"][-1][0] == 4
    assert [d.code for d in report.diagnoses] == ["memory"]
    assert took < 5


def test_memory_that_grows_slowly_is_stopped_at_the_limit(softmax, learner_file):
    """8 MB at a time. np.empty takes address space without touching it, so the limit is
    reached in a blink; arrays written as they grow (np.ones) reach it as fast as the
    machine can fault pages in — on this VM ~90 MB/s, so the time limit may come first:
    stopped either way, and never swapped (the address space is capped)."""
    for make, verdicts in (("np.empty", {"memory"}), ("np.ones", {"memory", "time"})):
        path = learner_file(
            SOFTMAX_HEAD + "def softmax(x):\n    keep = []\n    while True:\n"
            f"        keep.append({make}(10**6))\n"
        )
        report, took = timed(softmax, path)
        assert report.stopped in verdicts, make
        assert took < Limits().seconds + 4


def test_a_syntax_error_names_its_line_and_column(softmax, learner_file):
    path = learner_file(SOFTMAX_HEAD + "def softmax(x)\n    return x\n")
    report, took = timed(softmax, path)
    assert report.stopped == "load"
    assert report.load_error["type"] == "SyntaxError"
    assert report.load_error["frames"][0][0] == 3
    assert took < 5


def test_a_flood_of_output_is_stopped_and_kept_bounded(softmax, learner_file):
    path = learner_file(
        SOFTMAX_HEAD + "def softmax(x):\n    while True:\n        print('x' * 1000)\n"
    )
    report, took = timed(softmax, path)
    assert report.stopped == "output"
    assert len(report.output) <= Limits().output
    assert took < 5


def test_open_files_are_limited(softmax, learner_file, tmp_path):
    path = learner_file(
        SOFTMAX_HEAD + "def softmax(x):\n    return [open('/dev/null') for _ in range(500)]\n"
    )
    report, _ = timed(softmax, path)
    assert report.failure.error["type"] == "OSError"
    assert "Too many open files" in report.failure.error["message"]


def test_its_exceptions_show_only_frames_of_its_own_file(softmax, learner_file):
    path = learner_file(
        SOFTMAX_HEAD + "def helper(x):\n    return x @ np.ones((7, 7))\n\n"
        "def softmax(x):\n    return helper(x)\n"
    )
    report, _ = timed(softmax, path)
    frames = report.failure.error["frames"]
    assert [f[1] for f in frames] == ["softmax", "helper"]
    assert report.failure.error["type"] == "ValueError"


def test_an_exit_at_import_or_in_the_function_is_a_verdict(softmax, learner_file):
    report, _ = timed(softmax, learner_file(SOFTMAX_HEAD + "import sys\nsys.exit(3)\n"))
    assert report.stopped == "load" and report.load_error["type"] == "SystemExit"
    exits = SOFTMAX_HEAD + "import os\n\ndef softmax(x):\n    os._exit(0)\n"
    report, _ = timed(softmax, learner_file(exits))
    assert report.stopped == "exited"


def test_garbage_on_the_results_pipe_is_a_protocol_fault_not_a_crash(softmax, learner_file):
    # the learner cannot know the pipe's number, but may guess: every fd above 2 gets junk
    path = learner_file(
        SOFTMAX_HEAD + "import os\n\ndef softmax(x):\n    for fd in range(3, 40):\n"
        "        try:\n            os.write(fd, b'\\xff' * 64)\n"
        "        except OSError:\n            pass\n    return x\n"
    )
    report, took = timed(softmax, path)
    assert not report.passed
    assert report.stopped in ("protocol", "exited") or report.failure is not None
    assert took < Limits().seconds + 4


def test_it_cannot_write_outside_its_scratch_or_run_programs(softmax, learner_file, tmp_path):
    target = tmp_path / "store.db"
    target.write_text("kept")
    path = learner_file(
        SOFTMAX_HEAD + f"import subprocess\n\ndef softmax(x):\n"
        f"    try:\n        open({str(target)!r}, 'w').write('changed')\n"
        f"    except OSError:\n        pass\n"
        f"    try:\n        subprocess.run(['/bin/true'])\n"
        f"    except OSError as err:\n"
        f"        raise RuntimeError('no exec') from err\n"
        f"    return x\n"
    )
    report, _ = timed(softmax, path)
    if report.landlock == 0:
        pytest.skip("no Landlock in this kernel: the file system is not restricted here")
    assert target.read_text() == "kept"
    assert report.failure.error["type"] == "RuntimeError"


def test_the_expected_values_are_the_parents_whatever_the_child_does(softmax, learner_file):
    """The learner's code may rewrite numpy in its own process; the verdict is made here."""
    path = learner_file(
        SOFTMAX_HEAD + "np.allclose = lambda *a, **k: True\n"
        "np.isclose = lambda a, b, **k: np.ones_like(a, bool)\n\n"
        "def softmax(x):\n    return np.zeros_like(x)\n"
    )
    report, _ = timed(softmax, path)
    assert not report.passed
    assert np.isclose(1.0, 1.0)  # ours untouched


def test_a_warm_child_checks_in_much_less_than_a_cold_start(library):
    ex = library.get("softmax")
    with Sandbox(warm=True, folder=ex.solution.parent) as sandbox:
        check_file(ex, ex.solution, sandbox=sandbox)
        time.sleep(1.5)  # the next child is ready
        report, took = timed(ex, ex.solution, sandbox=sandbox)
    assert report.passed
    assert took < 1.0  # a cold start alone is ~0.3 s here; this bounds, the benchmark measures


def _signature(path) -> str:
    import ast

    tree = ast.parse(path.read_text("utf-8"))
    fn = next(n for n in tree.body if isinstance(n, ast.FunctionDef))
    return f"def {fn.name}({ast.unparse(fn.args)}):\n"


@pytest.mark.parametrize(
    "exercise_id",
    [
        *(
            "scores scaled-scores softmax weighted-sum attention-one causal-mask padding-mask"
            " attention split-heads merge-heads multi-head positions softmax-backward"
            " attention-backward rnn-attention"
        ).split()
    ],
)
def test_each_exercise_names_a_hang_a_memory_bomb_and_a_syntax_error(
    library, learner_file, exercise_id
):
    """Every exercise's own function, written three bad ways: each a clear verdict in time."""
    ex = library.get(exercise_id)
    head = SOFTMAX_HEAD + _signature(ex.starter)
    bodies = {
        "time": "    while True:\n        pass\n",
        "memory": "    return np.ones((10**5, 10**4))\n",
        "load": "    return (\n",
    }
    with Sandbox(warm=True, folder=learner_file("").parent) as sandbox:
        for verdict, body in bodies.items():
            report, took = timed(ex, learner_file(head + body), sandbox=sandbox)
            assert report.stopped == verdict, (exercise_id, verdict, report.stopped)
            assert took < Limits().seconds + 4, (exercise_id, verdict, took)
            if verdict == "time":
                assert report.where and report.where[0][1] == ex.function
            if verdict == "load":
                assert report.load_error["type"] == "SyntaxError"
                assert report.load_error["frames"][0][0] in (4, 5)


def test_a_huge_file_and_a_fifo_are_verdicts(softmax, tmp_path):
    big = tmp_path / "big.py"
    big.write_text("x = 1\n" * 200_000)  # 1.2 MB
    report, took = timed(softmax, big)
    assert report.stopped == "too_large" and took < 5
    fifo = tmp_path / "fifo.py"
    os.mkfifo(fifo)
    report, took = timed(softmax, fifo)  # nobody writes: the open would wait for ever
    assert report.stopped == "time" and took < Limits().seconds + 4
