"""One table of the Transformer's settings: the dataclass's fields. A report (``to_dict``), a
saved model (``transformer_file``) and a row of the stored table (``transformer_figures``) all
name every setting, so a new field of ``TransformerConfig`` cannot be left out of one of them.

``OTHER`` gives each field a valid value other than its default: a field added without one
fails here first, and then the round trip below checks that the new field is saved and read
back, not silently reset to its default when a model is opened."""

from __future__ import annotations

import json
from dataclasses import MISSING, fields

import numpy as np
import pytest

from attn_tui.core.models import transformer_figures as tf
from attn_tui.core.models import transformer_file
from attn_tui.core.models.transformer import TinyTransformer
from attn_tui.core.models.transformer_trainer import TransformerConfig, setting_names

OTHER = {
    "task": "sort", "length": 7, "layers": 2, "heads": 2, "d_model": 8,
    "positions": "sinusoidal", "feed_forward": False, "norm": True, "causal": True,
    "iters": 17, "seed": 3, "lr": 0.02, "batch": 4, "clip": 1.5, "dtype": "float64",
    "eval_size": 50, "eval_every": 5, "eval_seed": 7, "beta1": 0.8, "beta2": 0.9, "eps": 1e-7,
}  # fmt: skip


def test_every_setting_has_a_value_other_than_its_default():
    names = [f.name for f in fields(TransformerConfig)]
    assert list(setting_names()) == names
    assert set(OTHER) == set(names), "give the new setting a non-default value in OTHER"
    for f in fields(TransformerConfig):
        assert f.default is not MISSING and OTHER[f.name] != f.default, f.name
    TransformerConfig(**OTHER).validate()


def test_a_report_names_every_setting():
    config = TransformerConfig(**OTHER)
    assert config.to_dict() == OTHER
    assert config.describe() == {"model": "transformer", **OTHER}


def test_a_saved_model_keeps_every_setting(tmp_path):
    config = TransformerConfig(**OTHER).validate()
    model = TinyTransformer(config.arch, rng=np.random.default_rng(1))
    probe = np.arange(config.length) % 6
    path = transformer_file.save(tmp_path / "m.npz", model, config, probe)
    back = transformer_file.load(path)
    assert back.config == config  # every field, not only those that decide the shapes
    assert json.loads(str(np.load(path)["config"])) == OTHER
    np.testing.assert_array_equal(back.model.params, model.params)


def test_a_file_from_before_every_setting_was_saved_still_opens(tmp_path):
    """Files saved before this change kept 15 settings; the rest are the class's defaults."""
    config = TransformerConfig(**OTHER).validate()
    model = TinyTransformer(config.arch, rng=np.random.default_rng(1))
    path = transformer_file.save(tmp_path / "m.npz", model, config, np.zeros(7, np.int64))
    arrays = dict(np.load(path, allow_pickle=False))
    old = ("task", "length", "layers", "heads", "d_model", "positions", "feed_forward", "norm",
           "causal", "iters", "seed", "lr", "batch", "eval_size", "eval_seed")  # fmt: skip
    arrays["config"] = np.array(json.dumps({k: OTHER[k] for k in old}))
    with open(path, "wb") as f:
        np.savez(f, **arrays)
    back = transformer_file.load(path).config
    assert {k: getattr(back, k) for k in old} == {k: OTHER[k] for k in old}
    for f in fields(TransformerConfig):
        if f.name not in old:
            assert getattr(back, f.name) == f.default, f.name


def test_a_stored_row_names_every_setting_but_the_seed():
    assert tf.CONFIG_FIELDS == tuple(n for n in setting_names() if n != "seed")
    table = tf.load()
    assert list(table.rows) == list(tf.EXPERIMENTS)
    for row_id, row in table.rows.items():
        expected = tf.EXPERIMENTS[row_id].to_dict()
        del expected["seed"]
        # floats as TOML reads them back (eps = 1e-08)
        assert row.config == pytest.approx(expected), row_id
        assert list(row.config) == list(tf.CONFIG_FIELDS), row_id
