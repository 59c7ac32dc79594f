"""The Palast's table logic (``palast/server/lobby.py``, ``table.py``) driven in-process, without a socket: the fast
layer's check of a race from open to table_over (SPEC §13). The socket layer drives the same
through a real server (test_race.py)."""

from __future__ import annotations

import json

from spider_tui.engine import Game
from spider_tui.palast import protocol
from spider_tui.palast.server.db import open_store
from spider_tui.palast.server.server import token_hash
from spider_tui.palast.server.lobby import Palast

from tests.waiting import until

from .conftest import make_options


def request(type: str, **fields) -> protocol.Request:
    """A client message as the server reads it off the wire (checked by ``protocol.parse``)."""
    return protocol.parse(json.dumps({"type": type, **fields}))


async def test_two_players_race_a_table_in_process_and_each_is_sent_only_their_side(tmp_path):
    store = open_store(None, tmp_path)
    await store.open()
    palast = Palast(store, options=make_options())
    await palast.start()
    try:
        sent: dict[str, list] = {"Ann": [], "Ben": []}
        players = {}
        for name, inbox in sent.items():
            players[name] = await store.register(name, token_hash("token-" + name), 0.0)
            palast.connect(players[name].id, inbox.append)
        ann, ben = players["Ann"], players["Ben"]

        opened = await palast.handle(ann, request("open", suits=1, rules="classic", rounds=1, seats=2, private=False))
        assert opened["type"] != "refused", opened
        table_id = opened["table"]["id"]
        joined = await palast.handle(ben, request("join", table=table_id))
        assert joined["type"] != "refused", joined
        assert (await palast.handle(ann, request("start")))["type"] != "refused"

        def events(name: str, type: str) -> list[dict]:
            return [m if isinstance(m, dict) else json.loads(m) for m in sent[name]
                    if (m if isinstance(m, dict) else json.loads(m)).get("type") == type]

        rounds = {name: events(name, "round") for name in sent}
        assert all(len(r) == 1 for r in rounds.values()), rounds
        position = rounds["Ann"][0]["position"]
        assert position == rounds["Ben"][0]["position"]  # the same deal for both
        view = Game.from_text(position)
        assert "??" in position and "deal" not in rounds["Ann"][0]  # no hidden card, no deal before round_over

        move = view.hint()
        assert move is not None
        played = await palast.play(ann, str(move))
        assert played["type"] == "played" and played["moves"] == 1
        gave = {name: await palast.play(players[name], "give up") for name in sent}
        assert all(answer["state"] == "gave up" for answer in gave.values())
        await until(lambda: events("Ann", "table_over") and events("Ben", "table_over"), 30)
        (ann_over,), (ben_over,) = events("Ann", "table_over"), events("Ben", "table_over")
        assert ann_over == ben_over and {r["player"] for r in ann_over["ranking"]} == {"Ann", "Ben"}
        assert {r["player"]: r["total"] for r in ann_over["ranking"]} == {n: a["score"] for n, a in gave.items()}
    finally:
        await palast.stop()
        await store.close()
