"""A teacher's large sets load without freezing the Exercises screen.

Before: the screen parsed every set inside compose(); a 9.6 MB set of 400,000 checked claims
froze it for 44 s (keys ignored, Ctrl+Q waiting). Now what this process has not read yet
loads in a thread when it is more than LOAD_AT_ONCE bytes, the list says how far it has got,
and keys work meanwhile. The load is held on an event here, so the test sees the middle of it
whatever the machine's speed.
"""

from __future__ import annotations

import threading

import pytest
from textual.widgets import OptionList

from attn_tui import paths
from attn_tui.app import AttnApp
from attn_tui.screens import loading
from attn_tui.screens.exercises import ExercisesScreen

SET = '[set]\nid = "mine"\ntitle = {{ zh = "我的大题集", en = "My big set" }}\n' \
      'summary = {{ zh = "s", en = "s" }}\n{body}'  # fmt: skip
ONE = ('\n[[exercise]]\nid = "e{i}"\nkind = "number"\ntopics = ["dot-product"]\n'
       'prompt = {{ zh = "{pad}", en = "{pad}" }}\nanswer = {i}\n'
       'explanation = {{ zh = "e", en = "e" }}\n')  # fmt: skip


def big_set(folder, exercises: int = 300) -> None:
    folder.mkdir(parents=True, exist_ok=True)
    body = "".join(ONE.format(i=i, pad="填" * 1200) for i in range(exercises))
    (folder / "big.toml").write_text(SET.format(body=body), "utf-8")


def option_texts(screen) -> list[str]:
    sets = screen.query_one("#ex-sets", OptionList)
    return [str(sets.get_option_at_index(i).prompt) for i in range(sets.option_count)]


@pytest.mark.slow  # writes and loads a library of hundreds of sets
async def test_a_large_library_loads_in_the_background_and_keys_work_meanwhile(
    tmp_path, monkeypatch
):
    folder = tmp_path / "teacher"
    big_set(folder)
    assert paths.unread_bytes([folder], tmp_path / "data") > loading.LOAD_AT_ONCE
    release, started = threading.Event(), threading.Event()
    real = paths.load_all

    def held(extra, data, progress=None):
        started.set()
        release.wait(60)
        return real(extra, data, progress)

    monkeypatch.setattr(paths, "load_all", held)
    app = AttnApp(lang="en", extra_exercises=[folder])
    async with app.run_test(size=(100, 30)) as pilot:
        await app.switch_mode("exercises")
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, ExercisesScreen)
        assert started.wait(10), "the load runs in a thread"
        await pilot.pause()
        assert any("Loading the exercise sets" in text for text in option_texts(screen))
        await pilot.press("escape")  # a key while the sets load: home at once
        await pilot.pause()
        assert app.current_mode == "home"
        await app.switch_mode("exercises")
        release.set()
        for _ in range(200):
            await pilot.pause(0.05)
            if any("My big set" in text for text in option_texts(screen)):
                break
        texts = option_texts(screen)
        assert any("My big set" in text for text in texts), texts
        assert not any("Loading" in text for text in texts)
        await pilot.press("enter")  # the first set: the sets are there to open
        await pilot.pause()
        assert screen.current is not None


async def test_once_read_the_same_sets_load_at_once(tmp_path):
    folder = tmp_path / "teacher"
    big_set(folder, 50)
    paths.load_all([folder], tmp_path / "data")  # read once (by this process, or a serve pool)
    assert paths.unread_bytes([folder], tmp_path / "data") == 0
    app = AttnApp(lang="zh", extra_exercises=[folder])
    async with app.run_test(size=(80, 24)) as pilot:
        await app.switch_mode("exercises")
        await pilot.pause()
        assert any("我的大题集" in text for text in option_texts(app.screen))
