"""A server connection's frames, the common ones without websockets' per-message machinery
(issue 32: at 1,000 players a message's parser generator, ``Frame``, queue, future and the
reader's wake cost more than answering it).

- **Reading** (``ReadingConnection``): a whole, masked, final text frame on an open connection
  (what every client sends for every message) is cut out of the socket's bytes here, unmasked
  and decoded, and put in the connection's ``inbox``, where the connection's task takes it
  (``next_message``) without a future when one is already waiting.  Every other frame (ping,
  pong, close, a fragment, binary, reserved bits, an unmasked frame, one over ``max_size``, text
  that isn't UTF-8) goes to websockets whole and in order, so its checks, limits and answers are
  the same as before; its data messages are read with websockets' ``recv`` in their place in the
  inbox.  The frames are cut out only when websockets' parser stands at a frame's start: the
  request was parsed, nothing else came with it, and nothing came before the handshake ended.
  The inbox pauses reading above ``max_queue`` messages, as websockets' own queue does.
- **Writing** (``text_frame``): a server's text frame is never masked, so its bytes are the
  same for every connection: made once, they are put in websockets' outgoing buffer as they are.
"""

from __future__ import annotations

import asyncio
from collections import deque
from typing import Any

from websockets.asyncio.server import ServerConnection
from websockets.frames import Frame, Opcode
from websockets.protocol import State

from spider_tui.palast.frame_head import frame_head

try:
    from websockets.speedups import apply_mask
except ImportError:  # pragma: no cover - websockets without its C extension
    from websockets.utils import apply_mask

__all__ = ["RECV", "ReadingConnection", "text_frame"]

#: In the inbox: the next message is websockets' (read it with ``recv``).
RECV: Any = object()


def text_frame(data: bytes) -> bytes:
    """One final, unmasked text frame holding ``data`` (a server's frame, RFC 6455 §5.2)."""
    n = len(data)
    if n < 126:
        return bytes((0x81, n)) + data
    if n < 65536:
        return bytes((0x81, 126, n >> 8, n & 0xFF)) + data
    return bytes((0x81, 127)) + n.to_bytes(8, "big") + data


class ReadingConnection(ServerConnection):
    """websockets' server connection whose plain text messages are read where they arrive
    (see the module's text); ``next_message`` gives every data message in order."""

    _scan = False  # frames are cut out of the bytes here
    _ready = False  # the request was parsed and nothing came with it or after it yet
    _fragmented = False  # between the first and the last frame of a fragmented message
    _need = 0  # the length of the frame whose first bytes are held (0: its header isn't whole)
    _waiter: asyncio.Future[None] | None = None
    _paused = False  # reading paused because the inbox is full

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        super().connection_made(transport)
        self.inbox: deque[Any] = deque()
        self._held = bytearray()

    # ---------------------------------------------------------------- the bytes in
    def data_received(self, data: bytes) -> None:
        if not self._scan:
            if self.request is None:
                super().data_received(data)
                if self.request is not None:  # the request ended in these bytes
                    self._ready = not getattr(getattr(self.protocol, "reader", None), "buffer", True)
                return
            if not (self._ready and self.protocol.state is State.OPEN):
                self._ready = False  # bytes before the handshake ended: websockets reads them all
                super().data_received(data)
                return
            self._scan = True
        held = self._held
        if held:
            held += data
            if len(held) < self._need:  # the held frame is still not whole: nothing to look at
                return
            data = bytes(held)
            held.clear()
        self._need = 0
        self._cut(data)

    def _cut(self, data: bytes) -> None:
        size, i, start = len(data), 0, 0  # ``start``: the first byte not yet handed on
        sizes = [n for n in (self.protocol.max_message_size, self.protocol.max_fragment_size) if n is not None]
        limit = min(sizes) if sizes else None  # what websockets would take in a frame of its own
        while i + 2 <= size:
            first, second = data[i], data[i + 1]
            found = frame_head(data, i, size)
            if found is None:
                break
            n, head = found
            if limit is not None and n > limit:  # too long: websockets refuses it and closes
                self._scan = False
                break
            end = i + head + n
            if end > size:
                self._need = end - i
                break  # not whole yet
            if first == 0x81 and second & 0x80 and not self._fragmented:  # FIN, text, no RSV, masked
                try:
                    text = apply_mask(data[i + head:end], data[i + head - 4:i + head]).decode()
                except UnicodeDecodeError:
                    text = None  # websockets refuses it (1007), in its place
                if text is not None:
                    if start < i:
                        super().data_received(data[start:i])  # the frames before it, in order
                        start = i
                    if self.protocol.state is not State.OPEN:  # closing: websockets reads the rest
                        self._scan = False
                        break
                    self._deliver(text)
                    start = end
            else:
                op = first & 0x0F
                if op in (1, 2) and not first & 0x80:
                    self._fragmented = True
                elif op == 0 and first & 0x80:
                    self._fragmented = False
            i = end
        if not self._scan:  # from here on websockets reads every byte
            self._need = 0
            if start < size:
                super().data_received(data[start:])
            return
        if start < i:
            super().data_received(data[start:i])
        if i < size:
            self._held += data[i:]

    def eof_received(self) -> None:
        held, self._scan = bytes(self._held), False
        self._held.clear()
        if held:
            super().data_received(held)  # a frame cut short: websockets says what went wrong
        return super().eof_received()

    def process_event(self, event: Any) -> None:
        if isinstance(event, Frame) and (event.opcode is Opcode.TEXT or event.opcode is Opcode.BINARY):
            self._deliver(RECV)  # websockets assembles it: its place in the order is kept here
        super().process_event(event)

    def connection_lost(self, exc: Exception | None) -> None:
        super().connection_lost(exc)
        self._wake()

    # ---------------------------------------------------------------- the messages out
    def _deliver(self, item: Any) -> None:
        self.inbox.append(item)
        self._wake()
        high = self.max_queue_high
        if high is not None and len(self.inbox) > high and not self._paused:
            self._paused = True
            self.transport.pause_reading()

    def _wake(self) -> None:
        waiter = self._waiter
        if waiter is not None and not waiter.done():
            waiter.set_result(None)

    async def next_message(self) -> str | bytes:
        """The next data message (text as ``str``, binary as ``bytes``), in the order sent;
        raises ``ConnectionClosed`` once the connection is gone and nothing is left to read."""
        inbox = self.inbox
        while not inbox:
            if self.recv_messages.closed:  # gone: websockets raises the right ConnectionClosed
                return await self.recv()
            self._waiter = self.loop.create_future()
            try:
                await self._waiter
            finally:
                self._waiter = None
        item = inbox.popleft()
        high, low = self.max_queue_high, self.max_queue_low
        if low is None:  # as websockets' own queue: a quarter of the high mark
            low = high // 4 if high is not None else 0
        if self._paused and len(inbox) <= low:
            self._paused = False
            self.transport.resume_reading()
        if item is RECV:
            try:
                return await self.recv()
            except asyncio.CancelledError:
                inbox.appendleft(RECV)  # the message stays websockets': read it next time
                raise
        return item
