"""The Palast server (SPEC §13): asyncio + ``websockets`` (17.x, ``websockets.asyncio.server``).

One task per connection reads messages in order; answers and table events are written to the
socket at once, and a client that leaves more than ``WRITE_LIMIT`` bytes unread is disconnected,
so a slow or stuck reader never stalls anyone else.  Every byte from the network is hostile: messages over 4 KB are
refused, a token bucket limits each connection (bursts of 60, then 30 a second; never below
SPEC's 20/50) and then closes it, every field is checked (``protocol.parse``), and no traceback
ever reaches a client.  The first message must be ``hello`` within ``HELLO_SECONDS``.
"""

from __future__ import annotations

import asyncio
import hashlib
import hmac
import json
import logging
import secrets
import time
from typing import Any

from websockets.asyncio.server import Server, ServerConnection, broadcast, serve
from websockets.exceptions import ConnectionClosed
from websockets.protocol import State

from . import protocol
from .broker import Broker
from .db import PlayerRow, Store
from .protocol import Refusal
from .tables import Options, Palast

log = logging.getLogger("spider.palast")

HELLO_SECONDS = 10.0
WRITE_LIMIT = 256 * 1024  # bytes a client may leave unread before it is dropped as too slow
RECEIVE_LIMIT = 64 * 1024  # bigger frames close the connection; 4 KB+ up to this are refused


def token_hash(token: str) -> str:
    """The stored form of a token (a 256-bit random secret, so a plain SHA-256 is enough)."""
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


class RateLimit:
    """A token bucket: ``burst`` messages at once, ``rate`` a second after that."""

    def __init__(self, rate: float, burst: float, clock=time.monotonic):
        self.rate, self.burst, self.clock = rate, burst, clock
        self.tokens, self.last = burst, clock()

    def take(self) -> bool:
        now = self.clock()
        self.tokens = min(self.burst, self.tokens + (now - self.last) * self.rate)
        self.last = now
        if self.tokens < 1:
            return False
        self.tokens -= 1
        return True


class Outbox:
    """A connection's way out: each message is written to the socket at once, in order, without
    a task or a queue per message (``websockets.asyncio.server.broadcast`` to one connection: a
    synchronous write).  What the client has not read yet waits in the transport's write buffer;
    when that holds more than ``WRITE_LIMIT`` bytes the client is too slow and is dropped, so a
    reader that stops never stalls anyone else and never grows the server's memory without end."""

    def __init__(self, ws: ServerConnection):
        self.ws = ws
        self.dropped = False

    def send(self, message: dict | str) -> None:
        """Send one message (a dict, or the JSON text of one already made for several players)."""
        if self.dropped or self.ws.protocol.state is not State.OPEN:
            return
        transport = self.ws.transport
        if transport.get_write_buffer_size() > WRITE_LIMIT:
            log.info("dropping a connection that reads too slowly")
            self.dropped = True
            # No closing handshake: a client that doesn't read would never complete it.
            transport.abort()
            return
        broadcast((self.ws,), message if isinstance(message, str) else protocol.dumps(message))

    async def finish(self) -> None:
        """Give what was written a moment to leave before the connection closes."""
        if self.dropped:
            return
        transport = self.ws.transport
        try:
            async with asyncio.timeout(2):
                while transport.get_write_buffer_size() and not transport.is_closing():
                    await asyncio.sleep(0.01)
        except TimeoutError:
            pass


class PalastServer:
    """``spider server``: the store, the tables and the WebSocket endpoint."""

    def __init__(self, store: Store, host: str = "127.0.0.1", port: int = 8765, *, options: Options | None = None,
                 broker: Broker | None = None, rate: float = 30.0, burst: float = 60.0,
                 max_connections: int = 5000):
        self.store = store
        self.host, self.port = host, port
        cluster = None
        if getattr(broker, "shared", False):  # several processes on one database
            from .cluster import ClusterSync
            from .pg_broker import PgBroker

            assert isinstance(broker, PgBroker)
            shared = broker
            cluster = lambda palast: ClusterSync(palast, shared)  # noqa: E731
        self.palast = Palast(store, broker, options, cluster=cluster)
        self.rate, self.burst = rate, burst
        self._server: Server | None = None
        self._sessions: dict[int, ServerConnection] = {}
        self.max_connections = max_connections
        self._open = 0

    async def start(self) -> None:
        await self.store.open()
        await self.palast.start()
        self._server = await serve(
            self._handle, self.host, self.port, max_size=RECEIVE_LIMIT, max_queue=16,
            ping_interval=20, ping_timeout=20, close_timeout=5, server_header=None,
            compression=None,
        )
        self.port = self._server.sockets[0].getsockname()[1]

    async def serve_forever(self) -> None:
        assert self._server is not None
        await self._server.serve_forever()

    async def stop(self) -> None:
        if self._server is not None:
            self._server.close()
            await self._server.wait_closed()
        await self.palast.stop()
        await self.store.close()

    # ------------------------------------------------------------------ one connection
    async def _handle(self, ws: ServerConnection) -> None:
        if self._open >= self.max_connections:
            await ws.send(protocol.dumps({"type": "error", "reason": "The server is full; try again later."}))
            await ws.close(1013, "server full")
            return
        self._open += 1
        try:
            await self._connection(ws)
        finally:
            self._open -= 1

    async def _connection(self, ws: ServerConnection) -> None:
        out = Outbox(ws)
        player: PlayerRow | None = None
        limit = RateLimit(self.rate, self.burst)
        try:
            while player is None:
                try:
                    async with asyncio.timeout(HELLO_SECONDS):
                        first = await ws.recv()
                except TimeoutError:
                    out.send({"type": "error", "reason": "Say hello first (within 10 seconds)."})
                    return
                if not limit.take():
                    out.send({"type": "error", "reason": "Too many messages: the connection is closed."})
                    return
                if await self._anonymous(first, out):
                    continue  # `league` needs no sign-in
                player = await self._hello(first, out)
                if player is None:
                    return
            async for data in ws:
                if not limit.take():
                    out.send({"type": "error", "reason": "Too many messages: the connection is closed."})
                    return
                try:
                    req = protocol.parse(data)
                    answer = await self.palast.handle(player, req)
                    if req.id is not None:
                        answer["id"] = req.id
                    out.send(answer)
                except Refusal as r:
                    out.send(protocol.refused(r.reason, r.id if r.id is not None else _id_of(data)))
                except ConnectionClosed:
                    raise
                except Exception:
                    log.exception("error answering a message")
                    out.send(protocol.refused("The server could not answer that; try again.", _id_of(data)))
        except ConnectionClosed:
            pass
        finally:
            if player is not None:
                self.palast.disconnect(player.id, out.send)
                if self._sessions.get(player.id) is ws:
                    del self._sessions[player.id]
            await out.finish()
            await ws.close()

    async def _anonymous(self, data: Any, out: Outbox) -> bool:
        """Answer a ``league`` request sent before ``hello`` (read-only, for ``spider league``)."""
        try:
            req = protocol.parse(data)
        except Refusal:
            return False
        if req.type != "league":
            return False
        answer: dict[str, Any] = {"type": "league", "players": await self.palast.league()}
        if req.id is not None:
            answer["id"] = req.id
        out.send(answer)
        return True

    async def _hello(self, data: Any, out: Outbox) -> PlayerRow | None:
        """Sign a player in (or up); on failure send ``error`` and return None (the caller closes)."""
        try:
            req = protocol.parse(data)
        except Refusal as r:
            out.send({"type": "error", "reason": r.reason})
            return None
        if req.type != "hello":
            out.send({"type": "error", "reason": "Say hello first: {\"type\": \"hello\", \"protocol\": 1, \"name\": …, \"token\": …}."})
            return None
        name, token = req["name"], req["token"]
        now = time.time()
        new_token = None
        if token is None:
            new_token = secrets.token_urlsafe(32)
            player = await self.store.register(name, token_hash(new_token), now)
            if player is None:
                out.send({"type": "error", "reason": "That name is taken; pick another or give your token."})
                return None
        else:
            player = await self.store.player_by_name(name)
            if player is None or not hmac.compare_digest(player.token_hash, token_hash(token)):
                out.send({"type": "error", "reason": "Name and token don't match."})
                return None
        old = self._sessions.get(player.id)
        if old is not None:
            # A newer sign-in of the same player takes over (a reconnect).
            asyncio.ensure_future(old.close(4000, "signed in again elsewhere"))
        self._sessions[player.id] = out.ws
        welcome: dict[str, Any] = {"type": "welcome", "name": player.name, "token": new_token}
        if req.id is not None:
            welcome["id"] = req.id
        out.send(welcome)
        self.palast.connect(player.id, out.send)
        for message in await self.palast.resume(player):
            out.send(message)
        return player


def _id_of(data: Any) -> int | None:
    """The ``id`` of a message, if it has a usable one (for refusals of otherwise bad messages)."""
    if isinstance(data, (str, bytes)) and len(data) <= protocol.MAX_MESSAGE:
        try:
            obj = json.loads(data)
        except (ValueError, RecursionError):
            return None
        if isinstance(obj, dict):
            i = obj.get("id")
            if isinstance(i, int) and not isinstance(i, bool) and -(2**53) < i < 2**53:
                return i
    return None
