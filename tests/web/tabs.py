"""A browser tab without the browser: textual-serve's websocket protocol, the screen kept by pyte.

The page's script sends ``["stdin", text]`` for keys and ``["resize", {...}]`` for its size, and
writes the binary frames it gets to its terminal; this does the same, with pyte as the terminal.
"""

from __future__ import annotations

import asyncio
import json

import aiohttp
import pyte

WAIT = 30.0  # seconds for the screen to show something (generous: the machine may be busy)


class Tab:
    def __init__(self, session: aiohttp.ClientSession, url: str, width: int = 100, height: int = 30) -> None:
        self.session, self.width, self.height = session, width, height
        self.ws_url = url.replace("http://", "ws://", 1).rstrip("/") + "/ws"
        self.screen = pyte.Screen(width, height)
        self.stream = pyte.ByteStream(self.screen)
        self.ws: aiohttp.ClientWebSocketResponse | None = None
        self._reader: asyncio.Task | None = None
        self.closed = asyncio.Event()

    async def open(self) -> Tab:
        self.ws = await self.session.ws_connect(f"{self.ws_url}?width={self.width}&height={self.height}")
        await self.ws.send_str(json.dumps(["resize", {"width": self.width, "height": self.height}]))
        self._reader = asyncio.create_task(self._read())
        return self

    async def _read(self) -> None:
        async for message in self.ws:
            if message.type == aiohttp.WSMsgType.BINARY:
                self.stream.feed(message.data)
        self.closed.set()

    def lines(self) -> list[str]:
        return list(self.screen.display)

    async def wait_for(self, text: str, timeout: float = WAIT) -> list[str]:
        loop = asyncio.get_running_loop()
        end = loop.time() + timeout
        while text not in "\n".join(self.lines()):
            if loop.time() > end:
                raise AssertionError(f"{text!r} did not show up; the tab shows:\n" + "\n".join(self.lines()))
            await asyncio.sleep(0.05)
        return self.lines()

    async def press(self, *keys: str) -> None:
        for key in keys:
            await self.ws.send_str(json.dumps(["stdin", key]))

    async def close(self) -> None:
        if self.ws is not None:
            await self.ws.close()
        if self._reader is not None:
            await self._reader
