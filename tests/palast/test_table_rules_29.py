"""Issue 29's table-level items against a real server on a loopback port (SPEC §13): two accounts
of one address never at one rated table (item 3), idle 3 minutes is out (item 10), a play's
``id`` is idempotent (item 11), a kill -9 after the last give-up still tells the returning
player the round's end and the table's (item 14)."""

from __future__ import annotations

import asyncio
import json
import signal

from spider_tui.engine import Game
from spider_tui.palast.client.client import PalastClient, Refused

import pytest

from .helpers import hint_move
from .test_attacks import connect, player, wide
from .test_faults import _start_server


# ---------------------------------------------------------------- item 3
async def test_two_accounts_of_one_address_never_sit_at_one_rated_table(palast_factory):
    palast = await palast_factory(limits=wide())
    main = await player(palast, "Main", "198.51.100.5")
    puppet = await player(palast, "Puppet", "198.51.100.5")
    rated = (await main.open(suits=1, rules="classic", rounds=1, seats=3, private=False))["table"]
    with pytest.raises(Refused) as e:
        await puppet.join(table=rated["id"])
    assert "Training" in e.value.reason
    other = await player(palast, "Neighbour", "198.51.100.6")  # another address: welcome
    assert (await other.join(table=rated["id"]))["type"] == "joined"
    # At a Training table the two may play together.
    await puppet.open(suits=1, rules="practice", rounds=1, seats=3, private=False)
    friend = await player(palast, "Friend", "198.51.100.5")
    assert (await friend.join(table=(await puppet.request("tables"))["tables"][0]["id"]))["type"] in ("joined",)


async def test_an_ipv6_64_is_one_address_for_seating(palast_factory):
    palast = await palast_factory(limits=wide())
    a = await player(palast, "SixA", "2001:db8:4:4::1")
    b = await player(palast, "SixB", "2001:db8:4:4:ffff::2")
    t = (await a.open(suits=1, rules="classic", rounds=1, seats=2, private=False))["table"]
    with pytest.raises(Refused):
        await b.join(table=t["id"])


async def test_a_standard_table_seats_one_account_per_address(palast_factory):
    palast = await palast_factory(limits=wide())
    a = await player(palast, "StdA", "198.51.100.7")
    b = await player(palast, "StdB", "198.51.100.7")
    std = next(t for t in await a.tables() if t["standard"])
    await a.join(table=std["id"])
    with pytest.raises(Refused) as e:
        await b.join(table=std["id"])
    assert "Training" in e.value.reason


async def test_the_same_address_refusal_reads_in_german(palast_factory):
    palast = await palast_factory(limits=wide())
    a = await player(palast, "HausA", "198.51.100.9")
    b = await connect(palast, "198.51.100.9")
    await b.hello("HausB", None, lang="de")
    std = next(t for t in await a.tables() if t["standard"])
    await a.join(table=std["id"])
    with pytest.raises(Refused) as e:
        await b.join(table=std["id"])
    assert e.value.reason.startswith("Ein anderes Konto von deiner Adresse") and "Trainingstisch" in e.value.reason


async def test_two_accounts_of_one_address_asking_at_once_still_sit_apart(palast_factory):
    """Standard seats are written side by side (issue 29 item 13), and the rule holds also when
    both accounts of one address ask for the same table at the same moment: one sits there, the
    other is refused or sent to another table, never the same one."""
    palast = await palast_factory(limits=wide())
    a = await player(palast, "TwinA", "198.51.100.8")
    b = await player(palast, "TwinB", "198.51.100.8")
    std = next(t for t in await a.tables() if t["standard"])
    answers = await asyncio.gather(a.join(table=std["id"]), b.join(table=std["id"]), return_exceptions=True)
    tables = [x["table"]["id"] for x in answers if isinstance(x, dict)]
    assert tables, answers
    assert len(tables) == len(set(tables))  # never both at one table
    for x in answers:
        if not isinstance(x, dict):
            assert isinstance(x, Refused) and "Training" in x.reason


async def test_loopback_players_may_share_a_rated_table(palast):
    # SPEC §13: 127.0.0.0/8 and ::1 are the host's own users (SSH logins, the embedded Palast).
    a = await palast.player("LoopA")
    b = await palast.player("LoopB")
    t = (await a.open(suits=1, rules="classic", rounds=1, seats=2, private=False))["table"]
    assert (await b.join(table=t["id"]))["type"] == "joined"


# ---------------------------------------------------------------- item 10
async def test_a_connected_player_with_no_action_is_out_as_idle(palast_factory):
    palast = await palast_factory(idle_seconds=1.0)
    a = await palast.player("Sitter")
    b = await palast.player("Mover")
    t = (await a.open(suits=1, rules="classic", rounds=1, seats=2, private=False))["table"]
    await b.join(table=t["id"])
    await a.start()
    r = await b.wait_for("round")
    await b.play(hint_move(Game.from_text(r["position"])))
    await b.play("give up")
    # The sitter never acts but stays connected: idle, out, and the round ends without its clock.
    idle = await b.wait_for("progress", player="Sitter", state="idle", timeout=60)
    assert idle["state"] == "idle"
    over = await b.wait_for("round_over", timeout=60)
    assert {s["player"]: s["state"] for s in over["standings"]}["Sitter"] == "idle"


# ---------------------------------------------------------------- item 11
async def answer_to(c: PalastClient, msg_id: int, timeout: float = 30) -> dict:
    loop = asyncio.get_running_loop()
    end = loop.time() + timeout
    while loop.time() < end:
        got = [m for m in c.received if m.get("id") == msg_id]
        if got:
            c.received = [m for m in c.received if m.get("id") != msg_id]
            return got[0]
        await asyncio.sleep(0.01)
    raise AssertionError(f"no answer with id {msg_id}")


async def test_a_play_resent_with_its_id_is_answered_again_not_played_twice(palast):
    a = await palast.player("Resender")
    await a.open(suits=1, rules="practice", rounds=1, seats=2, private=False)
    await a.start()
    r = await a.wait_for("round")
    move = hint_move(Game.from_text(r["position"]))
    play = json.dumps({"type": "play", "move": move, "id": 424242})
    await a.send_raw(play)
    first = await answer_to(a, 424242)
    assert first["type"] == "played" and first["moves"] == 1
    await a.send_raw(play)
    assert await answer_to(a, 424242) == first  # the same answer, not a second move
    # After a reconnect, the same.
    token = a.token
    await a.close()
    back = await palast.player("Resender", token)
    await back.send_raw(play)
    assert await answer_to(back, 424242) == first
    nxt = await back.play(hint_move(Game.from_text(first["position"])))
    assert nxt["moves"] == 2  # the resent play was never played again


async def test_an_older_play_resent_with_its_id_is_answered_the_same_from_the_stored_actions(palast):
    # Only the last answer is kept whole; an older id's answer is made again from the actions.
    a = await palast.player("OldResender")
    await a.open(suits=1, rules="practice", rounds=1, seats=2, private=False)
    await a.start()
    position = (await a.wait_for("round"))["position"]
    answers = []
    for i in range(4):
        await a.send_raw(json.dumps({"type": "play", "move": hint_move(Game.from_text(position)), "id": 7000 + i}))
        answers.append(await answer_to(a, 7000 + i))
        assert answers[-1]["type"] == "played", answers[-1]
        position = answers[-1]["position"]
    for i in (0, 2, 3, 1):
        await a.send_raw(json.dumps({"type": "play", "move": "deal", "id": 7000 + i}))
        assert await answer_to(a, 7000 + i) == answers[i]
    nxt = await a.play(hint_move(Game.from_text(position)))
    assert nxt["moves"] == 5  # none was played again


# ---------------------------------------------------------------- item 14
async def test_kill_9_after_the_last_give_up_still_tells_the_end(tmp_path):
    proc, url = _start_server(tmp_path)
    try:
        a = await PalastClient.connect(url)
        a.keep_received = True
        await a.hello("Ann", None)
        b = await PalastClient.connect(url)
        b.keep_received = True
        await b.hello("Ben", None)
        t = (await a.open(suits=1, rules="classic", rounds=1, seats=2, private=False))["table"]
        await b.join(table=t["id"])
        await a.start()
        await a.wait_for("round")
        await b.wait_for("round")
        await a.play("give up")
        assert (await b.play("give up"))["type"] == "played"  # the last give-up is saved
        proc.send_signal(signal.SIGKILL)
        proc.wait(10)
        told_before = any(m["type"] == "table_over" for m in b.received)
        tokens = (a.token, b.token)
        await a.close()
        await b.close()
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
        proc.stdout.close()
        proc.stderr.close()
    proc, url = _start_server(tmp_path)
    try:
        back = await PalastClient.connect(url)
        back.keep_received = True
        await back.hello("Ben", tokens[1])
        if not told_before:
            over = await back.wait_for("round_over", timeout=60)
            final = await back.wait_for("table_over", timeout=60)
            assert over["round"] == 1 and {r["player"] for r in final["ranking"]} == {"Ann", "Ben"}
            kinds = [m["type"] for m in back.received]
            assert kinds.index("round_over") < kinds.index("table_over")
        await back.close()
    finally:
        proc.send_signal(signal.SIGTERM)
        proc.wait(10)
        proc.stdout.close()
        proc.stderr.close()
