"""A trained Transformer on disk: numpy's .npz (a zip of .npy arrays), read without pickle.

Members, each one array:

    format    str      "attn-tui transformer"
    version   int      FORMAT_VERSION; a file of another version is refused, with a message
    config    str      JSON: every TransformerConfig setting (``to_dict``); one a file leaves
                       out (an older file) is the class's default
    summary   str      JSON: how training went (iterations, accuracy), for labels only
    probe     int (L,) a held-out sequence to open the model on
    E, P, 1.W_Q, …     every parameter under its name from ``transformer.param_shapes``

Opening a file treats it as hostile: it must be a regular file of bounded size, a zip whose
members are all .npy arrays of an expected name, each header is read and checked (dtype,
shape, size) *before* its data, pickled objects are refused (``allow_pickle=False``), the
settings are validated like any learner's, every parameter must have exactly its shape and
be finite. Every fault is one ``InputError`` naming the file and what is wrong.
"""

from __future__ import annotations

import json
import math
import os
import stat
import zipfile
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from attn_tui.core.files import check_output, write_output
from attn_tui.core.models import tasks
from attn_tui.core.models.transformer import TinyTransformer, param_shapes
from attn_tui.core.models.transformer_trainer import TransformerConfig, setting_names
from attn_tui.core.parse import InputError

FORMAT = "attn-tui transformer"
FORMAT_VERSION = 1
SUFFIX = ".npz"
MAX_FILE_BYTES = 4 << 20  # the largest model (2 layers, d_model 32, L 64, 64 tokens) ~0.3 MB
MAX_MEMBERS = 64
MAX_ARRAY_ITEMS = 1 << 16  # per array; the largest parameter has 32·64 = 2,048
MAX_TEXT_CHARS = 4096  # config and summary JSON
MAX_ABS = 1e6  # a trained weight is of order 1; larger values are not a trained model
SUMMARY_KEYS = ("iters", "seq_acc", "pos_acc", "seconds")
_META = ("format", "version", "config", "summary", "probe")


@dataclass(frozen=True)
class SavedModel:
    config: TransformerConfig
    model: TinyTransformer  # float64, so the lab shows exact numbers
    probe: np.ndarray  # (L,) a held-out sequence
    summary: dict[str, object]  # iterations, seq_acc, pos_acc, as saved (labels only)


def as_saved(
    model: TinyTransformer,
    config: TransformerConfig,
    probe: np.ndarray,
    summary: dict[str, object] | None = None,
) -> SavedModel:
    """A model in memory as ``load`` would give it back: a float64 copy of its weights."""
    copy = TinyTransformer(model.arch, dtype=np.float64)
    copy.params[:] = model.params
    return SavedModel(config, copy, np.asarray(probe, np.int64).copy(), dict(summary or {}))


def summary_of(result) -> dict[str, object]:
    """How a run went, as the file keeps it (``result``: the Transformer's loop.RunResult)."""
    return {
        "iters": result.iters,
        "seq_acc": result.seq_acc,
        "pos_acc": result.pos_acc,
        "seconds": result.seconds,
    }


def result_as_saved(result) -> SavedModel:
    """A finished run as ``load`` would give it back, without a file."""
    return as_saved(result.model, result.config, result.final.probe.x, summary_of(result))


def save_result(path: str | os.PathLike, result) -> Path:
    """Save a finished run's model with its held-out probe sequence and summary."""
    return save(path, result.model, result.config, result.final.probe.x, summary_of(result))


def save(
    path: str | os.PathLike,
    model: TinyTransformer,
    config: TransformerConfig,
    probe: np.ndarray,
    summary: dict[str, object] | None = None,
) -> Path:
    """Write the model to ``path`` (whole or not at all: a temporary file, then a rename)."""
    path = Path(path)
    arrays: dict[str, np.ndarray] = {
        "format": np.array(FORMAT),
        "version": np.array(FORMAT_VERSION, np.int64),
        "config": np.array(json.dumps(config.to_dict())),
        "summary": np.array(json.dumps(summary or {}, allow_nan=False)),
        "probe": np.asarray(probe, np.int64),
    }
    for name, _shape in model.shapes:
        arrays[name] = np.array(model.view(name), np.float64)
    try:  # whole or not at all; a pipe or a device is written into, never replaced
        # a file object: no .npz added (numpy's stub takes **arrays for its allow_pickle flag)
        write_output(path, lambda f: np.savez(f, **arrays))  # type: ignore[arg-type]
    except OSError as err:
        raise InputError(
            "transformer.file.unwritable", path=str(path), reason=_reason(err)
        ) from err
    return path


def check_writable(path: str | os.PathLike) -> Path:
    """Fail before training, not after it, when the model could not be saved at ``path``."""
    path = Path(path)
    try:
        check_output(path)
    except OSError as err:
        raise InputError(
            "transformer.file.unwritable", path=str(path), reason=_reason(err)
        ) from err
    return path


def _remove(path: Path) -> None:
    try:
        path.unlink(missing_ok=True)
    except OSError:  # e.g. a "directory" in the path that is a file: nothing was made
        pass


def _reason(err: BaseException) -> str:
    """An exception as a short, one-line reason (never a traceback, never megabytes); an OS
    error as its description alone (the path is already in the sentence)."""
    text = getattr(err, "strerror", None) or str(err)
    text = " ".join(text.split()) or type(err).__name__
    return text[:200]


def _fault(code: str, path: Path, **params: object) -> InputError:
    return InputError(f"transformer.file.{code}", path=str(path), **params)


def _why(code: str, **params: object) -> InputError:
    """A reason, itself a sentence of the catalogue (described in the reader's language)."""
    return InputError(f"transformer.file.why.{code}", **params)


def _read_member(zf: zipfile.ZipFile, info: zipfile.ZipInfo, path: Path) -> np.ndarray:
    """One .npy member: its header checked before any data is read."""
    name = info.filename[: -len(".npy")]
    with zf.open(info) as f:
        version = np.lib.format.read_magic(f)
        if version == (1, 0):
            shape, _fortran, dtype = np.lib.format.read_array_header_1_0(f)
        else:
            shape, _fortran, dtype = np.lib.format.read_array_header_2_0(f)
    if dtype.hasobject or dtype.kind not in "fiuU":
        raise _fault("bad_array", path, name=name, reason=_why("dtype", dtype=str(dtype)))
    if math.prod(shape) > MAX_ARRAY_ITEMS:
        raise _fault("bad_array", path, name=name, reason=_why("shape_too_large", shape=shape))
    if dtype.kind == "U" and dtype.itemsize > 4 * MAX_TEXT_CHARS:
        raise _fault("bad_array", path, name=name, reason=_why("text_too_long", n=MAX_TEXT_CHARS))
    with zf.open(info) as f:
        return np.lib.format.read_array(f, allow_pickle=False)


def _read_arrays(path: Path) -> dict[str, np.ndarray]:
    try:
        st = path.stat()
    except (OSError, ValueError) as err:  # ValueError: a NUL in a typed name
        raise _fault("unreadable", path, reason=_reason(err)) from err
    if not stat.S_ISREG(st.st_mode):  # a directory, /dev/zero, a pipe: never read
        raise _fault("unreadable", path, reason=_why("not_regular"))
    if st.st_size > MAX_FILE_BYTES:
        raise _fault("not_model", path, reason=_why("too_big", size=f"{st.st_size:,}"))
    arrays: dict[str, np.ndarray] = {}
    try:
        with zipfile.ZipFile(path) as zf:
            infos = zf.infolist()
            if len(infos) > MAX_MEMBERS:
                raise _fault("not_model", path, reason=_why("members", n=len(infos)))
            for info in infos:
                if not info.filename.endswith(".npy"):
                    raise _fault("not_model", path, reason=_why("member", name=info.filename[:60]))
                if info.file_size > MAX_FILE_BYTES:  # what it would unpack to
                    raise _fault(
                        "not_model", path, reason=_why("too_big", size=f"{info.file_size:,}")
                    )
                arrays[info.filename[: -len(".npy")]] = _read_member(zf, info, path)
    except InputError:
        raise
    except (zipfile.BadZipFile, zipfile.LargeZipFile):
        raise _fault("not_model", path, reason=_why("not_zip")) from None
    except (OSError, ValueError, EOFError, KeyError, NotImplementedError, RuntimeError) as err:
        # a truncated or corrupt member, a header numpy cannot parse, an unknown compression
        raise _fault("not_model", path, reason=_reason(err)) from err
    return arrays


def _text(arrays: dict[str, np.ndarray], name: str, path: Path) -> str:
    a = arrays.get(name)
    if a is None or a.shape != () or a.dtype.kind != "U":
        raise _fault("not_model", path, reason=_why("no_member", name=name))
    return str(a)


def load(path: str | os.PathLike) -> SavedModel:
    """Open a saved model, checking everything (see the module docstring)."""
    path = Path(path)
    arrays = _read_arrays(path)
    if _text(arrays, "format", path) != FORMAT:
        raise _fault("not_model", path, reason=_why("format", format=FORMAT))
    version = arrays.get("version")
    if version is None or version.shape != () or version.dtype.kind not in "iu":
        raise _fault("not_model", path, reason=_why("no_member", name="version"))
    if int(version) != FORMAT_VERSION:
        raise _fault("version", path, found=int(version), expected=FORMAT_VERSION)

    try:
        settings = json.loads(_text(arrays, "config", path))
        summary = json.loads(_text(arrays, "summary", path))
    except (json.JSONDecodeError, RecursionError) as err:
        raise _fault("bad_config", path, reason=_why("json", detail=_reason(err))) from err
    if not isinstance(settings, dict) or not isinstance(summary, dict):
        raise _fault("bad_config", path, reason=_why("not_table"))
    known = set(setting_names())
    unknown = sorted(set(settings) - known)
    if unknown:
        raise _fault("bad_config", path, reason=_why("setting", name=unknown[0][:40]))
    try:
        config = TransformerConfig(**settings).validate()
    except InputError as err:
        raise _fault("bad_config", path, reason=err) from err  # described in the reader's language
    except TypeError as err:
        raise _fault("bad_config", path, reason=_why("json", detail=_reason(err))) from err

    probe = arrays.get("probe")
    vocab = tasks.vocab(config.task)
    if (
        probe is None or probe.dtype.kind not in "iu" or probe.shape != (config.length,)
        or probe.min() < 0 or probe.max() >= vocab
    ):  # fmt: skip
        reason = _why("probe", length=config.length, hi=vocab - 1)
        raise _fault("bad_array", path, name="probe", reason=reason)

    shapes = param_shapes(config.arch)
    expected = set(_META) | {name for name, _ in shapes}
    extra = sorted(set(arrays) - expected)
    if extra:
        raise _fault("not_model", path, reason=_why("member", name=extra[0][:40]))
    model = TinyTransformer(config.arch, dtype=np.float64)
    for name, shape in shapes:
        a = arrays.get(name)
        if a is None:
            raise _fault("bad_array", path, name=name, reason=_why("missing"))
        if a.dtype.kind != "f" or a.shape != shape:
            reason = _why("shape", dtype=str(a.dtype), shape=a.shape, expected=shape)
            raise _fault("bad_array", path, name=name, reason=reason)
        if not np.isfinite(a).all() or np.abs(a).max(initial=0.0) > MAX_ABS:
            raise _fault("bad_array", path, name=name, reason=_why("values", limit=f"{MAX_ABS:g}"))
        model.view(name)[...] = a
    summary = {  # labels only: keep the figures it should hold, if they are figures
        k: v
        for k, v in summary.items()
        if k in SUMMARY_KEYS
        and isinstance(v, int | float)
        and not isinstance(v, bool)
        and math.isfinite(v)
    }
    return SavedModel(config, model, probe.astype(np.int64), summary)
