"""A Palast round from the player's side, as plain Python (SPEC §13): the connection, the lobby,
the seat, the race, the standings and the final ranking.  No Textual: the screens only render
what this holds and call its methods.

``PalastSession`` signs in with ``PalastClient`` and then reads the server's events for as long as
it lives.  It keeps:

- ``tables`` (the lobby, refreshed by ``refresh()``), ``table`` (the seat) and ``code``;
- ``race``: a ``RaceTable`` — the normal ``Table`` on a view game (unseen cards ``??``).  A move
  the player makes is played on it at once and sent; the server's answer tells the cards it
  turned up (or the row a deal brought).  A refusal puts the table back to the server's last
  position and says why, quietly.  The server's word is final;
- ``opponents``: the last ``progress`` of every other player at the table;
- ``standings`` (the last ``round_over``), ``deals`` (the deal number of every finished round, for
  "play it alone") and ``ranking`` (``table_over``);
- ``offline``: the connection dropped; it reconnects with backoff and the server's ``joined`` and
  ``round`` put the same position back;
- ``records``: every player's record of a finished round (SPEC §16, ``load_records``), each read
  and replayed (``PlayerRecord``): the standings screen's "watch";
- ``watched`` / ``watch_lines``: a running table watched from the lobby (``watch``, ``unwatch``):
  its players' lines live, no cards; its ``round_over`` and ``table_over`` as they come;
- ``daily``: the daily board (``load_daily``), and today's try (``play_daily``).

``on_change(what)`` is called after every change, with one word: ``lobby``, ``seat``, ``round``,
``table`` (the race table changed), ``progress``, ``standings``, ``final``, ``offline``,
``online``, ``status``, ``records``, ``watch``, ``daily``.  Progress never touches the race table (the screen repaints only the
opponents' lines).

What it keeps are the typed messages of ``spider_tui.palast.messages`` (``TableInfo``,
``Progress``, ``RoundOver``, ``Ranked``, ``LeagueRow``): their numbers were checked when the
message was read (``read_server``), and every string in them was made ``visible`` once, where the
session reads a message (``seen``), so the screens read attributes and show them as they are.
"""

from __future__ import annotations

import asyncio
import dataclasses
import time
from dataclasses import dataclass
from collections import deque
from typing import Any, Callable, TypeVar

from websockets.exceptions import InvalidHandshake, InvalidURI

from spider_tui.engine import Game, IllegalMove, Move
from spider_tui.engine.game import PositionError, Why
from spider_tui.engine.deal import check_deal_number
from spider_tui.engine_words import said
from spider_tui.i18n import N_, _, language, ngettext
from spider_tui.session import Offer, Session
from spider_tui.points import joker_column, told_points
from spider_tui.table import Table

from spider_tui.safe_text import visible

from spider_tui import records as record_text
from spider_tui.records import Record, RecordError

from spider_tui.palast import messages as m
from spider_tui.palast.commitment import verified
from spider_tui.palast.client.client import PalastClient, Refused

#: Reconnect waits (seconds), the last one repeats.
BACKOFF = (0.2, 0.5, 1.0, 2.0, 4.0)


class PalastError(Exception):
    """Signing in failed: ``str(e)`` is one quiet line for the player, ``code`` why (for the
    program: ``Code.UNREACHABLE`` when nothing answered, else the server's code, or None)."""

    def __init__(self, text: str, code: m.Code | None = None) -> None:
        super().__init__(text)
        self.code = code


class Unreachable(PalastError):
    """Nothing answered at the address (refused, no answer, not a server address)."""


def _unreachable(url: str, e: BaseException) -> Unreachable:
    """Why nothing usable answered at ``url``, in our own words (never the operating system's):
    ``Code.UNREACHABLE`` when nothing answered at all, ``Code.TOO_MANY`` for the server's limits,
    else no code (``reach.why``)."""
    from spider_tui.palast.client.reach import why

    return Unreachable(*why(url, e))


P = TypeVar("P", bound=m.Part)


def seen(part: P) -> P:
    """A copy of a typed message (or a part of one) with every string in it made ``visible``:
    its own fields, and those of the parts and lists inside it (no control character but a
    newline reaches the terminal, wherever the text ends up).  The one door network text takes:
    the session passes every message it reads through it, once."""
    return dataclasses.replace(part, **{f.name: _seen(getattr(part, f.name)) for f in dataclasses.fields(part)})


def _seen(value: Any) -> Any:
    if isinstance(value, str):
        return visible(value)
    if isinstance(value, m.Part):
        return seen(value)
    if isinstance(value, list):
        return [_seen(v) for v in value]
    return value


def line(text: object, limit: int = 300) -> str:
    """Network text for a status line: visible, one line, bounded."""
    s = visible(text if isinstance(text, str) else str(text), newlines=False)
    return s if len(s) <= limit else s[: limit - 1] + "…"


def _typed(obj: Any) -> m.Message | None:
    """A message the server sent, typed (None when it fits no definition)."""
    try:
        return m.read_server(obj)
    except m.BadMessage:
        return None


#: What a sign-in may answer that reconnecting again won't change (the name and token).
FINAL_CODES = frozenset({m.Code.BAD_TOKEN, m.Code.NAME_TAKEN, m.Code.TOO_MANY_NAMES})


async def sign_in(url: str, name: str, token: str | None) -> PalastClient:
    """Connect and say hello; raises ``PalastError`` with one line (never a traceback)."""
    try:
        client = await PalastClient.connect(url)
    except (OSError, asyncio.TimeoutError, InvalidHandshake, InvalidURI, ValueError) as e:
        raise _unreachable(url, e if not isinstance(e, ValueError) else InvalidURI(url, str(e)))
    client.keep_received = True
    try:
        lang = language()  # the server's reasons in the language spoken here (SPEC §17)
        await client.hello(name, token, lang=None if lang == "en" else lang)
    except Refused as e:
        await client.close()
        raise PalastError(line(e.reason or _("The server said no.")), e.code)
    except (ConnectionError, asyncio.TimeoutError, OSError, ValueError):
        await client.close()
        errors = [msg for msg in map(_typed, client.received) if isinstance(msg, m.Error)]
        if errors and errors[-1].reason:
            raise PalastError(line(errors[-1].reason), errors[-1].why)
        raise PalastError(_("{url} closed the connection.").format(url=url))
    finally:
        client.keep_received = False
        client.received.clear()
    return client


#: The status line once the connection is back and the server's position is in.
BACK_ONLINE_TEXT = N_("Back online: the round goes on.")  # each shown through _()

#: What the Palast says while the connection is down (the lobby, the race, the status lines).
OFFLINE = N_("Offline, reconnecting…")
OFFLINE_MOVES = N_("Moves wait until the connection is back.")
#: The race's status line while its connection is down (in English; shown through ``_``).
OFFLINE_TEXT = f"{OFFLINE} {OFFLINE_MOVES}"


class RaceTable(Table):
    """The race table: a ``Table`` whose actions go to the server (see ``PalastSession``).

    Moves, deals and jokers are played at once on the view; undo is played at once when the view
    remembers the move, else it waits for the server's position.  The countdown is the round's
    (``ends_at``, unix seconds); the server ends the round, not this table."""

    def __init__(self, game: Game, session: "PalastSession", ends_at: float, **kw: Any):
        super().__init__(game, **kw)
        self.session = session
        self.ends_at = ends_at

    def won_text(self) -> str:
        return ngettext("Solved in {n} move. The round ends when the others are done.",
                        "Solved in {n} moves. The round ends when the others are done.", self.moves).format(n=self.moves)

    def tell_cards(self, dealt: list[str], turned_up: list[tuple[int, str]]) -> None:
        """The server told the cards a move of the view turned up (``turned_up``: 0-based column, card)
        or the row a deal brought (``dealt``): the view shows them.  Raises ``ValueError`` on
        cards that don't fit the view (the server's position then replaces it)."""
        g = self.game
        told = False
        score, runs = g.score, len(g.done)
        if dealt and g.unknown:
            g.tell_row(dealt)
            told = True
            if g.score is not None and score is not None and g.score != score:
                self.earned = told_points(g, g.score - score, runs)  # the deal's joins, shown where earned
        turned = [(col, card) for col, card in turned_up if col in g.unknown]
        if turned:
            g.tell(turned)
            told = True
        if told:
            self._changed()

    def take_server_game(self, game: Game, action: str | None) -> None:
        """The server's position replaces the view's; the points it brings that the view didn't
        know (a joker's card, say) show where they were earned: at the joker's column."""
        before = self.game.score
        self.take_game(game)
        if before is None or game.score is None or game.score == before or not action:
            return
        column = joker_column(action)
        if column is not None:
            self.earned = told_points(game, game.score - before, len(game.done), column)
            self._changed()

    # the server ends the round
    @property
    def time_left(self) -> float | None:
        return max(0.0, self.ends_at - self.session.now())

    def check_time(self) -> bool:
        return False

    @property
    def status_line(self) -> str:
        """While the connection is down the status line says so, whatever else was said since (a
        hint, a group picked up): a move can't go through until it is back."""
        if self.session.offline and not self.session.closed:
            return f"{_(OFFLINE)} {_(OFFLINE_MOVES)}"
        return super().status_line

    def _blocked(self) -> bool:
        if self.session.offline:
            self.status = _(OFFLINE)
            self._changed()
            return True
        return False

    def play(self, move: Move | str) -> bool:
        if self.over or self._blocked():
            return False
        try:
            resolved = self.game.resolve(move)
        except IllegalMove as e:
            self.status = said(e.reason)
            self._changed()
            return False
        if not super().play(resolved):
            return False
        self.session._send(str(resolved))
        return True

    def _play_joker(self, col: int) -> None:
        if self._blocked():
            self.joker_pending = False
            return
        reason = self.game.joker_refusal(col)
        if reason is not None and reason.code is Why.VIEW:
            # Only the server knows which card a joker brings (it may come from the stock or
            # from under a face-down card): ask it; its position comes back with the answer.
            self.joker_pending = False
            self.selection = None
            self.hint_move = None
            self.status = _("Joker onto column {n}.").format(n=col + 1)
            self.session._send(f"joker>{col + 1}")
            self._changed()
            return
        before = self.game.moves
        super()._play_joker(col)
        if self.game.moves > before:
            self.session._send(f"joker>{col + 1}")

    def undo(self) -> bool:
        if self.over or self._blocked():
            return False
        if self.game.can_undo:
            if not super().undo():
                return False
            self.session._send("undo")
            return True
        if not self.game.rules.undo_allowed:
            self.status = _("Undo is off in this round.")
        elif self.game.moves == 0 and not self.session._pending:
            self.status = _("Nothing to undo.")
        else:
            self.status = ""
            self.session._send("undo")  # the server's position comes back with the answer
        self._changed()
        return True

    def give_up(self) -> bool:
        if self._blocked():
            return False
        if not super().give_up():
            return False
        self.status = _("Given up. Your score stands; the round ends when the others are done.")
        self.session._send("give up")
        return True


#: Said at a daily try's end: its ``round_over`` tells no deal (SPEC §16, the code is told when
#: the day is over), so there is nothing to check against the commitment yet.
DAILY_DEAL_LATER = N_("Today's try: the deal code is told when the day is over.")


@dataclass(frozen=True)
class PlayerRecord:
    """One player's record of a finished Palast round (SPEC §16), as the session read it: the
    checked ``record`` (it replays on the engine to its result), or ``problem``, one line saying
    why it can't be replayed (the record's first failing line)."""

    round: int
    record: Record | None
    problem: str = ""


def read_records(round: int, texts: list[str]) -> list[PlayerRecord]:
    """The records of round ``round`` as the server handed them out (made visible already), each
    read and replayed: a bad one is kept with its one-line reason, the others stay readable."""
    out: list[PlayerRecord] = []
    for text in texts:
        try:
            record, _game = record_text.read_checked(text)
        except RecordError as e:
            out.append(PlayerRecord(round, None, line(str(e), 200)))
            continue
        out.append(PlayerRecord(round, record))
    return out


class PalastSession:
    """The player's life at one Palast server (see the module docstring)."""

    def __init__(self, url: str, name: str, token: str | None = None,
                 on_change: Callable[[str], None] | None = None, clock: Callable[[], float] = time.time):
        self.url = url
        self.name = name
        self.token = token
        self.on_change = on_change or (lambda what: None)
        self.now = clock
        self.client: PalastClient | None = None
        self.tables: list[m.TableInfo] = []
        self.league: list[m.LeagueRow] = []
        self.tables_total = 0  # tables in the lobby; the server sends one page (the first 50)
        self.table: m.TableInfo | None = None
        self.code: str | None = None
        self.round = 0
        self.race: RaceTable | None = None
        self.opponents: dict[str, m.Progress] = {}  # by player
        self.standings: m.RoundOver | None = None
        self.totals: dict[int, dict[str, int]] = {}  # round -> each player's total after it
        self.ready_sent = False
        self.deals: list[tuple[int, int | str]] = []  # (round, deal code) as told at each round_over
        self.commitments: dict[int, str] = {}  # round -> the commitment its `round` carried
        self.verified: dict[int, bool] = {}  # round -> whether its deal matched the commitment
        self.notes: dict[int, str] = {}  # round -> what its deal's check said (for the standings screen)
        self.ranking: list[m.Ranked] | None = None
        # SPEC §16: the records of finished rounds (``load_records``): (table, rounds) and each
        # player's record of those rounds, newest round first
        self.records: list[PlayerRecord] | None = None
        self.records_of: tuple[int, tuple[int, ...]] | None = None
        # watching a running table from the lobby (``watch``)
        self.watched: m.Watching | None = None
        self.watch_lines: dict[str, m.Line] = {}
        self.watch_round = 0
        self.watch_ends_at: float | None = None
        self.watch_over: m.RoundOver | None = None  # the watched table's last round_over
        self.watch_totals: dict[int, dict[str, int]] = {}  # round -> each player's total after it
        self.watch_ranking: list[m.Ranked] | None = None
        # the daily board (``load_daily``) and the tables of this player's daily tries
        self.daily: m.Daily | None = None
        self._daily_tables: set[int] = set()
        self.offline = False
        self.status = ""
        self.closed = False
        self._confirmed: str | None = None  # the server's last position of the race
        self._pending: deque[str] = deque()
        self._refused: str | None = None
        self._outbox: asyncio.Queue[str] = asyncio.Queue()
        self._early_round: m.Round | None = None  # a round that came before its table's `joined`
        self._tasks: list[asyncio.Task] = []

    # ------------------------------------------------------------------ life
    async def start(self) -> None:
        """Sign in (``PalastError`` when that fails) and start reading events."""
        self.client = await sign_in(self.url, self.name, self.token)
        self.name = self.client.name or self.name
        self.token = self.client.token or self.token
        self._tasks = [asyncio.ensure_future(self._run()), asyncio.ensure_future(self._sender())]
        await self.refresh()
        await self._daily_quietly()

    async def _daily_quietly(self) -> None:
        """Today's board at sign-in, without a word when the server has none (an older one):
        a daily try resumed after a restart is known by its commitment (``is_daily``)."""
        try:
            answer = (await self.client.ask(m.AskDaily(), check=False)).message if self.client is not None else None
        except (ConnectionError, asyncio.TimeoutError, OSError):
            return
        if isinstance(answer, m.Daily):
            self.daily = seen(answer)

    async def close(self) -> None:
        """Leave the server (the seat stays until the round ends, SPEC §13)."""
        self.closed = True
        for t in self._tasks:
            t.cancel()
        for t in self._tasks:
            try:
                await t
            except (asyncio.CancelledError, Exception):
                pass
        if self.client is not None:
            await self.client.close()

    def _changed(self, what: str) -> None:
        try:
            self.on_change(what)
        except Exception:  # a screen that is gone must not stop the session
            pass

    def _say(self, text: str) -> None:
        self.status = line(text)
        self._changed("status")

    async def _run(self) -> None:
        while not self.closed:
            assert self.client is not None
            async for ev in self.client.events():
                self._event(_read(ev))
            if self.closed:
                return
            if getattr(self.client.ws, "close_code", None) == 4000:
                # The same player signed in from another terminal: that one has the seat now;
                # reconnecting from here would take it back and forth.
                self.closed = True
                self.offline = True
                self._say(_("Signed in from another terminal: this one left the Palast."))
                self._changed("offline")
                return
            await self._reconnect()

    async def _reconnect(self) -> None:
        self.offline = True
        self._pending.clear()
        self._changed("offline")
        tries = 0
        while not self.closed:
            await asyncio.sleep(BACKOFF[min(tries, len(BACKOFF) - 1)])
            tries += 1
            try:
                self.client = await sign_in(self.url, self.name, self.token)
            except PalastError as e:
                if e.code in FINAL_CODES:
                    self.offline = False
                    self.closed = True
                    self._say(str(e))
                    return
                continue
            self.offline = False
            self._changed("online")
            if self.table is None and self.watched is not None:
                await self.watch(self.watched.table.id)  # a new connection watches nothing yet
            elif self.table is None:
                await self.refresh()
            return

    # ------------------------------------------------------------------ requests
    async def _request(self, message: m.Message) -> m.Message | None:
        """Send a request; its typed answer.  A refusal or a lost connection becomes a quiet
        status line (and None)."""
        if self.client is None or self.offline:
            self._say(_(OFFLINE))
            return None
        try:
            return seen((await self.client.ask(message)).message)
        except Refused as e:
            self._say(e.reason)
        except (ConnectionError, asyncio.TimeoutError, OSError):
            self._say(_(OFFLINE))
        return None

    async def refresh(self) -> None:
        """The lobby's tables (and the league) now."""
        answer = await self._request(m.ListTables())
        if isinstance(answer, m.Tables):
            self.tables = answer.tables
            self.tables_total = max(len(self.tables), answer.total)
            self._changed("lobby")

    async def load_league(self) -> None:
        answer = await self._request(m.AskLeague())
        if isinstance(answer, m.League):
            players = list(answer.players)
            me = answer.me
            if me is not None and not any(p.name == me.name for p in players):
                players.append(me)  # the top N, then the player's own row with its place
            self.league = players
            self._changed("lobby")

    async def open(self, suits: int = 1, rules: str = "classic", rounds: int = 3, seats: int = 4,
                   private: bool = False) -> bool:
        answer = await self._request(m.Open(suits=suits, rules=rules, rounds=rounds, seats=seats, private=private))
        return self._joined(answer)

    async def join(self, table: int | None = None, code: str | None = None) -> bool:
        ask = m.Join(code=code.strip()) if code is not None else m.Join(table=table)
        return self._joined(await self._request(ask))

    def _joined(self, answer: m.Message | None) -> bool:
        if answer is None:
            return False
        self._event(answer)
        return True

    async def leave(self) -> bool:
        """Leave the table: before it starts, or a running one (the rest of its rounds are
        forfeited; the total stands and is ranked at the end, SPEC §13)."""
        if await self._request(m.Leave()) is None:
            return False
        self._leave_table()
        await self.refresh()
        return True

    def _leave_table(self) -> None:
        self.table, self.code, self.round, self.race = None, None, 0, None
        self.opponents, self.standings, self.ranking, self.deals = {}, None, None, []
        self.records, self.records_of = None, None
        self.commitments, self.verified, self.notes = {}, {}, {}
        self.totals = {}
        self._confirmed = None
        self._changed("seat")

    async def start_table(self) -> bool:
        return await self._request(m.Start()) is not None

    async def ready(self) -> bool:
        if await self._request(m.Ready()) is None:
            return False
        self.ready_sent = True
        self._changed("standings")
        return True

    def back_to_lobby(self) -> None:
        """After the final ranking: the table is done; show the lobby."""
        self._leave_table()

    # ------------------------------------------------------------------ records (SPEC §16)
    def finished_rounds(self) -> list[int]:
        """The rounds of the table at hand (the seat's, else the watched one's) whose
        ``round_over`` came: those whose records can be asked for."""
        if self.table is not None:
            return sorted(self.totals)
        return sorted(self.watch_totals) if self.watched is not None else []

    async def load_records(self, rounds: list[int] | None = None) -> bool:
        """Every player's record of the table's finished ``rounds`` (all of them by default),
        newest round first, read and replayed off the event loop.  A refusal (a daily try's
        records before its day is over, say) is a quiet status line, and nothing changes."""
        table = self.table.id if self.table is not None else self.watched.table.id if self.watched is not None else None
        wanted = sorted(rounds if rounds is not None else self.finished_rounds(), reverse=True)
        if table is None or not wanted:
            self._say(_("No round of this table is over yet: its records come after it."))
            return False
        found: list[PlayerRecord] = []
        for n in wanted:
            answer = await self._request(m.AskRecords(table=table, round=n))
            if not isinstance(answer, m.Records):
                return False
            found += await asyncio.to_thread(read_records, n, answer.records)
        self.records, self.records_of = found, (table, tuple(wanted))
        bad = sum(1 for r in found if r.record is None)
        if bad:
            self._say(ngettext("{n} record can't be replayed.", "{n} records can't be replayed.", bad).format(n=bad))
        self._changed("records")
        return True

    # ------------------------------------------------------------------ watching (SPEC §16)
    async def watch(self, table: int) -> bool:
        """Watch a running table from the lobby: its players' lines live, no cards.  A refusal
        (a private table, too many watchers) is a quiet status line."""
        answer = await self._request(m.Watch(table=table))
        if not isinstance(answer, m.Watching):
            return False
        same = self.watched is not None and self.watched.table.id == answer.table.id
        self.watched = answer
        self.watch_lines = {x.player: x for x in answer.lines}
        self.watch_round = answer.table.round
        self.watch_ends_at = answer.ends_at
        if not same:
            self.watch_over, self.watch_totals, self.watch_ranking = None, {}, None
            self.records, self.records_of = None, None
        self._changed("watch")
        return True

    async def unwatch(self) -> None:
        """Stop watching: back to the lobby (the server is told; a lost connection watches
        nothing anyway)."""
        if self.watched is None:
            return
        self.watched, self.watch_lines, self.watch_over, self.watch_ranking = None, {}, None, None
        self.watch_totals, self.watch_round, self.watch_ends_at = {}, 0, None
        self.records, self.records_of = None, None
        if self.client is not None and not self.offline:
            try:
                await self.client.ask(m.Unwatch(), check=False)
            except (ConnectionError, asyncio.TimeoutError, OSError):
                pass
        self._changed("watch")
        await self.refresh()

    def watch_countdown(self) -> float | None:
        """Seconds left in the watched table's round in play (None between rounds)."""
        ends = self.watch_ends_at
        if ends is None or self.watch_over is not None and self.watch_over.round >= self.watch_round:
            return None
        return max(0.0, ends - self.now()) if abs(ends) < 1e12 else None

    def _watched_event(self, ev: m.Message) -> bool:
        """An event of the watched table (not the player's own): kept for the watch screen;
        True when it was one."""
        w = self.watched
        if w is None:
            return False
        own = self.table.id if self.table is not None else None
        if isinstance(ev, m.WatchRound) and ev.table == w.table.id:
            self.watch_round = ev.round
            self.watch_ends_at = ev.ends_at
            self.watch_lines = {p: m.Line(player=p, bot=x.bot) for p, x in self.watch_lines.items()
                                if x.state != "left"}
            self.watched = dataclasses.replace(w, table=dataclasses.replace(w.table, round=ev.round, state="playing"),
                                               commitment=ev.commitment)
        elif isinstance(ev, m.TableChanged) and ev.table.id == w.table.id:
            self.watched = dataclasses.replace(w, table=ev.table)
            if own == ev.table.id:
                return False  # the seat's table too: the seat reads it as well
        elif not isinstance(ev, (m.Progress, m.RoundOver, m.TableOver)) or ev.table != w.table.id or own == ev.table:
            return False
        elif isinstance(ev, m.Progress):
            self.watch_lines[ev.player] = m.Line(player=ev.player, score=ev.score, runs=ev.runs, moves=ev.moves,
                                                 state=ev.state, seconds=ev.seconds, bot=ev.bot)
        elif isinstance(ev, m.RoundOver):
            self.watch_over = ev
            self.watch_totals[ev.round] = {r.player: r.total for r in ev.standings}
        else:
            self.watch_ranking = ev.ranking
            self.watched = dataclasses.replace(w, table=dataclasses.replace(w.table, state="finished"))
        self._changed("watch")
        return True

    def watch_totals_before(self) -> dict[str, int]:
        """Each watched player's total after the rounds before the one in play."""
        earlier = [n for n in self.watch_totals if n < self.watch_round]
        return dict(self.watch_totals[max(earlier)]) if earlier else {}

    # ------------------------------------------------------------------ the daily board (SPEC §16)
    async def load_daily(self) -> bool:
        """Today's daily board: each suit count's commitment, its top and the player's own try."""
        answer = await self._request(m.AskDaily())
        if not isinstance(answer, m.Daily):
            return False
        self.daily = answer
        self._changed("daily")
        return True

    def daily_board(self, suits: int) -> m.DailyBoard | None:
        return next((b for b in self.daily.boards if b.suits == suits), None) if self.daily is not None else None

    async def play_daily(self, suits: int) -> bool:
        """Today's one try at ``suits`` suits (its ``round`` follows); after the try is used, the
        status line says so (the board's own entry, or the server's refusal)."""
        board = self.daily_board(suits)
        if board is not None and board.me is not None:
            self._say(used_try(board.me, suits))
            return False
        answer = await self._request(m.PlayDaily(suits=suits))
        if not isinstance(answer, m.Joined):
            await self.load_daily()  # a try used elsewhere (another terminal): the board shows it
            return False
        self._daily_tables.add(answer.table.id)
        return self._joined(answer)

    def is_daily(self, n: int | None = None) -> bool:
        """Is the seat's table a daily try: one this session started, or one whose round's
        commitment is today's published one (after a restart)?"""
        if self.table is not None and self.table.id in self._daily_tables:
            return True
        told = self.commitments.get(n if n is not None else self.round)
        return told is not None and self.daily is not None and any(b.commitment == told for b in self.daily.boards)

    @property
    def phase(self) -> str:
        """``lobby``, ``watching``, ``waiting``, ``race``, ``standings`` or ``final``."""
        if self.table is None:
            return "watching" if self.watched is not None else "lobby"
        if self.ranking is not None:
            return "final"
        if self.standings is not None:
            return "standings"
        if self.race is not None:
            return "race"
        return "waiting"

    @property
    def pending_actions(self) -> int:
        """Actions sent to the server and not answered yet (the line front end waits for them)."""
        return len(self._pending)

    @property
    def offline_status(self) -> str:
        """The status line of a dropped connection: why it closed for good, or that it is
        reconnecting."""
        return self.status if self.closed else _(OFFLINE)

    @property
    def is_host(self) -> bool:
        return self.table is not None and self.table.host == self.name

    # ------------------------------------------------------------------ actions
    def _send(self, action: str) -> None:
        """Queue ``action`` (already shown on the race table) for the server."""
        self._pending.append(action)
        self._outbox.put_nowait(action)

    async def _sender(self) -> None:
        while True:
            action = await self._outbox.get()
            client = self.client
            if self.offline or client is None:
                continue  # the round's position comes back on reconnect
            try:
                answer = await client.play(action)
            except (ConnectionError, asyncio.TimeoutError, OSError):
                continue
            self._answer(action, seen(answer.message))

    def _answer(self, action: str, answer: m.Message) -> None:
        if self._pending:
            self._pending.popleft()
        race = self.race
        if isinstance(answer, m.Played):
            self._confirmed = answer.position or self._confirmed
            if race is not None and not self._pending and self._refused is None:
                self._tell(race, answer)
        else:
            reason = answer.reason if isinstance(answer, (m.Refused, m.Error)) else ""
            self._refused = line(reason or _("The server refused that."))
        if not self._pending and race is not None:
            self._settle(race, action)

    def _tell(self, race: RaceTable, answer: m.Played) -> None:
        try:
            race.tell_cards(answer.dealt, [(c.column - 1, c.card) for c in answer.turned_up])  # the wire's are 1-10
        except (ValueError, KeyError, TypeError):
            pass  # _settle reads the server's position instead

    def _settle(self, race: RaceTable, action: str | None = None) -> None:
        """Nothing is on its way: the table must show the server's last position."""
        refused, self._refused = self._refused, None
        if self._confirmed is not None:
            try:
                server = Game.from_text(self._confirmed)
            except PositionError:
                server = None
            if server is not None and (refused or server.view() != race.game.view()
                                       or server.score != race.game.score):
                race.take_server_game(server, None if refused else action)
        if refused:
            race.say(refused)
        self._changed("table")

    # ------------------------------------------------------------------ events
    def _event(self, message: m.Message | None) -> None:
        """One message from the server, as read (``_read``: typed and checked against its
        definition, its strings made visible); a value this app can't use is a status line, never
        a crash.  None (a message that fits no definition) is left out."""
        if message is None:
            return
        try:
            self._on(message)
        except (ValueError, TypeError, KeyError, AttributeError, OverflowError, IndexError):
            self._say(_("The server sent a message this app can't read."))

    def _on(self, ev: m.Message) -> None:
        if self._watched_event(ev):
            return
        if isinstance(ev, m.Round) and self.table is None:
            # The seat's first round may overtake the `joined` answer (a host who starts the
            # moment the table is full): kept until that answer names its table.
            self._early_round = ev
            return
        if isinstance(ev, (m.Round, m.Progress, m.RoundOver, m.TableOver)) and self._elsewhere(ev.table):
            return  # a late event of a table this player left
        if isinstance(ev, m.Joined):
            self.table = ev.table
            if ev.code is not None:
                self.code = line(ev.code, 32)
            self.ranking = None
            self._changed("seat")
            early, self._early_round = self._early_round, None
            if early is not None and early.table == ev.table.id:
                self._round(early)
        elif isinstance(ev, m.TableChanged):
            if self.table is not None and ev.table.id == self.table.id:
                self.table = ev.table
                self._changed("seat")
        elif isinstance(ev, m.Closed):  # a table that waited too long without starting
            if self.table is not None and ev.table == self.table.id:
                self._leave_table()
                self._say(ev.reason or _("The table closed."))
        elif isinstance(ev, m.Round):
            self._round(ev)
        elif isinstance(ev, m.Progress):
            if ev.player and ev.player != self.name:
                self.opponents[ev.player] = ev
                self._changed("progress")
        elif isinstance(ev, m.RoundOver):
            n = ev.round
            deal = _told_deal(ev.deal)
            if deal is not None:  # told again after a reconnect: one entry per round
                self.deals = sorted([d for d in self.deals if d[0] != n] + [(n, deal)])
            check = self._check_deal(n, ev.deal)
            # every round's totals are kept (a round start clears the standings, not these), so
            # the race's running total starts from them, also after a reconnect
            self.totals[n] = {r.player: r.total for r in ev.standings}
            if self.table is not None and n < self.table.round:
                self._changed("standings")  # an earlier round, told again after welcome
                return
            self.standings = ev
            self.ready_sent = False
            if self.race is not None:
                self.race.pause()
            if self.table is not None:
                self.table = dataclasses.replace(self.table, round=n)
            if check is not None:
                self.notes[n] = check
                self._say(check)
            self._changed("standings")
        elif isinstance(ev, m.TableOver):
            self.ranking = ev.ranking
            if self.table is not None:
                self.table = dataclasses.replace(self.table, state="finished")
            self._changed("final")
        elif isinstance(ev, m.Error):
            self._say(ev.reason or _("The server closed the connection."))

    def _check_deal(self, n: int, deal: object) -> str | None:
        """Round ``n``'s deal code (told at its end) against the commitment its ``round`` carried
        (SPEC §13): the line to show, or None when this round's start wasn't seen here."""
        told = self.commitments.get(n)
        if told is None:
            return None
        if deal is None and self.is_daily(n):
            self.verified.pop(n, None)  # nothing to check yet: not a mismatch
            return _(DAILY_DEAL_LATER)
        self.verified[n] = ok = verified(told, deal)
        if ok:
            return _("Deal verified: the server fixed this deal before the first move.")
        return _("Warning: the deal the server told now is not the one it committed to at the start of "
                 "this round. Its result can't be trusted.")

    def _elsewhere(self, told: int | None) -> bool:
        """Does the event name a table other than the one the player sits at (or any, when the
        player sits nowhere)?"""
        return told is not None and (self.table is None or told != self.table.id)

    def _round(self, ev: m.Round) -> None:
        try:
            game = Game.from_text(ev.position)
        except PositionError:
            self._say(_("The server sent a position this app can't read."))
            return
        number = ev.round
        ends = ev.ends_at
        ends_at = float(ends) if ends is not None and abs(ends) < 1e12 else self.now()
        self._confirmed = ev.position
        self._pending.clear()
        if isinstance(ev.commitment, str):
            self.commitments[number] = ev.commitment
        if self.race is not None and number == self.round and self.standings is None:
            # a reconnect: the same round, the server's position
            self.race.ends_at = ends_at
            self.race.take_game(game)
            self.race.say(_(BACK_ONLINE_TEXT))  # a reconnect is said, not silent
            self._changed("table")
            return
        self.round = number
        self.standings = None
        self.ready_sent = False
        if self.table is not None:
            self.table = dataclasses.replace(self.table, round=number, state="playing")
        self.race = RaceTable(game, self, ends_at)
        self.race.resume()
        players = self.table.players if self.table is not None else []
        self.opponents = {p: m.Progress(player=p) for p in players if p != self.name}  # 0 points, playing
        self._changed("round")

    # ------------------------------------------------------------------ for the screens
    def totals_before(self) -> dict[str, int]:
        """Each player's total after the last round before the one in play (the latest
        ``round_over`` of an earlier round; empty in round 1): the race's running total is this
        plus the round's score so far.  A player who left keeps a total here."""
        earlier = [n for n in self.totals if n < self.round]
        return dict(self.totals[max(earlier)]) if earlier else {}

    def countdown(self) -> float:
        """Seconds left in the round."""
        return self.race.time_left or 0.0 if self.race is not None else 0.0


def used_try(me: m.DailyEntry, suits: int) -> str:
    """The line after today's try at ``suits`` suits was used: what it scored, and its place."""
    return ngettext("You had today's try at {n} suit: {score} points, place {place}. Come back tomorrow.",
                    "You had today's try at {n} suits: {score} points, place {place}. Come back tomorrow.",
                    suits).format(n=suits, score=me.score, place=me.place)


def _read(ev: Any) -> m.Message | None:
    """A message the client received (``Received``, or a decoded JSON value), as the session
    keeps it: typed (None when it fits no definition) and ``seen``."""
    message = getattr(ev, "message", ev)
    if not isinstance(message, m.Message):
        message = _typed(message)
    return seen(message) if message is not None else None


def _told_deal(deal: object) -> int | str | None:
    """A deal told by the server (a deal code; a number from an older server), or None when it
    is neither (nothing from the network is trusted to be well-formed)."""
    if not isinstance(deal, (int, str)) or isinstance(deal, bool):
        return None
    try:
        check_deal_number(deal)
    except ValueError:
        return None
    return deal


class PalastRound(Session):
    """The race behind the round face (``spider_tui.session.Session``): the same table,
    keys and give-up question as a solo round, but the server keeps the round: nothing is
    written to the save file, there is no New or Retry (the table plays its rounds), and the
    seat and position outlive the app."""

    def __init__(self, palast: PalastSession) -> None:
        self.palast = palast

    @property
    def table(self) -> Table | None:  # type: ignore[override]
        return self.palast.race

    @property
    def title(self) -> str:
        rounds = self.palast.table.rounds if self.palast.table is not None else "?"
        return _("Palast round {round}/{rounds}").format(round=self.palast.round, rounds=rounds)

    @property
    def recorded(self) -> bool:
        """The server records the round; here it has ended once the table is over."""
        t = self.table
        return t is not None and t.over

    def counts(self) -> bool:
        return False  # the league counts it, not the save file's stats

    offers: frozenset[Offer] = frozenset()  # no New or Retry (the table plays its rounds), no solver (it would peek)

    def needs_asking(self) -> bool:
        return False

    def retry(self) -> Table | None:
        return None  # no Retry at a Palast table

    def end(self, won: bool) -> None:
        t = self.table
        if t is not None:
            t.pause()

    def keep(self) -> None:
        """Nothing to write: the server keeps the seat and the position."""

    def give_up_question(self) -> str:
        return _("Give up this round? You keep your seat and your score so far.")
