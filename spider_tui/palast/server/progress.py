"""A live table's ``progress`` events (SPEC §13 "While you play"): each seat's line as the others
(and its watchers) see it, sent within a second of a change, bursts coalesced into one event per
seat every ``Options.progress_delay``.
"""

from __future__ import annotations

import asyncio
from typing import TYPE_CHECKING

from spider_tui.palast import messages as m
from spider_tui.palast.server.broker import LocalBroker, as_object

if TYPE_CHECKING:  # pragma: no cover
    from spider_tui.palast.server.table import LiveTable, Seat

__all__ = ["ProgressFeed"]


class ProgressFeed:
    """The progress of one table's seats: ``mark`` a seat that changed, and its line goes out
    soon (``flush_now`` sends what is pending at once, before a ``round_over``)."""

    def __init__(self, table: LiveTable) -> None:
        self.table = table
        self.dirty: set[int] = set()
        self.timer: asyncio.TimerHandle | None = None

    def progress(self, s: Seat) -> m.Progress:
        """The seat's ``progress`` event."""
        t = self.table
        g = s.game
        state = t.state_of(s)
        if state == "playing" and not t.lobby.is_online(s.player_id):
            state = "offline"
        seconds = None
        if state == "solved" and s.ended_at is not None and t.row.round_started is not None:
            seconds = round(s.ended_at - t.row.round_started, 1)
        return m.Progress(table=t.id, player=s.name, score=g.score if g else 0, runs=len(g.done) if g else 0,
                          moves=g.moves if g else 0, state=state, bot=s.bot, seconds=seconds)

    def mark(self, s: Seat) -> None:
        """Send the seat's progress to the table soon, coalescing bursts (well within 1 s)."""
        self.dirty.add(s.player_id)
        if self.timer is None:
            self.timer = asyncio.get_running_loop().call_later(self.table.lobby.options.progress_delay, self._flush)

    async def flush_now(self) -> None:
        """What is pending goes out now, in order, before the caller's next event (the last
        progress of every seat goes before ``round_over``)."""
        if self.timer is None:
            return
        self.timer.cancel()
        for progress in self._pending():
            await self.table.publish(progress)

    def stop(self) -> None:
        """The server stops: nothing more to send."""
        if self.timer is not None:
            self.timer.cancel()

    def _pending(self) -> list[m.Progress]:
        """The pending seats' events, as their games stand now; nothing is pending after."""
        self.timer = None
        dirty, self.dirty = self.dirty, set()
        return [self.progress(s) for s in self.table.seats if s.player_id in dirty and s.game is not None]

    def _flush(self) -> None:
        t = self.table
        broker = t.lobby.broker
        # In one process the events are handed to the connections here, in this turn of the loop
        # (what ``publish`` would do a turn later, in a task for each event); a broker that sends
        # elsewhere too (several processes) is awaited in a task as before.
        local = isinstance(broker, LocalBroker) and type(broker).send is LocalBroker.send
        for progress in self._pending():
            if local:
                assert isinstance(broker, LocalBroker)
                broker.deliver(t.id, as_object(progress))
            else:
                t.lobby.spawn(t.publish(progress))
