"""The stored tables record where they were made: numpy, its BLAS, and OpenBLAS's kernel,
read from the loaded library (so OPENBLAS_CORETYPE, which picks another kernel, shows)."""

import json
import os
import subprocess
import sys

import numpy as np
import pytest

from attn_tui.core.models.machine import machine, other_kernel

_REPORT = ("import json; from attn_tui.core.models.machine import machine, other_kernel; "
           "print(json.dumps([machine().to_dict(), other_kernel()]))")  # fmt: skip


def _in_child(coretype: str | None):
    env = {k: v for k, v in os.environ.items() if k != "OPENBLAS_CORETYPE"}
    if coretype:
        env["OPENBLAS_CORETYPE"] = coretype
    out = subprocess.run([sys.executable, "-c", _REPORT], env=env, capture_output=True,
                         text=True, timeout=60, check=True).stdout  # fmt: skip
    made, other = json.loads(out)
    return made, other


def test_the_numpy_version_is_numpys():
    assert machine().numpy == np.__version__
    assert machine().label.startswith(f"numpy {np.__version__}")


needs_openblas = pytest.mark.skipif(not machine().kernel, reason="numpy's BLAS is not OpenBLAS")


@needs_openblas
def test_a_forced_kernel_is_the_kernel_openblas_reports():
    other = other_kernel()
    if other is None:
        pytest.skip("this CPU runs no second kernel")
    made, _ = _in_child(other)
    assert (made["kernel"], made["forced"]) == (other, other)
    own, other_here = _in_child(None)  # the CPU's own choice (this process may be forced)
    assert own["forced"] == "" and own["kernel"] and own["kernel"] != other
    assert other_here not in (None, own["kernel"])


@needs_openblas
def test_the_second_kernel_differs_from_the_first():
    for first in (None, other_kernel()):
        made, second = _in_child(first)
        assert second is None or second != made["kernel"]
