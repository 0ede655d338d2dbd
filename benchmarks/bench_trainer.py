"""Per-iteration time of the numpy trainer against an equivalent PyTorch CPU model.

    .venv/bin/python benchmarks/bench_trainer.py [--iters 2000] [--repeats 3]

Both sides run in this process, one thread each, same sizes (H = 16, 6 symbols), batch 16,
Adam lr 0.003, gradient clipping at 5, float32, teacher forcing. The numpy side is the real
trainer (``attn_tui.core.models.trainer.train``, evaluation off), data drawing included; the PyTorch
side gets its batches pre-made, which only flatters it. PyTorch is optional: without it the
numpy figures are printed alone.

It also counts the numpy calls one iteration makes (forward + backward + clipping + Adam), by
running one step on arrays of a counting ndarray subclass: every ufunc (operators and
reductions included), every array function (np.dot, np.copyto ...), and separately every
indexing and every view made (``.T``, ``transpose``, ``reshape``). No timings are asserted
anywhere; this prints ratios.
"""

from __future__ import annotations

import os

for _var in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_var, "1")  # before numpy / torch are imported

import argparse  # noqa: E402
import math  # noqa: E402
import statistics  # noqa: E402
import time  # noqa: E402
from collections import Counter  # noqa: E402

import numpy as np  # noqa: E402

from attn_tui.core.models.rnn import one_hot_batches  # noqa: E402
from attn_tui.core.models.trainer import TrainConfig, Trainer, clip_global_norm, train  # noqa: E402

CASES = [(5, False), (5, True), (10, False), (10, True)]

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
    def T(self):  # noqa: N802
        if _depth == 0:
            COUNTS["view"] += 1
        return super().T


def _counted(obj) -> None:
    """Turn every ndarray attribute of obj (and lists of them) into a Counted view."""
    for name, value in list(vars(obj).items()):
        if isinstance(value, np.ndarray) and not isinstance(value, Counted):
            setattr(obj, name, value.view(Counted))
        elif isinstance(value, list) and value and isinstance(value[0], np.ndarray):
            setattr(obj, name, [v.view(Counted) for v in value])


def count_numpy_calls(length: int, attention: bool) -> Counter[str]:
    trainer = Trainer(TrainConfig(length=length, attention=attention))
    model, adam = trainer.model, trainer.adam
    batches = one_hot_batches(trainer.data.draw(trainer.data_rng, 2, 16))
    model.loss_and_grads(batches[0])  # builds the workspace
    _counted(model)  # params, grads, by_col; then the named views into them:
    for name, shape in model.shapes:
        for prefix, flat in (("", model.params), ("d", model.grads)):
            setattr(model, prefix + name, np.ndarray.reshape(flat[model.slices[name]], shape))
    model.by_col = np.ndarray.reshape(model.by, (model.V, 1))
    _counted(model._ws)
    _counted(adam)
    batch = batches[1]
    batch = type(batch)(*(a.view(Counted) for a in (batch.x, batch.X, batch.D, batch.Yt)))
    COUNTS.clear()
    model.loss_and_grads(batch)  # exactly what one training iteration runs
    clip_global_norm(model.grads, 5.0)
    adam.step(model.params, model.grads)
    return Counter(COUNTS)


# ---- timing ---------------------------------------------------------------------------------


def numpy_ms_per_iter(length: int, attention: bool, iters: int) -> float:
    cfg = TrainConfig(length=length, attention=attention, iters=iters, eval_every=0)
    result = None
    for p in train(cfg, every=iters, max_interval=math.inf):
        result = p.result
    return 1e3 * result.seconds / result.iters


def numpy_model_only_ms(length: int, attention: bool, iters: int) -> float:
    """The step alone, batches pre-made: what the model and optimiser cost."""
    trainer = Trainer(TrainConfig(length=length, attention=attention))
    model, adam = trainer.model, trainer.adam
    batches = one_hot_batches(trainer.data.draw(trainer.data_rng, 64, 16))
    start = time.perf_counter()
    for i in range(iters):
        model.loss_and_grads(batches[i % 64])
        clip_global_norm(model.grads, 5.0)
        adam.step(model.params, model.grads)
    return 1e3 * (time.perf_counter() - start) / iters


def torch_setup():
    try:
        import torch
        from torch import nn
    except ImportError:
        return None
    torch.set_num_threads(1)

    class TorchReversal(nn.Module):
        def __init__(self, attention: bool, H: int = 16, V: int = 6) -> None:
            super().__init__()
            self.attention, self.H = attention, H
            self.enc = nn.RNN(V, H, batch_first=True)  # tanh, as ours (it has two biases)
            self.dec = nn.RNN(V, H, batch_first=True)
            self.out = nn.Linear(2 * H if attention else H, V)

        def forward(self, X, D):  # (B, L, V) one-hot each
            K, h_last = self.enc(X)  # (B, L, H), (1, B, H)
            S, _ = self.dec(D, h_last)  # decoder starts from h_L; teacher-forced inputs
            if self.attention:
                A = torch.softmax(S @ K.transpose(1, 2) / math.sqrt(self.H), dim=-1)
                S = torch.cat([S, A @ K], dim=-1)  # [s_t ; c_t]
            return self.out(S)  # (B, L, V)

    def ms_per_iter(length: int, attention: bool, iters: int) -> float:
        torch.manual_seed(0)
        model = TorchReversal(attention)
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
        start = time.perf_counter()
        for i in range(iters):
            step(i)
        return 1e3 * (time.perf_counter() - start) / iters

    return torch.__version__, ms_per_iter


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--iters", type=int, default=2000)
    ap.add_argument("--repeats", type=int, default=3, help="median of this many runs")
    args = ap.parse_args()

    torch_side = torch_setup()
    if torch_side is None:
        print("PyTorch is not installed: numpy figures only "
              "(pip install torch==2.13.0 for the comparison).")  # fmt: skip
    else:
        print(f"PyTorch {torch_side[0]}, 1 thread; numpy {np.__version__}, "
              f"OPENBLAS_NUM_THREADS={os.environ['OPENBLAS_NUM_THREADS']}")  # fmt: skip
    print(f"batch 16, H 16, Adam, clip 5, float32; {args.iters} iterations, "
          f"median of {args.repeats}\n")  # fmt: skip
    head = f"{'case':<18}{'numpy calls':>12}{'+idx/views':>11}{'trainer ms':>11}{'step ms':>9}"
    print(head + (f"{'torch ms':>10}{'torch/numpy':>13}" if torch_side else ""))
    for length, attention in CASES:
        counts = count_numpy_calls(length, attention)
        calls = counts["ufunc"] + counts["function"]
        extra = counts["indexing"] + counts["view"]
        ours, step, theirs = [], [], []
        for _ in range(args.repeats):  # interleaved, so both see the same machine load
            ours.append(numpy_ms_per_iter(length, attention, args.iters))
            step.append(numpy_model_only_ms(length, attention, args.iters))
            if torch_side:
                theirs.append(torch_side[1](length, attention, args.iters))
        name = f"L {length} {'attention' if attention else 'no attention'}"
        ours_ms, step_ms = statistics.median(ours), statistics.median(step)
        line = f"{name:<18}{calls:>12}{extra:>11}{ours_ms:>11.4f}{step_ms:>9.4f}"
        if torch_side:
            theirs_ms = statistics.median(theirs)
            line += f"{theirs_ms:>10.4f}{theirs_ms / ours_ms:>12.1f}×"
        print(line, flush=True)
    print("\nnumpy calls = ufuncs (operators and reductions included) + array functions, per "
          "iteration;\n+idx/views = indexing and view-making on top. trainer ms = the real "
          "training loop\n(data drawing included); step ms = forward + backward + clip + Adam "
          "on pre-made batches.")  # fmt: skip


if __name__ == "__main__":
    main()
