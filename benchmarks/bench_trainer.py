"""Every trainer figure of issue 14, each as a ratio measured side by side in one run.

    .venv/bin/python benchmarks/bench_trainer.py              # everything (a few minutes)
    .venv/bin/python benchmarks/bench_trainer.py --only torch cli    # some sections
    .venv/bin/python benchmarks/bench_trainer.py --iters 1000 --repeats 3

Sections (goal in brackets):

  torch    the trainer against the same model in PyTorch CPU, 1 thread, fused Adam, at
           length 10 with attention for dot / general / q·k (and without), 3000 iterations
           [≥ 10×]. The numpy side is the real training loop (``train``, evaluation off, data
           drawing included); PyTorch gets pre-made batches, which only flatters it. Both
           sides are timed in wall-clock and in this thread's CPU time, interleaved, so a
           busy machine slows both alike; the CPU ratio is the steadier one under load.
  cli      the same ratio from ``attn-tui train --json``'s own ``seconds`` (a fresh process
           per run, progress bar on; the command evaluates only at the end, the one
           evaluation it shows), beside the training loop's, and what the difference is made
           of: evaluation every 100 iterations (as the app does), the progress reports and
           bar, and the first iterations' allocations [≥ 10× too].
  app      in-app training speed ÷ headless, length 10, q·k, full speed: the app runs
           headless (``run_test``) and its iterations per second of training are compared
           with ``train`` in this process just before and after [≥ 0.85].
  pool     ``train --compare --seeds 10`` (20 runs over a process pool) ÷ one run × 20
           [≤ 0.6 on 2 cores], and that the pool's results equal the sequential ones.

It also counts the numpy calls of one iteration (forward + backward + clipping + Adam), by
running one step on arrays of a counting ndarray subclass. PyTorch is optional: without it
the torch section prints numpy figures alone (pip install torch==2.13.0 into the venv; it is
never a dependency of the project). No timing is asserted anywhere.
"""

from __future__ import annotations

import os

for _var in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_var, "1")  # before numpy / torch are imported

import argparse  # noqa: E402
import asyncio  # noqa: E402
import json  # noqa: E402
import math  # noqa: E402
import statistics  # noqa: E402
import subprocess  # noqa: E402
import sys  # noqa: E402
import time  # noqa: E402
from collections import Counter  # noqa: E402
from pathlib import Path  # noqa: E402

import numpy as np  # noqa: E402

from attn_tui.core.models.loop import Adam, clip_global_norm, run, run_to_end, train  # noqa: E402
from attn_tui.core.models.rnn import one_hot_batches  # noqa: E402
from attn_tui.core.models.trainer import TrainConfig, compare_configs  # noqa: E402

VARIANTS = ("none", "dot", "general", "qk")
SUMMARY: list[tuple[str, str, str]] = []  # (figure, goal, measured) for the closing table

# ---- counting numpy calls -------------------------------------------------------------------

COUNTS: Counter[str] = Counter()
_depth = 0  # count only the outermost call: np.dot dispatching to a ufunc is one call


class Counted(np.ndarray):
    """An ndarray that counts what is done to it (only used to count, never to time)."""

    def __array_ufunc__(self, ufunc, method, *inputs, out=None, **kwargs):
        global _depth
        if _depth == 0:
            COUNTS["ufunc"] += 1
        plain = [x.view(np.ndarray) if isinstance(x, Counted) else x for x in inputs]
        if out is not None:
            kwargs["out"] = tuple(o.view(np.ndarray) if isinstance(o, Counted) else o for o in out)
        _depth += 1
        try:
            result = getattr(ufunc, method)(*plain, **kwargs)
        finally:
            _depth -= 1
        if out is not None:
            return out[0] if len(out) == 1 else out
        return result.view(Counted) if isinstance(result, np.ndarray) else result

    def __array_function__(self, func, types, args, kwargs):
        global _depth
        if _depth == 0:
            COUNTS["function"] += 1
        _depth += 1
        try:
            return super().__array_function__(func, types, args, kwargs)
        finally:
            _depth -= 1

    def __getitem__(self, key):
        if _depth == 0:
            COUNTS["indexing"] += 1
        return super().__getitem__(key)

    def __setitem__(self, key, value):
        if _depth == 0:
            COUNTS["indexing"] += 1
        super().__setitem__(key, value)

    def dot(self, other, out=None):  # the method form of np.dot, which the model uses
        global _depth
        if _depth == 0:
            COUNTS["function"] += 1
        _depth += 1
        try:
            return super().dot(other, out)
        finally:
            _depth -= 1

    def take(self, *args, **kwargs):  # the method form of np.take
        global _depth
        if _depth == 0:
            COUNTS["function"] += 1
        _depth += 1
        try:
            return super().take(*args, **kwargs)
        finally:
            _depth -= 1

    def fill(self, value):
        if _depth == 0:
            COUNTS["function"] += 1
        super().fill(value)

    def transpose(self, *axes):
        if _depth == 0:
            COUNTS["view"] += 1
        return super().transpose(*axes)

    def reshape(self, *shape, **kwargs):
        if _depth == 0:
            COUNTS["view"] += 1
        return super().reshape(*shape, **kwargs)

    @property
    def T(self):
        if _depth == 0:
            COUNTS["view"] += 1
        return super().T


def _as_counted(value):
    if isinstance(value, np.ndarray) and not isinstance(value, Counted):
        return value.view(Counted)
    if isinstance(value, list | tuple) and value and not isinstance(value[0], int | float):
        return type(value)(_as_counted(v) for v in value)
    return value


def _counted(obj) -> None:
    """Turn every ndarray attribute of obj (and lists/tuples of them) into Counted views."""
    for name, value in list(vars(obj).items()):
        setattr(obj, name, _as_counted(value))


def count_numpy_calls(length: int, variant: str) -> Counter[str]:
    cfg = TrainConfig(length=length).with_variant(variant)
    trainer = cfg.build()
    model = trainer.model
    adam = Adam(model.n_params, cfg.lr, cfg.beta1, cfg.beta2, cfg.eps, model.dtype)
    batches = one_hot_batches(trainer.data.draw(trainer.data_rng, 2, 16))
    model.loss_and_grads(batches[0])  # builds the workspace
    _counted(model)  # params, grads, by_col; then the named views into them:
    for name, shape in model.shapes:
        for prefix, flat in (("", model.params), ("d", model.grads)):
            setattr(model, prefix + name, np.ndarray.reshape(flat[model.slices[name]], shape))
    model.by_col = np.ndarray.reshape(model.by, (model.V, 1))
    model._ws = None  # rebuilt from the counted parameter views, as in training
    model.loss_and_grads(batches[0])
    _counted(model._ws)
    _counted(adam)
    batch = batches[1]
    batch = type(batch)(*(a.view(Counted) for a in batch))
    COUNTS.clear()
    model.loss_and_grads(batch)  # exactly what one training iteration runs
    clip_global_norm(model.grads, 5.0)
    adam.step(model.params, model.grads)
    return Counter(COUNTS)


# ---- timing helpers -------------------------------------------------------------------------


class Clock:
    """Wall-clock and this thread's CPU time of a block."""

    def __enter__(self) -> Clock:
        self.w0, self.c0 = time.perf_counter(), time.thread_time()
        return self

    def __exit__(self, *exc) -> None:
        self.wall = time.perf_counter() - self.w0
        self.cpu = time.thread_time() - self.c0


def numpy_ms_per_iter(length: int, variant: str, iters: int) -> tuple[float, float]:
    """The real training loop, evaluation off: (wall ms, CPU ms) per iteration."""
    cfg = TrainConfig(length=length, iters=iters, eval_every=0).with_variant(variant)
    wall = list(train(cfg, every=iters, max_interval=math.inf))[-1].result.seconds
    cpu = list(train(cfg, every=iters, max_interval=math.inf, clock=time.thread_time))
    return 1e3 * wall / iters, 1e3 * cpu[-1].result.seconds / iters


_BASELINE_SNIPPET = """
import json, math, sys, time
from attn_tui.core.models.trainer import TrainConfig
try:
    from attn_tui.core.models.loop import train
except ImportError:  # a checkout from before the shared loop
    from attn_tui.core.models.trainer import train
length, variant, iters = int(sys.argv[1]), sys.argv[2], int(sys.argv[3])
cfg = TrainConfig(length=length, iters=iters, eval_every=0).with_variant(variant)
wall = list(train(cfg, every=iters, max_interval=math.inf))[-1].result.seconds
cpu = list(train(cfg, every=iters, max_interval=math.inf, clock=time.thread_time))
print(json.dumps([1e3 * wall / iters, 1e3 * cpu[-1].result.seconds / iters]))
"""


def baseline_ms_per_iter(
    checkout: str, length: int, variant: str, iters: int
) -> tuple[float, float]:
    """The same loop from another checkout of the project (e.g. main, for before/after), in a
    child process that imports attn_tui from there: (wall ms, CPU ms) per iteration."""
    env = dict(os.environ, PYTHONPATH=checkout)
    argv = [sys.executable, "-c", _BASELINE_SNIPPET, str(length), variant, str(iters)]
    out = subprocess.run(argv, capture_output=True, text=True, env=env, check=True, cwd=checkout)
    wall, cpu = json.loads(out.stdout)
    return wall, cpu


def torch_setup():
    try:
        import torch
        from torch import nn
    except ImportError:
        return None
    torch.set_num_threads(1)

    class TorchReversal(nn.Module):
        def __init__(self, variant: str, H: int = 16, V: int = 6) -> None:
            super().__init__()
            self.variant, self.H = variant, H
            self.enc = nn.RNN(V, H, batch_first=True)  # tanh, as ours (it has two biases)
            self.dec = nn.RNN(V, H, batch_first=True)
            self.out = nn.Linear(H if variant == "none" else 2 * H, V)
            if variant == "general":
                self.Wa = nn.Linear(H, H, bias=False)
            elif variant == "qk":
                self.Wq, self.Wk = nn.Linear(H, H, bias=False), nn.Linear(H, H, bias=False)

        def forward(self, X, D):  # (B, L, V) one-hot each
            K, h_last = self.enc(X)  # (B, L, H), (1, B, H)
            S, _ = self.dec(D, h_last)  # decoder starts from h_L; teacher-forced inputs
            if self.variant == "none":
                return self.out(S)
            Q, Kp = S, K
            if self.variant == "general":
                Q = self.Wa(S)
            elif self.variant == "qk":
                Q, Kp = self.Wq(S), self.Wk(K)
            A = torch.softmax(Q @ Kp.transpose(1, 2) / math.sqrt(self.H), dim=-1)
            return self.out(torch.cat([S, A @ K], dim=-1))  # [s_t ; c_t]

    def ms_per_iter(length: int, variant: str, iters: int) -> tuple[float, float]:
        torch.manual_seed(0)
        model = TorchReversal(variant)
        try:
            opt = torch.optim.Adam(model.parameters(), lr=0.003, fused=True)
        except (RuntimeError, TypeError):
            opt = torch.optim.Adam(model.parameters(), lr=0.003)
        rng = np.random.default_rng(0)
        data = []
        for _ in range(64):  # pre-made batches: data cost is not charged to PyTorch
            x = torch.from_numpy(rng.integers(0, 6, (16, length)))
            y = x.flip(1)
            X = nn.functional.one_hot(x, 6).float()
            Y = nn.functional.one_hot(y, 6).float()
            D = torch.cat([torch.zeros(16, 1, 6), Y[:, :-1]], dim=1)
            data.append((X, D, y.reshape(-1)))
        loss_fn = nn.CrossEntropyLoss()

        def step(i: int) -> None:
            X, D, target = data[i % 64]
            opt.zero_grad(set_to_none=True)
            loss = loss_fn(model(X, D).reshape(-1, 6), target)
            loss.backward()
            nn.utils.clip_grad_norm_(model.parameters(), 5.0)
            opt.step()

        for i in range(50):  # warm-up
            step(i)
        with Clock() as c:
            for i in range(iters):
                step(i)
        return 1e3 * c.wall / iters, 1e3 * c.cpu / iters

    return torch.__version__, ms_per_iter


def med(values: list[float]) -> float:
    return statistics.median(values)


# ---- sections -------------------------------------------------------------------------------


def section_torch(args, torch_side) -> dict[str, float]:
    """Returns torch's CPU ms per iteration per variant (L 10), for the cli section."""
    print("== the trainer against PyTorch (length 10, 3000-iteration loop, batch 16) ==")
    head = f"{'variant':<9}{'calls':>6}{'+idx':>6}{'ours ms':>9}{'cpu ms':>8}"
    head += f"{'base ms':>9}{'cpu ms':>8}" if args.baseline else ""
    print(head + (f"{'torch ms':>10}{'cpu ms':>8}{'wall ×':>8}{'cpu ×':>7}" if torch_side else ""))
    torch_cpu = {}
    for variant in VARIANTS:
        counts = count_numpy_calls(10, variant)
        calls = counts["ufunc"] + counts["function"]
        extra = counts["indexing"] + counts["view"]
        ours, theirs, base = [], [], []
        for _ in range(args.repeats):  # interleaved, so both see the same machine load
            ours.append(numpy_ms_per_iter(10, variant, args.iters))
            if args.baseline:
                base.append(baseline_ms_per_iter(args.baseline, 10, variant, args.iters))
            if torch_side:
                theirs.append(torch_side[1](10, variant, args.iters))
        ow, oc = med([o[0] for o in ours]), med([o[1] for o in ours])
        line = f"{variant:<9}{calls:>6}{extra:>6}{ow:>9.4f}{oc:>8.4f}"
        if args.baseline:
            line += f"{med([b[0] for b in base]):>9.4f}{med([b[1] for b in base]):>8.4f}"
        if torch_side:
            tw, tc = med([x[0] for x in theirs]), med([x[1] for x in theirs])
            torch_cpu[variant] = tc
            line += f"{tw:>10.4f}{tc:>8.4f}{tw / ow:>7.1f}×{tc / oc:>6.1f}×"
            if variant != "none":
                SUMMARY.append((f"trainer ÷ PyTorch, L 10 {variant} (loop)", "≥ 10×",
                                f"{tw / ow:.1f}× wall, {tc / oc:.1f}× CPU"))  # fmt: skip
        print(line, flush=True)
    print("calls = numpy ufuncs + array functions per iteration; +idx = indexing and views."
          + ("\nbase = the same loop from --baseline's checkout, interleaved." if args.baseline
             else "") + "\n")  # fmt: skip
    return torch_cpu


def _cli_seconds(variant: str, iters: int) -> tuple[float, float, float]:
    """One `attn-tui train --json` in a fresh process: (seconds, eval_seconds, process wall)."""
    argv = [sys.executable, "-m", "attn_tui", "train", "--length", "10", "--iters", str(iters),
            "--json"] + ([] if variant == "none" else ["--score", variant])  # fmt: skip
    env = {k: v for k, v in os.environ.items() if k not in ("OPENBLAS_NUM_THREADS",)}
    start = time.perf_counter()
    out = subprocess.run(argv, capture_output=True, text=True, env=env, check=True).stdout
    wall = time.perf_counter() - start
    data = json.loads(out)
    return data["seconds"], data["eval_seconds"], wall


def section_cli(args, torch_side, torch_cpu: dict[str, float]) -> None:
    print("== `attn-tui train --json` seconds against the training loop (length 10) ==")
    head = f"{'variant':<9}{'loop ms':>9}{'json ms':>9}{'json÷loop':>10}{'eval':>7}"
    print(head + f"{'first':>8}{'reports':>9}" + (f"{'torch÷json':>11}" if torch_side else ""))
    for variant in VARIANTS[1:]:
        loop, cli, evals, first, reports, tw = [], [], [], [], [], []
        cfg = TrainConfig(length=10, iters=args.iters).with_variant(variant)
        for _ in range(args.repeats):
            loop.append(numpy_ms_per_iter(10, variant, args.iters)[0])
            seconds, _eval, _wall = _cli_seconds(variant, args.iters)
            cli.append(1e3 * seconds / args.iters)
            # what the command does that the loop does not, one thing at a time
            with_eval = list(train(cfg, every=args.iters, max_interval=math.inf))[-1].result
            evals.append(1e3 * with_eval.seconds / args.iters)
            first.append(_first_iterations_ms(cfg))
            reported = list(train(cfg, every=max(1, args.iters // 100), max_interval=0.1))
            reports.append(1e3 * reported[-1].result.seconds / args.iters)
            if torch_side:
                tw.append(torch_side[1](10, variant, args.iters)[0])
        lm, cm = med(loop), med(cli)
        line = (f"{variant:<9}{lm:>9.4f}{cm:>9.4f}{cm / lm:>9.2f}×{med(evals) / lm:>6.2f}×"
                f"{med(first):>7.1f}m{med(reports) / lm:>8.2f}×")  # fmt: skip
        if torch_side:
            line += f"{med(tw) / cm:>10.1f}×"
            SUMMARY.append((f"trainer ÷ PyTorch, L 10 {variant} (train --json)", "≥ 10×",
                            f"{med(tw) / cm:.1f}× wall"))  # fmt: skip
        print(line, flush=True)
    print("json÷loop = the command's seconds per iteration over the loop's; eval = the loop with\n"
          "evaluation every 100 iterations (its time left out, its cache misses not); first =\n"
          "ms the first 10 iterations take together (workspace and first data block); reports\n"
          "= the loop yielding ~100 reports as the command does.\n")  # fmt: skip


def _first_iterations_ms(cfg: TrainConfig) -> float:
    trainer = replace_iters(cfg, 10).build()
    with Clock() as c:
        list(run(trainer, every=10, max_interval=math.inf))
    return 1e3 * c.wall


def replace_iters(cfg: TrainConfig, iters: int) -> TrainConfig:
    from dataclasses import replace

    return replace(cfg, iters=iters, eval_every=0)


def section_app(args) -> None:
    print("== in-app training speed ÷ headless (length 10, q·k, full speed) ==")
    from attn_tui.core.models.processes import prepare

    prepare()
    ratios = []
    for k in range(args.repeats):
        headless_before = _headless_it_per_s(args.seconds)
        in_app = asyncio.run(_in_app_it_per_s(args.seconds))
        headless_after = _headless_it_per_s(args.seconds)
        headless = (headless_before + headless_after) / 2
        ratios.append(in_app / headless)
        print(f"  run {k + 1}: headless {headless:,.0f} it/s, in the app {in_app:,.0f} it/s "
              f"→ {in_app / headless:.2f}", flush=True)  # fmt: skip
    SUMMARY.append(("in-app ÷ headless, L 10 q·k, full speed", "≥ 0.85", f"{med(ratios):.2f}"))
    print()


def _headless_it_per_s(seconds: float) -> float:
    """Iterations per second of wall-clock, evaluations every 100 iterations included, as the
    app's child runs and times them."""
    cfg = TrainConfig(length=10, iters=100_000).with_variant("qk")
    start = time.perf_counter()
    for p in train(cfg, every=10**9, max_interval=0.05):
        if time.perf_counter() - start > seconds:
            return p.iteration / (time.perf_counter() - start)
    return math.nan


async def _in_app_it_per_s(seconds: float) -> float:
    from textual.widgets import Input, Select

    from attn_tui.app import AttnApp
    from attn_tui.screens.trainer import TrainerScreen

    app = AttnApp(lang="en")
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.press("down", "enter")
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, TrainerScreen)
        screen.query_one("#iters", Input).value = "100000"
        screen.query_one("#pace", Select).value = "fast"
        await pilot.pause()
        screen.action_start()
        start = time.perf_counter()
        while time.perf_counter() - start < seconds:
            await asyncio.sleep(0.05)
        rate = screen.live.iteration / screen.live.wall
        screen.action_stop()
        await app.workers.wait_for_complete()
    return rate


def section_pool(args) -> None:
    print("== train --compare --seeds 10 over a process pool ÷ one run × 20 (length 5) ==")
    from attn_tui.core.models.processes import default_workers, pool_runs

    base = TrainConfig(length=5, iters=2000)
    configs = compare_configs(base, range(10), ("none", "dot"))
    ratios = []
    for k in range(args.repeats):
        with Clock() as one:
            single = [run_to_end(configs[i]) for i in (0, 1)]  # one run of each variant
        per_run = one.wall / 2
        with Clock() as pooled:
            results = list(pool_runs(configs, default_workers(len(configs))))
        ratios.append(pooled.wall / (per_run * len(configs)))
        by_config = {r.config: r for r in results}
        same = all(np.array_equal(by_config[s.config].losses, s.losses) for s in single)
        print(f"  run {k + 1}: one run {per_run:.2f} s, 20 over {default_workers(20)} workers "
              f"{pooled.wall:.2f} s → {ratios[-1]:.2f}; identical to sequential: {same}",
              flush=True)  # fmt: skip
    with Clock() as cli:
        subprocess.run([sys.executable, "-m", "attn_tui", "train", "--compare", "--seeds", "10",
                        "--json"], capture_output=True, check=True)  # fmt: skip
    print(f"  the command itself: {cli.wall:.2f} s (start-up, forkserver and table included)")
    SUMMARY.append(("compare --seeds 10 ÷ (one run × 20)", "≤ 0.6", f"{med(ratios):.2f}"))
    print()


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--iters", type=int, default=3000)
    ap.add_argument("--repeats", type=int, default=3, help="median of this many runs")
    ap.add_argument("--seconds", type=float, default=4.0, help="app section: seconds per side")
    ap.add_argument("--only", nargs="+", choices=("torch", "cli", "app", "pool"))
    ap.add_argument(
        "--baseline",
        metavar="CHECKOUT",
        help="torch section: also time the loop of another checkout (before/after)",
    )
    args = ap.parse_args()
    sections = set(args.only or ("torch", "cli", "app", "pool"))

    torch_side = torch_setup() if sections & {"torch", "cli"} else None
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else math.nan
    print(f"numpy {np.__version__}; "
          + (f"PyTorch {torch_side[0]}, 1 thread" if torch_side else "PyTorch absent")
          + f"; {os.cpu_count()} cores, load average {load:.1f}; {args.iters} iterations, "
          f"median of {args.repeats}\n")  # fmt: skip
    torch_cpu: dict[str, float] = {}
    if "torch" in sections:
        torch_cpu = section_torch(args, torch_side)
    if "cli" in sections:
        section_cli(args, torch_side, torch_cpu)
    if "app" in sections:
        section_app(args)
    if "pool" in sections:
        section_pool(args)
    if SUMMARY:
        print("== issue 14, trainer figures ==")
        width = max(len(f) for f, _, _ in SUMMARY)
        for figure, goal, measured in SUMMARY:
            print(f"{figure:<{width}}  {goal:>7}  {measured}")


if __name__ == "__main__":
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
    main()
