"""``attn-tui train`` through the real CLI entry point."""

import json

from attn_tui.cli import main


def test_json_run_without_attention(capsys):
    assert main(["--lang", "en", "train", "--iters", "60", "--seed", "1", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["params"] == 838 and out["iters"] == 60
    for key in ("seq_acc", "pos_acc", "final_loss", "seconds", "eval_seconds"):
        assert isinstance(out[key], float)
    assert out["with_attention"] is False and "attention" not in out


def test_json_run_with_attention_has_the_held_out_matrix(capsys):
    argv = ["train", "--length", "6", "--attention", "--iters", "40", "--json"]
    assert main(argv) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["params"] == 934
    assert len(out["attention"]) == 6 and all(len(row) == 6 for row in out["attention"])
    assert abs(sum(out["attention"][0]) - 1) < 1e-5


def test_table_in_chinese(capsys):
    assert main(["--lang", "zh", "train", "--iters", "30"]) == 0
    out = capsys.readouterr().out
    assert "整串全对" in out and "838" in out


def test_bad_length_exits_2_with_a_sentence(capsys):
    assert main(["--lang", "en", "train", "--length", "0"]) == 2
    err = capsys.readouterr().err
    assert "length 0" in err and "2 to 20" in err


def test_diverged_run_exits_1_without_a_traceback(capsys):
    assert main(["--lang", "en", "train", "--lr", "1e30", "--iters", "100", "--json"]) == 1
    captured = capsys.readouterr()
    out = json.loads(captured.out)
    assert out["outcome"] == "diverged" and out["seq_acc"] is None
    assert "learning rate" in out["message"]
    assert "Traceback" not in captured.err and "RuntimeWarning" not in captured.err


def test_compare_json_and_table(capsys):
    argv = ["--lang", "en", "train", "--compare", "--seeds", "2", "--iters", "30", "--json"]
    assert main(argv) == 0
    out = json.loads(capsys.readouterr().out)
    assert [v["params"] for v in out["variants"]] == [838, 934]
    assert out["variants"][0]["reference"]["seq_acc"] == 0.99
    assert len(out["variants"][1]["runs"]) == 2
    assert main(["--lang", "en", "train", "--compare", "--seeds", "2", "--iters", "30"]) == 0
    text = capsys.readouterr().out
    assert "±" in text and "0.9900" in text and "0.9300" in text


def test_bad_seed_count(capsys):
    assert main(["train", "--compare", "--seeds", "0"]) == 2


def test_score_implies_attention_and_json_says_score_and_feed(capsys):
    argv = ["train", "--length", "4", "--score", "qk", "--feed", "none", "--iters", "30", "--json"]
    assert main(argv) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["with_attention"] is True and out["score"] == "qk" and out["feed"] == "none"
    assert out["params"] == 1446 - 96
    assert set(out["alignment"]) == {"weight", "peaks", "left", "right", "row_max"}
    assert main(["train", "--iters", "30", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["score"] is None and out["feed"] == "previous" and out["params"] == 838


def test_score_dot_is_the_book_model_bit_for_bit(capsys):
    """``--score dot`` and ``--attention`` are the same run: the same numbers to the last bit."""
    base = ["train", "--length", "5", "--iters", "80", "--seed", "4", "--json"]
    assert main([*base, "--attention"]) == 0
    a = json.loads(capsys.readouterr().out)
    assert main([*base, "--score", "dot"]) == 0
    b = json.loads(capsys.readouterr().out)
    for key in ("params", "seq_acc", "pos_acc", "final_loss", "attention", "per_position"):
        assert a[key] == b[key]


def test_compare_versus_another_variant(capsys):
    argv = "--lang en train --compare --seeds 2 --iters 20 --length 3 --score general".split()
    argv += "--versus dot --workers 1 --json".split()
    assert main(argv) == 0
    out = json.loads(capsys.readouterr().out)
    assert [v["variant"] for v in out["variants"]] == ["dot", "general"]
    assert [v["params"] for v in out["variants"]] == [934, 1190]


def test_compare_the_same_variant_twice_is_refused(capsys):
    argv = ["--lang", "en", "train", "--compare", "--score", "dot", "--versus", "dot"]
    assert main(argv) == 2
    assert "both sides" in capsys.readouterr().err


def test_an_absurd_budget_is_refused_in_one_line(capsys):
    argv = "--lang en train --iters 100000 --batch 1024 --length 12 --compare --seeds 100".split()
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "limit" in err and "Traceback" not in err


def test_a_single_run_shows_the_figures_of_a_run_that_evaluated_on_the_way(capsys):
    """The command evaluates only at the end (the one evaluation it shows); training never
    reads an evaluation, so its figures are those of the same run evaluated every 100
    iterations, as the app and --compare run it."""
    from attn_tui.core.models.loop import run_to_end
    from attn_tui.core.models.trainer import TrainConfig

    argv = "--lang en train --length 6 --score qk --iters 250 --seed 3 --json".split()
    assert main(argv) == 0
    out = json.loads(capsys.readouterr().out)
    config = TrainConfig(length=6, attention=True, score="qk", iters=250, seed=3)
    assert config.eval_every == 100
    evaluated = run_to_end(config)
    assert len(evaluated.snapshots) == 3  # at 100, 200 and the end
    expected = evaluated.to_dict()
    for key in ("seq_acc", "pos_acc", "final_loss", "per_position", "attention", "probe"):
        assert out[key] == expected[key], key
