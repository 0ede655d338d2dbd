"""Under ``attn-tui serve``, keys typed the moment the calculator opens reach it, in a real
browser (headless Chromium over the DevTools protocol, as in test_browser.py): Enter on the
home screen, then the query straight after, without waiting for the calculator to show.

The keys go without the harness's usual 30 ms between presses: a page busy for a moment (or
a fast typist) hands them on together, which is when the first ones used to be lost.
"""

from __future__ import annotations

from . import cdp
from .cdp import Browser
from .test_browser import TOKEN, shows_weights, weights
from .test_browser import pytestmark as _browser_needed

pytestmark = _browser_needed


async def test_a_query_typed_as_the_calculator_opens_is_all_there(serve, monkeypatch):
    server = serve("--token", TOKEN, "--lang", "en")
    async with Browser() as browser:
        page = await browser.open(f"{server.base}?token={TOKEN}&name=Ann")
        await page.wait_for_text(("Calculator", "Welcome, Ann"), timeout=90)
        await page.focus_terminal()
        monkeypatch.setattr(cdp, "KEY_GAP_S", 0)
        await page.press("enter")  # open the calculator, and type at once
        await page.type("2 0 0")
        monkeypatch.setattr(cdp, "KEY_GAP_S", 0.03)
        await page.press("pagedown")
        await page.press("pagedown")
        await shows_weights(page, weights((2, 0, 0)))  # every key of "2 0 0" arrived
