"""`attn-tui calc`: one attention example, step by step, as Rich tables or as JSON."""

from __future__ import annotations

import argparse
import json
from pathlib import Path

from attn_tui.commands import path_arg

NAME = "calc"
SEED_QUERY = "1 0 1"
SEED_KEYS = "1 0 0; 0 1 0; 1 0 1; 1 1 0"


def add_parser(subparsers: argparse._SubParsersAction) -> argparse.ArgumentParser:
    from attn_tui.i18n import t

    parser = subparsers.add_parser(
        NAME,
        help=t("calc.cli.help"),
        description="Compute attention for one query over N keys: dot products, scaling by 1/√d, "
        "softmax, weighted sum. Without --query/--keys it uses the textbook example.",
    )
    parser.add_argument("--query", "-q", default=SEED_QUERY, help='e.g. "1 0 1"')
    parser.add_argument("--keys", "-k", default=SEED_KEYS, help='rows split by ";" or newlines')
    parser.add_argument("--values", "-v", help="default: the keys")
    parser.add_argument("--no-scale", action="store_true", help="do not divide by √d")
    parser.add_argument("--hard", action="store_true", help="hard max (argmax) instead of softmax")
    parser.add_argument("--temperature", "-T", default="1", help="divide the scaled scores by T")
    parser.add_argument("--json", action="store_true", help="one JSON object, full precision")
    parser.add_argument("--svg", type=path_arg, metavar="FILE",
                        help="also draw the four steps into FILE as SVG (for slides)")  # fmt: skip
    return parser


def run(args: argparse.Namespace) -> int:
    from attn_tui.core.attention.steps import attend, parse_temperature
    from attn_tui.core.parse import parse_matrix, parse_vector

    q = parse_vector(args.query, "query")
    K = parse_matrix(args.keys, "keys")
    V = parse_matrix(args.values, "values") if args.values is not None else None  # "" is empty
    temperature = parse_temperature(args.temperature)
    steps = attend(q, K, V, scale=not args.no_scale, hard=args.hard, temperature=temperature)
    if args.svg is not None:
        _write_svg(args.svg, steps)
    if args.json:
        print(json.dumps(steps.to_dict()))
        return 0

    from rich.console import Console
    from rich.panel import Panel

    from attn_tui.render.steps import STEPS

    console = Console(width=min(Console().width, 100))
    bodies = [render(steps) for render in STEPS]
    # one width for the four boxes (the widest step's, within the terminal): boxes that grew
    # and shrank from step to step (40, 80, 76, 72 columns) looked uneven on a slide
    width = min(console.width, max(console.measure(b).maximum for b in bodies) + 4)
    for body in bodies:
        console.print(Panel(body, width=width, border_style="dim"))
    return 0


def _write_svg(path: Path, steps) -> None:
    from attn_tui import svg
    from attn_tui.commands._files import write_figure
    from attn_tui.i18n import t

    write_figure(path, svg.svg(svg.calc_figure(steps), f"attn-tui · {t('app.area.calc')}"))
