"""Stopping the Palast ends its house bots (SPEC §13 "Faults": a server restart loses nothing, and
it must be able to stop). On Python 3.11 ``asyncio.wait_for`` swallows a cancel that comes in the
same moment as the message it waits for; a house bot waiting that way played on (or waited for
ever), and ``Palast.stop`` hung with it (seen in CI as a suite that never finished)."""

from __future__ import annotations

import asyncio

from spider_tui.engine import Game

from spider_tui.palast.server.db import open_store
from spider_tui.palast.server.house import HouseBots
from spider_tui.palast.server.server import token_hash
from spider_tui.palast.server.lobby import Palast

from tests.waiting import until

from .conftest import make_options


async def test_a_house_bot_cancelled_as_a_message_arrives_ends(tmp_path):
    store = open_store(None, tmp_path)
    await store.open()
    palast = Palast(store, options=make_options(house_bots_after=0.0),
                    house=lambda p: HouseBots(p, after=0.0, pace=100.0))
    await palast.start()
    try:
        assert palast.house is not None
        house = palast.house
        assert isinstance(house, HouseBots)
        bot = await store.register("House bot 1", token_hash("house-bot"), 0.0, bot=True)
        house._play(bot)
        task = house.playing[bot.id]
        await until(lambda: bot.id in palast.online)
        send = palast.online[bot.id]
        send({"type": "round", "table": 1, "round": 1, "position": Game.new(1, suits=1).view(), "ends_at": 0})
        await asyncio.sleep(0.05)  # the bot has a position: it waits (with a timeout) for its next turn
        send({"type": "progress", "player": "Ann", "score": 0, "runs": 0, "moves": 1, "state": "playing"})
        await asyncio.sleep(0)  # the message is taken off the queue...
        task.cancel()  # ...and the cancel comes before the bot has read it
        done, _ = await asyncio.wait([task], timeout=2)
        assert task in done and task.cancelled()
    finally:
        await palast.stop()
        await store.close()
