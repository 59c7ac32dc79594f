"""A client that stops reading (a slow consumer) never stalls the table for the others: its
messages wait in a bounded queue, and when that is full the server disconnects it (SPEC §13).

The slow client is a raw socket driven by websockets' sans-I/O protocol, so that nothing reads
for it once it stops (a library connection would keep reading into its own buffers)."""

from __future__ import annotations

import asyncio
import json
import socket

from websockets.client import ClientProtocol
from websockets.frames import Frame
from websockets.uri import parse_uri

from spider_tui.engine import Game


class RawClient:
    """A WebSocket client that reads only when told to."""

    def __init__(self, url: str):
        self.url = url
        self.proto = ClientProtocol(parse_uri(url), max_size=2**22)
        self.sock = socket.socket()
        self.sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
        self.sock.setblocking(False)
        self.loop = asyncio.get_running_loop()
        self.inbox: list[dict] = []

    async def _flush(self) -> None:
        data = b"".join(self.proto.data_to_send())
        if data:
            await asyncio.wait_for(self.loop.sock_sendall(self.sock, data), 5)

    async def open(self) -> None:
        u = parse_uri(self.url)
        await self.loop.sock_connect(self.sock, (u.host, u.port))
        self.proto.send_request(self.proto.connect())
        await self._flush()
        async with asyncio.timeout(10):
            while self.proto.state.name != "OPEN":
                data = await self.loop.sock_recv(self.sock, 65536)
                assert data, "connection closed during the handshake"
                self.proto.receive_data(data)
                self.proto.events_received()

    async def _read_until(self, done) -> None:
        async with asyncio.timeout(10):
            while not done():
                data = await self.loop.sock_recv(self.sock, 65536)
                assert data, "connection closed"
                self.proto.receive_data(data)
                for ev in self.proto.events_received():
                    if isinstance(ev, Frame) and ev.opcode.name == "TEXT":
                        self.inbox.append(json.loads(ev.data))

    async def send(self, msg: dict) -> None:
        self.proto.send_text(json.dumps(msg).encode())
        await self._flush()

    async def ask(self, msg: dict, answer: str) -> dict:
        n = len(self.inbox)
        await self.send(msg)
        await self._read_until(lambda: any(m.get("type") == answer for m in self.inbox[n:]))
        return next(m for m in self.inbox[n:] if m.get("type") == answer)


async def test_a_client_that_stops_reading_is_cut_off_and_the_table_goes_on(palast):
    fast = await palast.player("Fast")
    for i in range(25):  # a busy lobby: each answer to `tables` is some KB, so buffers fill
        host = await palast.player(f"Host{i}", keep=False)
        await host.open(suits=1, rules="classic", rounds=1, seats=2, private=False)
    slow = RawClient(palast.url)
    await slow.open()
    await slow.ask({"type": "hello", "protocol": 1, "name": "Slow", "token": None}, "welcome")
    opened = await fast.open(suits=1, rules="classic", rounds=1, seats=2, private=True)
    await slow.ask({"type": "join", "code": opened["code"]}, "joined")
    await fast.start()
    r = await fast.wait_for("round")

    async def flood() -> int:
        """Ask for the lobby again and again (within the rate limit), reading nothing."""
        sent = 0
        for _ in range(4000):
            try:
                await slow.send({"type": "tables"})
            except (OSError, asyncio.TimeoutError):
                break  # the server has let go of us
            sent += 1
            if sent % 50 == 0:
                await asyncio.sleep(0)
        return sent

    async def play_on() -> dict:
        view, last = Game.from_text(r["position"]), None
        for _ in range(30):
            move = view.hint()
            if move is None:
                break
            last = await fast.play(str(move))
            assert last["type"] == "played", last
            view = Game.from_text(last["position"])
        return last

    sent, last = await asyncio.gather(flood(), play_on())
    assert sent > 0 and last is not None
    # The server let go of Slow (its queue was full): the others see Slow offline; the seat is kept.
    progress = await fast.wait_for("progress", player="Slow", state="offline", timeout=20)
    assert progress["moves"] == 0
    # The table goes on for Fast.
    hint = Game.from_text(last["position"]).hint()
    answer = await fast.play(str(hint) if hint else "give up")
    assert answer["type"] == "played", answer
    slow.sock.close()
