"""SPEC §13 "A round", "Faults" and the protocol's resume (issue 20 items 6, 7, 8): a round whose
seats are all done ends on start and on every resume; a player who comes back gets the finished
rounds' ``round_over``; players offline for long are "out"; a player may leave a running table."""

from __future__ import annotations

import asyncio
import time

import pytest

from spider_tui.palast.client.client import PalastClient
from spider_tui.palast.server.db import ROUND_OVER, ROUND_PLAYING, ActionRow, open_store
from spider_tui.palast.server.pg_broker import PgBroker
from spider_tui.palast.server.server import PalastServer

from .conftest import Palast, make_options

CODE = r"p-[a-z2-7]{26}"


@pytest.fixture
async def servers(tmp_path, db_url):
    """Start servers on the test's database (one at a time, as restarts, or several on PostgreSQL);
    each is stopped at the end unless the test stopped it (a crash)."""
    running: list[Palast] = []

    async def start(**options) -> Palast:
        broker = PgBroker(db_url) if db_url.startswith("postgresql:") else None
        server = PalastServer(open_store(db_url, tmp_path), "127.0.0.1", 0, options=make_options(**options),
                              rate=5000, burst=5000, broker=broker)
        await server.start()
        p = Palast(server)
        running.append(p)
        return p

    async def crash(p: Palast) -> None:
        """The process is gone: its connections drop, nothing more is written."""
        for c in p.clients:
            await c.close()
        running.remove(p)
        await p.server.stop()

    start.crash = crash  # type: ignore[attr-defined]
    yield start
    for p in running:
        for c in p.clients:
            await c.close()
        await p.server.stop()


async def _table(palast: Palast, names: list[str], rounds: int = 1) -> tuple[list[PalastClient], dict]:
    players = [await palast.player(n) for n in names]
    opened = await players[0].open(suits=1, rules="classic", rounds=rounds, seats=len(names), private=True)
    for p in players[1:]:
        await p.join(code=opened["code"])
    await players[0].start()
    for p in players:
        await p.wait_for("round")
    return players, opened["table"]


async def _until(pred, timeout: float = 10.0) -> None:
    async with asyncio.timeout(timeout):
        while not await pred():
            await asyncio.sleep(0.02)


async def _write_last_action(db_url, tmp_path, table: int, name: str, move: str) -> None:
    """What a process wrote just before it was killed: an accepted action, and nothing after."""
    store = open_store(db_url, tmp_path)
    await store.open()
    try:
        player = await store.player_by_name(name)
        done = [a for a in await store.actions(table, 1) if a.player_id == player.id]
        assert await store.add_action(ActionRow(table, 1, player.id, len(done) + 1, move, time.time()))
    finally:
        await store.close()


# -- item 6: a round hangs after a crash -------------------------------------------------------

async def test_a_round_all_done_at_a_crash_ends_when_the_server_starts_again(servers, db_url, tmp_path):
    first = await servers()
    (anna, bo), t = await _table(first, ["Anna", "Bo"])
    await anna.play("give up", check=True)
    tokens = anna.token, bo.token
    await servers.crash(first)
    await _write_last_action(db_url, tmp_path, t["id"], "Bo", "give up")  # saved, then kill -9

    again = await servers()
    store = again.server.palast.store

    async def over() -> bool:
        row = await store.table(t["id"])
        return row.round_state != ROUND_PLAYING

    await _until(over)  # not when the round's clock runs out (10 minutes here)
    row = await store.table(t["id"])
    assert row.round_state == ROUND_OVER or row.state == "finished"
    bo = await again.player("Bo", tokens[1])
    seen = [m["type"] for m in bo.received]
    assert "round" not in seen  # no round to play: "You gave up this round; wait…" never again
    result = {r.name: r.state for r in await store.results(t["id"])}
    assert result == {"Anna": "gave up", "Bo": "gave up"}


async def race_across(one, other):
    """Anna on server process ``one`` and Bo on ``other`` start a one-round private table; (anna,
    bo, the table's id) once Bo has the round."""
    anna = await one.player("Anna")
    bo = await other.player("Bo")
    opened = await anna.open(suits=1, rules="classic", rounds=1, seats=2, private=True)
    await bo.join(code=opened["code"])
    await anna.start()
    await bo.wait_for("round")
    return anna, bo, opened["table"]["id"]


async def test_a_round_all_done_ends_when_a_player_resumes_on_a_surviving_process(servers, db_url, tmp_path):
    if not db_url.startswith("postgresql:"):
        pytest.skip("several processes serve one Palast on PostgreSQL only")
    survivor, doomed = await servers(), await servers()
    anna, bo, table_id = await race_across(survivor, doomed)
    await anna.play("give up", check=True)
    token = bo.token
    await servers.crash(doomed)
    await _write_last_action(db_url, tmp_path, table_id, "Bo", "give up")
    back = PalastClient.connect  # Bo reconnects to the process that is still there
    bo = await back(survivor.url)
    bo.keep_received = True
    survivor.clients.append(bo)
    await bo.hello("Bo", token)
    over = await bo.wait_for("round_over", timeout=10)
    assert {s["player"]: s["state"] for s in over["standings"]} == {"Anna": "gave up", "Bo": "gave up"}


# -- item 7: round_over after welcome ---------------------------------------------------------

async def test_a_player_back_after_a_round_ended_gets_its_round_over_then_the_round(servers):
    palast = await servers(between_seconds=0.6)
    (anna, bo), t = await _table(palast, ["Anna", "Bo"], rounds=3)
    await bo.play("give up", check=True)
    token = bo.token
    await bo.close()
    await anna.play("give up", check=True)
    told = await anna.wait_for("round_over")
    assert told["deal"].startswith("p-")

    # Between rounds: joined, then round 1's round_over (standings and deal code).
    bo = await palast.player("Bo", token)
    await _until(lambda: _arrived(bo, "round_over"))
    assert [m["type"] for m in bo.received][:3] == ["welcome", "joined", "round_over"]
    replay = bo.received[2]
    assert replay == {**told}
    await bo.close()

    # Round 2 in play: joined, round 1's round_over, then round 2 with Bo's position.
    r2 = await anna.wait_for("round", round=2)
    bo = await palast.player("Bo", token)
    await _until(lambda: _arrived(bo, "round"))
    kinds = [m["type"] for m in bo.received]
    assert kinds[:4] == ["welcome", "joined", "round_over", "round"]
    assert bo.received[2]["round"] == 1 and bo.received[2]["deal"] == told["deal"]
    assert bo.received[3]["round"] == 2 and bo.received[3]["ends_at"] == r2["ends_at"]


async def _arrived(c: PalastClient, kind: str) -> bool:
    return any(m["type"] == kind for m in c.received)


# -- item 8: out, leaving a running table -----------------------------------------------------

async def test_a_round_ends_when_every_player_still_playing_has_been_offline_long(servers):
    palast = await servers(out_seconds=0.5)
    (anna, bo, cy), t = await _table(palast, ["Anna", "Bo", "Cy"])
    await anna.play("give up", check=True)
    await bo.close()
    await cy.close()
    over = await anna.wait_for("round_over", timeout=10)
    before = anna.received[:anna.received.index(over)]
    assert {m["player"] for m in before if m["type"] == "progress" and m["state"] == "out"} == {"Bo", "Cy"}
    assert {s["player"]: s["state"] for s in over["standings"]} == {"Anna": "gave up", "Bo": "out", "Cy": "out"}


async def test_one_player_offline_does_not_end_the_round_of_those_playing(servers):
    palast = await servers(out_seconds=0.3)
    (anna, bo), t = await _table(palast, ["Anna", "Bo"])
    await bo.close()
    await anna.wait_for("progress", player="Bo", state="out", timeout=10)
    await asyncio.sleep(0.6)  # Anna still plays: the round goes on
    assert not any(m["type"] == "round_over" for m in anna.received)
    assert (await anna.play("give up"))["type"] == "played"
    over = await anna.wait_for("round_over", timeout=10)
    assert {s["player"]: s["state"] for s in over["standings"]} == {"Anna": "gave up", "Bo": "out"}


async def test_a_player_leaves_a_running_table_forfeits_the_rest_and_is_ranked(servers):
    palast = await servers(between_seconds=0.3)
    (anna, bo, cy), t = await _table(palast, ["Anna", "Bo", "Cy"], rounds=2)
    view = (await bo.play("deal"))
    assert view["type"] == "played"
    left = await bo.leave()
    assert left["type"] == "left" and left["table"] == t["id"]
    # Bo may sit down elsewhere at once.
    other = await bo.open(suits=1, rules="practice", rounds=1, seats=2, private=False)
    assert other["type"] == "joined"
    await anna.play("give up", check=True)
    await cy.play("give up", check=True)
    r1 = await anna.wait_for("round_over", round=1, timeout=10)
    states = {s["player"]: s["state"] for s in r1["standings"]}
    assert states == {"Anna": "gave up", "Bo": "left", "Cy": "gave up"}
    await anna.ready()
    await cy.ready()  # Bo isn't waited for
    await anna.wait_for("round", round=2, timeout=10)
    await anna.play("give up", check=True)
    await cy.play("give up", check=True)
    r2 = await anna.wait_for("round_over", round=2, timeout=10)
    assert {s["player"]: s["state"] for s in r2["standings"]}["Bo"] == "left"
    ranking = (await anna.wait_for("table_over", timeout=10))["ranking"]
    assert sorted(r["player"] for r in ranking) == ["Anna", "Bo", "Cy"]
    bo_total = next(r["total"] for r in ranking if r["player"] == "Bo")
    assert bo_total == next(s["total"] for s in r1["standings"] if s["player"] == "Bo")
    # Bo, gone, hears nothing more of that table (he sits at another one now).
    after = bo.received[bo.received.index(left) + 1:]
    assert not [m for m in after if m.get("table") == t["id"] and m["type"] != "table"]
    assert (await bo.leave())["type"] == "left"  # the practice table he sat down at


async def test_leaving_twice_is_refused(servers):
    palast = await servers()
    (anna, bo), t = await _table(palast, ["Anna", "Bo"])
    assert (await bo.leave())["type"] == "left"
    again = await bo.request("leave", check=False)
    assert again["type"] == "refused"


async def test_a_player_leaves_on_one_process_and_the_round_ends_on_the_other(servers, db_url):
    if not db_url.startswith("postgresql:"):
        pytest.skip("several processes serve one Palast on PostgreSQL only")
    a, b = await servers(), await servers()
    anna, bo, _ = await race_across(a, b)
    assert (await bo.leave())["type"] == "left"
    await anna.wait_for("progress", player="Bo", state="left", timeout=10)
    await anna.play("give up", check=True)
    over = await anna.wait_for("round_over", timeout=10)
    assert {s["player"]: s["state"] for s in over["standings"]} == {"Anna": "gave up", "Bo": "left"}
    ranking = (await anna.wait_for("table_over", timeout=10))["ranking"]
    assert sorted(r["player"] for r in ranking) == ["Anna", "Bo"]


async def test_house_bots_play_on_after_a_restart(servers):
    first = await servers(house_bots_after=0.2, house_bot_pace=0.05)
    anna = await first.player("Anna")
    standard = next(t for t in await anna.tables() if t["standard"])
    await anna.join(table=standard["id"])
    await anna.wait_for("round", timeout=30)
    token = anna.token
    await servers.crash(first)
    again = await servers(house_bots_after=0.2, house_bot_pace=0.05)
    anna = await again.player("Anna", token)
    moves: dict[str, int] = {}

    async def bots_moved_again() -> bool:
        for m in anna.received:
            if m["type"] == "progress" and m.get("bot"):
                if m["player"] in moves and m["moves"] > moves[m["player"]]:
                    return True
                moves.setdefault(m["player"], m["moves"])
        return False

    await _until(bots_moved_again, timeout=30)  # a bot's move counted after the restart
    assert all(m.get("bot") for m in anna.received if m["type"] == "progress" and m["player"] != "Anna")
