"""The SQLite store (the default: one file in the data dir, nothing to install).

One connection on one worker thread: every call is a coroutine that runs its SQL there, so the
event loop never waits on the disk and the statements of a call never interleave with another's.
WAL mode with ``synchronous=NORMAL``: a committed action survives ``kill -9`` of the server.
Multi-statement changes run in ``BEGIN IMMEDIATE`` transactions.

The one exception is a batch of actions (``GroupCommit``: what arrived during one turn of the
event loop), the only writes of a round in play: when the worker has nothing running or queued,
the batch is written on the event loop's own thread, in one transaction (never waiting for a lock:
busy, it goes to the worker).  Under WAL with
``synchronous=NORMAL`` a commit appends to the WAL file and never waits for the disk (the fsyncs
are the checkpoints', on their own thread), so this costs ~40 µs plus a few µs a row, where the
hop to the worker cost more than the write: the executor's queue, a wake of the loop through its
self-pipe, and each of the worker's SQLite calls waiting for the GIL behind the busy loop (a
batch of 15 rows took 6 ms there at 1,000 players, 0.3 ms alone).  When the worker is busy the
batch goes to it, behind what it is doing, so the connection is never used by two threads at
once.
"""

from __future__ import annotations

import asyncio
import logging
import sqlite3
import threading
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from importlib import resources
from pathlib import Path
from typing import TypeVar

from spider_tui.palast.server.db import (
    FINISHED, PLAYING, ROUND_OVER, ROUND_PLAYING, WAITING,
    ActionRow, GroupCommit, PlayerRow, Placing, Rater, ResultRow, SeatRow, Store, TableRow,
    ADDED_COLUMNS, DAILY_COLS, DailyRow, PLAYER_COLS, SEAT_COLS, TABLE_COLS, SKELETON_COLUMN, SKELETON_INDEX, StaleRound, player_row,
    result_row, seat_row, skeletons, stale, table_row,
)
from spider_tui.palast.messages import Code, Reason
from spider_tui.palast.names import key

T = TypeVar("T")
log = logging.getLogger("spider.palast")
CHECKPOINT_SECONDS = 1.0
BUSY_MS = 30_000  # how long a statement waits for another connection's lock (sqlite3's timeout=30)


def unlocked(db: sqlite3.Connection, go: Callable[[sqlite3.Connection], T]) -> T | None:
    """``go(db)`` here, never waiting for a lock another process holds (a backup, say: that would
    stop the loop); None when busy (nothing was written)."""
    db.execute("PRAGMA busy_timeout = 0")
    try:
        return go(db)
    except sqlite3.OperationalError as e:
        if e.sqlite_errorcode not in (sqlite3.SQLITE_BUSY, sqlite3.SQLITE_LOCKED):
            raise
        if db.in_transaction:  # pragma: no cover - BEGIN IMMEDIATE is where it is busy
            db.execute("ROLLBACK")
        return None
    finally:
        db.execute(f"PRAGMA busy_timeout = {BUSY_MS}")


class SqliteStore(Store):
    def __init__(self, path: Path):
        self.path = Path(path)
        self._pool = ThreadPoolExecutor(max_workers=1, thread_name_prefix="palast-sqlite")
        self._db: sqlite3.Connection | None = None
        self._actions = GroupCommit(self._write_actions)
        self._checkpointer: asyncio.Future[None] | None = None
        self._lock = threading.Lock()
        self._inflight = 0  # calls handed to the worker and not yet done (or cancelled unrun)

    async def _run(self, fn: Callable[[sqlite3.Connection], T]) -> T:
        with self._lock:
            self._inflight += 1
        try:
            cf = self._pool.submit(self._counted, fn)
        except BaseException:
            self._done()
            raise
        cf.add_done_callback(lambda f: self._done() if f.cancelled() else None)  # never ran: never counted down
        return await asyncio.wrap_future(cf)

    def _counted(self, fn: Callable[[sqlite3.Connection], T]) -> T:
        try:
            return self._call(fn)
        finally:
            self._done()

    def _done(self) -> None:
        with self._lock:
            self._inflight -= 1

    def _call(self, fn: Callable[[sqlite3.Connection], T]) -> T:
        assert self._db is not None, "store is not open"
        return fn(self._db)

    async def _write_actions(self, batch: list[ActionRow]) -> list[bool]:
        """A batch of actions in one transaction: on the loop's thread when the worker is idle and
        nothing holds the database (see the module docstring), else on the worker."""

        def go(db: sqlite3.Connection) -> list[bool]:
            return self._tx(db, lambda db: [self._insert(db, a) for a in batch])

        if self._inflight == 0 and self._db is not None and (done := unlocked(self._db, go)) is not None:
            return done
        return await self._run(go)

    @staticmethod
    def _tx(db: sqlite3.Connection, fn: Callable[[sqlite3.Connection], T]) -> T:
        db.execute("BEGIN IMMEDIATE")
        try:
            out = fn(db)
        except BaseException:
            db.execute("ROLLBACK")
            raise
        db.execute("COMMIT")
        return out

    # -- life
    async def open(self) -> None:
        def connect() -> None:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            db = sqlite3.connect(self.path, isolation_level=None, check_same_thread=False, timeout=30)
            db.execute("PRAGMA journal_mode=WAL")
            db.execute("PRAGMA synchronous=NORMAL")
            db.execute("PRAGMA foreign_keys=ON")
            # Checkpoints (the only fsyncs under WAL + NORMAL) run on their own connection and
            # thread, so a commit never waits for the disk: see ``_checkpoints``.
            db.execute("PRAGMA wal_autocheckpoint=0")
            db.executescript(resources.files(__package__).joinpath("schema.sql").read_text())
            for table, column, decl in ADDED_COLUMNS:  # a database made by an older version
                if column not in {r[1] for r in db.execute(f"PRAGMA table_info({table})")}:
                    db.execute(f"ALTER TABLE {table} ADD COLUMN {column} {decl}")
            self._migrate(db)
            self._db = db

        loop = asyncio.get_running_loop()
        await loop.run_in_executor(self._pool, connect)
        self._checkpointer = asyncio.ensure_future(self._checkpoints())

    @staticmethod
    def _migrate(db: sqlite3.Connection) -> None:
        """Names unique by skeleton in a database made before (see ``SKELETON_COLUMN``)."""
        if "skeleton" not in {r[1] for r in db.execute("PRAGMA table_info(players)")}:
            db.execute(SKELETON_COLUMN)
        missing = db.execute("SELECT id, name FROM players WHERE skeleton IS NULL ORDER BY id").fetchall()
        if missing:
            taken = {r[0] for r in db.execute("SELECT skeleton FROM players WHERE skeleton IS NOT NULL")}
            db.executemany("UPDATE players SET skeleton = ? WHERE id = ?", skeletons(missing, taken))
        db.execute(SKELETON_INDEX)

    async def _checkpoints(self) -> None:
        """Copy the WAL back into the database file every ``CHECKPOINT_SECONDS``, from a second
        connection on a second thread.  A PASSIVE checkpoint never blocks the writer, and the
        writer never runs one itself (``wal_autocheckpoint=0``): with SQLite's automatic
        checkpoint, the commit that crossed 1000 pages paid for two fsyncs, up to 200 ms on a
        busy disk, and every action in its batch waited for them."""
        loop = asyncio.get_running_loop()
        pool = ThreadPoolExecutor(max_workers=1, thread_name_prefix="palast-checkpoint")
        box: list[sqlite3.Connection] = []

        def checkpoint() -> None:
            if not box:
                box.append(sqlite3.connect(self.path, isolation_level=None, check_same_thread=False, timeout=30))
            box[0].execute("PRAGMA wal_checkpoint(PASSIVE)").fetchone()

        try:
            while True:
                await asyncio.sleep(CHECKPOINT_SECONDS)
                try:
                    await loop.run_in_executor(pool, checkpoint)
                except sqlite3.Error as e:  # busy or failing disk: the next one tries again
                    log.warning("SQLite checkpoint failed: %s", e)
        finally:
            if box:
                pool.submit(box[0].close)
            pool.shutdown(wait=True)

    async def close(self) -> None:
        def shut() -> None:
            if self._db is not None:
                try:
                    self._db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
                except sqlite3.Error:
                    pass  # the WAL stays; the next open reads it
                self._db.close()
                self._db = None

        if self._checkpointer is not None:
            self._checkpointer.cancel()
            try:
                await self._checkpointer
            except asyncio.CancelledError:
                pass
            self._checkpointer = None
        if self._db is not None:
            await asyncio.get_running_loop().run_in_executor(self._pool, shut)
        self._pool.shutdown(wait=True)

    # -- players
    async def register(self, name: str, token_hash: str, now: float, bot: bool = False) -> PlayerRow | None:
        def go(db: sqlite3.Connection) -> PlayerRow | None:
            try:
                cur = db.execute(
                    "INSERT INTO players (name, name_key, skeleton, token_hash, created, bot) VALUES (?, ?, ?, ?, ?, ?)",
                    (name, name.casefold(), key(name), token_hash, now, int(bot)),
                )
            except sqlite3.IntegrityError:
                return None
            assert cur.lastrowid is not None  # an INSERT that succeeded
            return PlayerRow(cur.lastrowid, name, token_hash, None, None, 0, 0, 0, bot)

        return await self._run(go)

    async def player_by_name(self, name: str) -> PlayerRow | None:
        def go(db: sqlite3.Connection) -> PlayerRow | None:
            row = db.execute(f"SELECT {PLAYER_COLS} FROM players WHERE name_key = ?", (name.casefold(),)).fetchone()
            return player_row(row) if row else None

        return await self._run(go)

    async def league(self) -> list[PlayerRow]:
        def go(db: sqlite3.Connection) -> list[PlayerRow]:
            rows = db.execute(
                f"SELECT {PLAYER_COLS} FROM players WHERE (tables > 0 OR experience > 0) AND bot = 0 "
                "ORDER BY rating_mu IS NULL, rating_mu - 3 * rating_sigma DESC, experience DESC, name_key"
            ).fetchall()
            return [player_row(r) for r in rows]

        return await self._run(go)

    # -- tables and seats
    async def create_table(self, *, host, suits, rules, rounds, seats, private, code, standard, now, daily=None) -> TableRow:
        def go(db: sqlite3.Connection) -> TableRow:
            cur = db.execute(
                "INSERT INTO tables (host, suits, rules, rounds, seats, private, code, standard, state, created, daily) "
                "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (host, suits, rules, rounds, seats, int(private), code, int(standard), WAITING, now, daily),
            )
            return table_row(db.execute(f"SELECT {TABLE_COLS} FROM tables WHERE id = ?", (cur.lastrowid,)).fetchone())

        return await self._run(go)

    async def table(self, table_id: int) -> TableRow | None:
        def go(db: sqlite3.Connection) -> TableRow | None:
            row = db.execute(f"SELECT {TABLE_COLS} FROM tables WHERE id = ?", (table_id,)).fetchone()
            return table_row(row) if row else None

        return await self._run(go)

    async def table_by_code(self, code: str) -> TableRow | None:
        def go(db: sqlite3.Connection) -> TableRow | None:
            row = db.execute(f"SELECT {TABLE_COLS} FROM tables WHERE code = ?", (code,)).fetchone()
            return table_row(row) if row else None

        return await self._run(go)

    async def live_tables(self) -> list[TableRow]:
        def go(db: sqlite3.Connection) -> list[TableRow]:
            rows = db.execute(f"SELECT {TABLE_COLS} FROM tables WHERE state != ? ORDER BY id", (FINISHED,)).fetchall()
            return [table_row(r) for r in rows]

        return await self._run(go)

    async def seat(self, table_id: int, player_id: int, now: float) -> Reason | None:
        def tx(db: sqlite3.Connection) -> Reason | None:
            row = db.execute("SELECT state, seats, standard FROM tables WHERE id = ?", (table_id,)).fetchone()
            if row is None:
                return Reason("There is no such table.", Code.NO_TABLE)
            state, max_seats, standard = row
            if db.execute("SELECT 1 FROM seats WHERE table_id = ? AND player_id = ? AND left_at IS NULL", (table_id, player_id)).fetchone():
                return None
            other = db.execute(
                "SELECT s.table_id FROM seats s JOIN tables t ON t.id = s.table_id WHERE s.player_id = ? AND t.state != ? AND s.left_at IS NULL",
                (player_id, FINISHED),
            ).fetchone()
            if other:
                return Reason(f"You already sit at table {other[0]}; leave it or finish it first.", Code.ALREADY_SEATED)
            if state != WAITING:
                return (Reason("That table has started.", Code.TABLE_STARTED) if state == PLAYING
                        else Reason("That table is finished.", Code.TABLE_FINISHED))
            taken = db.execute("SELECT COUNT(*) FROM seats WHERE table_id = ?", (table_id,)).fetchone()[0]
            if taken >= max_seats:
                return Reason("That table is full.", Code.TABLE_FULL)
            db.execute(
                "INSERT INTO seats (table_id, player_id, seat, joined) VALUES (?, ?, ?, ?)",
                (table_id, player_id, taken, now),
            )
            if taken + 1 >= 2:  # the start clock counts from the first time two sat (SPEC §13)
                db.execute("UPDATE tables SET full_at = ? WHERE id = ? AND full_at IS NULL", (now, table_id))
            return None

        return await self._run(lambda db: self._tx(db, tx))

    async def unseat(self, table_id: int, player_id: int) -> bool:
        def tx(db: sqlite3.Connection) -> bool:
            row = db.execute("SELECT state FROM tables WHERE id = ?", (table_id,)).fetchone()
            if row is None or row[0] != WAITING:
                return False
            cur = db.execute("DELETE FROM seats WHERE table_id = ? AND player_id = ?", (table_id, player_id))
            if cur.rowcount != 1:
                return False
            # Close the gap in the seat order; the start clock (full_at) keeps running: a leave and
            # rejoin doesn't restart it.
            rows = db.execute("SELECT player_id FROM seats WHERE table_id = ? ORDER BY seat", (table_id,)).fetchall()
            for i, (pid,) in enumerate(rows):
                db.execute("UPDATE seats SET seat = ? WHERE table_id = ? AND player_id = ?", (i, table_id, pid))
            return True

        return await self._run(lambda db: self._tx(db, tx))

    async def seats(self, table_id: int) -> list[SeatRow]:
        def go(db: sqlite3.Connection) -> list[SeatRow]:
            rows = db.execute(
                f"SELECT {SEAT_COLS} FROM seats s "
                "JOIN players p ON p.id = s.player_id WHERE s.table_id = ? ORDER BY s.seat",
                (table_id,),
            ).fetchall()
            return [seat_row(r) for r in rows]

        return await self._run(go)

    async def set_host(self, table_id: int, name: str) -> None:
        await self._run(lambda db: db.execute("UPDATE tables SET host = ? WHERE id = ?", (name, table_id)))

    async def close_table(self, table_id: int, *, seated: bool = False) -> bool:
        def go(db: sqlite3.Connection) -> bool:
            if not seated and db.execute("SELECT 1 FROM seats WHERE table_id = ?", (table_id,)).fetchone():
                return False
            if not db.execute("SELECT 1 FROM tables WHERE id = ? AND state = ?", (table_id, WAITING)).fetchone():
                return False
            db.execute("DELETE FROM seats WHERE table_id = ?", (table_id,))
            db.execute("DELETE FROM tables WHERE id = ?", (table_id,))
            return True

        return await self._run(lambda db: self._tx(db, go))

    async def table_of(self, player_id: int) -> int | None:
        def go(db: sqlite3.Connection) -> int | None:
            row = db.execute(
                "SELECT s.table_id FROM seats s JOIN tables t ON t.id = s.table_id WHERE s.player_id = ? AND t.state != ? AND s.left_at IS NULL",
                (player_id, FINISHED),
            ).fetchone()
            return row[0] if row else None

        return await self._run(go)

    async def leave_running(self, table_id: int, player_id: int, now: float) -> bool:
        def go(db: sqlite3.Connection) -> bool:
            cur = db.execute(
                "UPDATE seats SET left_at = ? WHERE table_id = ? AND player_id = ? AND left_at IS NULL "
                "AND EXISTS (SELECT 1 FROM tables WHERE id = ? AND state = ?)",
                (now, table_id, player_id, table_id, PLAYING),
            )
            return cur.rowcount == 1

        return await self._run(go)

    async def set_ready(self, table_id: int, player_id: int, round: int) -> None:
        await self._run(lambda db: db.execute(
            "UPDATE seats SET ready = ? WHERE table_id = ? AND player_id = ?", (round, table_id, player_id)
        ))

    # -- rounds
    async def start_round(self, table_id: int, round: int, deal: str, now: float, ends_at: float) -> bool:
        def tx(db: sqlite3.Connection) -> bool:
            cur = db.execute(
                "UPDATE tables SET round = ?, round_state = ?, state = ?, deal = ?, round_started = ?, "
                "ends_at = ?, next_at = NULL WHERE id = ? AND round = ? AND round_state != ? AND state != ?",
                (round, ROUND_PLAYING, PLAYING, deal, now, ends_at, table_id, round - 1, ROUND_PLAYING, FINISHED),
            )
            if cur.rowcount != 1:
                return False
            db.execute("INSERT OR REPLACE INTO round_deals (table_id, round, deal) VALUES (?, ?, ?)", (table_id, round, deal))
            return True

        return await self._run(lambda db: self._tx(db, tx))

    async def round_deals(self, table_id: int) -> dict[int, int | str]:
        def go(db: sqlite3.Connection) -> dict[int, int | str]:
            rows = db.execute("SELECT round, deal FROM round_deals WHERE table_id = ?", (table_id,)).fetchall()
            return {r: d for r, d in rows}

        return await self._run(go)

    async def add_action(self, action: ActionRow) -> bool:
        """Group commit (``GroupCommit``): one transaction a batch."""
        return await self._actions.add(action)

    @staticmethod
    def _insert(db: sqlite3.Connection, a: ActionRow) -> bool:
        cur = db.execute(
            "INSERT OR IGNORE INTO actions (table_id, round, player_id, seq, move, at) SELECT ?, ?, ?, ?, ?, ? "
            "WHERE EXISTS (SELECT 1 FROM tables WHERE id = ? AND round = ? AND round_state = ?)",
            (a.table_id, a.round, a.player_id, a.seq, a.move, a.at, a.table_id, a.round, ROUND_PLAYING),
        )
        return cur.rowcount == 1

    async def actions(self, table_id: int, round: int) -> list[ActionRow]:
        def go(db: sqlite3.Connection) -> list[ActionRow]:
            rows = db.execute(
                "SELECT table_id, round, player_id, seq, move, at FROM actions WHERE table_id = ? AND round = ? "
                "ORDER BY player_id, seq",
                (table_id, round),
            ).fetchall()
            return [ActionRow(*r) for r in rows]

        return await self._run(go)

    async def end_round(self, table_id, round, results, now, next_at, seqs=None, records=None) -> bool:
        def tx(db: sqlite3.Connection) -> bool:
            cur = db.execute(
                "UPDATE tables SET round_state = ?, next_at = ? WHERE id = ? AND round = ? AND round_state = ?",
                (ROUND_OVER, next_at, table_id, round, ROUND_PLAYING),
            )
            if cur.rowcount != 1:
                return False
            if seqs is not None:
                written = db.execute(
                    "SELECT player_id, max(seq) FROM actions WHERE table_id = ? AND round = ? GROUP BY player_id",
                    (table_id, round),
                ).fetchall()
                if stale(seqs, dict(written)):
                    raise StaleRound(table_id, round)  # _tx rolls back
            for r in results:
                db.execute(
                    "INSERT INTO results (table_id, round, player_id, score, solved, moves, seconds, state) "
                    "VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                    (table_id, round, r.player_id, r.score, int(r.solved), r.moves, r.seconds, r.state),
                )
                if r.score > 0:
                    db.execute("UPDATE players SET experience = experience + ? WHERE id = ?", (r.score, r.player_id))
            db.executemany("INSERT INTO records (table_id, round, player_id, record) VALUES (?, ?, ?, ?)",
                           [(table_id, round, pid, text) for pid, text in sorted((records or {}).items())])
            return True

        return await self._run(lambda db: self._tx(db, tx))

    async def results(self, table_id: int) -> list[ResultRow]:
        def go(db: sqlite3.Connection) -> list[ResultRow]:
            rows = db.execute(
                "SELECT r.table_id, r.round, r.player_id, p.name, r.score, r.solved, r.moves, r.seconds, r.state "
                "FROM results r JOIN players p ON p.id = r.player_id WHERE r.table_id = ? ORDER BY r.round, r.player_id",
                (table_id,),
            ).fetchall()
            return [result_row(r) for r in rows]

        return await self._run(go)

    async def daily_deal(self, day: str, suits: int, deal: str) -> str:
        def go(db: sqlite3.Connection) -> str:
            db.execute("INSERT OR IGNORE INTO daily (day, suits, deal) VALUES (?, ?, ?)", (day, suits, deal))
            return db.execute("SELECT deal FROM daily WHERE day = ? AND suits = ?", (day, suits)).fetchone()[0]

        return await self._run(lambda db: self._tx(db, go))

    async def daily_told(self, day: str, suits: int) -> str | None:
        def go(db: sqlite3.Connection) -> str | None:
            row = db.execute("SELECT deal FROM daily WHERE day = ? AND suits = ?", (day, suits)).fetchone()
            return row[0] if row else None

        return await self._run(go)

    async def daily_try(self, day: str, suits: int, player_id: int, table_id: int) -> bool:
        def go(db: sqlite3.Connection) -> bool:
            cur = db.execute("INSERT OR IGNORE INTO daily_tries (day, suits, player_id, table_id) VALUES (?, ?, ?, ?)",
                             (day, suits, player_id, table_id))
            return cur.rowcount == 1

        return await self._run(go)

    async def daily_board(self, day: str, suits: int) -> tuple[list[DailyRow], int]:
        def go(db: sqlite3.Connection) -> tuple[list[DailyRow], int]:
            rows = db.execute("SELECT " + DAILY_COLS.format(p="?"), (day, suits)).fetchall()
            playing = db.execute(
                "SELECT COUNT(*) FROM daily_tries d JOIN tables t ON t.id = d.table_id "
                "WHERE d.day = ? AND d.suits = ? AND t.state != ?", (day, suits, FINISHED)).fetchone()[0]
            return [DailyRow(r[0], bool(r[1]), r[2], bool(r[3]), r[4], r[5], r[6]) for r in rows], playing

        return await self._run(go)

    async def records(self, table_id: int, round: int) -> list[str]:
        def go(db: sqlite3.Connection) -> list[str]:
            rows = db.execute("SELECT record FROM records WHERE table_id = ? AND round = ? ORDER BY player_id",
                              (table_id, round)).fetchall()
            return [r[0] for r in rows]

        return await self._run(go)

    async def finish_table(self, table_id: int, ranking: Sequence[Placing], counted: bool, rate: Rater) -> bool:
        def tx(db: sqlite3.Connection) -> bool:
            cur = db.execute(
                "UPDATE tables SET state = ?, round_state = ?, next_at = NULL WHERE id = ? AND state = ?",
                (FINISHED, ROUND_OVER, table_id, PLAYING),
            )
            if cur.rowcount != 1:
                return False
            if counted:
                teams = []
                for p in ranking:
                    mu, sigma = db.execute("SELECT rating_mu, rating_sigma FROM players WHERE id = ?", (p.player_id,)).fetchone()
                    teams.append((p.player_id, mu, sigma, p.place))
                for pid, (mu, sigma) in rate(teams).items():
                    db.execute("UPDATE players SET rating_mu = ?, rating_sigma = ?, tables = tables + 1 WHERE id = ?", (mu, sigma, pid))
                for p in ranking:
                    if p.place == 1:
                        db.execute("UPDATE players SET wins = wins + 1 WHERE id = ?", (p.player_id,))
            return True

        return await self._run(lambda db: self._tx(db, tx))
