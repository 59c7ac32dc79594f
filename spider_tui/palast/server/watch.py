"""Watching a running Palast table (SPEC §16): anyone signed in may watch a table that is not
private; they see the players' lines live and the cards of a round only after it ends (its
records, ``records {table, round}``), so a watcher learns nothing a seated player could use.

A watcher gets ``watching`` (the table and each player's line), then of the table's events only
those without cards: ``progress``, ``round_over`` (its deal is told then anyway), ``table_over``
and ``table``; a round's start comes as ``watch_round`` (its clock and commitment, no position).
The server faces strangers, so watching is bounded: a connection watches one table at a time (a
new ``watch`` ends the old one) and a table has at most ``WATCHERS_PER_TABLE`` watchers.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from spider_tui.palast import messages as m, protocol
from spider_tui.palast.protocol import Refusal
from spider_tui.palast.server.db import FINISHED
from spider_tui.palast.server.table import deal_commitment, seconds_of

if TYPE_CHECKING:  # pragma: no cover
    from spider_tui.palast.server.lobby import Palast

__all__ = ["Watchers", "WATCHERS_PER_TABLE", "PASSED_ON"]

#: Watchers of one table at once (on one server process).
WATCHERS_PER_TABLE = 64
#: The table events a watcher is sent as they are (none carries a card of a running round).
PASSED_ON = frozenset({"progress", "round_over", "table_over", "table"})


def line_of(p: m.Progress) -> m.Line:
    """A player's ``progress`` as a line of ``watching``."""
    return m.Line(player=p.player, score=p.score, runs=p.runs, moves=p.moves, state=p.state, seconds=p.seconds,
                  bot=p.bot)


class Watchers:
    """Who watches which table on this server process."""

    def __init__(self, lobby: Palast) -> None:
        self.lobby = lobby
        self.of_table: dict[int, set[int]] = {}  # table id -> watching player ids
        self.watching: dict[int, int] = {}  # player id -> the table they watch

    async def watch(self, player_id: int, req: m.Watch) -> m.Watching:
        """Start watching ``req.table`` (ending any other watch); raises ``Refusal``."""
        lobby = self.lobby
        t = lobby.tables.get(req.table)
        if t is None and lobby.cluster:  # a table another process plays
            t = await lobby.cluster.reload(req.table)
        if t is None or t.row.state == FINISHED:
            raise Refusal("There is no such table." if t is None else "That table is finished.",
                          code=m.Code.NO_TABLE if t is None else m.Code.TABLE_FINISHED)
        if t.row.private and t.seat(player_id) is None:
            raise Refusal("That table is private: join it with its invite code.", code=m.Code.PRIVATE)
        if self.watching.get(player_id) != t.id and len(self.of_table.get(t.id, ())) >= WATCHERS_PER_TABLE:
            raise Refusal(f"That table has {WATCHERS_PER_TABLE} watchers already; try again later.",
                          code=m.Code.TOO_MANY)
        self.stop(player_id)
        self.of_table.setdefault(t.id, set()).add(player_id)
        self.watching[player_id] = t.id
        lines = [line_of(t.progress(s)) for s in t.seats] if t.row.round else []
        return m.Watching(table=t.info(), lines=lines, ends_at=seconds_of(t.row.ends_at) if t.row.round else None,
                          commitment=deal_commitment(t.row.deal) if t.row.round else None)

    def unwatch(self, player_id: int) -> m.Unwatched:
        """Stop watching; raises ``Refusal`` when the player watches nothing."""
        table = self.stop(player_id)
        if table is None:
            raise Refusal("You are watching no table.", code=m.Code.NOT_WATCHING)
        return m.Unwatched(table=table)

    def stop(self, player_id: int) -> int | None:
        """Forget the player's watch (they left, or watch another table); the table it was."""
        table = self.watching.pop(player_id, None)
        if table is not None:
            watchers = self.of_table.get(table)
            if watchers is not None:
                watchers.discard(player_id)
                if not watchers:
                    del self.of_table[table]
        return table

    def dropped(self, table_id: int) -> None:
        """The table is no longer live here (finished or closed): its watchers watch nothing."""
        for pid in self.of_table.pop(table_id, set()):
            self.watching.pop(pid, None)

    def deliver(self, table_id: int, message: dict[str, Any]) -> None:
        """Pass one of the table's events on to its watchers, without any position."""
        watchers = self.of_table.get(table_id)
        if not watchers:
            return
        kind = message.get("type")
        if kind == "round":
            text = protocol.dumps(m.WatchRound(table=table_id, round=message["round"], ends_at=message.get("ends_at"),
                                               commitment=message.get("commitment")))
        elif kind in PASSED_ON:
            text = protocol.dumps(message)
        else:
            return
        seated = self.lobby.seated
        for pid in list(watchers):
            send = self.lobby.online.get(pid)
            if send is None:
                self.stop(pid)  # gone: its connection's end told the lobby
            elif seated.get(pid) != table_id:  # one who sits there has it as a player already
                send(text)
