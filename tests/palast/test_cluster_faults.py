"""Faults with several server processes (SPEC §13, issue 14), as real `spider server` processes
on one throwaway PostgreSQL: kill -9 one of two processes mid-round, restart PostgreSQL
mid-round."""

from __future__ import annotations

import asyncio
import signal
import subprocess
import sys

import pytest

from spider_tui.engine import Game
from spider_tui.palast.client.client import PalastClient
from tests.waiting import stop_process
from tests.pgcluster import PgCluster

from .conftest import select_all
from .helpers import hint_move


class ServerProcess:
    """`spider server --db URL --port 0` in a subprocess; its ws:// URL from its first line."""

    def __init__(self, db_url: str, data_dir, *extra: str):
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "spider_tui", "server", "--port", "0", "--db", db_url,
             "--data-dir", str(data_dir), *extra],
            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
        )
        line = self.proc.stdout.readline()
        if "listening on" not in line:
            self.stop()
            raise AssertionError(f"server did not start: {line!r} {self.proc.stderr.read()}")
        self.url = line.split("listening on ")[1].strip()

    def kill9(self) -> None:
        self.proc.send_signal(signal.SIGKILL)
        self.proc.wait(10)

    def stop(self) -> None:
        stop_process(self.proc)


@pytest.fixture
def servers(pg_url, tmp_path):
    started: list[ServerProcess] = []

    def start(n: int = 2, *extra: str) -> list[ServerProcess]:
        for i in range(n):
            started.append(ServerProcess(pg_url, tmp_path / f"p{len(started)}", *extra))
        return started[-n:]

    yield start
    for s in started:
        s.stop()


async def _client(url: str, name: str, token: str | None = None) -> PalastClient:
    c = await PalastClient.connect(url)
    c.keep_received = True
    await c.hello(name, token)
    return c


async def _pair(p1: ServerProcess, p2: ServerProcess):
    anna = await _client(p1.url, "Anna")
    bo = await _client(p2.url, "Bo")
    opened = await anna.open(suits=1, rules="classic", rounds=1, seats=2, private=True)
    await bo.join(code=opened["code"])
    await anna.start()
    ra = await anna.wait_for("round")
    rb = await bo.wait_for("round")
    return anna, bo, opened["table"], ra, rb


async def _play(c: PalastClient, position: str, n: int) -> tuple[dict, int]:
    """Play up to n moves by the hint; the last played answer and how many were accepted."""
    view, last, accepted = Game.from_text(position), None, 0
    for _ in range(n):
        move = view.hint()
        if move is None:
            break
        answer = await c.play(str(move))
        assert answer["type"] == "played", answer
        last, accepted = answer, accepted + 1
        view = Game.from_text(answer["position"])
    return last, accepted


def _actions(store_url_holder, table_id: int, name: str) -> list[tuple[int, str]]:
    return [(r[0], r[1]) for r in select_all(store_url_holder, (
        "SELECT a.seq, a.move FROM actions a JOIN players p ON p.id = a.player_id "
        f"WHERE a.table_id = {table_id} AND p.name = '{name}' ORDER BY a.seq"))]


class _Url:
    """What select_all needs to reach the database."""

    def __init__(self, url: str):
        self.url = url


async def test_kill_9_of_one_process_moves_its_players_to_the_other_with_nothing_lost(servers, pg_url):
    p1, p2 = servers(2)
    anna, bo, table, ra, rb = await _pair(p1, p2)
    last, n_anna = await _play(anna, ra["position"], 5)
    _, n_bo = await _play(bo, rb["position"], 3)
    await bo.wait_for("progress", player="Anna", moves=last["moves"], timeout=5)
    p1.kill9()
    await asyncio.wait_for(anna.closed.wait(), 10)
    # Anna reconnects (a load balancer would send her to the process that is left).
    again = await _client(p2.url, "Anna", anna.token)
    assert (await again.wait_for("joined"))["table"]["id"] == table["id"]
    resumed = await again.wait_for("round")
    assert resumed["position"] == last["position"] and resumed["ends_at"] == ra["ends_at"]
    more, n_more = await _play(again, resumed["position"], 2)
    assert more["moves"] == last["moves"] + n_more
    await bo.wait_for("progress", player="Anna", moves=more["moves"], timeout=5)
    # The round ends once, for both, on the process that is left.
    await again.play("give up")
    await bo.play("give up")
    for c in (again, bo):
        over = await c.wait_for("round_over", timeout=10)
        assert {s["player"]: s["moves"] for s in over["standings"]} == {"Anna": more["moves"], "Bo": n_bo}
        await c.wait_for("table_over", timeout=10)
    url = _Url(pg_url)
    assert [seq for seq, _ in _actions(url, table["id"], "Anna")] == list(range(1, n_anna + n_more + 2))
    assert len(select_all(url, f"SELECT 1 FROM results WHERE table_id = {table['id']}")) == 2
    await again.close()
    await bo.close()


async def test_a_postgresql_restart_mid_round_loses_no_accepted_action(servers, pg_url, pg_cluster: PgCluster):
    p1, p2 = servers(2)
    anna, bo, table, ra, rb = await _pair(p1, p2)
    last, accepted = await _play(anna, ra["position"], 3)
    await _play(bo, rb["position"], 2)
    await asyncio.to_thread(pg_cluster.restart, "fast")
    # Keep playing: an action the server could not write is refused (and changes nothing); every
    # accepted one is in the database.  Bounded in count and time.
    view = Game.from_text(last["position"])
    refused = 0
    async with asyncio.timeout(30):
        while accepted < 8:
            move = view.hint()
            assert move is not None
            answer = await anna.play(str(move))
            if answer["type"] == "refused":
                refused += 1
                assert refused < 50, answer
                await asyncio.sleep(0.2)
                continue
            accepted += 1
            last = answer
            view = Game.from_text(answer["position"])
    # Both processes are back on PostgreSQL: Bo, on the other process, sees Anna's latest move.
    await bo.wait_for("progress", player="Anna", moves=last["moves"], timeout=10)
    url = _Url(pg_url)
    assert [seq for seq, _ in _actions(url, table["id"], "Anna")] == list(range(1, accepted + 1))
    # Anna's position as the database has it is what she was last told.
    again = await _client(p2.url, "Anna", anna.token)
    assert (await again.wait_for("round"))["position"] == last["position"]
    await again.close()
    await anna.close()
    await bo.close()


async def test_the_players_of_a_killed_process_show_offline_to_the_others(servers):
    """Nobody says goodbye for a process killed with -9: the others stop hearing its heartbeat
    and, after three missed beats, show its players "offline" (SPEC §13) until they come back."""
    p1, p2 = servers(2, "--heartbeat-seconds", "0.3")
    anna, bo, table, ra, rb = await _pair(p1, p2)
    last, _ = await _play(anna, ra["position"], 2)
    seen = await bo.wait_for("progress", player="Anna", moves=last["moves"], timeout=5)
    assert seen["state"] == "playing"
    p1.kill9()
    offline = await bo.wait_for("progress", player="Anna", state="offline", timeout=10)
    assert offline["moves"] == last["moves"]
    # Back, through the process that is left: playing again for Bo.
    again = await _client(p2.url, "Anna", anna.token)
    await again.wait_for("round")
    await _play(again, last["position"], 1)
    back = await bo.wait_for("progress", player="Anna", state="playing", timeout=5)
    assert back["moves"] > last["moves"]
    await again.close()
    await bo.close()
