"""The Palast's lobby (SPEC §13): the live tables of this process, seating, lobby pages, the
league, and the dispatch of each player's messages to the lobby or their table.

``Palast`` holds the live tables of this server process in memory (each a ``table.LiveTable``)
and keeps the database the truth: every change is written (and every accepted action) before it
is answered, and ``Palast.start`` rebuilds every live table from the store (games replayed from
their accepted actions, deadlines from the table rows) so a restarted server resumes where it
stood.

It knows nothing of WebSockets: the server registers a ``send`` callable per online player and
hands it checked requests; answers are returned, table events go out
through the ``Broker``.
"""

from __future__ import annotations

import dataclasses

import asyncio
import logging
import secrets
import time
from collections.abc import Callable, Coroutine
from typing import Any, Protocol

from spider_tui.palast import messages as m, protocol
from spider_tui.palast.protocol import Refusal
from spider_tui.palast.server import records, sweep
from spider_tui.palast.server.league_board import LEAGUE_TOP, LeagueBoard
from spider_tui.palast.server.daily import DailyTables
from spider_tui.palast.server.watch import Watchers
from spider_tui.palast.server.broker import Broker, LocalBroker
from spider_tui.palast.server.db import FINISHED, NO_ROUND, PLAYING, ROUND_PLAYING, WAITING, PlayerRow, ResultRow, Store, TableRow
from spider_tui.palast.server.table import LiveTable, Options, Seat, Send, round_over, span
from spider_tui.palast.server.seating import Seating

__all__ = ["Palast", "Options", "LiveTable", "Seat", "Send", "House", "Cluster", "TABLES_PAGE", "LEAGUE_TOP"]

log = logging.getLogger("spider.palast")

#: How long stopping waits for the tables' tasks to end once cancelled.
STOP_SECONDS = 5.0

TABLES_PAGE = 50  # tables per `tables` answer (SPEC §13: every answer has a bounded size)
LOBBY_SECONDS = 0.5  # the lobby's public tables are made at most this often (and on each change)
UNTOLD_KEPT = 10_000  # players away when their table ended whose last messages are kept
CODE_CHARS = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789"


class House(Protocol):
    """The house bots as the tables see them (``house.HouseBots``): started and stopped with
    the Palast, and asked to look for a person waiting alone on every sweep."""

    async def start(self) -> None: ...

    def stop(self) -> None: ...

    def check(self) -> None: ...


class Cluster(Protocol):
    """What the Palast asks of the other server processes' side (``cluster.ClusterSync``)."""

    async def start(self) -> None: ...
    def run(self) -> None: ...
    async def stop(self) -> None: ...
    def announce(self, table_id: int, message: m.Message) -> None: ...
    def presence(self, player_id: int, online: bool) -> None: ...
    def is_online(self, player_id: int) -> bool: ...
    async def reload(self, table_id: int, *, games: bool = False) -> LiveTable | None: ...
    async def load_standard(self) -> None: ...


class Palast:
    """The lobby of one server process: its live tables, who is online and who sits where."""

    def __init__(self, store: Store, broker: Broker | None = None, options: Options | None = None,
                 clock: Callable[[], float] = time.time, cluster: Callable[[Palast], Cluster] | None = None,
                 house: Callable[[Palast], House] | None = None):
        self.store = store
        self.broker = broker or LocalBroker()
        self.options = options or Options()
        self.clock = clock
        self.tables: dict[int, LiveTable] = {}
        self.online: dict[int, Send] = {}
        self.seated: dict[int, int] = {}  # player id -> live table id
        self._tasks: set[asyncio.Task] = set()
        self.seating = Seating(self)  # who sits where at standard tables (``seating.py``)
        self.offline_since: dict[int, float] = {}  # seated players seen offline, since when
        self.acted: dict[int, float] = {}  # player id -> when they last asked anything (house bots)
        self.league_board = LeagueBoard(store)
        self.watchers = Watchers(self)  # who watches which table here (SPEC §16)
        self.daily = DailyTables(self)  # the daily board (SPEC §16)
        self._lobby: tuple[float, list[m.TableInfo]] | None = None  # (made at, the public tables)
        # Each connected (or seated) player's address key, as the server counts it: two accounts
        # of one address never sit at one rated table (SPEC §13; loopback excepted).
        self.addresses: dict[int, str] = {}
        # Players who were away when their table ended: its last round_over and table_over,
        # told when they come back (also after a restart that ended the round).
        self.untold: dict[int, list[m.Message]] = {}
        # Several processes on one database: keeps our copies in step with theirs (the server
        # makes a ``cluster.ClusterSync`` when its broker is shared between processes).
        self.cluster: Cluster | None = cluster(self) if cluster is not None else None
        # House bots (``house.HouseBots``, made by the server like the cluster: this module
        # doesn't import them, they import it).
        self.house: House | None = None
        if house is not None and self.options.house_bots_after is not None:
            self.house = house(self)

    # ------------------------------------------------------------------ life
    async def start(self) -> None:
        """Rebuild every live table from the store and open a standard table if none is open."""
        if self.cluster:
            await self.cluster.start()
        for row in await self.store.live_tables():
            t = self.track(row)
            await t.load_seats()
            if row.state == PLAYING and row.round_state != NO_ROUND:
                await t.rebuild_round()
                await t.rebuild_totals()
            t.schedule()
            # A crash between a round's last action and its end: every seat is done, so it ends
            # now, not when its clock runs out (SPEC §13: checked whenever the server starts).
            t.check_done()
        if self.cluster:
            self.cluster.run()
        await self.ensure_standard()
        if self.house:
            await self.house.start()
        self.spawn(sweep.sweep_forever(self))

    async def stop(self) -> None:
        for t in self.tables.values():
            t.stop()
        for task in list(self._tasks):
            task.cancel()
        if self._tasks:
            # Bounded: a task that doesn't end when cancelled must not hold the server open.
            _, stuck = await asyncio.wait(list(self._tasks), timeout=STOP_SECONDS)
            for task in stuck:
                log.error("a task did not end when the server stopped: %r", task)
        if self.house:
            self.house.stop()
        if self.cluster:
            await self.cluster.stop()

    def spawn(self, coro: Coroutine[Any, Any, Any]) -> asyncio.Task:
        """Run ``coro`` as a task of the Palast: cancelled when it stops, its failure logged."""
        task = asyncio.ensure_future(coro)
        self._tasks.add(task)

        def done(t: asyncio.Task) -> None:
            self._tasks.discard(t)
            if not t.cancelled() and t.exception() is not None:
                log.error("table task failed", exc_info=t.exception())

        task.add_done_callback(done)
        return task

    def track(self, row: TableRow) -> LiveTable:
        """Start keeping the table of ``row`` live here (its events reach its players)."""
        t = LiveTable(row, self)
        self.lobby_changed()
        self.tables[t.id] = t
        t.unsubscribe = self.broker.subscribe(t.id, self._deliver)
        return t

    def drop(self, t: LiveTable) -> None:
        """Stop keeping ``t`` (finished or closed): its timer stops, its players sit nowhere."""
        self.lobby_changed()
        self.watchers.dropped(t.id)
        t.cancel()
        if t.unsubscribe:
            t.unsubscribe()
        self.tables.pop(t.id, None)
        self.seating.dropped(t.id)
        for s in t.seats:
            if self.seated.get(s.player_id) == t.id:
                del self.seated[s.player_id]

    def table_of(self, player_id: int) -> LiveTable | None:
        """The live table the player sits at here, if any."""
        return self.tables.get(self.seated.get(player_id, 0))

    def _deliver(self, table_id: int, message: dict) -> None:
        t = self.tables.get(table_id)
        if t is None or message["type"].startswith("_"):  # "_…": between server processes only
            return
        self.watchers.deliver(table_id, message)
        text = protocol.dumps(message)  # made once for the whole table
        for s in t.seats:
            send = self.online.get(s.player_id) if not s.left else None  # one who left may sit elsewhere
            if send:
                send(text)

    # ------------------------------------------------------------------ players online
    def connect(self, player_id: int, send: Send) -> None:
        self.online[player_id] = send
        self.offline_since.pop(player_id, None)
        if self.cluster:
            self.cluster.presence(player_id, True)

    def is_online(self, player_id: int) -> bool:
        return player_id in self.online or bool(self.cluster and self.cluster.is_online(player_id))

    async def resume(self, player: PlayerRow) -> list[m.Message]:
        """Messages a player gets after ``welcome`` (SPEC §13): when seated, ``joined`` again,
        the ``round_over`` of every finished round of the table (standings and deal code), and
        ``round`` with their own position when a round is in play, plus the opponents' progress.
        A round whose seats are all done ends here (a crash may have left it in play)."""
        if self.cluster:  # the player may come from another process: read the table and games back
            where = await self.store.table_of(player.id)
            if where is not None:
                t = await self.cluster.reload(where)
                if t and t.row.round_state == ROUND_PLAYING and all(s.game for s in t.seats):
                    await t.settle()  # every seat as written, whichever process played it
        t = self.table_of(player.id)
        if t is None:
            return self.untold.pop(player.id, [])
        self.untold.pop(player.id, None)
        t.out.discard(player.id)
        out: list[m.Message] = [m.Joined(table=t.info(), code=t.row.code)]
        out += await self.past_rounds(t)
        seat = t.seat(player.id)
        if t.row.round_state == ROUND_PLAYING and seat and seat.game and not t.all_done():
            out.append(t.round_message(seat))
            out += [t.progress(s) for s in t.seats if s is not seat]
            t.mark(seat)  # the others see this player online again
        t.check_done()  # its round_over reaches this player after the messages above
        return out

    async def past_rounds(self, t: LiveTable) -> list[m.Message]:
        """The ``round_over`` of every finished round of ``t``, as they were sent."""
        if t.row.round == 0:
            return []
        by_round: dict[int, list[ResultRow]] = {}
        for r in await self.store.results(t.id):
            by_round.setdefault(r.round, []).append(r)
        if not by_round:
            return []
        deals = await self.store.round_deals(t.id)
        totals: dict[int, int] = {}
        out: list[m.Message] = []
        for n in sorted(by_round):
            for r in by_round[n]:
                totals[r.player_id] = totals.get(r.player_id, 0) + r.score
            deal = deals.get(n, t.row.deal if n == t.row.round else None) if not t.row.daily else None
            out.append(round_over(t.id, n, deal, by_round[n], totals, t.bots()))
        return out

    def disconnect(self, player_id: int, send: Send) -> None:
        if self.online.get(player_id) != send:  # bound methods: equal, never identical
            return  # a newer connection took over
        del self.online[player_id]
        self.watchers.stop(player_id)
        self.offline_since[player_id] = self.clock()
        if player_id not in self.seated:
            self.addresses.pop(player_id, None)
        if self.cluster:
            self.cluster.presence(player_id, False)
        t = self.table_of(player_id)
        if t is not None and t.row.round_state == ROUND_PLAYING:
            s = t.seat(player_id)
            if s:
                t.mark(s)

    # ------------------------------------------------------------------ lobby
    def list_tables(self, player_id: int, page: int = 0) -> m.Tables:
        """One page of the lobby (``TABLES_PAGE`` tables): the player's own table first, then
        the tables waiting for players, then those in play, each by id.  The answer's ``page``,
        ``pages`` and ``total`` say what else there is."""
        mine = self.seated.get(player_id)
        public = self._public_tables()
        own = self.tables.get(mine) if mine is not None else None
        shown = [own.info()] + [i for i in public if i.id != own.id] if own is not None else public
        pages = max(1, -(-len(shown) // TABLES_PAGE))
        page = min(page, pages - 1)
        return m.Tables(tables=shown[page * TABLES_PAGE:(page + 1) * TABLES_PAGE],
                        page=page, pages=pages, total=len(shown))

    def lobby_changed(self) -> None:
        """A table changed (seats, state, round): the lobby is made again at the next ask."""
        self._lobby = None

    def _public_tables(self) -> list[m.TableInfo]:
        """The public tables in lobby order (waiting first, then by id), made once per change
        and at most every ``LOBBY_SECONDS``: a crowd (or one player) asking many times a second
        is answered from this, not by sorting and describing every table per ask."""
        now = time.monotonic()
        if self._lobby is not None and now - self._lobby[0] < LOBBY_SECONDS:
            return self._lobby[1]
        shown = sorted((t for t in self.tables.values() if not t.row.private),
                       key=lambda t: (t.row.state != WAITING, t.id))
        infos = [t.info() for t in shown]
        self._lobby = (now, infos)
        return infos

    def tell_later(self, t: LiveTable, messages: list[m.Message]) -> None:
        """Keep a finished table's last messages for its people who are away now (a crash and
        restart ended the round, or they were offline): ``resume`` tells them (SPEC §13)."""
        away = [s for s in t.seats if not s.bot and not s.left and not self.is_online(s.player_id)]
        if not away:
            return
        joined = m.Joined(table=dataclasses.replace(t.info(), state="finished"), code=None)
        for s in away:
            if len(self.untold) >= UNTOLD_KEPT:
                self.untold.pop(next(iter(self.untold)))
            self.untold[s.player_id] = [joined, *messages]

    async def handle(self, player: PlayerRow, req: m.Message) -> m.Message:
        """Answer one checked message of a signed-in player (``messages.read_client``), by its
        class; raises ``Refusal``."""
        self.acted[player.id] = self.clock()
        if type(req) is m.Play:  # nine in ten messages: the rest of the questions can't be it
            t = self.table_of(player.id)
            if t is None:
                raise Refusal("You don't sit at a table.", code=m.Code.NOT_SEATED)
            return await t.play(player, req.move, req.id)
        if isinstance(req, m.ListTables):
            return self.list_tables(player.id, req.page)
        if isinstance(req, m.AskLeague):
            return await self.league_answer(player.name)
        if isinstance(req, m.AskRecords):
            return await records.answer(self.store, req, player.id, self.daily.told)
        if isinstance(req, m.AskDaily):
            return await self.daily.answer(req, player.name)
        if isinstance(req, m.PlayDaily):
            return await self.daily.play(player.id, player.name, req)
        if isinstance(req, (m.Watch, m.Unwatch)):
            return await self.watchers.watch(player.id, req) if isinstance(req, m.Watch) else self.watchers.unwatch(player.id)
        if isinstance(req, m.Open):
            return await self._open(player, req)
        if isinstance(req, m.Join):
            return await self._join(player, req)
        if isinstance(req, m.Hello):
            raise Refusal("You said hello already.", code=m.Code.ALREADY_HELLO)
        if not isinstance(req, (m.Leave, m.Start, m.Ready, m.Play)):  # pragma: no cover - read_client checks
            raise Refusal(f"Unknown message type {req.TYPE!r}.", code=m.Code.BAD_MESSAGE)
        t = self.table_of(player.id)
        if t is None:
            raise Refusal("You don't sit at a table.", code=m.Code.NOT_SEATED)
        if isinstance(req, m.Leave):
            return await t.leave(player)
        if isinstance(req, m.Start):
            if self.cluster:  # seats taken through other processes count
                t = await self.cluster.reload(t.id) or t
            return await t.start(player)
        if isinstance(req, m.Ready):
            return await t.ready(player)
        return await t.play(player, req.move, req.id)

    async def play(self, player: PlayerRow, move: str) -> m.Played:
        """One ``play`` move of a player at their table (house bots play through this)."""
        t = self.table_of(player.id)
        if t is None:
            raise Refusal("You don't sit at a table.", code=m.Code.NOT_SEATED)
        return await t.play(player, move)

    def league_changed(self) -> None:
        """A table's round ended: the league is read again when next asked."""
        self.league_board.changed()

    async def league_answer(self, name: str | None = None) -> m.League:
        """The ``league`` answer (``league_board.LeagueBoard.answer``)."""
        return await self.league_board.answer(name)

    # ------------------------------------------------------------------ seating
    async def _open(self, player: PlayerRow, req: m.Open) -> m.Joined:
        where = await self.store.table_of(player.id)
        if where is not None:
            raise Refusal(f"You already sit at table {where}; leave it or finish it first.",
                          code=m.Code.ALREADY_SEATED)
        code = None
        if req.private:
            for _ in range(20):
                code = "".join(secrets.choice(CODE_CHARS) for _ in range(6))
                if await self.store.table_by_code(code) is None:
                    break
        row = await self.store.create_table(
            host=player.name, suits=req.suits, rules=req.rules, rounds=req.rounds, seats=req.seats,
            private=req.private, code=code, standard=False, now=self.clock(),
        )
        reason = await self.store.seat(row.id, player.id, self.clock())
        t = self.track(row)
        if self.cluster:
            self.cluster.announce(row.id, m.TableNews(table=row.id))
        if reason:  # pragma: no cover - raced by another process
            raise Refusal(reason)
        await t.load_seats()
        t.schedule()  # it closes if it waits too long
        return m.Joined(table=t.info(), code=code)

    async def _join(self, player: PlayerRow, req: m.Join) -> m.Joined:
        if req.code is not None:
            row = await self.store.table_by_code(req.code)
            if row is None or row.state == FINISHED:
                raise Refusal("No table has that invite code.", code=m.Code.NO_TABLE)
        else:
            row = await self.store.table(req.table or 0)
            if row is None or row.state == FINISHED or (row.private and self.seated.get(player.id) != row.id):
                if row is not None and row.private and row.state != FINISHED:
                    raise Refusal("That table is private: join it with its invite code.", code=m.Code.PRIVATE)
                raise Refusal("There is no such table." if row is None else "That table is finished.",
                              code=m.Code.NO_TABLE if row is None else m.Code.TABLE_FINISHED)
        t = self.tables.get(row.id)
        if t is None and self.cluster:  # opened by another process a moment ago
            t = await self.cluster.reload(row.id)
        if t is None:
            raise Refusal("There is no such table.", code=m.Code.NO_TABLE)
        t = await self.seating.take_seat(t, player)
        await t.reload_row()  # the seats as the database holds them
        await t.load_seats()
        await t.publish(m.TableChanged(table=t.info()))
        if t.row.standard:
            if len(t.seats) >= t.row.seats:
                self.spawn(t.auto_start())
            else:
                t.schedule()
            if not self.seating.open_standard():  # the next player finds one (this answer doesn't wait)
                self.spawn(self.ensure_standard())
        return m.Joined(table=t.info(), code=t.row.code)

    async def ensure_standard(self) -> None:
        """Keep a standard table open (``Seating.ensure_standard``)."""
        await self.seating.ensure_standard()

    async def expire(self, t: LiveTable) -> None:
        """Close a table that waited ``waiting_seconds`` without starting; its players hear why."""
        if not await self.store.close_table(t.id, seated=True):
            row = await self.store.table(t.id)
            if row is not None:  # it started meanwhile
                t.row = row
                return
            # another process closed it: its players here hear it too
        message = m.Closed(table=t.id, reason=f"The table waited {span(self.options.waiting_seconds)} without "
                                              "starting and closed.")
        text = protocol.dumps(message)
        for s in t.seats:
            send = self.online.get(s.player_id)
            if send:
                send(text)
        self.drop(t)
        if self.cluster:
            self.cluster.announce(t.id, m.TableNews(table=t.id))

    # ------------------------------------------------------------------ the sweep
    def sweep(self) -> None:
        """Mark players out who are offline or idle too long, end rounds nobody plays (``sweep.sweep``)."""
        sweep.sweep(self)
