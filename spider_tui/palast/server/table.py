"""One live table of the Palast (SPEC §13): its seats, its clock, its rounds and their moves.

A ``LiveTable`` is one table of the lobby (``lobby.Palast``) in memory; the database stays the
truth: every change is written (and every accepted action) before it is answered.  The lobby
makes the tables, seats players and dispatches their messages; the table plays them: it starts
and ends rounds (``start_round``, ``end_round``), takes moves (``play``), lets players go
(``leave``), and keeps its one timer (``schedule``).  House bots and the cluster use these
public methods only.  Each player is only ever sent positions from their own side
(``Game.view()``): no face-down or stock card, no deal number before ``round_over``.
"""

from __future__ import annotations

import asyncio
import logging
import secrets
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from spider_tui.engine import Game, IllegalMove, Played
from spider_tui.engine.deal import CODE_BYTES, deal_code

from spider_tui.palast import messages as m
from spider_tui.palast.commitment import commitment
from spider_tui.palast.protocol import Refusal, play_rules
from spider_tui.palast.server import league
from spider_tui.palast.server.answers import Answers, played_answer
from spider_tui.palast.server.daily import told_deal
from spider_tui.palast.server.progress import ProgressFeed
from spider_tui.palast.server.records import records_of_round
from spider_tui.palast.server.db import (
    PLAYING, ROUND_OVER, ROUND_PLAYING, WAITING, ActionRow, Placing, PlayerRow, ResultRow, StaleRound, TableRow,
)

if TYPE_CHECKING:  # pragma: no cover
    from spider_tui.palast.server.lobby import Palast

log = logging.getLogger("spider.palast")

Send = Callable[[m.Message | str], None]  # a message, or its JSON text made once for a whole table


def seconds_of(t: float | None) -> float | None:
    """A unix time for a message: to the millisecond."""
    return None if t is None else round(t, 3)


def span(seconds: float) -> str:
    """``10 minutes``, ``1 minute``, ``45 seconds``."""
    if seconds >= 60:
        minutes = round(seconds / 60)
        return f"{minutes} minute{'s' if minutes != 1 else ''}"
    s = round(seconds)
    return f"{s} second{'s' if s != 1 else ''}"


def json_seconds(x: float) -> float | int:
    """A span of seconds as JSON shows it best: 30, not 30.0."""
    return int(x) if float(x).is_integer() else x


@dataclass
class Options:
    """Server timings; tests shorten them (SPEC §13 gives the defaults)."""

    round_seconds: float = 20 * 60
    fast_seconds: float = 10 * 60
    between_seconds: float = 30  # after round_over: the next round starts at the latest
    start_wait: float = 30  # a standard table starts this long after its second player sat
    #: Progress events are coalesced over this long (≤ 1 s).  Each flush is one write to every
    #: connection at the table, whatever it carries: at a four-seat table of players acting once a
    #: second, 0.25 s makes that about 2 writes an action where 0.1 s made about 2.9 (issue 32).
    progress_delay: float = 0.25
    #: Several processes: each says it is alive this often; one silent for 3× this is taken as
    #: gone, and its players show "offline" until they reconnect elsewhere.
    heartbeat_seconds: float = 5.0
    #: A player still playing who has been offline this long is "out"; a round whose players are
    #: all done (solved, gave up, stuck, left or out) ends (SPEC §13).
    out_seconds: float = 60.0
    #: A player connected and playing who makes no action this long is out too, shown "idle"
    #: (SPEC §13: 3 minutes), so nobody holds a round for its whole clock by sitting still.
    idle_seconds: float = 180.0
    #: A table opened by a player that hasn't started this long after it opened closes (its
    #: players are unseated); standard tables stay open (SPEC §13).
    waiting_seconds: float = 10 * 60
    #: A person alone at a standard table this long gets house bots until the table is full
    #: (``None``: no house bots); a house bot acts every ``house_bot_pace`` seconds on average.
    house_bots_after: float | None = 20.0
    house_bot_pace: float = 2.5
    #: At most this many tables have house bots at once (``spider server --house-tables``), a
    #: person who hasn't acted this long gets no new bots, and the bots' thinking uses at most
    #: this share of one CPU, averaged (SPEC §13).  Once no person plays the round, the bots play
    #: on briskly this long for a real result, then stop ("stopped when you finished").
    house_tables: int = 16
    house_idle_seconds: float = 60.0
    house_cpu: float = 0.25
    house_finish_seconds: float = 20.0
    #: Draws a round's deal: 16 bytes from the operating system's CSPRNG, named by a deal code
    #: (SPEC §2); never a number.  Tests may fix the bytes.
    draw: Callable[[], bytes] = field(default=lambda: secrets.token_bytes(CODE_BYTES))
    #: The Palast's address as its round records name it (SPEC §16 ``palast:``); the server sets
    #: ``ws://HOST:PORT`` when it starts and none was given.
    address: str | None = None


def apply_action(g: Game, move: str) -> None:
    """Play one accepted action (as stored) on a game; raises ``IllegalMove``."""
    if move == "undo":
        g.undo()
    elif move == "give up":
        g.give_up()
    else:
        g.play(move)


def as_training(training: bool, seats: list[Seat]) -> bool:
    """Training for the league: opened as Training, or one person (or none) with house bots
    (SPEC §13); the lobby, ``joined`` and the final screen say so."""
    return training or (any(s.bot for s in seats) and sum(not s.bot for s in seats) < 2)


def final_ranking(seats: list[Seat], totals: dict[int, int], training: bool,
                  results: list[ResultRow] | None = None) -> tuple[list[tuple[int, int, int]], list[Placing], bool]:
    """A finished table's ranking ``(player id, total, place)``, the placings the league is
    given, and whether the table counts for the league.  With the table's ``results``, only
    people who really played are rated (>= 10 moves, no 0-point give-up: issue 29)."""
    ranking = league.places([(s.player_id, totals.get(s.player_id, 0)) for s in seats])
    # House bots never get a rating, and a table whose only person played with bots counts
    # as Training for the league (SPEC §13): only people are rated, and only two or more.
    bots = {s.player_id for s in seats if s.bot}
    people = [(pid, total) for pid, total, _place in ranking if pid not in bots]
    if results is not None:
        moves: dict[int, int] = {}
        gave_up: set[int] = set()
        for r in results:
            moves[r.player_id] = moves.get(r.player_id, 0) + r.moves
            if r.state == "gave up":
                gave_up.add(r.player_id)
        people = league.players_who_played(people, moves, gave_up)
    played = league.places(people)
    counted = not training and len(played) >= 2
    return ranking, [Placing(pid, total, place) for pid, total, place in played], counted


def table_info(r: TableRow, seats: list[Seat], o: Options, round_seconds: float) -> m.TableInfo:
    """The table object of the lobby, ``joined`` and ``table``."""
    return m.TableInfo(
        id=r.id, host=r.host, suits=r.suits, rules=r.rules, rounds=r.rounds, round=r.round, seats=r.seats,
        players=[s.name for s in seats], state=r.state, private=r.private, training=as_training(r.training, seats),
        standard=r.standard, round_seconds=int(round_seconds),
        # The pause between rounds (`spider server --between-seconds`), for the clients' text.
        between_seconds=json_seconds(o.between_seconds),
        # A standard table's start wait after its second player (`spider server --start-wait`).
        start_seconds=json_seconds(o.start_wait) if r.standard else None,
        fast_seconds=int(o.fast_seconds),
        # each player with what the name alone doesn't say: a house bot, or left the table
        seated=[m.Seated(player=s.name, bot=s.bot, left=s.left) for s in seats],
    )


def round_over(table_id: int, n: int, deal: int | str | None, results: list[ResultRow], totals: dict[int, int],
               bots: set[int]) -> m.RoundOver:
    """The ``round_over`` event of round ``n``: the standings by total, then by score."""
    standings = [m.Standing(player=r.name, score=r.score, total=totals.get(r.player_id, 0), solved=r.solved,
                            moves=r.moves, seconds=r.seconds, state=r.state, bot=r.player_id in bots)
                 for r in results]
    standings.sort(key=lambda x: (-x.total, -x.score))
    return m.RoundOver(table=table_id, round=n, deal=deal, standings=standings)


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
    stopped: bool = False  # a house bot that stopped when the people had finished the round
    acted_at: float | None = None  # the seat's last action this round (for "idle")
    answers: Answers = field(default_factory=Answers)  # play ids answered this round (SPEC §13)

    @property
    def state(self) -> str:
        g = self.game
        if g is None:
            return "waiting"
        if g.won:
            return "solved"
        if g.lost:
            return "stopped" if self.stopped else "gave up"
        if g.stuck:
            return "stuck"
        if self.left:
            return "left"
        return "playing"

    def replay(self, deal: int | str, suits: int, rules: str, actions: list[ActionRow]) -> None:
        """The seat's game of a round from its deal and ``actions`` (as stored)."""
        g = Game.new(deal, suits=suits, rules=rules)
        self.game, self.seq, self.ended_at, self.stale, self.acted_at = g, 0, None, False, None
        for a in actions:
            try:
                apply_action(g, a.move)
            except IllegalMove:  # pragma: no cover - only accepted actions are stored
                log.error("stored action %r of player %s no longer plays", a.move, self.player_id)
            self.seq = a.seq
            self.acted_at = a.at
            self.ended_at = a.at if g.over or g.stuck else None

    def result(self, table_id: int, n: int, state: str, out_of_time: bool, start: float, now: float) -> ResultRow:
        """The seat's result of round ``n`` as its game stands (``state``: its state this round)."""
        g = self.game
        assert g is not None
        if state == "playing":
            state = "out of time" if out_of_time else "playing"
        ended = self.ended_at if self.ended_at is not None else now
        return ResultRow(table_id, n, self.player_id, self.name, g.score or 0, g.won, g.moves,
                         round(max(0.0, ended - start), 1), state)

    def act(self, move: str) -> tuple[str, Played | None]:
        """Play a checked ``play`` move on the seat's game by the Palast's rules: the action as
        stored, and what the move did (None for undo and give up); raises ``Refusal``."""
        g = self.game
        assert g is not None
        if g.won:
            raise Refusal("You solved this round; wait for the others.", code=m.Code.DONE)
        if g.lost:
            raise Refusal("You gave up this round; wait for the others.", code=m.Code.DONE)
        if move == "undo":
            if not g.rules.undo_allowed:
                raise Refusal("Undo is off at this table.", code=m.Code.UNDO_OFF)
            if g.last_was_joker:  # SPEC §13: a joker is final (undo would say where a card lies)
                raise Refusal("A joker is final in the Palast: undo stops before it.", code=m.Code.JOKER_FINAL)
            if not g.undo():
                raise Refusal("Nothing to undo.", code=m.Code.NOTHING_TO_UNDO)
            return "undo", None
        if move == "give up":
            g.give_up()
            return "give up", None
        try:
            played = g.play(move)
        except IllegalMove as e:
            raise Refusal(e.reason, code=m.Code.ILLEGAL_MOVE) from None
        return str(played), played


class SeatsTaken:
    """The seats one process is writing at a table, for a crowd seated side by side: players
    whose seat is being written (``pending``, counted as taken), and seats written since a
    reading of the seats began (``after``: that reading keeps them)."""

    def __init__(self) -> None:
        self.pending: set[int] = set()
        self.gen = 0
        self._fresh: dict[int, tuple[int, Seat]] = {}

    def written(self, seat: Seat) -> Seat:
        self.gen += 1
        self._fresh[seat.player_id] = (self.gen, seat)
        return seat

    def after(self, gen: int, read: set[int]) -> list[Seat]:
        """The seats written after ``gen`` that a reading (of the players ``read``) missed."""
        if not self._fresh:
            return []
        self._fresh = {pid: (g, s) for pid, (g, s) in self._fresh.items() if g > gen and pid not in read}
        return [s for _, s in self._fresh.values()]


class LiveTable:
    """One table of the lobby: its row as the database holds it, its seats with their games,
    the players' totals so far, and its one timer."""

    def __init__(self, row: TableRow, lobby: Palast) -> None:
        self.row = row
        self.lobby = lobby
        self.seats: list[Seat] = []
        self.totals: dict[int, int] = {}
        self.timer: asyncio.TimerHandle | None = None
        self.feed = ProgressFeed(self)  # the seats' progress events
        self.ending = False
        self.unsubscribe: Callable[[], None] | None = None
        self.out: set[int] = set()  # players "out" this round (offline ≥ out_seconds)
        self.idle: set[int] = set()  # players out this round for making no action (idle_seconds)
        self.taking = SeatsTaken()  # the seats being written here (a crowd seated side by side)

    @property
    def id(self) -> int:
        return self.row.id

    def seat(self, player_id: int) -> Seat | None:
        for s in self.seats:
            if s.player_id == player_id:
                return s
        return None

    def room(self) -> int:
        """Free seats as this process knows them: the seats held and those being taken here."""
        return self.row.seats - len({s.player_id for s in self.seats} | self.taking.pending)

    def took(self, player_id: int, name: str) -> None:
        """A seat here was just written for ``player_id``: counted at once."""
        if self.seat(player_id) is None:
            self.seats.append(self.taking.written(Seat(player_id, name)))

    def bots(self) -> set[int]:
        """The player ids of the house bots seated here."""
        return {s.player_id for s in self.seats if s.bot}

    # ------------------------------------------------------------------ seats and games
    async def reload_row(self) -> None:
        """The table's row again from the database (kept when it is gone)."""
        self.row = await self.lobby.store.table(self.id) or self.row

    async def load_seats(self) -> None:
        """The seats as the database holds them (games kept), and the lobby's map of who sits
        where with them."""
        seated = self.lobby.seated
        self.lobby.lobby_changed()
        gen = self.taking.gen
        rows = await self.lobby.store.seats(self.id)
        old = {s.player_id: s for s in self.seats}
        self.seats = [old.get(r.player_id) or Seat(r.player_id, r.name) for r in rows]
        for s, r in zip(self.seats, rows):
            s.left, s.bot = r.left_at is not None, r.bot
        self.seats += self.taking.after(gen, {r.player_id for r in rows})
        for pid in old:
            if seated.get(pid) == self.id:
                del seated[pid]
        for s in self.seats:
            if not s.left:  # a player who left sits at no table here any more
                seated[s.player_id] = self.id

    def round_seconds(self) -> float:
        """How long one round of this table lasts (Fast: the shorter clock)."""
        o = self.lobby.options
        return o.fast_seconds if "fast" in self.row.rules.split("+") else o.round_seconds

    async def rebuild_round(self) -> None:
        """Each seat's game of the current round, replayed from its accepted actions."""
        by_player: dict[int, list[ActionRow]] = {}
        for a in await self.lobby.store.actions(self.id, self.row.round):
            by_player.setdefault(a.player_id, []).append(a)
        for s in self.seats:
            self.replay(s, by_player.get(s.player_id, []))

    async def rebuild_totals(self) -> None:
        """Each player's total over the rounds finished so far, from the results written."""
        totals: dict[int, int] = {}
        for r in await self.lobby.store.results(self.id):
            totals[r.player_id] = totals.get(r.player_id, 0) + r.score
        self.totals = totals

    def replay(self, s: Seat, actions: list[ActionRow]) -> None:
        """The seat's game of this round from its deal and ``actions`` (as stored)."""
        assert self.row.deal is not None
        s.replay(self.row.deal, self.row.suits, play_rules(self.row.rules), actions)

    async def replay_seat(self, s: Seat) -> None:
        """The seat's game again from the actions the database holds for it."""
        actions = [a for a in await self.lobby.store.actions(self.id, self.row.round) if a.player_id == s.player_id]
        self.replay(s, actions)

    async def settle(self) -> None:
        """Before a round's results: every seat's game as written in the database (a remote
        player's last actions may not have arrived yet).  Each seat under its lock, so an action
        of a player here that is being written is waited for, not lost."""
        for s in self.seats:
            async with s.lock:
                await self.replay_seat(s)

    # ------------------------------------------------------------------ the clock
    def schedule(self) -> None:
        """Set the table's one timer from its row: the round's deadline, the next round's latest
        start, a standard table's start after its second player, or finish a table whose last
        round ended."""
        self.cancel()
        row, now, o = self.row, self.lobby.clock(), self.lobby.options
        if row.state == WAITING:
            if row.standard and row.full_at is not None and len(self.seats) >= 2:
                self._at(row.full_at + o.start_wait - now, self.auto_start)
            elif not row.standard:
                self._at(row.created + o.waiting_seconds - now, lambda: self.lobby.expire(self))
        elif row.state == PLAYING:
            if row.round_state == ROUND_PLAYING and row.ends_at is not None:
                n = row.round
                self._at(row.ends_at - now, lambda: self.end_round(n))
            elif row.round_state == ROUND_OVER:
                if row.round >= row.rounds:
                    self.lobby.spawn(self.finish())
                elif row.next_at is not None:
                    n = row.round + 1
                    self._at(row.next_at - now, lambda: self.start_round(n))

    def _at(self, delay: float, make: Callable[[], Any]) -> None:
        def fire() -> None:
            self.timer = None
            self.lobby.spawn(make())

        self.timer = asyncio.get_running_loop().call_later(max(0.0, delay), fire)

    def cancel(self) -> None:
        """Stop the table's timer and its pending progress."""
        if self.timer is not None:
            self.timer.cancel()
            self.timer = None

    def stop(self) -> None:
        """The server stops: no timer, no progress to flush."""
        self.cancel()
        self.feed.stop()

    # ------------------------------------------------------------------ what players see
    async def publish(self, message: m.Message) -> None:
        """An event to everyone at the table (on every server process)."""
        if not isinstance(message, m.Progress):
            self.lobby.lobby_changed()  # the lobby shows the table changed
        await self.lobby.broker.publish(self.id, message)

    def info(self) -> m.TableInfo:
        """The table object of the lobby, ``joined`` and ``table``."""
        return table_info(self.row, self.seats, self.lobby.options, self.round_seconds())

    def round_message(self, s: Seat) -> m.Round:
        """The ``round`` event with the seat's own position."""
        assert s.game is not None
        return m.Round(table=self.id, round=self.row.round, position=s.game.view(),
                       ends_at=seconds_of(self.row.ends_at), commitment=deal_commitment(self.row.deal))

    def progress(self, s: Seat) -> m.Progress:
        """The seat's ``progress`` event."""
        return self.feed.progress(s)

    def state_of(self, s: Seat) -> str:
        """The seat's state in this round: its game's, or ``out`` (offline too long while playing)."""
        state = s.state
        if state == "playing" and s.player_id in self.idle:
            return "idle"
        return "out" if state == "playing" and s.player_id in self.out else state

    def all_done(self) -> bool:
        """Every player has solved, given up, is stuck, left or is out (SPEC §13)."""
        return bool(self.seats) and all(s.game is not None and self.state_of(s) != "playing" for s in self.seats)

    def check_done(self) -> None:
        """End the round in play when nobody is playing it any more."""
        if self.row.round_state == ROUND_PLAYING and not self.ending and self.all_done():
            self.lobby.spawn(self.end_round(self.row.round))

    def mark(self, s: Seat) -> None:
        """Send the seat's progress to the table soon, coalescing bursts (well within 1 s)."""
        self.feed.mark(s)

    # ------------------------------------------------------------------ rounds
    async def start_round(self, n: int, deal: str | None = None) -> bool:
        """Deal round ``n`` (one deal for every seat: a fresh code, or ``deal``, the day's at a
        daily table) and start its clock; False when another call (or process) started it."""
        lobby = self.lobby
        deal = deal or deal_code(lobby.options.draw())  # 16 bytes or nothing: a number can't get in
        now = lobby.clock()
        if not await lobby.store.start_round(self.id, n, deal, now, now + self.round_seconds()):
            return False
        self.cancel()
        await self.reload_row()
        await self.load_seats()
        self.ending = False
        self.out.clear()
        self.idle.clear()
        for s in self.seats:
            self.replay(s, [])
        self.schedule()
        first = self.seats[0].game if self.seats else None
        view = first.view() if first is not None else ""
        await self.publish(m.Round(table=self.id, round=n, position=view, ends_at=seconds_of(self.row.ends_at),
                                   commitment=deal_commitment(deal)))
        for s in self.seats:
            self.mark(s)
        if n == 1:  # `spider server` says what it does: one line per table started and finished
            log.info("table %s started: %s suit(s), %s, %s round(s), players %s", self.id, self.row.suits,
                     self.row.rules, self.row.rounds, ", ".join(s.name for s in self.seats))
            if self.row.standard:
                await lobby.ensure_standard()
        self.check_done()  # every player left or is out: nothing to wait for
        return True

    async def play(self, player: PlayerRow, move: str, msg_id: int | None = None) -> m.Played:
        """One action of a seated player (a checked ``play`` move): written, then answered with
        ``played``; raises ``Refusal``.  A ``msg_id`` this seat's play was already answered for
        this round is answered again, the same, and not played twice (SPEC §13)."""
        lobby = self.lobby
        s = self.seat(player.id)
        if s is None:  # pragma: no cover - seated map and seats agree
            raise Refusal("You don't sit at a table.", code=m.Code.NOT_SEATED)
        async with s.lock:
            row = self.row
            if msg_id is not None and (again := await s.answers.again(self, s, msg_id)) is not None:
                return again  # a resend (after a reconnect, say): not played again
            if s.stale and row.round_state == ROUND_PLAYING:
                try:
                    await self.replay_seat(s)
                except Exception:
                    raise Refusal("The server can't reach its database just now; nothing changed. Try again.",
                                  code=m.Code.TRY_AGAIN) from None
            if row.round_state != ROUND_PLAYING or self.ending or s.game is None:
                raise Refusal("No round is in play at your table." if row.round_state != ROUND_PLAYING else "The round is over.",
                              code=m.Code.NO_ROUND)
            now = lobby.clock()
            if row.ends_at is not None and now >= row.ends_at:
                raise Refusal("Time is up for this round.", code=m.Code.NO_ROUND)
            g = s.game
            text, played = s.act(move)
            s.seq += 1
            n = row.round
            try:
                ok = await lobby.store.add_action(ActionRow(self.id, n, player.id, s.seq, text, now))
            except Exception:
                log.exception("table %s: could not write an action", self.id)
                ok = False
            if not ok:
                try:
                    await self.replay_seat(s)
                    now_row = await lobby.store.table(self.id)
                except Exception:  # the database is away: take the game back from it before the next action
                    s.stale = True
                    now_row = None
                if now_row is not None and (now_row.round != n or now_row.round_state != ROUND_PLAYING):
                    raise Refusal("The round is over.", code=m.Code.NO_ROUND)  # another process ended it a moment ago
                raise Refusal("The server could not record that move; nothing changed. Try again.",
                              code=m.Code.TRY_AGAIN)
            if lobby.cluster:
                lobby.cluster.announce(self.id, m.ActionTaken(table=self.id, round=n, player_id=player.id,
                                                              seq=s.seq, move=text, at=now))
            state = s.state
            s.ended_at = now if state != "playing" else None
            s.acted_at = now
            self.idle.discard(player.id)
        self.mark(s)
        answer = played_answer(text, g, state, played)
        if msg_id is not None:
            s.answers.keep(n, msg_id, s.seq, answer)
        # The player who just acted and still plays (not idle now, not out) keeps the round going:
        # no need to ask every seat's state (``stuck`` looks for a move in each game).
        if not (state == "playing" and player.id not in self.out) and self.all_done():
            lobby.spawn(self.end_round(n))
        return answer

    def _results(self, n: int, now: float) -> tuple[list[ResultRow], dict[int, int]]:
        """Each seat's result of round ``n`` as its game stands, and the last action ``seq`` per
        player they were made from."""
        start = self.row.round_started or now
        over = self.row.ends_at is not None and now >= self.row.ends_at - 0.001
        results = [s.result(self.id, n, self.state_of(s), over, start, now) for s in self.seats]
        return results, {s.player_id: s.seq for s in self.seats}

    async def end_round(self, n: int) -> None:
        """End round ``n`` (its clock ran out, or nobody plays it any more): the results are
        written once, then ``round_over`` (and after the last round ``table_over``) go out."""
        row, lobby = self.row, self.lobby
        if row.round != n or row.round_state != ROUND_PLAYING or self.ending:
            return
        self.ending = True
        last = n >= row.rounds
        for attempt in range(5):
            if lobby.cluster or attempt:  # the games as written, whichever process played them
                await self.settle()
            now = lobby.clock()
            results, seqs = self._results(n, now)
            next_at = None if last else now + lobby.options.between_seconds
            try:
                made = await records_of_round(self, n, results, now)  # written with the results (SPEC §16)
                ended = await lobby.store.end_round(self.id, n, results, now, next_at, seqs, made)
            except StaleRound:  # a last action was written meanwhile (on another process): read the games again
                log.info("table %s round %s: an action came in while the round ended; counting it", self.id, n)
                continue
            break
        else:
            ended = False
        if not ended:
            self.ending = False
            await self.reload_row()
            return
        lobby.league_changed()
        for r in results:
            self.totals[r.player_id] = self.totals.get(r.player_id, 0) + r.score
        await self.reload_row()
        over = round_over(self.id, n, told_deal(self.row), results, self.totals, self.bots())
        # Every seat's last progress goes out before round_over, also one whose last action was
        # still being written when the round began to end (settle waited for it, and it marked
        # its seat meanwhile).
        await self.feed.flush_now()
        if not last:
            await self.publish(over)
            self.schedule()
            return
        # The last round: the final ranking is written first, then round_over and table_over go
        # out back to back (nothing else in between, SPEC §13).
        table_over = await self._finish_table()
        await self.feed.flush_now()
        await self.publish(over)
        if table_over:
            await self.publish(table_over)
            lobby.tell_later(self, [over, table_over])
        lobby.drop(self)

    async def _finish_table(self) -> m.TableOver | None:
        """Write the final ranking and the league once; the ``table_over`` event, or None when
        another call (or process) already finished the table."""
        results = await self.lobby.store.results(self.id)
        ranking, placings, counted = final_ranking(self.seats, self.totals, as_training(self.row.training, self.seats), results)
        if not await self.lobby.store.finish_table(self.id, placings, counted, league.rate):
            return None
        names = {s.player_id: s.name for s in self.seats}
        log.info("table %s finished: %s", self.id,
                 ", ".join(f"{place}. {names[pid]} {total}" for pid, total, place in ranking))
        return m.TableOver(table=self.id, ranking=[m.Ranked(player=names[pid], total=total, place=place)
                                                   for pid, total, place in ranking])

    async def finish(self) -> None:
        """Finish a table whose last round ended before a restart."""
        table_over = await self._finish_table()
        if table_over:
            await self.publish(table_over)
        self.lobby.drop(self)

    # ------------------------------------------------------------------ players coming and going
    async def start(self, player: PlayerRow) -> m.Started:
        """The host starts a table they opened (``start``); raises ``Refusal``."""
        lobby, row = self.lobby, self.row
        if row.standard:
            raise Refusal(f"A standard table starts by itself (when full, or {span(lobby.options.start_wait)} "
                          "after its second player).", code=m.Code.STANDARD)
        if row.host != player.name:
            raise Refusal("Only the host starts the table.", code=m.Code.NOT_HOST)
        if row.state != WAITING:
            raise Refusal("The table has started.", code=m.Code.TABLE_STARTED)
        if len(self.seats) < 2 and not row.training:
            raise Refusal("A table starts with at least two players (a Training table may start alone).",
                          code=m.Code.TOO_FEW)
        if not await self.start_round(1):
            raise Refusal("The table has started.", code=m.Code.TABLE_STARTED)
        return m.Started(table=self.id)

    async def auto_start(self) -> None:
        """A standard table starts by itself (full, or its start wait is over)."""
        await self.reload_row()
        if self.lobby.cluster:
            await self.load_seats()
        if self.row.state == WAITING and len(self.seats) >= 2:
            await self.start_round(1)

    async def ready(self, player: PlayerRow) -> m.ReadyTaken:
        """A player is ready for the next round (``ready``); raises ``Refusal``."""
        row = self.row
        if row.state != PLAYING or row.round_state != ROUND_OVER or row.round >= row.rounds:
            raise Refusal("'ready' is for the pause between rounds.", code=m.Code.NOT_BETWEEN)
        await self.lobby.store.set_ready(self.id, player.id, row.round)
        await self.maybe_next()
        return m.ReadyTaken(table=self.id, round=row.round)

    async def maybe_next(self) -> None:
        """Between rounds: the next round starts once every player still at the table is ready
        (those who left, and bots, are not waited for)."""
        row = self.row
        if row.state != PLAYING or row.round_state != ROUND_OVER or row.round >= row.rounds:
            return
        seats = await self.lobby.store.seats(self.id)
        waiting = [s for s in seats if s.left_at is None and not s.bot]
        if all(s.ready >= row.round for s in waiting):
            self.lobby.spawn(self.start_round(row.round + 1))

    async def leave(self, player: PlayerRow) -> m.Left:
        """A seated player leaves (``leave``): unseated from a waiting table, or from a table in
        play with the rest of their rounds forfeited; raises ``Refusal``."""
        lobby = self.lobby
        if self.row.state == PLAYING:
            return await self._leave_running(player)
        if self.row.state != WAITING:
            raise Refusal("The table is finished.", code=m.Code.TABLE_FINISHED)
        if not await lobby.store.unseat(self.id, player.id):
            raise Refusal("The table has started.", code=m.Code.TABLE_STARTED)
        await self.load_seats()
        lobby.seated.pop(player.id, None)
        if not self.seats and not self.row.standard:
            await lobby.store.close_table(self.id)  # a table that played nothing leaves no row behind
            lobby.drop(self)
        else:
            if self.row.host == player.name and self.seats:
                await lobby.store.set_host(self.id, self.seats[0].name)
            await self.reload_row()
            self.schedule()
            await self.publish(m.TableChanged(table=self.info()))
        return m.Left(table=self.id)

    async def _leave_running(self, player: PlayerRow) -> m.Left:
        """Leave a table in play (SPEC §13): the rest of the player's rounds are forfeited, the
        seat stays in the standings and the total is ranked at the end.  The player may sit
        down elsewhere at once."""
        lobby = self.lobby
        s = self.seat(player.id)
        if s is None:  # pragma: no cover - seated map and seats agree
            raise Refusal("You don't sit at a table.", code=m.Code.NOT_SEATED)
        async with s.lock:
            if not await lobby.store.leave_running(self.id, player.id, lobby.clock()):
                raise Refusal("You have left that table.", code=m.Code.LEFT)
            s.left = True
        lobby.seated.pop(player.id, None)
        if lobby.cluster:
            lobby.cluster.announce(self.id, m.TableNews(table=self.id))
        if self.row.round_state == ROUND_PLAYING and s.game is not None:
            self.mark(s)
            self.check_done()
        elif self.row.round_state == ROUND_OVER:
            await self.maybe_next()
        return m.Left(table=self.id)



def deal_commitment(deal: object) -> str | None:
    """The round's ``commitment`` (SPEC §13): the hex SHA-256 of its deal code."""
    return commitment(deal) if isinstance(deal, str) else None
