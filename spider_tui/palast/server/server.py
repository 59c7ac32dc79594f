"""The Palast server (SPEC §13): asyncio + ``websockets`` (17.x, ``websockets.asyncio.server``).

One task per connection reads messages in order; answers and table events are written to the
socket at once, and a client that would leave more than ``WRITE_LIMIT`` bytes unread (the message
being written included) is disconnected, so a slow or stuck reader never stalls anyone else.
Every byte from the network is hostile: messages over 4 KB and binary frames are refused, every
field is checked (``messages.read_client``), and no traceback ever reaches a client. Messages
stay objects of their classes (``messages``) up to the socket, where ``Outbox.send`` writes them.

The limits (``Limits``; docs/security.md lists them): before ``hello`` only ``hello`` is read
(and one anonymous ``league``), within ``HELLO_SECONDS`` of connecting, a deadline nothing
extends; connections at once per address; a token bucket per player and one per address (bursts
of 50 then 30 a second per player: SPEC's floor is 20 a second with bursts of 50), kept across
connections so a reconnect doesn't refill them, then the connection is closed; new names per
address per hour; waiting tables opened per address.
"""

from __future__ import annotations

import asyncio
import hashlib
import hmac
import json
import logging
import secrets
import time
from dataclasses import dataclass
from http import HTTPStatus
from typing import Any

from websockets.asyncio.server import Server, ServerConnection, serve
from websockets.exceptions import ConnectionClosed
from websockets.http11 import Request, Response
from websockets.protocol import State

from spider_tui.palast import messages as m, names, protocol
from spider_tui.palast import KEY_HEADER
from spider_tui.palast.server.broker import Broker
from spider_tui.palast.server.guard import (DRAIN_MARK, HANDSHAKE_SECONDS, PREFIX_FACTOR, WRITE_LIMIT, Guard,
                                            GuardedConnection, address_key, connection_class, prefix_key)
from spider_tui.palast.server.db import PlayerRow, Store
from spider_tui.palast.server.frames import ReadingConnection, text_frame
from spider_tui.palast.protocol import Refusal
from spider_tui.palast.reasons import message_in_language
from spider_tui.palast.server.house import HouseBots
from spider_tui.palast.server.lobby import Options, Palast

log = logging.getLogger("spider.palast")

HELLO_SECONDS = 10.0
FLOOD_CLOSE_SECONDS = 0.5  # the closing handshake of a connection closed for flooding
RECEIVE_LIMIT = 64 * 1024  # bigger frames close the connection; 4 KB+ up to this are refused


def token_hash(token: str) -> str:
    """The stored form of a token (a 256-bit random secret, so a plain SHA-256 is enough)."""
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


@dataclass
class Limits:
    """What one address and one player may do (SPEC §13 Fair play; ``spider server`` options).
    The defaults let a family or a small club share an address; an operator behind a reverse
    proxy sets ``forwarded`` so the address is the player's, not the proxy's."""

    connections: int = 5000  # connections at once, all addresses together
    per_address: int = 32  # connections at once from one address
    rate: float = 30.0  # messages a second per player, after its burst (SPEC: never below 20)
    burst: float = 50.0  # SPEC: bursts of 50
    address_rate: float = 120.0  # messages a second from one address (all its players)
    address_burst: float = 200.0
    names: int = 20  # new names one address may register per ``names_seconds``
    names_seconds: float = 3600.0
    tables: int = 10  # tables opened from one address that wait to start at once
    forwarded: bool = False  # take the address from X-Forwarded-For (a trusted reverse proxy)
    key: str | None = None  # a private server (the embedded Palast): only who presents it gets in


class RateLimit:
    """A token bucket: ``burst`` messages at once, ``rate`` a second after that."""

    def __init__(self, rate: float, burst: float, clock=time.monotonic):
        self.rate, self.burst, self.clock = rate, burst, clock
        self.tokens, self.last = burst, clock()

    def take(self, now: float | None = None) -> bool:
        if now is None:
            now = self.clock()
        if now > self.last:  # a ``now`` read before the bucket was made never takes tokens away
            self.tokens = min(self.burst, self.tokens + (now - self.last) * self.rate)
            self.last = now
        if self.tokens < 1:
            return False
        self.tokens -= 1
        return True

    def full(self) -> bool:
        """Whether the bucket has refilled (then it can be forgotten: a new one is the same)."""
        return self.tokens + (self.clock() - self.last) * self.rate >= self.burst


class Buckets:
    """One ``RateLimit`` per key (a player id, an address), kept across connections; buckets
    that have refilled are forgotten now and then, so the memory stays bounded by the active."""

    def __init__(self, rate: float, burst: float):
        self.rate, self.burst = rate, burst
        self._buckets: dict[Any, RateLimit] = {}
        self._swept = time.monotonic()

    def take(self, key: Any) -> bool:
        now = time.monotonic()
        b = self._buckets.get(key)
        if b is None:
            b = self._buckets[key] = RateLimit(self.rate, self.burst)
        ok = b.take(now) if b.clock is time.monotonic else b.take()
        if now - self._swept > 60:
            self._swept = now
            self._buckets = {k: v for k, v in self._buckets.items() if not v.full()}
        return ok


#: The last shared text framed and its frame (a table's event goes to each of its seats in turn).
_last_framed: list[Any] = [None, b""]


class Outbox:
    """A connection's way out, without a task or a queue per message.  Each message is framed at
    once, in order, into the connection's outgoing buffer, and everything framed during one turn
    of the event loop leaves in one write (``flush``, called soon after the first): an action that
    tells a player several things costs one system call, not one a message.  What the client has
    not read yet waits in the transport's write buffer; when that and what is framed hold more than
    ``WRITE_LIMIT`` bytes the client is too slow and is dropped, so a reader that stops never
    stalls anyone else and never grows the server's memory without end."""

    def __init__(self, ws: ServerConnection):
        self.ws = ws
        self.dropped = False
        self.lang: str | None = None  # the language of the client's reasons (``lang`` in ``hello``)
        self.framed = 0  # bytes framed since the last flush
        self.writes = 0  # writes to the socket so far (what coalescing saves shows here)
        self.held: list[m.Message | str] | None = None  # while a sign-in's resume is read: events wait

    def send(self, message: m.Message | str) -> None:
        """Send one message (or the JSON text of one already made for several players: its
        frame is made once for all of them, a server's frame being the same on every connection)."""
        if self.held is not None:
            self.held.append(message)
            return
        ws = self.ws
        if self.dropped or ws.protocol.state is not State.OPEN or ws.send_in_progress is not None:
            return
        if self.lang is not None:
            message = message_in_language(message, self.lang)
        if message is _last_framed[0]:
            frame = _last_framed[1]
        else:
            frame = text_frame((message if isinstance(message, str) else protocol.dumps(message)).encode("utf-8"))
            if isinstance(message, str):
                _last_framed[:] = [message, frame]
        # The message counts before it is queued: what waits unread may never pass the limit.
        if ws.transport.get_write_buffer_size() + self.framed + len(frame) > WRITE_LIMIT:
            log.info("dropping a connection that reads too slowly")
            self.dropped = True
            # No closing handshake: a client that doesn't read would never complete it.
            ws.transport.abort()
            return
        # What ``protocol.send_text`` would queue (no extension is ever negotiated: no
        # compression), without a ``Frame`` and its serialisation for each connection.
        ws.protocol.writes.append(frame)
        if not self.framed:
            asyncio.get_running_loop().call_soon(self.flush)
        self.framed += len(frame)

    def flush(self) -> None:
        """Write what was framed since the last flush, in one write (websockets may have written
        it already, with a pong or a close of its own: then there is nothing left)."""
        self.framed = 0
        ws = self.ws
        if self.dropped or ws.transport.is_closing():
            return
        chunks = ws.protocol.data_to_send()
        if any(not c for c in chunks):  # the end of the stream is in there: websockets' own way
            for c in chunks:
                if c:
                    ws.transport.write(c)
                elif ws.transport.can_write_eof():
                    ws.transport.write_eof()
            return
        if chunks:
            ws.transport.write(b"".join(chunks))
            self.writes += 1

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
                 broker: Broker | None = None, rate: float | None = None, burst: float | None = None,
                 max_connections: int | None = None, limits: Limits | None = None):
        self.store = store
        self.host, self.port = host, port
        cluster = None
        if getattr(broker, "shared", False):  # several processes on one database
            from spider_tui.palast.server.cluster import ClusterSync
            from spider_tui.palast.server.pg_broker import PgBroker

            assert isinstance(broker, PgBroker)
            shared = broker
            cluster = lambda palast: ClusterSync(palast, shared)  # noqa: E731
        opts = options or Options()
        house = None
        if opts.house_bots_after is not None:
            after, pace = opts.house_bots_after, opts.house_bot_pace
            house = lambda palast: HouseBots(palast, after, pace)  # noqa: E731
        self.palast = Palast(store, broker, opts, cluster=cluster, house=house)
        lim = limits or Limits()
        if rate is not None:
            lim.rate = rate
        if burst is not None:
            lim.burst = burst
        if max_connections is not None:
            lim.connections = max_connections
        self.limits = lim
        self._players = Buckets(lim.rate, lim.burst)  # per player id, across connections
        self._addresses = Buckets(lim.address_rate, lim.address_burst)  # per address
        self._names = Buckets(lim.names / lim.names_seconds, lim.names)  # new names per address
        # A whole IPv4 /24 or IPv6 /48 together: PREFIX_FACTOR × the per-address limits (SPEC §13).
        self._networks = Buckets(PREFIX_FACTOR * lim.address_rate, PREFIX_FACTOR * lim.address_burst)
        self._network_names = Buckets(PREFIX_FACTOR * lim.names / lim.names_seconds, PREFIX_FACTOR * lim.names)
        self.guard = Guard(lim, take=self._control_frame)
        self._opened: dict[str, set[int]] = {}  # address, or "net " + prefix -> tables opened from it (pruned when asked)
        self._server: Server | None = None
        self._sessions: dict[int, ServerConnection] = {}

    async def start(self) -> None:
        await asyncio.to_thread(names.skeleton, "")  # reads the TR39 table (~0.1 s) off the event loop
        await self.store.open()
        await self.palast.start()
        self._server = await serve(
            self._handle, self.host, self.port, max_size=RECEIVE_LIMIT, max_queue=16, process_request=self._admit,
            ping_interval=20, ping_timeout=20, close_timeout=5, server_header=None,
            compression=None, open_timeout=HANDSHAKE_SECONDS, write_limit=(DRAIN_MARK, 0),
            create_connection=connection_class(self.guard),
        )
        self.port = self._server.sockets[0].getsockname()[1]
        if self.palast.options.address is None:  # the records' `palast:` header (SPEC §16)
            self.palast.options.address = f"ws://{self.host}:{self.port}"

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
    def address(self, ws: ServerConnection, request: Request | None = None) -> str:
        """The client's address: the peer's, or behind a trusted reverse proxy (``forwarded``)
        the last one in ``X-Forwarded-For`` (the one the proxy added)."""
        key = getattr(ws, "key", None)
        if key is not None and (request is None or not self.limits.forwarded):
            return key
        peer = str(ws.remote_address[0]) if ws.remote_address else "?"
        request = request or ws.request
        if self.limits.forwarded and request is not None:
            lines = request.headers.get_all("X-Forwarded-For")
            if len(lines) == 1:
                last = lines[0].split(",")[-1].strip()
                if last and len(last) <= 64:
                    peer = last
        return address_key(peer)

    def _admit(self, ws: ServerConnection, request: Request) -> Response | None:
        """Before the WebSocket handshake (``process_request``): a connection over the limits is
        turned away with a plain HTTP answer, which costs the server far less than a handshake,
        an ``error`` message and a closing handshake (a flood of them stalled everyone).  The
        connection already counts (from accept, ``guard``).  A request with headers the server
        doesn't expect (two ``X-Forwarded-For`` lines, say) gets 400, never a 500."""
        try:
            bad = unexpected_headers(request, self.limits.forwarded)
            if bad:
                return ws.respond(HTTPStatus.BAD_REQUEST, bad + "\n")
            if self.limits.key is not None:
                given = request.headers.get_all(KEY_HEADER)
                if len(given) != 1 or not hmac.compare_digest(given[0].encode(), self.limits.key.encode()):
                    return ws.respond(HTTPStatus.FORBIDDEN, "This Palast is private to the app that started it; "
                                                            "start your own with spider server.\n")
            key = self.address(ws, request)
            if self.limits.forwarded and isinstance(ws, GuardedConnection):
                ws.count_as(key)
            over = self.guard.over(key)
        except Exception as e:  # a request nobody foresaw: a refusal, not a traceback
            log.info("refusing an odd request: %s", type(e).__name__)
            return ws.respond(HTTPStatus.BAD_REQUEST, "Bad request.\n")
        if over in ("address", "network") and isinstance(ws, GuardedConnection):
            self.guard.turned_away(key, ws.loop.time())
        if over == "address":
            return ws.respond(HTTPStatus.TOO_MANY_REQUESTS, "Too many connections from your address; close some and try again.\n")
        if over == "network":
            return ws.respond(HTTPStatus.TOO_MANY_REQUESTS, "Too many connections from your network; close some and try again.\n")
        if over == "full":
            return ws.respond(HTTPStatus.SERVICE_UNAVAILABLE, "The server is full; try again later.\n")
        return None

    def _control_frame(self, ws: Any, address: str, player_id: int | None) -> bool:
        """A ping or pong takes from the same buckets as a message (SPEC §13)."""
        ok = self._addresses.take(address)
        ok = self._networks.take(prefix_key(address)) and ok
        if player_id is not None:
            ok = self._players.take(player_id) and ok
        return ok

    async def _handle(self, ws: ServerConnection) -> None:
        await self._connection(ws, self.address(ws))

    def _flooding(self, address: str, player_id: int | None, out: Outbox, data: Any) -> bool:
        """Take one message from the address's (and the player's) bucket; on empty, say so
        (echoing the message's ``id``, so a client waiting for its answer hears why)."""
        ok = self._addresses.take(address)
        ok = self._networks.take(prefix_key(address)) and ok
        if player_id is not None:
            ok = self._players.take(player_id) and ok
        if not ok:
            out.send(m.Error(reason="Too many messages: the connection is closed.", id=_id_of(data), code=m.Code.TOO_MANY))
        return not ok

    async def _connection(self, ws: ServerConnection, address: str) -> None:
        out = Outbox(ws)
        receive = ws.next_message if isinstance(ws, ReadingConnection) else ws.recv
        player: PlayerRow | None = None
        deadline = asyncio.get_running_loop().time() + HELLO_SECONDS  # never moved
        anonymous = False
        flooded = False
        try:
            while player is None:
                try:
                    async with asyncio.timeout_at(deadline):
                        first = await receive()
                except TimeoutError:
                    out.send(m.Error(reason="Say hello first (within 10 seconds).", code=m.Code.HELLO_FIRST))
                    return
                if self._flooding(address, None, out, first):
                    flooded = True
                    return
                if not anonymous and await self._anonymous(first, out):
                    anonymous = True  # one `league` without signing in (`spider league`), no more
                    continue
                player = await self._hello(first, out, address)
                if player is None:
                    return
                if isinstance(ws, GuardedConnection):
                    ws.player_id = player.id  # its pings count against the player's bucket too
                self.palast.addresses[player.id] = address
            while True:
                data = await receive()
                if self._flooding(address, player.id, out, data):
                    flooded = True
                    return
                try:
                    if isinstance(data, bytes):
                        raise Refusal("Binary frames are not read: send each message as JSON text.",
                                      code=m.Code.BAD_MESSAGE)
                    req = m.read_client(data)
                    if isinstance(req, m.Open):
                        self._may_open(address, req)
                    answer = await self.palast.handle(player, req)
                    if isinstance(req, m.Open) and isinstance(answer, m.Joined):
                        for key in (address, "net " + prefix_key(address)):
                            self._opened.setdefault(key, set()).add(answer.table.id)
                    answer.id = req.id
                    out.send(answer)
                except Refusal as r:
                    out.send(m.Refused(reason=r.reason, id=r.id if r.id is not None else _id_of(data), code=r.code))
                except ConnectionClosed:
                    raise
                except Exception:
                    log.exception("error answering a message")
                    out.send(m.Refused(reason="The server could not answer that; try again.", id=_id_of(data),
                                        code=m.Code.TRY_AGAIN))
        except ConnectionClosed:
            pass
        finally:
            if player is not None:
                self.palast.disconnect(player.id, out.send)
                if self._sessions.get(player.id) is ws:
                    del self._sessions[player.id]
            await out.finish()
            if flooded:
                # A flood fills the connection's incoming queue, so reading stops and the
                # client's answer to our close is never read: a short wait, not the usual 5 s.
                ws.close_timeout = FLOOD_CLOSE_SECONDS
            await ws.close()

    def _may_open(self, address: str, req: m.Open) -> None:
        """Refuse an ``open`` when this address already has ``limits.tables`` tables waiting, or
        its IPv4 /24 or IPv6 /48 has ``PREFIX_FACTOR`` × that (SPEC §13: many addresses of one
        machine can't multiply the limit)."""
        here = self._waiting(address)
        if here >= self.limits.tables:
            raise Refusal(f"Your address has {here} tables waiting to start; "
                          "join one of them or wait until they start or close.", req.id, code=m.Code.TOO_MANY)
        near = self._waiting("net " + prefix_key(address))
        if near >= PREFIX_FACTOR * self.limits.tables:
            raise Refusal(f"Your network has {near} tables waiting to start; "
                          "join one of them or wait until they start or close.", req.id, code=m.Code.TOO_MANY)

    def _waiting(self, key: str) -> int:
        """How many tables opened from ``key`` (an address, or ``net`` and its prefix) still wait
        to start (the rest are forgotten here)."""
        from spider_tui.palast.server.db import WAITING

        mine = self._opened.get(key)
        if not mine:
            return 0
        waiting = {i for i in mine if (t := self.palast.tables.get(i)) is not None and t.row.state == WAITING}
        if waiting:
            self._opened[key] = waiting
        else:
            del self._opened[key]
        return len(waiting)

    async def _anonymous(self, data: Any, out: Outbox) -> bool:
        """Answer a ``league`` request sent before ``hello`` (read-only, for ``spider league``)."""
        if isinstance(data, bytes):
            return False
        try:
            req = m.read_client(data)
        except Refusal:
            return False
        if not isinstance(req, (m.AskLeague, m.AskDaily)):
            return False
        answer = await self.palast.league_answer(None) if isinstance(req, m.AskLeague) else await self.palast.daily.answer(req, None)
        answer.id = req.id
        out.send(answer)
        return True

    async def _hello(self, data: Any, out: Outbox, address: str = "?") -> PlayerRow | None:
        """Sign a player in (or up); on failure send ``error`` (with the message's ``id``) and
        return None (the caller closes)."""

        def fail(reason: str, msg_id: int | None, code: m.Code | None) -> None:
            out.send(m.Error(reason=reason, id=msg_id, code=code))

        out.lang = _lang_of(data)  # a hello that fails is answered in its language too

        if isinstance(data, bytes):
            fail("Binary frames are not read: send each message as JSON text.", None, m.Code.BAD_MESSAGE)
            return None
        try:
            req = m.read_client(data)
        except Refusal as r:
            fail(r.reason, r.id if r.id is not None else _id_of(data), r.code)
            return None
        if not isinstance(req, m.Hello):
            fail("Say hello first: {\"type\": \"hello\", \"protocol\": 1, \"name\": …, \"token\": …}.", req.id,
                 m.Code.HELLO_FIRST)
            return None
        name, token = req.name, req.token
        now = time.time()
        new_token = None
        if token is None:
            if not (self._names.take(address) and self._network_names.take(prefix_key(address))):
                fail("Too many new names from your address; sign in with your token or try again later.", req.id,
                     m.Code.TOO_MANY_NAMES)
                return None
            new_token = secrets.token_urlsafe(32)
            player = await self.store.register(name, token_hash(new_token), now)
            if player is None:
                fail("That name is taken (or looks like one that is); pick another or give your token.", req.id,
                     m.Code.NAME_TAKEN)
                return None
        else:
            player = await self.store.player_by_name(names.normal(name))
            if player is None and names.normal(name) != name:  # registered before names were NFKC
                player = await self.store.player_by_name(name)
            if player is None or not hmac.compare_digest(player.token_hash, token_hash(token)):
                fail("Name and token don't match.", req.id, m.Code.BAD_TOKEN)
                return None
        old = self._sessions.get(player.id)
        if old is not None:
            # A newer sign-in of the same player takes over (a reconnect).
            asyncio.ensure_future(old.close(4000, "signed in again elsewhere"))
        self._sessions[player.id] = out.ws
        out.send(m.Welcome(name=player.name, token=new_token, id=req.id))
        # Events published while the resume is read wait, so `joined` comes right after `welcome`.
        out.held, told = [], []
        self.palast.connect(player.id, out.send)
        try:
            told = await self.palast.resume(player)
        finally:
            held, out.held = out.held or [], None
            for message in [*told, *held]:
                out.send(message)
        return player


def unexpected_headers(request: Request, forwarded: bool) -> str | None:
    """Why a request's headers can't be taken as they are, or None (SPEC §13: an HTTP 400)."""
    headers = request.headers
    if len(headers.get_all("Host")) > 1:
        return "Bad request: more than one Host header."
    if forwarded:
        lines = headers.get_all("X-Forwarded-For")
        if len(lines) > 1:
            return "Bad request: more than one X-Forwarded-For header."
        if lines:
            import ipaddress

            last = lines[0].split(",")[-1].strip()
            try:
                ipaddress.ip_address(last)
            except ValueError:
                return "Bad request: X-Forwarded-For doesn't end with an address."
    return None


def _lang_of(data: Any) -> str | None:
    """The ``lang`` a ``hello`` asks for, when it is one the server speaks (else None: English)."""
    from spider_tui.i18n import LANGUAGES

    if isinstance(data, str) and len(data) <= protocol.MAX_MESSAGE:
        try:
            obj = json.loads(data)
        except (ValueError, RecursionError):
            return None
        if isinstance(obj, dict) and obj.get("lang") in LANGUAGES:
            return obj["lang"]
    return None


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
