"""The learner's folder: one file per exercise, copied from its starter, never overwritten.

By default ``<data dir>/code``; ``attn-tui code init DIR`` makes one anywhere. Files are the
learner's: nothing here writes into one that exists.
"""

from __future__ import annotations

import shutil
from dataclasses import dataclass
from pathlib import Path

from attn_tui.core.coding.model import CodeExercise, CodeLibrary
from attn_tui.core.errors import InputError

FOLDER = "code"


def default_folder(data_dir: Path) -> Path:
    return Path(data_dir) / FOLDER


@dataclass(frozen=True)
class Made:
    path: Path
    created: bool  # False: it was there already and was left as it was


def init(folder: Path, library: CodeLibrary) -> list[Made]:
    """Create ``folder`` and a starter file for every exercise that has none yet."""
    folder = Path(folder)
    if folder.exists() and not folder.is_dir():
        raise InputError("code.not_a_folder", path=str(folder))
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as err:
        raise InputError("code.cannot_make", path=str(folder), error=err.strerror or "") from None
    made = []
    for exercise in library.exercises:
        target = folder / exercise.file
        if target.exists() or target.is_symlink():
            made.append(Made(target, False))
            continue
        try:
            shutil.copyfile(exercise.starter, target)
        except OSError as err:
            raise InputError(
                "code.cannot_make", path=str(target), error=err.strerror or ""
            ) from None
        made.append(Made(target, True))
    return made


def file_for(folder: Path, exercise: CodeExercise) -> Path:
    return Path(folder) / exercise.file


def ensure_file(folder: Path, exercise: CodeExercise) -> Path:
    """The exercise's file in ``folder``, copied from its starter if it is missing."""
    path = file_for(folder, exercise)
    if not path.exists():
        Path(folder).mkdir(parents=True, exist_ok=True)
        shutil.copyfile(exercise.starter, path)
    return path


def exercise_for(library: CodeLibrary, path: Path) -> CodeExercise | None:
    """Which exercise a file of the workspace belongs to (by its name)."""
    return next((e for e in library.exercises if e.file == Path(path).name), None)


__all__ = ["default_folder", "ensure_file", "exercise_for", "file_for", "init"]
