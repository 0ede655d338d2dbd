"""A small Chrome DevTools Protocol client for the browser tests (aiohttp's websocket, no driver).

It starts Debian's ``chromium`` headless with a fresh profile, opens pages in separate browser
contexts (like two students' browsers: no shared cookies or storage), types with real key events,
reads what the page's terminal shows, and takes screenshots.

textual-serve draws the app with xterm.js on a canvas, so the text is not in the DOM. A script
added before the page loads catches the terminal object the moment textual.js assigns it
(``this.terminal = new Terminal(...)``) and keeps it as ``window.__attnTerm``; the test then
reads the terminal's own buffer: exactly the cells the page draws.
"""

from __future__ import annotations

import asyncio
import base64
import itertools
import json
import os
import shutil
import subprocess
import tempfile
import time
from pathlib import Path
from typing import Any

import aiohttp

CHROMIUM_FLAGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--remote-debugging-port=0",
]

CATCH_TERMINAL = """
Object.defineProperty(Object.prototype, "terminal", {
  configurable: true,
  set(value) {
    Object.defineProperty(this, "terminal",
                          {value, writable: true, configurable: true, enumerable: true});
    if (value && value.buffer) { window.__attnTerm = value; }
  },
});
"""

SCREEN_TEXT = """
(() => {
  const term = window.__attnTerm;
  if (!term) return null;
  const buffer = term.buffer.active, rows = [];
  for (let i = 0; i < term.rows; i++) {
    const line = buffer.getLine(buffer.viewportY + i);
    rows.push(line ? line.translateToString(true) : "");
  }
  return rows.join("\\n");
})()
"""

# key name → (key, code, windowsVirtualKeyCode, text)
KEYS = {
    "enter": ("Enter", "Enter", 13, "\r"),
    "tab": ("Tab", "Tab", 9, ""),
    "escape": ("Escape", "Escape", 27, ""),
    "backspace": ("Backspace", "Backspace", 8, ""),
    "pagedown": ("PageDown", "PageDown", 34, ""),
    "pageup": ("PageUp", "PageUp", 33, ""),
    "f2": ("F2", "F2", 113, ""),
    "f3": ("F3", "F3", 114, ""),
    "down": ("ArrowDown", "ArrowDown", 40, ""),
    "end": ("End", "End", 35, ""),
    "f6": ("F6", "F6", 117, ""),
}
CTRL = 2  # CDP modifier bit
KEY_GAP_S = 0.03  # between two key presses: a quick typist, not a flood


_PUNCTUATION = {
    " ": ("Space", 32),
    ",": ("Comma", 188),
    ".": ("Period", 190),
    ";": ("Semicolon", 186),
    "-": ("Minus", 189),
}


def _physical(ch: str) -> tuple[str, int]:
    """The key a US keyboard presses for ``ch`` (code, virtual key code), as a real key event
    carries them: xterm.js reads the key code, and without one it may take a key twice or
    not at all."""
    if ch.isdigit():
        return f"Digit{ch}", ord(ch)
    if ch.isascii() and ch.isalpha():
        return f"Key{ch.upper()}", ord(ch.upper())
    if ch in _PUNCTUATION:
        return _PUNCTUATION[ch]
    raise ValueError(f"no key for {ch!r}")


def find_chromium() -> str | None:
    for name in ("chromium", "chromium-browser"):
        path = shutil.which(name)
        if path:
            return path
    return None


class Page:
    def __init__(self, browser: Browser, session_id: str) -> None:
        self.browser = browser
        self.session_id = session_id
        self.requests: list[str] = []  # every URL the page asked for (Network.requestWillBeSent)

    async def send(self, method: str, **params: Any) -> dict:
        return await self.browser.send(method, session_id=self.session_id, **params)

    async def evaluate(self, expression: str) -> Any:
        reply = await self.send("Runtime.evaluate", expression=expression, returnByValue=True)
        return reply.get("result", {}).get("value")

    async def screen_text(self) -> str:
        return await self.evaluate(SCREEN_TEXT) or ""

    async def body_text(self) -> str:
        return await self.evaluate("document.body ? document.body.innerText : ''") or ""

    async def wait_for_text(self, needle: str | tuple[str, ...], timeout: float = 30.0) -> str:
        """The screen once it shows ``needle`` (each of a tuple); fails after ``timeout``."""
        needles = (needle,) if isinstance(needle, str) else needle
        deadline = time.monotonic() + timeout
        text = ""
        while time.monotonic() < deadline:
            text = await self.screen_text()
            if all(n in text for n in needles):
                return text
            await asyncio.sleep(0.2)
        raise AssertionError(f"page never showed {needles!r}; it shows:\n{text}")

    async def wait_until_gone(self, needle: str, timeout: float = 30.0) -> None:
        """Wait until the screen no longer shows ``needle`` (a notification that times out)."""
        deadline = time.monotonic() + timeout
        while needle in await self.screen_text():
            if time.monotonic() > deadline:
                raise AssertionError(f"the page still shows {needle!r}")
            await asyncio.sleep(0.2)

    async def type(self, text: str) -> None:
        """Each character as a real key press (keydown with text, keyup), at typing speed."""
        for ch in text:
            if ch == "\n":
                await self.press("enter")
            else:
                code, vk = _physical(ch)
                common = {
                    "key": ch,
                    "code": code,
                    "windowsVirtualKeyCode": vk,
                    "nativeVirtualKeyCode": vk,
                }
                await self.send("Input.dispatchKeyEvent", type="keyDown", text=ch, **common)
                await self.send("Input.dispatchKeyEvent", type="keyUp", **common)
            await asyncio.sleep(KEY_GAP_S)

    async def press(self, name: str, ctrl: bool = False) -> None:
        if len(name) == 1:  # a letter with a modifier (ctrl+s)
            key, code, vk, text = name, f"Key{name.upper()}", ord(name.upper()), ""
        else:
            key, code, vk, text = KEYS[name]
        common = {
            "key": key,
            "code": code,
            "windowsVirtualKeyCode": vk,
            "modifiers": CTRL if ctrl else 0,
        }
        down = {"type": "keyDown", **common}
        if text and not ctrl:
            down["text"] = text
        await self.send("Input.dispatchKeyEvent", **down)
        await self.send("Input.dispatchKeyEvent", type="keyUp", **common)
        await asyncio.sleep(KEY_GAP_S)

    async def focus_terminal(self) -> None:
        """What a click on the terminal does: keys go to it from now on."""
        await self.evaluate("window.__attnTerm.focus()")

    async def click(self, x: float, y: float) -> None:
        for kind in ("mousePressed", "mouseReleased"):
            await self.send(
                "Input.dispatchMouseEvent", type=kind, x=x, y=y, button="left", clickCount=1
            )

    async def screenshot(self, path: Path) -> None:
        reply = await self.send("Page.captureScreenshot", format="png")
        path.write_bytes(base64.b64decode(reply["data"]))


class Browser:
    """One headless Chromium with a fresh profile; ``async with Browser() as b``."""

    def __init__(self, width: int = 1280, height: int = 800) -> None:
        self.width, self.height = width, height
        self._ids = itertools.count(1)
        self._pending: dict[int, asyncio.Future] = {}
        self._profile = tempfile.mkdtemp(prefix="attn-cdp-")
        self._proc: subprocess.Popen | None = None
        self._pages: dict[str, Page] = {}

    async def __aenter__(self) -> Browser:
        exe = find_chromium()
        if exe is None:
            raise RuntimeError("chromium not found")
        self._proc = subprocess.Popen(
            [
                exe,
                *CHROMIUM_FLAGS,
                f"--user-data-dir={self._profile}",
                f"--window-size={self.width},{self.height}",
                "about:blank",
            ],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            stdin=subprocess.DEVNULL,
        )
        port_file = Path(self._profile) / "DevToolsActivePort"
        deadline = time.monotonic() + 30
        while not (port_file.exists() and len(port_file.read_text().splitlines()) >= 2):
            if time.monotonic() > deadline or self._proc.poll() is not None:
                raise RuntimeError("chromium did not start")
            await asyncio.sleep(0.1)
        port, path = port_file.read_text().splitlines()[:2]
        self._http = aiohttp.ClientSession()
        self._ws = await self._http.ws_connect(f"ws://127.0.0.1:{port}{path}", max_msg_size=0)
        self._reader = asyncio.create_task(self._read())
        return self

    async def _read(self) -> None:
        async for msg in self._ws:
            data = json.loads(msg.data)
            if data.get("method") in ("Network.requestWillBeSent",
                                      "Network.webSocketCreated"):  # fmt: skip
                page = self._pages.get(data.get("sessionId"))
                params = data.get("params", {})
                url = params.get("request", {}).get("url") or params.get("url")
                if page is not None and url:
                    page.requests.append(url)
                continue
            future = self._pending.pop(data.get("id", -1), None)
            if future is not None and not future.done():
                if "error" in data:
                    future.set_exception(RuntimeError(f"CDP error: {data['error']}"))
                else:
                    future.set_result(data.get("result", {}))

    async def send(self, method: str, session_id: str | None = None, **params: Any) -> dict:
        msg_id = next(self._ids)
        future = asyncio.get_running_loop().create_future()
        self._pending[msg_id] = future
        message: dict[str, Any] = {"id": msg_id, "method": method, "params": params}
        if session_id is not None:
            message["sessionId"] = session_id
        await self._ws.send_str(json.dumps(message))
        return await asyncio.wait_for(future, 60)

    async def open(self, url: str, downloads: Path | None = None) -> Page:
        """A page in a browser context of its own (its own cookies and storage); files it
        downloads go to ``downloads``."""
        context = await self.send("Target.createBrowserContext")
        if downloads is not None:
            await self.send(
                "Browser.setDownloadBehavior",
                behavior="allow",
                browserContextId=context["browserContextId"],
                downloadPath=str(downloads),
            )
        target = await self.send(
            "Target.createTarget", url="about:blank", browserContextId=context["browserContextId"]
        )
        attached = await self.send(
            "Target.attachToTarget", targetId=target["targetId"], flatten=True
        )
        page = Page(self, attached["sessionId"])
        self._pages[page.session_id] = page
        await page.send("Page.enable")
        await page.send("Network.enable")
        await page.send("Emulation.setDeviceMetricsOverride", width=self.width,
                        height=self.height, deviceScaleFactor=1, mobile=False)  # fmt: skip
        await page.send("Page.addScriptToEvaluateOnNewDocument", source=CATCH_TERMINAL)
        await page.send("Page.navigate", url=url)
        return page

    async def __aexit__(self, *exc: object) -> None:
        try:
            self._reader.cancel()
            await self._ws.close()
            await self._http.close()
        finally:
            if self._proc is not None:
                self._proc.terminate()
                try:
                    self._proc.wait(10)
                except subprocess.TimeoutExpired:
                    self._proc.kill()
                    self._proc.wait()
            shutil.rmtree(self._profile, ignore_errors=True)


def chromium_missing_reason() -> str | None:
    """Why the browser tests cannot run here, or None when they can."""
    if find_chromium() is None:
        return "no browser: install Debian's `chromium` (and `fonts-noto-cjk` for Chinese)"
    if os.name != "posix":
        return "the browser tests run on Linux"
    return None
