"""Issue 28 item 2: ``refused`` and ``error`` carry a ``code`` beside the player's ``reason``
(docs/protocol.md "Refusal codes"), and every decision the program makes on a refusal reads the
code, never the words."""

from __future__ import annotations

import json

import pytest

from spider_tui.engine import Game
from spider_tui.engine.game import JokerCode
from spider_tui.palast import messages as m
from spider_tui.palast.client.session import FINAL_CODES, PalastError, Unreachable, sign_in
from spider_tui.palast.server.db import Reason


def code_of(answer) -> m.Code | None:
    message = answer.message
    assert isinstance(message, (m.Refused, m.Error)), answer
    return message.why


async def test_the_server_says_why_it_refuses_in_a_code(palast):
    anna = await palast.player("Anna")
    bo = await palast.player("Bo")
    assert code_of(await anna.play("3>7")) is m.Code.NOT_SEATED
    assert code_of(await anna.request("start", check=False)) is m.Code.NOT_SEATED
    assert code_of(await anna.request("join", table=10**6, check=False)) is m.Code.NO_TABLE
    assert code_of(await anna.request("join", code="NOSUCH", check=False)) is m.Code.NO_TABLE
    assert code_of(await anna.request("open", suits=3, rules="classic", rounds=1, seats=2, private=False,
                                      check=False)) is m.Code.BAD_MESSAGE
    opened = await anna.request("open", suits=1, rules="classic", rounds=1, seats=2, private=False)
    table = opened["table"]["id"]
    assert code_of(await anna.request("open", suits=1, rules="classic", rounds=1, seats=2, private=False,
                                      check=False)) is m.Code.ALREADY_SEATED
    assert code_of(await bo.request("start", check=False)) is m.Code.NOT_SEATED
    await bo.request("join", table=table)
    assert code_of(await bo.request("start", check=False)) is m.Code.NOT_HOST
    carl = await palast.player("Carl")
    assert code_of(await carl.request("join", table=table, check=False)) is m.Code.TABLE_FULL
    assert code_of(await anna.request("ready", check=False)) is m.Code.NOT_BETWEEN
    assert code_of(await anna.play("undo")) is m.Code.NO_ROUND
    await anna.request("start")
    await anna.wait_for("round")
    assert code_of(await anna.play("undo")) is m.Code.NOTHING_TO_UNDO
    assert code_of(await anna.play("1>1")) is m.Code.ILLEGAL_MOVE
    await anna.play("give up", check=True)
    assert code_of(await anna.play("deal")) is m.Code.DONE
    assert code_of(await carl.request("join", table=table, check=False)) is m.Code.TABLE_STARTED
    assert code_of(await anna.request("hello", protocol=1, name="Anna", token="x", check=False)) is m.Code.ALREADY_HELLO


async def test_a_failed_hello_says_why_in_a_code(palast):
    first = await palast.player("Anna")
    with pytest.raises(PalastError) as taken:
        await sign_in(palast.url, "Anna", None)
    assert taken.value.code is m.Code.NAME_TAKEN and taken.value.code in FINAL_CODES
    with pytest.raises(PalastError) as wrong:
        await sign_in(palast.url, "Anna", "not-the-token")
    assert wrong.value.code is m.Code.BAD_TOKEN and wrong.value.code in FINAL_CODES
    await first.close()


async def test_nothing_answering_is_unreachable_by_its_code_not_its_words():
    with pytest.raises(Unreachable) as gone:
        await sign_in("ws://127.0.0.1:9", "Anna", None)  # the discard port: nothing listens
    assert gone.value.code is m.Code.UNREACHABLE
    with pytest.raises(Unreachable) as odd:
        await sign_in("not an address", "Anna", None)
    assert odd.value.code is None  # not a server address: nothing to play here instead


def test_a_bad_message_is_refused_with_bad_message_and_a_bad_name_with_bad_name():
    for raw in ("{", "[]", '{"type": "nope"}', '{"type": "play"}', '{"type": "open", "suits": true}'):
        with pytest.raises(m.Refusal) as r:
            m.read_client(raw)
        assert r.value.code is m.Code.BAD_MESSAGE
    with pytest.raises(m.Refusal) as r:
        m.read_client(json.dumps({"type": "hello", "protocol": 1, "name": "x" * 20, "token": None}))
    assert r.value.code is m.Code.BAD_NAME


def test_a_store_reason_reads_as_its_words_and_carries_its_code():
    reason = Reason("That table is full.", m.Code.TABLE_FULL)
    assert reason == "That table is full." and "full" in reason and reason.code is m.Code.TABLE_FULL
    assert m.Refusal(reason).code is m.Code.TABLE_FULL  # passed on with its code


def test_a_joker_on_a_view_is_told_by_its_code():
    """The race asks the server for a joker when the view can't know its card: a decision on
    ``JokerCode.VIEW``, not on the sentence."""
    view = Game.from_text(Game.new(1, suits=1, rules="joker").view())
    refusal = view.joker_refusal(0)
    assert refusal is not None and refusal.code is JokerCode.VIEW
    assert isinstance(refusal, str) and refusal.startswith("A view")  # still reads as its words
    full = Game.new(1, suits=1, rules="joker")
    assert full.joker_refusal(0) is None
    assert Game.new(1, suits=1).joker_refusal(0).code is JokerCode.NO_JOKERS
