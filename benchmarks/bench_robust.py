"""Costs a teacher can cause: grading a whole class, and loading a very large exercise set.

    .venv/bin/python benchmarks/bench_robust.py [--learners 2000] [--exercises 10000]
                                                [--rev REV] [--timeout 300]

1. `attn-tui quiz grade CLASS/` and `... --json` on a class of 2,000 answer files (TOML and
   JSON, right, wrong, partly right and written answers, as learners fill in the template).
   Goals: under 10 s and under 200 MB each (and with the gradebook: ``--feedback DIR --csv
   FILE``, one feedback file per learner). Baseline, run alternately in the same session:
   the same command on a class of one file (start-up and loading the quiz bank), so the
   per-file cost shows apart from the fixed one.
2. Loading a set of 10,000 exercises (`attn-tui --exercises DIR exercises list`, which loads it
   beside the shipped sets as every screen and command does). Goal: under 2 s. `validate` of
   the same set is shown too, for information: it also runs the wording lint and the rubric
   examples, which parse and scan the file again.
   Three shapes: "minimal" (every required key and nothing more: about 200 bytes each, 2 MB),
   "compact" (number and choice exercises with a hint and a tolerance or two choices: about
   450 bytes, 4.6 MB) and "shipped mix" (the shipped exercises repeated with fresh ids:
   rubrics with examples, choices, generated and checked exercises, about 1.2 KB, 12 MB).
   tomllib alone needs about 0.3 s a megabyte on an idle core, so only the first two can meet
   2 s; before this branch the line finder made all three quadratic. Baseline: listing the
   shipped sets alone, in the same run.

Each figure is the median of --repeat runs in fresh processes: wall time, and CPU time (user +
system, from the child's rusage: steadier when the machine is shared); memory is each
process's own peak resident set (VmHWM). With --rev, the same commands also run against that
git revision (extracted with ``git archive``), side by side, so before/after is one run on one
machine.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import re
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


# The command runs inside a small wrapper that reports the process's own peak (VmHWM): the
# rusage of a child keeps its parent's peak across exec on Linux, and this parent is large.
_WRAP = """
import atexit, os, resource, runpy, sys
def peak():
    try:
        with open("/proc/self/status") as status:
            return next(l.split()[1] for l in status if l.startswith("VmHWM:"))
    except (OSError, StopIteration):
        return str(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss)
report = os.environ.pop("BENCH_PEAK_FILE")
atexit.register(lambda: open(report, "w").write(peak()))
sys.argv = ["attn-tui", *sys.argv[1:]]
runpy.run_module("attn_tui", run_name="__main__")
"""


def run(
    argv: list[str], pythonpath: Path | None, timeout: float
) -> tuple[float, float, int, float]:
    """(seconds, peak MB, exit status, CPU seconds) of ``attn-tui ARGV`` in a fresh process.
    CPU time (user + system) is steadier than wall time on a shared, loaded machine."""
    import resource

    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    scratch = Path(tempfile.mkdtemp(prefix="bench-run-"))
    env = dict(os.environ, ATTN_TUI_DATA_DIR=str(scratch / "data"))
    env["BENCH_PEAK_FILE"] = str(scratch / "peak")
    if pythonpath is not None:
        env["PYTHONPATH"] = str(pythonpath)
    start = time.perf_counter()
    # cwd elsewhere: `python -c` puts the working directory first on sys.path, ahead of
    # PYTHONPATH, and from the repository that would always be this tree's attn_tui.
    proc = subprocess.Popen(
        [sys.executable, "-c", _WRAP, "--lang", "en", *argv],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        env=env,
        cwd=scratch,
    )
    try:
        code = proc.wait(timeout=timeout)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait()
        return float("inf"), float("nan"), -9, float("nan")
    seconds = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    peak = scratch / "peak"
    peak_mb = int(peak.read_text()) / 1024 if peak.exists() and peak.read_text() else float("nan")
    return seconds, peak_mb, code, cpu


def measure(argv, pythonpath, repeat, timeout) -> tuple[float, float, int, float]:
    runs = [run(argv, pythonpath, timeout) for _ in range(repeat)]
    return (
        statistics.median(r[0] for r in runs),
        max(r[1] for r in runs),
        runs[-1][2],
        statistics.median(r[3] for r in runs),
    )


# ---- a class of answer files -----------------------------------------------------------------
def learner_answers(bank, rng: random.Random) -> dict[str, object]:
    """What one learner writes: about 60% right, some wrong, some left empty."""
    out: dict[str, object] = {}
    for ex in bank:
        roll = rng.random()
        if roll < 0.08:
            continue  # left out
        right = roll < 0.65
        if ex.generated:
            from attn_tui.core.quiz import file_instance

            key = file_instance(ex).answer
        else:
            key = ex.answer
        if ex.kind == "number":
            out[ex.id] = float(key) if right else float(key) + rng.uniform(0.1, 2)
        elif ex.kind in ("vector", "matrix"):
            value = json.loads(json.dumps(key, default=float))
            out[ex.id] = value if right else json.loads(json.dumps(value).replace("1", "2"))
        elif ex.kind == "choice":
            out[ex.id] = key if right else rng.choice([c.id for c in ex.choices])
        elif ex.kind == "multi":
            ids = [c.id for c in ex.choices]
            out[ex.id] = " ".join(key) if right else " ".join(rng.sample(ids, 2))
        elif ex.kind == "truefalse":
            out[ex.id] = ("对" if key else "错") if right else rng.choice(["t", "f", "yes"])
        else:  # written: the reference answer, or half of it, in either language
            text = key.get(rng.choice(["zh", "en"]))
            out[ex.id] = text if right else text[: len(text) // 2]
    return out


def write_class(folder: Path, learners: int, seed: int = 0) -> None:
    sys.path.insert(0, str(ROOT))
    from attn_tui import paths
    from attn_tui.core.quiz import toml_key

    bank = paths.load_all().quiz_exercises
    rng = random.Random(seed)
    folder.mkdir(parents=True, exist_ok=True)
    for i in range(learners):
        answers = learner_answers(bank, rng)
        if i % 3 == 0:
            (folder / f"s{i:04d}.json").write_text(json.dumps(answers, ensure_ascii=False))
        else:
            lines = [
                f"{toml_key(k)} = {json.dumps(v, ensure_ascii=False)}" for k, v in answers.items()
            ]
            (folder / f"s{i:04d}.toml").write_text("\n".join(lines) + "\n")


# ---- a large exercise set --------------------------------------------------------------------
COMPACT = """
[[exercise]]
id = "e{i}"
kind = "{kind}"
topics = ["dot-product", "scaling"]
prompt.zh = "第 {i} 题：q = ({a}, 1) 与 k = (1, {b}) 的点积是多少？"
prompt.en = "Exercise {i}: what is q·k for q = ({a}, 1), k = (1, {b})?"
explanation.zh = "逐项相乘再相加：{a}×1 + 1×{b}。"
explanation.en = "Multiply entry by entry and add: {a}×1 + 1×{b}."
hints = {{ zh = ["先算第一项。"], en = ["Start with the first term."] }}
{tail}"""


MINIMAL = """
[[exercise]]
id = "e{i}"
kind = "number"
topics = ["dot-product"]
prompt = {{ zh = "q·k = ?（第 {i} 题）", en = "q·k = ? (exercise {i})" }}
explanation = {{ zh = "逐项相乘再相加。", en = "Multiply and add." }}
answer = {a}
"""


def minimal_set(n: int) -> str:
    head = '[set]\nid = "big"\ntitle = { zh = "大集合", en = "A big set" }\n'
    head += 'summary = { zh = "很多题。", en = "Many exercises." }\n'
    return head + "".join(MINIMAL.format(i=i, a=i % 7) for i in range(n))


def compact_set(n: int) -> str:
    out = ['[set]\nid = "big"\ntitle = { zh = "大集合", en = "A big set" }\n'
           'summary = { zh = "很多题。", en = "Many exercises." }\n']  # fmt: skip
    for i in range(n):
        a, b = i % 7, i % 5
        if i % 2:
            tail = f"answer = {a + b}\ntolerance = {{ abs = 1e-6 }}\n"
            out.append(COMPACT.format(i=i, kind="number", a=a, b=b, tail=tail))
        else:
            tail = f'answer = "a"\nchoices = [{{ id = "a", zh = "{a + b}", en = "{a + b}" }}, ' \
                   f'{{ id = "b", zh = "{a + b + 1}", en = "{a + b + 1}" }}]\n'  # fmt: skip
            out.append(COMPACT.format(i=i, kind="choice", a=a, b=b, tail=tail))
    return "".join(out)


def shipped_mix_set(n: int) -> str:
    blocks = []
    for path in sorted((ROOT / "exercises" / "sets").glob("*.toml")):
        blocks += re.split(r"(?m)^(?=\[\[exercise\]\]\s*$)", path.read_text("utf-8"))[1:]
    out = ['[set]\nid = "big"\ntitle = { zh = "大集合", en = "A big set" }\n'
           'summary = { zh = "很多题。", en = "Many exercises." }\n']  # fmt: skip
    for i in range(n):
        block = blocks[i % len(blocks)]
        fresh = re.sub(r'(?m)^id = "([^"]+)"', rf'id = "\g<1>-{i}"', block, count=1)
        out.append(fresh)
    return "\n".join(out)


def extract(rev: str) -> Path:
    target = Path(tempfile.mkdtemp(prefix=f"attn-tui-{rev}-"))
    archive = subprocess.run(
        ["git", "-C", str(ROOT), "archive", rev], capture_output=True, check=True
    )
    subprocess.run(["tar", "-x", "-C", str(target)], input=archive.stdout, check=True)
    # The wheel maps exercises/ to attn_tui.exercises; without this link the old code would
    # load this tree's sets and quiz bank (through the editable install) and fail on them.
    (target / "attn_tui" / "exercises").symlink_to(target / "exercises")
    return target


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--learners", type=int, default=2000)
    ap.add_argument("--exercises", type=int, default=10000)
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--rev", help="also run a git revision, side by side (e.g. the merge base)")
    ap.add_argument("--timeout", type=float, default=300, help="per run, seconds")
    ap.add_argument("--only", default="", help="run the cases whose name contains this")
    args = ap.parse_args()

    versions: list[tuple[str, Path | None]] = [("this tree", ROOT)]
    if args.rev:
        versions.append((args.rev, extract(args.rev)))
    work = Path(tempfile.mkdtemp(prefix="bench-robust-"))
    write_class(work / "class", args.learners)
    write_class(work / "one", 1, seed=1)
    sets = []
    for name, make in (
        ("minimal", minimal_set),
        ("compact", compact_set),
        ("mix", shipped_mix_set),
    ):
        folder = work / name  # a folder of one set: what --exercises DIR is given
        folder.mkdir()
        (folder / f"{name}.toml").write_text(make(args.exercises), "utf-8")
        sets.append((name, folder))
    minimal, compact, mix = (folder / f"{name}.toml" for name, folder in sets)
    size = sum(p.stat().st_size for p in (work / "class").iterdir())
    mb = {p.stem: f"{p.stat().st_size / 2**20:.1f} MB" for p in (minimal, compact, mix)}
    print(f"class: {args.learners} files, {size / 2**20:.1f} MB; sets of {args.exercises}: "
          f"minimal {mb['minimal']}, compact {mb['compact']}, shipped mix {mb['mix']}")  # fmt: skip
    print("(the machine is shared: compare figures within one run)\n")

    cases = [
        ("quiz grade, 1 file (baseline)", ["quiz", "grade", str(work / "one")], None),
        (f"quiz grade, {args.learners} files", ["quiz", "grade", str(work / "class")], (10, 200)),
        (f"quiz grade --json, {args.learners}", ["quiz", "grade", str(work / "class"), "--json"],
         (10, 200)),
        (f"quiz grade --feedback --csv, {args.learners}",
         ["quiz", "grade", str(work / "class"), "--feedback", str(work / "feedback"), "--csv",
          str(work / "book.csv")], (10, 200)),
        ("list, shipped sets only (baseline)", ["exercises", "list", "--json"], None),
        *[
            (f"list + {args.exercises}, {name}", ["--exercises", str(folder), "exercises", "list",
                                                  "--json"], (2, None))
            for name, folder in sets
        ],
        *[
            (f"validate {args.exercises}, {name}", ["exercises", "validate", str(folder)], None)
            for name, folder in sets
        ],
    ]  # fmt: skip
    for name, argv, goal in cases:
        if args.only not in name:
            continue
        row = f"{name:<38}"
        for label, path in versions:
            seconds, peak, code, cpu = measure(argv, path, args.repeat, args.timeout)
            shown = f"{seconds:6.2f} s" if seconds != float("inf") else f">{args.timeout:.0f} s"
            row += f"  [{label}] {shown} (CPU {cpu:5.2f} s) {peak:6.0f} MB exit {code}"
        if goal:
            row += f"   goal < {goal[0]} s" + (f", < {goal[1]} MB" if goal[1] else "")
        print(row, flush=True)


if __name__ == "__main__":
    main()
