"""A real Palast server on a free loopback port, with short clocks (no mocks)."""

from __future__ import annotations

import random

import pytest

from spider_tui.palast.client.client import PalastClient
from spider_tui.palast.client.session import PalastSession
from spider_tui.palast.server.db import open_store
from spider_tui.palast.server.pg_broker import PgBroker
from spider_tui.palast.server.server import Limits, PalastServer
from spider_tui.palast.server.table import Options


class Palast:
    """The running server and helpers to sign players in."""

    def __init__(self, server: PalastServer):
        self.server = server
        self.url = f"ws://127.0.0.1:{server.port}"
        self.clients: list[PalastClient] = []

    async def player(self, name: str, token: str | None = None, keep: bool = True) -> PalastClient:
        c = await PalastClient.connect(self.url)
        c.keep_received = keep
        self.clients.append(c)
        await c.hello(name, token)
        return c

    async def raw(self) -> PalastClient:
        c = await PalastClient.connect(self.url)
        c.keep_received = True
        self.clients.append(c)
        return c


#: The bytes of deal code p-iwygzbdzjwblunbm7bnbdqrtni: its first hint is a move (not the deal)
#: and the hint solves it at 1 suit in 107 moves (score 777 with the bonus; 782 before a join paid once per card).
HINT_SOLVES = bytes.fromhex("45b06c84794d82ba342cf85a11c2336a")


def make_options(**kw) -> Options:
    """Short clocks; deal codes' bytes drawn from a seeded generator, so a failing test fails
    again the same way (a test that needs a particular deal passes ``draw``)."""
    deals = random.Random(20261130)
    base = dict(round_seconds=600, fast_seconds=300, between_seconds=30, start_wait=30, progress_delay=0.05,
                draw=lambda: deals.randbytes(16), house_bots_after=None)  # house bots: where a test asks
    base.update(kw)
    return Options(**base)


def select_all(store, sql: str) -> list[tuple]:
    """Rows of a query straight from the store's database (SQLite file or PostgreSQL)."""
    if hasattr(store, "path"):
        import sqlite3

        with sqlite3.connect(store.path) as db:
            return db.execute(sql).fetchall()
    import psycopg

    with psycopg.connect(store.url) as db:
        return db.execute(sql).fetchall()


@pytest.fixture(params=["sqlite", "postgresql"])
def db_url(request, tmp_path) -> str:
    """Every server test runs on both stores: an SQLite file, and a fresh PostgreSQL database."""
    if request.param == "sqlite":
        return str(tmp_path / "palast.sqlite3")
    return request.getfixturevalue("pg_url")


@pytest.fixture
async def palast_factory(tmp_path, db_url):
    started: list[Palast] = []

    async def make(rate: float = 5000, burst: float = 5000, limits: Limits | None = None, **options) -> Palast:
        """A server; its limits are generous (every test player comes from 127.0.0.1) unless
        ``limits`` are given."""
        broker = PgBroker(db_url) if db_url.startswith("postgresql:") else None  # as `spider server --db`
        if limits is None:
            limits = Limits(rate=rate, burst=burst, address_rate=5000, address_burst=5000, per_address=1000,
                            names=1000, tables=1000)
        server = PalastServer(open_store(db_url, tmp_path), "127.0.0.1", 0, options=make_options(**options),
                              broker=broker, limits=limits)
        await server.start()
        p = Palast(server)
        started.append(p)
        return p

    yield make
    for p in started:
        for c in p.clients:
            await c.close()
        await p.server.stop()


@pytest.fixture
async def palast(palast_factory):
    return await palast_factory()


@pytest.fixture
async def sessions():
    """``make(url, name, token=None)``: a started ``PalastSession``; all closed at the end."""
    made: list[PalastSession] = []

    async def make(url: str, name: str, token: str | None = None) -> PalastSession:
        s = PalastSession(url, name, token)
        await s.start()
        made.append(s)
        return s

    yield make
    for s in made:
        await s.close()
