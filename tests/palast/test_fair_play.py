"""SPEC §13 "Fair play" and §2 "Deal codes": the server deals every round from 16 CSPRNG bytes
named by a deal code (never a number), tells the code only at round end, and a joker is final
(undo stops before it)."""

from __future__ import annotations

import json

import pytest

from spider_tui.engine import JOKER, Game, deal_code
from spider_tui.palast.server import table as tables
from spider_tui.palast.server.table import Options

from .conftest import HINT_SOLVES


def test_the_server_draws_16_bytes_from_the_os_csprng(monkeypatch):
    asked: list[int] = []

    def token_bytes(n: int) -> bytes:
        asked.append(n)
        return HINT_SOLVES

    monkeypatch.setattr(tables.secrets, "token_bytes", token_bytes)
    assert Options().draw() == HINT_SOLVES and asked == [16]


def test_a_number_never_deals_a_palast_round():
    with pytest.raises(ValueError):
        deal_code(84)  # type: ignore[arg-type]  # what the server makes of anything but 16 bytes
    with pytest.raises(ValueError):
        deal_code(b"\x00" * 4)


async def test_round_over_tells_the_code_and_nothing_before_it_does(palast_factory):
    palast = await palast_factory(draw=lambda: HINT_SOLVES)
    a = await palast.player("Solo")
    await a.open(suits=1, rules="practice", rounds=1, seats=2, private=False)
    await a.start()
    r = await a.wait_for("round")
    await a.play("give up", check=True)
    over = await a.wait_for("round_over")
    code = deal_code(HINT_SOLVES)
    assert over["deal"] == code
    before = a.received[:a.received.index(over)]
    assert before and all(code not in json.dumps(m) and code[2:] not in json.dumps(m) for m in before)
    # Replaying the told code gives the round the player saw.
    assert Game.new(code, suits=1, rules="scoring+practice").view() == r["position"]


async def test_a_joker_is_final(palast_factory):
    palast = await palast_factory(draw=lambda: HINT_SOLVES)
    a = await palast.player("Jo")
    await a.open(suits=1, rules="practice+joker", rounds=1, seats=2, private=False)
    await a.start()
    r = await a.wait_for("round")
    real = Game.new(deal_code(HINT_SOLVES), suits=1, rules="practice+joker+scoring")
    assert real.view() == r["position"]
    joker = real.legal_jokers()[0]  # the test knows the deal; a player's view can't tell
    took = await a.play(str(joker), check=True)
    assert took["type"] == "played"
    refused = await a.play("undo")
    assert refused["type"] == "refused" and "joker is final" in refused["reason"]
    # A move after the joker may be undone; undo then stops before the joker again.
    after = Game.from_text(took["position"])
    move = next(m for m in after.legal_moves() if m.source != JOKER and not m.is_deal)
    assert (await a.play(str(move)))["type"] == "played"
    undone = await a.play("undo")
    assert undone["type"] == "played"
    assert Game.from_text(undone["position"]).key() == after.key()  # the score paid 1 for the undo
    again = await a.play("undo")
    assert again["type"] == "refused" and "joker is final" in again["reason"]
