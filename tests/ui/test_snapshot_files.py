"""Every stored snapshot belongs to a test that still exists.

The tiers deselect part of the snapshot tests in every run (``pytest`` alone draws English at
80×24, ``-m slow`` the rest), so syrupy's own check for unused snapshots cannot tell a
deselected snapshot from an orphan and is told to warn only (pyproject's ``addopts``). This test
does that check for the whole suite: a snapshot file left behind by a renamed or deleted test
fails here, whichever tier runs.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

UI = Path(__file__).resolve().parent
SNAPSHOTS = UI / "__snapshots__"


def collected_test_names() -> set[tuple[str, str]]:
    """(module, test name with its parameters) of every test under tests/ui, both tiers."""
    out = subprocess.run(
        [sys.executable, "-m", "pytest", *"--collect-only -q -p no:cacheprovider".split()]
        + ["-m", "slow or not slow", str(UI)],
        capture_output=True,
        text=True,
        timeout=600,
        cwd=UI.parent.parent,
        check=False,
    )
    assert out.returncode == 0, out.stdout[-2000:] + out.stderr[-2000:]
    names = set()
    for line in out.stdout.splitlines():
        path, sep, name = line.partition("::")
        if sep:
            names.add((Path(path).stem, name))
    return names


@pytest.mark.slow  # collects the whole ui suite in a second process
def test_every_snapshot_file_has_its_test() -> None:
    stored = {
        (folder.name, file.name.removesuffix(".svg"))
        for folder in SNAPSHOTS.iterdir()
        if folder.is_dir()
        for file in folder.glob("*.svg")
    }
    assert stored, "no snapshots found: the check would pass vacuously"
    orphans = sorted(stored - collected_test_names())
    assert not orphans, f"snapshot files whose test no longer exists: {orphans}"
