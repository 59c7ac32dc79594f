"""The seam that carries table events to the players' connections (SPEC §13).

The server publishes every table event (``progress``, ``round``, ``round_over``, …) through a
``Broker`` and each connection subscribes to the table it sits at.  ``LocalBroker`` delivers in
this process; a cross-process broker (PostgreSQL LISTEN/NOTIFY, issue 14) implements the same
two methods so players on several server processes see each other.

A message is published as its class (``messages``) and carried as its JSON object: the object
is made here, once, for every process and connection (``as_object``).  Handlers must not block:
the server's handler puts the message on the connection's bounded outgoing queue.
"""

from __future__ import annotations

import abc
from collections import defaultdict
from collections.abc import Callable

from spider_tui.palast import messages as m

Handler = Callable[[int, dict], None]


def as_object(message: m.Message) -> dict:
    """A message as the JSON object the broker carries (the one place the server makes it)."""
    return message.to_json()


class Broker(abc.ABC):
    async def publish(self, table_id: int, message: m.Message) -> None:
        """Deliver ``message`` to every subscriber of ``table_id`` (in every process)."""
        await self.send(table_id, as_object(message))

    @abc.abstractmethod
    async def send(self, table_id: int, message: dict) -> None:
        """Deliver a message's JSON object to every subscriber of ``table_id``."""

    @abc.abstractmethod
    def subscribe(self, table_id: int, handler: Handler) -> Callable[[], None]:
        """Call ``handler(table_id, message)`` for the table's events; returns the unsubscribe."""

    async def close(self) -> None:  # pragma: no cover - nothing to close in process
        return None


class LocalBroker(Broker):
    """One server process: a dict of handlers per table.  A cross-process broker extends it (its
    own process's subscribers are served the same way)."""

    def __init__(self) -> None:
        self._subs: dict[int, list[Handler]] = defaultdict(list)

    async def send(self, table_id: int, message: dict) -> None:
        self.deliver(table_id, message)

    def deliver(self, table_id: int, message: dict) -> None:
        """Hand an event to this process's subscribers of the table."""
        for handler in list(self._subs.get(table_id, ())):
            handler(table_id, message)

    def subscribe(self, table_id: int, handler: Handler) -> Callable[[], None]:
        self._subs[table_id].append(handler)

        def unsubscribe() -> None:
            subs = self._subs.get(table_id)
            if subs and handler in subs:
                subs.remove(handler)
                if not subs:
                    del self._subs[table_id]

        return unsubscribe
