"""The README's test command is what ``.ci/run`` runs, word for word, and it runs both tiers
and the linters: a README that drifted from CI would tell a newcomer to run something else."""

import re
import shlex
from pathlib import Path

import pytest

pytest_plugins = ("pytester",)

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
    # the core's type check ([tool.mypy] files) after the linters, before the tests
    assert steps.index(".venv/bin/ruff format --check .") < steps.index(".venv/bin/mypy")
    assert steps.index(".venv/bin/mypy") < steps.index(fast)


def test_the_type_check_covers_the_core():
    import tomllib

    config = tomllib.loads((ROOT / "pyproject.toml").read_text("utf-8"))["tool"]["mypy"]
    assert config["files"] == ["attn_tui/core"]


def test_slow_is_a_registered_mark_and_a_misspelt_one_is_an_error():
    import tomllib

    config = tomllib.loads((ROOT / "pyproject.toml").read_text("utf-8"))["tool"]["pytest"]
    assert "--strict-markers" in shlex.split(config["ini_options"]["addopts"])
    assert any(m.startswith("slow:") for m in config["ini_options"]["markers"])


# The inner runs load no plugin but pytest's own (the snapshot plugin would share its folder
# with the outer run), and this tree's conftest.py as it is.
INI = "[pytest]\naddopts = --strict-markers\nmarkers = slow: slow\ntestpaths = .\n"

TIERED = """
import pytest

def test_quick():
    pass

@pytest.mark.slow
def test_retrains():
    pass

@pytest.mark.parametrize("size", [(80, 24), (120, 40)], ids=["80x24", "120x40"])
@pytest.mark.parametrize("lang", ["en", "zh"])
def test_snapshot(snap_compare, lang, size):
    pass

@pytest.fixture
def snap_compare():
    return None
"""


@pytest.fixture(autouse=True)
def _no_plugins(monkeypatch):
    monkeypatch.setenv("PYTEST_DISABLE_PLUGIN_AUTOLOAD", "1")


@pytest.mark.parametrize(
    "args, ran",
    [
        ([], {"test_quick", "test_snapshot[en-80x24]"}),  # pytest alone: the fast tier
        (
            ["-m", "slow"],
            {
                "test_retrains",
                "test_snapshot[zh-80x24]",
                "test_snapshot[en-120x40]",
                "test_snapshot[zh-120x40]",
            },
        ),
        (["test_tiers.py"], None),  # a path named: all of it
        (["-m", "slow or not slow"], None),  # the whole suite
    ],
)
def test_the_tiers_select_what_the_readme_says(pytester, args, ran):
    pytester.makeconftest((ROOT / "tests" / "conftest.py").read_text("utf-8"))
    pytester.makeini(INI)
    pytester.makepyfile(test_tiers=TIERED)
    result = pytester.runpytest("-q", "--collect-only", *args)
    collected = {line.split("::", 1)[1] for line in result.outlines if "::" in line}
    everything = {"test_quick", "test_retrains"} | {
        f"test_snapshot[{lang}-{size}]" for lang in ("en", "zh") for size in ("80x24", "120x40")
    }
    assert collected == (everything if ran is None else ran)


def test_a_misspelt_mark_is_an_error(pytester):
    pytester.makeconftest((ROOT / "tests" / "conftest.py").read_text("utf-8"))
    pytester.makeini(INI)
    pytester.makepyfile("import pytest\n@pytest.mark.slw\ndef test_x():\n    pass\n")
    assert pytester.runpytest("-q").ret != 0
