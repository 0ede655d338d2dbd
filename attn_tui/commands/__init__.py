"""Headless subcommands (``attn-tui calc``, ``attn-tui train`` ...), one module each.

A module here defines::

    NAME = "calc"                                   # the subcommand
    def add_parser(subparsers) -> argparse.ArgumentParser: ...   # adds and returns its parser
    def run(args: argparse.Namespace) -> int: ...   # exit status

Modules are discovered, not listed, and must stay cheap to import (import numpy, the core
and Rich inside ``run``), because the bare ``attn-tui`` launch builds every parser.
"""

from __future__ import annotations

import argparse
import importlib
import os
import pkgutil
from pathlib import Path
from types import ModuleType


def discover() -> list[ModuleType]:
    modules = []
    for info in sorted(pkgutil.iter_modules(__path__), key=lambda m: m.name):
        if not info.name.startswith("_"):
            modules.append(importlib.import_module(f"{__name__}.{info.name}"))
    return modules


def path_arg(text: str) -> Path:
    """An argparse type for a file or folder: an empty string is refused, not read as "."
    (``quiz grade ""`` would otherwise grade the working directory), and so is a name the
    system cannot take (a NUL byte, or text that is not a file name's bytes)."""
    if not text.strip():
        raise argparse.ArgumentTypeError("an empty path")
    try:
        if b"\0" in os.fsencode(text):
            raise ValueError
    except (ValueError, UnicodeError):
        raise argparse.ArgumentTypeError("not a possible file name") from None
    return Path(text)
