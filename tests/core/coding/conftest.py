"""Fixtures for the code exercises: the shipped library, a learner's file from a string, and
an in-process stand-in for the sandbox (trusted test code only: it runs the function here,
but passes every result through the same frames as the child does)."""

from __future__ import annotations

import textwrap
from pathlib import Path

import numpy as np
import pytest

from attn_tui.core.coding import harness
from attn_tui.core.coding.loader import load_code_library
from attn_tui.core.coding.sandbox import CaseResult, Run

SHIPPED = Path(__file__).resolve().parents[3] / "exercises" / "code"


@pytest.fixture(scope="session")
def library():
    lib = load_code_library([(SHIPPED, "shipped")])
    assert not lib.broken, lib.broken
    return lib


def run_here(file: Path, function: str, cases: list[list]) -> Run:
    namespace: dict = {"__name__": "learner"}
    path = str(file)
    try:
        exec(compile(Path(file).read_text("utf-8"), path, "exec"), namespace)
    except BaseException as err:
        return Run(load_error=harness.describe_error(err, path), done=True)
    fn = namespace.get(function)
    if not callable(fn):
        return Run(missing=function, done=True)
    run = Run(done=True)
    for i, args in enumerate(cases):
        given = [a.copy() if isinstance(a, np.ndarray) else a for a in args]
        try:
            with np.errstate(all="ignore"):
                out = fn(*given)
        except BaseException as err:
            run.results[i] = CaseResult(error=harness.describe_error(err, path))
            continue
        sent: list = []
        encoded = harness.encode(out, sent)
        header, arrays = harness.unpack(harness.pack({"out": encoded}, sent)[4:])
        changed = {
            k: g
            for k, (a, g) in enumerate(zip(args, given, strict=True))
            if isinstance(a, np.ndarray)
            and not (g.shape == a.shape and np.array_equal(g, a, equal_nan=True))
        }
        described = encoded.get("type")
        run.results[i] = CaseResult(
            out=None if described else harness.decode(header["out"], arrays),
            kind=described or encoded.get("kind", ""),
            changed=changed,
        )
    return run


@pytest.fixture
def learner_file(tmp_path):
    """write(source) → a file holding that source (dedented)."""
    count = [0]

    def write(source: str, name: str | None = None) -> Path:
        count[0] += 1
        path = tmp_path / (name or f"learner_{count[0]}.py")
        path.write_text(textwrap.dedent(source).lstrip("\n"), "utf-8")
        return path

    return write
