"""The server's own reading of plain text frames (``palast.server.frames``, issue 32): whatever
way the bytes are cut, every message comes out whole and in order, and every frame it doesn't
read itself (control frames, fragments, binary, too long, not UTF-8, unmasked) is websockets'
as before: the same answers, the same closing codes.

A ``ReadingConnection`` is driven here without a network: its transport keeps what is written,
the handshake is websockets' own (``handshake``), and the client's bytes are made by
websockets' sans-I/O client, so the frames are what a real client sends."""

from __future__ import annotations

import asyncio

import pytest
from websockets.client import ClientProtocol
from websockets.exceptions import ConnectionClosed
from websockets.frames import Frame, Opcode
from websockets.protocol import State
from websockets.server import ServerProtocol
from websockets.uri import parse_uri

from spider_tui.palast.server.frames import ReadingConnection, text_frame

LIMIT = 64 * 1024


class Transport(asyncio.Transport):
    """What the connection writes, kept; reading paused or not."""

    def __init__(self) -> None:
        super().__init__()
        self.out = bytearray()
        self.reading = True
        self.closed = False
        self.aborted = False
        self.protocol: ReadingConnection | None = None

    def write(self, data: bytes | bytearray | memoryview) -> None:  # type: ignore[override]
        self.out += data

    def get_write_buffer_size(self) -> int:
        return 0

    def set_write_buffer_limits(self, high: int | None = None, low: int | None = None) -> None:
        pass

    def is_closing(self) -> bool:
        return self.closed

    def can_write_eof(self) -> bool:
        return True

    def write_eof(self) -> None:
        pass

    def pause_reading(self) -> None:
        self.reading = False

    def resume_reading(self) -> None:
        self.reading = True

    def get_extra_info(self, name: str, default: object = None) -> object:
        return ("127.0.0.1", 5555) if name == "peername" else default

    def close(self) -> None:
        if not self.closed:
            self.closed = True
            assert self.protocol is not None
            self.protocol.connection_lost(None)

    def abort(self) -> None:
        self.aborted = True
        self.close()


def fake_server() -> object:
    """What a connection asks of its ``Server``: its handler (here: none) and whether it serves."""
    from types import SimpleNamespace

    return SimpleNamespace(handler=lambda conn: asyncio.sleep(0), handler_tasks=set(), is_serving=lambda: True)


async def opened(max_queue: int = 16) -> tuple[ReadingConnection, ClientProtocol, Transport]:
    """A server connection after a real handshake, and the client that made it."""
    client = ClientProtocol(parse_uri("ws://127.0.0.1/"), max_size=LIMIT)
    conn = ReadingConnection(ServerProtocol(max_size=LIMIT), fake_server(),  # type: ignore[arg-type]
                             ping_interval=None, max_queue=max_queue, close_timeout=1)
    transport = Transport()
    transport.protocol = conn
    conn.connection_made(transport)
    client.send_request(client.connect())
    conn.data_received(b"".join(client.data_to_send()))
    await conn.handshake()
    assert conn.protocol.state is State.OPEN
    client.receive_data(bytes(transport.out))
    assert client.state is State.OPEN
    transport.out.clear()
    return conn, client, transport


def client_bytes(client: ClientProtocol, *messages: str | bytes) -> bytes:
    for message in messages:
        if isinstance(message, str):
            client.send_text(message.encode())
        else:
            client.send_binary(message)
    return b"".join(client.data_to_send())


async def read(conn: ReadingConnection, n: int) -> list[str | bytes]:
    return [await asyncio.wait_for(conn.next_message(), 5) for _ in range(n)]


def server_frames(client: ClientProtocol, transport: Transport) -> list[Frame]:
    client.receive_data(bytes(transport.out))
    transport.out.clear()
    return [e for e in client.events_received() if isinstance(e, Frame)]


#: every length encoding: 7 bits, 16 bits, 64 bits (the limit itself), and an empty message
MESSAGES = ['{"type":"play","id":1,"move":"3>7"}', "é" * 70, "x" * 300, "z" * 60_000, "w" * LIMIT, ""]


@pytest.mark.parametrize("piece", [1, 2, 3, 5, 7, 64, 4096])
async def test_frames_cut_at_every_boundary_come_out_whole_and_in_order(piece):
    """Whole messages of every length encoding (7-bit, 16-bit), cut in pieces of ``piece``
    bytes, every boundary included: the same messages, in order, and read here, not by websockets."""
    conn, client, _transport = await opened(max_queue=1000)
    data = client_bytes(client, *MESSAGES)
    for i in range(0, len(data), piece):
        conn.data_received(data[i:i + piece])
    assert conn._scan  # cut out here: websockets' queue never saw them
    assert len(conn.recv_messages.frames) == 0
    assert await read(conn, len(MESSAGES)) == MESSAGES


async def test_every_split_point_of_two_messages():
    conn, client, _transport = await opened(max_queue=1000)
    texts = ["a" * 130, "b" * 5]
    data = client_bytes(client, *texts)
    for cut in range(len(data) + 1):
        conn.data_received(data[:cut])
        conn.data_received(data[cut:])
        assert await read(conn, 2) == texts, cut


async def test_binary_fragments_and_pings_go_to_websockets_in_their_place():
    """A ping is answered by websockets (a pong), a binary message and a fragmented text are
    assembled by websockets, and every message keeps its place among the ones read here."""
    conn, client, transport = await opened()
    client.send_text(b"one")
    client.send_ping(b"p1")
    client.send_binary(b"\x00\x01two")
    client.send_text(b"thr", fin=False)
    client.send_continuation(b"ee", fin=False)
    client.send_continuation(b"!", fin=True)
    client.send_text(b"four")
    data = b"".join(client.data_to_send())
    for i in range(0, len(data), 3):
        conn.data_received(data[i:i + 3])
    assert await read(conn, 4) == ["one", b"\x00\x01two", "three!", "four"]
    pongs = [f for f in server_frames(client, transport) if f.opcode is Opcode.PONG]
    assert [bytes(f.data) for f in pongs] == [b"p1"]


async def test_a_message_over_the_limit_closes_with_1009():
    conn, client, transport = await opened()
    data = client_bytes(client, "ok", "x" * (LIMIT + 1))
    conn.data_received(data[:20])
    conn.data_received(data[20:])
    assert await read(conn, 1) == ["ok"]
    closes = [f for f in server_frames(client, transport) if f.opcode is Opcode.CLOSE]
    assert closes and closes[0].data[:2] == (1009).to_bytes(2, "big")
    transport.close()
    with pytest.raises(ConnectionClosed):
        await read(conn, 1)


async def test_text_that_is_not_utf8_closes_with_1007_after_the_messages_before_it():
    conn, client, transport = await opened()
    client.send_text(b"before")
    client.send_text(b"\xff\xfe not text")
    conn.data_received(b"".join(client.data_to_send()))
    assert await read(conn, 1) == ["before"]
    reader = asyncio.ensure_future(conn.next_message())
    for _ in range(100):  # until websockets has failed the connection
        if transport.out:
            break
        await asyncio.sleep(0)
    closes = [f for f in server_frames(client, transport) if f.opcode is Opcode.CLOSE]
    assert closes and closes[0].data[:2] == (1007).to_bytes(2, "big")
    transport.close()
    with pytest.raises(ConnectionClosed):
        await asyncio.wait_for(reader, 5)


async def test_an_unmasked_frame_is_refused_by_websockets():
    """A client's frame must be masked (RFC 6455 §5.1): websockets closes with 1002."""
    conn, client, transport = await opened()
    conn.data_received(text_frame(b"unmasked"))
    closes = [f for f in server_frames(client, transport) if f.opcode is Opcode.CLOSE]
    assert closes and closes[0].data[:2] == (1002).to_bytes(2, "big")
    assert len(conn.inbox) == 0


async def test_the_close_handshake_and_the_messages_before_it():
    """Messages sent before a close are still read, then ``next_message`` raises; the server
    answered the close."""
    conn, client, transport = await opened()
    client.send_text(b"leave")
    client.send_close(1000, "bye")
    conn.data_received(b"".join(client.data_to_send()))
    assert conn.protocol.state is not State.OPEN
    closes = [f for f in server_frames(client, transport) if f.opcode is Opcode.CLOSE]
    assert closes and closes[0].data[:2] == (1000).to_bytes(2, "big")
    transport.close()
    assert await read(conn, 1) == ["leave"]
    with pytest.raises(ConnectionClosed):
        await read(conn, 1)


async def test_a_full_inbox_pauses_reading_until_it_is_read():
    """As websockets' own queue (``max_queue``): past 16 unread messages reading pauses, and
    resumes once they are down to a quarter."""
    conn, client, transport = await opened(max_queue=16)
    conn.data_received(client_bytes(client, *[str(i) for i in range(17)]))
    assert not transport.reading
    assert await read(conn, 12) == [str(i) for i in range(12)]
    assert not transport.reading  # 5 left
    assert await read(conn, 1) == ["12"]
    assert transport.reading  # 4 left


async def test_bytes_before_the_handshake_ended_are_left_to_websockets():
    """A client that doesn't wait for the 101: websockets reads every byte of that connection
    (its parser may stand inside a frame), and its messages still come, in order."""
    client = ClientProtocol(parse_uri("ws://127.0.0.1/"), max_size=LIMIT)
    conn = ReadingConnection(ServerProtocol(max_size=LIMIT), fake_server(),  # type: ignore[arg-type]
                             ping_interval=None, close_timeout=1)
    transport = Transport()
    transport.protocol = conn
    conn.connection_made(transport)
    client.send_request(client.connect())
    request = b"".join(client.data_to_send())
    conn.data_received(request)
    client.state = State.OPEN  # as if it took the handshake for done
    early = client_bytes(client, "early", "second")
    conn.data_received(early[:3])
    await conn.handshake()
    conn.data_received(early[3:])
    assert not conn._scan
    assert await read(conn, 2) == ["early", "second"]


def test_text_frame_is_the_frame_websockets_writes():
    from websockets.protocol import SERVER, Protocol

    for n in (0, 1, 125, 126, 127, 65535, 65536, 70_000):
        server = Protocol(SERVER)
        server.send_text(b"a" * n)
        assert text_frame(b"a" * n) == b"".join(server.data_to_send()), n
