"""Under serve, code exercises are off unless the teacher turned them on: a served session
lists no code area and cannot switch to it; with the switch on, it has one."""

from __future__ import annotations

import subprocess
import sys


async def test_a_served_session_has_no_code_area_by_default(tmp_path):
    from attn_tui.serve.session import ServedApp

    app = ServedApp(tmp_path)
    assert "code" not in app.AREAS
    assert "code" not in app._modes  # switch_mode("code") has nothing to open


def test_the_teachers_switch_turns_them_on(tmp_path):
    # made after an event loop has come and gone, as a session forked from the warm pool is
    # (removing the mode in __init__ needed a loop: every served session died at start)
    code = (
        "import asyncio; asyncio.run(asyncio.sleep(0)); from pathlib import Path; "
        "from attn_tui.serve.session import ServedApp; "
        f"print('code' in ServedApp(Path({str(tmp_path)!r})).AREAS)"
    )
    env_on = {"ATTN_TUI_SERVE_CODE": "1", "PATH": "/usr/bin:/bin"}
    on = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, env=env_on, check=True
    )
    off = subprocess.run(
        [sys.executable, "-c", code],
        capture_output=True,
        text=True,
        env={"PATH": "/usr/bin:/bin"},
        check=True,
    )
    assert (on.stdout.strip(), off.stdout.strip()) == ("True", "False")


async def test_the_terminal_app_has_the_code_area():
    from attn_tui.app import AttnApp

    assert "code" in AttnApp().AREAS
