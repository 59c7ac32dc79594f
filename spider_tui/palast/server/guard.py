"""The Palast's connection guard (SPEC §13, "against a determined cheater"): what one connection
may cost the server before it has said a word, and while it never reads.

- A connection counts against its address's limits from the moment it is **accepted**, not after
  the WebSocket handshake, so a flood of half-open upgrades is held to the per-address limit;
  one that goes far past it is cut at once (no HTTP answer at all: refusing costs less than
  serving).  The handshake must finish within ``HANDSHAKE_SECONDS``.
- Limits count an IPv4 address and an IPv6 /64 as one address (``address_key``), and a whole IPv4
  /24 or IPv6 /48 together (``prefix_key``) against ``PREFIX_FACTOR`` × the per-address limit.
- Pings and pongs count against the same buckets as messages; a connection whose outgoing data
  hasn't drained within ``DRAIN_SECONDS`` is closed, and whatever frames it sends, what it holds
  unread never passes ``WRITE_LIMIT``.

``GuardedConnection`` is the ``websockets`` connection class the server creates for every accepted
socket (``serve(create_connection=…)``); ``Guard`` keeps the counts.
"""

from __future__ import annotations

import asyncio
import functools
import ipaddress
import logging
from collections.abc import Callable
from typing import Any

from websockets.frames import Frame, Opcode

from spider_tui.palast.server.frames import ReadingConnection

log = logging.getLogger("spider.palast")

HANDSHAKE_SECONDS = 5.0  # SPEC: a handshake must finish in 5 s
DRAIN_SECONDS = 10.0  # SPEC: outgoing data not drained within 10 s closes the connection
WRITE_LIMIT = 256 * 1024  # SPEC: what a connection may hold unread, whatever frames it sends
PREFIX_FACTOR = 8  # SPEC: a /24 or /48 counts together against 8 × the per-address limit
#: An address turned away (429) is, while still over its limit, cut at accept for this long: it
#: heard the reason once; every further attempt costs the server an accept and a close only.
REFUSED_SECONDS = 10.0
#: The write buffer above which a connection is "not drained" and its clock runs (resumed only
#: once everything has left: low-water mark 0).
DRAIN_MARK = 16 * 1024


@functools.lru_cache(maxsize=8192)  # asked at every message: parsing an address each time cost ~10 % of the CPU
def address_key(address: str) -> str:
    """What the limits per address count by: an IPv4 address, or an IPv6 address's /64 (one
    home or one host gets a whole /64, so single IPv6 addresses cost an attacker nothing).

    >>> address_key("2001:db8:1:2:aaaa::1"), address_key("203.0.113.5"), address_key("::ffff:10.0.0.1")
    ('2001:db8:1:2::/64', '203.0.113.5', '10.0.0.1')
    """
    try:
        ip = ipaddress.ip_address(address)
    except ValueError:
        return address
    if isinstance(ip, ipaddress.IPv6Address):
        if ip.ipv4_mapped is not None:
            return str(ip.ipv4_mapped)
        return str(ipaddress.IPv6Network((ip, 64), strict=False))
    return str(ip)


@functools.lru_cache(maxsize=8192)
def prefix_key(address: str) -> str:
    """The wider group an address belongs to: its IPv4 /24 or its IPv6 /48 (``address`` may be a
    key from ``address_key``).

    >>> prefix_key("203.0.113.5"), prefix_key("2001:db8:1:2::/64"), prefix_key("::ffff:10.0.0.1")
    ('203.0.113.0/24', '2001:db8:1::/48', '10.0.0.0/24')
    """
    text = address.split("/", 1)[0]
    try:
        ip = ipaddress.ip_address(text)
    except ValueError:
        return address
    if isinstance(ip, ipaddress.IPv6Address):
        if ip.ipv4_mapped is not None:
            return str(ipaddress.IPv4Network((ip.ipv4_mapped, 24), strict=False))
        return str(ipaddress.IPv6Network((ip, 48), strict=False))
    return str(ipaddress.IPv4Network((ip, 24), strict=False))


def is_loopback(address: str) -> bool:
    """Whether an address (or key) is on 127.0.0.0/8 or ::1: the host's own users (SPEC §13)."""
    try:
        return ipaddress.ip_address(address.split("/", 1)[0]).is_loopback
    except ValueError:
        return False


class Guard:
    """Connections held at once, from accept to close: in all, per address, per prefix.

    ``limits`` (the server's ``Limits``, read at each ask) gives ``per_address``, ``connections``
    (in all) and ``forwarded``; a connection past them is answered 429/503 at
    the request (``over``); one past twice the limit (a flood) is cut at accept, costing nothing
    more.  ``forwarded``: the address comes from the request (a reverse proxy), so counting per
    address starts at the request instead (the proxy itself is trusted)."""

    def __init__(self, limits: Any, take: Callable[[Any, str, int | None], bool] | None = None):
        self.limits = limits
        self.take = take  # (connection, address, player id) -> whether a control frame may pass
        self.held: dict[str, int] = {}
        self.open = 0
        self.cut = 0  # connections cut at accept (a figure for the benches)
        self.refused: dict[str, float] = {}  # address -> when it was last turned away (429)

    @property
    def per_address(self) -> int:
        return self.limits.per_address

    @property
    def total(self) -> int:
        return self.limits.connections

    @property
    def forwarded(self) -> bool:
        return self.limits.forwarded

    def prefix_limit(self) -> int:
        return PREFIX_FACTOR * self.per_address

    def count(self, key: str) -> None:
        for k in (key, "net " + prefix_key(key)):
            self.held[k] = self.held.get(k, 0) + 1

    def uncount(self, key: str) -> None:
        for k in (key, "net " + prefix_key(key)):
            left = self.held.get(k, 0) - 1
            if left > 0:
                self.held[k] = left
            else:
                self.held.pop(k, None)

    def over(self, key: str) -> str | None:
        """Which limit a counted connection from ``key`` is past: "address", "network", "full"."""
        if self.held.get(key, 0) > self.per_address:
            return "address"
        if self.held.get("net " + prefix_key(key), 0) > self.prefix_limit():
            return "network"
        if self.open > self.total:
            return "full"
        return None

    def turned_away(self, key: str, now: float) -> None:
        """``key`` was answered 429: further attempts while over the limit are cut at accept."""
        if len(self.refused) > 4096:  # bounded: forget those whose time is up
            self.refused = {k: t for k, t in self.refused.items() if now - t < REFUSED_SECONDS}
        self.refused[key] = now

    def flooding(self, key: str | None, now: float = 0.0) -> bool:
        """Past twice a limit, or over it again soon after a 429: cut without an answer."""
        if self.open > self.total + max(64, self.total // 8):
            return True
        if key is None:
            return False
        held = self.held.get(key, 0)
        if held > self.per_address and now - self.refused.get(key, -REFUSED_SECONDS) < REFUSED_SECONDS:
            return True
        return (held > 2 * self.per_address
                or self.held.get("net " + prefix_key(key), 0) > self.prefix_limit() + 2 * self.per_address)


class GuardedConnection(ReadingConnection):
    """A server connection that counts from accept and keeps a reader that never reads bounded
    (its plain text messages read where they arrive: ``frames.ReadingConnection``).
    ``guard`` is set on a subclass made per server (``connection_class``)."""

    guard: Guard

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        super().connection_made(transport)
        self.key: str | None = None
        self.player_id: int | None = None
        self._drain_timer: asyncio.TimerHandle | None = None
        self._lost = False
        g = self.guard
        g.open += 1
        if not g.forwarded:
            peer = transport.get_extra_info("peername")
            self.key = address_key(str(peer[0])) if peer else "?"
            g.count(self.key)
        if g.flooding(self.key, self.loop.time()):
            g.cut += 1
            self.transport.abort()

    def count_as(self, key: str) -> None:
        """Behind a proxy: the address the request names, counted from now on."""
        if self.key is not None:
            self.guard.uncount(self.key)
        self.key = key
        self.guard.count(key)

    def connection_lost(self, exc: Exception | None) -> None:
        if not self._lost:
            self._lost = True
            self.guard.open -= 1
            if self.key is not None:
                self.guard.uncount(self.key)
            if self._drain_timer is not None:
                self._drain_timer.cancel()
                self._drain_timer = None
        super().connection_lost(exc)

    # -------------------------------------------------------------- a reader that never reads
    def pause_writing(self) -> None:
        super().pause_writing()
        if self._drain_timer is None:
            self._drain_timer = self.loop.call_later(DRAIN_SECONDS, self._not_drained)

    def resume_writing(self) -> None:
        super().resume_writing()
        if self._drain_timer is not None:
            self._drain_timer.cancel()
            self._drain_timer = None

    def _not_drained(self) -> None:
        self._drain_timer = None
        if not self._lost:
            log.info("closing a connection whose data hasn't drained in %.0f s", DRAIN_SECONDS)
            self.transport.abort()

    def data_received(self, data: bytes) -> None:
        super().data_received(data)
        # Pongs and close frames are written without asking: bound them like every message.
        if not self._lost and self.transport.get_write_buffer_size() > WRITE_LIMIT:
            log.info("dropping a connection that holds more than %d bytes unread", WRITE_LIMIT)
            self.transport.abort()

    def process_event(self, event: Any) -> None:
        if (self.request is not None and isinstance(event, Frame)
                and event.opcode in (Opcode.PING, Opcode.PONG) and self.guard.take is not None):
            if not self.guard.take(self, self.key or "?", self.player_id):
                log.info("closing a connection that floods control frames")
                self.transport.abort()
                return
        super().process_event(event)


def connection_class(guard: Guard) -> type[GuardedConnection]:
    """A ``GuardedConnection`` class bound to ``guard`` (for ``serve(create_connection=…)``)."""
    return type("PalastConnection", (GuardedConnection,), {"guard": guard})
