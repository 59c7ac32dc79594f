"""Faults (SPEC §13): a dropped player keeps the seat and resumes the same position; a killed
server (kill -9, a real subprocess) restarts with every finished result and its tables in play."""

from __future__ import annotations

import asyncio
import os
import signal
import subprocess
import sys

from spider_tui.engine import Game
from spider_tui.palast.client.client import PalastClient
from tests.waiting import stop_process

from .helpers import hint_move


async def _two_at_a_table(palast_or_url, rounds=1, rules="classic"):
    if isinstance(palast_or_url, str):
        a = await PalastClient.connect(palast_or_url)
        b = await PalastClient.connect(palast_or_url)
        for c in (a, b):
            c.keep_received = True
        await a.hello("Ann", None)
        await b.hello("Ben", None)
    else:
        a = await palast_or_url.player("Ann")
        b = await palast_or_url.player("Ben")
    t = (await a.open(suits=2, rules=rules, rounds=rounds, seats=2, private=False))["table"]
    await b.join(table=t["id"])
    await a.start()
    return a, b, t


async def _play_some(c: PalastClient, position: str, n: int) -> dict:
    view = Game.from_text(position)
    last = None
    for _ in range(n):
        move = view.hint()
        if move is None:
            break
        last = await c.play(str(move))
        assert last["type"] == "played"
        view = Game.from_text(last["position"])
    return last


async def test_a_dropped_player_keeps_the_seat_and_resumes_the_same_position(palast):
    a, b, t = await _two_at_a_table(palast)
    r = await a.wait_for("round")
    last = await _play_some(a, r["position"], 6)
    await a.close()
    off = await b.wait_for("progress", player="Ann", state="offline")
    assert off["moves"] == last["moves"]
    back = await palast.player("Ann", a.token)
    joined = await back.wait_for("joined")
    assert joined["table"]["id"] == t["id"] and joined["table"]["players"] == ["Ann", "Ben"]
    resumed = await back.wait_for("round")
    assert resumed["position"] == last["position"]
    assert resumed["round"] == 1 and resumed["ends_at"] == r["ends_at"]  # the clock did not stop
    await b.wait_for("progress", player="Ann", state="playing")
    more = await back.play(hint_move(Game.from_text(resumed["position"])))
    assert more["type"] == "played" and more["moves"] == last["moves"] + 1


async def test_signing_in_again_replaces_the_old_connection(palast):
    a = await palast.player("Twice")
    again = await palast.player("Twice", a.token)
    await asyncio.wait_for(a.closed.wait(), 10)
    assert (await again.request("tables"))["type"] == "tables"


def _start_server(data_dir, *extra) -> tuple[subprocess.Popen, str]:
    proc = subprocess.Popen(
        [sys.executable, "-m", "spider_tui", "server", "--port", "0", "--data-dir", str(data_dir), *extra],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
    )
    line = proc.stdout.readline()
    assert "listening on" in line, (line, proc.stderr.read() if proc.poll() is not None else "")
    return proc, line.split("listening on ")[1].strip()


async def test_kill_9_and_restart_loses_no_result_and_resumes_the_table(tmp_path, db_url):
    proc, url = _start_server(tmp_path, "--db", db_url)
    try:
        # A finished table first: both play 10 moves (so the league rates it) and give up.
        a, b, t1 = await _two_at_a_table(url)
        for c in (a, b):
            played = await _play_some(c, (await c.wait_for("round"))["position"], 10)
            assert played["moves"] == 10
        await a.play("give up")
        await b.play("give up")
        over = await a.wait_for("table_over")
        await b.wait_for("table_over")
        league_before = await a.league()
        assert {p["name"] for p in league_before} == {"Ann", "Ben"} and all(p["tables"] == 1 for p in league_before)
        # Then a table in play, with some moves.
        t2 = (await a.open(suits=1, rules="classic", rounds=2, seats=2, private=False))["table"]
        await b.join(table=t2["id"])
        await a.start()
        r = await a.wait_for("round", round=1)
        last = await _play_some(a, r["position"], 5)
        tokens = (a.token, b.token)
        proc.send_signal(signal.SIGKILL)
        proc.wait(10)
        await a.close()
        await b.close()
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
        proc.stdout.close()
        proc.stderr.close()
    proc, url = _start_server(tmp_path, "--db", db_url)
    try:
        a = await PalastClient.connect(url)
        await a.hello("Ann", tokens[0])
        assert (await a.wait_for("joined"))["table"]["id"] == t2["id"]
        resumed = await a.wait_for("round")
        assert resumed["position"] == last["position"] and resumed["ends_at"] == r["ends_at"]
        assert await a.league() == league_before
        more = await a.play(hint_move(Game.from_text(resumed["position"])))
        assert more["type"] == "played" and more["moves"] == last["moves"] + 1
        b = await PalastClient.connect(url)
        await b.hello("Ben", tokens[1])
        rb = await b.wait_for("round")
        assert rb["position"] == r["position"]  # Ben had not moved
        assert over["ranking"][0]["place"] == 1
        await a.close()
        await b.close()
    finally:
        stop_process(proc)
    if not db_url.startswith("postgresql:"):
        assert os.path.exists(db_url)
