"""Issue 29 item 5 (SPEC §13): house bots can't multiply the server's CPU — at most
``--house-tables`` tables of house bots at once, no new bots for a person idle 60 s, and their
thinking off the event loop (a child process) under a CPU budget."""

from __future__ import annotations

import os

from tests.waiting import until


def _bot_tables(server) -> list:
    return [t for t in server.palast.tables.values() if any(s.bot for s in t.seats)]


def _bots(server) -> int:
    return sum(s.bot for t in server.palast.tables.values() for s in t.seats)


async def _standard(c) -> int:
    return next(t["id"] for t in await c.tables()
                if t["standard"] and t["state"] == "waiting" and len(t["players"]) < t["seats"])


async def test_idle_accounts_that_send_hello_and_join_dont_make_the_server_play_a_bot_each(palast_factory):
    # 60 accounts, each hello + join + nothing else, one after the other (each alone at the
    # standard table open then): the server seats bots at --house-tables tables (here 4), never
    # 3 bots for each of the 60 (the issue: 180 bots, CPU 1 % -> 92 %).
    palast = await palast_factory(house_bots_after=0.05, house_bot_pace=5, house_tables=4, round_seconds=600)
    house = palast.server.palast.house
    for n in range(60):
        c = await palast.player(f"Idle{n}", keep=False)
        tid = await _standard(c)
        await c.join(table=tid)
        # wait for the outcome of this join: bots at its table, or the cap reached
        await until(lambda: tid not in house._filling and (house.bot_tables() >= 4
                    or len(palast.server.palast.tables[tid].seats) > 1), timeout=30)
    assert len(_bot_tables(palast.server)) == 4 and _bots(palast.server) == 12
    # the people past the cap sit four to a table instead, with no bots
    people = [t for t in palast.server.palast.tables.values() if t.seats and not any(s.bot for s in t.seats)]
    assert sum(len(t.seats) for t in people) == 56


async def test_a_person_idle_for_the_idle_time_gets_no_new_bots_until_they_act(palast_factory):
    palast = await palast_factory(house_bots_after=0.05, house_bot_pace=5, house_idle_seconds=0.3)
    tables = palast.server.palast
    anna = await palast.player("Anna")
    tid = await _standard(anna)
    # Anna's join is her last action; the house looks only after she has been idle too long
    tables.house.after = 1.0
    await anna.join(table=tid)
    pid = next(s.player_id for s in tables.tables[tid].seats)
    # the outcome waited for: the house has seen her alone for longer than its wait, idle
    await until(lambda: tid in tables.house.alone_since and tables.clock() - tables.acted[pid] > 1.5, timeout=30)
    tables.house.check()
    assert not any(s.bot for s in tables.tables[tid].seats)  # idle: no bots
    await anna.tables()  # she acts: the bots come
    await until(lambda: any(s.bot for s in tables.tables[tid].seats), timeout=30)


async def test_house_bots_think_in_a_child_process_and_pay_their_cpu_from_the_budget(palast_factory):
    palast = await palast_factory(house_bots_after=0.05, house_bot_pace=0.01, round_seconds=600)
    house = palast.server.palast.house
    anna = await palast.player("Anna")
    await anna.join(table=await _standard(anna))
    await anna.wait_for("round", timeout=30)
    await until(lambda: house.cpu.spent > 0, timeout=60)  # a plan ran and paid its CPU time
    pool = house._pool
    assert pool is not None and type(pool).__name__ == "ProcessPoolExecutor"
    pids = {p.pid for p in getattr(pool, "_processes", {}).values()}
    assert pids and os.getpid() not in pids  # off the server's process, not only its event loop
