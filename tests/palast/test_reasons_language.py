"""The server's reasons in the client's language (SPEC §17: ``lang`` in ``hello``): a client
that asks for German reads every refusal in German; one that asks for nothing (or a language
the server doesn't speak) reads English, on the same server at the same time."""

from __future__ import annotations

import json

import pytest
import websockets

from spider_tui.i18n import set_language
from spider_tui.palast.client.client import PalastClient


@pytest.fixture(autouse=True)
def english_after():
    yield
    set_language("en")


async def german_player(palast, name: str) -> PalastClient:
    c = await palast.raw()
    await c.hello(name, None, lang="de")  # the hello carries lang "de"
    return c


async def answer_to(c: PalastClient, data: str) -> dict:
    await c.send_raw(data)
    ev = await c.next_event(timeout=10)
    assert ev is not None, "connection closed"
    return ev


@pytest.mark.parametrize("data, german", [
    ("not json", "Kein JSON: Jede Nachricht ist ein JSON-Objekt mit einem 'type'."),
    ('{"type": "play"}', "'play' braucht einen 'move'."),
    ('{"type": "play", "move": "3>x"}', "'3>x' ist nicht lesbar: Schreib einen Zug wie 3>7, 3>7:2, deal oder joker>4."),
    ('{"type": "join", "table": "1"}', "'table' muss eine ganze Zahl sein."),
    ('{"type": "open", "suits": 1, "rules": "classic", "rounds": 11, "seats": 4, "private": false}',
     "'rounds' muss 1 bis 10 sein."),
    ('{"type": "tables", "evil": 1}', "'tables' nimmt kein Feld 'evil'."),
    ('{"type": "start"}', "Du sitzt an keinem Tisch."),
])
async def test_refusals_in_german_and_english_side_by_side(palast, data, german):
    de = await german_player(palast, "Greta")
    en = await palast.player("Emma")
    got = await answer_to(de, data)
    assert got["type"] == "refused" and got["reason"] == german, got
    english = await answer_to(en, data)
    assert english["type"] == "refused" and english["reason"] != german and english["reason"].isascii(), english


async def test_a_move_the_rules_refuse_reads_in_german(palast):
    de = await german_player(palast, "Greta")
    await de.request("open", suits=1, rules="practice", rounds=1, seats=2, private=False)
    await de.request("start")
    for _i in range(20):  # the round's first message comes, then a move into an empty column's card
        ev = await de.next_event(timeout=10)
        if ev is not None and ev.get("type") == "round":
            break
    got = await answer_to(de, '{"type": "play", "move": "1>1"}')
    assert got["type"] == "refused"
    assert got["reason"] == "Eine Folge kann nicht auf ihre eigene Spalte ziehen.", got


async def test_a_failed_hello_is_answered_in_its_language(palast):
    url = f"ws://127.0.0.1:{palast.server.port}"
    for lang, want in (("de", "Ein Name hat 1 bis"), ("en", "A name has 1 to"), ("fr", "A name has 1 to"), (None, "A name has 1 to")):
        async with websockets.connect(url) as ws:
            hello = {"type": "hello", "protocol": 1, "name": "", "token": None}
            if lang is not None:
                hello["lang"] = lang
            await ws.send(json.dumps(hello))
            answer = json.loads(await ws.recv())
        assert answer["type"] == "error" and answer["reason"].startswith(want), (lang, answer)


async def test_lang_must_be_a_string(palast):
    url = f"ws://127.0.0.1:{palast.server.port}"
    async with websockets.connect(url) as ws:
        await ws.send(json.dumps({"type": "hello", "protocol": 1, "name": "Zed", "token": None, "lang": 7}))
        answer = json.loads(await ws.recv())
    assert answer["type"] == "error" and answer["reason"] == "'lang' must be a string.", answer


async def test_the_game_asks_for_its_language_and_knows_a_taken_name_in_german(palast):
    """The game's sign-in sends the language spoken; a German "name taken" is still known as one
    (by its code: the words are the player's, the code is the program's)."""
    from spider_tui.palast.client.session import PalastError, sign_in
    from spider_tui.palast.messages import Code
    from spider_tui.palast.reasons import NAME_TAKEN, is_reason

    await palast.player("Greta")
    set_language("de")
    with pytest.raises(PalastError) as e:
        await sign_in(palast.url, "Greta", None)
    assert str(e.value).startswith("Dieser Name ist vergeben"), str(e.value)
    assert is_reason(str(e.value), NAME_TAKEN) and e.value.code is Code.NAME_TAKEN
    client = await sign_in(palast.url, "Gustav", None)
    try:
        got = await answer_to(client, '{"type": "start"}')
        assert got["reason"] == "Du sitzt an keinem Tisch."
    finally:
        await client.close()


def test_an_engine_refusal_is_said_by_its_code_on_its_way_out():
    """The server keeps the engine's refusal (a coded ``Refusal``) as the ``refused`` message's
    reason until it goes out; only then is it said in the client's language, by its code. The
    wire stays the same: the reason a sentence, the code ``illegal_move``."""
    from spider_tui.engine import Game, IllegalMove, Refusal, Why
    from spider_tui.palast import messages as m
    from spider_tui.palast.reasons import message_in_language

    with pytest.raises(IllegalMove) as e:
        Game.new(1, suits=1).play("1>1")
    refusal = m.Refusal(e.value.reason, code=m.Code.ILLEGAL_MOVE)  # as the server's table does
    out = m.Refused(reason=refusal.reason, id=3, code=refusal.code)
    german = message_in_language(out, "de")
    assert german.reason == "Eine Folge kann nicht auf ihre eigene Spalte ziehen." and german.code == "illegal_move"
    from spider_tui.palast.protocol import dumps

    assert json.loads(dumps(out)) == {"type": "refused", "id": 3, "reason": "A group can't move onto its own column.",
                                      "code": "illegal_move"}
    assert message_in_language(out, "en") is out
    # A move text that can't be read keeps no protocol code (the engine's code is not the protocol's).
    with pytest.raises(m.Refusal) as bad:
        m.check_move("3>x", 4)
    assert bad.value.code is None and isinstance(bad.value.reason, Refusal) and bad.value.reason.code is Why.UNREADABLE
