"""The stores (SQLite and PostgreSQL) against their interface (SPEC §13 Faults): what happens once, happens once."""

from __future__ import annotations

import asyncio

import pytest

from spider_tui.palast.server.db import ROUND_PLAYING, ActionRow, Placing, ResultRow, StaleRound, open_store
from spider_tui.palast.server.league import ordinal, places, rate


@pytest.fixture
async def store(tmp_path, db_url):
    s = open_store(db_url, tmp_path)
    await s.open()
    yield s
    await s.close()


async def test_names_are_unique_case_insensitively(store):
    a = await store.register("Anna", "h1", 1.0)
    assert a is not None and a.name == "Anna"
    assert await store.register("aNNA", "h2", 2.0) is None
    assert (await store.player_by_name("ANNA")).token_hash == "h1"


async def _table(store, seats=4, standard=False):
    return await store.create_table(host=None if standard else "Anna", suits=1, rules="classic", rounds=2,
                                    seats=seats, private=False, code=None, standard=standard, now=1.0)


async def test_seats_one_unfinished_table_and_full(store):
    ids = [(await store.register(f"p{i}", "h", 0.0)).id for i in range(3)]
    t = await _table(store, seats=2)
    u = await _table(store)
    assert await store.seat(t.id, ids[0], 1.0) is None
    assert await store.seat(t.id, ids[0], 1.0) is None  # again: still seated once
    assert "already sit" in await store.seat(u.id, ids[0], 1.0)
    assert await store.seat(t.id, ids[1], 2.0) is None
    assert "full" in await store.seat(t.id, ids[2], 3.0)
    assert (await store.table(t.id)).full_at == 2.0
    assert [s.name for s in await store.seats(t.id)] == ["p0", "p1"]
    assert await store.table_of(ids[0]) == t.id
    assert await store.unseat(t.id, ids[0])
    assert [(s.name, s.seat) for s in await store.seats(t.id)] == [("p1", 0)]
    # SPEC §13: the start clock counts from the first time the table had two; a leave doesn't reset it
    assert (await store.table(t.id)).full_at == 2.0
    assert await store.seat(t.id, ids[0], 9.0) is None
    assert (await store.table(t.id)).full_at == 2.0


async def test_round_start_and_end_happen_once_even_when_raced(store):
    ids = [(await store.register(f"p{i}", "h", 0.0)).id for i in range(2)]
    t = await _table(store)
    for pid in ids:
        await store.seat(t.id, pid, 1.0)
    started = await asyncio.gather(*(store.start_round(t.id, 1, 42, 10.0, 1210.0) for _ in range(5)))
    assert sorted(started) == [False] * 4 + [True]
    assert await store.seat(t.id, (await store.register("late", "h", 0.0)).id, 11.0) == "That table has started."
    assert await store.add_action(ActionRow(t.id, 1, ids[0], 1, "deal", 11.0))
    assert not await store.add_action(ActionRow(t.id, 1, ids[0], 1, "1>2:1", 11.0))
    results = [ResultRow(t.id, 1, pid, "", 40 + i, False, 3, None, "stuck") for i, pid in enumerate(ids)]
    ended = await asyncio.gather(*(store.end_round(t.id, 1, results, 20.0, 50.0) for _ in range(5)))
    assert sorted(ended) == [False] * 4 + [True]
    assert [r.score for r in await store.results(t.id)] == [40, 41]
    assert [p.experience for p in await store.league()] == [41, 40]  # no rating yet: by experience
    assert not await store.start_round(t.id, 1, 43, 21.0, 99.0)
    assert await store.start_round(t.id, 2, 43, 21.0, 99.0)
    ranking = [Placing(pid, total, place) for pid, total, place in places([(ids[0], 90), (ids[1], 100)])]
    done = await asyncio.gather(*(store.finish_table(t.id, ranking, True, rate) for _ in range(3)))
    assert sorted(done) == [False, False, True]
    league = await store.league()
    assert [p.name for p in league] == ["p1", "p0"]
    assert [(p.tables, p.wins) for p in league] == [(1, 1), (1, 0)]
    assert ordinal(league[0].rating_mu, league[0].rating_sigma) > ordinal(league[1].rating_mu, league[1].rating_sigma)


async def test_the_file_keeps_everything_after_reopening(tmp_path):
    s = open_store(str(tmp_path / "x.sqlite3"), tmp_path)
    await s.open()
    pid = (await s.register("Bo", "h", 0.0)).id
    t = await _table(s)
    await s.seat(t.id, pid, 1.0)
    await s.close()
    s2 = open_store(f"sqlite:///{tmp_path / 'x.sqlite3'}", tmp_path)
    await s2.open()
    assert (await s2.player_by_name("bo")).id == pid
    assert [x.id for x in await s2.live_tables()] == [t.id]
    await s2.close()


def test_places_share_equal_totals():
    assert places([(1, 10), (2, 30), (3, 10), (4, 5)]) == [(2, 30, 1), (1, 10, 2), (3, 10, 2), (4, 5, 4)]


def test_unknown_database_url_is_refused(tmp_path):
    with pytest.raises(ValueError, match="unknown database URL"):
        open_store("mysql://x", tmp_path)


async def test_sqlite_actions_wait_for_a_lock_off_the_loop(tmp_path):
    """A batch of actions is written on the loop's thread only when nothing holds the database:
    while another connection holds the write lock, the action waits on the worker and the loop
    keeps running; once the lock is gone the action is written."""
    import sqlite3
    import threading

    path = tmp_path / "lock.sqlite3"
    s = open_store(str(path), tmp_path)
    await s.open()
    pid = (await s.register("Locked", "h", 0.0)).id
    t = await _table(s)
    await s.seat(t.id, pid, 1.0)
    assert await s.start_round(t.id, 1, 7, 1.0, 100.0)
    assert await s.add_action(ActionRow(t.id, 1, pid, 1, "deal", 2.0))  # on the loop: nothing holds it
    other = sqlite3.connect(path, isolation_level=None, check_same_thread=False)
    other.execute("BEGIN IMMEDIATE")
    write = asyncio.ensure_future(s.add_action(ActionRow(t.id, 1, pid, 2, "deal", 3.0)))
    ticks = 0
    while ticks < 5:  # the loop runs while the action waits for the lock
        await asyncio.sleep(0.01)
        ticks += 1
    assert not write.done()
    threading.Thread(target=lambda: other.execute("COMMIT")).start()
    assert await write
    other.close()
    assert [a.seq for a in await s.actions(t.id, 1)] == [1, 2]
    await s.close()


async def test_sqlite_checkpoints_run_beside_the_writer_and_keep_every_action(tmp_path, monkeypatch):
    """The writer never checkpoints (so no commit waits for the disk); a second connection copies
    the WAL into the database file while the server runs, and what it copies is all there."""
    from spider_tui.palast.server.db import sqlite as sqlite_store

    monkeypatch.setattr(sqlite_store, "CHECKPOINT_SECONDS", 0.05)
    path = tmp_path / "cp.sqlite3"
    s = open_store(str(path), tmp_path)
    await s.open()
    pids = [(await s.register(f"c{i}", "h", 0.0)).id for i in range(4)]
    t = await _table(s)
    for pid in pids:
        await s.seat(t.id, pid, 1.0)
    assert await s.start_round(t.id, 1, 7, 1.0, 100.0)
    size0 = path.stat().st_size
    oks = await asyncio.gather(*(s.add_action(ActionRow(t.id, 1, pids[n % 4], n // 4 + 1, "deal", 2.0))
                                 for n in range(2000)))
    assert all(oks)
    # The database file itself grows while the store is open: a checkpoint copied the WAL into it.
    for _ in range(100):
        if path.stat().st_size > size0:
            break
        await asyncio.sleep(0.05)
    assert path.stat().st_size > size0
    await s.close()
    # Closed: the WAL is folded in and empty, and the file alone holds every action.
    wal = tmp_path / "cp.sqlite3-wal"
    assert not wal.exists() or wal.stat().st_size == 0
    import sqlite3

    with sqlite3.connect(path) as db:
        assert db.execute("SELECT count(*) FROM actions").fetchone()[0] == 2000


async def test_a_round_ends_only_with_every_written_action_counted(store):
    """The last moment of a round on several processes: results made before another process
    wrote a last action don't end the round (nothing changes, the caller counts again), and once
    the round has ended no action is written into it."""
    ids = [(await store.register(f"e{i}", "h", 0.0)).id for i in range(2)]
    t = await _table(store)
    for pid in ids:
        await store.seat(t.id, pid, 1.0)
    assert await store.start_round(t.id, 1, 7, 2.0, 100.0)
    assert await store.add_action(ActionRow(t.id, 1, ids[0], 1, "deal", 3.0))
    results = [ResultRow(t.id, 1, pid, "", 10, False, 1, None, "stuck") for pid in ids]
    assert await store.add_action(ActionRow(t.id, 1, ids[0], 2, "deal", 3.5))  # written meanwhile
    with pytest.raises(StaleRound):
        await store.end_round(t.id, 1, results, 4.0, None, seqs={ids[0]: 1, ids[1]: 0})
    assert (await store.table(t.id)).round_state == ROUND_PLAYING
    assert await store.results(t.id) == []
    assert await store.end_round(t.id, 1, results, 4.0, None, seqs={ids[0]: 2, ids[1]: 0})
    assert not await store.add_action(ActionRow(t.id, 1, ids[1], 1, "deal", 5.0))  # too late
    assert [(a.player_id, a.seq) for a in await store.actions(t.id, 1)] == [(ids[0], 1), (ids[0], 2)]
    assert [p.experience for p in await store.league()] == [10, 10]


async def test_a_database_made_before_deal_codes_takes_codes_bots_and_leaving(tmp_path, db_url):
    """Issue 20: a Palast database at schema version 1 (``schema_v1.sql``: integer deals, no
    bots, no leaving) opens with deal codes per round, house bots and seats left at a running table."""
    import re
    from pathlib import Path

    from spider_tui.engine import deal_code
    from spider_tui.palast.server.db import open_store

    old = (Path(__file__).parent / "schema_v1.sql").read_text()
    if db_url.startswith("postgresql:"):
        import psycopg

        old = re.sub(r"\bid INTEGER PRIMARY KEY\b", "id BIGINT GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY", old)
        with psycopg.connect(db_url, autocommit=True) as db:
            db.execute(old)
            db.execute("CREATE TABLE palast_schema (version INTEGER NOT NULL PRIMARY KEY, applied DOUBLE PRECISION NOT NULL)")
            db.execute("INSERT INTO palast_schema VALUES (1, 0)")
    else:
        import sqlite3

        with sqlite3.connect(db_url) as db:
            db.executescript(old)
    store = open_store(db_url, tmp_path)
    await store.open()
    try:
        anna = await store.register("Anna", "h", 0.0)
        bot = await store.register("House bot 1", "x", 0.0, bot=True)
        assert bot.bot and not anna.bot and (await store.player_by_name("House bot 1")).bot
        t = await _table(store, seats=2)
        for pid in (anna.id, bot.id):
            assert await store.seat(t.id, pid, 1.0) is None
        code = deal_code(bytes(range(16)))
        assert await store.start_round(t.id, 1, code, 2.0, 1202.0)
        assert (await store.table(t.id)).deal == code and await store.round_deals(t.id) == {1: code}
        assert await store.leave_running(t.id, anna.id, 3.0)
        seats = {s.name: s for s in await store.seats(t.id)}
        assert seats["Anna"].left_at == 3.0 and seats["House bot 1"].bot
        assert await store.table_of(anna.id) is None  # she may sit elsewhere
        assert [p.name for p in await store.league()] == []  # nobody scored yet; bots never listed
    finally:
        await store.close()


async def test_actions_sent_together_are_each_answered_for_themselves(store):
    """Group commit (SPEC §13, an action answered only once its row is durable) answers every
    action of a batch on its own: new ones go in, a repeat of a seat's seq (also within the same
    batch) and an action for a round not in play are refused, and the rest of the batch is kept."""
    pids = [(await store.register(f"g{i}", "h", 0.0)).id for i in range(2)]
    t = await _table(store, seats=2)
    other = await _table(store, seats=2)  # never started: no round in play
    for pid in pids:
        await store.seat(t.id, pid, 1.0)
    assert await store.start_round(t.id, 1, 7, 1.0, 100.0)
    assert await store.add_action(ActionRow(t.id, 1, pids[0], 1, "deal", 2.0))
    batch = [
        ActionRow(t.id, 1, pids[0], 1, "1>2", 3.0),     # that seq is taken already
        ActionRow(t.id, 1, pids[0], 2, "deal", 3.0),    # new
        ActionRow(t.id, 1, pids[1], 1, "deal", 3.0),    # new
        ActionRow(t.id, 1, pids[1], 1, "deal", 3.0),    # the same again, in the same batch
        ActionRow(other.id, 1, pids[1], 1, "deal", 3.0),  # no round in play there
        ActionRow(t.id, 2, pids[1], 2, "deal", 3.0),    # not the round in play
        ActionRow(t.id, 1, pids[1], 2, "3>4", 3.0),     # new
    ]
    oks = await asyncio.gather(*(store.add_action(a) for a in batch))
    assert oks == [False, True, True, False, False, False, True]
    kept = [(a.player_id, a.seq, a.move) for a in await store.actions(t.id, 1)]
    assert kept == [(pids[0], 1, "deal"), (pids[0], 2, "deal"), (pids[1], 1, "deal"), (pids[1], 2, "3>4")]
