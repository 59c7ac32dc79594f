"""A headless Palast client (SPEC §13): connect, hello, tables, open/join, play; table events
as an async iterator.  Used by the bots, the tests and (next) the app.

>>> async def main():                                           # doctest: +SKIP
...     async with await PalastClient.connect("ws://127.0.0.1:8765") as c:
...         await c.hello("Anna", None)
...         table = (await c.join(table=(await c.tables())[0]["id"]))["table"]
...         async for event in c.events():
...             ...

Requests carry an ``id``; their answer (``welcome``, ``tables``, ``joined``, ``played``,
``refused`` …) resolves the request's future.  Everything else (``round``, ``progress``,
``round_over``, ``table_over``, ``table``, and ``joined``/``round`` after a reconnect) goes to
``events()``.  A refusal raises ``Refused`` unless ``request(..., check=False)``.

Each whole message the server sends is read where it arrives (in the loop's ``data_received``),
not queued for a reader task to wake for: a bot's connection receives five messages an action
(its answer and everybody's progress), and each such wake cost more than reading the message
(issue 32).  The commonest frame, a whole unmasked text frame on an open connection, is cut
out of the bytes here (``Connection.data_received``); every other frame (ping, close, a
fragment, anything odd) goes to websockets whole, in order, as before.  A request is written
at once when the connection is open and its buffer is low, else through websockets' ``send``
(which waits).
"""

from __future__ import annotations

import asyncio
import itertools
import json
import logging
import math
import os
import threading
import weakref
from collections import deque
from collections.abc import AsyncIterator, Callable, Collection
from typing import Any

from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed
from websockets.frames import Frame, Opcode, apply_mask
from websockets.protocol import State

from spider_tui.palast import KEY_HEADER, messages as m
from spider_tui.palast.messages import BadMessage, Message
from spider_tui.palast.frame_head import frame_head


#: Message types the server sends only as events, never as the answer to a request (docs/protocol.md).
EVENT_ONLY = ("progress", "table")
#: A request is written at once while less than this waits in the connection's buffer.
WRITE_AT_ONCE = 2**15
#: The largest message taken from a server (bytes); websockets refuses a longer one.
RECEIVE_LIMIT = 2**20

log = logging.getLogger(__name__)

#: The most a read takes from a socket at once (asyncio's own ``max_size`` for ``recv``).
READ_SIZE = 2**18


class _ReadBuffer(threading.local):
    """One buffer per thread that the loop's reads fill (``Connection.get_buffer``): asyncio's
    plain ``recv(256 KiB)`` allocates and frees 256 KiB for every read, which costs several times
    what the read itself does (issue 32: a bot's connection is read 2–3 times an action)."""

    def __init__(self) -> None:
        self.view = memoryview(bytearray(READ_SIZE))


_READ_BUFFER = _ReadBuffer()


class Connection(ClientConnection, asyncio.BufferedProtocol):
    """websockets' client connection, handing each whole data message to ``deliver`` as it is
    read (text as ``str``, binary as ``bytes``) instead of queueing it for ``recv``: a whole
    text frame is cut out of the bytes here (``data_received``), a fragmented or binary message
    comes through websockets' parser (``process_event``); control frames (ping, pong, close)
    are websockets' as before.  ``lost`` is called once when the connection is gone."""

    deliver: Callable[[str | bytes], None] | None = None
    lost: Callable[[], None] | None = None
    _parts: list[bytes] | None = None
    _text = True
    _scan = False  # whole text frames are cut out of the bytes here (``read_here``)
    _held = b""  # the first bytes of a frame not yet whole
    _fragmented = False  # between the first and the last frame of a fragmented message
    _skip: tuple[bytes, ...] = ()

    def read_here(self, deliver: Callable[[str | bytes], None], lost: Callable[[], None],
                  skip: tuple[bytes, ...] = ()) -> None:
        """Hand each whole message to ``deliver`` from now on, ``lost`` when the connection is
        gone; a text frame starting with one of ``skip`` is dropped unread.  The frames are cut
        out here only when websockets holds no bytes of a frame yet (the handshake is over and
        nothing followed it): else websockets reads them all."""
        self.deliver, self.lost, self._skip = deliver, lost, skip
        buffer = getattr(getattr(self.protocol, "reader", None), "buffer", None)
        self._scan = self.response is not None and isinstance(buffer, bytearray) and not buffer

    def get_buffer(self, sizehint: int) -> memoryview:
        # asyncio reads into it and calls ``buffer_updated`` at once, on this thread
        return _READ_BUFFER.view

    def buffer_updated(self, nbytes: int) -> None:
        self.data_received(bytes(_READ_BUFFER.view[:nbytes]))

    def data_received(self, data: bytes) -> None:
        if not self._scan:
            super().data_received(data)
            return
        if self._held:
            data, self._held = self._held + data, b""
        size, i, start = len(data), 0, 0  # ``start``: the first byte not yet handed on
        while i + 2 <= size:
            first, second = data[i], data[i + 1]
            found = frame_head(data, i, size)
            if found is None:
                break
            n, head = found
            end = i + head + n
            if n > RECEIVE_LIMIT:  # too long: websockets refuses it and closes the connection
                self._scan = False
                break
            if end > size:
                break  # not whole yet
            if first == 0x81 and not second & 0x80 and not self._fragmented:  # FIN, text, no RSV bits
                if start < i:
                    super().data_received(data[start:i])  # the frames before it, in order
                    start = i
                if self.protocol.state is not State.OPEN:  # closing: websockets reads the rest
                    self._scan = False
                    break
                if not (self._skip and data.startswith(self._skip, i + head)):
                    self._deliver(data[i + head:end], True)
                start = end
            else:
                op = first & 0x0F
                if op in (1, 2) and not first & 0x80:
                    self._fragmented = True
                elif op == 0 and first & 0x80:
                    self._fragmented = False
            i = end
        if not self._scan:  # from here on websockets reads every byte
            if start < size:
                super().data_received(data[start:])
            return
        if start < i:
            super().data_received(data[start:i])
        if i < size:
            self._held = data[i:]

    def eof_received(self) -> None:
        held, self._held, self._scan = self._held, b"", False
        if held:
            super().data_received(held)  # a frame cut short: websockets says what went wrong
        super().eof_received()

    def _deliver(self, data: bytes, text: bool) -> None:
        deliver = self.deliver
        if deliver is None:
            return
        message: str | bytes = data
        if text:
            try:
                message = data.decode()
            except UnicodeDecodeError:
                pass  # json.loads refuses it as it would refuse any bytes that aren't JSON
        try:
            deliver(message)
        except Exception:  # noqa: BLE001 - a reader's mistake must not take the connection down
            log.exception("reading a message from the server")

    def process_event(self, event: Any) -> None:
        deliver = self.deliver
        if deliver is None or self.response is None or not isinstance(event, Frame):
            super().process_event(event)  # the handshake's response; a connection nobody reads
            return
        op = event.opcode
        if op is Opcode.TEXT or op is Opcode.BINARY:
            if not event.fin:  # the first frame of a fragmented message
                self._parts, self._text = [bytes(event.data)], op is Opcode.TEXT
                return
            data: bytes = bytes(event.data)
            text = op is Opcode.TEXT
        elif op is Opcode.CONT:
            if self._parts is None:
                return  # websockets' parser refuses a continuation without a start
            self._parts.append(bytes(event.data))
            if not event.fin:
                return
            data, text, self._parts = b"".join(self._parts), self._text, None
        else:
            super().process_event(event)  # a pong: websockets' pings
            return
        self._deliver(data, text)

    def connection_lost(self, exc: Exception | None) -> None:
        super().connection_lost(exc)
        lost, self.lost = self.lost, None
        if lost is not None:
            lost()

    def send_now(self, text: str) -> bool:
        """Write a text message at once, as ``send`` would (True); False (nothing written) when
        the connection is not open or its buffer is full: then ``send`` must (it waits)."""
        protocol = self.protocol
        if protocol.state is not State.OPEN or self.transport.get_write_buffer_size() >= WRITE_AT_ONCE:
            return False
        payload = text.encode()
        if protocol.extensions or protocol.expect_continuation_frame or protocol.writes or protocol.debug:
            protocol.send_text(payload)  # websockets' frame (compressed, after what waits, logged)
            self.send_data()
        else:  # the same frame websockets makes, without its Frame, its buffer and a getrandom a frame
            self.transport.write(client_text_frame(payload))
        return True


class _Masks(threading.local):
    """Masking keys for a client's frames (RFC 6455 §5.3: from a strong source of entropy):
    ``os.urandom`` 4 KiB at a time, 1,024 keys, instead of a system call for each frame."""

    def __init__(self) -> None:
        self.pool, self.at = b"", 0

    def next(self) -> bytes:
        if self.at >= len(self.pool):
            self.pool, self.at = os.urandom(4096), 0
        self.at += 4
        return self.pool[self.at - 4:self.at]


_MASKS = _Masks()


def client_text_frame(payload: bytes) -> bytes:
    """One whole masked text frame of ``payload`` (RFC 6455 §5.2), as websockets writes it."""
    n = len(payload)
    if n < 126:
        head = bytes((0x81, 0x80 | n))
    elif n < 2**16:
        head = bytes((0x81, 0x80 | 126)) + n.to_bytes(2, "big")
    else:
        head = bytes((0x81, 0x80 | 127)) + n.to_bytes(8, "big")
    mask = _MASKS.next()
    return head + mask + apply_mask(payload, mask)


def _expire(fut: asyncio.Future) -> None:
    if not fut.done():
        fut.set_exception(asyncio.TimeoutError())


#: A wait for an event ends on the next tick of this many seconds after its time (``_Alarms``).
TICK = 0.01


class _Alarms:
    """The ends of the waits for events (``_arrival``) on one loop, rounded up to the next
    ``TICK``: one timer rings for every wait that ends in the same tick, instead of a timer for
    each (issue 32: a thousand bots each wait before every action; a wait may end up to 10 ms
    late, which a bot's pace of an action a second doesn't notice)."""

    def __init__(self) -> None:  # (no reference to its loop: the loops' table holds them weakly)
        self.ticks: dict[int, list[asyncio.Future]] = {}

    def wake(self, loop: asyncio.AbstractEventLoop, when: float, fut: asyncio.Future) -> None:
        """Resolve ``fut`` (with None) at the first tick at or after ``when`` on ``loop``'s
        clock unless it is done by then."""
        tick = math.ceil(when / TICK)
        waiting = self.ticks.get(tick)
        if waiting is None:
            waiting = self.ticks[tick] = []
            loop.call_at(tick * TICK, self._ring, tick)
        waiting.append(fut)

    def _ring(self, tick: int) -> None:
        for fut in self.ticks.pop(tick, ()):
            if not fut.done():
                fut.set_result(None)


_ALARMS: "weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, _Alarms]" = weakref.WeakKeyDictionary()


def _alarms(loop: asyncio.AbstractEventLoop) -> _Alarms:
    alarms = _ALARMS.get(loop)
    if alarms is None:
        alarms = _ALARMS[loop] = _Alarms()
    return alarms


class Received(dict):
    """A message as the server sent it (the JSON object), with ``message``: the same message
    typed and checked against ``spider_tui.palast.messages``."""

    message: Message

    def __init__(self, raw: dict, message: Message):
        super().__init__(raw)
        self.message = message


class Refused(Exception):
    """The server refused a request; ``reason`` says why (``message`` is the whole answer)."""

    def __init__(self, message: dict):
        super().__init__(message.get("reason", "refused"))
        self.reason = str(message.get("reason", ""))
        self.message = message
        told = getattr(message, "message", None)
        #: why, for a program to decide on (None: the server gave no code this app knows)
        self.code: m.Code | None = told.why if isinstance(told, (m.Refused, m.Error)) else None


_KEYS: dict[str, str] = {}


def remember_key(url: str, key: str | None) -> None:
    """Connections to ``url`` present ``key`` (the embedded Palast's secret); None forgets it."""
    if key is None:
        _KEYS.pop(url, None)
    else:
        _KEYS[url] = key


class PalastClient:
    def __init__(self, ws: ClientConnection, events: Collection[str] | None = None):
        self.ws = ws
        #: the event types ``events()`` delivers (None: all); others are dropped unread, which
        #: saves the bots typing the progress of everybody else at their tables
        self.wanted = frozenset(events) if events is not None else None
        # an event type that is never an answer, not wanted: known by its first bytes and
        # dropped before it is even parsed (the progress of everybody else at the table)
        self._skip = tuple(f'{{"type":{sep}"{t}"' for t in EVENT_ONLY if self.wanted is not None
                           and t not in self.wanted for sep in ("", " "))
        self.name: str | None = None
        self.token: str | None = None
        self._ids = itertools.count(1)
        self._pending: dict[int, asyncio.Future] = {}
        self._due: dict[int, tuple[asyncio.Future, float]] = {}  # requests waiting: their deadlines
        self._timer: asyncio.TimerHandle | None = None  # rings at the earliest of them (``_due_in``)
        self._events: deque[Received | None] = deque()  # None: the connection closed
        self._waiters: list[asyncio.Future] = []  # next_event()s waiting for one
        self.unreadable = 0  # messages that didn't fit their definition (left out)
        self.closed: asyncio.Event = asyncio.Event()
        self.received: list[dict] = []  # every message, in order (tests check them all)
        self.keep_received = False
        #: the reason of the last ``error`` the server sent (why it closed the connection), or None
        self.last_error: str | None = None
        self._reader: asyncio.Future | None = None
        if isinstance(ws, Connection):
            ws.read_here(self._take, self._gone, tuple(t.encode() for t in self._skip))
            if ws.protocol.state is State.CLOSED:
                self._gone()
        else:  # any other websockets connection: read by a task
            self._reader = asyncio.ensure_future(self._read())

    @classmethod
    async def connect(cls, url: str, events: Collection[str] | None = None, **kwargs: Any) -> "PalastClient":
        key = _KEYS.get(url)
        if key is not None:  # the embedded Palast this app started: its secret goes along
            headers = dict(kwargs.pop("additional_headers", None) or {})
            headers[KEY_HEADER] = key
            kwargs["additional_headers"] = headers
        ws = await connect(url, max_size=RECEIVE_LIMIT, open_timeout=10, create_connection=Connection, **kwargs)
        return cls(ws, events)

    async def __aenter__(self) -> "PalastClient":
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.close()

    async def close(self) -> None:
        await self.ws.close()
        if self._reader is None:
            return
        try:
            await asyncio.wait_for(self._reader, 5)
        except (asyncio.TimeoutError, asyncio.CancelledError):
            self._reader.cancel()

    async def _read(self) -> None:
        try:
            async for data in self.ws:
                self._take(data)
        except ConnectionClosed:
            pass
        finally:
            self._gone()

    def _take(self, data: str | bytes) -> None:
        """One message from the server: the answer to its request, else an event."""
        if self._skip and isinstance(data, str) and data.startswith(self._skip):
            return
        try:
            msg = json.loads(data)
        except (ValueError, RecursionError):
            return  # not a message: a hostile or broken server; nothing to answer
        if not isinstance(msg, dict):
            return
        if self.keep_received:
            self.received.append(msg)
        kind = msg.get("type")
        if kind == "error" and isinstance(msg.get("reason"), str):
            self.last_error = msg["reason"]
        msg_id = msg.get("id")
        fut = self._pending.pop(msg_id, None) if isinstance(msg_id, int) else None
        if fut is None and self.wanted is not None and kind not in self.wanted:
            return  # an event nobody here reads
        try:
            typed = Received(msg, m.read_server(msg))
        except BadMessage as e:
            self.unreadable += 1
            if fut is None or fut.done():
                return  # an event this client can't read: left out
            # an answer it can't read: the request was not taken, as far as this client knows
            reason = f"The server sent an answer this app can't read ({e})."
            refused = m.Refused(reason=reason, id=msg_id if isinstance(msg_id, int) else None)
            typed = Received(refused.to_json(), refused)
        if fut is not None and not fut.done():
            fut.set_result(typed)
        else:
            self._put(typed)

    def _put(self, item: Received | None) -> None:
        self._events.append(item)
        waiters, self._waiters = self._waiters, []
        for w in waiters:
            if not w.done():
                w.set_result(None)

    def _gone(self) -> None:
        """The connection closed: every request waiting fails, the events end."""
        if self.closed.is_set():
            return
        self.closed.set()
        for fut in self._pending.values():
            if not fut.done():
                fut.set_exception(ConnectionError("the server closed the connection"))
        self._pending.clear()
        self._due.clear()
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None
        self._put(None)

    async def send_raw(self, data: str | bytes) -> None:
        """Send anything (tests use it for bad messages)."""
        await self.ws.send(data)

    async def request(self, type: str, check: bool = True, timeout: float = 30, **fields: Any) -> Received:
        """Send ``{type, id, **fields}`` as it is (tests send odd fields) and wait for its answer."""
        return await self._ask(lambda msg_id: {"type": type, "id": msg_id, **fields}, check, timeout)

    async def ask(self, message: Message, check: bool = True, timeout: float = 30) -> Received:
        """Send a typed message (its ``id`` set here) and wait for its answer."""
        def make(msg_id: int) -> dict:
            message.id = msg_id
            return message.to_json()

        return await self._ask(make, check, timeout)

    async def _ask(self, make: Callable[[int], dict | str], check: bool, timeout: float) -> Received:
        if self.closed.is_set():
            raise ConnectionError("the connection is closed")
        msg_id = next(self._ids)
        loop = asyncio.get_running_loop()
        fut: asyncio.Future = loop.create_future()
        self._pending[msg_id] = fut
        text = make(msg_id)
        if not isinstance(text, str):
            text = json.dumps(text)
        ws = self.ws
        if not (isinstance(ws, Connection) and ws.send_now(text)):
            await ws.send(text)
        self._due_in(loop, msg_id, fut, timeout)
        try:
            answer: Received = await fut
        finally:
            self._due.pop(msg_id, None)
        if check and isinstance(answer.message, (m.Refused, m.Error)):
            raise Refused(answer)
        return answer

    def _due_in(self, loop: asyncio.AbstractEventLoop, msg_id: int, fut: asyncio.Future, timeout: float) -> None:
        """``fut`` fails with ``asyncio.TimeoutError`` unless answered within ``timeout`` s.  One
        timer a connection, not one a request: it is set for the earliest deadline waiting, and
        when it rings it fails what is due and is set again for the next (issue 32: a bot's
        request each second set and cancelled a timer of its own in the loop's heap)."""
        due = loop.time() + timeout
        self._due[msg_id] = (fut, due)
        if self._timer is None or due < self._timer.when():
            if self._timer is not None:
                self._timer.cancel()
            self._timer = loop.call_at(due, self._ring, loop)

    def _ring(self, loop: asyncio.AbstractEventLoop) -> None:
        self._timer = None
        now = loop.time()
        for msg_id, (fut, due) in list(self._due.items()):
            if due <= now:
                del self._due[msg_id]
                _expire(fut)
        if self._due:
            self._timer = loop.call_at(min(due for _, due in self._due.values()), self._ring, loop)

    async def hello(self, name: str, token: str | None, lang: str | None = None) -> Received:
        """Sign in (``token`` None registers ``name``); keeps the token the server returns.
        ``lang``: the language of the server's reasons (SPEC §17; None: English)."""
        answer = await self.ask(m.Hello(protocol=1, name=name, token=token, lang=lang))
        welcome = answer.message
        if not isinstance(welcome, m.Welcome):
            raise ConnectionError(f"the server answered hello with {welcome.TYPE!r}")
        self.name = welcome.name
        self.token = welcome.token or token
        return answer

    async def tables(self) -> list[dict]:
        return (await self.ask(m.ListTables()))["tables"]

    async def open(self, suits: int = 1, rules: str = "classic", rounds: int = 3, seats: int = 4,
                   private: bool = False) -> Received:
        return await self.ask(m.Open(suits=suits, rules=rules, rounds=rounds, seats=seats, private=private))

    async def join(self, table: int | None = None, code: str | None = None) -> Received:
        return await self.ask(m.Join(code=code) if code is not None else m.Join(table=table))

    async def leave(self) -> Received:
        return await self.ask(m.Leave())

    async def start(self) -> Received:
        return await self.ask(m.Start())

    async def ready(self) -> Received:
        return await self.ask(m.Ready())

    async def play(self, move: str, check: bool = False) -> Received:
        """Play ``move`` (§3 move text, ``deal``, ``joker>N``, ``undo``, ``give up``): the
        ``played`` or ``refused`` answer (raises on refusal only with ``check``)."""
        # the text as ``ask(m.Play(move=move))`` writes it, made here: the commonest request
        return await self._ask(lambda msg_id: f'{{"type":"play","id":{msg_id},"move":{json.dumps(move)}}}',
                               check, 30)

    async def league(self) -> list[dict]:
        return (await self.ask(m.AskLeague()))["players"]

    async def records(self, table: int, round: int) -> list[str]:
        """Every player's record of a finished round (SPEC §16), each the text of docs/records.md
        (still to be read and checked with ``spider_tui.records.read_checked``); raises
        ``Refused`` before the round's ``round_over``."""
        answer = (await self.ask(m.AskRecords(table=table, round=round))).message
        return answer.records if isinstance(answer, m.Records) else []

    async def watch(self, table: int) -> m.Watching:
        """Watch a running table (SPEC §16): its lines now; its events follow."""
        answer = (await self.ask(m.Watch(table=table))).message
        if not isinstance(answer, m.Watching):
            raise ConnectionError(f"the server answered watch with {answer.TYPE!r}")
        return answer

    async def unwatch(self) -> Received:
        return await self.ask(m.Unwatch())

    async def daily(self, suits: int | None = None, day: str | None = None) -> m.Daily:
        """The daily board (SPEC §16): today's (or ``day``'s), one suit count or all."""
        answer = (await self.ask(m.AskDaily(suits=suits, day=day))).message
        if not isinstance(answer, m.Daily):
            raise ConnectionError(f"the server answered daily with {answer.TYPE!r}")
        return answer

    async def daily_play(self, suits: int) -> Received:
        """Today's one try at the daily table of ``suits`` suits: ``joined``, then its ``round``."""
        return await self.ask(m.PlayDaily(suits=suits))

    async def _arrival(self, timeout: float | None) -> bool:
        """Wait until an event is queued (True) or ``timeout`` seconds passed (False)."""
        if self._events:
            return True
        loop = asyncio.get_running_loop()
        fut = loop.create_future()
        self._waiters.append(fut)
        if timeout is not None:
            _alarms(loop).wake(loop, loop.time() + timeout, fut)
        try:
            await fut
        finally:
            if fut in self._waiters:
                self._waiters.remove(fut)
        return bool(self._events)

    async def next_event(self, timeout: float | None = None) -> Received | None:
        """The next event, or None when the connection closed; raises ``asyncio.TimeoutError``
        when none came within ``timeout`` seconds."""
        while not self._events:
            if not await self._arrival(timeout):
                raise asyncio.TimeoutError()
        return self._events.popleft()

    async def event_within(self, seconds: float) -> Received | None:
        """The next event if one comes within ``seconds``, else None (no exception: a bot waits
        like this before every action); None also when the connection closed (``closed``)."""
        if not self._events and not await self._arrival(max(0.0, seconds)):
            return None
        return self._events.popleft()

    async def events(self) -> AsyncIterator[Received]:
        """Every event until the connection closes."""
        while True:
            while not self._events:
                await self._arrival(None)
            msg = self._events.popleft()
            if msg is None:
                self._events.appendleft(None)
                return
            yield msg

    async def wait_for(self, type: str, timeout: float = 30, **match: Any) -> Received:
        """Skip events until one of ``type`` (with fields equal to ``match``) arrives."""
        async def find() -> Received:
            async for ev in self.events():
                if ev.get("type") == type and all(ev.get(k) == v for k, v in match.items()):
                    return ev
            raise ConnectionError(f"the connection closed before a {type!r} event")

        return await asyncio.wait_for(find(), timeout)
