"""What the trainer says after the model changes, after F9, and in its footer (issue 26, items
7, 8, 12).

Item 8: guide step 4 put the RNN's length 20 in the rows, F8 its stepping pace; choosing the
Transformer kept both (its reversal then ran a length-20 task one key press at a time).
"""

import pytest
from textual.widgets import Input, Select

from attn_tui.app import AttnApp
from attn_tui.compat import FooterKey
from attn_tui.core.models.transformer_trainer import TransformerConfig
from attn_tui.widgets.trainer.guide import GUIDE

from .conftest import screen_lines
from .test_trainer import finish, open_trainer


def rows(screen, *names: str) -> dict[str, str]:
    return {name: screen.form.text(name) for name in names}


async def test_rows_the_app_filled_follow_the_model_and_the_learner_s_stay():
    async with AttnApp(lang="en").run_test(size=(80, 24)) as pilot:
        screen = await open_trainer(pilot)
        screen.query_one("#pace", Select).value = "watch"  # (open_trainer chose fast)
        await pilot.pause()
        step4 = GUIDE[3]
        screen.form.fill(step4.experiment.config(0), step4.versus)  # what key 4 fills in
        screen.form.set(pace="step")  # what F8 does before a run
        await pilot.pause()
        assert rows(screen, "length", "pace", "iters") == {"length": "20", "pace": "step",
                                                           "iters": "5000"}  # fmt: skip
        screen.query_one("#model", Select).value = "transformer"
        await pilot.pause()
        tf = TransformerConfig()
        assert rows(screen, "length", "pace", "iters", "lr") == {
            "length": str(tf.length),
            "pace": "watch",
            "iters": str(tf.iters),
            "lr": "0.01",
        }
        assert screen.live.config == TransformerConfig(eval_every=screen.live.config.eval_every)
        # back to the RNN: its own starting rows again
        screen.query_one("#model", Select).value = "rnn"
        await pilot.pause()
        assert rows(screen, "length", "pace", "iters") == {"length": "10", "pace": "watch",
                                                           "iters": "3000"}  # fmt: skip
        # what the learner chose stays, whichever model
        screen.query_one("#length", Input).value = "12"
        screen.query_one("#pace", Select).value = "fast"
        await pilot.pause()
        screen.query_one("#model", Select).value = "transformer"
        await pilot.pause()
        assert rows(screen, "length", "pace", "iters") == {"length": "12", "pace": "fast",
                                                           "iters": "300"}  # fmt: skip


async def test_a_guide_step_of_the_transformer_keeps_its_own_rows():
    """The Transformer's guide fills the model and its rows at once: the model's starting
    values must not overwrite the rows filled with it."""
    from dataclasses import replace

    from attn_tui.core.models.transformer_guide import TF_GUIDE

    async with AttnApp(lang="en").run_test(size=(80, 24)) as pilot:
        screen = await open_trainer(pilot)
        config = replace(TF_GUIDE[1].config, seed=0)
        screen.form.fill(config)
        await pilot.pause()
        await pilot.pause()
        read = screen.form.read().config
        assert replace(read, eval_every=config.eval_every) == config


async def test_after_f9_both_panels_say_the_right_shows_the_versus_run():
    """Item 7: after F9 the rows said "attention off" while the panel showed the q·k run."""
    async with AttnApp(lang="en").run_test(size=(80, 24)) as pilot:
        screen = await open_trainer(pilot, variant="none", versus="qk", length=4, iters=40)
        settings_box = screen.query_one("#train-settings")
        await pilot.press("f9")
        await finish(pilot)
        assert [r.config.variant for r in screen.live.pair] == ["none", "qk"]
        assert screen.form.text("variant") == "none"  # the rows still say off ...
        assert screen.live.config.variant == "qk"  # ... and the right shows q·k, saying so:
        assert screen.live.border_subtitle.startswith("F9 versus: q·k attention")
        assert settings_box.border_subtitle == "right: F9 versus run"
        footer_row = screen_lines(pilot.app)[-2]  # the panels' bottom border
        assert "right: F9 versus run" in footer_row and "F9 versus: q·k" in footer_row
        await pilot.press("f2")
        await pilot.pause()
        assert settings_box.border_subtitle == "右边是 F9 对照"
        assert screen.live.border_subtitle.startswith("F9 对照：")
        await pilot.press("f2", "f5")  # the settings' own run: nothing to say
        await finish(pilot)
        assert screen.live.config.variant == "none"
        assert settings_box.border_subtitle == ""
        assert not screen.live.border_subtitle.startswith("F9")


@pytest.mark.parametrize("lang", ["zh", "en"])
async def test_the_footer_at_80_columns_shows_the_keys_that_work_now(lang):
    """Item 12: at 80×24 the footer showed F5 F6 F7 F4 before a run (F6 and F7 pause and
    stop nothing then) and F8–F10 only in the help."""
    async with AttnApp(lang=lang).run_test(size=(80, 24)) as pilot:
        screen = await open_trainer(pilot, pace="step", length=4, iters=30)

        def footer() -> list[str]:
            keys = list(screen.query(FooterKey))
            assert max(k.region.right for k in keys) <= 80  # none pushed off the edge
            return [k.key for k in keys]

        assert footer()[:4] == ["f5", "f9", "f10", "f4"]
        assert "f6" not in footer() and "f7" not in footer()
        row = screen_lines(pilot.app)[-1]
        for key in ("f5", "f9", "f10", "f4", "esc"):
            assert f"{key} " in row
        await pilot.press("f5")  # stepping: what steers the run
        await pilot.pause()
        assert screen.run.activity == "stepping"
        assert footer()[:4] == ["f6", "f7", "f8", "f4"]
        await pilot.press("f7")
        await finish(pilot)
        assert footer()[:4] == ["f5", "f9", "f10", "f4"]
