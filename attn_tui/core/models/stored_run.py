"""A finished training run written to a file and read back unchanged, to be shown again.

    text = stored_run.dumps(result)          # an RNN or a Transformer RunResult, as JSON
    result = stored_run.loads(text)          # the same run: every array to the last bit
    stored_run.save(path, result); stored_run.load(path)

Why. A run trained in float32 ends wherever this CPU's BLAS rounding leads it (OpenBLAS picks a
kernel per CPU, and training amplifies the last bits), so a picture of a trained screen made
from a fresh run differs between machines. A stored run draws the same everywhere: the
snapshot tests of the trained screens replay one instead of training.

The format is plain JSON, tagged where JSON has no type of its own: a dataclass is
``{"type": "<name>", "fields": {...}}`` (only the classes in ``CLASSES``); a float array is
``{"array": dtype, "shape": [...], "base64": ...}``, its little-endian bytes, so it reads back
to the same bits (whole numbers and booleans: a ``"data"`` list); a tuple is
``{"tuple": [...]}``; a non-finite float is ``{"float": "nan"}``. A Transformer's weights are
its architecture and its flat parameter vector. Nothing is evaluated or imported from the
file, and its size is bounded.
"""

from __future__ import annotations

import base64
import binascii
import dataclasses
import json
import math
import os
from pathlib import Path

import numpy as np

from attn_tui.core.models import (
    ablation,
    head_scores,
    loop,
    trainer,
    transformer,
    transformer_trainer,
)

FORMAT = "attn-tui stored run"
VERSION = 1
MAX_BYTES = 8 << 20  # a default run with all its snapshots is about 0.3 MB
MAX_DEPTH = 12  # RunResult → Snapshot → Decode → array is four levels

CLASSES: dict[str, type] = {
    "TrainConfig": trainer.TrainConfig,
    "TransformerConfig": transformer_trainer.TransformerConfig,
    "Outcome": loop.Outcome,
    "RunResult": loop.RunResult,
    "Snapshot": loop.Snapshot,
    "Decode": loop.Decode,
    "TransformerResult": transformer_trainer.TransformerResult,  # its heads' scores, ablation
    "TaskDecode": transformer_trainer.Decode,  # a task's own symbols, the induction copy
    "HeadStats": transformer_trainer.HeadStats,
    "HeadScores": head_scores.HeadScores,
    "Ablation": ablation.Ablation,
    "CopyFigures": ablation.CopyFigures,
    "Architecture": transformer.Architecture,
}
# Names files written before both models shared one result type give the same classes.
OLD_NAMES: dict[str, type] = {
    "TransformerRunResult": loop.RunResult,
    "TransformerSnapshot": loop.Snapshot,
    "TransformerDecode": loop.Decode,
}
_NAMES = {cls: name for name, cls in CLASSES.items()}
_DTYPES = ("float32", "float64", "int64", "bool")


class StoredRunError(ValueError):
    """The file is not a stored run this version can read (``reason`` says why)."""


def dumps(result: object) -> str:
    return json.dumps(
        {"format": FORMAT, "version": VERSION, "run": _encode(result)},
        separators=(",", ":"),
        allow_nan=False,
    )


def loads(text: str) -> object:
    if len(text) > MAX_BYTES:
        raise StoredRunError(f"larger than {MAX_BYTES} bytes")
    try:
        data = json.loads(text)
    except (json.JSONDecodeError, RecursionError) as err:
        raise StoredRunError(f"not JSON: {err}") from None
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise StoredRunError("not a stored run")
    if data.get("version") != VERSION:
        raise StoredRunError(f"version {data.get('version')!r}, not {VERSION}")
    return _decode(data.get("run"), 0)


def save(path: str | os.PathLike, result: object) -> Path:
    path = Path(path)
    path.write_text(dumps(result) + "\n", encoding="utf-8")
    return path


def load(path: str | os.PathLike) -> object:
    with open(path, "rb") as f:
        raw = f.read(MAX_BYTES + 1)
    return loads(raw.decode("utf-8"))


# ---- encoding ------------------------------------------------------------------------------


def _float(x: float) -> object:
    return x if math.isfinite(x) else {"float": repr(x)}


def _encode(value: object) -> object:
    if isinstance(value, bool | int | str) or value is None:
        return value
    if isinstance(value, float | np.floating):
        return _float(float(value))
    if isinstance(value, np.integer):
        return int(value)
    if isinstance(value, np.ndarray):
        return _encode_array(value)
    if isinstance(value, tuple):
        return {"tuple": [_encode(v) for v in value]}
    if isinstance(value, list):
        return [_encode(v) for v in value]
    if isinstance(value, dict):
        return {"dict": {str(k): _encode(v) for k, v in value.items()}}
    if isinstance(value, transformer.TinyTransformer):
        return {
            "model": _encode(value.arch),
            "dtype": value.dtype.name,
            "params": _encode_array(value.params),
        }
    if type(value) in _NAMES and dataclasses.is_dataclass(value):
        fields = {f.name: _encode(getattr(value, f.name)) for f in dataclasses.fields(value)}
        return {"type": _NAMES[type(value)], "fields": fields}
    raise TypeError(f"cannot store {type(value).__name__}")


def _encode_array(a: np.ndarray) -> dict[str, object]:
    dtype = a.dtype.name
    if dtype not in _DTYPES:
        raise TypeError(f"cannot store an array of {dtype}")
    out: dict[str, object] = {"array": dtype, "shape": list(a.shape)}
    if a.dtype.kind == "f":  # the bytes themselves (little-endian): exact, and half the size
        out["base64"] = base64.b64encode(a.astype(a.dtype.newbyteorder("<")).tobytes()).decode()
    else:
        out["data"] = a.ravel().tolist()
    return out


# ---- decoding ------------------------------------------------------------------------------


def _decode(value: object, depth: int) -> object:
    if depth > MAX_DEPTH:
        raise StoredRunError("nested too deeply")
    if isinstance(value, list):
        return [_decode(v, depth + 1) for v in value]
    if not isinstance(value, dict):
        return value
    if "float" in value:
        text = value["float"]
        if text not in ("nan", "inf", "-inf"):
            raise StoredRunError(f"bad float {text!r}")
        return float(text)
    if "array" in value:
        return _decode_array(value)
    if "tuple" in value:
        return tuple(_decode(v, depth + 1) for v in _list(value["tuple"]))
    if "dict" in value:
        inner = value["dict"]
        if not isinstance(inner, dict):
            raise StoredRunError("bad dict")
        return {k: _decode(v, depth + 1) for k, v in inner.items()}
    if "model" in value:
        arch = _decode(value["model"], depth + 1)
        if not isinstance(arch, transformer.Architecture):
            raise StoredRunError("a model without its architecture")
        model = transformer.TinyTransformer(arch, dtype=np.dtype(str(value.get("dtype"))))
        params = _decode_array(value.get("params"))
        if params.shape != model.params.shape:
            raise StoredRunError(f"{params.size} parameters for a model of {model.params.size}")
        model.params[:] = params
        return model
    if "type" in value:
        cls = CLASSES.get(str(value["type"])) or OLD_NAMES.get(str(value["type"]))
        fields = value.get("fields")
        if cls is None or not isinstance(fields, dict):
            raise StoredRunError(f"unknown type {value['type']!r}")
        known = {f.name for f in dataclasses.fields(cls)}
        if not set(fields) <= known:
            raise StoredRunError(f"{value['type']} has no field {sorted(set(fields) - known)}")
        try:
            return cls(**{k: _decode(v, depth + 1) for k, v in fields.items()})
        except TypeError as err:  # a field the class needs is missing
            raise StoredRunError(f"{value['type']}: {err}") from None
    raise StoredRunError("an object of no known kind")


def _list(value: object) -> list:
    if not isinstance(value, list):
        raise StoredRunError("expected a list")
    return value


def _decode_array(value: object) -> np.ndarray:
    if not isinstance(value, dict) or value.get("array") not in _DTYPES:
        raise StoredRunError("bad array")
    dtype = np.dtype(value["array"])
    shape = _list(value.get("shape"))
    if not all(isinstance(n, int) and not isinstance(n, bool) and n >= 0 for n in shape):
        raise StoredRunError(f"bad shape {shape}")
    if dtype.kind == "f":
        text = value.get("base64")
        try:
            raw = base64.b64decode(text, validate=True) if isinstance(text, str) else None
        except binascii.Error:
            raw = None
        if raw is None or len(raw) != math.prod(shape) * dtype.itemsize:
            raise StoredRunError(f"an array of shape {shape} without its bytes")
        return np.frombuffer(raw, dtype.newbyteorder("<")).astype(dtype).reshape(shape)
    data = _list(value.get("data"))
    if math.prod(shape) != len(data):
        raise StoredRunError(f"an array of shape {shape} with {len(data)} values")
    kinds = bool if dtype.kind == "b" else int
    if not all(isinstance(x, kinds) for x in data):
        raise StoredRunError(f"an array of {dtype.name} holds something else")
    return np.array(data, dtype=dtype).reshape(shape)
