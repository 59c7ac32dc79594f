"""SPEC §16 "The Palast's daily board": one daily table per suit count, the same deal code for
everyone that UTC day, its commitment shown all day and the code told when the day ends; one try
a player; ranked by points then time; never rated."""

from __future__ import annotations

import asyncio
import contextlib
import io
import json

from spider_tui import records
from spider_tui.engine import Game
from spider_tui.palast import messages as m
from spider_tui.palast.commitment import verified
from spider_tui.palast.server.daily import day_ends, day_of
from tests.palast.helpers import hint_move


async def _try(c, suits=1, moves=0):
    """One daily try: the round's first message, ``moves`` hint moves, then give up."""
    joined = await c.ask(m.PlayDaily(suits=suits))
    assert joined["type"] == "joined", joined
    first = await c.wait_for("round", table=joined["table"]["id"])
    view = Game.from_text(first["position"])
    for _ in range(moves):
        view = Game.from_text((await c.play(hint_move(view)))["position"])
    await c.play("give up")
    over = await c.wait_for("round_over", round=1)
    await c.wait_for("table_over")
    return joined["table"]["id"], first, over


async def test_one_deal_a_day_one_try_ranked_never_rated_told_when_the_day_ends(palast):
    anna, bo, carl = await palast.player("Anna"), await palast.player("Bo"), await palast.player("Carl")
    board = (await carl.ask(m.AskDaily(suits=1))).message
    assert isinstance(board, m.Daily) and board.day == day_of(palast.server.palast.clock())
    today = board.boards[0]
    assert today.suits == 1 and len(today.commitment or "") == 64 and today.deal is None and today.entries == []
    (t_anna, first_anna, over_anna), (t_bo, first_bo, over_bo) = await asyncio.gather(_try(anna, moves=6), _try(bo))
    assert t_anna != t_bo
    assert first_anna["commitment"] == first_bo["commitment"] == today.commitment  # the same deal for both
    assert Game.from_text(first_anna["position"]).view() == Game.from_text(first_bo["position"]).view()
    assert over_anna["deal"] is None and over_bo["deal"] is None  # not told in the round_over
    again = await anna.ask(m.PlayDaily(suits=1), check=False)
    assert again["type"] == "refused" and again["code"] == m.Code.DAILY_DONE.value
    two = await anna.ask(m.PlayDaily(suits=2))  # another suit count: another board, another deal
    assert two["type"] == "joined"
    first_two = await anna.wait_for("round", table=two["table"]["id"])
    assert first_two["commitment"] != today.commitment
    await anna.play("give up")
    await anna.wait_for("table_over", table=two["table"]["id"])
    board = (await carl.ask(m.AskDaily())).message
    one = next(b for b in board.boards if b.suits == 1)
    assert [b.suits for b in board.boards] == [1, 2, 4]
    assert [e.player for e in one.entries] == ["Anna", "Bo"] and one.entries[0].score > one.entries[1].score
    assert [e.place for e in one.entries] == [1, 2] and one.total == 2 and one.deal is None
    assert one.commitment == today.commitment
    early = await carl.ask(m.AskRecords(table=t_anna, round=1), check=False)
    assert early["code"] == m.Code.DAY_NOT_OVER.value
    early = await anna.ask(m.AskRecords(table=t_anna, round=1), check=False)  # not even her own, yet
    assert early["code"] == m.Code.DAY_NOT_OVER.value
    league = await carl.league()
    assert all(p["tables"] == 0 for p in league)  # never rated
    # The day ends: the deal is told, it is the one committed to, and every record can be read.
    day = board.day
    palast.server.palast.clock = lambda: day_ends(day) + 5.0
    yesterday = (await carl.ask(m.AskDaily(suits=1, day=day))).message.boards[0]
    assert yesterday.deal is not None and verified(today.commitment, yesterday.deal)
    told = (await carl.ask(m.AskRecords(table=t_anna, round=1))).message.records
    record, _game = records.read_checked(told[0])
    assert record.deal == yesterday.deal and record.player == "Anna" and record.score == one.entries[0].score
    fresh = (await carl.ask(m.AskDaily(suits=1))).message
    assert fresh.day != day and fresh.boards[0].commitment != today.commitment and fresh.boards[0].entries == []


async def test_equal_points_rank_by_time_and_the_board_is_read_before_hello(palast):
    anna, bo = await palast.player("Anna"), await palast.player("Bo")
    await _try(anna)
    await _try(bo)
    raw = await palast.raw()  # `spider league --daily`: before hello, read-only
    board = (await raw.ask(m.AskDaily(suits=1))).message
    assert isinstance(board, m.Daily)
    entries = board.boards[0].entries
    assert [e.score for e in entries] == [0, 0] and entries[0].seconds <= entries[1].seconds
    assert board.boards[0].me is None


async def test_spider_league_daily_prints_the_board(palast):
    from spider_tui.palast.cli import cmd_league

    anna = await palast.player("Anna")
    await _try(anna, moves=3)
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        assert await asyncio.to_thread(cmd_league, ["--server", palast.url, "--daily", "--suits", "1", "--json"]) == 0
    data = json.loads(out.getvalue())
    assert [b["suits"] for b in data["boards"]] == [1]
    assert data["boards"][0]["entries"][0]["player"] == "Anna" and data["boards"][0]["deal"] is None
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        assert await asyncio.to_thread(cmd_league, ["--server", palast.url, "--daily"]) == 0
    text = out.getvalue()
    assert "Anna" in text and data["boards"][0]["commitment"] in text and "told when the day is over" in text


async def test_the_headless_client_reads_the_board_plays_the_try_and_gets_the_records(palast):
    anna = await palast.player("Anna")
    board = await anna.daily(suits=2)
    assert [b.suits for b in board.boards] == [2] and board.boards[0].entries == []
    joined = await anna.daily_play(2)
    await anna.wait_for("round", table=joined["table"]["id"])
    await anna.play("give up")
    await anna.wait_for("table_over")
    assert [e.player for e in (await anna.daily(suits=2)).boards[0].entries] == ["Anna"]
    from spider_tui.palast.client.client import Refused

    try:
        await anna.records(joined["table"]["id"], 1)
    except Refused as r:
        assert r.code is m.Code.DAY_NOT_OVER
    else:
        raise AssertionError("a daily try's records before its day is over")
    palast.server.palast.clock = lambda: day_ends(board.day) + 1.0
    (text,) = await anna.records(joined["table"]["id"], 1)
    assert records.read_checked(text)[0].result == "gave up"
