"""A stored run reads back as the run that was written, to the last bit, and a file that is not
one is refused with a reason, never a traceback from deep inside."""

import dataclasses
import json

import numpy as np
import pytest

from attn_tui.core.models import stored_run
from attn_tui.core.models.loop import run_to_end as train_rnn
from attn_tui.core.models.loop import run_to_end as train_transformer
from attn_tui.core.models.trainer import TrainConfig
from attn_tui.core.models.transformer_trainer import TransformerConfig


def _same(a, b, path="run"):
    """Deep equality where arrays must match in dtype, shape and every bit."""
    assert type(a) is type(b), path
    if isinstance(a, np.ndarray):
        assert a.dtype == b.dtype and a.shape == b.shape, path
        assert a.tobytes() == b.tobytes(), path
    elif dataclasses.is_dataclass(a):
        for f in dataclasses.fields(a):
            _same(getattr(a, f.name), getattr(b, f.name), f"{path}.{f.name}")
    elif isinstance(a, tuple | list):
        assert len(a) == len(b), path
        for i, (x, y) in enumerate(zip(a, b, strict=True)):
            _same(x, y, f"{path}[{i}]")
    elif isinstance(a, dict):
        assert a.keys() == b.keys(), path
        for k in a:
            _same(a[k], b[k], f"{path}.{k}")
    elif isinstance(a, float) and a != a:
        assert b != b, path
    elif hasattr(a, "params") and hasattr(a, "arch"):  # a TinyTransformer
        assert a.arch == b.arch and a.dtype == b.dtype, path
        _same(a.params, b.params, path + ".params")
    else:
        assert a == b, path


@pytest.fixture(scope="module")
def rnn_run():
    return train_rnn(TrainConfig(length=5, attention=True, score="qk", iters=120, eval_every=40))


@pytest.fixture(scope="module")
def transformer_run():
    return train_transformer(TransformerConfig(iters=60, eval_every=30))


def test_an_rnn_run_reads_back_unchanged(rnn_run, tmp_path):
    back = stored_run.load(stored_run.save(tmp_path / "run.json", rnn_run))
    _same(rnn_run, back)
    assert back.losses.dtype == rnn_run.losses.dtype and len(back.snapshots) == 3


def test_a_transformer_run_reads_back_unchanged_with_its_weights(transformer_run):
    back = stored_run.loads(stored_run.dumps(transformer_run))
    _same(transformer_run, back)
    x = np.array([back.final.probe.x])
    assert np.array_equal(back.model.predict(x)[0], transformer_run.model.predict(x)[0])


def test_non_finite_floats_survive(rnn_run):
    odd = dataclasses.replace(rnn_run, losses=np.array([np.nan, np.inf, -np.inf, 1.5], "float32"))
    text = stored_run.dumps(odd)
    json.loads(text)  # strict JSON: no NaN literals
    back = stored_run.loads(text).losses
    assert np.isnan(back[0]) and back[1] == np.inf and back[2] == -np.inf and back[3] == 1.5


def _wrap(run: object) -> str:
    return json.dumps({"format": stored_run.FORMAT, "version": stored_run.VERSION, "run": run})


@pytest.mark.parametrize(
    "text",
    [
        "",
        "{",
        "[]",
        '{"format": "something else"}',
        json.dumps({"format": stored_run.FORMAT, "version": 99, "run": None}),
        _wrap({"type": "os.system", "fields": {}}),
        _wrap({"type": "Outcome", "fields": {"kind": "finished", "no_such_field": 1}}),
        _wrap({"type": "Outcome", "fields": {"kind": "finished"}}),  # missing fields
        _wrap({"array": "int64", "shape": [2, 2], "data": [1, 2, 3]}),
        _wrap({"array": "object", "shape": [1], "data": [1]}),
        _wrap({"array": "int64", "shape": [1], "data": ["x"]}),
        _wrap({"array": "int64", "shape": [1], "data": [1.5]}),
        _wrap({"array": "float64", "shape": [-1], "base64": ""}),
        _wrap({"array": "float64", "shape": [2], "base64": "AAAAAAAA8D8="}),  # one value
        _wrap({"array": "float64", "shape": [1], "base64": "not base64!"}),
        _wrap({"array": "float64", "shape": [1], "data": [1.0]}),
        _wrap({"float": "1e999999"}),
        _wrap({"what": 1}),
        _wrap({"tuple": 3}),
        _wrap({"model": {"type": "Outcome", "fields": {}}}),
        _wrap(json.loads("[" * 50 + "]" * 50)),
        "[" * 100_000 + "]" * 100_000,
        " " * (stored_run.MAX_BYTES + 1),
    ],
    ids=lambda s: s[:40],
)
def test_what_is_not_a_stored_run_is_refused_with_a_reason(text):
    with pytest.raises(stored_run.StoredRunError):
        stored_run.loads(text)


def test_only_the_known_classes_are_stored():
    with pytest.raises(TypeError):
        stored_run.dumps(object())
    with pytest.raises(TypeError):
        stored_run.dumps(np.array(["text"]))
