"""Snapshots of the code area at 80×24 and 120×40, in Chinese and English: an exercise with a
failing check (the unstable softmax: inputs, expected and yours side by side, the mistake
named) and with its first hint. Refresh with --snapshot-update and read every changed SVG."""

from __future__ import annotations

import asyncio
import time
from pathlib import Path

import pytest

from attn_tui.app import AttnApp

SIZES = [(80, 24), (120, 40)]
FOLDER = Path("/tmp/attn-tui-snapshots/code")  # fixed: the report shows the file's path
UNSTABLE = (
    "import numpy as np\n\n\ndef softmax(x):\n    e = np.exp(x)\n"
    "    return e / e.sum(axis=-1, keepdims=True)\n"
)


def _failing(hint: bool = False):
    async def run_before(pilot) -> None:
        FOLDER.mkdir(parents=True, exist_ok=True)
        (FOLDER / "03_softmax.py").write_text(UNSTABLE)
        pilot.app.switch_mode("code")
        await pilot.pause()
        screen = pilot.app.screen
        screen.open_exercise("softmax", folder=FOLDER)
        before = screen.checks_done
        screen.action_check()
        deadline = time.monotonic() + 30
        while screen.checks_done == before and time.monotonic() < deadline:
            await asyncio.sleep(0.02)
        screen.report = type(screen.report)(**{**screen.report.__dict__, "output": ""})
        if hint:
            screen.action_hint()
        screen.redraw()
        await pilot.pause()
        screen._report_in_view()  # where a check leaves the view, at once (it is deferred)
        await pilot.pause()

    return run_before


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
@pytest.mark.parametrize("lang", ["en", "zh"])
def test_code_failing_check(snap_compare, lang, size):
    assert snap_compare(AttnApp(lang=lang), terminal_size=size, run_before=_failing())


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_code_hint(snap_compare, lang):
    assert snap_compare(AttnApp(lang=lang), terminal_size=(120, 40), run_before=_failing(True))
