"""The written grader's time per answer, its first answer, and the app's cold start — this
checkout beside another one (the old grader), in one run.

    python benchmarks/written_speed.py [--old DIR] [--rounds 5] [--starts 8] [FILE ...]

DIR is a checkout of another commit, e.g. main before issue 23 (the grader before the
independent answers):

    git worktree add --detach /tmp/old-grader ecce1e0^1
    ln -s ../exercises /tmp/old-grader/attn_tui/exercises   # the shipped sets, as a wheel has them
    python benchmarks/written_speed.py --old /tmp/old-grader

Each checkout runs in processes of its own with that checkout first on ``sys.path`` (this
venv's libraries for both). FILEs are judged answers as benchmarks/written_agreement.py reads
them (JSON Lines or TOML); by default the independent calibration files, the answers a class
writes rather than the rubric's examples. Only public APIs (``paths.load_all``,
``grading.grade``) are called, so any commit since stage 1 of the grader can be measured.

1. **per answer, warm**: every answer graded once (libraries loaded, lexicons built), then
   ``--rounds`` times; each answer's best round (the least disturbed by other work on a shared
   CPU) — median, p95 and max in ms. The issue's bound: ≤ 50 ms after warm-up.
2. **first answer**: a fresh process imports the grader, loads the library and grades one
   answer: the one-off cost the learner's first written answer pays. Wall and CPU ms, median
   of ``--starts`` runs, the two checkouts alternating.
3. **cold start**: the app to its first screen, headless (the path a bare ``attn-tui``
   takes), median of ``--starts`` alternating runs; CPU time beside wall time because CPU time
   hardly moves when others share the machine. The grader must not make this grow: each side
   also names the grader's modules (and its text libraries) the start imported — none, when
   the grader is imported only once a written answer is graded. (Against an old commit the
   ratio also carries everything else that landed since; the list is the grader's part.)

Ratios are new ÷ old, measured side by side; figures taken while others use the CPU are
noisy, the ratios less so.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
CALIBRATION = ROOT / "tests/core/exercises/calibration"
DEFAULT = [
    CALIBRATION / n
    for n in (
        "independent_dev.jsonl",
        "independent_heldout.jsonl",
        "independent_a5.jsonl",
        "independent_a3.jsonl",
        "independent_a4.jsonl",
    )
]

# Run inside the checkout measured: reads the answers (item, text), grades them.
_LOAD = r"""
import json, sys, tomllib
from pathlib import Path
from attn_tui import paths
from attn_tui.core.exercises.grading import grade

def answers(files):
    out = []
    for f in map(Path, files):
        raw = f.read_text("utf-8")
        if f.suffix == ".jsonl":
            rows = [json.loads(x) for x in raw.splitlines() if x.strip() and x[0] != "#"]
        else:
            rows = tomllib.loads(raw).get("answer", [])
        out += [(r["item"], str(r["text"])) for r in rows]
    return out

def find(library, ref):
    if "/" in ref:
        s, e = ref.split("/", 1)
        s = library.get(s)
        return s.exercise(e) if s else None
    hit = next((e for e in library.quiz_exercises if e.id == ref), None)
    if hit is None:
        hits = [e for s in library.sets for e in s.exercises if e.id == ref]
        hit = hits[0] if len(hits) == 1 else None
    return hit
"""

PER_ANSWER = (
    _LOAD
    + r"""
import time
files, rounds = json.loads(sys.argv[1]), int(sys.argv[2])
library = paths.load_all()
todo = [(find(library, i), t) for i, t in answers(files)]
todo = [(e, t) for e, t in todo if e is not None]
for e, t in todo:
    grade(e, t)
best = [float("inf")] * len(todo)
for _ in range(rounds):
    for k, (e, t) in enumerate(todo):
        t0 = time.perf_counter()
        grade(e, t)
        best[k] = min(best[k], (time.perf_counter() - t0) * 1e3)
print(json.dumps(best))
"""
)

FIRST = (
    _LOAD
    + r"""
files = json.loads(sys.argv[1])
library = paths.load_all()
item, text = answers(files)[0]
grade(find(library, item), text)
"""
)

GRADER_MODULES = (
    "attn_tui.core.exercises.written",
    "rjieba",
    "jieba",
    "rapidfuzz",
    "snowballstemmer",
)
COLD = r"""
from pathlib import Path
from attn_tui.cli import parse
from attn_tui import i18n
args = parse([])
i18n.set_lang("en")
import attn_tui.app
from attn_tui.app import AttnApp
class Timed(AttnApp):
    CSS_PATH = str(Path(attn_tui.app.__file__).with_name("app.tcss"))
    def on_ready(self):
        self.exit()
Timed(lang="en").run(headless=True)
import sys
print(" ".join(sorted(m for m in sys.modules if m.startswith(GRADER))))
""".replace(
    "GRADER",
    repr(("attn_tui.core.exercises.written", "rjieba", "jieba", "rapidfuzz", "snowballstemmer")),
)


def env_for(checkout: Path, home: Path) -> dict[str, str]:
    env = dict(os.environ)
    env["PYTHONPATH"] = str(checkout)
    env["XDG_DATA_HOME"] = env["XDG_CONFIG_HOME"] = env["XDG_STATE_HOME"] = str(home)
    env["HOME"] = str(home)
    return env


def run(checkout: Path, code: str, *args: str, home: Path) -> tuple[float, float, str]:
    """Wall and CPU (user + system of the child) ms of one process, and its stdout."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.perf_counter()
    done = subprocess.run(
        [sys.executable, "-c", code, *args],
        cwd=checkout,
        env=env_for(checkout, home),
        capture_output=True,
        text=True,
        stdin=subprocess.DEVNULL,
    )
    wall = (time.perf_counter() - t0) * 1e3
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if done.returncode:
        sys.exit(f"{checkout}: failed:\n{done.stderr[-2000:]}")
    cpu = (after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime) * 1e3
    return wall, cpu, done.stdout


def pct(xs: list[float], q: float) -> float:
    xs = sorted(xs)
    return xs[min(len(xs) - 1, round(q * (len(xs) - 1)))]


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("files", nargs="*", type=Path)
    ap.add_argument("--old", type=Path, help="a checkout of another commit, measured beside")
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--starts", type=int, default=8)
    args = ap.parse_args(argv)
    files = json.dumps([str(f.resolve()) for f in (args.files or DEFAULT)])
    sides = {"new": ROOT}
    if args.old:
        sides["old"] = args.old.resolve()
    home = Path(os.environ.get("TMPDIR", "/tmp")) / f"written-speed-{os.getpid()}"
    home.mkdir(parents=True, exist_ok=True)
    for name, where in sides.items():
        print(f"{name}: {where}")

    print(f"\n1. per answer, warm (best of {args.rounds} rounds each), ms")
    warm: dict[str, list[float]] = {}
    for name, where in sides.items():
        warm[name] = json.loads(run(where, PER_ANSWER, files, str(args.rounds), home=home)[2])
        xs = warm[name]
        print(
            f"  {name}: median {statistics.median(xs):6.2f}   p95 {pct(xs, 0.95):6.2f}   "
            f"max {max(xs):6.2f}   (n = {len(xs)} answers)"
        )
    if "old" in warm and len(warm["old"]) == len(warm["new"]):
        ratios = [a / b for a, b in zip(warm["new"], warm["old"], strict=True) if b > 0]
        print(f"  new ÷ old, answer by answer: median {statistics.median(ratios):.2f}×")

    for title, code, extra in (
        ("2. first answer in a fresh process (import + library + one grade)", FIRST, [files]),
        ("3. cold start: the app to its first screen, headless", COLD, []),
    ):
        print(f"\n{title}, {args.starts} alternating runs each, ms")
        got: dict[str, list[tuple[float, float]]] = {n: [] for n in sides}
        loaded: dict[str, list[str]] = {}
        for _ in range(args.starts):
            for name, where in sides.items():
                wall, cpu, out = run(where, code, *extra, home=home)
                got[name].append((wall, cpu))
                if code is COLD:
                    loaded[name] = out.split()
        for name, xs in got.items():
            wall = statistics.median(x[0] for x in xs)
            cpu = statistics.median(x[1] for x in xs)
            print(f"  {name}: wall {wall:7.0f}   cpu {cpu:7.0f}")
            if name in loaded:
                print(
                    f"     grader modules imported by the start: {' '.join(loaded[name]) or 'none'}"
                )
        if "old" in got:
            for k, label in ((0, "wall"), (1, "cpu")):
                r = [a[k] / b[k] for a, b in zip(got["new"], got["old"], strict=True)]
                print(f"  new ÷ old {label}, run by run: median {statistics.median(r):.2f}×")


if __name__ == "__main__":
    main()
