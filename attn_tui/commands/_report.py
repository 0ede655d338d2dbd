"""What ``attn-tui train`` and ``attn-tui lab`` print, for the RNN and the Transformer alike:
the progress bar, a run's figures as a table, an attention matrix, an array's shape. Imported
by train.py, lab.py and _transformer.py, and importing none of them."""

from __future__ import annotations

from attn_tui.i18n import t

MAX_SEEDS = 100  # the most seeds a headless comparison may ask for


def progress_bar():
    from rich.console import Console
    from rich.progress import (
        BarColumn,
        MofNCompleteColumn,
        Progress,
        TextColumn,
        TimeElapsedColumn,
        TimeRemainingColumn,
    )

    # auto_refresh off: a refresh thread would take the GIL from training ~10 times a second
    # and show up in the run's own timing; the loop below refreshes when it reports.
    # Disabled when stderr is not a terminal: there Rich left an empty line behind, so a
    # fault after training (a --save target that is full) took two lines of stderr, not one.
    console = Console(stderr=True)
    return Progress(
        TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(),
        TextColumn("{task.fields[info]}"), TimeElapsedColumn(), TimeRemainingColumn(),
        console=console, transient=True, auto_refresh=False, disable=not console.is_terminal,
    )  # fmt: skip


def run_rows(result) -> list[tuple[str, str]]:
    """The figures every run has, RNN or Transformer: (text key, value) rows."""
    config = result.config
    return [
        ("train.row.length", str(config.length)),
        ("train.row.params", str(result.params)),
        ("train.row.seed", str(config.seed)),
        ("train.row.iters", f"{result.iters} / {config.iters}"),
        ("train.row.seq_acc", number(result.seq_acc)),
        ("train.row.pos_acc", number(result.pos_acc)),
        ("train.row.final_loss", number(result.final_loss, ".4g")),
        ("train.row.seconds", t("train.seconds", value=result.seconds)),
        ("train.row.eval_seconds", t("train.seconds", value=result.eval_seconds)),
        ("train.row.speed", t("train.speed", value=result.iters / max(result.seconds, 1e-9))),
    ]


def result_table(rows, probe=None):
    """A run's figures as a table, then the held-out probe decoded."""
    from rich.table import Table

    from attn_tui.core.models.tasks import labels

    table = Table(title=t("train.result_title"))
    table.add_column(t("train.col.item"))
    table.add_column(t("train.col.value"), justify="right")
    for key, value in rows:
        table.add_row(t(key), value)
    if probe is not None:
        task = getattr(probe, "task", "reverse")  # the RNN's Decode has letters only
        decoded = t(
            "train.probe", x=labels(task, probe.x), target=labels(task, probe.target),
            prediction=labels(task, probe.prediction),
        )  # fmt: skip
        table.add_row(t("train.row.probe"), decoded)
    return table


def attention_table(matrix, title: str | None = None, labels=None, diagonal: bool = True):
    """Rows = outputs, columns = inputs; ``labels`` name both axes (default: positions);
    ``diagonal`` underlines the reversal diagonal (output t reads input L+1−t)."""
    from rich.table import Table
    from rich.text import Text

    L = matrix.shape[1]
    table = Table(title=title or t("train.attention_title"), show_edge=False, pad_edge=False)
    table.add_column("")
    for j in range(L):
        table.add_column(str(j + 1) if labels is None else labels[j], justify="right")
    for i, row in enumerate(matrix):
        peak = int(row.argmax())
        cells = []
        for j, v in enumerate(row):
            style = "bold" if j == peak else ""
            if diagonal and j == L - 1 - i:
                style += " underline"
            cells.append(Text(f"{v:.2f}", style=style.strip()))
        table.add_row(t("train.out_row", i=i + 1) if labels is None else labels[i], *cells)
    return table


def number(x: float | None, spec: str = ".4f") -> str:
    """A figure, or a dash where a run has none (stopped before its first evaluation)."""
    return "—" if x is None or x != x else format(x, spec)


def shape_text(shape: tuple[int, ...]) -> str:
    return "(" + ", ".join(str(s) for s in shape) + ")"


def unbroken_lines(items: list[str], width: int, indent: str = "   ") -> str:
    """``items`` joined by ", " in lines of at most ``width`` cells, broken only between items
    (never inside one: a shape "K (10, 16)" once wrapped as "K (10," / "16)"); lines after the
    first start with ``indent``. An item wider than a line has one to itself."""
    from rich.cells import cell_len

    lines: list[str] = []
    line = ""
    for n, item in enumerate(items):
        piece = item if n == len(items) - 1 else item + ","
        if line and cell_len(line + " " + piece) > width:
            lines.append(line)
            line = indent + piece
        else:
            line = f"{line} {piece}" if line else piece
    lines.append(line)
    return "\n".join(lines)
