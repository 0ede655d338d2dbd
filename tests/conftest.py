"""The two tiers of the suite.

``pytest`` alone runs the fast tier: every test not marked ``slow``. ``pytest -m slow`` runs the
slow tier, ``pytest -m "slow or not slow"`` the whole suite in one run; ``.ci/run`` runs both
tiers. A path named on the command line runs whole (``pytest tests/ui/test_trainer.py`` runs
that file's slow tests too), since whoever names a file means to run it; ``-m`` always decides
when it is given.

Slow (``@pytest.mark.slow``, registered in pyproject with ``--strict-markers``): retraining,
the fuzz, the screen walker, the browser, real-process races, and holding a key for a long
burst. Snapshots are slow except in English at 80×24: the fast tier still draws every
snapshotted screen once, the slow tier in the other language and size.
"""

from __future__ import annotations

import pytest

FAST_SNAPSHOT = {"lang": "en", "size": (80, 24)}


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
