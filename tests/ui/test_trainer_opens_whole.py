"""The trainer's footer keys are in its first frame, not a frame later (each later frame lays
the whole screen out again, and the screen is "drawn" only after the last of them; issue 21,
screens that open at once): Textual's Footer composes them after the first refresh. The
Transformer's rows and the parts a run shows are built when first needed (test_trainer_pieces).
"""

from __future__ import annotations

import pytest

from attn_tui.app import AttnApp
from attn_tui.screens.trainer import KeysAtOnceFooter, TrainerScreen


@pytest.mark.parametrize("size", [(80, 24), (120, 40)])
async def test_the_footer_keys_are_composed_with_the_trainer_not_rebuilt_after(
    tmp_path, monkeypatch, size
):
    rebuilt: list[int] = []
    original = KeysAtOnceFooter.recompose

    async def counted(self):
        rebuilt.append(1)
        await original(self)

    monkeypatch.setattr(KeysAtOnceFooter, "recompose", counted)
    app = AttnApp(lang="en", data_dir=tmp_path)
    async with app.run_test(size=size) as pilot:
        await pilot.press("down", "enter")
        await pilot.pause()
        await pilot.pause()
        assert isinstance(app.screen, TrainerScreen)
        footer = app.screen.query_one(KeysAtOnceFooter)
        assert {key.key for key in footer.children} >= {"f5", "f4", "f1", "f2", "escape"}
        assert rebuilt == []  # failed before: one rebuild after the first frame
        await pilot.press("f5")  # what the footer shows still follows the run
        await pilot.pause()
        if size[0] < 116:  # (narrow, it shows the keys that steer a run while one goes)
            await pilot.pause()
            assert "f6" in {key.key for key in footer.children}
        await pilot.press("f7")
        await pilot.pause()
