"""The README's quick start tells a new learner where progress is kept, how to keep it in
another folder, and how to empty a multi-line field (item 30 of issue 26) — and what it says
is what the app does."""

from __future__ import annotations

import re
import sys
from pathlib import Path

import platformdirs

from attn_tui import paths
from attn_tui.app import AttnApp
from attn_tui.cli import build_parser

README = (Path(__file__).resolve().parents[1] / "README.md").read_text("utf-8")


def quick_start() -> str:
    return re.search(r"^## Quick start\n(.*?)^## ", README, re.S | re.M).group(1)


def test_the_quick_start_says_where_progress_is_kept_and_how_to_move_it():
    text = quick_start()
    assert "progress.db" in text
    assert "--data-dir DIR" in text and "ATTN_TUI_DATA_DIR" in text
    # the folder it names is the one the app uses on this platform
    if sys.platform.startswith("linux"):
        home = str(Path(platformdirs.user_data_dir("attn-tui")).relative_to(Path.home()))
        assert f"~/{home}" in text
    # and the option and the variable it names do move it
    assert build_parser().parse_args(["--data-dir", "/tmp/x"]).data_dir is not None
    assert paths.data_dir(environ={paths.ENV_DATA_DIR: "/tmp/elsewhere"}) == Path("/tmp/elsewhere")


def test_the_quick_start_says_how_to_empty_a_field_with_a_key_the_app_binds():
    text = quick_start()
    assert "Ctrl+L" in text and "Ctrl+Z" in text
    bound = {b.key: b.action for b in AttnApp.BINDINGS}
    assert bound.get("ctrl+l") == "clear_field"
