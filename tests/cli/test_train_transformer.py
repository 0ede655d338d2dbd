"""``attn-tui train --model transformer`` and ``attn-tui lab --model FILE`` through the real
front door: JSON fields, the saved file, and files that are damaged or hostile."""

from __future__ import annotations

import io
import json
import re
import zipfile

import numpy as np
import pytest

from attn_tui.cli import main
from attn_tui.core.attention.trained import open_trained, parse_sequence
from attn_tui.core.models import transformer_file
from attn_tui.core.models.loop import run_to_end
from attn_tui.core.models.transformer_trainer import TransformerConfig
from attn_tui.core.parse import InputError


def run_json(capsys, *argv, status=0):
    assert main(["--lang", "en", *argv, "--json"]) == status
    return json.loads(capsys.readouterr().out)


def test_json_has_todays_fields_and_attention_per_layer_and_head(capsys):
    argv = "train --model transformer --length 6 --iters 40 --layers 2 --heads 2 --seed 1"
    out = run_json(capsys, *argv.split())
    for key in ("seq_acc", "pos_acc", "final_loss", "seconds", "eval_seconds"):
        assert isinstance(out[key], float)
    assert out["params"] == 6 * 16 + 6 * 16 + 2 * (1024 + 1072) + 102
    assert (out["model"], out["task"], out["layers"], out["heads"]) == (
        "transformer",
        "reverse",
        2,
        2,
    )
    attention = np.array(out["attention"])
    assert attention.shape == (2, 2, 6, 6)
    np.testing.assert_allclose(attention.sum(axis=-1), 1.0, atol=1e-6)
    assert len(out["head_stats"]) == 4 and len(out["per_position"]) == 6
    assert out["probe"]["input"][::-1] == out["probe"]["target"]


def test_positions_off_says_why_per_position_beats_one_in_six(capsys):
    out = run_json(capsys, *"train --model transformer --positions none --iters 100".split())
    assert out["position_blind_ceiling"] == pytest.approx(0.3545, abs=5e-4)
    assert "1/6" in out["why"] and f"{out['position_blind_ceiling']:.3f}" in out["why"]


def test_table_in_chinese(capsys):
    argv = "--lang zh train --model transformer --task sort --length 5 --iters 30".split()
    assert main(argv) == 0
    out = capsys.readouterr().out
    assert "排序" in out and "整串全对" in out and "第 1 层第 1 个头" in out


def test_seeds_summary(capsys):
    argv = "train --model transformer --compare --seeds 2 --length 5 --iters 30"
    out = run_json(capsys, *argv.split())
    assert out["seeds"] == [0, 1] and out["seq_acc"]["n"] == 2 and len(out["runs"]) == 2


@pytest.mark.parametrize(
    "argv, words",
    [
        (["train", "--model", "transformer", "--attention"], "--attention"),
        (["train", "--task", "sort"], "--task"),
        (["train", "--save", "x.npz"], "--save"),
        (["train", "--model", "transformer", "--heads", "3"], "3 heads"),
        (["lab", "--sequence", "ABC"], "--sequence"),
    ],
)
def test_options_that_do_not_apply_get_one_line(capsys, argv, words):
    assert main(["--lang", "en", *argv]) == 2
    err = capsys.readouterr().err
    assert words in err and err.count("\n") == 1 and "Traceback" not in err


# ---- the saved model -------------------------------------------------------------------------


@pytest.fixture(scope="module")
def saved(tmp_path_factory):
    """A trained 2-layer, 2-head model with layer norms, saved by the real command."""
    path = tmp_path_factory.mktemp("model") / "model.npz"
    argv = "--lang en train --model transformer --length 6 --iters 150 --layers 2 --heads 2".split()
    argv += ["--norm", "--seed", "2", "--save", str(path), "--json"]
    assert main(argv) == 0
    return path


def test_save_and_open_round_trip(saved, capsys):
    loaded = transformer_file.load(saved)
    config = loaded.config
    assert (config.layers, config.heads, config.norm, config.length) == (2, 2, True, 6)
    # the same training, again, gives the same weights as the file holds
    again = run_to_end(TransformerConfig(length=6, iters=150, layers=2, heads=2, norm=True, seed=2))
    np.testing.assert_array_equal(loaded.model.params, again.model.params.astype(np.float64))
    np.testing.assert_array_equal(loaded.probe, again.final.probe.x)
    assert loaded.summary["iters"] == 150 and loaded.summary["seq_acc"] == again.seq_acc
    with np.load(saved, allow_pickle=False) as npz:  # plain numpy reads it too
        np.testing.assert_array_equal(npz["2.W_O"], again.model.layers[1].W_O)


def test_the_lab_shows_the_numbers_the_model_computes(saved, capsys):
    loaded = transformer_file.load(saved)
    x = parse_sequence("a b c f e d", 6)
    view = open_trained(loaded.model, loaded.config, x)
    _, attn = loaded.model.predict(x[None])  # (1, layers, heads, L, L)
    for n, layer in enumerate(view.layers):
        np.testing.assert_allclose(layer.weights, attn[0, n], rtol=1e-12, atol=1e-15)
        np.testing.assert_array_equal(layer.proj.W_Q, loaded.model.layers[n].W_Q)
    out = run_json(capsys, "lab", "--model", str(saved), "--sequence", "ABCFED")
    assert out["input"] == ["A1", "B2", "C3", "F4", "E5", "D6"]
    assert len(out["layers"]) == 2
    np.testing.assert_allclose(out["layers"][1]["weights"], attn[0, 1], rtol=1e-12)
    assert out["layers"][0]["shapes"]["Q_heads"] == [2, 6, 8]


def test_the_lab_table_opens_on_the_saved_held_out_sequence(saved, capsys):
    assert main(["--lang", "zh", "lab", "--model", str(saved)]) == 0
    out = capsys.readouterr().out
    assert "第 2 层第 2 个头的权重（训练所得" in out


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_the_lab_never_breaks_a_shape_across_lines(saved, capsys, monkeypatch, lang):
    """At 80 columns every "name (a, b, c)" stays on one line (it wrapped as "K (10," /
    "16)"), and the header counts layers and heads in words ("2 layers × 2 heads")."""
    monkeypatch.setenv("COLUMNS", "80")
    assert main(["--lang", lang, "lab", "--model", str(saved)]) == 0
    out = capsys.readouterr().out
    lines = [line for line in out.splitlines() if "_heads (" in line or "W_Q (" in line
             or line.lstrip().startswith(("K (", "V (", "Z ("))]  # fmt: skip
    assert len(lines) >= 4  # two layers' shapes, over two lines each
    for line in out.splitlines():
        assert not re.search(r"\(\d+(, \d+)*,?\s*$", line) and not re.match(r"\s*\d+\)", line)
    assert ("2 层 × 2 头" if lang == "zh" else "2 layers × 2 heads") in out
    assert "(s)" not in out


def _npz(path, arrays):
    with open(path, "wb") as f:
        np.savez(f, **arrays)
    return path


def _hostile(kind, saved, tmp_path):
    """A damaged or hostile file of the given kind; returns its path."""
    good = dict(np.load(saved, allow_pickle=False))
    p = tmp_path / f"{kind}.npz"
    if kind == "random":
        p.write_bytes(np.random.default_rng(0).bytes(3000))
    elif kind == "empty":
        p.write_bytes(b"")
    elif kind == "truncated":
        p.write_bytes(saved.read_bytes()[:4000])
    elif kind == "pickle":
        _npz(p, good | {"probe": np.array([{"rm": "-rf"}], dtype=object)})
    elif kind == "huge_shape":  # a header promising 8 GB behind a few bytes
        header = io.BytesIO()
        np.lib.format.write_array_header_1_0(
            header, {"descr": "<f8", "fortran_order": False, "shape": (10**9,)}
        )
        with zipfile.ZipFile(p, "w") as z:
            z.writestr("E.npy", header.getvalue() + bytes(64))
    elif kind == "bomb":  # 64 MB of zeros, deflated to a few kB
        with zipfile.ZipFile(p, "w", compression=zipfile.ZIP_DEFLATED) as z:
            z.writestr("E.npy", bytes(64 << 20))
    elif kind == "wrong_shape":
        _npz(p, good | {"E": np.zeros((5, 16))})
    elif kind == "nan":
        _npz(p, good | {"1.W_QKV": np.full_like(good["1.W_QKV"], np.nan)})
    elif kind == "version":
        _npz(p, good | {"version": np.array(99)})
    elif kind == "format":
        _npz(p, good | {"format": np.array("something else")})
    elif kind == "bad_setting":
        config = json.loads(str(good["config"])) | {"heads": 3}
        _npz(p, good | {"config": np.array(json.dumps(config))})
    elif kind == "unknown_setting":
        config = json.loads(str(good["config"])) | {"__class__": 1}
        _npz(p, good | {"config": np.array(json.dumps(config))})
    elif kind == "deep_json":
        _npz(p, good | {"config": np.array("[" * 2000 + "]" * 2000)})
    elif kind == "missing":
        del good["2.W_O"]
        _npz(p, good)
    elif kind == "extra":
        _npz(p, good | {"backdoor": np.zeros(3)})
    elif kind == "probe":
        _npz(p, good | {"probe": np.array([9, 9, 9, 9, 9, 9])})
    elif kind == "directory":
        p.mkdir()
    elif kind == "absent":
        pass
    return p


HOSTILE = (
    "random empty truncated pickle huge_shape bomb wrong_shape nan version format bad_setting"
    " unknown_setting deep_json missing extra probe directory absent"
).split()


@pytest.mark.parametrize("kind", HOSTILE)
@pytest.mark.parametrize("lang", ["en", "zh"])
def test_a_damaged_or_hostile_file_gives_one_line(saved, tmp_path, capsys, kind, lang):
    path = _hostile(kind, saved, tmp_path)
    with pytest.raises(InputError):
        transformer_file.load(path)
    assert main(["--lang", lang, "lab", "--model", str(path)]) == 2
    captured = capsys.readouterr()
    assert captured.out == "" and captured.err.count("\n") == 1
    assert path.name in captured.err and "Traceback" not in captured.err
    assert "transformer.file" not in captured.err  # a sentence, not a code
    if lang == "zh":
        assert any("\u4e00" <= c <= "\u9fff" for c in captured.err)


def test_dev_zero_is_refused_without_reading(capsys):
    assert main(["--lang", "en", "lab", "--model", "/dev/zero"]) == 2
    assert "not a regular file" in capsys.readouterr().err


def test_an_unwritable_save_path_is_one_line(tmp_path, capsys):
    target = tmp_path / "no" / "such" / "dir" / "m.npz"
    argv = [*"--lang en train --model transformer --iters 5 --length 4 --save".split(), str(target)]
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert "cannot write" in err and err.count("\n") == 1
    assert not list(tmp_path.rglob("*.tmp"))
