"""Several server processes, one Palast (SPEC §13): keeping this process's copy of every live
table in step with what the other processes do.

Each player's game is played by the process the player is connected to (their actions are
written to the database there, then announced). Every process keeps every live table: its row,
its seats, and a copy of each seat's game, so it can show progress, notice that everyone has
finished, keep the round clock, and take over a player whose process died. What changes a table
for everyone (a seat taken, a round started or ended, the table finished) is one conditional
statement in the database, so it happens once whichever process gets there first; the others
learn of it through the broker (PostgreSQL LISTEN/NOTIFY, ``pg_broker.PgBroker``) and re-read
the table before they pass the event on to their players.

Internal events (never sent to a client; their ``type`` starts with ``_``):

- ``_action {table, round, player_id, seq, move, at}``: an accepted action, replayed on the copy
  (notified by the PostgreSQL store in the statement that saves it: ``announce_actions``);
- ``_table {table}``: a table was opened (the others start tracking it);
- ``_presence {player_id, online, origin}``: a player connected to or left the sending process;
- ``_alive {origin, players}``: the sending process is alive, and who is connected to it (every ``Options.heartbeat_seconds``); a
  process not heard from for three of those is taken as gone (killed, or cut off), and the
  players it had show "offline" to everyone until they reconnect;
- ``_resync``: re-read everything (sent when an event was too big to announce).
"""

from __future__ import annotations

import asyncio
import logging
import time
from typing import TYPE_CHECKING

from spider_tui.engine import IllegalMove

from spider_tui.palast import messages as m
from spider_tui.palast.server.broker import as_object
from spider_tui.palast.server.db import FINISHED, NO_ROUND, PLAYING, ROUND_PLAYING, WAITING

from spider_tui.palast.server.lobby import Palast
from spider_tui.palast.server.table import LiveTable, apply_action

if TYPE_CHECKING:  # pragma: no cover
    from spider_tui.palast.server.pg_broker import PgBroker

log = logging.getLogger("spider.palast")

#: An ``_alive`` event lists the process's players up to this many (a NOTIFY holds 8000 bytes).
ALIVE_PLAYERS = 600

#: Events after which a process re-reads the table from the database before passing them on.
RELOAD = frozenset({"_table", "table", "round", "round_over", "table_over"})


class ClusterSync:
    """The Palast's side of the cross-process broker."""

    def __init__(self, palast: Palast, broker: PgBroker) -> None:
        self.palast = palast
        self.broker = broker
        self.remote_online: dict[int, str] = {}  # player id -> origin of the process they are on
        self._queue: asyncio.Queue[tuple[int, int, dict]] = asyncio.Queue()  # (number, table id, event)
        self._numbered = 0  # events received so far (each queued one carries its number)
        # table id -> the number of the last event received before this worker last began to
        # re-read that table: an event up to it is already in what was read (it was committed
        # before it was announced), so it needs no re-reading of its own (a crowd seated on
        # another process announces each seat; the copy reads the table once for a burst).
        self._read_after: dict[int, int] = {}
        self._worker: asyncio.Task[None] | None = None
        self._busy = False
        self._heard: dict[str, float] = {}  # origin -> when it was last heard from (monotonic)
        self._beat: asyncio.Task[None] | None = None
        broker.on_remote = self._received
        broker.on_reconnect = self.resync
        # A store that announces the actions it writes (PostgreSQL: in the insert's own
        # statement) spares the broker one ``_action`` event an action.
        announce_actions = getattr(palast.store, "announce_actions", None)
        self.store_announces = announce_actions is not None
        if announce_actions is not None:
            announce_actions(broker.channel, broker.origin)

    async def start(self) -> None:
        """Listen (before the tables are read, so nothing in between is missed)."""
        await self.broker.start()

    def run(self) -> None:
        """Apply other processes' events from now on (after the tables were read)."""
        self._worker = asyncio.create_task(self._work(), name="palast-cluster-sync")
        self._beat = asyncio.create_task(self._heartbeat(), name="palast-cluster-heartbeat")

    async def stop(self) -> None:
        if self._beat is not None:
            self._beat.cancel()
            self._beat = None
        if self._worker is not None:
            self._worker.cancel()
            try:
                await self._worker
            except (asyncio.CancelledError, Exception):  # noqa: BLE001 - stopping anyway
                pass
            self._worker = None
        await self.broker.close()

    async def idle(self, timeout: float = 5) -> None:
        """Wait until every event received so far has been applied (tests)."""
        async with asyncio.timeout(timeout):
            while not self._queue.empty() or self._busy:
                await asyncio.sleep(0.005)

    # -- announcing
    def announce(self, table_id: int, message: m.Message) -> None:
        if self.store_announces and type(message) is m.ActionTaken:
            return  # the store notified it with the row (it is durable, and the others hear it)
        self.palast.spawn(self.broker.publish(table_id, message))

    def presence(self, player_id: int, online: bool) -> None:
        self.announce(0, m.Presence(player_id=player_id, online=online, origin=self.broker.origin))

    def is_online(self, player_id: int) -> bool:
        return player_id in self.remote_online

    async def _heartbeat(self) -> None:
        every = self.palast.options.heartbeat_seconds
        while True:
            here = list(self.palast.online)
            # who is here (so missed _presence events heal), when they fit in one notification
            self.announce(0, m.Alive(origin=self.broker.origin, players=here if len(here) <= ALIVE_PLAYERS else None))
            await asyncio.sleep(every)
            self.forget_silent(time.monotonic() - 3 * every)

    def _present(self, origin: str, players: set[int]) -> None:
        """A process says exactly who is connected to it: correct what we believed."""
        changed = [pid for pid, o in self.remote_online.items() if o == origin and pid not in players]
        for pid in changed:
            del self.remote_online[pid]
        for pid in players:
            if self.remote_online.get(pid) != origin:
                self.remote_online[pid] = origin
                changed.append(pid)
        for pid in changed:
            self._show(pid)

    def _show(self, player_id: int) -> None:
        """Send the player's progress (with their new online state) to their table soon."""
        p = self.palast
        t = p.table_of(player_id)
        s = t.seat(player_id) if t is not None else None
        if t is not None and s is not None and s.game is not None:
            t.mark(s)

    def forget_silent(self, before: float) -> None:
        """Processes not heard from since ``before`` are gone: their players are offline now
        (the tables they sit at show it within a second)."""
        gone = {origin for origin, at in self._heard.items() if at < before}
        if not gone:
            return
        for origin in gone:
            del self._heard[origin]
        p = self.palast
        for pid, origin in list(self.remote_online.items()):
            if origin in gone:
                del self.remote_online[pid]
                self._show(pid)
        log.warning("cluster: %d server process(es) silent for %.0f s, taken as gone", len(gone),
                    3 * p.options.heartbeat_seconds)

    # -- receiving
    def _received(self, table_id: int, message: dict) -> None:
        """An event from another process.  The two of every action (its ``_action`` and, soon
        after, its seat's ``progress``) are handled here at once when nothing is waiting before
        them (an event that reloads a table goes first, in order): a progress is passed on as it
        came, and the next action of a seat played on the copy.  The rest goes to the worker."""
        self._numbered += 1
        if self._queue.empty() and not self._busy:
            kind = message.get("type") if isinstance(message, dict) else None
            if kind == "progress":
                self.broker.deliver(table_id, message)
                return
            if kind == "_action" and self._next_action(table_id, message):
                return
        self._queue.put_nowait((self._numbered, table_id, message))

    def _next_action(self, table_id: int, obj: dict) -> bool:
        """Play an ``_action`` that is its seat's next on the copy; False when it is anything
        else (the worker reads it the long way: typed, or the seat replayed)."""
        t = self.palast.tables.get(table_id)
        try:
            rnd, pid, seq, move, at = obj["round"], obj["player_id"], obj["seq"], obj["move"], obj["at"]
        except (KeyError, TypeError):
            return False
        if t is None or type(seq) is not int or type(move) is not str or type(at) not in (int, float):
            return False
        s = t.seat(pid) if t.row.round == rnd and t.row.round_state == ROUND_PLAYING else None
        if s is None or s.game is None or seq != s.seq + 1:
            return False
        try:
            apply_action(s.game, move)
        except IllegalMove:
            return False  # (the game is unchanged: the worker replays the seat)
        s.seq = seq
        s.ended_at = at if (s.game.over or s.game.stuck) else None
        t.check_done()
        return True

    async def _work(self) -> None:
        while True:
            number, table_id, message = await self._queue.get()
            self._busy = True
            try:
                await self._apply(table_id, message, number)
            except Exception:
                log.exception("cluster: applying %s of table %s failed", message.get("type") if isinstance(message, dict)
                              else "?", table_id)
            finally:
                self._busy = False

    async def _apply(self, table_id: int, obj: dict, number: int = 0) -> None:
        try:
            message = m.read_internal(obj)
        except m.BadMessage:
            log.warning("cluster: ignoring a malformed event of table %s", table_id)
            return
        p = self.palast
        if isinstance(message, (m.Alive, m.Presence)):
            self._heard[message.origin] = time.monotonic()
        if isinstance(message, m.Alive):
            if message.players is not None:
                self._present(message.origin, set(message.players))
            return
        if isinstance(message, m.Presence):
            pid, origin = message.player_id, message.origin
            if message.online:
                self.remote_online[pid] = origin
            elif self.remote_online.get(pid) == origin:
                del self.remote_online[pid]
            return
        if isinstance(message, m.ActionTaken):
            await self._action(table_id, message)
            return
        if isinstance(message, m.Resync):
            await self.resync()
            return
        kind = message.TYPE
        if kind in RELOAD and number > self._read_after.get(table_id, 0):
            began = self._numbered
            if await self.reload(table_id) is not None:
                self._read_after[table_id] = began
            else:
                self._read_after.pop(table_id, None)
        if not kind.startswith("_"):
            self.broker.deliver(table_id, obj)
        if kind == "table_over":
            self._read_after.pop(table_id, None)
            t = p.tables.get(table_id)
            if t is not None:
                p.drop(t)

    async def _action(self, table_id: int, a: m.ActionTaken) -> None:
        p = self.palast
        t = p.tables.get(table_id)
        if t is None or t.row.round != a.round or t.row.round_state != ROUND_PLAYING:
            return
        s = t.seat(a.player_id)
        if s is None or s.game is None or a.seq <= s.seq:
            return
        if a.seq == s.seq + 1:
            try:
                apply_action(s.game, a.move)
            except IllegalMove:
                await t.replay_seat(s)
            else:
                s.seq = a.seq
                s.ended_at = a.at if (s.game.over or s.game.stuck) else None
        else:  # we missed some: read the player's actions back
            await t.replay_seat(s)
        t.check_done()

    # -- re-reading from the database
    async def reload(self, table_id: int, *, games: bool = False) -> LiveTable | None:
        """Re-read a table (row, seats, totals; the games when its round changed or ``games``)
        and reset its timer; start tracking it when it is new here.  Returns the live table."""
        p = self.palast
        row = await p.store.table(table_id)
        if row is None:  # a table that never started was closed (its row deleted)
            gone = p.tables.get(table_id)
            if gone is not None:
                p.drop(gone)
            return None
        t = p.tables.get(table_id)
        fresh = t is None
        if t is None:
            if row.state == FINISHED:
                return None
            t = p.track(row)
        old_round = t.row.round
        t.row = row
        await t.load_seats()
        if row.state == PLAYING and row.round_state != NO_ROUND:
            if fresh or row.round != old_round or any(s.game is None for s in t.seats):
                await t.rebuild_round()
            elif games:  # seat by seat, under its lock: an action being written here is kept
                await t.settle()
            if row.round_state == ROUND_PLAYING and (row.round != old_round or games):
                t.ending = False  # (after a resync: an end that failed may be tried again)
            await t.rebuild_totals()
        if row.state == FINISHED:
            t.cancel()
        else:
            t.schedule()
        return t

    async def resync(self) -> None:
        """Re-read every live table and its games (notifications may have been missed)."""
        p = self.palast
        live = {row.id for row in await p.store.live_tables()}
        for table_id in sorted(live | set(p.tables)):
            t = await self.reload(table_id, games=True)
            if t is not None and t.row.state == FINISHED:
                p.drop(t)
            elif t is not None and t.row.round_state == ROUND_PLAYING:
                # Progress announced while we weren't listening: our players see where all stand.
                for s in t.seats:
                    if s.game is not None:
                        self.broker.deliver(t.id, as_object(t.progress(s)))

    async def load_standard(self) -> None:
        """Track the standard tables other processes opened that wait for players (so players
        share them; one that plays already takes no one, and reloading each cost a crowd's join)."""
        p = self.palast
        for row in await p.store.live_tables():
            if row.standard and row.state == WAITING and row.id not in p.tables:
                await self.reload(row.id)
