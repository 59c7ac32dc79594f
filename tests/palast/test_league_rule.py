"""The league can't be pumped (issue 29 item 4, SPEC §13): a table is rated only between players
who each made at least 10 moves in it; one who gave up with fewer counts as not having played,
and a 0-point give-up never counts as a win or a tie for anyone."""

from __future__ import annotations

from spider_tui.engine import Game
from spider_tui.palast.server.league import MIN_MOVES, players_who_played

from .conftest import HINT_SOLVES
from .helpers import hint_move


def test_only_players_with_10_moves_and_no_zero_point_give_up_are_rated():
    totals = [(1, 120), (2, 0), (3, 40), (4, 0)]
    moves = {1: 30, 2: 0, 3: MIN_MOVES - 1, 4: 25}
    assert players_who_played(totals, moves, gave_up={2, 4}) == [(1, 120)]
    assert players_who_played(totals, {**moves, 3: MIN_MOVES}, gave_up=set()) == [(1, 120), (3, 40), (4, 0)]


async def seat_two(palast, a_name: str, b_name: str):
    a = await palast.player(a_name)
    b = await palast.player(b_name)
    joined = await a.open(suits=1, rules="classic", rounds=1, seats=2, private=False)
    await b.join(table=joined["table"]["id"])
    await a.start()
    return a, b


async def play_moves(c, n: int) -> None:
    view = Game.from_text((await c.wait_for("round"))["position"])
    for _ in range(n):
        answer = await c.play(hint_move(view))
        assert answer["type"] == "played", answer
        view = Game.from_text(answer["position"])


async def rows(c) -> dict[str, dict]:
    return {p["name"]: p for p in await c.league()}


async def test_puppets_that_give_up_at_once_rate_nobody(palast_factory):
    # Issue 29: five puppets giving up at once pumped a booster to the top.
    palast = await palast_factory(draw=lambda: HINT_SOLVES)
    booster, puppet = await seat_two(palast, "Booster", "Puppet")
    await play_moves(booster, 12)
    await puppet.wait_for("round")
    await puppet.play("give up", check=True)
    await booster.play("give up", check=True)
    await booster.wait_for("table_over")
    league = await rows(booster)
    assert league.get("Booster", {}).get("tables", 0) == 0 and league.get("Booster", {}).get("wins", 0) == 0
    assert league.get("Puppet", {}).get("tables", 0) == 0


async def test_two_who_both_played_are_rated(palast_factory):
    palast = await palast_factory(draw=lambda: HINT_SOLVES)
    a, b = await seat_two(palast, "Ann", "Ben")
    await play_moves(a, 12)
    await play_moves(b, 10)
    await a.play("give up", check=True)
    await b.play("give up", check=True)
    over = await a.wait_for("table_over")
    league = await rows(a)
    assert league["Ann"]["tables"] == 1 and league["Ben"]["tables"] == 1
    best = over["ranking"][0]
    assert league[best["player"]]["wins"] == 1


async def test_a_zero_point_give_up_is_no_win_or_tie(palast_factory):
    # Both give up at once (0:0): nobody played, nobody won.
    palast = await palast_factory(draw=lambda: HINT_SOLVES)
    a, b = await seat_two(palast, "Zed", "Zoe")
    await a.wait_for("round")
    await b.wait_for("round")
    await a.play("give up", check=True)
    await b.play("give up", check=True)
    await a.wait_for("table_over")
    league = await rows(a)
    assert all(league.get(n, {}).get("wins", 0) == 0 and league.get(n, {}).get("tables", 0) == 0
               for n in ("Zed", "Zoe"))
