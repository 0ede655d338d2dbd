"""Ctrl+L empties the field the learner is in, every line of a multi-line one, and Ctrl+Z
brings the text back (item 30 of issue 26: nothing said how to clear a multi-line field)."""

from __future__ import annotations

from textual.widgets import TextArea

from attn_tui.app import AttnApp

from .conftest import screen_lines


async def test_ctrl_l_clears_every_line_of_the_keys_and_ctrl_z_brings_them_back():
    async with AttnApp(lang="en").run_test(size=(80, 24)) as pilot:
        await pilot.press("enter")  # the calculator
        await pilot.pause()
        keys = pilot.app.screen.query_one("#keys", TextArea)
        before = keys.text
        assert before.count("\n") >= 2  # the textbook example: several keys, one a line
        keys.focus()
        await pilot.pause()
        await pilot.press("ctrl+l")
        await pilot.pause()
        assert keys.text == ""
        await pilot.press("ctrl+z")
        await pilot.pause()
        assert keys.text == before


async def test_ctrl_l_leaves_a_read_only_field_alone():
    async with AttnApp(lang="en").run_test(size=(80, 24)) as pilot:
        await pilot.press("enter")
        await pilot.pause()
        keys = pilot.app.screen.query_one("#keys", TextArea)
        keys.read_only = True
        keys.focus()
        before = keys.text
        await pilot.press("ctrl+l")
        await pilot.pause()
        assert keys.text == before


async def test_the_help_says_how_to_clear_a_field_in_both_languages():
    for lang, said in (("en", "Ctrl+L clears the multi-line field"), ("zh", "Ctrl+L 清空当前的")):
        async with AttnApp(lang=lang).run_test(size=(100, 40)) as pilot:
            await pilot.pause()
            await pilot.press("f1")
            await pilot.pause()
            text = "\n".join(screen_lines(pilot.app))
            assert said in text and "Ctrl+Z" in text


async def test_ctrl_l_leaves_a_one_line_field_alone_it_has_no_undo():
    from textual.widgets import Input

    async with AttnApp(lang="en").run_test(size=(80, 24)) as pilot:
        await pilot.press("enter")
        await pilot.pause()
        field = pilot.app.screen.query_one("#temperature", Input)
        field.focus()
        before = field.value
        await pilot.press("ctrl+l")
        await pilot.pause()
        assert field.value == before != ""
