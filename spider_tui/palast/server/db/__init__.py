"""The Palast's storage: one interface (``Store``), implemented for SQLite here and for
PostgreSQL in a second module (SPEC §13 "Faults").

The database is the truth: players, tables, seats, every accepted action, round results and the
league live there, and a server process rebuilds any table from it (``Game.new`` of the round's
deal, then the player's accepted actions in order).  State changes that several server processes
could race for are single conditional statements, so they happen once:

- ``seat``: a seat is taken only while the table waits, has a free seat and the player sits at no
  other unfinished table;
- ``start_round``: round N starts only from round N-1 (``UPDATE … WHERE round = N-1``);
- ``end_round``: a round ends, its results and experience are written, only while it is in play;
- ``finish_table``: the final ranking and the league update happen only while the table plays.

Each returns whether *this* call did it.  All methods are coroutines; the SQLite store runs its
connection on one worker thread so the event loop never waits on the disk.  Times are unix
seconds (float).  Names compare case-insensitively through ``name_key`` (``name.casefold()``).
"""

from __future__ import annotations

import abc
import asyncio
from collections.abc import Awaitable, Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from spider_tui.palast.messages import Reason

#: Table states (SPEC §13 lobby).
WAITING, PLAYING, FINISHED = "waiting", "playing", "finished"
#: Round states kept on the table row: before the first round, in play, between rounds.
NO_ROUND, ROUND_PLAYING, ROUND_OVER = "none", "playing", "over"


@dataclass(frozen=True, slots=True)
class PlayerRow:
    id: int
    name: str
    token_hash: str
    rating_mu: float | None
    rating_sigma: float | None
    tables: int
    wins: int
    experience: int
    bot: bool = False  # a house bot (SPEC §13): marked wherever names show, never rated


@dataclass(frozen=True, slots=True)
class TableRow:
    id: int
    host: str | None  # a player name; None for a standard table
    suits: int
    rules: str  # a §10 rules name (Training = "practice"); Scoring is always added by the server
    rounds: int
    seats: int
    private: bool
    code: str | None  # invite code of a private table
    standard: bool
    state: str  # WAITING, PLAYING, FINISHED
    round: int  # the current (or last) round, 0 before the first
    round_state: str  # NO_ROUND, ROUND_PLAYING, ROUND_OVER
    deal: int | str | None  # the current round's deal: a deal code (SPEC §2); a number in old rows
    round_started: float | None
    ends_at: float | None  # the current round's deadline
    next_at: float | None  # between rounds: when the next round starts at the latest
    created: float
    full_at: float | None  # a standard table: when its second player sat down
    daily: str | None = None  # a daily try (SPEC §16): its UTC day, YYYY-MM-DD

    @property
    def training(self) -> bool:
        return "practice" in self.rules.split("+")


#: Columns added after the first schema: (table, column, declaration); a store adds each one an
#: older database lacks when it opens (``schema.sql`` has them all for a new database).
ADDED_COLUMNS = (
    ("players", "bot", "INTEGER NOT NULL DEFAULT 0"),
    ("seats", "left_at", "DOUBLE PRECISION"),
    ("tables", "daily", "TEXT"),
)

#: The columns a ``PlayerRow`` / ``TableRow`` is read from, in field order (both stores' SQL).
PLAYER_COLS = "id, name, token_hash, rating_mu, rating_sigma, tables, wins, experience, bot"
#: The columns a ``SeatRow`` is read from (seats ``s`` joined with players ``p``).
SEAT_COLS = "s.table_id, s.player_id, p.name, s.seat, s.ready, s.left_at, p.bot"


def player_row(row: "Sequence[object]") -> PlayerRow:
    r = list(row)
    r[8] = bool(r[8])
    return PlayerRow(*r)  # type: ignore[arg-type]


def seat_row(row: "Sequence[object]") -> SeatRow:
    r = list(row)
    r[6] = bool(r[6])
    return SeatRow(*r)  # type: ignore[arg-type]
TABLE_COLS = (
    "id, host, suits, rules, rounds, seats, private, code, standard, state, round, round_state, "
    "deal, round_started, ends_at, next_at, created, full_at, daily"
)


def table_row(row: "Sequence[object]") -> TableRow:
    """A ``TableRow`` from a row of ``TABLE_COLS`` (the flags as bools, whatever the database)."""
    r = list(row)
    r[6] = bool(r[6])
    r[8] = bool(r[8])
    return TableRow(*r)  # type: ignore[arg-type]


@dataclass(frozen=True, slots=True)
class SeatRow:
    table_id: int
    player_id: int
    name: str
    seat: int  # 0-based, in sitting order
    ready: int  # the last round this player said `ready` after (0 = none)
    left_at: float | None = None  # left the running table (the rest of its rounds forfeited)
    bot: bool = False


@dataclass(frozen=True, slots=True)
class ActionRow:
    table_id: int
    round: int
    player_id: int
    seq: int  # 1, 2, … per player and round
    move: str  # as accepted: a §3 move text, "deal", "joker>N", "undo" or "give up"
    at: float


class GroupCommit:
    """Actions saved by group commit (SPEC §13: an action is answered only once its row is
    durable): the actions arriving while a batch is being written go into the next batch, so a
    busy server pays one commit (and one thread hop or round trip) per batch, not per action.
    ``write(batch)`` saves a batch and says, for each action, whether it went in; at most
    ``most`` go in one batch.  Each ``add`` returns only once its own action is saved or refused;
    a batch that fails raises its error in every caller of that batch."""

    def __init__(self, write: Callable[[list[ActionRow]], Awaitable[list[bool]]], most: int | None = None) -> None:
        self.write = write
        self.most = most
        self.pending: list[tuple[ActionRow, asyncio.Future[bool]]] = []
        self.writing = False

    async def add(self, action: ActionRow) -> bool:
        fut: asyncio.Future[bool] = asyncio.get_running_loop().create_future()
        self.pending.append((action, fut))
        if not self.writing:
            self.writing = True
            asyncio.ensure_future(self._drain())
        return await fut

    async def _drain(self) -> None:
        try:
            while self.pending:
                n = self.most or len(self.pending)
                batch, self.pending = self.pending[:n], self.pending[n:]
                try:
                    done = await self.write([a for a, _ in batch])
                except Exception as e:  # the whole batch failed: every caller hears it
                    for _, fut in batch:
                        if not fut.done():
                            fut.set_exception(e)
                    continue
                for (_, fut), ok in zip(batch, done):
                    if not fut.done():
                        fut.set_result(ok)
        finally:
            self.writing = False


@dataclass(frozen=True, slots=True)
class ResultRow:
    table_id: int
    round: int
    player_id: int
    name: str
    score: int
    solved: bool
    moves: int
    seconds: float | None  # time to solve, None when not solved
    state: str  # solved, gave up, stuck, playing (out of time), offline


@dataclass(frozen=True, slots=True)
class Placing:
    player_id: int
    total: int
    place: int  # 1 = best; equal totals share a place


#: ``rate(teams)`` for the league: ``[(player_id, mu | None, sigma | None, place)]`` in ranking
#: order -> ``{player_id: (mu, sigma)}``.  Passed in so the store stays free of openskill.
Rater = Callable[[Sequence[tuple[int, float | None, float | None, int]]], dict[int, tuple[float, float]]]


class Store(abc.ABC):
    """The storage interface of the Palast.  See the module docstring for the rules it keeps."""

    # -- life
    @abc.abstractmethod
    async def open(self) -> None:
        """Connect and create or migrate the schema."""

    @abc.abstractmethod
    async def close(self) -> None: ...

    # -- players
    @abc.abstractmethod
    async def register(self, name: str, token_hash: str, now: float, bot: bool = False) -> PlayerRow | None:
        """A new player (a house bot when ``bot``), or None when the name is taken
        case-insensitively or another name has its confusable skeleton (``names.key``; a unique
        index in the database)."""

    @abc.abstractmethod
    async def player_by_name(self, name: str) -> PlayerRow | None: ...

    @abc.abstractmethod
    async def league(self) -> list[PlayerRow]:
        """Players (never bots) who played a counted table or scored points, best rating first."""

    # -- tables and seats
    @abc.abstractmethod
    async def create_table(
        self, *, host: str | None, suits: int, rules: str, rounds: int, seats: int,
        private: bool, code: str | None, standard: bool, now: float, daily: str | None = None,
    ) -> TableRow: ...

    @abc.abstractmethod
    async def table(self, table_id: int) -> TableRow | None: ...

    @abc.abstractmethod
    async def table_by_code(self, code: str) -> TableRow | None: ...

    @abc.abstractmethod
    async def live_tables(self) -> list[TableRow]:
        """Tables waiting or playing, oldest first."""

    @abc.abstractmethod
    async def seat(self, table_id: int, player_id: int, now: float) -> Reason | None:
        """Seat a player: None when seated (or already seated there), else the reason (its
        ``code`` says which: ``no_table``, ``already_seated``, ``table_started``,
        ``table_finished``, ``table_full``)."""

    @abc.abstractmethod
    async def unseat(self, table_id: int, player_id: int) -> bool:
        """Leave a table that hasn't started; False when it has (or the player isn't there)."""

    @abc.abstractmethod
    async def seats(self, table_id: int) -> list[SeatRow]: ...

    @abc.abstractmethod
    async def set_host(self, table_id: int, name: str) -> None:
        """Pass a waiting table to another seated player (its host left)."""

    @abc.abstractmethod
    async def close_table(self, table_id: int, *, seated: bool = False) -> bool:
        """Close a table that hasn't started: its row and seats are deleted (it played nothing,
        so nothing of it is kept).  Only when nobody sits at it, unless ``seated`` (a table
        that waited too long: its players are unseated).  True when this call closed it."""

    @abc.abstractmethod
    async def table_of(self, player_id: int) -> int | None:
        """The unfinished table the player sits at, if any."""

    @abc.abstractmethod
    async def leave_running(self, table_id: int, player_id: int, now: float) -> bool:
        """A player leaves a table in play: the seat stays (the total stands and is ranked), marked
        left at ``now``.  False when the table isn't playing or the player left already."""

    @abc.abstractmethod
    async def set_ready(self, table_id: int, player_id: int, round: int) -> None: ...

    # -- rounds
    @abc.abstractmethod
    async def start_round(self, table_id: int, round: int, deal: str, now: float, ends_at: float) -> bool:
        """Start round ``round`` (1 = the first; the table then plays) with ``deal`` (a deal code,
        kept per round for ``round_deals``); only from round ``round - 1`` not in play.  True when
        this call started it."""

    @abc.abstractmethod
    async def round_deals(self, table_id: int) -> dict[int, int | str]:
        """Each started round's deal (round -> deal code; a number in old rows)."""

    @abc.abstractmethod
    async def add_action(self, action: ActionRow) -> bool:
        """Write an accepted action (before it is answered); False when that ``seq`` exists or
        the round is no longer in play (another process ended it a moment ago)."""

    @abc.abstractmethod
    async def actions(self, table_id: int, round: int) -> list[ActionRow]:
        """The round's accepted actions, per player in ``seq`` order."""

    @abc.abstractmethod
    async def end_round(self, table_id: int, round: int, results: Sequence[ResultRow], now: float, next_at: float | None,
                        seqs: Mapping[int, int] | None = None, records: Mapping[int, str] | None = None) -> bool:
        """End a round in play: write its results (and ``records``, player id -> the player's
        record text, SPEC §16), add each score to the player's experience, set the next round's
        latest start.  True when this call ended it (once only).

        ``seqs`` (player id -> the last action ``seq`` the results were made from) guards the
        last moment of a round played on several processes: when the database holds an action
        the results don't include, nothing changes and ``StaleRound`` is raised (the caller
        reads the games again and retries).  No action is written after the round ended."""

    @abc.abstractmethod
    async def results(self, table_id: int) -> list[ResultRow]:
        """Every finished round's results of a table, by round."""

    @abc.abstractmethod
    async def daily_deal(self, day: str, suits: int, deal: str) -> str:
        """The day's deal at ``suits`` suits: ``deal`` when this call is the first to ask (kept),
        else the one kept before (every process and player gets the same)."""

    @abc.abstractmethod
    async def daily_told(self, day: str, suits: int) -> str | None:
        """The day's deal if one was drawn (no new one is)."""

    @abc.abstractmethod
    async def daily_try(self, day: str, suits: int, player_id: int, table_id: int) -> bool:
        """Take the player's one try of the day at ``suits`` suits (at ``table_id``); False when
        they had it already."""

    @abc.abstractmethod
    async def daily_board(self, day: str, suits: int) -> tuple[list[DailyRow], int]:
        """The day's finished tries, best first (points, then time), and how many tries are
        still in play."""

    @abc.abstractmethod
    async def records(self, table_id: int, round: int) -> list[str]:
        """Every player's record of a finished round (written by ``end_round``), by player id;
        ``[]`` for a round that ended before records were kept."""

    @abc.abstractmethod
    async def finish_table(self, table_id: int, ranking: Sequence[Placing], counted: bool, rate: Rater) -> bool:
        """Make the table finished; if ``counted``, update the league (rating, tables, wins)
        from ``ranking`` in the same transaction.  True when this call finished it (once only)."""


#: The ``records`` table (SPEC §16), added by schema version 4; both stores create it on open
#: when a database of an earlier version lacks it (``schema.sql`` has it for a new one).
RECORDS_TABLE = (
    "CREATE TABLE IF NOT EXISTS records (table_id INTEGER NOT NULL, round INTEGER NOT NULL, "
    "player_id INTEGER NOT NULL, record TEXT NOT NULL, PRIMARY KEY (table_id, round, player_id))"
)
#: The daily board's tables (SPEC §16), also schema version 4 (with ``tables.daily``).
DAILY_TABLES = (
    "CREATE TABLE IF NOT EXISTS daily (day TEXT NOT NULL, suits INTEGER NOT NULL, deal TEXT NOT NULL, "
    "PRIMARY KEY (day, suits))",
    "CREATE TABLE IF NOT EXISTS daily_tries (day TEXT NOT NULL, suits INTEGER NOT NULL, player_id INTEGER NOT NULL, "
    "table_id INTEGER NOT NULL, PRIMARY KEY (day, suits, player_id))",
)
#: One finished try of a daily board (``Store.daily_board``), read with the player's name.
DAILY_COLS = ("p.name, p.bot, r.score, r.solved, r.moves, r.seconds, r.state FROM daily_tries d "
              "JOIN players p ON p.id = d.player_id JOIN results r ON r.table_id = d.table_id AND r.player_id = d.player_id "
              "WHERE d.day = {p} AND d.suits = {p} ORDER BY r.score DESC, r.seconds, p.name_key")


@dataclass(frozen=True, slots=True)
class DailyRow:
    name: str
    bot: bool
    score: int
    solved: bool
    moves: int
    seconds: float | None
    state: str

#: Names are unique by their confusable skeleton too (``palast.names.key``).  A database made
#: before that gets the column, each player's skeleton oldest first (a later name whose skeleton
#: is taken keeps NULL: it still signs in, and no new name can look like the older one), and the
#: unique index.  Both stores run these after ``schema.sql``.
SKELETON_COLUMN = "ALTER TABLE players ADD COLUMN skeleton TEXT"
SKELETON_INDEX = "CREATE UNIQUE INDEX IF NOT EXISTS players_skeleton ON players (skeleton)"


def skeletons(rows: "Sequence[tuple[int, str]]", taken: "set[str]") -> list[tuple[str, int]]:
    """``(skeleton, id)`` to set for players ``(id, name)`` (oldest first) whose skeleton is not
    ``taken`` (nor given to an older one of them)."""
    from spider_tui.palast.names import key

    out = []
    for pid, name in rows:
        k = key(name)
        if k not in taken:
            taken.add(k)
            out.append((k, pid))
    return out


def open_store(url: str | None, data_dir) -> Store:
    """The store for ``--db URL``: ``sqlite:///PATH`` or a plain path (default: palast.sqlite3 in
    the data dir).  PostgreSQL URLs are served by the PostgreSQL store when it is installed."""
    from pathlib import Path

    if url and url.startswith(("postgresql://", "postgres://")):
        try:
            from spider_tui.palast.server.db.postgres import PostgresStore  # type: ignore[import-not-found]
        except ImportError:
            raise ValueError("this build has no PostgreSQL store; use an SQLite path") from None
        return PostgresStore(url)
    from spider_tui.palast.server.db.sqlite import SqliteStore

    if url:
        path = url[len("sqlite:///"):] if url.startswith("sqlite:///") else url
        if "://" in path:
            raise ValueError(f"unknown database URL {url!r} (use sqlite:///PATH or postgresql://…)")
        return SqliteStore(Path(path))
    return SqliteStore(Path(data_dir) / "palast.sqlite3")


def result_row(r: Sequence[Any]) -> ResultRow:
    """A ``results`` row (joined with the player's name) as read by either store."""
    return ResultRow(r[0], r[1], r[2], r[3], r[4], bool(r[5]), r[6], r[7], r[8])


class StaleRound(Exception):
    """``end_round``: the database holds actions the results were not made from."""


def stale(seqs: Mapping[int, int], written: Mapping[int, int]) -> bool:
    """Do the last ``seq`` per player in the database differ from those the results used?"""
    return {p: n for p, n in seqs.items() if n} != {p: n for p, n in written.items() if n}


__all__ = [
    "StaleRound", "stale", "Store", "PlayerRow", "TableRow", "SeatRow", "ActionRow", "ResultRow", "Placing", "Rater",
    "WAITING", "PLAYING", "FINISHED", "NO_ROUND", "ROUND_PLAYING", "ROUND_OVER", "open_store",
    "PLAYER_COLS", "TABLE_COLS", "table_row", "result_row", "SEAT_COLS", "seat_row", "player_row", "ADDED_COLUMNS",
    "SKELETON_COLUMN", "SKELETON_INDEX", "skeletons", "RECORDS_TABLE", "DAILY_TABLES", "DAILY_COLS", "DailyRow",
]
