"""The README's test command is what ``.ci/run`` runs, word for word, and it runs both tiers
and the linters: a README that drifted from CI would tell a newcomer to run something else."""

import re
import shlex
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def _command(text: str) -> list[str]:
    """One shell command, continuation lines joined, as words."""
    return shlex.split(re.sub(r"\\\n\s*", " ", text.strip()))


def readme_test_command() -> list[str]:
    readme = (ROOT / "README.md").read_text("utf-8")
    after = readme.split("**Install what the tests need and run them**", 1)[1]
    return _command(after.split("```sh\n", 1)[1].split("```", 1)[0])


def ci_test_command() -> list[str]:
    script = (ROOT / ".ci" / "run").read_text("utf-8")
    block = script.split("# --- the README's test command ---\n", 1)[1]
    return _command(block.split("# --- end of the README's test command ---", 1)[0])


def test_ci_runs_the_readme_test_command_word_for_word():
    assert ci_test_command() == readme_test_command()


def test_the_command_lints_then_runs_both_tiers():
    words = " ".join(readme_test_command())
    steps = [step.strip() for step in words.split("&&")]
    assert ".venv/bin/ruff check ." in steps and ".venv/bin/ruff format --check ." in steps
    fast = ".venv/bin/python -m pytest -q"
    slow = ".venv/bin/python -m pytest -q -m slow"
    assert steps.index(fast) < steps.index(slow)  # the quick failures first
    assert steps.index(".venv/bin/ruff check .") < steps.index(fast)


def test_pytest_alone_is_the_fast_tier_and_a_misspelt_mark_is_an_error():
    import tomllib

    config = tomllib.loads((ROOT / "pyproject.toml").read_text("utf-8"))["tool"]["pytest"]
    opts = shlex.split(config["ini_options"]["addopts"])
    assert "--strict-markers" in opts
    assert opts[opts.index("-m") + 1] == "not slow"
    assert any(m.startswith("slow:") for m in config["ini_options"]["markers"])
