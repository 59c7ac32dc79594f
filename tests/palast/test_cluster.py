"""Several server processes, one Palast (SPEC §13, issue 14): two servers on one PostgreSQL
database, each with its own LISTEN connection and port; players at one table on different
servers race each other, see each other's progress, and the round ends once."""

from __future__ import annotations

import asyncio

import pytest

from spider_tui.engine import Game
from spider_tui.palast.server.db import open_store
from spider_tui.palast.server.pg_broker import PgBroker
from spider_tui.palast.server.server import PalastServer

from .conftest import Palast, make_options, select_all
from .helpers import check_no_leaks, hint_move, play_round, play_table


@pytest.fixture
async def two_servers(pg_url, tmp_path):
    """Two Palast servers on one PostgreSQL database (as `spider server --db URL`, twice)."""
    started: list[Palast] = []

    async def make(**options) -> tuple[Palast, Palast]:
        for _ in range(2):
            server = PalastServer(open_store(pg_url, tmp_path), "127.0.0.1", 0, options=make_options(**options),
                                  rate=5000, burst=5000, broker=PgBroker(pg_url))
            await server.start()
            started.append(Palast(server))
        return started[-2], started[-1]

    yield make
    for p in started:
        for c in p.clients:
            await c.close()
        await p.server.stop()


async def _pair(a_server: Palast, b_server: Palast, rounds: int = 1, rules: str = "classic"):
    anna = await a_server.player("Anna")
    bo = await b_server.player("Bo")
    opened = await anna.open(suits=1, rules=rules, rounds=rounds, seats=2, private=True)
    joined = await bo.join(code=opened["code"])  # a private table opened on the other process
    assert joined["table"]["players"] == ["Anna", "Bo"]
    return anna, bo, opened["table"]


async def test_a_table_opened_on_one_process_is_in_the_others_lobby_and_joinable(two_servers):
    a, b = await two_servers()
    host = await a.player("Host")
    t = (await host.open(suits=2, rules="classic", rounds=1, seats=3, private=False))["table"]
    guest = await b.player("Guest")
    async with asyncio.timeout(10):
        while not any(x["id"] == t["id"] for x in await guest.tables()):
            await asyncio.sleep(0.02)
    joined = await guest.join(table=t["id"])
    assert joined["table"]["players"] == ["Host", "Guest"]
    # The host, on the other process, is told who sat down.
    seen = await host.wait_for("table", timeout=10)
    assert seen["table"]["players"] == ["Host", "Guest"]
    # A player sits at one table, whichever process asks.
    other = (await guest.request("open", check=False, suits=1, rules="classic", rounds=1, seats=2, private=False))
    assert other["type"] == "refused" and "already sit" in other["reason"]


async def test_players_on_two_processes_see_each_others_moves_and_race_to_the_end(two_servers):
    a, b = await two_servers()
    anna, bo, table = await _pair(a, b, rounds=2)
    assert (await anna.start())["type"] == "started"
    ra, rb = await anna.wait_for("round"), await bo.wait_for("round")
    assert ra["position"] == rb["position"] and ra["ends_at"] == rb["ends_at"]
    # Anna's move on process A reaches Bo on process B as progress (score, moves, state).
    played = await anna.play(hint_move(Game.from_text(ra["position"])))
    assert played["type"] == "played"
    seen = await bo.wait_for("progress", player="Anna", moves=1, timeout=5)
    assert seen["score"] == played["score"] and seen["state"] == "playing"
    # ... and the other way round.
    played_b = await bo.play(hint_move(Game.from_text(rb["position"])))
    seen_b = await anna.wait_for("progress", player="Bo", moves=1, timeout=5)
    assert seen_b["score"] == played_b["score"]
    # Both play the rest of the table by the hint (then give up); the ends are the same for both.
    async def rest(c, position):
        await play_round(c, position, limit=10)
        return await play_table(c, limit=10)

    over_a, over_b = await asyncio.gather(rest(anna, played["position"]), rest(bo, played_b["position"]))
    assert over_a == over_b
    for c in (anna, bo):
        overs = [m for m in c.received if m["type"] == "round_over"]
        assert [o["round"] for o in overs] == [1, 2]  # each round ended once
        assert [m["type"] for m in c.received].count("table_over") == 1
        assert check_no_leaks(c.received) == 2
    # The database has each round's result once and the league counted the table once.
    rows = select_all(a.server.store, f"SELECT round, player_id, score FROM results WHERE table_id = {table['id']}")
    assert sorted((r[0] for r in rows)) == [1, 1, 2, 2]
    league = {p["name"]: p for p in await anna.league()}
    assert league["Anna"]["tables"] == league["Bo"]["tables"] == 1
    assert sum(p["wins"] for p in league.values()) in (1, 2)  # 2 only when the totals tie
    exp = dict(select_all(a.server.store, "SELECT name, experience FROM players"))
    score_sum = {}
    for r in rows:
        score_sum[r[1]] = score_sum.get(r[1], 0) + max(0, r[2])
    ids = dict(select_all(a.server.store, "SELECT name, id FROM players"))
    assert exp == {name: score_sum[ids[name]] for name in ("Anna", "Bo")}  # credited once, not twice


async def test_the_round_clock_ends_a_round_once_when_both_processes_see_the_deadline(two_servers):
    a, b = await two_servers(round_seconds=1.0, between_seconds=0.5)
    anna, bo, table = await _pair(a, b, rounds=2)
    await anna.start()
    ra = await anna.wait_for("round")
    await bo.wait_for("round")
    played = await anna.play(hint_move(Game.from_text(ra["position"])))  # some points to credit
    assert played["type"] == "played" and played["score"] > 0
    # Nobody finishes: both processes' clocks fire at the deadline; the round ends once.
    for c in (anna, bo):
        over = await c.wait_for("round_over", round=1, timeout=10)
        assert {s["player"]: s["score"] for s in over["standings"]}["Anna"] == played["score"]
    await anna.wait_for("table_over", timeout=15)
    await bo.wait_for("table_over", timeout=15)
    await asyncio.sleep(0.3)  # anything doubled would have arrived by now
    for c in (anna, bo):
        types = [m["type"] for m in c.received]
        assert types.count("round_over") == 2 and types.count("table_over") == 1
    rows = select_all(a.server.store, f"SELECT round, player_id FROM results WHERE table_id = {table['id']}")
    assert len(rows) == len(set(rows)) == 4
    exp = dict(select_all(a.server.store, "SELECT name, experience FROM players"))
    assert exp["Anna"] == played["score"]


async def test_a_player_who_moves_to_the_other_process_resumes_the_same_position(two_servers):
    a, b = await two_servers()
    anna, bo, table = await _pair(a, b)
    await anna.start()
    r = await anna.wait_for("round")
    view = Game.from_text(r["position"])
    last = None
    for _ in range(5):
        last = await anna.play(hint_move(view))
        view = Game.from_text(last["position"])
    await anna.close()
    # Anna comes back through the other process (as after a load balancer sent her there).
    again = await b.player("Anna", anna.token)
    assert (await again.wait_for("joined"))["table"]["id"] == table["id"]
    resumed = await again.wait_for("round")
    assert resumed["position"] == last["position"] and resumed["ends_at"] == r["ends_at"]
    more = await again.play(hint_move(Game.from_text(resumed["position"])))
    assert more["type"] == "played" and more["moves"] == last["moves"] + 1
    await bo.wait_for("progress", player="Anna", moves=last["moves"] + 1, timeout=5)
