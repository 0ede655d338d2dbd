"""``attn-tui train --model transformer --task …`` for the pattern tasks and the induction run,
through the real front door: the head scores, the phases and the ablation in the JSON, each
recomputed here from what the JSON or the saved model holds; the text in both languages."""

from __future__ import annotations

import json

import numpy as np
import pytest

from attn_tui.cli import main
from attn_tui.core.models import tasks, transformer_file
from attn_tui.core.models.ablation import ablate
from attn_tui.core.models.phases import detect


def run_json(capsys, *argv, status=0):
    assert main(["--lang", "en", *argv, "--json"]) == status
    return json.loads(capsys.readouterr().out)


def test_the_task_choices_are_the_cores():
    import argparse

    from attn_tui.commands import train

    p = argparse.ArgumentParser()
    train.add_parser(p.add_subparsers())
    action = next(a for sub in p._subparsers._group_actions for a in
                  sub.choices["train"]._actions if a.dest == "task")  # fmt: skip
    assert tuple(action.choices) == tasks.TASKS


def test_a_pattern_tasks_scores_are_its_held_out_maps(capsys):
    out = run_json(capsys, "train", "--model", "transformer", "--task", "previous",
                   "--iters", "120")  # fmt: skip
    assert out["task"] == "previous" and out["length"] == 10
    (head,) = out["head_stats"]
    mean = np.array(out["attention"][0][0])  # the held-out average map, rows = outputs
    # every score but induction is linear in the weights: the average map gives it
    assert head["previous"] == pytest.approx(np.mean([mean[i, i - 1] for i in range(1, 10)]))
    band = sum(mean[i, j] for i in range(10) for j in range(10) if abs(i - j) <= 1) / 10
    assert head["local"] == pytest.approx(band)
    assert head["stripe"] == pytest.approx(mean.mean(axis=0).max())
    assert head["stripe_column"] == 1 + int(mean.mean(axis=0).argmax())
    assert head["induction"] is None  # no copies in letter sequences
    assert out["uniform_head"]["previous"] == pytest.approx(0.1)  # 1/L: not causal
    assert out["phases"]["drop"] is None and "ablation" not in out


@pytest.fixture(scope="module")
def induction(tmp_path_factory):
    """A short induction run (too short to form the heads), saved by the real command."""
    path = tmp_path_factory.mktemp("induction") / "ind.npz"
    argv = ["--lang", "en", "train", "--model", "transformer", "--task", "induction",
            "--iters", "60", "--seed", "3", "--save", str(path), "--json"]  # fmt: skip
    return path, argv


def test_induction_json_reports_settings_scores_phases_and_ablation(induction, capsys):
    path, argv = induction
    assert main(argv) == 0
    out = json.loads(capsys.readouterr().out)
    assert (out["layers"], out["heads"], out["d_model"], out["length"], out["batch"],
            out["feed_forward"], out["causal"], out["positions"], out["lr"]) == (
        2, 1, 32, 32, 32, False, True, "learned", 0.003)  # fmt: skip
    assert out["params"] == 64 * 32 + 32 * 32 + 2 * (3 * 32 * 32 + 32 * 32) + 32 * 64 + 64
    assert [h["layer"] for h in out["head_stats"]] == [1, 2]
    assert all(isinstance(h["induction"], float) for h in out["head_stats"])
    assert len(out["per_position"]) == 7  # the copy's tokens 2–8
    probe = out["probe"]
    s, d = probe["copy"]["source"] - 1, probe["copy"]["start"] - 1
    assert probe["input"][d : d + 8] == probe["input"][s : s + 8]
    assert probe["copy"]["scored"] == list(range(d + 1, d + 8))
    # the ablation: recomputed from the saved model on the held-out set
    saved = transformer_file.load(path)
    cfg = saved.config
    again = ablate(saved.model, tasks.held_out("induction", 32, cfg.eval_size, cfg.eval_seed))
    for name in ("copy_acc", "induction", "previous"):
        assert out["ablation"][name]["before"] == pytest.approx(getattr(again.before, name),
                                                                abs=1e-6)  # fmt: skip
        assert out["ablation"][name]["after"] == pytest.approx(getattr(again.after, name),
                                                               abs=1e-6)  # fmt: skip
    assert out["ablation"]["off"] == {"layer": 1, "head": 1}
    assert out["pos_acc"] == out["ablation"]["copy_acc"]["before"]
    # 60 steps: the loss has not left chance, so no drop; the JSON says what the rule finds
    assert out["phases"]["drop"] is None


def test_phases_in_the_json_are_the_detectors_on_the_runs_losses(capsys):
    from attn_tui.core.models.transformer_trainer import TransformerConfig, run_to_end

    r = run_to_end(TransformerConfig.for_task("induction", iters=140, eval_size=20, seed=1,
                                               eval_every=0))  # fmt: skip
    assert r.to_dict()["phases"] == detect(r.losses).to_dict()
    assert r.to_dict()["phases"]["plateau"]["seen"] == 125  # near chance from the start


@pytest.mark.parametrize("lang, words", [
    ("en", ("switched off", "copy accuracy", "plateau", "32×32", "copy: positions")),
    ("zh", ("关掉", "复制准确率", "平台", "32×32", "复制：第")),
])  # fmt: skip
def test_induction_text_in_both_languages(capsys, lang, words):
    assert main(["--lang", lang, "train", "--model", "transformer", "--task", "induction",
                 "--iters", "40", "--seed", "0"]) == 0  # fmt: skip
    out = capsys.readouterr().out
    for w in words:
        assert w in out, w


def test_over_seeds_a_pattern_task_reports_its_head(capsys):
    out = run_json(capsys, "train", "--model", "transformer", "--task", "first", "--compare",
                   "--seeds", "2", "--iters", "80")  # fmt: skip
    figures = out["task_figures"]
    per_run = [max(h["stripe"] for h in r["head_stats"]) for r in out["runs"]]
    assert figures["pattern_head"]["n"] == 2
    assert figures["pattern_head"]["mean"] == pytest.approx(np.mean(per_run))
    assert figures["uniform"]["mean"] == pytest.approx(0.1)
    assert main(["--lang", "zh", "train", "--model", "transformer", "--task", "first",
                 "--compare", "--seeds", "2", "--iters", "80"]) == 0  # fmt: skip
    assert "竖条分数最高的头" in capsys.readouterr().out


def test_contradicting_feed_forward_switches_are_one_line(capsys):
    assert main(["--lang", "en", "train", "--model", "transformer", "--feed-forward",
                 "--no-feed-forward"]) == 2  # fmt: skip
    err = capsys.readouterr().err
    assert "contradict" in err and err.count("\n") == 1


@pytest.mark.parametrize("argv, words", [
    (["--task", "induction", "--length", "12"], "18 to 64"),
    (["--task", "previous", "--length", "32"], "32"),
])  # fmt: skip
def test_unusable_lengths_are_one_line(capsys, argv, words):
    assert main(["--lang", "en", "train", "--model", "transformer", *argv]) == 2
    err = capsys.readouterr().err
    assert words in err and err.count("\n") == 1 and "Traceback" not in err


def test_the_lab_opens_an_induction_model_with_token_labels(induction, capsys):
    path, argv = induction
    if not path.exists():
        assert main(argv) == 0
        capsys.readouterr()
    out = run_json(capsys, "lab", "--model", str(path))
    saved = transformer_file.load(path)
    labels = [f"{tasks.TOKENS[int(s)]}·{i + 1}" for i, s in enumerate(saved.probe)]
    assert out["input"] == labels
    s, d = tasks.find_copy(saved.probe)
    assert out["copy"] == {"source": s + 1, "start": d + 1}
    assert np.array(out["layers"][1]["weights"]).shape == (1, 32, 32)
    seq = "".join(tasks.TOKENS[i] for i in range(32))
    out = run_json(capsys, "lab", "--model", str(path), "--sequence", seq)
    assert out["input"][26] == "a·27" and "copy" not in out
    assert main(["--lang", "en", "lab", "--model", str(path), "--sequence", "ABC"]) == 2
    assert "A–Z a–z 0–9 + *" in capsys.readouterr().err
    assert main(["--lang", "zh", "lab", "--model", str(path)]) == 0
    text = capsys.readouterr().out
    assert "32×32" in text and "归纳" in text
