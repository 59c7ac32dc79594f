"""The Palast's lobby and tables (SPEC §13): seats, rounds, clocks, standings, the league.

``Palast`` holds the live tables of this server process in memory and keeps the database the
truth: every change is written (and every accepted action) before it is answered, and
``Palast.start`` rebuilds every live table from the store (games replayed from their accepted
actions, deadlines from the table rows) so a restarted server resumes where it stood.

It knows nothing of WebSockets: the server registers a ``send`` callable per online player and
hands it checked requests (``protocol.Request``); answers are returned, table events go out
through the ``Broker``.  Each player is only ever sent positions from their own side
(``Game.view()``): no face-down or stock card, no deal number before ``round_over``.
"""

from __future__ import annotations

import asyncio
import logging
import secrets
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Protocol

from spider_tui.engine import Game, IllegalMove
from spider_tui.engine.deal import CODE_BYTES, deal_code
from spider_tui.engine.cards import card_text

from spider_tui.palast.server import league
from spider_tui.palast.server.broker import Broker, LocalBroker
from spider_tui.palast.server.db import (
    FINISHED, NO_ROUND, PLAYING, ROUND_OVER, ROUND_PLAYING, WAITING,
    ActionRow, Placing, PlayerRow, ResultRow, StaleRound, Store, TableRow,
)
from spider_tui.palast import messages as m, protocol
from spider_tui.palast.protocol import Refusal, Request, play_rules

log = logging.getLogger("spider.palast")

#: How long stopping waits for the tables' tasks to end once cancelled.
STOP_SECONDS = 5.0

STANDARD: dict[str, Any] = dict(suits=1, rules="classic", rounds=3, seats=4)
TABLES_PAGE = 50  # tables per `tables` answer (SPEC §13: every answer has a bounded size)
LEAGUE_TOP = 50  # players in a `league` answer, plus the asker's own row
LEAGUE_SECONDS = 5.0  # a league read from the database serves this long (its rows change at table ends)
CODE_CHARS = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789"
Send = Callable[[dict | str], None]  # a message, or its JSON text made once for a whole table


def _seconds(t: float | None) -> float | None:
    """A unix time for a message: to the millisecond."""
    return None if t is None else round(t, 3)


def _span(seconds: float) -> str:
    """``10 minutes``, ``1 minute``, ``45 seconds``."""
    if seconds >= 60:
        minutes = round(seconds / 60)
        return f"{minutes} minute{'s' if minutes != 1 else ''}"
    s = round(seconds)
    return f"{s} second{'s' if s != 1 else ''}"


@dataclass
class Options:
    """Server timings; tests shorten them (SPEC §13 gives the defaults)."""

    round_seconds: float = 20 * 60
    fast_seconds: float = 10 * 60
    between_seconds: float = 30  # after round_over: the next round starts at the latest
    start_wait: float = 30  # a standard table starts this long after its second player sat
    progress_delay: float = 0.1  # progress events are coalesced over this long (≤ 1 s)
    #: Several processes: each says it is alive this often; one silent for 3× this is taken as
    #: gone, and its players show "offline" until they reconnect elsewhere.
    heartbeat_seconds: float = 5.0
    #: A player still playing who has been offline this long is "out"; a round whose players are
    #: all done (solved, gave up, stuck, left or out) ends (SPEC §13).
    out_seconds: float = 60.0
    #: A table opened by a player that hasn't started this long after it opened closes (its
    #: players are unseated); standard tables stay open (SPEC §13).
    waiting_seconds: float = 10 * 60
    #: A person alone at a standard table this long gets house bots until the table is full
    #: (``None``: no house bots); a house bot acts every ``house_bot_pace`` seconds on average.
    house_bots_after: float | None = 20.0
    house_bot_pace: float = 2.5
    #: Draws a round's deal: 16 bytes from the operating system's CSPRNG, named by a deal code
    #: (SPEC §2); never a number.  Tests may fix the bytes.
    draw: Callable[[], bytes] = field(default=lambda: secrets.token_bytes(CODE_BYTES))


def _json_seconds(x: float) -> float | int:
    """A span of seconds as JSON shows it best: 30, not 30.0."""
    return int(x) if float(x).is_integer() else x


@dataclass
class Seat:
    player_id: int
    name: str
    game: Game | None = None
    seq: int = 0
    ended_at: float | None = None  # when the game stopped (solved, gave up, stuck)
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    stale: bool = False  # an action failed to be written and the database was away: re-read first
    left: bool = False  # left the running table: the rest of its rounds are forfeited
    bot: bool = False  # a house bot (SPEC §13)

    @property
    def state(self) -> str:
        g = self.game
        if g is None:
            return "waiting"
        if g.won:
            return "solved"
        if g.lost:
            return "gave up"
        if g.stuck:
            return "stuck"
        if self.left:
            return "left"
        return "playing"


@dataclass
class LiveTable:
    row: TableRow
    seats: list[Seat] = field(default_factory=list)
    totals: dict[int, int] = field(default_factory=dict)
    timer: asyncio.TimerHandle | None = None
    dirty: set[int] = field(default_factory=set)
    flush: asyncio.TimerHandle | None = None
    ending: bool = False
    unsubscribe: Callable[[], None] | None = None
    out: set[int] = field(default_factory=set)  # players "out" this round (offline ≥ out_seconds)

    @property
    def id(self) -> int:
        return self.row.id

    def seat(self, player_id: int) -> Seat | None:
        for s in self.seats:
            if s.player_id == player_id:
                return s
        return None


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
            t = LiveTable(row)
            await self._load_seats(t)
            self._track(t)
            if row.state == PLAYING and row.round_state != NO_ROUND:
                await self._rebuild_round(t)
                for r in await self.store.results(t.id):
                    t.totals[r.player_id] = t.totals.get(r.player_id, 0) + r.score
            self._schedule(t)
            # A crash between a round's last action and its end: every seat is done, so it ends
            # now, not when its clock runs out (SPEC §13: checked whenever the server starts).
            self._check_done(t)
        if self.cluster:
            self.cluster.run()
        await self._ensure_standard()
        if self.house:
            await self.house.start()
        self._spawn(self._sweep_forever())

    async def stop(self) -> None:
        for t in self.tables.values():
            self._cancel(t)
            if t.flush:
                t.flush.cancel()
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

    def _spawn(self, coro) -> None:
        task = asyncio.ensure_future(coro)
        self._tasks.add(task)

        def done(t: asyncio.Task) -> None:
            self._tasks.discard(t)
            if not t.cancelled() and t.exception() is not None:
                log.error("table task failed", exc_info=t.exception())

        task.add_done_callback(done)

    async def _load_seats(self, t: LiveTable) -> None:
        old = {s.player_id: s for s in t.seats}
        rows = await self.store.seats(t.id)
        t.seats = [old.get(r.player_id) or Seat(r.player_id, r.name) for r in rows]
        for s, r in zip(t.seats, rows):
            s.left, s.bot = r.left_at is not None, r.bot
        for pid in old:
            if self.seated.get(pid) == t.id:
                del self.seated[pid]
        for s in t.seats:
            if not s.left:  # a player who left sits at no table here any more
                self.seated[s.player_id] = t.id

    def _track(self, t: LiveTable) -> None:
        self.tables[t.id] = t
        t.unsubscribe = self.broker.subscribe(t.id, self._deliver)

    def _drop(self, t: LiveTable) -> None:
        self._cancel(t)
        if t.unsubscribe:
            t.unsubscribe()
        self.tables.pop(t.id, None)
        for s in t.seats:
            if self.seated.get(s.player_id) == t.id:
                del self.seated[s.player_id]

    def _deliver(self, table_id: int, message: dict) -> None:
        t = self.tables.get(table_id)
        if t is None or message["type"].startswith("_"):  # "_…": between server processes only
            return
        text = protocol.dumps(message)  # made once for the whole table
        for s in t.seats:
            send = self.online.get(s.player_id) if not s.left else None  # one who left may sit elsewhere
            if send:
                send(text)

    async def _publish(self, t: LiveTable, message: dict) -> None:
        await self.broker.publish(t.id, message)

    def _rules_for(self, t: LiveTable) -> str:
        return play_rules(t.row.rules)

    def _round_seconds(self, t: LiveTable) -> float:
        return self.options.fast_seconds if "fast" in t.row.rules.split("+") else self.options.round_seconds

    async def _rebuild_round(self, t: LiveTable) -> None:
        """Each seat's game of the current round, replayed from its accepted actions."""
        row = t.row
        by_player: dict[int, list[ActionRow]] = {}
        for a in await self.store.actions(t.id, row.round):
            by_player.setdefault(a.player_id, []).append(a)
        for s in t.seats:
            self._replay(t, s, by_player.get(s.player_id, []))

    def _replay(self, t: LiveTable, s: Seat, actions: list[ActionRow]) -> None:
        assert t.row.deal is not None
        g = Game.new(t.row.deal, suits=t.row.suits, rules=self._rules_for(t))
        s.game, s.seq, s.ended_at, s.stale = g, 0, None, False
        for a in actions:
            try:
                if a.move == "undo":
                    g.undo()
                elif a.move == "give up":
                    g.give_up()
                else:
                    g.play(a.move)
            except IllegalMove:  # pragma: no cover - only accepted actions are stored
                log.error("table %s: stored action %r of player %s no longer plays", t.id, a.move, s.player_id)
            s.seq = a.seq
            if g.over or g.stuck:
                s.ended_at = a.at
            else:
                s.ended_at = None

    def _schedule(self, t: LiveTable) -> None:
        """Set the table's one timer from its row: the round's deadline, the next round's latest
        start, a standard table's start after its second player, or finish a table whose last
        round ended."""
        self._cancel(t)
        row, now = t.row, self.clock()
        if row.state == WAITING:
            if row.standard and row.full_at is not None and len(t.seats) >= 2:
                self._at(t, row.full_at + self.options.start_wait - now, lambda: self._auto_start(t))
            elif not row.standard:
                self._at(t, row.created + self.options.waiting_seconds - now, lambda: self._expire(t))
        elif row.state == PLAYING:
            if row.round_state == ROUND_PLAYING and row.ends_at is not None:
                self._at(t, row.ends_at - now, lambda: self._end_round(t, row.round))
            elif row.round_state == ROUND_OVER:
                if row.round >= row.rounds:
                    self._spawn(self._finish(t))
                elif row.next_at is not None:
                    self._at(t, row.next_at - now, lambda: self._start_round(t, row.round + 1))

    def _at(self, t: LiveTable, delay: float, make: Callable[[], Any]) -> None:
        def fire() -> None:
            t.timer = None
            self._spawn(make())

        t.timer = asyncio.get_running_loop().call_later(max(0.0, delay), fire)

    def _cancel(self, t: LiveTable) -> None:
        if t.timer is not None:
            t.timer.cancel()
            t.timer = None

    # ------------------------------------------------------------------ players online
    def connect(self, player_id: int, send: Send) -> None:
        self.online[player_id] = send
        self.offline_since.pop(player_id, None)
        if self.cluster:
            self.cluster.presence(player_id, True)

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
                    await self.settle(t)  # every seat as written, whichever process played it
        t = self.tables.get(self.seated.get(player.id, 0))
        if t is None:
            return []
        t.out.discard(player.id)
        out = [m.Joined(table=self.info(t), code=t.row.code).to_json()]
        out += await self._past_rounds(t)
        seat = t.seat(player.id)
        if t.row.round_state == ROUND_PLAYING and seat and seat.game and not self._all_done(t):
            out.append(self._round_message(t, seat))
            out += [self._progress(t, s) for s in t.seats if s is not seat]
            self._mark(t, seat)  # the others see this player online again
        self._check_done(t)  # its round_over reaches this player after the messages above
        return out

    async def _past_rounds(self, t: LiveTable) -> list[dict]:
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
            out.append(self._round_over(t, n, deal, by_round[n], totals))
        return out

    def _round_over(self, t: LiveTable, n: int, deal: int | str | None, results: list[ResultRow],
                    totals: dict[int, int]) -> dict:
        bots = {s.player_id for s in t.seats if s.bot}
        standings = [m.Standing(player=r.name, score=r.score, total=totals.get(r.player_id, 0), solved=r.solved,
                                moves=r.moves, seconds=r.seconds, state=r.state, bot=r.player_id in bots)
                     for r in results]
        standings.sort(key=lambda x: (-x.total, -x.score))
        return m.RoundOver(table=t.id, round=n, deal=deal, standings=standings).to_json()

    def disconnect(self, player_id: int, send: Send) -> None:
        if self.online.get(player_id) != send:  # bound methods: equal, never identical
            return  # a newer connection took over
        del self.online[player_id]
        self.offline_since[player_id] = self.clock()
        if self.cluster:
            self.cluster.presence(player_id, False)
        t = self.tables.get(self.seated.get(player_id, 0))
        if t is not None and t.row.round_state == ROUND_PLAYING:
            s = t.seat(player_id)
            if s:
                self._mark(t, s)

    # ------------------------------------------------------------------ lobby
    def info(self, t: LiveTable) -> m.TableInfo:
        r = t.row
        return m.TableInfo(
            id=r.id, host=r.host, suits=r.suits, rules=r.rules, rounds=r.rounds, round=r.round, seats=r.seats,
            players=[s.name for s in t.seats], state=r.state, private=r.private, training=r.training,
            standard=r.standard, round_seconds=int(self._round_seconds(t)),
            # The pause between rounds (`spider server --between-seconds`), for the clients' text.
            between_seconds=_json_seconds(self.options.between_seconds),
            # A standard table's start wait after its second player (`spider server --start-wait`).
            start_seconds=_json_seconds(self.options.start_wait) if r.standard else None,
            # each player with what the name alone doesn't say: a house bot, or left the table
            seated=[m.Seated(player=s.name, bot=s.bot, left=s.left) for s in t.seats],
        )

    def list_tables(self, player_id: int, page: int = 0) -> dict:
        """One page of the lobby (``TABLES_PAGE`` tables): the player's own table first, then
        the tables waiting for players, then those in play, each by id.  The answer's ``page``,
        ``pages`` and ``total`` say what else there is."""
        mine = self.seated.get(player_id)
        shown = sorted((t for t in self.tables.values() if not t.row.private or t.id == mine),
                       key=lambda t: (t.id != mine, t.row.state != WAITING, t.id))
        pages = max(1, -(-len(shown) // TABLES_PAGE))
        page = min(page, pages - 1)
        return m.Tables(tables=[self.info(t) for t in shown[page * TABLES_PAGE:(page + 1) * TABLES_PAGE]],
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
        if kind == "leave":
            return await self._leave(player)
        if kind == "start":
            return await self._start(player)
        if kind == "ready":
            return await self._ready(player)
        if kind == "play":
            return await self.play(player, req["move"])
        if kind == "hello":
            raise Refusal("You said hello already.")
        raise Refusal(f"Unknown message type {kind!r}.")  # pragma: no cover - protocol checks

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
        t = LiveTable(row)
        self._track(t)
        if self.cluster:
            self.cluster.announce(row.id, {"type": "_table", "table": row.id})
        if reason:  # pragma: no cover - raced by another process
            raise Refusal(reason)
        await self._load_seats(t)
        self._schedule(t)  # it closes if it waits too long
        return m.Joined(table=self.info(t), code=code).to_json()

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
        await self._publish(t, m.TableChanged(table=self.info(t)).to_json())
        if t.row.standard:
            if len(t.seats) >= t.row.seats:
                self._spawn(self._auto_start(t))
            else:
                self._schedule(t)
            await self._ensure_standard()
        return m.Joined(table=self.info(t), code=t.row.code).to_json()

    async def _take_seat(self, t: LiveTable, player: PlayerRow) -> LiveTable:
        """Seat ``player`` at ``t`` (or, for a standard table that filled up, at the open one);
        the table they now sit at, its seats loaded."""
        reason = await self.store.seat(t.id, player.id, self.clock())
        for _ in range(10):
            if not reason or not t.row.standard or not reason.startswith(("That table is full", "That table has started")):
                break
            await self._ensure_standard()
            t = next((x for x in self.tables.values() if x.row.standard and x.row.state == WAITING
                      and len(x.seats) < x.row.seats), t)
            reason = await self.store.seat(t.id, player.id, self.clock())
        if reason:
            raise Refusal(reason)
        t.row = await self.store.table(t.id) or t.row
        await self._load_seats(t)
        return t

    async def _leave(self, player: PlayerRow) -> dict:
        t = self.tables.get(self.seated.get(player.id, 0))
        if t is None:
            raise Refusal("You don't sit at a table.")
        if t.row.state == PLAYING:
            return await self._leave_running(t, player)
        if t.row.state != WAITING:
            raise Refusal("The table is finished.")
        if not await self.store.unseat(t.id, player.id):
            raise Refusal("The table has started.")
        await self._load_seats(t)
        self.seated.pop(player.id, None)
        if not t.seats and not t.row.standard:
            await self.store.close_table(t.id)  # a table that played nothing leaves no row behind
            self._drop(t)
        else:
            if t.row.host == player.name and t.seats:
                await self.store.set_host(t.id, t.seats[0].name)
            t.row = await self.store.table(t.id) or t.row
            self._schedule(t)
            await self._publish(t, m.TableChanged(table=self.info(t)).to_json())
        return m.Left(table=t.id).to_json()

    async def _leave_running(self, t: LiveTable, player: PlayerRow) -> dict:
        """Leave a table in play (SPEC §13): the rest of the player's rounds are forfeited, the
        seat stays in the standings and the total is ranked at the end.  The player may sit
        down elsewhere at once."""
        s = t.seat(player.id)
        if s is None:  # pragma: no cover - seated map and seats agree
            raise Refusal("You don't sit at a table.")
        async with s.lock:
            if not await self.store.leave_running(t.id, player.id, self.clock()):
                raise Refusal("You have left that table.")
            s.left = True
        self.seated.pop(player.id, None)
        if self.cluster:
            self.cluster.announce(t.id, {"type": "_table", "table": t.id})
        if t.row.round_state == ROUND_PLAYING and s.game is not None:
            self._mark(t, s)
            self._check_done(t)
        elif t.row.round_state == ROUND_OVER:
            await self._maybe_next(t)
        return m.Left(table=t.id).to_json()

    async def _start(self, player: PlayerRow) -> dict:
        t = self.tables.get(self.seated.get(player.id, 0))
        if t is None:
            raise Refusal("You don't sit at a table.")
        if self.cluster:  # seats taken through other processes count
            t = await self.cluster.reload(t.id) or t
        if t.row.standard:
            raise Refusal(f"A standard table starts by itself (when full, or {_span(self.options.start_wait)} "
                          "after its second player).")
        if t.row.host != player.name:
            raise Refusal("Only the host starts the table.")
        if t.row.state != WAITING:
            raise Refusal("The table has started.")
        if len(t.seats) < 2 and not t.row.training:
            raise Refusal("A table starts with at least two players (a Training table may start alone).")
        if not await self._start_round(t, 1):
            raise Refusal("The table has started.")
        return m.Started(table=t.id).to_json()

    async def _ready(self, player: PlayerRow) -> dict:
        t = self.tables.get(self.seated.get(player.id, 0))
        if t is None:
            raise Refusal("You don't sit at a table.")
        row = t.row
        if row.state != PLAYING or row.round_state != ROUND_OVER or row.round >= row.rounds:
            raise Refusal("'ready' is for the pause between rounds.")
        await self.store.set_ready(t.id, player.id, row.round)
        await self._maybe_next(t)
        return m.ReadyTaken(table=t.id, round=row.round).to_json()

    async def _expire(self, t: LiveTable) -> None:
        """Close a table that waited ``waiting_seconds`` without starting; its players hear why."""
        if not await self.store.close_table(t.id, seated=True):
            row = await self.store.table(t.id)
            if row is not None:  # it started meanwhile
                t.row = row
                return
            # another process closed it: its players here hear it too
        message = m.Closed(table=t.id, reason=f"The table waited {_span(self.options.waiting_seconds)} without "
                                              "starting and closed.").to_json()
        text = protocol.dumps(message)
        for s in t.seats:
            send = self.online.get(s.player_id)
            if send:
                send(text)
        self._drop(t)
        if self.cluster:
            self.cluster.announce(t.id, {"type": "_table", "table": t.id})

    async def _maybe_next(self, t: LiveTable) -> None:
        """Between rounds: the next round starts once every player still at the table is ready
        (those who left, and bots, are not waited for)."""
        row = t.row
        if row.state != PLAYING or row.round_state != ROUND_OVER or row.round >= row.rounds:
            return
        seats = await self.store.seats(t.id)
        waiting = [s for s in seats if s.left_at is None and not s.bot]
        if all(s.ready >= row.round for s in waiting):
            self._spawn(self._start_round(t, row.round + 1))

    async def _auto_start(self, t: LiveTable) -> None:
        t.row = await self.store.table(t.id) or t.row
        if self.cluster:
            await self._load_seats(t)
        if t.row.state == WAITING and len(t.seats) >= 2:
            await self._start_round(t, 1)

    async def _ensure_standard(self) -> None:
        """Keep a standard table open: another one opens when the open ones fill or start."""
        async with self._standard_lock:
            if self.cluster:  # share the standard tables other processes opened
                await self.cluster.load_standard()
            for t in self.tables.values():
                if t.row.standard and t.row.state == WAITING and len(t.seats) < t.row.seats:
                    return
            row = await self.store.create_table(host=None, private=False, code=None, standard=True,
                                                now=self.clock(), **STANDARD)
            self._track(LiveTable(row))
            if self.cluster:
                self.cluster.announce(row.id, {"type": "_table", "table": row.id})

    # ------------------------------------------------------------------ rounds
    def _round_message(self, t: LiveTable, s: Seat) -> dict:
        assert s.game is not None
        return m.Round(table=t.id, round=t.row.round, position=s.game.view(), ends_at=_seconds(t.row.ends_at)).to_json()

    async def _start_round(self, t: LiveTable, n: int) -> bool:
        deal = deal_code(self.options.draw())  # 16 bytes or nothing: a number can't get in
        now = self.clock()
        seconds = self._round_seconds(t)
        if not await self.store.start_round(t.id, n, deal, now, now + seconds):
            return False
        self._cancel(t)
        t.row = await self.store.table(t.id) or t.row
        await self._load_seats(t)
        t.ending = False
        t.out.clear()
        for s in t.seats:
            self._replay(t, s, [])
        self._schedule(t)
        first = t.seats[0].game if t.seats else None
        view = first.view() if first is not None else ""
        await self._publish(t, m.Round(table=t.id, round=n, position=view, ends_at=_seconds(t.row.ends_at)).to_json())
        for s in t.seats:
            self._mark(t, s)
        if n == 1:  # `spider server` says what it does: one line per table started and finished
            log.info("table %s started: %s suit(s), %s, %s round(s), players %s", t.id, t.row.suits, t.row.rules,
                     t.row.rounds, ", ".join(s.name for s in t.seats))
            if t.row.standard:
                await self._ensure_standard()
        self._check_done(t)  # every player left or is out: nothing to wait for
        return True

    async def play(self, player: PlayerRow, move: str) -> dict:
        t = self.tables.get(self.seated.get(player.id, 0))
        if t is None:
            raise Refusal("You don't sit at a table.")
        s = t.seat(player.id)
        if s is None:  # pragma: no cover - seated map and seats agree
            raise Refusal("You don't sit at a table.")
        async with s.lock:
            row = t.row
            if s.stale and row.round_state == ROUND_PLAYING:
                try:
                    self._replay(t, s, [a for a in await self.store.actions(t.id, row.round) if a.player_id == player.id])
                except Exception:
                    raise Refusal("The server can't reach its database just now; nothing changed. Try again.") from None
            if row.round_state != ROUND_PLAYING or t.ending or s.game is None:
                raise Refusal("No round is in play at your table." if row.round_state != ROUND_PLAYING else "The round is over.")
            now = self.clock()
            if row.ends_at is not None and now >= row.ends_at:
                raise Refusal("Time is up for this round.")
            g = s.game
            if g.won:
                raise Refusal("You solved this round; wait for the others.")
            if g.lost:
                raise Refusal("You gave up this round; wait for the others.")
            played = None
            if move == "undo":
                if not g.rules.undo_allowed:
                    raise Refusal("Undo is off at this table.")
                if g.last_was_joker:  # SPEC §13: a joker is final (undo would say where a card lies)
                    raise Refusal("A joker is final in the Palast: undo stops before it.")
                if not g.undo():
                    raise Refusal("Nothing to undo.")
                text = "undo"
            elif move == "give up":
                g.give_up()
                text = "give up"
            else:
                try:
                    played = g.play(move)
                except IllegalMove as e:
                    raise Refusal(e.reason) from None
                text = str(played)
            s.seq += 1
            n = row.round
            try:
                ok = await self.store.add_action(ActionRow(t.id, n, player.id, s.seq, text, now))
            except Exception:
                log.exception("table %s: could not write an action", t.id)
                ok = False
            if not ok:
                try:
                    self._replay(t, s, [a for a in await self.store.actions(t.id, n) if a.player_id == player.id])
                    now_row = await self.store.table(t.id)
                except Exception:  # the database is away: take the game back from it before the next action
                    s.stale = True
                    now_row = None
                if now_row is not None and (now_row.round != n or now_row.round_state != ROUND_PLAYING):
                    raise Refusal("The round is over.")  # another process ended it a moment ago
                raise Refusal("The server could not record that move; nothing changed. Try again.")
            if self.cluster:
                self.cluster.announce(t.id, {"type": "_action", "table": t.id, "round": n, "player_id": player.id,
                                             "seq": s.seq, "move": text, "at": now})
            state = s.state
            s.ended_at = now if state != "playing" else None
        self._mark(t, s)
        answer = m.Played(
            move=text, position=g.view(), score=g.score, moves=g.moves, state=state,
            turned_up=[m.TurnedUp(column=c + 1, card=card_text(card)) for c, card in played.turned_up] if played else [],
            dealt=[card_text(c) for c in played.dealt] if played else [],
            completed=[c + 1 for c, _suit in played.completed] if played else [],  # the wire names columns 1-10
        ).to_json()
        if self._all_done(t):
            self._spawn(self._end_round(t, n))
        return answer

    # -- progress
    def _progress(self, t: LiveTable, s: Seat) -> dict:
        g = s.game
        state = self._state(t, s)
        if state == "playing" and not self.is_online(s.player_id):
            state = "offline"
        seconds = None
        if state == "solved" and s.ended_at is not None and t.row.round_started is not None:
            seconds = round(s.ended_at - t.row.round_started, 1)
        return m.Progress(table=t.id, player=s.name, score=g.score if g else 0, runs=len(g.done) if g else 0,
                          moves=g.moves if g else 0, state=state, bot=s.bot, seconds=seconds).to_json()

    def is_online(self, player_id: int) -> bool:
        return player_id in self.online or bool(self.cluster and self.cluster.is_online(player_id))

    def _state(self, t: LiveTable, s: Seat) -> str:
        """The seat's state in this round: its game's, or ``out`` (offline too long while playing)."""
        state = s.state
        return "out" if state == "playing" and s.player_id in t.out else state

    def _all_done(self, t: LiveTable) -> bool:
        """Every player has solved, given up, is stuck, left or is out (SPEC §13)."""
        return bool(t.seats) and all(s.game is not None and self._state(t, s) != "playing" for s in t.seats)

    def _check_done(self, t: LiveTable) -> None:
        """End the round in play when nobody is playing it any more."""
        if t.row.round_state == ROUND_PLAYING and not t.ending and self._all_done(t):
            self._spawn(self._end_round(t, t.row.round))

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
                    self._mark(t, s)
            self._check_done(t)
        if self.house:
            self.house.check()

    def _mark(self, t: LiveTable, s: Seat) -> None:
        """Send the seat's progress to the table soon, coalescing bursts (well within 1 s)."""
        t.dirty.add(s.player_id)
        if t.flush is None:
            t.flush = asyncio.get_running_loop().call_later(self.options.progress_delay, self._flush, t)

    def _flush(self, t: LiveTable) -> None:
        t.flush = None
        dirty, t.dirty = t.dirty, set()
        for s in t.seats:
            if s.player_id in dirty and s.game is not None:
                self._spawn(self._publish(t, self._progress(t, s)))

    async def replay_seat(self, t: LiveTable, s: Seat) -> None:
        """The seat's game again from the actions the database holds for it."""
        actions = [a for a in await self.store.actions(t.id, t.row.round) if a.player_id == s.player_id]
        self._replay(t, s, actions)

    async def settle(self, t: LiveTable) -> None:
        """Before a round's results: every seat's game as written in the database (a remote
        player's last actions may not have arrived yet).  Each seat under its lock, so an action
        of a player here that is being written is waited for, not lost."""
        for s in t.seats:
            async with s.lock:
                await self.replay_seat(t, s)

    def _results(self, t: LiveTable, n: int, now: float) -> tuple[list[ResultRow], dict[int, int]]:
        """Each seat's result of round ``n`` as its game stands, and the last action ``seq`` per
        player they were made from."""
        start = t.row.round_started or now
        results = []
        for s in t.seats:
            g = s.game
            assert g is not None
            state = self._state(t, s)
            if state == "playing":
                state = "out of time" if t.row.ends_at is not None and now >= t.row.ends_at - 0.001 else "playing"
            ended = s.ended_at if s.ended_at is not None else now
            results.append(ResultRow(t.id, n, s.player_id, s.name, g.score or 0, g.won, g.moves,
                                     round(max(0.0, ended - start), 1), state))
        return results, {s.player_id: s.seq for s in t.seats}

    async def _end_round(self, t: LiveTable, n: int) -> None:
        if t.row.round != n or t.row.round_state != ROUND_PLAYING or t.ending:
            return
        t.ending = True
        if t.flush is not None:  # the last progress (an "out", a last move) goes out before round_over
            t.flush.cancel()
            self._flush(t)
        last = n >= t.row.rounds
        for attempt in range(5):
            if self.cluster or attempt:  # the games as written, whichever process played them
                await self.settle(t)
            now = self.clock()
            results, seqs = self._results(t, n, now)
            next_at = None if last else now + self.options.between_seconds
            try:
                ended = await self.store.end_round(t.id, n, results, now, next_at, seqs)
            except StaleRound:  # a last action was written meanwhile (on another process): read the games again
                log.info("table %s round %s: an action came in while the round ended; counting it", t.id, n)
                continue
            break
        else:
            ended = False
        if not ended:
            t.ending = False
            t.row = await self.store.table(t.id) or t.row
            return
        self._league = None  # experience changed
        for r in results:
            t.totals[r.player_id] = t.totals.get(r.player_id, 0) + r.score
        t.row = await self.store.table(t.id) or t.row
        over = self._round_over(t, n, t.row.deal, results, t.totals)
        if not last:
            await self._publish(t, over)
            self._schedule(t)
            return
        # The last round: the final ranking is written first, then round_over and table_over go
        # out back to back (nothing else in between, SPEC §13).
        table_over = await self._finish_table(t)
        await self._publish(t, over)
        if table_over:
            await self._publish(t, table_over)
        self._drop(t)

    async def _finish_table(self, t: LiveTable) -> dict | None:
        """Write the final ranking and the league once; the ``table_over`` event, or None when
        another call (or process) already finished the table."""
        totals = [(s.player_id, t.totals.get(s.player_id, 0)) for s in t.seats]
        ranking = league.places(totals)
        # House bots never get a rating, and a table whose only person played with bots counts
        # as Training for the league (SPEC §13): only people are rated, and only two or more.
        bots = {s.player_id for s in t.seats if s.bot}
        counted = not t.row.training and len(t.seats) - len(bots) >= 2
        placings = [Placing(pid, total, place) for pid, total, place in ranking if pid not in bots]
        if not await self.store.finish_table(t.id, placings, counted, league.rate):
            return None
        names = {s.player_id: s.name for s in t.seats}
        log.info("table %s finished: %s", t.id, ", ".join(f"{place}. {names[pid]} {total}" for pid, total, place in ranking))
        return m.TableOver(table=t.id, ranking=[m.Ranked(player=names[pid], total=total, place=place)
                                                for pid, total, place in ranking]).to_json()

    async def _finish(self, t: LiveTable) -> None:
        """Finish a table whose last round ended before a restart."""
        table_over = await self._finish_table(t)
        if table_over:
            await self._publish(t, table_over)
        self._drop(t)
