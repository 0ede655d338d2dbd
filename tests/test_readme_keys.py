"""The README's key table lists every function key an area's footer or help shows (issue 11:
F5 in the calculator was in neither the footer nor the README)."""

import importlib
import re
from pathlib import Path

import pytest

from attn_tui.app import KNOWN_AREAS

README = (Path(__file__).resolve().parents[1] / "README.md").read_text("utf-8")
WHERE = {
    "calc": "calculator",
    "train": "trainer",
    "exercises": "exercises",
    "quiz": "quiz",
    "lab": "lab",
    "code": "code",
}


def table_keys(where: str) -> set[str]:
    """Every F-key named in the README rows whose 'where' column begins with ``where``."""
    keys: set[str] = set()
    for line in README.splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) == 3 and cells[1].startswith(where):
            keys |= {k.lower() for k in re.findall(r"\bF\d+\b", cells[0])}
    return keys


def function_keys(screen: type) -> set[str]:
    keys = set()
    for cls in screen.__mro__:
        for binding in cls.__dict__.get("BINDINGS", []):
            for key in binding.key.split(","):
                if re.fullmatch(r"f\d+", key) and binding.description:
                    keys.add(key)
    return keys


@pytest.mark.parametrize("area", sorted(WHERE))
def test_every_function_key_of_an_area_is_in_the_readme(area):
    module, name = KNOWN_AREAS[area].split(":")
    screen = getattr(importlib.import_module(module), name)
    missing = function_keys(screen) - table_keys(WHERE[area])
    assert not missing, f"{WHERE[area]}: {sorted(missing)} not in the README's key table"


def test_the_check_sees_a_missing_key():
    assert "f5" in table_keys("calculator")
    assert "f11" not in table_keys("calculator")
