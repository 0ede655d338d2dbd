"""The trainer opens without work a frame could wait for (issue 21, screens that open at once).

Its footer keys are in its first frame, not a frame later (each later frame lays the whole
screen out again, and the screen is "drawn" only after the last of them): Textual's Footer
composes them after the first refresh. The CSS of its widgets (and of their bases, which a
subclass parses again) is parsed while home is on show: opening it parsed nine sources one
by one. The Transformer's rows and the parts a run shows are built when first needed
(test_trainer_pieces).
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


async def test_opening_the_trainer_parses_none_of_its_widgets_css(tmp_path, monkeypatch):
    """Every widget type it opens with is in TrainerScreen.WIDGETS_CSS (a new one fails here)."""
    import textual.css.stylesheet as stylesheet_module

    parsed: list[str] = []
    original = stylesheet_module.parse

    def counted(scope, css, read_from, *args, **kwargs):
        parsed.append(str(read_from))
        return original(scope, css, read_from, *args, **kwargs)

    app = AttnApp(lang="en", data_dir=tmp_path)
    async with app.run_test(size=(120, 40)) as pilot:
        for _ in range(1200):  # home's background preparation (imports, CSS)
            if app.prepared.is_set():
                break
            await pilot.pause(0.05)
        await pilot.pause()
        monkeypatch.setattr(stylesheet_module, "parse", counted)
        await pilot.press("down", "enter")
        await pilot.pause()
        assert isinstance(app.screen, TrainerScreen)
        assert parsed == []  # failed before: nine widget types' CSS, and their bases'


async def test_the_guides_first_focus_restyles_no_settings_row(tmp_path, monkeypatch):
    """The guide takes the screen's first focus as it mounts: the settings panel's
    :focus-within border then restyles the panel alone, not the rows of its form."""
    from textual.css.stylesheet import Stylesheet
    from textual.widgets import Input, Select

    restyled: list[int] = []
    original = Stylesheet.update_nodes

    def counted(self, nodes, animate=False):
        nodes = list(nodes)
        restyled.append(sum(isinstance(node, (Input, Select)) for node in nodes))
        return original(self, nodes, animate=animate)

    app = AttnApp(lang="en", data_dir=tmp_path)
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        monkeypatch.setattr(Stylesheet, "update_nodes", counted)
        await pilot.press("down", "enter")
        await pilot.pause()
        assert isinstance(app.screen, TrainerScreen)
        assert app.screen.focused is app.screen.query_one("#guide")
        assert restyled and max(restyled) <= 1  # failed before: every row's control, at once
