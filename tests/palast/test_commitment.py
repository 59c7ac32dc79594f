"""Provably fair deals (issue 29 item 15, SPEC §13): ``round`` carries ``commitment``, the
lowercase hex SHA-256 of the deal code ``round_over`` tells; the client checks the two and says
"deal verified", or warns plainly when they differ."""

from __future__ import annotations

import hashlib

from spider_tui.engine import deal_code
from spider_tui.palast.client.session import PalastSession
from spider_tui.palast.commitment import commitment, verified

from tests.waiting import until

from .conftest import HINT_SOLVES


def test_the_commitment_is_the_hex_sha256_of_the_code():
    code = deal_code(HINT_SOLVES)
    assert commitment(code) == hashlib.sha256(code.encode()).hexdigest()
    assert verified(commitment(code), code) and verified(commitment(code).upper(), code)
    assert not verified(commitment(code), deal_code(bytes(16)))
    assert not verified(None, code) and not verified(commitment(code), None) and not verified("ab", code)


async def test_round_commits_to_the_code_round_over_tells(palast_factory):
    palast = await palast_factory(draw=lambda: HINT_SOLVES)
    a = await palast.player("Committed")
    await a.open(suits=1, rules="practice", rounds=1, seats=2, private=False)
    await a.start()
    r = await a.wait_for("round")
    assert r["commitment"] == hashlib.sha256(deal_code(HINT_SOLVES).encode()).hexdigest()
    assert deal_code(HINT_SOLVES) not in str(r)
    await a.play("give up", check=True)
    over = await a.wait_for("round_over")
    assert hashlib.sha256(over["deal"].encode()).hexdigest() == r["commitment"]


async def test_the_client_says_deal_verified(palast):
    anna = PalastSession(palast.url, "Verifier")
    await anna.start()
    try:
        await anna.open(rules="practice", rounds=1, seats=2)
        await anna.start_table()
        await until(lambda: anna.phase == "race")
        anna.race.give_up()
        await until(lambda: anna.verified)
        assert anna.verified == {1: True}
        assert "Deal verified" in anna.status
    finally:
        await anna.close()


async def test_the_client_warns_when_the_told_deal_differs(palast):
    anna = PalastSession(palast.url, "Doubter")
    await anna.start()
    try:
        await anna.open(rules="practice", rounds=1, seats=2)
        await anna.start_table()
        await until(lambda: anna.phase == "race")
        anna.commitments[1] = commitment(deal_code(bytes(16)))  # as if the server had committed to another deal
        anna.race.give_up()
        await until(lambda: anna.verified)
        assert anna.verified == {1: False}
        assert anna.status.startswith("Warning:") and "can't be trusted" in anna.status
    finally:
        await anna.close()
