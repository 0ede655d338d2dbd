"""The fast tier's share of the whole suite, measured in one run.

    .venv/bin/python benchmarks/tier_share.py              # the whole suite once, then the report
    .venv/bin/python benchmarks/tier_share.py --read FILE  # the report of a run already made
    .venv/bin/python benchmarks/tier_share.py -- -x        # arguments after -- go to pytest

Runs ``pytest -m "slow or not slow" --tier-times=FILE --junitxml=XML`` (tests/conftest.py writes
one JSON line per test: its tier, wall seconds, and the CPU seconds of the test process and of
the child processes that ended meanwhile), so both tiers run in the same session under the same
load, then prints each tier's summed wall and CPU time and the fast tier's share of each. Issue
21 asks for a fast tier of at most 25 % of the whole; on a machine shared with others the CPU
share is the steadier figure (a busy machine stretches wall time, not CPU time), and both are
printed. Also: the fast tier per layer (core, ui, cli, classroom, the checks at the top), so a
quick loop that kept no test of a layer shows, and the slowest fast tests, the first to look
at when the share grows.

Run it under ``nice -n 10`` and the team's suite lock on a shared machine:
``flock /work/coord/suite.lock nice -n 10 .venv/bin/python benchmarks/tier_share.py``.
"""

from __future__ import annotations

import argparse
import collections
import json
import subprocess
import sys
import tempfile
import xml.etree.ElementTree as ET
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
GOAL = 0.25  # issue 21: the fast tier at most a quarter of the whole suite


def run_suite(out: Path, xml: Path, extra: list[str]) -> int:
    cmd = [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-m",
           "slow or not slow", f"--tier-times={out}", f"--junitxml={xml}", *extra]  # fmt: skip
    print("running:", " ".join(cmd), flush=True)
    return subprocess.run(cmd, cwd=ROOT, check=False).returncode


def read(path: Path) -> list[dict]:
    return [json.loads(line) for line in path.read_text("utf-8").splitlines() if line.strip()]


def layer(test_id: str) -> str:
    parts = test_id.split("::")[0].split("/")
    return parts[1] if len(parts) > 2 else "(top)"


def junit_total(xml: Path) -> float | None:
    """The session's own time as the junit report gives it (collection included)."""
    try:
        root = ET.parse(xml).getroot()
    except (OSError, ET.ParseError):
        return None
    suite = root if root.tag == "testsuite" else root.find("testsuite")
    return float(suite.get("time", "nan")) if suite is not None else None


def report(records: list[dict], top: int, xml: Path | None = None) -> float:
    tiers: dict[str, dict[str, float]] = collections.defaultdict(collections.Counter)
    layers: dict[tuple[str, str], collections.Counter] = collections.defaultdict(
        collections.Counter
    )
    for r in records:
        cpu = r["cpu"] + r["children"]
        for key in (tiers[r["tier"]], layers[(r["tier"], layer(r["test"]))]):
            key["tests"] += 1
            key["wall"] += r["wall"]
            key["cpu"] += cpu
        if r["outcome"] == "failed":
            tiers[r["tier"]]["failed"] += 1
    fast, slow = tiers["fast"], tiers["slow"]
    print(f"{'tier':<6} {'tests':>6} {'wall s':>9} {'CPU s':>9} {'failed':>7}")
    for name, t in (("fast", fast), ("slow", slow)):
        figures = f"{t['tests']:>6.0f} {t['wall']:>9.1f} {t['cpu']:>9.1f} {t['failed']:>7.0f}"
        print(f"{name:<6} {figures}")
    shares = {}
    for what in ("wall", "cpu"):
        whole = fast[what] + slow[what]
        shares[what] = fast[what] / whole if whole else float("nan")
    print(f"fast share: wall {shares['wall']:.1%}, CPU {shares['cpu']:.1%} (goal ≤ {GOAL:.0%})")
    if xml is not None and (total := junit_total(xml)) is not None:
        print(f"session (junit, collection included): {total:.1f} s")
    print("\nthe fast tier by layer (tests, wall s, CPU s):")
    for (tier, name), t in sorted(layers.items()):
        if tier == "fast":
            slow_t = layers.get(("slow", name), collections.Counter())
            print(f"  {name:<10} {t['tests']:>5.0f} {t['wall']:>8.1f} {t['cpu']:>8.1f}"
                  f"   (slow: {slow_t['tests']:.0f} tests, {slow_t['wall']:.1f} s)")  # fmt: skip
    print(f"\nthe {top} slowest fast tests (wall s, CPU s):")
    for r in sorted((r for r in records if r["tier"] == "fast"), key=lambda r: -r["wall"])[:top]:
        print(f"  {r['wall']:6.2f} {r['cpu'] + r['children']:6.2f}  {r['test']}")
    return shares["wall"]


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument(
        "--read",
        type=Path,
        nargs="+",
        metavar="FILE",
        help="report these --tier-times files (one run, or a tier each); run nothing",
    )
    ap.add_argument("--out", type=Path, help="where the run writes its per-test lines")
    ap.add_argument("--top", type=int, default=15, help="how many of the slowest fast tests")
    ap.add_argument("pytest_args", nargs="*", help="after --: passed on to pytest")
    args = ap.parse_args()
    if args.read:
        report([r for path in args.read for r in read(path)], args.top)
        return 0
    out = args.out or Path(tempfile.mkdtemp(prefix="tier-share-")) / "tiers.jsonl"
    xml = out.with_suffix(".xml")
    code = run_suite(out, xml, args.pytest_args)
    print(f"\npytest exit status {code}; per test: {out}; junit: {xml}\n")
    report(read(out), args.top, xml)
    return code


if __name__ == "__main__":
    raise SystemExit(main())
