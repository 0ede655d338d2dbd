"""``attn-tui train``: train the reversal RNN headless and print the result (or ``--json``).

    attn-tui train --length 5 [--attention] --iters 2000 --seed 0 [--lr 0.003] [--batch 16]
    attn-tui train --compare [--seeds 10] [--length 5] [--iters N]
    attn-tui train --model transformer [--task reverse|sort] [--layers 1] [--heads 1]
                   [--d-model 16] [--positions learned|sinusoidal|none] [--save FILE]

A Rich progress bar goes to stderr, the result to stdout. A run whose loss turns NaN/inf
ends with a sentence saying what to try and exit status 1; impossible settings exit 2.
"""

from __future__ import annotations

import argparse
import json
import sys

from attn_tui.i18n import t

NAME = "train"
MAX_SEEDS = 100


def add_parser(subparsers) -> argparse.ArgumentParser:
    p = subparsers.add_parser(
        NAME, help=t("train.help", lang="en"), description=t("train.help", lang="en")
    )
    p.add_argument(
        "--model",
        choices=("rnn", "transformer"),
        default="rnn",
        help="the reversal RNN (default) or a tiny Transformer",
    )
    p.add_argument(
        "--length",
        type=int,
        default=None,
        help="symbols per sequence, 2..12 (default 5; 10 for the Transformer)",
    )
    p.add_argument("--attention", action="store_true", help="add dot-product attention")
    p.add_argument(
        "--iters",
        type=int,
        default=None,
        help="training iterations (default 2000; 3000 at length 10 or more; Transformer: "
        "300 reverse, 3000 sort)",
    )
    p.add_argument("--seed", type=int, default=0, help="random seed (default 0)")
    p.add_argument(
        "--lr",
        type=float,
        default=None,
        help="Adam learning rate (default 0.003; Transformer 0.01, decaying to 0)",
    )
    p.add_argument("--batch", type=int, default=16, help="sequences per iteration (default 16)")
    p.add_argument(
        "--compare",
        action="store_true",
        help="train both variants over several seeds and print mean ± sd",
    )
    p.add_argument("--seeds", type=int, default=10, help="seeds for --compare (default 10)")
    p.add_argument("--json", action="store_true", help="print one JSON object instead of tables")
    from attn_tui.commands._transformer import add_transformer_options

    add_transformer_options(p)
    return p  # fmt: skip


def run(args: argparse.Namespace) -> int:
    from attn_tui.core.models.trainer import TrainConfig, default_iters
    from attn_tui.core.parse import InputError

    if args.model == "transformer":
        from attn_tui.commands._transformer import run_train

        return run_train(args)
    from attn_tui.commands._transformer import refuse_transformer_options

    refuse_transformer_options(args)
    length = 5 if args.length is None else args.length
    iters = args.iters if args.iters is not None else default_iters(length)
    config = TrainConfig(
        length=length, attention=args.attention, iters=iters, seed=args.seed,
        lr=0.003 if args.lr is None else args.lr, batch=args.batch,
    ).validate()  # fmt: skip
    if args.compare:
        if not (1 <= args.seeds <= MAX_SEEDS):
            raise InputError("train.bad_seeds", value=args.seeds, hi=MAX_SEEDS)
        return _compare(config, args.seeds, args.json)
    return _single(config, args.json)


def _progress_bar():
    from rich.console import Console
    from rich.progress import (
        BarColumn,
        MofNCompleteColumn,
        Progress,
        TextColumn,
        TimeElapsedColumn,
        TimeRemainingColumn,
    )

    return Progress(
        TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(),
        TextColumn("{task.fields[info]}"), TimeElapsedColumn(), TimeRemainingColumn(),
        console=Console(stderr=True), transient=True,
    )  # fmt: skip


def _variant(attention: bool) -> str:
    return t("train.variant.attention" if attention else "train.variant.plain")


def _single(config, as_json: bool) -> int:
    from rich.console import Console

    from attn_tui.core.models.trainer import train

    result = None
    with _progress_bar() as bar:
        task = bar.add_task(t("train.progress"), total=config.iters, info="")
        for p in train(config, every=max(1, config.iters // 100), max_interval=0.1):
            info = f"loss {p.loss:.3f}  {p.it_per_s:,.0f} it/s"
            bar.update(task, completed=p.iteration, info=info)
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
    table = result_table(result, _variant(config.attention))
    final = result.final
    out.print(table)
    if final is not None:
        out.print(t("train.held_out_note", n=final.n_eval))
        if final.attention_mean is not None:
            out.print(_attention_table(final.attention_mean))
            peaks = " ".join(str(int(i) + 1) for i in final.attention_mean.argmax(axis=1))
            out.print(t("train.attention_peaks", peaks=peaks))
    if status == 0 and outcome.kind != "finished":
        out.print(message)
    return status


def result_table(result, variant: str):
    """One run's figures as a table (the RNN's or the Transformer's: both results carry them)."""
    from rich.table import Table

    from attn_tui.core.models.trainer import letters

    config = result.config
    table = Table(title=t("train.result_title"))
    table.add_column(t("train.col.item"))
    table.add_column(t("train.col.value"), justify="right")
    rows = [
        ("train.row.variant", variant),
        ("train.row.length", str(config.length)),
        ("train.row.params", str(result.params)),
        ("train.row.seed", str(config.seed)),
        ("train.row.iters", f"{result.iters} / {config.iters}"),
        ("train.row.seq_acc", _fmt(result.seq_acc)),
        ("train.row.pos_acc", _fmt(result.pos_acc)),
        ("train.row.final_loss", _fmt(result.final_loss, ".4g")),
        ("train.row.seconds", t("train.seconds", value=result.seconds)),
        ("train.row.eval_seconds", t("train.seconds", value=result.eval_seconds)),
        ("train.row.speed", t("train.speed", value=result.iters / max(result.seconds, 1e-9))),
    ]
    for key, value in rows:
        table.add_row(t(key), value)
    if result.final is not None:
        probe = result.final.probe
        decoded = t(
            "train.probe", x=letters(probe.x), target=letters(probe.target),
            prediction=letters(probe.prediction),
        )  # fmt: skip
        table.add_row(t("train.row.probe"), decoded)
    return table


def _attention_table(matrix, title: str | None = None, labels=None):
    """Rows = outputs, columns = inputs; ``labels`` name both axes (default: positions)."""
    from rich.table import Table
    from rich.text import Text

    L = matrix.shape[1]
    table = Table(title=title or t("train.attention_title"), show_edge=False, pad_edge=False)
    table.add_column("")
    for j in range(L):
        table.add_column(str(j + 1) if labels is None else labels[j], justify="right")
    for i, row in enumerate(matrix):
        peak = int(row.argmax())
        cells = [Text(f"{v:.2f}", style="bold" if j == peak else "") for j, v in enumerate(row)]
        table.add_row(t("train.out_row", i=i + 1) if labels is None else labels[i], *cells)
    return table


def _fmt(x: float | None, spec: str = ".4f") -> str:
    return "—" if x is None or x != x else format(x, spec)


def _compare(config, n_seeds: int, as_json: bool) -> int:
    from rich import box
    from rich.console import Console
    from rich.table import Table

    from attn_tui.core.models.trainer import compare, count_params, seed_reference

    with _progress_bar() as bar:
        task = bar.add_task(t("train.compare_progress"), total=2 * n_seeds, info="")

        def advance(result) -> None:
            bar.update(task, advance=1, info=f"seed {result.config.seed} {result.seq_acc:.3f}")

        comparison = compare(config, range(n_seeds), on_result=advance)

    if as_json:
        print(json.dumps(comparison.to_dict(), ensure_ascii=False))
        return 0
    out = Console()
    title = t("train.compare_title", length=config.length, iters=config.iters, n=n_seeds)
    table = Table(title=title, box=box.SIMPLE_HEAD, pad_edge=False)
    for key in ("variant", "params", "seq_mean", "seq_range", "pos_mean"):
        left = key == "variant"
        table.add_column(t(f"train.col.{key}"), justify="left" if left else "right", no_wrap=left)
    for attention in (False, True):
        seq, pos = comparison.stats(attention, "seq_acc"), comparison.stats(attention, "pos_acc")
        table.add_row(
            _variant(attention), str(count_params(attention)),
            f"{_fmt(seq.mean, '.3f')}±{_fmt(seq.sd, '.3f')}",
            f"{_fmt(seq.lo, '.3f')}–{_fmt(seq.hi, '.3f')}",
            f"{_fmt(pos.mean, '.3f')}±{_fmt(pos.sd, '.3f')}",
        )  # fmt: skip
        ref = seed_reference(config.length, attention)
        if ref is not None:  # the seed text's single run, beside the spread of ours
            table.add_row(
                "  " + t("train.seed_run"), str(ref["params"]), _fmt(ref["seq_acc"]), "",
                _fmt(ref["pos_acc"]), style="dim",
            )  # fmt: skip
    out.print(table)
    out.print(t("train.col.per_seed") + ":")
    for attention in (False, True):
        values = " ".join(f"{r.seq_acc:.3f}" for r in comparison.runs[attention])
        out.print(f"  {_variant(attention)}: {values}")
    out.print(t("train.compare_note"))
    return 0
