"""The client cuts whole text frames out of the bytes itself (issue 32: the bots' CPU) and hands
every other frame to websockets: whatever way the server's bytes are split or mixed with control
frames and fragments, every message arrives whole, once, in order.  The server is a real
``websockets`` server on 127.0.0.1 that writes hand-made frames on its socket after ``welcome``."""

from __future__ import annotations

import asyncio
import json

import pytest
from websockets.asyncio.server import serve

from spider_tui.palast.client.client import PalastClient


def frame(payload: bytes, op: int = 1, fin: bool = True) -> bytes:
    """One unmasked server frame (RFC 6455 §5.2)."""
    first = (0x80 if fin else 0) | op
    n = len(payload)
    if n < 126:
        head = bytes([first, n])
    elif n < 2**16:
        head = bytes([first, 126]) + n.to_bytes(2, "big")
    else:
        head = bytes([first, 127]) + n.to_bytes(8, "big")
    return head + payload


def closed(i: int, size: int) -> dict:
    return {"type": "closed", "table": i, "reason": "r" * size}


def stream() -> tuple[bytes, list[dict]]:
    """Frames of every kind the client meets, and the messages they carry, in order."""
    sent: list[dict] = []
    out = b""
    for i, size in enumerate((1, 120, 126, 300, 70000, 5), start=1):  # 7-bit, 16-bit and 64-bit lengths
        sent.append(closed(i, size))
        out += frame(json.dumps(sent[-1]).encode())
        if i == 2:
            out += frame(b"are you there", op=9)  # a ping between two messages
        if i == 3:  # a fragmented message with a ping inside it
            sent.append(closed(100, 40))
            text = json.dumps(sent[-1]).encode()
            out += frame(text[:10], op=1, fin=False) + frame(b"!", op=9) + frame(text[10:30], op=0, fin=False)
            out += frame(text[30:], op=0)
        if i == 4:  # a binary message holding JSON is read like text
            sent.append(closed(200, 3))
            out += frame(json.dumps(sent[-1]).encode(), op=2)
    return out, sent


@pytest.mark.parametrize("piece", [0, 1, 7, 125, 4096])
async def test_every_message_arrives_whole_and_in_order_however_the_bytes_are_cut(piece):
    data, sent = stream()

    async def handler(ws) -> None:
        hello = json.loads(await ws.recv())
        await ws.send(json.dumps({"type": "welcome", "name": hello["name"], "token": "t" * 40, "id": hello["id"]}))
        await asyncio.sleep(0.05)
        chunks = [data] if not piece else [data[i:i + piece] for i in range(0, len(data), piece)]
        for n, chunk in enumerate(chunks):
            ws.transport.write(chunk)
            if n % 50 == 0 or len(chunks) < 200:
                await asyncio.sleep(0.001)  # separate reads on the client's side
        async for _ in ws:
            pass

    async with serve(handler, "127.0.0.1", 0) as server:
        url = f"ws://127.0.0.1:{server.sockets[0].getsockname()[1]}"
        c = await PalastClient.connect(url)
        try:
            await c.hello("Frames", None)
            got = []
            for _ in sent:
                ev = await c.next_event(timeout=20)
                assert ev is not None
                got.append(dict(ev))
            assert got == sent
            assert c.unreadable == 0
            assert not c.closed.is_set()  # the pings were answered, nothing broke the connection
        finally:
            await c.close()


async def test_a_text_frame_after_the_close_frame_is_not_read():
    async def handler(ws) -> None:
        hello = json.loads(await ws.recv())
        await ws.send(json.dumps({"type": "welcome", "name": hello["name"], "token": "t" * 40, "id": hello["id"]}))
        await asyncio.sleep(0.05)
        ws.transport.write(frame(json.dumps(closed(1, 2)).encode()) + frame((1000).to_bytes(2, "big") + b"bye", op=8)
                           + frame(json.dumps(closed(2, 2)).encode()))
        await asyncio.sleep(0.5)

    async with serve(handler, "127.0.0.1", 0) as server:
        url = f"ws://127.0.0.1:{server.sockets[0].getsockname()[1]}"
        c = await PalastClient.connect(url)
        await c.hello("Frames", None)
        first = await c.next_event(timeout=10)
        assert first is not None and first["table"] == 1
        assert await c.next_event(timeout=10) is None  # closed: the message after the close frame never comes
        assert c.ws.close_code == 1000 and c.ws.close_reason == "bye"
        await c.close()


async def test_requests_time_out_each_at_its_own_deadline_with_one_timer():
    """One timer a connection: a short request sent after a long one still times out at its
    own deadline, the long one is answered when its answer comes, and a request after that
    times out again."""
    import time

    release = asyncio.Event()

    async def handler(ws) -> None:
        waiting: list[int] = []
        async for raw in ws:
            msg = json.loads(raw)
            if msg["type"] == "hello":
                await ws.send(json.dumps({"type": "welcome", "name": msg["name"], "token": "t" * 40, "id": msg["id"]}))
            elif msg["type"] == "release":
                for msg_id in waiting:
                    await ws.send(json.dumps({"type": "tables", "tables": [], "id": msg_id}))
            elif msg.get("page") == 1:  # the long request: answered on release
                waiting.append(msg["id"])
                release.set()
            # any other request is never answered

    async with serve(handler, "127.0.0.1", 0) as server:
        url = f"ws://127.0.0.1:{server.sockets[0].getsockname()[1]}"
        c = await PalastClient.connect(url)
        try:
            await c.hello("Timers", None)
            long = asyncio.ensure_future(c.request("tables", page=1, timeout=60))
            await release.wait()
            t0 = time.monotonic()
            with pytest.raises(asyncio.TimeoutError):
                await c.request("tables", page=2, timeout=0.2)
            assert time.monotonic() - t0 >= 0.2 - 0.01  # not before its deadline
            assert not long.done()
            await c.send_raw(json.dumps({"type": "release"}))
            assert (await long)["type"] == "tables"
            with pytest.raises(asyncio.TimeoutError):
                await c.request("tables", page=3, timeout=0.2)
        finally:
            await c.close()


@pytest.mark.parametrize("size", [0, 125, 126, 65535, 65536, 200000])
async def test_a_request_of_any_length_reaches_the_server_whole(size):
    """The client writes its text frames itself (masked, RFC 6455 §5.2, 7-, 16- and 64-bit
    lengths); a real websockets server reads them as it reads any."""
    got: list[str] = []

    async def handler(ws) -> None:
        async for raw in ws:
            msg = json.loads(raw)
            got.append(raw)
            await ws.send(json.dumps({"type": "tables", "tables": [], "id": msg["id"]}))

    async with serve(handler, "127.0.0.1", 0, max_size=2**20) as server:
        url = f"ws://127.0.0.1:{server.sockets[0].getsockname()[1]}"
        c = await PalastClient.connect(url)
        try:
            pad = "x" * max(0, size - len('{"type": "tables", "id": 1, "pad": ""}'))
            answer = await c.request("tables", pad=pad + "é")
            assert answer["type"] == "tables"
            assert json.loads(got[0])["pad"] == pad + "é"
        finally:
            await c.close()
