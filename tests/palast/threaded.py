"""A real Palast server in a thread with its own event loop (for snapshot tests, whose app runs
in a loop of its own)."""

from __future__ import annotations

import asyncio
import threading

from spider_tui.palast.server.db import open_store
from spider_tui.palast.server.server import PalastServer

from .conftest import HINT_SOLVES, make_options


class ThreadedPalast:
    def __init__(self, data_dir, port: int = 0, deal: bytes = HINT_SOLVES):
        self.loop = asyncio.new_event_loop()
        self.thread = threading.Thread(target=self.loop.run_forever, daemon=True)
        self.thread.start()
        options = make_options(draw=lambda: deal)
        self.server = PalastServer(open_store(None, data_dir), "127.0.0.1", port, options=options)
        asyncio.run_coroutine_threadsafe(self.server.start(), self.loop).result(30)
        self.url = f"ws://127.0.0.1:{self.server.port}"

    def stop(self) -> None:
        async def stop() -> None:
            # The test's clients ran in an app's loop that is gone: none of them will answer the
            # server's goodbye, which it would wait for (close_timeout, 5 s a test).  Drop them.
            listening = self.server._server
            for ws in list(listening.connections if listening is not None else ()):
                ws.transport.abort()
            await self.server.stop()

        asyncio.run_coroutine_threadsafe(stop(), self.loop).result(30)
        self.loop.call_soon_threadsafe(self.loop.stop)
        self.thread.join(10)
