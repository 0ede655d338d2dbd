"""``attn-tui train``: train the reversal RNN headless and print the result (or ``--json``).

    attn-tui train --length 5 [--attention] --iters 2000 --seed 0 [--lr 0.003] [--batch 16]
    attn-tui train --length 10 --score qk [--feed none]       # --score implies --attention
    attn-tui train --compare [--seeds 10] [--length 5] [--iters N] [--score S] [--versus V]
    attn-tui train --model transformer [--task reverse|sort|previous|local|first|block|induction]
                   [--layers 1] [--heads 1]
                   [--d-model 16] [--positions learned|sinusoidal|none] [--save FILE]

A Rich progress bar goes to stderr, the result to stdout. Before a long run one line on
stderr states its estimated time; a budget past MAX_BUDGET is refused (exit 2), and Ctrl+C
stops any run, or every worker of a comparison at once (exit 130, one line). A run whose loss
turns NaN/inf ends with a sentence saying what to try and exit status 1.
"""

from __future__ import annotations

import argparse
import json
import math
import sys

from attn_tui.commands._report import (
    MAX_SEEDS,
    attention_table,
    number,
    progress_bar,
    result_table,
    run_rows,
)
from attn_tui.i18n import t

NAME = "train"
VARIANT_CHOICES = ("none", "dot", "general", "qk")
SAY_BUDGET_FROM = 10.0  # seconds: a shorter run starts without a word
MAX_BUDGET = 30 * 60.0  # seconds: a longer estimate is refused


def add_parser(subparsers) -> argparse.ArgumentParser:
    p = subparsers.add_parser(
        NAME, help=t("train.help", lang="en"), description=t("train.help", lang="en")
    )
    p.add_argument(
        "--model", choices=("rnn", "transformer"), default="rnn",
        help="the reversal RNN (default) or a tiny Transformer",
    )  # fmt: skip
    p.add_argument(
        "--length", type=int, default=None,
        help="symbols per sequence, 2..20 (default 5; 10 for the Transformer; induction 32, "
        "18..64)",
    )  # fmt: skip
    p.add_argument("--attention", action="store_true", help="add attention (dot-product scores)")
    p.add_argument(
        "--score", choices=("dot", "general", "qk"), default=None,
        help="how attention scores: dot (the book's), general (s·Wa·h), qk ((s·Wq)·(h·Wk)); "
        "implies --attention",
    )  # fmt: skip
    p.add_argument(
        "--feed", choices=("previous", "none"), default="previous",
        help="the decoder's input: the previous target (default) or none",
    )  # fmt: skip
    p.add_argument(
        "--iters",
        type=int,
        default=None,
        help="training iterations (default 2000; 3000 from length 10; 5000 from length 15; "
        "Transformer: 300 reverse, 3000 sort, 300-600 pattern tasks, 2000 induction)",
    )
    p.add_argument("--seed", type=int, default=0, help="random seed (default 0)")
    p.add_argument(
        "--lr", type=float, default=None,
        help="Adam learning rate (default 0.003; Transformer 0.01, induction 0.003, decaying to 0)",
    )  # fmt: skip
    p.add_argument(
        "--batch", type=int, default=None,
        help="sequences per iteration (default 16; 32 for the Transformer's induction task)",
    )  # fmt: skip
    p.add_argument(
        "--compare",
        action="store_true",
        help="train two variants over several seeds and print mean ± sd",
    )
    p.add_argument("--seeds", type=int, default=10, help="seeds for --compare (default 10)")
    p.add_argument(
        "--versus", choices=VARIANT_CHOICES, default="none",
        help="what --compare sets beside the chosen model (default none: no attention)",
    )  # fmt: skip
    p.add_argument(
        "--workers", type=int, default=None,
        help="processes for --compare (default: one per core; 1 = all in this process)",
    )  # fmt: skip
    p.add_argument("--json", action="store_true", help="print one JSON object instead of tables")
    from attn_tui.commands._transformer import add_transformer_options

    add_transformer_options(p)
    return p  # fmt: skip


def run(args: argparse.Namespace) -> int:
    from attn_tui.core.models.trainer import TrainConfig, default_iters
    from attn_tui.core.parse import InputError

    if args.model == "transformer":
        from attn_tui.commands._transformer import config_from, run_train

        config = config_from(args)  # the same budget as the RNN's, before anything runs
        runs = args.seeds if args.compare and 1 <= args.seeds <= MAX_SEEDS else 1
        _budget(config, runs=runs, workers=1)  # its seeds run one after another
        return run_train(args)
    from attn_tui.commands._transformer import refuse_transformer_options

    refuse_transformer_options(args)
    length = 5 if args.length is None else args.length
    iters = args.iters if args.iters is not None else default_iters(length)
    config = TrainConfig(
        length=length, attention=args.attention or args.score is not None,
        score=args.score or "dot", feed=args.feed, iters=iters, seed=args.seed,
        lr=0.003 if args.lr is None else args.lr, batch=16 if args.batch is None else args.batch,
    ).validate()  # fmt: skip
    if args.compare:
        if not (1 <= args.seeds <= MAX_SEEDS):
            raise InputError("train.bad_seeds", value=args.seeds, hi=MAX_SEEDS)
        main = config.variant if config.attention else "dot"
        if args.versus == main:
            raise InputError("train.same_variants", variant=main)
        if args.workers is not None and not (1 <= args.workers <= 64):
            raise InputError("train.bad_workers", value=args.workers, hi=64)
        return _compare(config, (args.versus, main), args.seeds, args.workers, args.json)
    _budget(config, runs=1, workers=1)
    return _single(config, args.json)


def _budget(config, runs: int, workers: int) -> None:
    """State the estimated time of a long job before it starts; refuse an absurd one. Either
    model, one run or a comparison over seeds (``runs`` of them, ``workers`` at a time)."""
    from attn_tui.core.models import trainer, transformer_trainer
    from attn_tui.core.parse import InputError

    model = transformer_trainer if hasattr(config, "d_model") else trainer
    seconds = model.estimate_seconds(config) * math.ceil(runs / workers)
    if seconds > MAX_BUDGET:
        raise InputError(
            "train.too_long", about=_about(seconds), limit=_about(MAX_BUDGET), runs=runs,
            iters=config.iters, batch=config.batch, length=config.length,
        )  # fmt: skip
    if seconds >= SAY_BUDGET_FROM:
        print(f"attn-tui train: {t('train.budget', about=_about(seconds))}", file=sys.stderr)


def _about(seconds: float) -> str:
    if seconds < 90:
        return t("train.about_s", n=max(1, round(seconds)))
    if seconds < 90 * 60:
        return t("train.about_min", n=round(seconds / 60))
    return t("train.about_h", n=f"{seconds / 3600:.1f}")


def _variant(config) -> str:
    return variant_name(config.variant)


def variant_name(variant: str) -> str:
    return t(f"train.variant.{variant}")


def _single(config, as_json: bool) -> int:
    from dataclasses import replace

    from rich.console import Console

    from attn_tui.core.models.loop import train

    result = None
    # Only the final evaluation is shown (table or JSON), so none is made on the way: the same
    # figures, without ~30 held-out decodings; training never depends on evaluations.
    quiet = replace(config, eval_every=0)
    with progress_bar() as bar:
        task = bar.add_task(t("train.progress"), total=config.iters, info="")
        for p in train(quiet, every=max(1, config.iters // 100), max_interval=0.1):
            info = f"loss {p.loss:.3f}  {p.it_per_s:,.0f} it/s"
            bar.update(task, completed=p.iteration, info=info, refresh=True)
            result = p.result
    assert result is not None
    outcome = result.outcome
    message = t(outcome.code, **outcome.params)
    status = 1 if outcome.kind == "diverged" else 0

    if as_json:
        print(json.dumps(result.to_dict() | {"message": message}, ensure_ascii=False))
        return status
    if status:
        print(f"attn-tui train: {message}", file=sys.stderr)
    out = Console()
    rows = [("train.row.variant", _variant(config)),
            ("train.row.feed", t(f"train.feed.{config.feed}")), *run_rows(result)]  # fmt: skip
    alignment = result.alignment
    if alignment is not None:
        rows += [
            ("train.row.diag_weight", f"{alignment.weight:.3f}  (1/L = {1 / config.length:.3f})"),
            ("train.row.diag_peaks", f"{alignment.peaks:.0%}"),
        ]
    final = result.final
    out.print(result_table(rows, final.probe if final is not None else None))
    if final is not None:
        out.print(t("train.held_out_note", n=final.n_eval))
        if final.attention_mean is not None:
            out.print(attention_table(final.attention_mean))
            peaks = " ".join(str(int(i) + 1) for i in final.attention_mean.argmax(axis=1))
            diagonal = " ".join(str(config.length - i) for i in range(config.length))
            out.print(t("train.attention_peaks", peaks=peaks, diagonal=diagonal))
    if status == 0 and outcome.kind != "finished":
        out.print(message)
    return status


def _compare(config, variants, n_seeds: int, workers: int | None, as_json: bool) -> int:
    from rich import box
    from rich.console import Console
    from rich.table import Table

    from attn_tui.core.models.figures import stored_row
    from attn_tui.core.models.processes import default_workers, pool_runs
    from attn_tui.core.models.trainer import book_reference, collect, compare_configs
    from attn_tui.render.beside import beside_line

    seeds = range(n_seeds)
    configs = compare_configs(config, seeds, variants)
    workers = default_workers(len(configs)) if workers is None else min(workers, len(configs))
    _budget(config, runs=len(configs), workers=workers)
    results = []
    with progress_bar() as bar:
        task = bar.add_task(t("train.compare_progress"), total=len(configs), info="")
        bar.refresh()
        for result in pool_runs(configs, workers):
            results.append(result)
            info = f"seed {result.config.seed} {result.seq_acc:.3f}"
            bar.update(task, advance=1, info=info, refresh=True)
    comparison = collect(config, seeds, variants, results)
    table = _stored_table()
    runs = {v: comparison.runs[v] for v in variants if comparison.runs.get(v)}

    if as_json:
        out = comparison.to_dict()
        out["stored_table"] = _beside_json(table, config, runs)
        print(json.dumps(out, ensure_ascii=False))
        return 0
    out = Console()
    title = t("train.compare_title", length=config.length, iters=config.iters, n=n_seeds,
              feed=t(f"train.feed.{config.feed}"))  # fmt: skip
    grid = Table(title=title, box=box.SIMPLE_HEAD, pad_edge=False)
    for key in ("variant", "params", "seq_mean", "seq_range", "pos_mean", "diag_mean"):
        left = key == "variant"  # names may wrap; a figure never does
        grid.add_column(t(f"train.col.{key}"), justify="left" if left else "right",
                         no_wrap=not left)  # fmt: skip
    for v in variants:
        cfg = config.with_variant(v)
        seq, pos = comparison.stats(v, "seq_acc"), comparison.stats(v, "pos_acc")
        weight = comparison.stats(v, "weight")
        grid.add_row(
            variant_name(v), str(cfg.n_params),
            f"{number(seq.mean, '.3f')}±{number(seq.sd, '.3f')}",
            f"{number(seq.lo, '.3f')}–{number(seq.hi, '.3f')}",
            f"{number(pos.mean, '.3f')}±{number(pos.sd, '.3f')}",
            f"{number(weight.mean, '.2f')}±{number(weight.sd, '.2f')}" if weight.n else "—",
        )  # fmt: skip
        ref = book_reference(config.length, v, config.feed)
        if ref is not None:  # the book's single run, beside the spread of ours
            grid.add_row(
                "  " + t("train.book_run"), str(ref["params"]), number(ref["seq_acc"]), "",
                number(ref["pos_acc"]), "", style="dim",
            )  # fmt: skip
        row = stored_row(table, cfg) if table else None
        if row is not None:  # the app's own stored seeds, beside this machine's
            s, p, w = (row.stats.get(k) for k in ("seq_acc", "pos_acc", "weight"))
            grid.add_row(
                "  " + t("train.ui.stored_run", n=s.n), "", f"{s.mean:.3f}±{s.sd:.3f}",
                f"{s.min:.3f}–{s.max:.3f}", f"{p.mean:.3f}±{p.sd:.3f}",
                f"{w.mean:.2f}±{w.sd:.2f}" if w else "—", style="dim",
            )  # fmt: skip
    out.print(grid)
    line = beside_line(table, config, runs, {v: variant_name(v) for v in variants})
    if line:
        out.print(line, highlight=False)
    out.print(t("train.col.legend", n=n_seeds))
    out.print(t("train.col.per_seed") + ":")
    for v in variants:
        values = " ".join(f"{r.seq_acc:.3f}" for r in comparison.runs[v])
        out.print(f"  {variant_name(v)}: {values}")
    out.print(t("train.compare_note"))
    return 0


def _stored_table():
    """The shipped table of the trainer's own seeds, or None if this install lacks it."""
    from attn_tui.core.models import figures

    try:
        return figures.load()
    except (OSError, ValueError, KeyError, TypeError):
        return None


def _beside_json(table, config, runs) -> dict[str, object] | None:
    """--json: each variant's stored row and how this machine's runs sit beside it."""
    from attn_tui.core.models import figures

    if table is None:
        return None
    out: dict[str, object] = {"made": table.made, "here": _machine().to_dict(), "variants": {}}
    for v, results in runs.items():
        cfg = config.with_variant(v)
        row = figures.stored_row(table, cfg)
        a = figures.beside_table(table, cfg, results)
        if row is None or a is None:
            continue
        out["variants"][v] = {
            "row": row.id, "seq_acc": row.stats["seq_acc"].__dict__,
            "agreement": {"kind": a.kind, "diff": a.diff, "se": _json_safe(a.se),
                          "same_seeds": a.same, "shared_seeds": a.shared},
        }  # fmt: skip
    return out


def _machine():
    from attn_tui.core.models.machine import machine

    return machine()


def _json_safe(x: float) -> float | None:
    return x if math.isfinite(x) else None
