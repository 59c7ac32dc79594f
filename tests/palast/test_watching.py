"""SPEC §16 "Watching": anyone signed in can watch a running Palast table: the players' lines
live, the cards of a round only after it ends (its records), so a watcher learns nothing a seated
player could use.  Watching is bounded per connection and per table."""

from __future__ import annotations

import json

from spider_tui import records
from spider_tui.engine import Game
from spider_tui.palast import messages as m
from spider_tui.palast.commitment import verified
from spider_tui.palast.server import watch
from tests.palast.helpers import hint_move


async def _table(palast, private=False, rounds=2):
    anna, bo = await palast.player("Anna"), await palast.player("Bo")
    opened = await anna.open(suits=1, rules="classic", rounds=rounds, seats=2, private=private)
    if private:
        await bo.join(code=opened["code"])
    else:
        await bo.join(table=opened["table"]["id"])
    return anna, bo, opened["table"]["id"]


def _cards_seen(messages: list[dict]) -> list[dict]:
    """Messages that carry a position or a card (none may reach a watcher during a round)."""
    return [msg for msg in messages if any(k in msg for k in ("position", "turned_up", "dealt"))]


async def test_a_watcher_sees_the_lines_live_and_no_card_before_the_round_ends(palast):
    anna, bo, table = await _table(palast)
    carl = await palast.player("Carl")
    await anna.start()
    first = await anna.wait_for("round", round=1)
    watching = await carl.ask(m.Watch(table=table))
    assert isinstance(watching.message, m.Watching)
    assert watching.message.table.id == table and {x.player for x in watching.message.lines} == {"Anna", "Bo"}
    assert all(x.moves == 0 and x.state == "playing" for x in watching.message.lines)
    assert watching.message.commitment == first["commitment"]
    view = Game.from_text(first["position"])
    for _ in range(5):  # Anna plays; Carl sees her line move within a second
        answer = await anna.play(hint_move(view))
        view = Game.from_text(answer["position"])
    line = await carl.wait_for("progress", player="Anna", moves=view.moves, timeout=10)
    assert line["score"] == view.score
    early = await carl.ask(m.AskRecords(table=table, round=1), check=False)
    assert early["code"] == m.Code.ROUND_NOT_OVER.value
    await anna.play("give up")
    await bo.play("give up")
    over = await carl.wait_for("round_over", round=1)
    assert verified(watching.message.commitment, over["deal"])
    told = (await carl.ask(m.AskRecords(table=table, round=1))).message.records
    anna_record = next(records.read(t) for t in told if "player: Anna\n" in t)
    assert anna_record.moves == view.moves  # the cards of the round, now that it is over
    await anna.request("ready")
    await bo.request("ready")
    started = await carl.wait_for("watch_round", round=2)
    assert set(started) == {"type", "table", "round", "ends_at", "commitment"}  # no position
    assert not _cards_seen(carl.received), _cards_seen(carl.received)
    assert all(msg["type"] != "round" for msg in carl.received)


async def test_watching_is_bounded_and_ends(palast, monkeypatch):
    monkeypatch.setattr(watch, "WATCHERS_PER_TABLE", 2)
    anna, bo, table = await _table(palast)
    await anna.start()
    await anna.wait_for("round")
    one, two, three = [await palast.player(n) for n in ("One", "Two", "Three")]
    assert (await one.ask(m.Watch(table=table)))["type"] == "watching"
    assert (await two.ask(m.Watch(table=table)))["type"] == "watching"
    assert (await two.ask(m.Watch(table=table)))["type"] == "watching"  # again: still one watcher
    full = await three.ask(m.Watch(table=table), check=False)
    assert full["type"] == "refused" and full["code"] == m.Code.TOO_MANY.value
    assert (await one.ask(m.Unwatch()))["type"] == "unwatched"
    again = await one.ask(m.Unwatch(), check=False)
    assert again["code"] == m.Code.NOT_WATCHING.value
    assert (await three.ask(m.Watch(table=table)))["type"] == "watching"  # a place came free
    await two.close()  # a closed connection watches nothing
    four = await palast.player("Four")
    assert (await four.ask(m.Watch(table=table)))["type"] == "watching"
    n = len(one.received)
    await anna.play("give up")
    await anna.wait_for("progress", player="Anna", state="gave up")
    await three.wait_for("progress", player="Anna", state="gave up")
    assert all(msg.get("type") != "progress" for msg in one.received[n:])  # unwatched: nothing more


async def test_no_watching_a_private_table_or_one_that_is_not_there(palast):
    anna, bo, table = await _table(palast, private=True)
    carl = await palast.player("Carl")
    assert (await carl.ask(m.Watch(table=table), check=False))["code"] == m.Code.PRIVATE.value
    assert (await carl.ask(m.Watch(table=table + 1000), check=False))["code"] == m.Code.NO_TABLE.value
    bad = await carl.request("watch", check=False, table="1")
    assert bad["type"] == "refused" and bad["code"] == m.Code.BAD_MESSAGE.value
    assert json.dumps(bad)  # the answer is plain JSON


async def test_a_player_who_watches_their_own_table_gets_each_event_once(palast):
    anna, bo, table = await _table(palast, rounds=1)
    await anna.start()
    await anna.wait_for("round")
    assert (await anna.ask(m.Watch(table=table)))["type"] == "watching"
    await bo.play("give up")
    await bo.wait_for("progress", player="Bo", state="gave up")
    await anna.wait_for("progress", player="Bo", state="gave up")
    await anna.play("give up")
    await anna.wait_for("table_over")
    assert sum(1 for msg in anna.received if msg["type"] == "round_over") == 1
    assert sum(1 for msg in anna.received if msg.get("type") == "progress" and msg["player"] == "Bo"
               and msg["state"] == "gave up") == 1
