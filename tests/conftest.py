"""The two tiers of the suite.

``pytest`` alone runs the fast tier: every test not marked ``slow``. ``pytest -m slow`` runs the
slow tier, ``pytest -m "slow or not slow"`` the whole suite in one run; ``.ci/run`` runs both
tiers. A path named on the command line runs whole (``pytest tests/ui/test_trainer.py`` runs
that file's slow tests too), since whoever names a file means to run it; ``-m`` always decides
when it is given.

Slow (``@pytest.mark.slow``, registered in pyproject with ``--strict-markers``): retraining,
the fuzz, the screen walker, the browser, real-process races, and holding a key for a long
burst; and the pilots that walk far (a whole quiz or set, a learner's days, several runs or
seeds in child processes, typing matrices key by key, a tour of every setting or size), each
beside quicker tests of the same screen that stay fast. Snapshots are slow except in English
at 80×24: the fast tier still draws every snapshotted screen once, the slow tier in the other
language and size (and a screen drawn four ways, the trainer after each pattern task, once).
The fast tier is held to at most a quarter of the whole suite's time, measured in one run:
``benchmarks/tier_share.py`` runs both tiers once and prints the share.
"""

from __future__ import annotations

import json
import os
import resource
import tempfile
import time
from dataclasses import dataclass, field

import pytest

FAST_SNAPSHOT = {"lang": "en", "size": (80, 24)}

# The suite's own cache dir (attn_tui.paths.ShippedOnDisk), inherited by the commands tests
# run: no run reads or writes the user's, and each load of the library after the first in a
# run takes the shipped sets from it.
os.environ.setdefault("ATTN_TUI_CACHE_DIR", tempfile.mkdtemp(prefix="attn-tui-cache-"))


def is_slow_snapshot(item: pytest.Item) -> bool:
    """A snapshot test (it uses ``snap_compare``) in another language or size than the one the
    fast tier draws."""
    if "snap_compare" not in getattr(item, "fixturenames", ()):
        return False
    params = getattr(getattr(item, "callspec", None), "params", {})
    return any(params.get(name, fast) != fast for name, fast in FAST_SNAPSHOT.items())


def fast_tier_only(config: pytest.Config) -> bool:
    """No ``-m`` given and no path named: ``pytest`` alone, the fast tier."""
    return not config.option.markexpr and config.args_source != pytest.Config.ArgsSource.ARGS


@pytest.hookimpl(tryfirst=True)
def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    for item in items:
        if is_slow_snapshot(item):
            item.add_marker(pytest.mark.slow)
    if fast_tier_only(config):
        slow = [item for item in items if item.get_closest_marker("slow")]
        if slow:
            config.hook.pytest_deselected(items=slow)
            items[:] = [item for item in items if not item.get_closest_marker("slow")]


# --- where the time goes: ``pytest --tier-times=FILE`` ---
# One JSON line per test (its id, tier, outcome, wall seconds, this process's CPU seconds over
# its setup, call and teardown, and the CPU seconds of child processes that ended meanwhile),
# and each tier's totals at the end. Run the whole suite in one go
# (``pytest -m "slow or not slow" --tier-times=FILE``) and the two totals are the two tiers
# measured under the same load; the CPU figure is what the tests cost, which a busy machine
# does not inflate the way it inflates wall time. Collection is counted apart: either tier
# alone pays it once. A session-scoped fixture is charged to the first test that asks for it.


def _children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def _clocks() -> tuple[float, float, float]:
    return time.perf_counter(), time.process_time(), _children_cpu()


@dataclass
class Totals:
    tests: int = 0
    wall: float = 0.0
    cpu: float = 0.0
    children: float = 0.0

    def add(self, wall: float, cpu: float, children: float) -> None:
        self.tests += 1
        self.wall += wall
        self.cpu += cpu
        self.children += children

    def line(self, name: str) -> str:
        return (
            f"{name:<12} {self.tests:>5} tests  wall {self.wall:8.1f} s  "
            f"CPU {self.cpu + self.children:8.1f} s (children {self.children:.1f} s)"
        )


@dataclass(eq=False)  # a plugin is kept in a set: hashed by identity
class TierTimes:
    path: str
    out: object = None
    start: tuple[float, float, float] = (0.0, 0.0, 0.0)
    collected: tuple[float, float, float] = (0.0, 0.0, 0.0)
    load: list[tuple[float, float, float]] = field(default_factory=list)
    tiers: dict[str, Totals] = field(default_factory=dict)

    @pytest.hookimpl(tryfirst=True)
    def pytest_sessionstart(self, session: pytest.Session) -> None:
        self.start = _clocks()
        self.load.append(os.getloadavg())
        self.out = open(self.path, "w", encoding="utf-8")  # closed in pytest_unconfigure

    @pytest.hookimpl(trylast=True)
    def pytest_collection_finish(self, session: pytest.Session) -> None:
        now = _clocks()
        self.collected = tuple(b - a for a, b in zip(self.start, now, strict=True))

    @pytest.hookimpl(hookwrapper=True)
    def pytest_runtest_protocol(self, item: pytest.Item, nextitem):
        before = _clocks()
        outcomes: list[str] = []
        item.stash[_OUTCOMES] = outcomes
        yield
        wall, cpu, children = (b - a for a, b in zip(before, _clocks(), strict=True))
        tier = "slow" if item.get_closest_marker("slow") else "fast"
        self.tiers.setdefault(tier, Totals()).add(wall, cpu, children)
        record = {
            "test": item.nodeid,
            "tier": tier,
            "outcome": "failed" if "failed" in outcomes else (outcomes or ["?"])[-1],
            "wall": round(wall, 4),
            "cpu": round(cpu, 4),
            "children": round(children, 4),
        }
        print(json.dumps(record), file=self.out, flush=True)

    @pytest.hookimpl(hookwrapper=True)
    def pytest_runtest_makereport(self, item: pytest.Item, call):
        report = (yield).get_result()
        outcomes = item.stash.get(_OUTCOMES, None)
        if outcomes is not None and (report.when == "call" or report.outcome != "passed"):
            outcomes.append(report.outcome)

    def pytest_terminal_summary(self, terminalreporter) -> None:
        self.load.append(os.getloadavg())
        wall, cpu, children = (b - a for a, b in zip(self.start, _clocks(), strict=True))
        write = terminalreporter.write_line
        terminalreporter.section("tier times")
        write(
            f"{'collection':<12} {'':>5}        wall {self.collected[0]:8.1f} s  "
            f"CPU {self.collected[1] + self.collected[2]:8.1f} s"
        )
        for name in ("fast", "slow"):
            if name in self.tiers:
                write(self.tiers[name].line(name))
        write(f"{'session':<12} {'':>5}        wall {wall:8.1f} s  CPU {cpu + children:8.1f} s")
        load = ", ".join(" / ".join(f"{x:.1f}" for x in avg) for avg in self.load)
        write(f"load average (1/5/15 min) at start, end: {load}; {os.cpu_count()} CPUs")
        write(f"per test: {self.path}")

    def pytest_unconfigure(self, config: pytest.Config) -> None:
        if self.out is not None:
            self.out.close()


_OUTCOMES = pytest.StashKey[list]()


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption(
        "--tier-times",
        metavar="FILE",
        help="write each test's wall and CPU seconds to FILE (JSON lines) and sum them per tier",
    )


def pytest_configure(config: pytest.Config) -> None:
    path = config.getoption("--tier-times")
    if path:
        config.pluginmanager.register(TierTimes(path), "tier-times")
