"""The PostgreSQL store as several server processes use it: two stores on one database race for
the same seat, round end and table finish, and a PostgreSQL restart loses no committed action."""

from __future__ import annotations

import asyncio

import psycopg
import pytest

from spider_tui.palast.server.db import ActionRow, Placing, ResultRow, open_store
from spider_tui.palast.server.db.postgres import PostgresStore
from spider_tui.palast.server.league import places, rate
from tests.pgcluster import PgCluster


@pytest.fixture
async def two_stores(pg_url, tmp_path):
    """Two stores on one database, as two server processes have, opened at the same time."""
    a, b = open_store(pg_url, tmp_path), open_store(pg_url, tmp_path)
    assert isinstance(a, PostgresStore)
    await asyncio.gather(a.open(), b.open())  # both create/migrate the schema at once: no clash
    yield a, b
    await a.close()
    await b.close()


async def _table(store, seats=2):
    return await store.create_table(host="p0", suits=1, rules="classic", rounds=1, seats=seats, private=False,
                                    code=None, standard=False, now=1.0)


async def test_the_last_seat_goes_to_one_player_across_processes(two_stores):
    a, b = two_stores
    ids = [(await a.register(f"p{i}", "h", 0.0)).id for i in range(7)]
    t = await _table(a, seats=3)
    reasons = await asyncio.gather(*((a, b)[i % 2].seat(t.id, pid, 1.0) for i, pid in enumerate(ids)))
    assert reasons.count(None) == 3
    assert all(r == "That table is full." for r in reasons if r is not None)
    seats = await b.seats(t.id)
    assert sorted(s.seat for s in seats) == [0, 1, 2]


async def test_a_player_sits_at_one_table_even_when_two_processes_seat_him(two_stores):
    a, b = two_stores
    pid = (await a.register("Anna", "h", 0.0)).id
    t1, t2 = await _table(a), await _table(b)
    reasons = await asyncio.gather(a.seat(t1.id, pid, 1.0), b.seat(t2.id, pid, 1.0))
    assert reasons.count(None) == 1
    assert any(r and "already sit" in r for r in reasons)


async def test_round_end_and_table_finish_credit_once_across_processes(two_stores):
    a, b = two_stores
    ids = [(await a.register(f"p{i}", "h", 0.0)).id for i in range(2)]
    t = await _table(a)
    for pid in ids:
        await a.seat(t.id, pid, 1.0)
    assert sorted(await asyncio.gather(a.start_round(t.id, 1, 7, 2.0, 100.0), b.start_round(t.id, 1, 8, 2.0, 100.0))) == [False, True]
    results = [ResultRow(t.id, 1, pid, "", 100 + i, False, 5, None, "stuck") for i, pid in enumerate(ids)]
    ended = await asyncio.gather(*((a, b)[i % 2].end_round(t.id, 1, results, 100.0, None) for i in range(6)))
    assert sorted(ended) == [False] * 5 + [True]
    ranking = [Placing(pid, total, place) for pid, total, place in places([(ids[0], 100), (ids[1], 101)])]
    done = await asyncio.gather(*((a, b)[i % 2].finish_table(t.id, ranking, True, rate) for i in range(4)))
    assert sorted(done) == [False] * 3 + [True]
    league = await b.league()
    assert [(p.name, p.experience, p.tables, p.wins) for p in league] == [("p1", 101, 1, 1), ("p0", 100, 1, 0)]


async def test_a_restart_of_postgresql_loses_no_committed_action(pg_cluster: PgCluster, pg_url, tmp_path):
    store = open_store(pg_url, tmp_path)
    await store.open()
    try:
        pid = (await store.register("Bo", "h", 0.0)).id
        t = await _table(store)
        await store.seat(t.id, pid, 1.0)
        assert await store.start_round(t.id, 1, 7, 1.5, 100.0)  # actions go into a round in play
        # Use several pooled connections so that several are idle when PostgreSQL goes away.
        await asyncio.gather(*(store.add_action(ActionRow(t.id, 1, pid, seq, "deal", 2.0)) for seq in range(1, 6)))
        await asyncio.to_thread(pg_cluster.restart, "fast")
        # The pool's dead connections are replaced: the next calls just work.
        more = await asyncio.gather(*(store.add_action(ActionRow(t.id, 1, pid, seq, "1>2", 3.0)) for seq in range(6, 11)))
        assert more == [True] * 5
        assert [a.seq for a in await store.actions(t.id, 1)] == list(range(1, 11))
        # While PostgreSQL is down a call fails (the server refuses that action), and nothing is written.
        await asyncio.to_thread(pg_cluster.stop, "immediate")
        with pytest.raises(psycopg.OperationalError):
            await store.add_action(ActionRow(t.id, 1, pid, 11, "deal", 4.0))
        await asyncio.to_thread(pg_cluster.restart, "fast")
        assert await store.add_action(ActionRow(t.id, 1, pid, 11, "2>3", 5.0))
        assert [(a.seq, a.move) for a in await store.actions(t.id, 1)][-2:] == [(10, "1>2"), (11, "2>3")]
    finally:
        await store.close()


async def test_a_newer_schema_than_the_server_knows_is_refused(pg_url, tmp_path):
    store = open_store(pg_url, tmp_path)
    await store.open()
    await store.close()
    with psycopg.connect(pg_url, autocommit=True) as conn:
        conn.execute("INSERT INTO palast_schema VALUES (99, 0)")
    again = open_store(pg_url, tmp_path)
    with pytest.raises(RuntimeError, match="schema version 99"):
        await again.open()
    await again.close()


async def test_actions_written_are_announced_with_their_rows_and_only_those(pg_url, tmp_path):
    """``announce_actions``: the batch's own statement notifies every action that went in (as the
    broker's ``_action`` events, in payloads that fit a NOTIFY), and none that was refused."""
    import json

    from spider_tui.palast import messages as m
    from spider_tui.palast.server.db.pg_listen import MAX_PAYLOAD, PgListener

    store = open_store(pg_url, tmp_path)
    await store.open()
    heard: list[str] = []
    listener = PgListener(pg_url, "test_actions", heard.append)
    await listener.start()
    try:
        assert isinstance(store, PostgresStore)
        store.announce_actions("test_actions", "abc")
        pids = [(await store.register(f"p{i}", "h", 0.0)).id for i in range(4)]
        t = await _table(store, seats=4)
        for pid in pids:
            await store.seat(t.id, pid, 1.0)
        assert await store.start_round(t.id, 1, 7, 1.5, 100.0)
        batch = [ActionRow(t.id, 1, pids[n % 4], n // 4 + 1, "deal", 2.25) for n in range(200)]
        batch.append(ActionRow(t.id, 1, pids[0], 1, "1>2", 3.0))  # that seq exists: refused
        oks = await asyncio.gather(*(store.add_action(a) for a in batch))
        assert oks == [True] * 200 + [False]
        async with asyncio.timeout(10):
            while sum(len(json.loads(p)["e"]) for p in heard) < 200:
                await asyncio.sleep(0.01)
        events = []
        for payload in heard:
            assert len(payload.encode()) <= MAX_PAYLOAD
            data = json.loads(payload)
            assert data["o"] == "abc"
            events += [(table_id, m.read_internal(obj)) for table_id, obj in data["e"]]
        assert sorted((e.player_id, e.seq, e.move, e.at) for _, e in events) == sorted(
            (a.player_id, a.seq, a.move, a.at) for a in batch[:200])
        assert all(table_id == t.id and isinstance(e, m.ActionTaken) and e.table == t.id and e.round == 1
                   for table_id, e in events)
    finally:
        await listener.close()
        await store.close()
