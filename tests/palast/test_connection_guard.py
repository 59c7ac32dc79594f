"""Issue 29's connection attacks in their short form (SPEC §13, "against a determined cheater"),
each against a real server on a loopback port: pings that count, a reader that never reads,
half-open upgrades, many addresses of one network, odd headers.  The long floods with an honest
player's p99 alongside are in ``bench/attacks.py``.

Some clients here bind real loopback addresses (127.0.0.2, 127.0.1.5, …: Linux routes all of
127.0.0.0/8 to the loopback interface) so the server sees them as the peer; others name their
address in ``X-Forwarded-For`` to a server started with ``forwarded`` (a reverse proxy's way).
"""

from __future__ import annotations

import asyncio
import base64
import json
import os
import socket
import struct

import pytest

from spider_tui.palast.server import server as server_module
from spider_tui.palast.server.guard import WRITE_LIMIT, prefix_key
from spider_tui.palast.server.server import Limits

from .test_attacks import connect, player, turned_away, wide


def strict(**kw) -> Limits:
    """The default limits (per peer address, no proxy) but for those a test names."""
    return Limits(**kw)


async def raw_upgrade(port: int, source: str = "127.0.0.1", extra: str = "", rcvbuf: int | None = None):
    """A WebSocket upgrade done by hand from ``source``; (reader, writer, status line)."""
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    if rcvbuf is not None:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, rcvbuf)
    sock.bind((source, 0))
    sock.setblocking(False)
    await asyncio.get_running_loop().sock_connect(sock, ("127.0.0.1", port))
    reader, writer = await asyncio.open_connection(sock=sock)
    key = base64.b64encode(os.urandom(16)).decode()
    writer.write((f"GET / HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                  f"Sec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n{extra}\r\n").encode())
    await writer.drain()
    head = await asyncio.wait_for(reader.readuntil(b"\r\n\r\n"), 30)
    return reader, writer, head.split(b"\r\n", 1)[0].decode()


def frame(opcode: int, payload: bytes) -> bytes:
    """One masked client frame (FIN set)."""
    mask = os.urandom(4)
    n = len(payload)
    if n < 126:
        head = struct.pack("!BB", 0x80 | opcode, 0x80 | n)
    else:
        head = struct.pack("!BBH", 0x80 | opcode, 0x80 | 126, n)
    return head + mask + bytes(b ^ mask[i % 4] for i, b in enumerate(payload))


def hello(name: str) -> bytes:
    return frame(0x1, json.dumps({"type": "hello", "protocol": 1, "name": name, "token": None}).encode())


async def server_drops(palast, writer: asyncio.StreamWriter, then: bytes, timeout: float = 60,
                       at_most: int | None = None) -> bool:
    """Keep writing ``then`` (never reading) until the server has dropped this connection; with
    ``at_most``, it must have dropped it before that many writes."""
    loop = asyncio.get_running_loop()
    end = loop.time() + timeout
    writes = 0
    try:
        while loop.time() < end and (at_most is None or writes < at_most):
            writer.write(then)
            writes += 1
            await asyncio.wait_for(writer.drain(), 30)
            await asyncio.sleep(0.001)  # the server (in this process) reads between writes
    except (ConnectionError, OSError):
        return True  # the server cut it: writing fails
    return False


# ---------------------------------------------------------------- item 2: pings and a reader that never reads
async def test_pings_count_against_the_rate_limit(palast_factory):
    palast = await palast_factory(limits=strict(rate=30, burst=50, address_rate=120, address_burst=200))
    reader, writer, status = await raw_upgrade(palast.server.port)
    assert "101" in status
    writer.write(hello("Pinger"))
    # Pings in tens and nothing read: past the burst of 50, the connection is closed (long
    # before 2,000 pings; before, none was ever counted).
    assert await server_drops(palast, writer, frame(0x9, b"x" * 16) * 10, timeout=60, at_most=200)
    writer.close()


async def test_pings_before_hello_count_too(palast_factory):
    palast = await palast_factory(limits=strict(address_rate=20, address_burst=50))
    _reader, writer, status = await raw_upgrade(palast.server.port)
    assert "101" in status
    assert await server_drops(palast, writer, frame(0x9, b"") * 10, timeout=60, at_most=200)
    writer.close()


async def test_what_a_reader_that_never_reads_holds_is_bounded(palast_factory):
    # Generous rates: only the unread bound can stop it.  The client reads nothing and offers
    # a tiny receive window, so the pongs pile up on the server's side.
    palast = await palast_factory()
    _reader, writer, status = await raw_upgrade(palast.server.port, rcvbuf=4096)
    assert "101" in status
    writer.write(hello("Deaf"))
    peak = 0

    async def watch() -> None:
        nonlocal peak
        while True:
            for ws in list(palast.server._server.connections):  # type: ignore[union-attr]
                peak = max(peak, ws.transport.get_write_buffer_size())
            await asyncio.sleep(0.01)

    watcher = asyncio.create_task(watch())
    try:
        assert await server_drops(palast, writer, frame(0x9, b"p" * 125) * 200, timeout=120)
    finally:
        watcher.cancel()
        writer.close()
    assert peak <= WRITE_LIMIT + 64 * 1024  # at most one read's worth of pongs over the bound


async def test_a_connection_that_doesnt_drain_is_closed(palast_factory, monkeypatch):
    from spider_tui.palast.server import guard

    monkeypatch.setattr(guard, "DRAIN_SECONDS", 0.5)
    palast = await palast_factory()
    _reader, writer, status = await raw_upgrade(palast.server.port, rcvbuf=4096)
    assert "101" in status
    writer.write(hello("Stuck"))
    # Below the unread bound, but more than the kernel takes: the server's buffer stays full.
    assert await server_drops(palast, writer, frame(0x9, b"d" * 125) * 20, timeout=120)
    writer.close()


# ---------------------------------------------------------------- item 6: half-open upgrades
async def test_half_open_upgrades_count_from_accept(palast_factory):
    palast = await palast_factory(limits=strict(per_address=4))
    port = palast.server.port
    half = []
    for _ in range(4):  # accepted, but never send their request
        r, w = await asyncio.open_connection("127.0.0.1", port, local_addr=("127.0.0.7", 0))
        half.append(w)
    loop = asyncio.get_running_loop()
    end = loop.time() + 30
    while palast.server.guard.held.get("127.0.0.7", 0) < 4 and loop.time() < end:
        await asyncio.sleep(0.01)
    _r, w5, status = await raw_upgrade(port, "127.0.0.7")
    assert "429" in status
    w5.close()
    # Another address is not touched.
    _r, w6, status = await raw_upgrade(port, "127.0.0.8")
    assert "101" in status
    w6.close()
    for w in half:
        w.close()


async def test_a_flood_of_half_open_upgrades_is_cut_at_accept(palast_factory):
    palast = await palast_factory(limits=strict(per_address=4))
    port = palast.server.port
    held = []
    for _ in range(40):
        try:
            r, w = await asyncio.open_connection("127.0.0.1", port, local_addr=("127.0.0.9", 0))
            held.append(w)
        except OSError:
            pass
    loop = asyncio.get_running_loop()
    end = loop.time() + 30
    while palast.server.guard.cut < 40 - 8 and loop.time() < end:
        await asyncio.sleep(0.01)
    assert palast.server.guard.held.get("127.0.0.9", 0) <= 8  # twice the limit at the very most
    for w in held:
        w.close()


async def test_a_handshake_must_finish_in_time(palast_factory, monkeypatch):
    monkeypatch.setattr(server_module, "HANDSHAKE_SECONDS", 1.0)
    palast = await palast_factory()
    loop = asyncio.get_running_loop()
    reader, writer = await asyncio.open_connection("127.0.0.1", palast.server.port)
    start = loop.time()
    writer.write(b"GET / HTTP/1.1\r\n")  # and never the rest
    assert await asyncio.wait_for(reader.read(), 60) == b""  # closed by the server
    # The server's own limit (1 s here) closed it, not websockets' default of 10 s.
    assert loop.time() - start < 8
    writer.close()


# ---------------------------------------------------------------- item 7: prefixes
def test_prefix_keys():
    assert prefix_key("203.0.113.77") == "203.0.113.0/24"
    assert prefix_key("2001:db8:1:2::/64") == prefix_key("2001:db8:1:ffff::/64") == "2001:db8:1::/48"
    assert prefix_key("2001:db8:1:2::/64") != prefix_key("2001:db8:2:2::/64")


async def test_a_whole_ipv4_24_counts_against_8_times_the_limit(palast_factory):
    palast = await palast_factory(limits=wide(per_address=2))
    held = [await connect(palast, f"198.51.100.{i}") for i in range(1, 17)]  # 16 = 8 × 2, one each
    assert "your network" in await turned_away(palast, "198.51.100.200", 429)
    other = await player(palast, "Elsewhere", "198.51.101.1")  # the next /24 is another network
    assert other.name == "Elsewhere" and not any(c.closed.is_set() for c in held)


async def test_a_whole_ipv6_48_counts_against_8_times_the_limit(palast_factory):
    palast = await palast_factory(limits=wide(per_address=1))
    held = [await connect(palast, f"2001:db8:7:{i:x}::1") for i in range(8)]  # 8 /64s of one /48
    assert "your network" in await turned_away(palast, "2001:db8:7:ff::1", 429)
    assert (await player(palast, "V6b", "2001:db8:8::1")).name == "V6b"
    assert len(held) == 8


async def test_many_loopback_addresses_of_one_24_share_its_limit(palast_factory):
    # Issue 29's 250 loopback addresses: the peer addresses themselves, no header.
    palast = await palast_factory(limits=strict(per_address=2))
    port = palast.server.port
    held = []
    for i in range(2, 18):  # 16 = 8 × 2
        _r, w, status = await raw_upgrade(port, f"127.0.3.{i}")
        assert "101" in status
        held.append(w)
    _r, w, status = await raw_upgrade(port, "127.0.3.100")
    assert "429" in status
    held.append(w)
    _r, w, status = await raw_upgrade(port, "127.0.4.100")
    assert "101" in status
    held.append(w)
    for w in held:
        w.close()


async def test_new_names_of_one_24_share_8_times_the_limit(palast_factory):
    palast = await palast_factory(limits=wide(names=1))
    for i in range(8):
        assert (await player(palast, f"Net{i}", f"198.51.100.{i + 1}")).name == f"Net{i}"
    c = await connect(palast, "198.51.100.99")
    await c.send_raw(json.dumps({"type": "hello", "protocol": 1, "name": "Net9", "token": None}))
    err = await c.next_event(timeout=30)
    assert err["type"] == "error" and "Too many new names" in err["reason"]


# ---------------------------------------------------------------- item 9: odd headers
@pytest.mark.parametrize("extra", [
    "X-Forwarded-For: 198.51.100.1\r\nX-Forwarded-For: 203.0.113.9\r\n",
    "X-Forwarded-For: not-an-address\r\n",
])
async def test_headers_the_server_doesnt_expect_get_400(palast_factory, extra, caplog):
    palast = await palast_factory(limits=wide())
    _r, w, status = await raw_upgrade(palast.server.port, extra=extra)
    assert " 400 " in status + " "
    w.close()
    assert not any(r.exc_info for r in caplog.records)  # no traceback in the log
    # And the server goes on serving.
    assert (await player(palast, "AfterOdd", "198.51.100.2")).name == "AfterOdd"


async def test_two_host_headers_get_400(palast):
    _r, w, status = await raw_upgrade(palast.server.port, extra="Host: evil.example\r\n")
    assert " 400 " in status + " "
    w.close()


async def test_without_forwarded_for_the_header_is_ignored(palast):
    _r, w, status = await raw_upgrade(palast.server.port, extra="X-Forwarded-For: 1.2.3.4\r\nX-Forwarded-For: 5.6.7.8\r\n")
    assert "101" in status
    w.close()


# ---------------------------------------------------------------- item 14: refusing costs less than serving
async def test_after_a_429_an_address_over_its_limit_is_cut_at_accept(palast_factory):
    palast = await palast_factory(limits=strict(per_address=2))
    port = palast.server.port
    held = [(await raw_upgrade(port, "127.0.0.12"))[1] for _ in range(2)]
    _r, w, status = await raw_upgrade(port, "127.0.0.12")
    assert "429" in status  # told why, once
    w.close()
    cut = palast.server.guard.cut
    for _ in range(20):  # then each further attempt costs an accept and a close, no HTTP
        r, w2 = await asyncio.open_connection("127.0.0.1", port, local_addr=("127.0.0.12", 0))
        assert await asyncio.wait_for(r.read(), 30) == b""
        w2.close()
    assert palast.server.guard.cut - cut == 20
    for x in held:
        x.close()
