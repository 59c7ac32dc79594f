"""The cross-process broker: table events between server processes through PostgreSQL
``LISTEN/NOTIFY`` (SPEC §13, several server processes on one database).

``publish`` delivers to this process's subscribers at once (as ``LocalBroker`` does) and queues
the event for the other processes; a sender task packs what is queued into as few ``NOTIFY``
payloads as fit (each ≤ 7.9 KB), so a burst costs one round trip, not one per event. Each
process tags its payloads with its ``origin`` and skips its own when they come back.

Events from other processes go to ``on_remote(table_id, message)`` (the Palast's sync, which
updates its copy of the table before passing the event to its players) or, without one, straight
to the subscribers. When the listening connection was lost, notifications sent meanwhile are
gone: ``on_reconnect`` is called so the owner re-reads its tables from the database.

The queue to PostgreSQL is bounded: while PostgreSQL is away, older events are dropped (and
``on_reconnect`` later repairs what they would have told).
"""

from __future__ import annotations

import asyncio
import json
import logging
import uuid
from collections import deque
from collections.abc import Awaitable, Callable

import psycopg

from spider_tui.palast import messages as m
from spider_tui.palast.server.broker import LocalBroker, as_object
from spider_tui.palast.server.db.pg_listen import MAX_PAYLOAD, PgListener

log = logging.getLogger("spider.palast")

CHANNEL = "spider_palast"
QUEUE_LIMIT = 20000  # events waiting for PostgreSQL; beyond this the oldest are dropped


class PgBroker(LocalBroker):
    """Table events for every process on one PostgreSQL database."""

    shared = True

    def __init__(self, url: str, channel: str = CHANNEL) -> None:
        super().__init__()
        self.url = url
        self.channel = channel
        self.origin = uuid.uuid4().hex[:12]
        self.on_remote: Callable[[int, dict], None] | None = None
        self.on_reconnect: Callable[[], Awaitable[None] | None] | None = None
        self.dropped = 0
        self._pending: deque[str] = deque()
        self._wake = asyncio.Event()
        self._listener = PgListener(url, channel, self._received, self._reconnected)
        self._sender: asyncio.Task[None] | None = None
        self._conn: psycopg.AsyncConnection | None = None

    async def start(self) -> None:
        """Listen (raises when PostgreSQL can't be reached) and start the sender."""
        await self._listener.start()
        self._sender = asyncio.create_task(self._send_loop(), name="pg-broker-send")

    async def close(self) -> None:
        if self._sender is not None:
            await self.flush(timeout=2)
            self._sender.cancel()
            try:
                await self._sender
            except (asyncio.CancelledError, Exception):  # noqa: BLE001 - closing anyway
                pass
            self._sender = None
        await self._listener.close()
        if self._conn is not None:
            try:
                await self._conn.close()
            except psycopg.Error:
                pass
            self._conn = None

    # -- the Broker seam
    async def send(self, table_id: int, message: dict) -> None:
        self.deliver(table_id, message)
        self._pending.append(json.dumps([table_id, message], separators=(",", ":"), ensure_ascii=False))
        while len(self._pending) > QUEUE_LIMIT:
            self._pending.popleft()
            self.dropped += 1
        self._wake.set()

    async def flush(self, timeout: float = 5) -> None:
        """Wait until everything published so far has been sent to PostgreSQL (tests, shutdown)."""
        async with asyncio.timeout(timeout):
            while self._pending:
                await asyncio.sleep(0.005)

    # -- sending
    async def _send_loop(self) -> None:
        pause = 0.05
        while True:
            if not self._pending:
                self._wake.clear()
                await self._wake.wait()
            try:
                if self._conn is None or self._conn.closed or self._conn.broken:
                    self._conn = await psycopg.AsyncConnection.connect(self.url, autocommit=True, connect_timeout=5)
                batch = self._take_batch()
                await self._conn.execute("SELECT pg_notify(%s, %s)", (self.channel, batch))
                self._commit_batch()
                pause = 0.05
            except psycopg.Error as exc:
                log.warning("broker: can't reach PostgreSQL to send events (%s); retrying", exc)
                await asyncio.sleep(pause)
                pause = min(pause * 2, 2.0)

    def _take_batch(self) -> str:
        """The payload for the events at the head of the queue (as many as fit)."""
        head = f'{{"o":"{self.origin}","e":['
        parts: list[str] = []
        size = len(head) + 2
        for item in self._pending:
            n = len(item.encode()) + 1
            if parts and size + n > MAX_PAYLOAD:
                break
            parts.append(item)
            size += n
        self._batch_len = len(parts)
        if size > MAX_PAYLOAD:  # one event alone is too big to notify: tell the others to re-read
            log.warning("broker: an event of %d bytes is too big to send; sending a resync instead", size)
            return head + json.dumps([0, as_object(m.Resync())]) + "]}"
        return head + ",".join(parts) + "]}"

    def _commit_batch(self) -> None:
        for _ in range(self._batch_len):
            self._pending.popleft()

    # -- receiving
    def _received(self, payload: str) -> None:
        try:
            data = json.loads(payload)
            if data.get("o") == self.origin:
                return
            events = data["e"]
        except (ValueError, KeyError, TypeError, AttributeError):
            log.warning("broker: ignoring a malformed notification")
            return
        for table_id, message in events:
            if self.on_remote is not None:
                self.on_remote(table_id, message)
            else:
                self.deliver(table_id, message)

    async def _reconnected(self) -> None:
        if self.on_reconnect is not None:
            result = self.on_reconnect()
            if asyncio.iscoroutine(result):
                await result
