"""A headless Palast client (SPEC §13): connect, hello, tables, open/join, play; table events
as an async iterator.  Used by the bots, the tests and (next) the app.

>>> async def main():                                           # doctest: +SKIP
...     async with await PalastClient.connect("ws://127.0.0.1:8765") as c:
...         await c.hello("Anna", None)
...         table = (await c.join(table=(await c.tables())[0]["id"]))["table"]
...         async for event in c.events():
...             ...

Requests carry an ``id``; their answer (``welcome``, ``tables``, ``joined``, ``played``,
``refused`` …) resolves the request's future.  Everything else (``round``, ``progress``,
``round_over``, ``table_over``, ``table``, and ``joined``/``round`` after a reconnect) goes to
``events()``.  A refusal raises ``Refused`` unless ``request(..., check=False)``.
"""

from __future__ import annotations

import asyncio
import itertools
import json
from collections.abc import AsyncIterator
from typing import Any

from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed


class Refused(Exception):
    """The server refused a request; ``reason`` says why (``message`` is the whole answer)."""

    def __init__(self, message: dict):
        super().__init__(message.get("reason", "refused"))
        self.reason = str(message.get("reason", ""))
        self.message = message


class PalastClient:
    def __init__(self, ws: ClientConnection):
        self.ws = ws
        self.name: str | None = None
        self.token: str | None = None
        self._ids = itertools.count(1)
        self._pending: dict[int, asyncio.Future] = {}
        self._events: asyncio.Queue[dict | None] = asyncio.Queue()
        self.closed: asyncio.Event = asyncio.Event()
        self.received: list[dict] = []  # every message, in order (tests check them all)
        self.keep_received = False
        self._reader = asyncio.ensure_future(self._read())

    @classmethod
    async def connect(cls, url: str, **kwargs: Any) -> "PalastClient":
        ws = await connect(url, max_size=2**20, open_timeout=10, **kwargs)
        return cls(ws)

    async def __aenter__(self) -> "PalastClient":
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.close()

    async def close(self) -> None:
        await self.ws.close()
        try:
            await asyncio.wait_for(self._reader, 5)
        except (asyncio.TimeoutError, asyncio.CancelledError):
            self._reader.cancel()

    async def _read(self) -> None:
        try:
            async for data in self.ws:
                try:
                    msg = json.loads(data)
                except (ValueError, RecursionError):
                    continue  # not a message: a hostile or broken server; nothing to answer
                if not isinstance(msg, dict):
                    continue
                if self.keep_received:
                    self.received.append(msg)
                msg_id = msg.get("id")
                fut = self._pending.pop(msg_id, None) if isinstance(msg_id, int) else None
                if fut is not None and not fut.done():
                    fut.set_result(msg)
                else:
                    self._events.put_nowait(msg)
        except ConnectionClosed:
            pass
        finally:
            self.closed.set()
            for fut in self._pending.values():
                if not fut.done():
                    fut.set_exception(ConnectionError("the server closed the connection"))
            self._pending.clear()
            self._events.put_nowait(None)

    async def send_raw(self, data: str | bytes) -> None:
        """Send anything (tests use it for bad messages)."""
        await self.ws.send(data)

    async def request(self, type: str, check: bool = True, timeout: float = 30, **fields: Any) -> dict:
        """Send ``{type, id, **fields}`` and wait for its answer."""
        if self.closed.is_set():
            raise ConnectionError("the connection is closed")
        msg_id = next(self._ids)
        fut: asyncio.Future = asyncio.get_running_loop().create_future()
        self._pending[msg_id] = fut
        await self.ws.send(json.dumps({"type": type, "id": msg_id, **fields}))
        answer = await asyncio.wait_for(fut, timeout)
        if check and answer.get("type") in ("refused", "error"):
            raise Refused(answer)
        return answer

    async def hello(self, name: str, token: str | None) -> dict:
        """Sign in (``token`` None registers ``name``); keeps the token the server returns."""
        answer = await self.request("hello", protocol=1, name=name, token=token)
        self.name = answer["name"]
        self.token = answer.get("token") or token
        return answer

    async def tables(self) -> list[dict]:
        return (await self.request("tables"))["tables"]

    async def open(self, suits: int = 1, rules: str = "classic", rounds: int = 3, seats: int = 4,
                   private: bool = False) -> dict:
        return await self.request("open", suits=suits, rules=rules, rounds=rounds, seats=seats, private=private)

    async def join(self, table: int | None = None, code: str | None = None) -> dict:
        return await self.request("join", **({"code": code} if code is not None else {"table": table}))

    async def leave(self) -> dict:
        return await self.request("leave")

    async def start(self) -> dict:
        return await self.request("start")

    async def ready(self) -> dict:
        return await self.request("ready")

    async def play(self, move: str, check: bool = False) -> dict:
        """Play ``move`` (§3 move text, ``deal``, ``joker>N``, ``undo``, ``give up``): the
        ``played`` or ``refused`` answer (raises on refusal only with ``check``)."""
        return await self.request("play", check=check, move=move)

    async def league(self) -> list[dict]:
        return (await self.request("league"))["players"]

    async def next_event(self, timeout: float | None = None) -> dict | None:
        """The next event, or None when the connection closed."""
        return await asyncio.wait_for(self._events.get(), timeout)

    async def events(self) -> AsyncIterator[dict]:
        """Every event until the connection closes."""
        while True:
            msg = await self._events.get()
            if msg is None:
                self._events.put_nowait(None)
                return
            yield msg

    async def wait_for(self, type: str, timeout: float = 30, **match: Any) -> dict:
        """Skip events until one of ``type`` (with fields equal to ``match``) arrives."""
        async def find() -> dict:
            async for ev in self.events():
                if ev.get("type") == type and all(ev.get(k) == v for k, v in match.items()):
                    return ev
            raise ConnectionError(f"the connection closed before a {type!r} event")

        return await asyncio.wait_for(find(), timeout)
