"""LISTEN/NOTIFY between Palast server processes on one PostgreSQL database.

A server process that accepts an action writes it and, in the same transaction, sends
``pg_notify(channel, payload)``; PostgreSQL delivers the payload to every listening process
only once that transaction has committed, in commit order. ``PgListener`` is the receiving
end: one dedicated connection that LISTENs and hands every payload to a callback on the
event loop. When the connection is lost (PostgreSQL restarted, network cut) it reconnects
with a growing pause and then calls ``on_reconnect`` — notifications sent while it was away
are gone, so the owner re-reads what it serves from the database there.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable

import psycopg
from psycopg import sql

log = logging.getLogger(__name__)

#: PostgreSQL's limit for one NOTIFY payload is 8000 bytes; stay well below it.
MAX_PAYLOAD = 7900


class PgListener:
    """Listen on one channel; call ``on_message(payload)`` for each notification."""

    def __init__(
        self,
        url: str,
        channel: str,
        on_message: Callable[[str], None],
        on_reconnect: Callable[[], Awaitable[None] | None] | None = None,
        *,
        retry_min: float = 0.05,
        retry_max: float = 2.0,
    ) -> None:
        self.url = url
        self.channel = channel
        self.on_message = on_message
        self.on_reconnect = on_reconnect
        self.retry_min = retry_min
        self.retry_max = retry_max
        self.reconnects = 0
        self._task: asyncio.Task[None] | None = None
        self._listening = asyncio.Event()
        self._conn: psycopg.AsyncConnection | None = None

    async def start(self) -> None:
        """Connect and LISTEN; returns once listening (raises if the first connect fails)."""
        conn = await self._connect()
        self._task = asyncio.create_task(self._run(conn), name=f"pg-listen-{self.channel}")

    async def wait_listening(self, timeout: float | None = None) -> None:
        """Wait until the listener is (again) connected and listening."""
        await asyncio.wait_for(self._listening.wait(), timeout)

    @property
    def listening(self) -> bool:
        return self._listening.is_set()

    async def close(self) -> None:
        if self._task is not None:
            self._task.cancel()
            try:
                await self._task
            except (asyncio.CancelledError, Exception):  # noqa: BLE001 - closing anyway
                pass
            self._task = None
        if self._conn is not None:
            await self._conn.close()
            self._conn = None
        self._listening.clear()

    async def _connect(self) -> psycopg.AsyncConnection:
        conn = await psycopg.AsyncConnection.connect(self.url, autocommit=True, connect_timeout=5)
        await conn.execute(sql.SQL("LISTEN {}").format(sql.Identifier(self.channel)))
        self._conn = conn
        self._listening.set()
        return conn

    async def _run(self, conn: psycopg.AsyncConnection) -> None:
        while True:
            try:
                async for note in conn.notifies():
                    try:
                        self.on_message(note.payload)
                    except Exception:  # one bad message never stops the fan-out
                        log.exception("pg listener: handling a notification failed")
            except psycopg.Error as exc:
                log.warning("pg listener lost its connection: %s", exc)
            self._listening.clear()
            try:
                await conn.close()
            except psycopg.Error:
                pass
            conn = await self._reconnect()
            self.reconnects += 1
            if self.on_reconnect is not None:
                try:
                    result = self.on_reconnect()
                    if asyncio.iscoroutine(result):
                        await result
                except Exception:
                    log.exception("pg listener: on_reconnect failed")

    async def _reconnect(self) -> psycopg.AsyncConnection:
        pause = self.retry_min
        while True:
            try:
                return await self._connect()
            except psycopg.Error:
                await asyncio.sleep(pause)
                pause = min(pause * 2, self.retry_max)


async def notify(conn: psycopg.AsyncConnection, channel: str, payload: str) -> None:
    """Queue a notification on ``conn`` (sent when its transaction commits)."""
    if len(payload.encode()) > MAX_PAYLOAD:
        raise ValueError(f"notification payload of {len(payload.encode())} bytes is over {MAX_PAYLOAD}")
    await conn.execute("SELECT pg_notify(%s, %s)", (channel, payload))
