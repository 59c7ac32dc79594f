"""Seating a crowd side by side (issue 29 item 13, SPEC §13: 1,000 players on two processes,
every one seated): the bookkeeping of seats being written, and a crowd split over two server
processes on one PostgreSQL database."""

from __future__ import annotations

import asyncio

from spider_tui.palast.server.table import Seat, SeatsTaken

from .test_cluster import two_servers  # noqa: F401 - the fixture



def test_a_reading_that_began_before_a_seat_was_written_keeps_it():
    taken = SeatsTaken()
    before = taken.gen  # a reading of the seats begins …
    s = taken.written(Seat(7, "Ann"))  # … a seat is written meanwhile …
    assert taken.after(before, read={1, 2}) == [s]  # … and the reading, which missed it, keeps it


def test_a_reading_that_saw_the_seat_or_began_after_it_drops_it():
    taken = SeatsTaken()
    s = taken.written(Seat(7, "Ann"))
    gen = taken.gen
    assert taken.after(gen - 1, read={7}) == []  # the reading has it: nothing to add, forgotten
    assert taken.after(gen - 1, read=set()) == []
    taken.written(s)
    later = taken.gen
    # A reading that began after the seat was written and doesn't have it: the player left.
    assert taken.after(later, read=set()) == []


async def test_a_crowd_split_over_two_processes_is_seated_at_most_four_to_a_table(two_servers):
    a, b = await two_servers()
    players = [await (a if i % 2 else b).player(f"Split{i}", keep=False) for i in range(32)]
    std = next(x for x in await players[0].tables() if x["standard"])
    joined = await asyncio.gather(*(p.join(table=std["id"]) for p in players))
    assert all(j["type"] == "joined" for j in joined)
    tables: dict[int, set[str]] = {}
    for j in joined:  # every answer names the table and its players as the database holds them
        tables.setdefault(j["table"]["id"], set()).update(j["table"]["players"])
    assert sorted(n for names in tables.values() for n in names) == sorted(f"Split{i}" for i in range(32))
    assert all(len(names) <= 4 for names in tables.values())
