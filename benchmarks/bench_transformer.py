"""Per-iteration time of the numpy Transformer against the same model in PyTorch CPU.

    .venv/bin/python benchmarks/bench_transformer.py [--iters 1000] [--repeats 3] [--only induction]

PyTorch is optional and never a dependency: install it in a separate environment of your own
(``python3 -m venv /tmp/torch && /tmp/torch/bin/pip install torch==2.13.0`` and this checkout
with ``pip install -e .``) and run the script with that environment's python.

Both sides run in this process, one thread each, float32, the same architecture (token
embedding, positions, multi-head self-attention without biases, residuals, optional layer
norms and feed-forward, linear output), Adam (β 0.9, 0.98) with the linear learning-rate
decay, and gradient clipping at 5; each case with its task's batch (16; 32 for induction).
The numpy side is the real trainer (``loop.train``, held-out evaluation off),
data drawing included; "step" is its forward + backward + clip + Adam alone on pre-made
batches. The PyTorch side gets its batches pre-made, uses its fused attention
(``scaled_dot_product_attention``), fused Adam where it has one and ``foreach`` clipping — all
of which only flatter it.

The induction case (2 attention-only layers of one head, d 32, 64 tokens, L 32, causal) has
its loss on 7 positions of each sequence. Both sides compute the output layer there alone;
the numpy model's last layer also computes its queries there alone (the other positions'
outputs reach nothing), while the PyTorch model computes every position as written in the
usual way. "induction, every query" is the numpy step without that shortcut, so the table
shows what it is worth.

Before timing, the two are checked to be the same model: PyTorch is given the numpy model's
weights (float64) and must reproduce its loss and every gradient. No timings are asserted
anywhere; this prints ratios, measured side by side, interleaved, so both see the same load.
"""

from __future__ import annotations

import os

for _var in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_var, "1")  # before numpy / torch are imported

import argparse  # noqa: E402
import math  # noqa: E402
import statistics  # noqa: E402
import time  # noqa: E402

import numpy as np  # noqa: E402

from attn_tui.core.models import tasks  # noqa: E402
from attn_tui.core.models.loop import Adam, clip_global_norm, train  # noqa: E402
from attn_tui.core.models.transformer import TinyTransformer  # noqa: E402
from attn_tui.core.models.transformer_trainer import TransformerConfig  # noqa: E402

CASES = {
    "reverse, default": TransformerConfig(),
    "reverse, 4 heads": TransformerConfig(heads=4),
    "reverse, 2 layers+norm": TransformerConfig(layers=2, heads=2, norm=True),
    "sort, causal, sinus.": TransformerConfig(task="sort", causal=True, positions="sinusoidal"),
    "reverse, d 32, no ff": TransformerConfig(d_model=32, heads=2, feed_forward=False),
    "induction, default": TransformerConfig.for_task("induction"),
}
EVERY_QUERY = "induction, every query"  # numpy alone: the last layer queries every position


def numpy_ms_per_iter(cfg: TransformerConfig, iters: int) -> float:
    from dataclasses import replace

    result = None
    for p in train(replace(cfg, iters=iters, eval_every=0), every=iters, max_interval=math.inf):
        result = p.result
    return 1e3 * result.seconds / result.iters


def numpy_step_ms(cfg: TransformerConfig, iters: int, every_query: bool = False) -> float:
    trainer = cfg.build()
    model = trainer.model
    adam = Adam(model.n_params, cfg.lr, cfg.beta1, cfg.beta2, cfg.eps, model.dtype)
    if every_query:  # no shortcut: the last layer computes every position's query
        model._even_rows = lambda rows, B, L: None
    batches = trainer.data.draw(trainer.data_rng, 64, cfg.batch)
    start = time.perf_counter()
    for i in range(iters):
        b = batches[i % 64]
        model.loss_and_grads(b.x, b.y, b.rows)
        clip_global_norm(model.grads, cfg.clip)
        adam.lr = cfg.lr * (1 - i / iters)
        adam.step(model.params, model.grads)
    return 1e3 * (time.perf_counter() - start) / iters


def torch_side():
    try:
        import torch
        from torch import nn
        from torch.nn import functional as F
    except ImportError:
        return None
    torch.set_num_threads(1)

    class Layer(nn.Module):
        def __init__(self, cfg: TransformerConfig) -> None:
            super().__init__()
            d = cfg.d_model
            self.cfg = cfg
            self.ln1 = nn.LayerNorm(d) if cfg.norm else nn.Identity()
            self.qkv = nn.Linear(d, 3 * d, bias=False)
            self.o = nn.Linear(d, d, bias=False)
            if cfg.feed_forward:
                self.ln2 = nn.LayerNorm(d) if cfg.norm else nn.Identity()
                self.ff = nn.Sequential(nn.Linear(d, 2 * d), nn.ReLU(), nn.Linear(2 * d, d))

        def forward(self, H):  # (B, L, d)
            B, L, d = H.shape
            h = self.cfg.heads
            q, k, v = self.qkv(self.ln1(H)).split(d, dim=-1)
            q, k, v = (t.view(B, L, h, d // h).transpose(1, 2) for t in (q, k, v))  # (B, h, L, dk)
            Z = F.scaled_dot_product_attention(q, k, v, is_causal=self.cfg.causal)
            H = H + self.o(Z.transpose(1, 2).reshape(B, L, d))
            if self.cfg.feed_forward:
                H = H + self.ff(self.ln2(H))
            return H

    class TorchTransformer(nn.Module):
        def __init__(self, cfg: TransformerConfig) -> None:
            super().__init__()
            V, L, d = cfg.arch.vocab, cfg.length, cfg.d_model
            self.E = nn.Parameter(torch.randn(V, d))
            if cfg.positions == "learned":
                self.P = nn.Parameter(torch.randn(L, d))
            elif cfg.positions == "sinusoidal":
                from attn_tui.core.models.transformer import sinusoidal

                self.register_buffer("P", torch.tensor(sinusoidal(L, d)))  # float64
            else:
                self.P = None
            self.layers = nn.ModuleList(Layer(cfg) for _ in range(cfg.layers))
            self.lnf = nn.LayerNorm(d) if cfg.norm else nn.Identity()
            self.out = nn.Linear(d, V)

        def forward(self, x, rows=None):  # (B, L) → logits (B·L, V), or at the flat rows
            H = self.E[x]
            if self.P is not None:
                H = H + self.P
            for layer in self.layers:
                H = layer(H)
            H = self.lnf(H).reshape(-1, H.shape[-1])
            return self.out(H if rows is None else H[rows])

    def numpy_layout(tm: TorchTransformer, cfg: TransformerConfig, grad: bool):
        """name → the PyTorch model's weights (or gradients) in the numpy model's layout
        (nn.Linear stores Wᵀ, so its (3d, d) qkv weight is W_QKVᵀ)."""

        def a(p):
            return (p.grad if grad else p.data).numpy()

        out = {"E": a(tm.E), "W_out": a(tm.out.weight).T, "b_out": a(tm.out.bias)}
        if cfg.positions == "learned":
            out["P"] = a(tm.P)
        for n, tl in enumerate(tm.layers, start=1):
            out |= {f"{n}.W_QKV": a(tl.qkv.weight).T, f"{n}.W_O": a(tl.o.weight).T}
            if cfg.norm:
                out |= {f"{n}.ln1_g": a(tl.ln1.weight), f"{n}.ln1_b": a(tl.ln1.bias)}
            if cfg.feed_forward:
                out |= {f"{n}.W1": a(tl.ff[0].weight).T, f"{n}.b1": a(tl.ff[0].bias),
                        f"{n}.W2": a(tl.ff[2].weight).T, f"{n}.b2": a(tl.ff[2].bias)}  # fmt: skip
                if cfg.norm:
                    out |= {f"{n}.ln2_g": a(tl.ln2.weight), f"{n}.ln2_b": a(tl.ln2.bias)}
        if cfg.norm:
            out |= {"lnf_g": a(tm.lnf.weight), "lnf_b": a(tm.lnf.bias)}
        return out

    def copy_from_numpy(tm: TorchTransformer, nm: TinyTransformer, cfg) -> None:
        views = numpy_layout(tm, cfg, grad=False)  # views of the tensors' memory
        assert set(views) == {name for name, _ in nm.shapes}, "the two models differ"
        for name, view in views.items():
            view[...] = nm.view(name)

    def same_model_check(cfg: TransformerConfig) -> tuple[float, float]:
        """|Δloss| and the largest |Δgradient| over every parameter, numpy vs PyTorch,
        float64, on the same weights and batch."""
        rng = np.random.default_rng(0)
        nm = TinyTransformer(cfg.arch, dtype=np.float64, rng=rng)
        nm.params += rng.normal(0, 0.1, nm.n_params)
        tm = TorchTransformer(cfg).double()
        copy_from_numpy(tm, nm, cfg)
        b = tasks.data_for(cfg.task, cfg.length, 16).draw(rng, 1, 16)[0]
        x, y = b.x, b.y
        rows = None if b.rows is None else torch.from_numpy(b.rows)
        y_t = torch.from_numpy(y).reshape(-1)
        loss_np = nm.loss_and_grads(x, y, b.rows)
        loss_t = F.cross_entropy(tm(torch.from_numpy(x), rows),
                                 y_t if rows is None else y_t[rows])  # fmt: skip
        loss_t.backward()
        worst = 0.0
        for name, g in numpy_layout(tm, cfg, grad=True).items():
            owner, attr = nm._owner(name)
            worst = max(worst, float(np.abs(getattr(owner, "d" + attr) - g).max()))
        return abs(loss_np - loss_t.item()), worst

    def ms_per_iter(cfg: TransformerConfig, iters: int) -> float:
        torch.manual_seed(0)
        model = TorchTransformer(cfg).float()
        kwargs = {"lr": cfg.lr, "betas": (cfg.beta1, cfg.beta2), "eps": cfg.eps}
        try:
            opt = torch.optim.Adam(model.parameters(), fused=True, **kwargs)
        except (RuntimeError, TypeError):
            opt = torch.optim.Adam(model.parameters(), **kwargs)
        rng = np.random.default_rng(0)
        data = []
        for b in tasks.data_for(cfg.task, cfg.length, 16).draw(rng, 64, cfg.batch):
            y = torch.from_numpy(b.y).reshape(-1)
            rows = None if b.rows is None else torch.from_numpy(b.rows)
            data.append((torch.from_numpy(b.x), rows, y if rows is None else y[rows]))
        params = list(model.parameters())

        def step(i: int, total: int) -> None:
            x, rows, y = data[i % 64]
            opt.param_groups[0]["lr"] = cfg.lr * (1 - i / total)
            opt.zero_grad(set_to_none=True)
            loss = F.cross_entropy(model(x, rows), y)
            loss.backward()
            nn.utils.clip_grad_norm_(params, cfg.clip, foreach=True)
            opt.step()

        for i in range(50):  # warm-up
            step(i, iters)
        start = time.perf_counter()
        for i in range(iters):
            step(i, iters)
        return 1e3 * (time.perf_counter() - start) / iters

    return torch.__version__, ms_per_iter, same_model_check


def whole_induction_run() -> tuple[float, float, float]:
    """The default induction run as the screen and ``train --task induction`` make it (2000
    iterations, the held-out set every 50): wall seconds, training, evaluations."""
    cfg = TransformerConfig.for_task("induction")
    start = time.perf_counter()
    result = None
    for p in train(cfg, every=100, max_interval=0.05):
        result = p.result
    return time.perf_counter() - start, result.seconds, result.eval_seconds


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--iters", type=int, default=1000)
    ap.add_argument("--repeats", type=int, default=3, help="median of this many runs")
    ap.add_argument("--only", default="", help="the cases whose name contains this")
    ap.add_argument("--no-whole", action="store_true", help="skip the whole induction run")
    args = ap.parse_args()
    cases = {name: cfg for name, cfg in CASES.items() if args.only in name}

    side = torch_side()
    if side is None:
        print("PyTorch is not installed: numpy figures only "
              "(pip install torch==2.13.0 for the comparison).")  # fmt: skip
    else:
        print(f"PyTorch {side[0]}, 1 thread; numpy {np.__version__}, "
              f"OPENBLAS_NUM_THREADS={os.environ['OPENBLAS_NUM_THREADS']}")  # fmt: skip
        print("same model? PyTorch given the numpy weights (float64), |Δloss| and max |Δgrad|:")
        for name, cfg in cases.items():
            dloss, dgrad = side[2](cfg)
            print(f"  {name:<24}{dloss:10.1e}{dgrad:10.1e}")
    print(f"\nfloat32, Adam, clip 5; {args.iters} iterations, median of {args.repeats}\n")
    head = f"{'case':<24}{'B×L':>6}{'params':>7}{'trainer ms':>11}{'step ms':>9}"
    print(head + (f"{'torch ms':>10}{'torch/numpy':>13}" if side else ""))
    for name, cfg in cases.items():
        ours, step, theirs, every = [], [], [], []
        for _ in range(args.repeats):  # interleaved, so both see the same machine load
            ours.append(numpy_ms_per_iter(cfg, args.iters))
            step.append(numpy_step_ms(cfg, args.iters))
            if cfg.task == "induction":
                every.append(numpy_step_ms(cfg, args.iters, every_query=True))
            if side:
                theirs.append(side[1](cfg, args.iters))
        ours_ms = statistics.median(ours)
        size = f"{cfg.batch}×{cfg.length}"
        line = f"{name:<24}{size:>6}{cfg.n_params:>7}{ours_ms:>11.4f}"
        line += f"{statistics.median(step):>9.4f}"
        if side:
            theirs_ms = statistics.median(theirs)
            line += f"{theirs_ms:>10.4f}{theirs_ms / ours_ms:>12.1f}×"
        print(line, flush=True)
        if every:
            every_ms = statistics.median(every)
            line = f"{EVERY_QUERY:<24}{size:>6}{cfg.n_params:>7}{'':>11}{every_ms:>9.4f}"
            if side:
                line += f"{theirs_ms:>10.4f}{theirs_ms / every_ms:>12.1f}× (step)"
            print(line, flush=True)
    print("\ntrainer ms = the real training loop (data drawing and the learning-rate "
          "schedule included);\nstep ms = forward + backward + clip + Adam on pre-made "
          "batches.")  # fmt: skip
    if not args.no_whole and "induction" in " ".join(cases):
        wall, training, evaluation = whole_induction_run()
        print(f"\nthe whole default induction run (2000 iterations, 500 held-out sequences "
              f"every 50): {wall:.1f} s wall, {training:.1f} s training, {evaluation:.1f} s "
              f"evaluations")  # fmt: skip


if __name__ == "__main__":
    main()
