"""Seating at standard tables (SPEC §13): a crowd arriving at once, on one process or several,
is seated side by side, never one at a time.

Standard tables are all alike.  A seat being written counts as taken at once
(``LiveTable.taking``), so the next player is sent on to a table with room; tables for
everyone waiting open at once (``MAX_OPENED``); with several processes each fills the tables it
opened first (both filling one table refuse each other's seats); and the database's conditional
seat (one round trip on PostgreSQL) decides when another process filled a table first.  Two
accounts of one address never sit at one rated table (loopback excepted), also when both ask at
the same moment.
"""

from __future__ import annotations

import asyncio
import time
from typing import TYPE_CHECKING, Any

from spider_tui.palast import messages as m
from spider_tui.palast.protocol import Refusal
from spider_tui.palast.server.db import WAITING, PlayerRow
from spider_tui.palast.server.guard import is_loopback
from spider_tui.palast.server.table import LiveTable

if TYPE_CHECKING:  # pragma: no cover
    from spider_tui.palast.server.lobby import Palast

#: How often, at most, a process reads the other processes' waiting standard tables.
SHARE_SECONDS = 2.0
#: Standard tables opened at once, at most, for a crowd waiting for seats.
MAX_OPENED = 32

STANDARD: dict[str, Any] = dict(suits=1, rules="classic", rounds=3, seats=4)
SAME_ADDRESS = ("Another account from your address already sits at this table, and it is rated: "
                "play together at a Training table (open one with Training on).")


class Seating:
    """Where players sit down: one per Palast (``Palast.seating``)."""

    def __init__(self, palast: Palast) -> None:
        self.palast = palast
        self._standard_lock = asyncio.Lock()
        self._shared_at = -SHARE_SECONDS  # when the other processes' standard tables were last read
        self._wanting = 0  # players waiting for a standard table with room to open
        self._opened: set[int] = set()  # the standard tables this process opened (still live)

    def dropped(self, table_id: int) -> None:
        self._opened.discard(table_id)

    def same_address(self, t: LiveTable, player_id: int) -> bool:
        """Whether another person at ``t`` comes from ``player_id``'s address (or /64) and ``t``
        is rated: SPEC §13 seats them apart (a second account would learn the deal for the
        first).  Players on loopback are the host's own users and are not counted."""
        if t.row.training:
            return False
        mine = self.palast.addresses.get(player_id)
        if mine is None or is_loopback(mine):
            return False
        return (any(self.palast.addresses.get(s.player_id) == mine for s in t.seats
                    if s.player_id != player_id and not s.bot and not s.left)
                or any(self.palast.addresses.get(pid) == mine for pid in t.taking.pending if pid != player_id))

    async def take_seat(self, t: LiveTable, player: PlayerRow) -> LiveTable:
        """Seat ``player`` at ``t`` (or, for a standard table that filled up, at an open one);
        the table they now sit at, with their seat counted (the caller reloads the seats).

        Standard tables are all alike, so a crowd arriving at once is spread over them without a
        queue: a seat being written counts as taken (``LiveTable.taking``) from the moment it is
        chosen, the next player is sent to a table with room (one opens when none has), and
        the database's conditional seat decides when another process filled the table first
        (SPEC §13: 1,000 players on two processes, every one seated)."""
        pid = player.id
        if self.same_address(t, pid):  # the table asked for (not one the player is sent on to)
            raise Refusal(SAME_ADDRESS)
        for _ in range(10):
            if t.row.standard:
                t = await self._standard_with_room(t, player)
            if self.same_address(t, pid):
                raise Refusal(SAME_ADDRESS)
            t.taking.pending.add(pid)
            try:
                reason = await self.palast.store.seat(t.id, pid, self.palast.clock())
            finally:
                t.taking.pending.discard(pid)
            if not reason:
                t.took(pid, player.name)  # counted at once (the caller reloads)
                return t
            if not t.row.standard or reason.code not in (m.Code.TABLE_FULL, m.Code.TABLE_STARTED):
                break
            await t.reload_row()  # filled or started by another process: known here from now on
            await t.load_seats()
        assert reason is not None
        raise Refusal(reason)

    async def _standard_with_room(self, t: LiveTable, player: PlayerRow) -> LiveTable:
        """``t`` when it still waits with room for ``player``, else another standard table that
        does (opened when none does).

        With several processes, each fills the tables it opened first: a table another process
        opened a moment ago is being filled there, and both filling it refuse each other's seats.
        One that has waited ``SHARE_SECONDS`` is taken like our own, so two players who come on
        two processes still meet."""
        if t.seat(player.id) is not None:
            return t  # sits there already: joining again is answered as before

        def fits(x: LiveTable, remote: bool = True) -> bool:
            return self._usable(x, remote) and not self.same_address(x, player.id)

        for _ in range(20):
            if fits(t):
                return t
            ours = [x for x in self.palast.tables.values() if fits(x, remote=False)]
            other = (min(ours, key=lambda x: (x.room(), x.id)) if ours  # the fullest first
                     else next((x for x in self.palast.tables.values() if fits(x)), None))
            if other is not None:
                return other
            self._wanting += 1  # tables for everyone waiting are opened at once, not one by one
            try:
                await self.ensure_standard()
            finally:
                self._wanting -= 1
        return t  # the database refuses it and says why

    async def ensure_standard(self) -> None:
        """Keep a standard table open: another one opens when the open ones fill or start.
        Asked at every join, so it looks here first, without the lock; the other processes'
        standard tables are read from the database at most every ``SHARE_SECONDS`` (they are
        announced anyway; a crowd reading them at every join made both processes fill the same
        tables and refuse each other's seats)."""
        if self.open_standard():
            return
        async with self._standard_lock:
            if self.open_standard():  # opened meanwhile, by the one that held the lock
                return
            now = time.monotonic()
            if self.palast.cluster and now - self._shared_at >= SHARE_SECONDS:  # other processes' tables
                self._shared_at = now
                await self.palast.cluster.load_standard()
                if self.open_standard():
                    return
            # As many tables as the players waiting need (a crowd arriving at once), side by side.
            seats = STANDARD["seats"]
            count = min(MAX_OPENED, max(1, -(-self._wanting // seats)))
            rows = await asyncio.gather(*(self.palast.store.create_table(
                host=None, private=False, code=None, standard=True, now=self.palast.clock(), **STANDARD)
                for _ in range(count)))
            for row in rows:
                self.palast.track(row)
                self._opened.add(row.id)
                if self.palast.cluster:
                    self.palast.cluster.announce(row.id, m.TableNews(table=row.id))

    def open_standard(self) -> bool:
        """Whether a standard table here waits with a free seat that a player may be sent to (as
        far as this process knows: a seat refused as full reloads that table)."""
        return any(self._usable(t) for t in self.palast.tables.values())

    def _usable(self, t: LiveTable, remote: bool = True) -> bool:
        """``t`` is a standard table that waits with room, opened here or (``remote``) settled."""
        return (t.row.standard and t.row.state == WAITING and t.room() > 0
                and (t.id in self._opened or (remote and t.row.created <= self.palast.clock() - SHARE_SECONDS)))
