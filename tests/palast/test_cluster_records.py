"""SPEC §16 on two server processes on one PostgreSQL database: records, watching and the daily
board are the Palast's, whichever process a player is connected to."""

from __future__ import annotations

import asyncio

from spider_tui import records
from spider_tui.engine import Game
from spider_tui.palast import messages as m

from .helpers import hint_move
from .test_cluster import two_servers  # noqa: F401 - the fixture

__all__ = ["two_servers"]


async def test_records_and_watching_across_two_processes(two_servers):  # noqa: F811
    a, b = await two_servers()
    anna, bo = await a.player("Anna"), await b.player("Bo")
    opened = await anna.open(suits=1, rules="classic", rounds=1, seats=2, private=False)
    table = opened["table"]["id"]
    await bo.join(table=table)
    await anna.start()
    first = await anna.wait_for("round")
    await bo.wait_for("round")
    carl = await b.player("Carl")  # watches, on the process where Anna is not
    watching = await carl.ask(m.Watch(table=table))
    assert {x.player for x in watching.message.lines} == {"Anna", "Bo"}
    view = Game.from_text(first["position"])
    for _ in range(4):
        view = Game.from_text((await anna.play(hint_move(view)))["position"])
    await carl.wait_for("progress", player="Anna", moves=view.moves, timeout=10)
    await anna.play("give up")
    await bo.play("give up")
    over = await carl.wait_for("round_over", timeout=10)
    texts = (await carl.ask(m.AskRecords(table=table, round=1))).message.records
    assert len(texts) == 2
    mine = next(records.read_checked(t)[0] for t in texts if "player: Anna\n" in t)
    assert mine.deal == over["deal"] and mine.moves == view.moves
    assert all("position" not in msg for msg in carl.received)


async def test_the_daily_board_is_one_across_two_processes(two_servers):  # noqa: F811
    a, b = await two_servers()
    anna, bo = await a.player("Anna"), await b.player("Bo")
    boards = await asyncio.gather(anna.ask(m.AskDaily(suits=4)), bo.ask(m.AskDaily(suits=4)))
    assert boards[0].message.boards[0].commitment == boards[1].message.boards[0].commitment  # one deal drawn
    joined = await anna.ask(m.PlayDaily(suits=4))
    first = await anna.wait_for("round", table=joined["table"]["id"])
    assert first["commitment"] == boards[0].message.boards[0].commitment
    await anna.play("give up")
    await anna.wait_for("table_over")
    await anna.close()
    again = await (await b.player("Anna", token=anna.token)).ask(m.PlayDaily(suits=4), check=False)
    assert again["code"] == m.Code.DAILY_DONE.value  # her one try, on the other process too
    board = (await bo.ask(m.AskDaily(suits=4))).message.boards[0]
    assert [e.player for e in board.entries] == ["Anna"]
