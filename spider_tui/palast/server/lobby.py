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

import asyncio
import logging
import secrets
import time
from collections.abc import Callable, Coroutine
from typing import Any, Protocol

from spider_tui.palast import messages as m, protocol
from spider_tui.palast.protocol import Refusal, Request
from spider_tui.palast.server import league
from spider_tui.palast.server.broker import Broker, LocalBroker
from spider_tui.palast.server.db import FINISHED, NO_ROUND, PLAYING, ROUND_PLAYING, WAITING, PlayerRow, ResultRow, Store, TableRow
from spider_tui.palast.server.table import LiveTable, Options, Seat, Send, round_over, span

__all__ = ["Palast", "Options", "LiveTable", "Seat", "Send", "House", "Cluster", "TABLES_PAGE", "LEAGUE_TOP"]

log = logging.getLogger("spider.palast")

#: How long stopping waits for the tables' tasks to end once cancelled.
STOP_SECONDS = 5.0

STANDARD: dict[str, Any] = dict(suits=1, rules="classic", rounds=3, seats=4)
TABLES_PAGE = 50  # tables per `tables` answer (SPEC §13: every answer has a bounded size)
LEAGUE_TOP = 50  # players in a `league` answer, plus the asker's own row
LEAGUE_SECONDS = 5.0  # a league read from the database serves this long (its rows change at table ends)
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
    def announce(self, table_id: int, message: dict) -> None: ...
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
        self._standard_lock = asyncio.Lock()
        self._seating = asyncio.Lock()  # one player at a time sits down at a standard table
        self.offline_since: dict[int, float] = {}  # seated players seen offline, since when
        self._league: tuple[float, list[dict]] | None = None  # (read at, every ranked row)
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
        self.spawn(self._sweep_forever())

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
        self.tables[t.id] = t
        t.unsubscribe = self.broker.subscribe(t.id, self._deliver)
        return t

    def drop(self, t: LiveTable) -> None:
        """Stop keeping ``t`` (finished or closed): its timer stops, its players sit nowhere."""
        t.cancel()
        if t.unsubscribe:
            t.unsubscribe()
        self.tables.pop(t.id, None)
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

    async def resume(self, player: PlayerRow) -> list[dict]:
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
            return []
        t.out.discard(player.id)
        out = [m.Joined(table=t.info(), code=t.row.code).to_json()]
        out += await self.past_rounds(t)
        seat = t.seat(player.id)
        if t.row.round_state == ROUND_PLAYING and seat and seat.game and not t.all_done():
            out.append(t.round_message(seat))
            out += [t.progress(s) for s in t.seats if s is not seat]
            t.mark(seat)  # the others see this player online again
        t.check_done()  # its round_over reaches this player after the messages above
        return out

    async def past_rounds(self, t: LiveTable) -> list[dict]:
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
        out = []
        for n in sorted(by_round):
            for r in by_round[n]:
                totals[r.player_id] = totals.get(r.player_id, 0) + r.score
            deal = deals.get(n, t.row.deal if n == t.row.round else None)
            out.append(round_over(t.id, n, deal, by_round[n], totals, t.bots()))
        return out

    def disconnect(self, player_id: int, send: Send) -> None:
        if self.online.get(player_id) != send:  # bound methods: equal, never identical
            return  # a newer connection took over
        del self.online[player_id]
        self.offline_since[player_id] = self.clock()
        if self.cluster:
            self.cluster.presence(player_id, False)
        t = self.table_of(player_id)
        if t is not None and t.row.round_state == ROUND_PLAYING:
            s = t.seat(player_id)
            if s:
                t.mark(s)

    # ------------------------------------------------------------------ lobby
    def list_tables(self, player_id: int, page: int = 0) -> dict:
        """One page of the lobby (``TABLES_PAGE`` tables): the player's own table first, then
        the tables waiting for players, then those in play, each by id.  The answer's ``page``,
        ``pages`` and ``total`` say what else there is."""
        mine = self.seated.get(player_id)
        shown = sorted((t for t in self.tables.values() if not t.row.private or t.id == mine),
                       key=lambda t: (t.id != mine, t.row.state != WAITING, t.id))
        pages = max(1, -(-len(shown) // TABLES_PAGE))
        page = min(page, pages - 1)
        return m.Tables(tables=[t.info() for t in shown[page * TABLES_PAGE:(page + 1) * TABLES_PAGE]],
                        page=page, pages=pages, total=len(shown)).to_json()

    async def handle(self, player: PlayerRow, req: Request) -> dict:
        """Answer one checked request of a signed-in player; raises ``Refusal``."""
        kind = req.type
        if kind == "tables":
            return self.list_tables(player.id, req["page"] or 0)
        if kind == "league":
            return await self.league_answer(player.name)
        if kind == "open":
            return await self._open(player, req)
        if kind == "join":
            return await self._join(player, req)
        if kind == "hello":
            raise Refusal("You said hello already.")
        if kind not in ("leave", "start", "ready", "play"):  # pragma: no cover - protocol checks
            raise Refusal(f"Unknown message type {kind!r}.")
        t = self.table_of(player.id)
        if t is None:
            raise Refusal("You don't sit at a table.")
        if kind == "leave":
            return await t.leave(player)
        if kind == "start":
            if self.cluster:  # seats taken through other processes count
                t = await self.cluster.reload(t.id) or t
            return await t.start(player)
        if kind == "ready":
            return await t.ready(player)
        return await t.play(player, req["move"])

    async def play(self, player: PlayerRow, move: str) -> dict:
        """One ``play`` move of a player at their table (house bots play through this)."""
        t = self.table_of(player.id)
        if t is None:
            raise Refusal("You don't sit at a table.")
        return await t.play(player, move)

    def league_changed(self) -> None:
        """A table's round ended: the league is read again when next asked."""
        self._league = None

    async def league(self) -> list[dict]:
        """Every ranked player, best first, each with its ``place`` (read at most every
        ``LEAGUE_SECONDS``, and again after a table of this process finished)."""
        now = time.monotonic()
        if self._league is not None and now - self._league[0] < LEAGUE_SECONDS:
            return self._league[1]
        rows = await self.store.league()
        out: list[dict[str, Any]] = [{"name": p.name, "rating": league.ordinal(p.rating_mu, p.rating_sigma), "tables": p.tables,
                "wins": p.wins, "experience": p.experience} for p in rows]
        out.sort(key=lambda p: (-p["rating"], -p["experience"], p["name"].casefold()))
        for i, p in enumerate(out, 1):
            p["place"] = i
        self._league = (now, out)
        return out

    async def league_answer(self, name: str | None = None) -> dict:
        """The ``league`` answer: the best ``LEAGUE_TOP`` players, how many are ranked, and the
        asker's own row (``me``, None when not ranked yet)."""
        rows = await self.league()
        key = name.casefold() if name else None
        me = next((p for p in rows if p["name"].casefold() == key), None) if key else None
        return m.League(players=[m.LeagueRow.from_json(p) for p in rows[:LEAGUE_TOP]], total=len(rows),
                        me=m.LeagueRow.from_json(me) if me else None).to_json()

    # ------------------------------------------------------------------ seating
    async def _open(self, player: PlayerRow, req: Request) -> dict:
        where = await self.store.table_of(player.id)
        if where is not None:
            raise Refusal(f"You already sit at table {where}; leave it or finish it first.")
        code = None
        if req["private"]:
            for _ in range(20):
                code = "".join(secrets.choice(CODE_CHARS) for _ in range(6))
                if await self.store.table_by_code(code) is None:
                    break
        row = await self.store.create_table(
            host=player.name, suits=req["suits"], rules=req["rules"], rounds=req["rounds"], seats=req["seats"],
            private=req["private"], code=code, standard=False, now=self.clock(),
        )
        reason = await self.store.seat(row.id, player.id, self.clock())
        t = self.track(row)
        if self.cluster:
            self.cluster.announce(row.id, {"type": "_table", "table": row.id})
        if reason:  # pragma: no cover - raced by another process
            raise Refusal(reason)
        await t.load_seats()
        t.schedule()  # it closes if it waits too long
        return m.Joined(table=t.info(), code=code).to_json()

    async def _join(self, player: PlayerRow, req: Request) -> dict:
        if req["code"] is not None:
            row = await self.store.table_by_code(req["code"])
            if row is None or row.state == FINISHED:
                raise Refusal("No table has that invite code.")
        else:
            row = await self.store.table(req["table"])
            if row is None or row.state == FINISHED or (row.private and self.seated.get(player.id) != row.id):
                if row is not None and row.private and row.state != FINISHED:
                    raise Refusal("That table is private: join it with its invite code.")
                raise Refusal("There is no such table." if row is None else "That table is finished.")
        t = self.tables.get(row.id)
        if t is None and self.cluster:  # opened by another process a moment ago
            t = await self.cluster.reload(row.id)
        if t is None:
            raise Refusal("There is no such table.")
        if t.row.standard:
            # Standard tables are all alike: players sit down one at a time (a crowd arriving at
            # once would otherwise race for the same last seat), and one that filled up meanwhile
            # sends the player to the open one.
            async with self._seating:
                t = await self._take_seat(t, player)
        else:
            t = await self._take_seat(t, player)
        await t.publish(m.TableChanged(table=t.info()).to_json())
        if t.row.standard:
            if len(t.seats) >= t.row.seats:
                self.spawn(t.auto_start())
            else:
                t.schedule()
            await self.ensure_standard()
        return m.Joined(table=t.info(), code=t.row.code).to_json()

    async def _take_seat(self, t: LiveTable, player: PlayerRow) -> LiveTable:
        """Seat ``player`` at ``t`` (or, for a standard table that filled up, at the open one);
        the table they now sit at, its seats loaded."""
        reason = await self.store.seat(t.id, player.id, self.clock())
        for _ in range(10):
            if not reason or not t.row.standard or not reason.startswith(("That table is full", "That table has started")):
                break
            await self.ensure_standard()
            t = next((x for x in self.tables.values() if x.row.standard and x.row.state == WAITING
                      and len(x.seats) < x.row.seats), t)
            reason = await self.store.seat(t.id, player.id, self.clock())
        if reason:
            raise Refusal(reason)
        await t.reload_row()
        await t.load_seats()
        return t

    async def ensure_standard(self) -> None:
        """Keep a standard table open: another one opens when the open ones fill or start."""
        async with self._standard_lock:
            if self.cluster:  # share the standard tables other processes opened
                await self.cluster.load_standard()
            for t in self.tables.values():
                if t.row.standard and t.row.state == WAITING and len(t.seats) < t.row.seats:
                    return
            row = await self.store.create_table(host=None, private=False, code=None, standard=True,
                                                now=self.clock(), **STANDARD)
            self.track(row)
            if self.cluster:
                self.cluster.announce(row.id, {"type": "_table", "table": row.id})

    async def expire(self, t: LiveTable) -> None:
        """Close a table that waited ``waiting_seconds`` without starting; its players hear why."""
        if not await self.store.close_table(t.id, seated=True):
            row = await self.store.table(t.id)
            if row is not None:  # it started meanwhile
                t.row = row
                return
            # another process closed it: its players here hear it too
        message = m.Closed(table=t.id, reason=f"The table waited {span(self.options.waiting_seconds)} without "
                                              "starting and closed.").to_json()
        text = protocol.dumps(message)
        for s in t.seats:
            send = self.online.get(s.player_id)
            if send:
                send(text)
        self.drop(t)
        if self.cluster:
            self.cluster.announce(t.id, {"type": "_table", "table": t.id})

    # ------------------------------------------------------------------ the sweep
    async def _sweep_forever(self) -> None:
        step = max(0.02, min(1.0, self.options.out_seconds / 6, (self.options.house_bots_after or 4) / 4))
        while True:
            await asyncio.sleep(step)
            try:
                self.sweep()
            except Exception:  # pragma: no cover - a bug here must not stop the sweeps
                log.exception("sweep failed")

    def sweep(self) -> None:
        """Mark players offline for ``out_seconds`` while playing as out, and end rounds whose
        players are all done.  Runs every few seconds (with several processes, each one)."""
        now = self.clock()
        for t in list(self.tables.values()):
            if t.row.round_state != ROUND_PLAYING or t.ending:
                continue
            for s in t.seats:
                if s.game is None or s.state != "playing":
                    continue
                if self.is_online(s.player_id):
                    self.offline_since.pop(s.player_id, None)
                    t.out.discard(s.player_id)
                    continue
                since = self.offline_since.setdefault(s.player_id, now)
                if now - since >= self.options.out_seconds and s.player_id not in t.out:
                    t.out.add(s.player_id)
                    t.mark(s)
            t.check_done()
        if self.house:
            self.house.check()

