"""A browser tab without the browser: loads ``attn-tui serve``'s page and speaks textual-serve's
websocket protocol as textual.js does (``["stdin", keys]``, ``["resize", size]``; the app's
output arrives as binary frames). What it "sees" is the output with escape sequences removed,
which holds every run of text the app draws. Used by the server tests and the load benchmark.
"""

from __future__ import annotations

import asyncio
import codecs
import json
import re
import time

import aiohttp

ANSI = re.compile(r"\x1b\[[0-9;?<>=]*[ -/]*[@-~]|\x1b[()][0-9A-Za-z]|\x1b[=>]|\x1b\][^\x07]*\x07")
WS_URL = re.compile(r'data-session-websocket-url="([^"]+)"')


class Refused(Exception):
    def __init__(self, status: int, page: str) -> None:
        super().__init__(f"{status}: {page[:200]}")
        self.status, self.page = status, page


class Tab:
    def __init__(self, http: aiohttp.ClientSession, base: str, **query: str) -> None:
        self.http, self.base, self.query = http, base, query
        self.seen = ""
        self.ws: aiohttp.ClientWebSocketResponse | None = None
        self.closed = asyncio.Event()
        self._reader: asyncio.Task | None = None
        self._changed = asyncio.Event()

    async def page(self) -> str:
        """The page's websocket address; Refused when the server answers with another page."""
        async with self.http.get(self.base, params=self.query) as reply:
            text = await reply.text()
            if reply.status != 200:
                raise Refused(reply.status, text)
        return WS_URL.search(text).group(1)

    async def open(self, width: int = 100, height: int = 30) -> Tab:
        url = await self.page()
        origin = self.base.rstrip("/")  # as a browser sends it: the page's own origin
        self.ws = await self.http.ws_connect(f"{url}?width={width}&height={height}",
                                             max_msg_size=0, origin=origin)  # fmt: skip
        await self.ws.send_str(json.dumps(["resize", {"width": width, "height": height}]))
        self._reader = asyncio.create_task(self._read())
        return self

    async def _read(self) -> None:
        # One frame of output may come in several messages, split anywhere: inside a
        # character (× is two bytes) or an escape sequence. Both are carried over to the next
        # message, so that the text read is the text drawn.
        decode = codecs.getincrementaldecoder("utf-8")("replace").decode
        pending = ""
        async for msg in self.ws:
            if msg.type == aiohttp.WSMsgType.BINARY:
                text = pending + decode(msg.data)
                cut = text.rfind("\x1b")
                if cut >= 0 and len(text) - cut < 64 and not ANSI.match(text, cut):
                    text, pending = text[:cut], text[cut:]  # an escape sequence, unfinished
                else:
                    pending = ""
                self.seen = (self.seen + ANSI.sub("", text))[-200_000:]
                self._changed.set()
        self.closed.set()
        self._changed.set()

    async def wait_for(self, text: str, timeout: float = 60) -> None:
        deadline = time.monotonic() + timeout
        while text not in self.seen:
            left = deadline - time.monotonic()
            if left <= 0 or self.closed.is_set():
                raise AssertionError(f"never saw {text!r}; last output: {self.seen[-500:]!r}")
            self._changed.clear()
            try:
                await asyncio.wait_for(self._changed.wait(), left)
            except TimeoutError:
                pass

    async def keys(self, data: str) -> None:
        await self.ws.send_str(json.dumps(["stdin", data]))

    async def close(self) -> None:
        if self.ws is not None:
            await self.ws.close()
        if self._reader is not None:
            self._reader.cancel()
