"""``attn-tui lab``: the self-attention lab without the screen.

    attn-tui lab --tokens 5 --d-model 8 --heads 2 [--causal] [--window W] [--seed 0] [--json]
    attn-tui lab --preset love_zh --cross "I love China"   # 我 爱 中国 asks, the source answers
    attn-tui lab --shapes --tokens 10 --d-model 512 --heads 8

prints the shapes, each head's weights (rows = queries, columns = keys) and the output;
``--json`` prints the same as one JSON object with keys ``shapes``, ``weights`` (per head,
rows = queries) and ``output``, plus every intermediate. ``--shapes`` traces the shapes of a
layer of any size without computing numbers.
"""

from __future__ import annotations

import argparse
import re
from pathlib import Path

from attn_tui.commands import path_arg
from attn_tui.commands._report import shape_text

NAME = "lab"

_COUNT = re.compile(r"[+-]?\d+")


def add_parser(subparsers: argparse._SubParsersAction) -> argparse.ArgumentParser:
    p = subparsers.add_parser(
        NAME,
        help="the self-attention lab: Q, K, V, masks, heads, cross-attention",
        description="Compute one attention layer on a short sequence and print its shapes, "
        "each head's weights and the output.",
    )
    src = p.add_mutually_exclusive_group()
    src.add_argument(
        "--tokens",
        metavar="N|WORDS",
        help="a number of tokens (x1 … xN) or the words themselves, e.g. '猫 坐 在 垫子 上' "
        "(default: the preset 'cat')",
    )
    src.add_argument("--preset", help="a preset sentence: cat, love, love_zh")
    src.add_argument(
        "--x", metavar="ROWS", help="type X yourself: rows of numbers separated by ';'"
    )
    src.add_argument(
        "--model",
        type=path_arg,
        metavar="FILE",
        help="open a Transformer trained with `attn-tui train --model transformer --save FILE`",
    )
    p.add_argument(
        "--sequence",
        metavar="LETTERS",
        help="with --model: the input, letters A–F (default: the saved held-out sequence)",
    )
    p.add_argument("--d-model", type=int, help="embedding size d_model (default 8; 1–16)")
    p.add_argument("--heads", type=int, help="number of heads h, a divisor of d_model")
    p.add_argument("--causal", action="store_true", help="hide later tokens (causal mask)")
    p.add_argument("--window", type=int, metavar="W", help="local attention: keys ≤ W away")
    p.add_argument("--seed", type=int, default=0, help="random seed for X and the W matrices")
    p.add_argument(
        "--cross",
        metavar="M|WORDS",
        help="cross-attention: keys and values from a second sequence of M tokens (or words)",
    )
    p.add_argument(
        "--shapes",
        action="store_true",
        help="trace shapes only, for any size (default n=10, d_model=512, h=8)",
    )
    p.add_argument("--json", action="store_true", help="print JSON instead of tables")
    p.add_argument("--svg", type=path_arg, metavar="FILE",
                   help="also draw each head's weight heatmap (with --shapes: the shape "
                   "trace) into FILE as SVG, for slides")  # fmt: skip
    return p


def _count(spec: str, too_large) -> int:
    """A count typed as digits; ``too_large(shown)`` is raised past nine digits, more than any
    count could need (int() itself refuses 5,000 digits)."""
    from attn_tui.core.parse import shown

    digits = spec.strip()
    if len(digits.lstrip("+-")) > 9:
        raise too_large(shown(digits))
    return int(digits)


def _sequence(spec: str, d_model: int, seed: int, prefix: str):
    from attn_tui.core.attention import lab

    if _COUNT.fullmatch(spec.strip()):
        count = _count(spec, lambda n: lab.InputError("lab.too_many_tokens", count=n,
                                                      limit=lab.MAX_TOKENS))  # fmt: skip
        if count < 1:
            raise lab.InputError("lab.empty")
        return lab.numbered(count, d_model, seed, prefix=prefix)
    return lab.embed(spec.split(), d_model, seed)


def run(args: argparse.Namespace) -> int:
    if args.model is not None:
        from attn_tui.commands._transformer import run_lab

        return run_lab(args)
    if args.sequence is not None:
        from attn_tui.core.parse import InputError

        raise InputError("transformer.needs_model", option="--sequence")
    if args.shapes:
        return _run_shapes(args)

    from attn_tui.core.attention import lab

    if args.x is not None:
        queries = lab.typed(args.x)
        d_model = queries.d_model
        if args.d_model is not None and args.d_model != d_model:
            raise lab.InputError("lab.shape", matrix="X", rows=queries.n, cols=d_model,
                                 want_rows=queries.n, want_cols=args.d_model)  # fmt: skip
    else:
        d_model = 8 if args.d_model is None else args.d_model
        if args.tokens is not None:
            queries = _sequence(args.tokens, d_model, args.seed, "x")
        else:
            queries = lab.preset(args.preset or "cat", d_model, args.seed)
    heads = args.heads if args.heads is not None else (2 if d_model % 2 == 0 else 1)
    memory = None
    if args.cross is not None:
        memory = _sequence(args.cross, d_model, args.seed, "y")
    result = lab.compute(
        queries, memory, heads=heads, causal=args.causal, window=args.window, seed=args.seed
    )
    figures = lab.cost(result.n_q)
    if args.svg is not None:
        _write_svg(args.svg, result)
    if args.json:
        _print_json(result.to_dict() | {"cost": figures.to_dict()})
    else:
        _print_tables(result, figures)
    return 0


def _run_shapes(args: argparse.Namespace) -> int:
    from attn_tui.core.attention import lab

    if args.tokens is not None and not _COUNT.fullmatch(args.tokens.strip()):
        n = len(args.tokens.split())
    elif args.tokens is not None:
        n = _count(args.tokens, lambda n: lab.InputError("lab.shapes_size", name="n", value=n,
                                                         limit=lab.MAX_SHAPES_TOKENS))  # fmt: skip
    elif args.preset is not None:
        n = lab.preset(args.preset).n
    else:
        n = 10
    d_model = 512 if args.d_model is None else args.d_model
    heads = 8 if args.heads is None else args.heads
    trace = lab.shapes_trace(n, d_model, heads)
    figures = lab.cost(n)
    if args.json:
        _print_json({"shapes": trace.to_dict(), "cost": figures.to_dict()})
        return 0

    from rich.console import Console
    from rich.table import Table

    from attn_tui.i18n import t

    # words may contain "["; with --svg the console keeps what it prints, for the figure
    console = Console(highlight=False, markup=False, record=args.svg is not None)
    table = Table(
        title=t("lab.shapes_trace_title", n=n, d_model=d_model, heads=heads, d_k=trace.d_k),
        title_justify="left",
    )
    table.add_column(t("lab.col_step"))
    table.add_column(t("lab.col_formula"))
    table.add_column(t("lab.col_shape"), justify="right")
    for step in trace.steps:
        table.add_row(t(f"lab.step.{step.key}"), step.formula, shape_text(step.shape))
    console.print(table)
    console.print(
        t("lab.shapes_figures", sqrt_d_k=trace.sqrt_d_k, per_head=f"{trace.scores_per_head:,}",
          total=f"{trace.scores_total:,}", params=f"{trace.parameters:,}")
    )  # fmt: skip
    _print_cost(console, figures)
    if args.svg is not None:
        from attn_tui import svg
        from attn_tui.commands._files import write_figure

        title = f"attn-tui · {t('app.area.lab')}"
        write_figure(args.svg, svg.widen(console.export_svg(title=title)))
    return 0


def _print_json(data: dict) -> None:
    import json

    print(json.dumps(data, ensure_ascii=False, indent=2, allow_nan=False))


_FORMULAS = {
    "X_q": "X",
    "X_kv": "X'",
    "W_Q": "W_Q",
    "W_K": "W_K",
    "W_V": "W_V",
    "Q": "X·W_Q",
    "K": "X·W_K",
    "V": "X·W_V",
    "Q_heads": "Q → (h, n, d_k)",
    "K_heads": "K → (h, n, d_k)",
    "V_heads": "V → (h, n, d_v)",
    "scores": "Q_i·K_iᵀ / √d_k",
    "weights": "softmax",
    "Z": "A_i·V_i",
    "concat": "Concat(head_1 … head_h)",
    "W_O": "W_O",
    "output": "Concat · W_O",
}


def _print_tables(result, figures) -> None:
    from rich.console import Console
    from rich.table import Table
    from rich.text import Text

    from attn_tui.core.format import fixed
    from attn_tui.i18n import t

    console = Console(highlight=False, markup=False)  # words may contain "["
    if result.cross:
        title = t("lab.title_cross", n_q=result.n_q, n_k=result.n_k, d_model=result.d_model,
                  heads=result.heads, d_k=result.d_k)  # fmt: skip
        formulas = _FORMULAS | {"K": "X'·W_K", "V": "X'·W_V"}
    else:
        title = t("lab.title_self", n=result.n_q, d_model=result.d_model, heads=result.heads,
                  d_k=result.d_k)  # fmt: skip
        formulas = _FORMULAS
    console.print(title, style="bold")
    masks = []
    if result.causal:
        masks.append(t("lab.mask_causal"))
    if result.window is not None:
        masks.append(t("lab.mask_window", w=result.window))
    console.print(t("lab.masks", masks=" + ".join(masks) if masks else t("lab.mask_none")))

    shapes = Table(title=t("lab.shapes_title"), title_justify="left")
    shapes.add_column(t("lab.col_name"))
    shapes.add_column(t("lab.col_shape"), justify="right")
    shapes.add_column(t("lab.col_formula"))
    for name, shape in result.shapes.items():
        if name == "X_kv" and not result.cross:
            continue  # self-attention: the same X
        shapes.add_row(name, shape_text(shape), formulas[name])
    console.print(shapes)

    for head in range(result.heads):
        table = Table(title=t("lab.weights_title", head=head + 1), title_justify="left")
        table.add_column("")
        for label in result.memory.labels:
            table.add_column(label, justify="right")
        table.add_column(t("lab.col_sum"), justify="right")
        for i, label in enumerate(result.queries.labels):
            cells = [
                Text(f"{w:.4f}") if result.allowed[i, j] else Text("0", style="dim")
                for j, w in enumerate(result.weights[head, i])
            ]
            table.add_row(label, *cells, f"{result.row_sums[head, i]:.4f}")
        console.print(table)
    if not result.allowed.all():
        console.print(t("lab.masked_note"))

    out = Table(title=t("lab.output_title", n=result.n_q, d_model=result.d_model),
                title_justify="left")  # fmt: skip
    out.add_column("")
    for c in range(result.d_model):
        out.add_column(str(c + 1), justify="right")
    for i, label in enumerate(result.queries.labels):
        out.add_row(label, *(fixed(v, 2, sign=True) for v in result.output[i]))
    console.print(out)
    _print_cost(console, figures, result.n_k if result.cross else None)


def _print_cost(console, figures, n_k: int | None = None) -> None:
    from rich.padding import Padding

    from attn_tui.i18n import t

    def say(text: str) -> None:  # indented, and so is every line it wraps onto
        console.print(Padding(text, (0, 0, 0, 2), expand=False))

    console.print(t("lab.cost_title"), style="bold")
    if n_k is None:
        say(t("lab.cost_scores", n=figures.n, scores=f"{figures.scores:,}"))
    else:  # cross-attention: every query against every key of the other sequence
        scores = f"{figures.n * n_k:,}"
        say(t("lab.cost_scores_cross", n_q=figures.n, n_k=n_k, scores=scores))
    say(t("lab.cost_ratio", short_scores=f"{figures.short_scores:,}",
          long_scores=f"{figures.long_scores:,}", ratio=figures.ratio))  # fmt: skip
    say(t("lab.cost_steps", rnn=figures.rnn_steps, att=figures.attention_steps))


def _write_svg(path: Path, result) -> None:
    from attn_tui import svg
    from attn_tui.commands._files import write_figure
    from attn_tui.i18n import t

    write_figure(path, svg.svg(svg.lab_figure(result), f"attn-tui · {t('app.area.lab')}"))
