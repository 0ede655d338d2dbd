"""Ctrl+G: the figure or matrix on show goes to the clipboard as text (the screen itself where
there is none), and the learner is told what went and how many lines."""

from __future__ import annotations

from attn_tui.app import AttnApp
from attn_tui.screens.help import HelpScreen

from .conftest import screen_lines


def told(app) -> str:
    return " ".join(n.message for n in app._notifications)


async def test_the_home_screen_is_copied_as_the_learner_sees_it():
    async with AttnApp(lang="en").run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        await pilot.press("ctrl+g")
        await pilot.pause()
        copied = pilot.app.clipboard
        assert "Calculator" in copied and "Attention, one step at a time" in copied
        assert all(line == line.rstrip() for line in copied.splitlines())
        assert "Copied the screen as text" in told(pilot.app)


async def test_the_help_names_the_copy_key_and_the_mouse_in_both_languages():
    async with AttnApp(lang="zh").run_test(size=(100, 40)) as pilot:
        await pilot.pause()
        await pilot.press("f1")
        await pilot.pause()
        assert isinstance(pilot.app.screen, HelpScreen)
        text = "\n".join(screen_lines(pilot.app))
        assert "Ctrl+G" in text and "Shift" in text and "剪贴板" in text
        await pilot.press("f2")
        await pilot.pause()
        text = "\n".join(screen_lines(pilot.app))
        assert "Ctrl+G" in text and "Shift" in text and "clipboard" in text


# ---- the figure on show, as the core computes it (issue 26, item 32) ------------------------


def numbers_of(line: str) -> list[float]:
    return [float(x) for x in line.split()[1:]]


def _copied_file(app) -> str:
    from attn_tui.screens.copying import copied_path

    return copied_path(app).read_text(encoding="utf-8")


async def test_the_calculator_copies_its_scores_weights_and_output_to_eight_decimals():
    import numpy as np

    from .test_calculator import open_calculator

    async with AttnApp(lang="en").run_test(size=(80, 24)) as pilot:
        screen = await open_calculator(pilot)
        await pilot.press("ctrl+g")
        await pilot.pause()
        copied = pilot.app.clipboard
        r = screen.result
        rows = [line for line in copied.splitlines() if line.startswith("k")]
        assert len(rows) == r.n
        got = np.array([numbers_of(line) for line in rows])  # q·k, scaled, α per key
        # independent arithmetic from what was typed: q·k, ÷√d, softmax, Σ α v
        scores = r.K @ r.q
        scaled = scores / np.sqrt(r.d)
        alpha = np.exp(scaled - scaled.max()) / np.exp(scaled - scaled.max()).sum()
        assert np.allclose(got[:, 0], scores, atol=5e-9)
        assert np.allclose(got[:, 1], scaled, atol=5e-9)
        assert np.allclose(got[:, 2], alpha, atol=5e-9)
        output = next(line for line in copied.splitlines() if line.startswith("output"))
        assert np.allclose(numbers_of(output), alpha @ r.V, atol=5e-9)
        assert "−" not in copied  # an ASCII minus: it pastes into numpy
        said = told(pilot.app)
        assert "Copied the scores, weights and output" in said and "copied.txt" in said
        assert _copied_file(pilot.app) == copied + "\n"  # the file for a clipboard over SSH


async def test_the_lab_copies_the_heads_weights_with_its_tokens():
    import numpy as np

    from .test_lab import open_lab

    async with AttnApp(lang="zh").run_test(size=(120, 40)) as pilot:
        screen = await open_lab(pilot)
        views = screen.query_one("LabViews")
        r = views.result
        await pilot.press("ctrl+g")
        await pilot.pause()
        lines = pilot.app.clipboard.splitlines()
        assert lines[0].split() == list(r.memory.labels)
        got = np.array([numbers_of(line) for line in lines[1:]])
        assert [line.split()[0] for line in lines[1:]] == list(r.queries.labels)
        # softmax of the scaled scores, from Q and K as the core split them
        s = r.Qh[0] @ r.Kh[0].T / np.sqrt(r.Qh.shape[2])
        s = np.where(r.allowed, s, -np.inf)
        w = np.exp(s - s.max(axis=1, keepdims=True))
        w /= w.sum(axis=1, keepdims=True)
        assert np.allclose(got, w, atol=5e-5)
        assert "第 1 个头的注意力权重" in told(pilot.app)


async def test_the_trainer_copies_the_attention_map_on_show():
    import numpy as np

    from .test_trainer_snapshots import STORED, _open, replay

    async with AttnApp(lang="en").run_test(size=(120, 40)) as pilot:
        screen = await _open(pilot)
        result = await replay(pilot, screen, "rnn_default.json")
        await pilot.press("ctrl+g")
        await pilot.pause()
        lines = pilot.app.clipboard.splitlines()
        assert lines[0].split()[:2] == ["in", "1"]
        got = np.array([[float(x) for x in line.split()[2:]] for line in lines[1:]])
        weights = result.final.probe.attention
        assert got.shape == weights.shape
        assert np.allclose(got, weights, atol=5e-5)
        assert "attention map" in told(pilot.app)
        assert STORED.is_dir()


async def test_a_copy_the_data_folder_cannot_take_is_said_and_still_copied(tmp_path):
    blocked = tmp_path / "file-not-folder"
    blocked.write_text("x")
    async with AttnApp(lang="en", data_dir=blocked).run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        await pilot.press("ctrl+g")
        await pilot.pause()
        assert "Calculator" in pilot.app.clipboard
        assert "could not be written" in told(pilot.app)
