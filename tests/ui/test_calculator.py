"""Pilot tests: a learner types, steps, toggles and switches language; we read the screen."""

from textual.widgets import Input, Select, Static, TextArea

from attn_tui.app import AttnApp
from attn_tui.screens.calculator import CalculatorScreen
from attn_tui.screens.help import HelpScreen

from .conftest import shown


async def open_calculator(pilot):
    await pilot.press("enter")  # the calculator is the first area on the home screen
    await pilot.pause()
    assert isinstance(pilot.app.screen, CalculatorScreen)
    return pilot.app.screen


def steps_text(screen) -> str:
    return screen.query_one("#steps").text


async def test_first_launch_shows_the_seed_example_step_one():
    async with AttnApp(lang="en").run_test(size=(120, 40)) as pilot:
        screen = await open_calculator(pilot)
        text = steps_text(screen)
        assert "Step 1 of 4" in text
        assert "1×1 + 0×0 + 1×0 = 1" in text and "1×1 + 0×0 + 1×1 = 2" in text


async def test_step_forward_back_and_all():
    async with AttnApp(lang="en").run_test(size=(120, 40)) as pilot:
        screen = await open_calculator(pilot)
        await pilot.press("pagedown")
        text = steps_text(screen)
        assert "Step 2 of 4" in text and "√d = 1.7321" in text and "1.1547" in text
        await pilot.press("pagedown")
        text = steps_text(screen)
        assert "Step 3 of 4" in text
        for w in ("0.2303", "0.1293", "0.4102"):
            assert w in text
        assert "1.0000" in text  # the weights sum to 1
        await pilot.press("pagedown", "pagedown")  # stops at the last step
        text = steps_text(screen)
        assert "Step 4 of 4" in text and "(+0.8707, +0.3595, +0.4102)" in text
        assert text.count("✓") == 3  # each output component inside the values' range
        await pilot.press("pageup")
        assert "Step 3 of 4" in steps_text(screen)
        await pilot.press("f3")
        text = steps_text(screen)
        assert all(f"Step {i} of 4" in text for i in range(1, 5))


async def test_keys_on_the_focused_steps_panel():
    async with AttnApp(lang="en").run_test(size=(120, 40)) as pilot:
        screen = await open_calculator(pilot)
        screen.query_one("#steps").focus()
        await pilot.pause()
        await pilot.press("n", "right")
        assert screen.step == 3
        await pilot.press("b")
        assert screen.step == 2
        await pilot.press("a")
        assert screen.show_all


async def test_typing_a_new_query_recomputes():
    async with AttnApp(lang="en").run_test(size=(120, 40)) as pilot:
        screen = await open_calculator(pilot)
        query = screen.query_one("#query", Input)
        query.value = ""
        await pilot.press(*"0,1,0")
        await pilot.pause()
        text = steps_text(screen)
        assert "0×0 + 1×1 + 0×0 = 1" in text  # q·k₂ is now 1
        assert screen.result.scores.tolist() == [0.0, 1.0, 0.0, 1.0]


async def test_a_fault_is_named_under_its_field_and_the_last_steps_stay():
    async with AttnApp(lang="en").run_test(size=(120, 40)) as pilot:
        screen = await open_calculator(pilot)
        screen.query_one("#query", Input).value = "1 zero 1"
        await pilot.pause()
        error = screen.query_one("#query-error", Static)
        assert error.has_class("-shown") and "“zero”" in shown(error)
        assert "last valid input" in shown(screen.query_one("#stale", Static))
        assert "1×1 + 0×0 + 1×0 = 1" in steps_text(screen)  # the seed steps are still there
        screen.query_one("#keys", TextArea).text = "1 0 0\n0 1"
        screen.query_one("#query", Input).value = "1 0 1"
        await pilot.pause()
        assert not error.has_class("-shown")
        assert "row 2" in shown(screen.query_one("#keys-error", Static))
        screen.query_one("#keys", TextArea).text = "1 0 0\n0 1 0"
        await pilot.pause()
        assert not screen.stale and screen.result.n == 2


async def test_mismatched_sizes_and_values():
    async with AttnApp(lang="en").run_test(size=(120, 40)) as pilot:
        screen = await open_calculator(pilot)
        screen.query_one("#query", Input).value = "1 0"
        await pilot.pause()
        assert "2 dimensions" in shown(screen.query_one("#keys-error", Static))
        screen.query_one("#query", Input).value = "1 0 1"
        screen.query_one("#values", TextArea).text = "1\n2"
        await pilot.pause()
        assert "2 values but 4 keys" in shown(screen.query_one("#values-error", Static))


async def test_scaling_switch_and_hard_max():
    async with AttnApp(lang="en").run_test(size=(120, 40)) as pilot:
        screen = await open_calculator(pilot)
        await pilot.click("#scale")
        await pilot.press("pagedown")
        assert "Scaling is off" in steps_text(screen)
        assert screen.result.scaled.tolist() == [1.0, 0.0, 2.0, 1.0]
        await pilot.click("#hard")
        await pilot.press("pagedown")
        text = steps_text(screen)
        assert "Hard max" in text and "k₃" in text and "gradient" in text
        assert screen.result.weights.tolist() == [0.0, 0.0, 1.0, 0.0]


async def test_temperature_field():
    async with AttnApp(lang="en").run_test(size=(120, 40)) as pilot:
        screen = await open_calculator(pilot)
        temperature = screen.query_one("#temperature", Input)
        temperature.value = "2"
        await pilot.pause()
        assert screen.result.temperature == 2.0
        await pilot.press("pagedown")
        assert "T = 2" in steps_text(screen)
        temperature.value = "0"
        await pilot.pause()
        assert "0.01" in shown(screen.query_one("#temperature-error", Static))


async def test_presets_and_the_dimension_experiment():
    async with AttnApp(lang="en").run_test(size=(120, 40)) as pilot:
        screen = await open_calculator(pilot)
        screen.query_one("#preset", Select).value = "identical"
        await pilot.pause()
        assert screen.result.weights.tolist() == [0.25] * 4
        screen.query_one("#preset", Select).value = "plane"
        await pilot.pause()
        await pilot.press("f3")
        assert "●" in steps_text(screen)  # the 2-D plot of values and output
        await pilot.press("f4")
        body = shown(screen.query_one("#exp-body", Static), width=70)
        assert "d = 300" in body and "max weight" in body
        screen.query_one("#d-large", Input).value = "99999"
        await pilot.pause()
        assert screen.query_one("#exp-error", Static).has_class("-shown")


async def test_switching_language_redraws_in_place_and_keeps_input():
    async with AttnApp(lang="en").run_test(size=(120, 40)) as pilot:
        screen = await open_calculator(pilot)
        screen.query_one("#query", Input).value = "2 0 1"
        await pilot.pause()
        await pilot.press("pagedown")
        await pilot.press("f2")
        await pilot.pause()
        assert pilot.app.lang == "zh"
        assert "第 2/4 步" in steps_text(screen)
        assert screen.query_one("#query", Input).value == "2 0 1"
        assert screen.step == 2
        assert "除以 √d" in str(screen.query_one("#scale").label)
        keys = {b.binding.description for b in screen.active_bindings.values()}
        assert "下一步" in keys
        await pilot.press("f2")
        assert "Step 2 of 4" in steps_text(screen)


async def test_help_overlay_lists_keys_and_panels():
    async with AttnApp(lang="en").run_test(size=(120, 40)) as pilot:
        await open_calculator(pilot)
        await pilot.press("f1")
        await pilot.pause()
        assert isinstance(pilot.app.screen, HelpScreen)
        keys = shown(pilot.app.screen.query_one("#help-keys", Static), 70)
        assert "pgdn" in keys.lower() and "Next" in keys
        panels = shown(pilot.app.screen.query_one("#help-panels", Static), 70)
        assert "The steps" in panels
        await pilot.press("escape")
        assert isinstance(pilot.app.screen, CalculatorScreen)


async def test_escape_goes_home_and_back_keeps_state():
    async with AttnApp(lang="en").run_test(size=(120, 40)) as pilot:
        screen = await open_calculator(pilot)
        await pilot.press("pagedown")
        pilot.app.screen.query_one("#steps").focus()
        await pilot.press("escape")
        assert pilot.app.current_mode == "home"
        await pilot.press("enter")
        assert pilot.app.screen is screen and screen.step == 2
