"""Tables raced to their end by headless clients against a real server (SPEC §13)."""

from __future__ import annotations

import asyncio

from spider_tui.engine import Game

from .helpers import check_no_leaks, play_round, play_table


async def test_two_players_race_a_table_to_its_end_and_see_only_their_side(palast):
    anna = await palast.player("Anna")
    bo = await palast.player("Bo")
    opened = await anna.open(suits=1, rules="classic", rounds=2, seats=2, private=False)
    table = opened["table"]
    assert table["host"] == "Anna" and table["players"] == ["Anna"] and table["state"] == "waiting"
    joined = await bo.join(table=table["id"])
    assert joined["table"]["players"] == ["Anna", "Bo"]
    assert (await anna.start())["type"] == "started"
    over_a, over_b = await asyncio.gather(play_table(anna), play_table(bo))
    assert over_a == over_b
    ranking = over_a["ranking"]
    assert sorted(r["player"] for r in ranking) == ["Anna", "Bo"]
    # Both rounds' standings add up to the final totals; places follow totals, ties share.
    overs = [m for m in anna.received if m["type"] == "round_over"]
    assert [o["round"] for o in overs] == [1, 2]
    totals = {}
    for o in overs:
        for s in o["standings"]:
            totals[s["player"]] = totals.get(s["player"], 0) + s["score"]
            assert s["total"] == totals[s["player"]]
            assert set(s) >= {"player", "score", "total", "solved", "moves", "seconds"}
    assert {r["player"]: r["total"] for r in ranking} == totals
    best = max(totals.values())
    assert all((r["place"] == 1) == (r["total"] == best) for r in ranking)
    # The same deal for both players each round, and nothing hidden ever sent.
    rounds = [m for m in anna.received if m["type"] == "round"]
    assert [m["position"] for m in rounds] == [m["position"] for m in bo.received if m["type"] == "round"]
    assert check_no_leaks(anna.received) == 2
    assert check_no_leaks(bo.received) == 2
    # table_over follows the last round_over at once.
    types = [m["type"] for m in anna.received]
    last_over = max(i for i, t in enumerate(types) if t == "round_over")
    assert [t for t in types[last_over + 1:] if t not in ("progress",)][0] == "table_over"
    # Each saw the other's progress.
    assert any(m["type"] == "progress" and m["player"] == "Bo" for m in anna.received)
    # The league counts the table.
    league = {p["name"]: p for p in await anna.league()}
    assert league["Anna"]["tables"] == league["Bo"]["tables"] == 1
    for name in ("Anna", "Bo"):
        assert league[name]["wins"] == (1 if totals[name] == best else 0)
        assert league[name]["experience"] == sum(max(0, s["score"]) for o in overs for s in o["standings"] if s["player"] == name)
    if totals["Anna"] != totals["Bo"]:
        winner = max(totals, key=totals.get)
        loser = min(totals, key=totals.get)
        assert league[winner]["rating"] > league[loser]["rating"]
    # The table is gone from the lobby; both may sit down again.
    assert all(t["id"] != table["id"] for t in await anna.tables())
    assert (await anna.open(suits=2, rules="joker", rounds=1, seats=2, private=False))["type"] == "joined"


async def test_four_players_fill_a_standard_table_which_starts_by_itself(palast):
    players = [await palast.player(f"P{i}") for i in range(4)]
    standard = [t for t in await players[0].tables() if t["standard"]]
    assert len(standard) == 1
    t = standard[0]
    assert (t["host"], t["suits"], t["rules"], t["rounds"], t["seats"], t["state"], t["training"]) == (
        None, 1, "classic", 3, 4, "waiting", False)
    for p in players:
        assert (await p.join(table=t["id"]))["type"] == "joined"
    # Full: it starts at once, and another standard table opens.
    overs = await asyncio.gather(*(play_table(p, limit=12) for p in players))
    assert all(o == overs[0] for o in overs)
    assert len(overs[0]["ranking"]) == 4
    for p in players:
        assert check_no_leaks(p.received) == 3
    lobby = await players[0].tables()
    assert any(x["standard"] and x["state"] == "waiting" and x["id"] != t["id"] for x in lobby)
    league = await players[0].league()
    assert sorted(p["name"] for p in league) == ["P0", "P1", "P2", "P3"]
    assert [p["rating"] for p in league] == sorted((p["rating"] for p in league), reverse=True)


async def test_a_standard_table_starts_after_its_second_player_waits(palast_factory):
    palast = await palast_factory(start_wait=0.3)
    a = await palast.player("A")
    b = await palast.player("B")
    t = next(x for x in await a.tables() if x["standard"])
    await a.join(table=t["id"])
    await b.join(table=t["id"])
    r = await a.wait_for("round", timeout=10)
    assert r["round"] == 1 and r["table"] == t["id"]
    start = await a.request("start", check=False)
    assert start["type"] == "refused" and "by itself" in start["reason"]


async def test_the_clock_ends_a_round_and_ready_starts_the_next(palast_factory):
    palast = await palast_factory(round_seconds=1.0)
    a = await palast.player("A")
    b = await palast.player("B")
    t = (await a.open(suits=1, rules="classic", rounds=2, seats=2, private=False))["table"]
    await b.join(table=t["id"])
    await a.start()
    r = await a.wait_for("round")
    assert r["ends_at"] > 0
    over = await a.wait_for("round_over", timeout=10)
    assert {s["state"] for s in over["standings"]} == {"out of time"}
    late = await a.play("deal")
    assert late["type"] == "refused"
    await a.ready()
    await b.ready()
    r2 = await a.wait_for("round", timeout=10)  # all ready: no 30 s wait
    assert r2["round"] == 2


async def test_a_solved_round_gets_the_solve_bonus(palast_factory):
    # A training table alone on deal 34, which the hint solves at 1 suit; the score is the engine's.
    palast = await palast_factory(draw=lambda: 34)
    a = await palast.player("Solo")
    t = (await a.open(suits=1, rules="practice", rounds=1, seats=2, private=False))["table"]
    assert t["training"]
    await a.start()
    r = await a.wait_for("round")
    last = await play_round(a, r["position"])
    over = await a.wait_for("round_over")
    g = Game.new(over["deal"], suits=1, rules="practice+scoring")
    for m in [m for m in a.received if m["type"] == "played"]:
        g.play(m["move"]) if m["move"] not in ("give up",) else g.give_up()
    assert over["standings"][0]["score"] == g.score == last["score"]
    assert over["standings"][0]["solved"] is True and g.won and last["state"] == "solved"
    assert over["deal"] == 34 and g.score == 774  # includes the bonus: 300 - 113 moves
    assert over["standings"][0]["moves"] == 113
    await a.wait_for("table_over")
    # Training: not counted in the league, but experience is.
    league = {p["name"]: p for p in await a.league()}
    assert league["Solo"]["tables"] == 0 and league["Solo"]["experience"] == 774
