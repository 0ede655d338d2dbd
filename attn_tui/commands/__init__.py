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
import json
import os
import sys
from collections.abc import Iterator, Mapping
from pathlib import Path
from types import ModuleType
from typing import Any


def discover() -> list[ModuleType]:
    import pkgutil  # (only for a named command: a bare launch reaches its first screen sooner)

    modules = []
    for info in sorted(pkgutil.iter_modules(__path__), key=lambda m: m.name):
        if not info.name.startswith("_"):
            modules.append(importlib.import_module(f"{__name__}.{info.name}"))
    return modules


def path_arg(text: str) -> Path:
    """An argparse type for a file or folder: an empty string is refused, not read as "."
    (``quiz grade ""`` would otherwise grade the working directory), and so is a name the
    system cannot take (a NUL byte, or text that is not a file name's bytes). A leading ~ is
    expanded here, once, so a "~nouser/x" is a usage error and not a crash later."""
    if not text.strip():
        raise argparse.ArgumentTypeError("an empty path")
    try:
        if b"\0" in os.fsencode(text):
            raise ValueError
    except (ValueError, UnicodeError):
        raise argparse.ArgumentTypeError("not a possible file name") from None
    try:
        return Path(text).expanduser()
    except RuntimeError:  # "~nouser/x"
        raise argparse.ArgumentTypeError("no such user, or no home directory, for its ~") from None


def print_json(data: Mapping[str, Any]) -> None:
    """One JSON object, as ``json.dumps(data, ensure_ascii=False, indent=2)`` prints it, except
    that a value given as an iterator is written one item at a time: a class of 2,000 learners
    is never held as one list of dicts, nor as one string (json's indented encoder builds a
    list of millions of small pieces first)."""

    def dump(value: Any, depth: int) -> str:
        text = json.dumps(value, ensure_ascii=False, indent=2)
        return text.replace("\n", "\n" + "  " * depth)

    out = sys.stdout
    out.write("{")
    for n, (key, value) in enumerate(data.items()):
        out.write(("," if n else "") + "\n  " + json.dumps(key, ensure_ascii=False) + ": ")
        if isinstance(value, Iterator):
            count = 0
            for count, item in enumerate(value, 1):
                out.write(("," if count > 1 else "[") + "\n    " + dump(item, 2))
            out.write("\n  ]" if count else "[]")
        else:
            out.write(dump(value, 1))
    out.write("\n}\n" if data else "}\n")
