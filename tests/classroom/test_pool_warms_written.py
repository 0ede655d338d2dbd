"""The serve pool loads the written-answer libraries before it forks (every session's home
loads them behind it otherwise: one rjieba dictionary per student, all at the class's start)."""

import subprocess
import sys


def test_the_pool_preload_loads_the_written_answer_libraries():
    code = (
        "import attn_tui.app\n"
        "attn_tui.app.PREFETCH_AFTER_S = 1e9  # not by the warm-up session's home, if it is quick\n"
        "from attn_tui.serve.pool import preload\n"
        "from attn_tui.core.exercises.written import text\n"
        "preload('en')\n"
        "print(text._segmenter is not None)\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True, timeout=300)  # fmt: skip
    assert out.stdout.strip().splitlines()[-1] == "True"
