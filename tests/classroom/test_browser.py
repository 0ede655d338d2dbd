"""``attn-tui serve`` in a real browser: Debian's Chromium, headless, driven over the DevTools
protocol (cdp.py). A student types the textbook example into the calculator and the page shows
the textbook's weights; a second student with another name does not see the first one's
progress; a request without the token gets the refusal page.

Without Chromium these tests skip, naming the package to install; under CI (``CI`` set) a
missing browser fails instead, since ``.ci/run`` installs it.
"""

from __future__ import annotations

import asyncio
import math
import os

import pytest

from .cdp import Browser, chromium_missing_reason

TOKEN = "browser-token-7"
_missing = chromium_missing_reason()
if _missing and os.environ.get("CI"):
    raise RuntimeError(f"CI runs the browser tests: {_missing}")
pytestmark = [pytest.mark.slow, pytest.mark.skipif(bool(_missing), reason=_missing or "")]


KEYS = [(1, 0, 0), (0, 1, 0), (1, 0, 1), (1, 1, 0)]  # the textbook's four keys


def weights(q: tuple[int, ...], keys=KEYS) -> list[str]:
    """Softmax of q·k/√d over ``keys``, by hand, to 4 decimals."""
    scaled = [sum(a * b for a, b in zip(q, k, strict=True)) / math.sqrt(len(q)) for k in keys]
    exps = [math.exp(s - max(scaled)) for s in scaled]
    return [f"{e / sum(exps):.4f}" for e in exps]


def weight_rows(screen: str) -> list[str]:
    """The α column of step 3 (key, − max, exp, α), one per key row k₁, k₂, …"""
    rows = []
    for label in "₁₂₃₄":
        line = next((x for x in screen.splitlines() if f" k{label} " in x), None)
        if line is None:
            break
        rows.append(line.split(f" k{label} ", 1)[1].split()[2])
    return rows


async def shows_weights(page, expected: list[str], timeout: float = 60) -> str:
    """Wait until step 3 shows exactly these weights, row by row."""
    deadline = asyncio.get_running_loop().time() + timeout
    while True:
        screen = await page.screen_text()
        if "Step 3 of 4" in screen and weight_rows(screen) == expected:
            return screen
        if asyncio.get_running_loop().time() > deadline:
            raise AssertionError(f"weights {expected} never shown; the page shows:\n{screen}")
        await asyncio.sleep(0.2)


async def test_the_textbook_example_typed_in_the_browser_gives_the_textbook_weights(
    serve, tmp_path
):
    assert weights((1, 0, 1)) == ["0.2303", "0.1293", "0.4102", "0.2303"]
    server = serve("--token", TOKEN, "--lang", "en")
    async with Browser() as browser:
        page = await browser.open(f"{server.base}?token={TOKEN}&name=Ann", downloads=tmp_path)
        await page.wait_for_text(("Calculator", "Welcome, Ann"), timeout=90)
        await page.focus_terminal()
        await page.press("enter")
        await page.wait_for_text("Step 1 of 4")
        await page.press("pagedown")
        await page.press("pagedown")
        await shows_weights(page, weights((1, 0, 1)))  # the preset, before any typing
        # Keys typed in the first seconds after the calculator opens can be lost or land out
        # of order (at a terminal too: 61 typed, 52-57 kept; reported, not this test's
        # subject). A student reads the screen first: so does this one.
        await page.wait_until_gone("Welcome, Ann")
        # Another query first, so what the page shows next comes from what is typed.
        await page.press("u", ctrl=True)  # clear the query
        await page.wait_for_text("query is empty")
        await page.type("2 0 0")
        screen = await shows_weights(page, weights((2, 0, 0)))
        assert "0.4102" not in screen
        # The textbook example, typed: the query, then the keys one row at a time, each row
        # checked against the weights worked out by hand for the keys typed so far.
        await page.press("u", ctrl=True)
        await page.wait_for_text("query is empty")
        await page.type("1 0 1")
        await shows_weights(page, weights((1, 0, 1)))
        await page.press("tab")  # the keys
        for _ in range(4):
            await page.press("down")
        await page.press("end")
        for _ in range(30):
            await page.press("backspace")
        await page.wait_for_text("keys is empty")
        for n, row in enumerate(["1 0 0", "0 1 0", "1 0 1", "1 1 0"], 1):
            await page.type(row if n == 1 else "\n" + row)
            await shows_weights(page, weights((1, 0, 1), KEYS[:n]))
        screen = await page.screen_text()
        assert weight_rows(screen) == ["0.2303", "0.1293", "0.4102", "0.2303"]
        # a figure for a slide: one key, and the browser downloads the screen as SVG
        await page.press("s", ctrl=True)
        await page.wait_for_text("your browser downloads it")
        for _ in range(100):
            saved = list(tmp_path.glob("attn-tui-calc-*.svg"))
            if saved:
                break
            await asyncio.sleep(0.1)
        (figure,) = saved
        assert "0.4102" in figure.read_text("utf-8")


async def test_a_second_student_does_not_see_the_firsts_progress(serve):
    server = serve("--token", TOKEN, "--lang", "en")
    async with Browser() as browser:
        ann = await browser.open(f"{server.base}?token={TOKEN}")
        await ann.wait_for_text("First, your name", timeout=90)
        await ann.focus_terminal()
        await ann.type("Ann\n")
        await ann.wait_for_text("Welcome, Ann")
        for key in ("down", "down", "enter"):  # the exercises
            await ann.press(key)
        await ann.wait_for_text("The three steps of attention")
        await ann.press("enter")
        await ann.wait_for_text("Which sequence")
        await ann.type("c\n")
        await ann.wait_for_text("Correct")
        await ann.press("f6")  # back to the list of sets
        await ann.wait_for_text("1/")

        bob = await browser.open(f"{server.base}?token={TOKEN}&name=Bob")  # another context
        await bob.wait_for_text("Welcome, Bob", timeout=90)
        await bob.focus_terminal()
        for key in ("down", "down", "enter"):
            await bob.press(key)
        screen = await bob.wait_for_text("The three steps of attention")
        assert "0/" in screen and "1/" not in screen


async def test_a_request_without_the_token_is_refused(serve):
    server = serve("--token", TOKEN, "--lang", "zh")
    async with Browser() as browser:
        page = await browser.open(server.base)
        text = ""
        for _ in range(100):
            text = await page.body_text()
            if "口令" in text:
                break
            await page.evaluate("0")  # let the page load
        assert "需要访问口令" in text
        assert await page.evaluate("document.querySelector('.textual-terminal') === null")


async def test_every_asset_of_the_page_comes_from_the_server_itself(serve):
    """textual-serve's page loaded its font from fonts.googleapis.com: a classroom without the
    internet waited on it, and each student's browser told a third party who was in class.
    Now every request the page makes goes to this server, and the font is its own copy."""
    server = serve("--token", TOKEN, "--lang", "en")
    async with Browser() as browser:
        page = await browser.open(f"{server.base}?token={TOKEN}&name=Ann")
        await page.wait_for_text("Welcome, Ann", timeout=90)
        await page.evaluate("document.fonts.ready.then(() => 0)")
        loaded = await page.evaluate(
            "Array.from(document.fonts).filter(f => f.family.includes('Roboto Mono')"
            " && f.status === 'loaded').length"
        )
        outside = [u for u in page.requests
                   if not u.startswith((server.base, server.base.replace("http", "ws", 1)))
                   and not u.startswith(("data:", "blob:"))]  # fmt: skip
    assert page.requests and not outside, outside
    assert any(u.endswith(".ttf") for u in page.requests), "the font came from the server"
    assert loaded >= 1, "and the page uses it"
