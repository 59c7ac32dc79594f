"""The PostgreSQL store: ``spider server --db postgresql://…`` (SPEC §13), so that several
server processes serve one Palast from one database.

The same interface and the same rules as the SQLite store (``db.Store``), with PostgreSQL doing
the work: what several processes may race for is one conditional statement or one transaction
that locks the rows it decides on (``SELECT … FOR UPDATE``), so it happens once whichever
process gets there first. The schema is ``schema.sql`` (the SQLite store's), with identity
columns for ids, applied under an advisory lock by the first process to start and recorded in
``palast_schema`` so later versions can migrate.

Connections: a small pool of autocommit connections (psycopg 3, async). A connection that
PostgreSQL closed while it was idle (a restart) is replaced before it is used; a failure during a
call raises, so the server refuses that action and nothing is half-written.
"""

from __future__ import annotations

import asyncio
import re
import select
from collections.abc import Awaitable, Callable, Sequence
from importlib import resources
from typing import Any, TypeVar

import psycopg

from spider_tui.palast.server.db import (
    FINISHED, PLAYING, ROUND_OVER, ROUND_PLAYING, WAITING,
    ActionRow, GroupCommit, PlayerRow, Placing, Rater, ResultRow, SeatRow, Store, TableRow,
    ADDED_COLUMNS, DAILY_COLS, DAILY_TABLES, RECORDS_TABLE, DailyRow, PLAYER_COLS, SEAT_COLS, TABLE_COLS, SKELETON_COLUMN, SKELETON_INDEX, StaleRound, player_row,
    result_row, seat_row, skeletons, stale, table_row,
)
from spider_tui.palast.messages import Code, Reason
from spider_tui.palast.names import key

T = TypeVar("T")

#: Any number that is the same in every process: the lock that serialises schema changes.
_SCHEMA_LOCK = 0x5B1DE7
#: The schema version (``palast_schema``): each step is applied once, in order, in ``open``.
#: 2: players.skeleton (names unique by their confusable skeleton); 3: deal codes, round_deals,
#: house bots, leaving a running table; 4: every player's record of every round, the daily board
#: (SPEC §16).
SCHEMA_VERSION = 4


def migration_3() -> list[str]:
    """Version 3 (issue 20): deal codes (text), each round's deal, house bots, leaving a running
    table.  Every statement may run on a database that has it already."""
    out = ["ALTER TABLE tables ALTER COLUMN deal TYPE TEXT USING deal::text",
           "CREATE TABLE IF NOT EXISTS round_deals (table_id INTEGER NOT NULL, round INTEGER NOT NULL, "
           "deal TEXT NOT NULL, PRIMARY KEY (table_id, round))"]
    out += [f"ALTER TABLE {t} ADD COLUMN IF NOT EXISTS {c} {d}" for t, c, d in ADDED_COLUMNS]
    return out


#: ``seat`` in one round trip: the checks and the insert of ``PostgresStore.seat`` as one
#: function, run in the statement's own transaction (a crowd taking seats waited behind about
#: nine round trips each: issue 29 item 13).  Made (again) whenever a server opens the store,
#: under the schema lock; it returns '' (seated), 'no_table', 'seated:<table>', the table's
#: state when it doesn't wait, or 'full'.
SEAT_FUNCTION = f"""
CREATE OR REPLACE FUNCTION palast_seat(p_table INTEGER, p_player INTEGER, p_now DOUBLE PRECISION)
RETURNS TEXT LANGUAGE plpgsql AS $$
DECLARE
    v_state TEXT;
    v_seats INTEGER;
    v_taken INTEGER;
    v_other INTEGER;
BEGIN
    -- Lock the player, then the table: one seat per player, the seat count per table.
    PERFORM 1 FROM players WHERE id = p_player FOR UPDATE;
    SELECT state, seats INTO v_state, v_seats FROM tables WHERE id = p_table FOR UPDATE;
    IF NOT FOUND THEN
        RETURN 'no_table';
    END IF;
    PERFORM 1 FROM seats WHERE table_id = p_table AND player_id = p_player AND left_at IS NULL;
    IF FOUND THEN
        RETURN '';
    END IF;
    SELECT s.table_id INTO v_other FROM seats s JOIN tables t ON t.id = s.table_id
        WHERE s.player_id = p_player AND t.state != '{FINISHED}' AND s.left_at IS NULL LIMIT 1;
    IF FOUND THEN
        RETURN 'seated:' || v_other;
    END IF;
    IF v_state != '{WAITING}' THEN
        RETURN v_state;
    END IF;
    SELECT count(*) INTO v_taken FROM seats WHERE table_id = p_table;
    IF v_taken >= v_seats THEN
        RETURN 'full';
    END IF;
    INSERT INTO seats (table_id, player_id, seat, joined) VALUES (p_table, p_player, v_taken, p_now);
    IF v_taken + 1 >= 2 THEN  -- the start clock counts from the first time two sat (SPEC §13)
        UPDATE tables SET full_at = p_now WHERE id = p_table AND full_at IS NULL;
    END IF;
    RETURN '';
END $$
"""


async def migrate(first: psycopg.AsyncConnection) -> None:
    """Bring the database to ``SCHEMA_VERSION``, each version's step once, in order (under the
    schema lock, in the caller's transaction)."""
    cur = await first.execute("SELECT coalesce(max(version), 0) FROM palast_schema")
    have = (await _one(cur))[0]
    if have > SCHEMA_VERSION:
        raise RuntimeError(
            f"the database has Palast schema version {have}; this server knows up to {SCHEMA_VERSION}"
        )
    if have < 1:
        await first.execute(schema_sql())
        await first.execute(
            "INSERT INTO palast_schema VALUES (1, extract(epoch FROM now()))"
        )
    if have < 2:
        await first.execute(SKELETON_COLUMN.replace("ADD COLUMN", "ADD COLUMN IF NOT EXISTS"))
        cur = await first.execute("SELECT id, name FROM players WHERE skeleton IS NULL ORDER BY id")
        missing = await cur.fetchall()
        if missing:
            cur = await first.execute("SELECT skeleton FROM players WHERE skeleton IS NOT NULL")
            taken = {r[0] for r in await cur.fetchall()}
            async with first.cursor() as c:
                await c.executemany("UPDATE players SET skeleton = %s WHERE id = %s", skeletons(missing, taken))
        await first.execute(SKELETON_INDEX)
        await first.execute("INSERT INTO palast_schema VALUES (2, extract(epoch FROM now()))")
    if have < 3:
        for statement in migration_3():
            await first.execute(statement)
        await first.execute("INSERT INTO palast_schema VALUES (3, extract(epoch FROM now()))")
    if have < 4:
        await first.execute(RECORDS_TABLE)
        for statement in DAILY_TABLES:
            await first.execute(statement)
        await first.execute("ALTER TABLE tables ADD COLUMN IF NOT EXISTS daily TEXT")
        await first.execute("INSERT INTO palast_schema VALUES (4, extract(epoch FROM now()))")


def schema_sql() -> str:
    """``schema.sql`` for PostgreSQL: identity columns for the ``INTEGER PRIMARY KEY`` ids."""
    text = resources.files(__package__).joinpath("schema.sql").read_text()
    return re.sub(r"\bid INTEGER PRIMARY KEY\b", "id BIGINT GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY", text)


#: At most this many actions in one statement (a busy second's worth at 1,000 players).
ACTIONS_BATCH = 500
#: Actions announced in one notification (each ``_action`` event is ~120 bytes; a payload holds
#: at most 7,900).
ACTIONS_A_NOTE = 40

#: A batch of actions in one statement of fixed text (so psycopg prepares it once per connection
#: and never parses it again): the six columns as arrays, each row only into a round in play,
#: holding its table's row (FOR SHARE) until the commit.  With a channel, the rows that went in
#: are announced to the other processes in the same statement (``pg_notify`` payloads of
#: ``ACTIONS_A_NOTE`` ``_action`` events, the broker's format; delivered once the batch commits,
#: so another process never hears of an action that isn't saved).
_INSERT_ACTIONS = (
    "WITH v AS (SELECT * FROM unnest(%(t)s::integer[], %(r)s::integer[], %(p)s::integer[], %(q)s::integer[], "
    "%(m)s::text[], %(a)s::double precision[]) AS v (table_id, round, player_id, seq, move, at)), "
    "ins AS (INSERT INTO actions (table_id, round, player_id, seq, move, at) "
    "SELECT v.table_id, v.round, v.player_id, v.seq, v.move, v.at FROM v WHERE EXISTS (SELECT 1 FROM tables "
    "WHERE id = v.table_id AND round = v.round AND round_state = %(playing)s FOR SHARE) "
    "ON CONFLICT DO NOTHING RETURNING table_id, round, player_id, seq, move, at) "
)
_SELECT_INSERTED = "SELECT table_id, round, player_id, seq, move, NULL FROM ins"
_SELECT_INSERTED_NOTIFY = (
    ", notes AS (SELECT pg_notify(%(channel)s, %(head)s || string_agg(json_build_array(table_id, "
    "json_build_object('type', '_action', 'table', table_id, 'round', round, 'player_id', player_id, 'seq', seq, "
    "'move', move, 'at', at))::text, ',') || ']}') FROM (SELECT *, (row_number() OVER () - 1) / %(per)s AS part "
    "FROM ins) AS i GROUP BY part) "
    "SELECT table_id, round, player_id, seq, move, NULL FROM ins UNION ALL SELECT NULL, NULL, NULL, NULL, NULL, "
    "count(*) FROM notes"
)


async def _insert_actions(db: psycopg.AsyncConnection, batch: list[ActionRow],
                          announce: tuple[str, str] | None = None) -> list[bool]:
    """Insert a batch of actions in one statement (autocommit: one commit), each only into a
    round in play, holding its table's row (FOR SHARE) until the commit: a process ending the
    round (an UPDATE of that row) waits for these actions and then counts them, or comes first
    and they are refused.  An action already there (the same seat and seq) is refused, not an
    error; so is the second of two equal ones in one batch.  With ``announce`` (channel, origin)
    the actions that went in are notified in the same statement.  Returns, for each, whether it
    went in."""
    params: dict[str, object] = {
        "t": [a.table_id for a in batch], "r": [a.round for a in batch], "p": [a.player_id for a in batch],
        "q": [a.seq for a in batch], "m": [a.move for a in batch], "a": [a.at for a in batch],
        "playing": ROUND_PLAYING,
    }
    if announce is None:
        query = _INSERT_ACTIONS + _SELECT_INSERTED
    else:
        query = _INSERT_ACTIONS + _SELECT_INSERTED_NOTIFY
        params.update(channel=announce[0], head=f'{{"o":"{announce[1]}","e":[', per=ACTIONS_A_NOTE)
    cur = await db.execute(query, params)
    inserted = {tuple(row[:5]) for row in await cur.fetchall() if row[0] is not None}
    done = []
    for a in batch:
        key = (a.table_id, a.round, a.player_id, a.seq, a.move)
        done.append(key in inserted)
        inserted.discard(key)  # an equal second one in the batch was not the one that went in
    return done


def _hung_up(conn: psycopg.AsyncConnection) -> bool:
    """True when an idle connection's socket is readable: PostgreSQL closed it (or said why)."""
    try:
        readable, _, _ = select.select([conn.fileno()], [], [], 0)
    except (OSError, ValueError, psycopg.Error):
        return True
    return bool(readable)


async def _quietly_close(conn: psycopg.AsyncConnection) -> None:
    try:
        await conn.close()
    except psycopg.Error:
        pass





async def _one(cur: psycopg.AsyncCursor) -> tuple:
    """The one row a statement always returns (an aggregate, or INSERT … RETURNING)."""
    row = await cur.fetchone()
    assert row is not None, "the statement returned no row"
    return row

class PostgresStore(Store):
    """``db.Store`` on PostgreSQL (psycopg 3, async, a pool of ``pool_size`` connections)."""

    def __init__(self, url: str, pool_size: int = 8, connect_timeout: float = 5):
        self.url = url
        self.pool_size = pool_size
        self.connect_timeout = connect_timeout
        self._idle: asyncio.Queue[psycopg.AsyncConnection | None] | None = None
        self._all: set[psycopg.AsyncConnection] = set()
        #: (channel, origin) when the actions written are announced to the other processes with
        #: them (``announce_actions``, the cluster's broker); None: not announced here.
        self._announce: tuple[str, str] | None = None
        self._actions = GroupCommit(
            lambda batch: self._run(lambda db: _insert_actions(db, batch, self._announce)), most=ACTIONS_BATCH)

    def announce_actions(self, channel: str, origin: str) -> None:
        """From now on every action written is also notified on ``channel`` as ``_action`` events
        from ``origin`` (``pg_broker.PgBroker``'s payloads), in its batch's own statement: one round
        trip saves and announces a batch, and the other processes hear of an action once it is
        durable (``cluster.ClusterSync`` then announces no ``_action`` itself)."""
        self._announce = (channel, origin)

    # -- connections
    async def _connect(self) -> psycopg.AsyncConnection:
        conn = await psycopg.AsyncConnection.connect(
            self.url, autocommit=True, connect_timeout=int(self.connect_timeout)
        )
        self._all.add(conn)
        return conn

    async def _run(self, fn: Callable[[psycopg.AsyncConnection], Awaitable[T]], *, tx: bool = False) -> T:
        """Run ``fn`` on a pooled connection (in one transaction when ``tx``).

        A pooled connection that PostgreSQL closed while it sat idle (a restart) is replaced first:
        an idle connection has nothing to read, so a readable socket means PostgreSQL said goodbye.
        A failure while ``fn`` runs is raised (the caller refuses; nothing was committed)."""
        if self._idle is None:
            raise RuntimeError("store is not open")
        conn = await self._idle.get()
        try:
            if conn is not None and (conn.closed or conn.broken or _hung_up(conn)):
                self._all.discard(conn)
                await _quietly_close(conn)
                conn = None
            if conn is None:
                conn = await self._connect()
            if tx:
                async with conn.transaction():
                    return await fn(conn)
            return await fn(conn)
        finally:
            if conn is not None and (conn.closed or conn.broken):
                self._all.discard(conn)
                conn = None
            self._idle.put_nowait(conn)

    # -- life
    async def open(self) -> None:
        self._idle = asyncio.Queue()
        first = await self._connect()
        async with first.transaction():
            await first.execute("SELECT pg_advisory_xact_lock(%s)", (_SCHEMA_LOCK,))
            await first.execute(
                "CREATE TABLE IF NOT EXISTS palast_schema (version INTEGER NOT NULL PRIMARY KEY, applied DOUBLE PRECISION NOT NULL)"
            )
            await migrate(first)
            await first.execute(SEAT_FUNCTION)
        self._idle.put_nowait(first)
        for _ in range(self.pool_size - 1):
            self._idle.put_nowait(None)  # connected on first use

    async def close(self) -> None:
        for conn in list(self._all):
            try:
                await conn.close()
            except psycopg.Error:
                pass
        self._all.clear()
        self._idle = None

    # -- players
    async def register(self, name: str, token_hash: str, now: float, bot: bool = False) -> PlayerRow | None:
        async def go(db: psycopg.AsyncConnection) -> PlayerRow | None:
            cur = await db.execute(
                "INSERT INTO players (name, name_key, skeleton, token_hash, created, bot) VALUES (%s, %s, %s, %s, %s, %s) "
                "ON CONFLICT DO NOTHING RETURNING id",
                (name, name.casefold(), key(name), token_hash, now, int(bot)),
            )
            row = await cur.fetchone()
            return PlayerRow(row[0], name, token_hash, None, None, 0, 0, 0, bot) if row else None

        return await self._run(go)

    async def player_by_name(self, name: str) -> PlayerRow | None:
        async def go(db: psycopg.AsyncConnection) -> PlayerRow | None:
            cur = await db.execute(f"SELECT {PLAYER_COLS} FROM players WHERE name_key = %s", (name.casefold(),))
            row = await cur.fetchone()
            return player_row(row) if row else None

        return await self._run(go)

    async def league(self) -> list[PlayerRow]:
        async def go(db: psycopg.AsyncConnection) -> list[PlayerRow]:
            cur = await db.execute(
                f"SELECT {PLAYER_COLS} FROM players WHERE (tables > 0 OR experience > 0) AND bot = 0 "
                "ORDER BY rating_mu IS NULL, rating_mu - 3 * rating_sigma DESC, experience DESC, name_key"
            )
            return [player_row(r) for r in await cur.fetchall()]

        return await self._run(go)

    # -- tables and seats
    async def create_table(self, *, host, suits, rules, rounds, seats, private, code, standard, now, daily=None) -> TableRow:
        async def go(db: psycopg.AsyncConnection) -> TableRow:
            cur = await db.execute(
                "INSERT INTO tables (host, suits, rules, rounds, seats, private, code, standard, state, created, daily) "
                f"VALUES (%s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s) RETURNING {TABLE_COLS}",
                (host, suits, rules, rounds, seats, int(private), code, int(standard), WAITING, now, daily),
            )
            return table_row(await _one(cur))

        return await self._run(go)

    async def _one_table(self, where: str, arg: Any) -> TableRow | None:
        async def go(db: psycopg.AsyncConnection) -> TableRow | None:
            cur = await db.execute(f"SELECT {TABLE_COLS} FROM tables WHERE {where} = %s", (arg,))
            row = await cur.fetchone()
            return table_row(row) if row else None

        return await self._run(go)

    async def table(self, table_id: int) -> TableRow | None:
        return await self._one_table("id", table_id)

    async def table_by_code(self, code: str) -> TableRow | None:
        return await self._one_table("code", code)

    async def live_tables(self) -> list[TableRow]:
        async def go(db: psycopg.AsyncConnection) -> list[TableRow]:
            cur = await db.execute(f"SELECT {TABLE_COLS} FROM tables WHERE state != %s ORDER BY id", (FINISHED,))
            return [table_row(r) for r in await cur.fetchall()]

        return await self._run(go)

    async def seat(self, table_id: int, player_id: int, now: float) -> Reason | None:
        async def go(db: psycopg.AsyncConnection) -> str:
            cur = await db.execute("SELECT palast_seat(%s, %s, %s)", (table_id, player_id, now))
            return (await _one(cur))[0]

        said = await self._run(go)
        if not said:
            return None
        if said == "no_table":
            return Reason("There is no such table.", Code.NO_TABLE)
        if said.startswith("seated:"):
            return Reason(f"You already sit at table {said[7:]}; leave it or finish it first.", Code.ALREADY_SEATED)
        if said == PLAYING:
            return Reason("That table has started.", Code.TABLE_STARTED)
        if said == "full":
            return Reason("That table is full.", Code.TABLE_FULL)
        return Reason("That table is finished.", Code.TABLE_FINISHED)

    async def unseat(self, table_id: int, player_id: int) -> bool:
        async def tx(db: psycopg.AsyncConnection) -> bool:
            cur = await db.execute("SELECT state FROM tables WHERE id = %s FOR UPDATE", (table_id,))
            row = await cur.fetchone()
            if row is None or row[0] != WAITING:
                return False
            cur = await db.execute("DELETE FROM seats WHERE table_id = %s AND player_id = %s", (table_id, player_id))
            if cur.rowcount != 1:
                return False
            cur = await db.execute("SELECT player_id FROM seats WHERE table_id = %s ORDER BY seat", (table_id,))
            rows = await cur.fetchall()
            for i, (pid,) in enumerate(rows):  # the start clock (full_at) keeps running
                await db.execute("UPDATE seats SET seat = %s WHERE table_id = %s AND player_id = %s", (i, table_id, pid))
            return True

        return await self._run(tx, tx=True)

    async def seats(self, table_id: int) -> list[SeatRow]:
        async def go(db: psycopg.AsyncConnection) -> list[SeatRow]:
            cur = await db.execute(
                f"SELECT {SEAT_COLS} FROM seats s "
                "JOIN players p ON p.id = s.player_id WHERE s.table_id = %s ORDER BY s.seat",
                (table_id,),
            )
            return [seat_row(r) for r in await cur.fetchall()]

        return await self._run(go)

    async def set_host(self, table_id: int, name: str) -> None:
        async def go(db: psycopg.AsyncConnection) -> None:
            await db.execute("UPDATE tables SET host = %s WHERE id = %s", (name, table_id))

        await self._run(go)

    async def close_table(self, table_id: int, *, seated: bool = False) -> bool:
        async def go(db: psycopg.AsyncConnection) -> bool:
            cur = await db.execute("SELECT 1 FROM tables WHERE id = %s AND state = %s FOR UPDATE", (table_id, WAITING))
            if await cur.fetchone() is None:
                return False
            if not seated:
                cur = await db.execute("SELECT 1 FROM seats WHERE table_id = %s", (table_id,))
                if await cur.fetchone() is not None:
                    return False
            await db.execute("DELETE FROM seats WHERE table_id = %s", (table_id,))
            await db.execute("DELETE FROM tables WHERE id = %s", (table_id,))
            return True

        return await self._run(go, tx=True)

    async def table_of(self, player_id: int) -> int | None:
        async def go(db: psycopg.AsyncConnection) -> int | None:
            cur = await db.execute(
                "SELECT s.table_id FROM seats s JOIN tables t ON t.id = s.table_id WHERE s.player_id = %s AND t.state != %s AND s.left_at IS NULL",
                (player_id, FINISHED),
            )
            row = await cur.fetchone()
            return row[0] if row else None

        return await self._run(go)

    async def leave_running(self, table_id: int, player_id: int, now: float) -> bool:
        async def go(db: psycopg.AsyncConnection) -> bool:
            cur = await db.execute(
                "UPDATE seats SET left_at = %s WHERE table_id = %s AND player_id = %s AND left_at IS NULL "
                "AND EXISTS (SELECT 1 FROM tables WHERE id = %s AND state = %s)",
                (now, table_id, player_id, table_id, PLAYING),
            )
            return cur.rowcount == 1

        return await self._run(go)

    async def set_ready(self, table_id: int, player_id: int, round: int) -> None:
        async def go(db: psycopg.AsyncConnection) -> None:
            await db.execute(
                "UPDATE seats SET ready = %s WHERE table_id = %s AND player_id = %s", (round, table_id, player_id)
            )

        await self._run(go)

    # -- rounds
    async def start_round(self, table_id: int, round: int, deal: str, now: float, ends_at: float) -> bool:
        async def tx(db: psycopg.AsyncConnection) -> bool:
            cur = await db.execute(
                "UPDATE tables SET round = %s, round_state = %s, state = %s, deal = %s, round_started = %s, "
                "ends_at = %s, next_at = NULL WHERE id = %s AND round = %s AND round_state != %s AND state != %s",
                (round, ROUND_PLAYING, PLAYING, deal, now, ends_at, table_id, round - 1, ROUND_PLAYING, FINISHED),
            )
            if cur.rowcount != 1:
                return False
            await db.execute(
                "INSERT INTO round_deals (table_id, round, deal) VALUES (%s, %s, %s) "
                "ON CONFLICT (table_id, round) DO UPDATE SET deal = excluded.deal",
                (table_id, round, deal),
            )
            return True

        return await self._run(tx, tx=True)

    async def round_deals(self, table_id: int) -> dict[int, int | str]:
        async def go(db: psycopg.AsyncConnection) -> dict[int, int | str]:
            cur = await db.execute("SELECT round, deal FROM round_deals WHERE table_id = %s", (table_id,))
            return {r: d for r, d in await cur.fetchall()}

        return await self._run(go)

    async def add_action(self, action: ActionRow) -> bool:
        """Group commit (``GroupCommit``): one statement a batch."""
        return await self._actions.add(action)

    async def actions(self, table_id: int, round: int) -> list[ActionRow]:
        async def go(db: psycopg.AsyncConnection) -> list[ActionRow]:
            cur = await db.execute(
                "SELECT table_id, round, player_id, seq, move, at FROM actions WHERE table_id = %s AND round = %s "
                "ORDER BY player_id, seq",
                (table_id, round),
            )
            return [ActionRow(*r) for r in await cur.fetchall()]

        return await self._run(go)

    async def end_round(self, table_id, round, results, now, next_at, seqs=None, records=None) -> bool:
        async def tx(db: psycopg.AsyncConnection) -> bool:
            cur = await db.execute(
                "UPDATE tables SET round_state = %s, next_at = %s WHERE id = %s AND round = %s AND round_state = %s",
                (ROUND_OVER, next_at, table_id, round, ROUND_PLAYING),
            )
            if cur.rowcount != 1:
                return False
            if seqs is not None:  # every action written before the row was ours is in the results?
                cur = await db.execute(
                    "SELECT player_id, max(seq) FROM actions WHERE table_id = %s AND round = %s GROUP BY player_id",
                    (table_id, round),
                )
                if stale(seqs, dict(await cur.fetchall())):
                    raise StaleRound(table_id, round)  # the transaction rolls back
            for r in results:
                await db.execute(
                    "INSERT INTO results (table_id, round, player_id, score, solved, moves, seconds, state) "
                    "VALUES (%s, %s, %s, %s, %s, %s, %s, %s)",
                    (table_id, round, r.player_id, r.score, int(r.solved), r.moves, r.seconds, r.state),
                )
            for r in sorted(results, key=lambda r: r.player_id):  # lock order: player id
                if r.score > 0:
                    await db.execute(
                        "UPDATE players SET experience = experience + %s WHERE id = %s", (r.score, r.player_id)
                    )
            for pid, text in sorted((records or {}).items()):
                await db.execute("INSERT INTO records (table_id, round, player_id, record) VALUES (%s, %s, %s, %s)",
                                 (table_id, round, pid, text))
            return True

        return await self._run(tx, tx=True)

    async def results(self, table_id: int) -> list[ResultRow]:
        async def go(db: psycopg.AsyncConnection) -> list[ResultRow]:
            cur = await db.execute(
                "SELECT r.table_id, r.round, r.player_id, p.name, r.score, r.solved, r.moves, r.seconds, r.state "
                "FROM results r JOIN players p ON p.id = r.player_id WHERE r.table_id = %s ORDER BY r.round, r.player_id",
                (table_id,),
            )
            return [result_row(r) for r in await cur.fetchall()]

        return await self._run(go)

    async def daily_deal(self, day: str, suits: int, deal: str) -> str:
        async def go(db: psycopg.AsyncConnection) -> str:
            await db.execute("INSERT INTO daily (day, suits, deal) VALUES (%s, %s, %s) ON CONFLICT DO NOTHING",
                             (day, suits, deal))
            cur = await db.execute("SELECT deal FROM daily WHERE day = %s AND suits = %s", (day, suits))
            return (await _one(cur))[0]

        return await self._run(go)

    async def daily_told(self, day: str, suits: int) -> str | None:
        async def go(db: psycopg.AsyncConnection) -> str | None:
            cur = await db.execute("SELECT deal FROM daily WHERE day = %s AND suits = %s", (day, suits))
            row = await cur.fetchone()
            return row[0] if row else None

        return await self._run(go)

    async def daily_try(self, day: str, suits: int, player_id: int, table_id: int) -> bool:
        async def go(db: psycopg.AsyncConnection) -> bool:
            cur = await db.execute(
                "INSERT INTO daily_tries (day, suits, player_id, table_id) VALUES (%s, %s, %s, %s) ON CONFLICT DO NOTHING",
                (day, suits, player_id, table_id))
            return cur.rowcount == 1

        return await self._run(go)

    async def daily_board(self, day: str, suits: int) -> tuple[list[DailyRow], int]:
        async def go(db: psycopg.AsyncConnection) -> tuple[list[DailyRow], int]:
            cur = await db.execute("SELECT " + DAILY_COLS.format(p="%s"), (day, suits))
            rows = await cur.fetchall()
            cur = await db.execute(
                "SELECT COUNT(*) FROM daily_tries d JOIN tables t ON t.id = d.table_id "
                "WHERE d.day = %s AND d.suits = %s AND t.state != %s", (day, suits, FINISHED))
            playing = (await _one(cur))[0]
            return [DailyRow(r[0], bool(r[1]), r[2], bool(r[3]), r[4], r[5], r[6]) for r in rows], playing

        return await self._run(go)

    async def records(self, table_id: int, round: int) -> list[str]:
        async def go(db: psycopg.AsyncConnection) -> list[str]:
            cur = await db.execute("SELECT record FROM records WHERE table_id = %s AND round = %s ORDER BY player_id",
                                   (table_id, round))
            return [r[0] for r in await cur.fetchall()]

        return await self._run(go)

    async def finish_table(self, table_id: int, ranking: Sequence[Placing], counted: bool, rate: Rater) -> bool:
        async def tx(db: psycopg.AsyncConnection) -> bool:
            cur = await db.execute(
                "UPDATE tables SET state = %s, round_state = %s, next_at = NULL WHERE id = %s AND state = %s",
                (FINISHED, ROUND_OVER, table_id, PLAYING),
            )
            if cur.rowcount != 1:
                return False
            if counted:
                ids = sorted(p.player_id for p in ranking)
                cur = await db.execute(
                    "SELECT id, rating_mu, rating_sigma FROM players WHERE id = ANY(%s) ORDER BY id FOR UPDATE",
                    (ids,),
                )
                now_rating = {pid: (mu, sigma) for pid, mu, sigma in await cur.fetchall()}
                teams = [(p.player_id, *now_rating[p.player_id], p.place) for p in ranking]
                for pid, (mu, sigma) in sorted(rate(teams).items()):
                    await db.execute(
                        "UPDATE players SET rating_mu = %s, rating_sigma = %s, tables = tables + 1 WHERE id = %s",
                        (mu, sigma, pid),
                    )
                for p in ranking:
                    if p.place == 1:
                        await db.execute("UPDATE players SET wins = wins + 1 WHERE id = %s", (p.player_id,))
            return True

        return await self._run(tx, tx=True)
