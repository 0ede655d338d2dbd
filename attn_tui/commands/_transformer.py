"""The Transformer's side of ``attn-tui train`` and ``attn-tui lab`` (not a command itself).

    attn-tui train --model transformer [--task reverse|sort|previous|local|first|block|induction]
                   [--layers 1] [--heads 1] [--d-model 16] [--positions learned|sinusoidal|none]
                   [--no-feed-forward | --feed-forward] [--norm] [--causal] [--save FILE]
                   [--compare --seeds 5] [--json]
    attn-tui lab --model FILE [--sequence ABCDEFABCD] [--json]

Each task starts from its own settings (``TransformerConfig.for_task``: induction is 2 layers
of one head, d_model 32, causal, no feed-forward, L 32, batch 32, lr 0.003, 2000 iterations);
an option given on the command line replaces the task's value.

Cheap to import (the parser is built on every launch): numpy, the core and Rich are imported
inside the functions.
"""

from __future__ import annotations

import argparse
import json
import sys

from attn_tui.commands import path_arg
from attn_tui.i18n import t

# option → its argparse dest, for refusing the Transformer's options on the RNN
_TRANSFORMER_OPTIONS = {
    "--task": "task", "--layers": "layers", "--heads": "heads", "--d-model": "d_model",
    "--positions": "positions", "--no-feed-forward": "no_feed_forward",
    "--feed-forward": "feed_forward", "--norm": "norm", "--causal": "causal", "--save": "save",
}  # fmt: skip


def add_transformer_options(p: argparse.ArgumentParser) -> None:
    g = p.add_argument_group("Transformer (with --model transformer)")
    g.add_argument(
        "--task",
        choices=("reverse", "sort", "previous", "local", "first", "block", "induction"),
        default=None,
        help="reverse (solved by position), sort (by content), a pattern task whose head "
        "shows one pattern (previous, local, first, block), or induction (2 layers); "
        "default reverse",
    )
    g.add_argument("--layers", type=int, default=None, help="attention layers, 1 or 2 (default 1)")
    g.add_argument("--heads", type=int, default=None, help="heads per layer, 1..4 (default 1)")
    g.add_argument("--d-model", type=int, default=None, help="vector width, 4..32 (default 16)")
    g.add_argument(
        "--positions",
        choices=("learned", "sinusoidal", "none"),
        default=None,
        help="positional encoding (default learned)",
    )
    g.add_argument(
        "--no-feed-forward",
        action="store_true",
        default=None,
        help="leave out the feed-forward block",
    )
    g.add_argument(
        "--feed-forward",
        action="store_true",
        default=None,
        help="add the feed-forward block (the induction task has none by default)",
    )
    g.add_argument("--norm", action="store_true", default=None, help="add layer norms")
    g.add_argument(
        "--causal",
        action="store_true",
        default=None,
        help="causal mask: output i sees inputs 1..i only",
    )
    g.add_argument("--save", metavar="FILE", default=None, type=path_arg,
                   help="save the trained model (.npz) for 'lab --model FILE'")  # fmt: skip


def refuse_transformer_options(args: argparse.Namespace) -> None:
    from attn_tui.core.parse import InputError

    for option, dest in _TRANSFORMER_OPTIONS.items():
        if getattr(args, dest, None) is not None:
            raise InputError("transformer.transformer_only", option=option)


def config_from(args: argparse.Namespace):
    from attn_tui.core.models.transformer_trainer import TransformerConfig, default_iters
    from attn_tui.core.parse import InputError

    for option, given in (("--attention", args.attention), ("--score", args.score),
                          ("--feed", args.feed != "previous"), ("--versus", args.versus != "none"),
                          ("--workers", args.workers is not None)):  # fmt: skip
        if given:
            raise InputError("transformer.rnn_only", option=option)
    task = args.task or "reverse"
    if args.no_feed_forward and args.feed_forward:
        raise InputError("heads.feed_forward_both")
    feed_forward = False if args.no_feed_forward else True if args.feed_forward else None
    given = {
        "length": args.length, "layers": args.layers, "heads": args.heads,
        "d_model": args.d_model, "positions": args.positions, "lr": args.lr,
        "feed_forward": feed_forward, "norm": args.norm,
        "causal": args.causal, "seed": args.seed, "batch": args.batch,
        "iters": args.iters if args.iters is not None else default_iters(task),
    }  # fmt: skip
    chosen = {k: v for k, v in given.items() if v is not None}
    return TransformerConfig.for_task(task, **chosen).validate()


def run_train(args: argparse.Namespace) -> int:
    from attn_tui.core.parse import InputError

    config = config_from(args)
    if args.save is not None:
        from attn_tui.core.models.transformer_file import check_writable

        check_writable(args.save)
    if args.compare:
        from attn_tui.commands._report import MAX_SEEDS

        if args.save is not None:
            raise InputError("transformer.rnn_only", option="--compare with --save")
        if not (1 <= args.seeds <= MAX_SEEDS):
            raise InputError("train.bad_seeds", value=args.seeds, hi=MAX_SEEDS)
        return _seeds(config, args.seeds, args.json)
    return _single(config, args.json, args.save)


def variant(config) -> str:
    return t(
        "transformer.variant", task=t(f"transformer.task.{config.task}"), layers=config.layers,
        heads=config.heads, d_model=config.d_model,
        positions=t(f"transformer.positions.{config.positions}"),
    )  # fmt: skip


def _single(config, as_json: bool, save: str | None) -> int:
    from rich.console import Console

    from attn_tui.commands._report import (
        attention_table,
        number,
        progress_bar,
        result_table,
        run_rows,
    )
    from attn_tui.core.models import transformer_file
    from attn_tui.core.models.loop import train
    from attn_tui.core.models.transformer import VOCAB

    result = None
    with progress_bar() as bar:
        task = bar.add_task(t("train.progress"), total=config.iters, info="")
        for p in train(config, every=max(1, config.iters // 100), max_interval=0.1):
            bar.update(
                task, completed=p.iteration, info=f"loss {p.loss:.3f}  {p.it_per_s:,.0f} it/s"
            )
            result = p.result
    assert result is not None
    outcome, final = result.outcome, result.final
    message = t(outcome.code, **outcome.params)
    status = 1 if outcome.kind == "diverged" else 0
    saved = None
    if save is not None and final is not None:
        saved = transformer_file.save_result(save, result)
    why = None
    if result.ceiling is not None and final is not None:
        why = t(
            "transformer.why_blind",
            ceiling=result.ceiling,
            pos_acc=final.pos_acc,
            letters=VOCAB,
            guess=1 / VOCAB,
        )

    if as_json:
        extra = {"message": message} | ({"why": why} if why else {})
        extra |= {"saved": str(saved)} if saved else {}
        print(json.dumps(result.to_dict() | extra, ensure_ascii=False))
        return status
    if status:
        print(f"attn-tui train: {message}", file=sys.stderr)
    out = Console(highlight=False)
    rows = [("train.row.variant", variant(config)), *run_rows(result)]
    table = result_table(rows, final.probe if final is not None else None)
    out.print(table)
    if final is not None:
        out.print(t("transformer.held_out_note", n=final.n_eval))
        if final.probe.copy is not None:
            out.print(_copy_line(final.probe))
        for stats in final.heads:
            matrix = final.attention_mean[stats.layer - 1, stats.head - 1]
            title = t("transformer.head_title", layer=stats.layer, head=stats.head)
            if config.length <= MAX_PRINTED_MAP:
                out.print(attention_table(matrix, title, diagonal=config.task == "reverse"))
            else:
                out.print(title)
                out.print(t("heads.big_map", n=config.length))
            out.print(t("transformer.head_figures", mirror=number(stats.mirror, ".3f"),
                        by_symbol=number(stats.by_symbol, ".3f"),
                        by_position=number(stats.by_position, ".3f")))  # fmt: skip
            if stats.scores is not None:
                out.print(_scores_line("heads.scores", stats.scores))
        if result.uniform_head is not None:
            out.print(_scores_line("heads.uniform", result.uniform_head))
        if config.task == "induction":
            for line in _phase_lines(result.phases):
                out.print(line)
        if result.ablation is not None:
            out.print(_ablation_table(result.ablation))
            out.print(t("heads.ablation.note"))
    if why:
        out.print(why)
    if status == 0 and outcome.kind != "finished":
        out.print(message)
    if saved:
        out.print(t("transformer.file.saved", path=saved))
    return status


MAX_PRINTED_MAP = 12  # positions: a wider map of numbers does not fit a terminal's width


def _scores_line(key: str, scores) -> str:
    from attn_tui.commands._report import number

    induction = ""
    if scores.induction == scores.induction:  # not NaN: the sequences hold copies
        induction = t("heads.scores_induction", value=number(scores.induction, ".3f"))
    return t(key, previous=number(scores.previous, ".3f"), local=number(scores.local, ".3f"),
             stripe=number(scores.stripe, ".3f"), column=scores.stripe_column,
             block=number(scores.block, ".3f"), induction=induction)  # fmt: skip


def _copy_line(probe) -> str:
    from attn_tui.core.models.tasks import SEGMENT

    source, start = probe.copy
    scored = probe.scored
    return t("heads.copy", source=source + 1, source_end=source + SEGMENT, start=start + 1,
             end=start + SEGMENT, first=scored[0] + 1, last=scored[-1] + 1)  # fmt: skip


def _phase_lines(phases) -> list[str]:
    from attn_tui.render.induction import phase_lines

    return phase_lines(phases)


def _ablation_table(ablation):
    from rich.table import Table

    from attn_tui.commands._report import number

    layer, head = ablation.off
    table = Table(title=t("heads.ablation.title", layer=layer, head=head))
    table.add_column(t("heads.ablation.col.figure"))
    table.add_column(t("heads.ablation.col.before"), justify="right")
    table.add_column(t("heads.ablation.col.after"), justify="right")
    ind_layer, ind_head = ablation.induction_head
    for key, name in (("heads.ablation.copy_acc", "copy_acc"),
                      ("heads.ablation.seq_acc", "seq_acc"),
                      ("heads.ablation.induction", "induction")):  # fmt: skip
        table.add_row(t(key, layer=ind_layer, head=ind_head),
                      number(getattr(ablation.before, name), ".3f"),
                      number(getattr(ablation.after, name), ".3f"))  # fmt: skip
    return table


def _seeds(config, n_seeds: int, as_json: bool) -> int:
    from rich.console import Console

    from attn_tui.commands._report import number, progress_bar
    from attn_tui.core.models.transformer_trainer import over_seeds

    with progress_bar() as bar:
        task = bar.add_task(t("train.compare_progress"), total=n_seeds, info="")

        def advance(result) -> None:
            bar.update(task, advance=1, info=f"seed {result.config.seed} {result.seq_acc:.3f}")

        runs = over_seeds(config, range(n_seeds), on_result=advance)
    from attn_tui.core.models import transformer_figures

    summary = transformer_figures.task_summary(runs)
    base = set(transformer_figures.metric_names())
    extra = {k: v for k, v in summary.items() if k not in base}  # the task's own figures
    if as_json:
        figures = {k: {"n": v.n, "mean": _json(v.mean), "sd": _json(v.sd), "min": _json(v.min),
                       "max": _json(v.max)} for k, v in extra.items()}  # fmt: skip
        print(json.dumps(runs.to_dict() | ({"task_figures": figures} if figures else {}),
                         ensure_ascii=False))  # fmt: skip
        return 0

    def spread(stats, spec: str = ".3f") -> str:
        return f"{number(stats.mean, spec)} ± {number(stats.sd, spec)}"

    out = Console(highlight=False)
    out.print(t("transformer.seeds_header", variant=variant(config), params=config.n_params,
                iters=config.iters))  # fmt: skip
    out.print(t("transformer.seeds_title", n=n_seeds, seq=spread(runs.stats("seq_acc")),
                pos=spread(runs.stats("pos_acc")),
                seconds=spread(runs.stats("seconds"), ".2f") + " s"))  # fmt: skip
    out.print(t("transformer.seeds_position_head",
                mirror=spread(runs.head_stats("mirror", "mirror")),
                by_position=spread(runs.head_stats("by_position", "mirror"))))  # fmt: skip
    out.print(t("transformer.seeds_content_head",
                by_symbol=spread(runs.head_stats("by_symbol", "by_symbol")),
                by_position=spread(runs.head_stats("by_position", "by_symbol"))))  # fmt: skip
    for line in _task_lines(config, summary, spread):
        out.print(line)
    out.print(t("train.col.per_seed") + ": " + " ".join(f"{r.seq_acc:.3f}" for r in runs.runs))
    return 0


def _json(x: float) -> float | None:
    return x if x == x else None


def _task_lines(config, figures: dict, spread) -> list[str]:
    """The task's own figures over seeds (the pattern head, or the induction story);
    ``figures``: every metric of ``transformer_figures.task_summary``."""
    from attn_tui.core.models.head_scores import TASK_SCORE

    if "pattern_head" in figures:
        score = TASK_SCORE[config.task]
        return [
            t(
                "heads.seeds.pattern",
                score=t(f"heads.score.{score}"),
                value=spread(figures["pattern_head"]),
                uniform=spread(figures["uniform"]),
            )
        ]
    from attn_tui.render.induction import seed_lines

    return seed_lines(figures, spread)


# ---- lab --model FILE ----------------------------------------------------------------------


def run_lab(args: argparse.Namespace) -> int:
    from attn_tui.core.attention import trained
    from attn_tui.core.models import transformer_file
    from attn_tui.core.parse import InputError

    # the random lab's settings mean nothing for a trained model: its file decides them
    for option, given in (
        ("--d-model", args.d_model),
        ("--heads", args.heads),
        ("--window", args.window),
        ("--cross", args.cross),
        ("--causal", args.causal or None),
        ("--shapes", args.shapes or None),
    ):
        if given is not None:
            raise InputError("transformer.not_with_model", option=option)
    saved = transformer_file.load(args.model)
    config = saved.config
    x = (
        saved.probe
        if args.sequence is None
        else trained.parse_sequence(args.sequence, config.length, config.task)
    )
    view = trained.open_trained(saved.model, config, x)
    if args.json:
        print(json.dumps({"file": str(args.model), "model": config.to_dict(),
                          "params": saved.model.n_params, "summary": saved.summary}
                         | view.to_dict(), ensure_ascii=False, allow_nan=False))  # fmt: skip
        return 0

    import numpy as np
    from rich.console import Console

    from attn_tui.commands._report import attention_table, shape_text, unbroken_lines
    from attn_tui.core.models.head_scores import scores
    from attn_tui.core.models.tasks import labels

    task = config.task
    out = Console(highlight=False, markup=False)
    out.print(t("transformer.lab_header", variant=variant(config), params=saved.model.n_params,
                path=args.model), style="bold")  # fmt: skip
    out.print(t("train.probe", x=labels(task, view.x), target=labels(task, view.target),
                prediction=labels(task, view.prediction)))  # fmt: skip
    copy = view.copy
    copies = None if copy is None else np.array([copy])
    for n, layer in enumerate(view.layers, start=1):
        shapes = [f"{name} {shape_text(shape)}" for name, shape in layer.shapes.items()
                  if name != "X_kv"]  # fmt: skip
        shapes[0] = f"{n}: {shapes[0]}"
        out.print("\n" + unbroken_lines(shapes, out.width), soft_wrap=True)
        for head in range(layer.heads):
            title = t("transformer.lab_head_title", layer=n, head=head + 1)
            if config.length <= MAX_PRINTED_MAP:
                out.print(attention_table(layer.weights[head], title, view.labels,
                                           diagonal=task == "reverse"))  # fmt: skip
            else:
                out.print(title)
                out.print(t("heads.big_map", n=config.length))
            if task in ("previous", "local", "first", "block", "induction"):
                out.print(_scores_line("heads.scores", scores(layer.weights[head][None], copies)))
    return 0
