"""The attacks of issue 20 in their short form (SPEC §13 Fair play): the hello gate, the limits
per address and per player, the registration and open-table limits.  The long floods with an
honest player's latency measured alongside are in ``bench/attacks.py``.

Every client here connects to 127.0.0.1; addresses are told apart the way a server behind a
reverse proxy does it (``Limits.forwarded``: the address is the last one in X-Forwarded-For).
"""

from __future__ import annotations

import asyncio
import json
import time

import pytest

from spider_tui.palast.server import server as server_module
from spider_tui.palast.client.client import PalastClient
from spider_tui.palast.server.server import Limits

HELLO = {"type": "hello", "protocol": 1, "token": None}


def wide(**kw) -> Limits:
    """Generous limits but for those a test names; addresses from X-Forwarded-For."""
    base = dict(rate=5000, burst=5000, address_rate=5000, address_burst=5000, per_address=1000, names=1000,
                tables=1000, forwarded=True)
    base.update(kw)
    return Limits(**base)


async def connect(palast, address: str = "198.51.100.1") -> PalastClient:
    c = await PalastClient.connect(palast.url, additional_headers={"X-Forwarded-For": address})
    c.keep_received = True
    palast.clients.append(c)
    return c


async def player(palast, name: str, address: str = "198.51.100.1", token: str | None = None) -> PalastClient:
    c = await connect(palast, address)
    await c.hello(name, token)
    return c


async def turned_away(palast, address: str, status: int) -> str:
    """Connect from ``address`` expecting an HTTP refusal before the handshake; its text."""
    from websockets.exceptions import InvalidStatus

    with pytest.raises(InvalidStatus) as e:
        await connect(palast, address)
    assert e.value.response.status_code == status
    return e.value.response.body.decode()


async def test_the_app_shows_why_it_was_turned_away(palast_factory):
    from spider_tui.palast.client.session import PalastError, sign_in

    palast = await palast_factory(limits=wide(connections=1))
    await player(palast, "First")
    with pytest.raises(PalastError, match="The server is full"):
        await sign_in(palast.url, "Second", None)


async def closed_with(c: PalastClient, words: str) -> dict:
    await asyncio.wait_for(c.closed.wait(), 10)
    errors = [m for m in c.received if m["type"] == "error"]
    assert errors and words in errors[-1]["reason"], c.received
    return errors[-1]


# ---------------------------------------------------------------- item 3: the hello gate
async def test_before_hello_one_anonymous_league_then_only_hello(palast):
    c = await palast.raw()
    assert (await c.request("league"))["type"] == "league"  # `spider league`: one answer
    await c.send_raw(json.dumps({"type": "league", "id": 2}))
    err = await c.next_event(timeout=10)
    assert err["type"] == "error" and "hello" in err["reason"] and err["id"] == 2
    await asyncio.wait_for(c.closed.wait(), 10)


async def test_the_hello_deadline_is_not_moved_by_other_messages(palast, monkeypatch):
    monkeypatch.setattr(server_module, "HELLO_SECONDS", 2.0)
    c = await palast.raw()
    t0 = time.monotonic()
    await asyncio.sleep(1.5)
    assert (await c.request("league"))["type"] == "league"
    await asyncio.wait_for(c.closed.wait(), 10)
    # The deadline stood at 2 s from connecting; a reset one would close it 3.5 s after.
    assert time.monotonic() - t0 < 3.0
    assert "Say hello first" in c.received[-1]["reason"]


async def test_connections_per_address_are_capped_and_others_still_get_in(palast_factory):
    palast = await palast_factory(limits=wide(per_address=4, connections=12))
    back = await player(palast, "Returning", "192.0.2.9")
    token = back.token
    await back.close()
    flood = [await connect(palast, "203.0.113.7") for _ in range(4)]
    # Turned away before the WebSocket handshake, with the reason (the app shows it).
    assert "Too many connections from your address" in await turned_away(palast, "203.0.113.7", 429)
    # The flooder's connections that never say hello don't fill the server for anyone else.
    for _ in range(10):
        await turned_away(palast, "203.0.113.7", 429)
    newcomer = await player(palast, "Newcomer", "192.0.2.10")
    again = await player(palast, "Returning", "192.0.2.9", token)
    assert again.name == "Returning"
    assert (await newcomer.request("tables"))["type"] == "tables"
    assert not any(c.closed.is_set() for c in flood)


async def test_a_failed_hello_echoes_its_id(palast):
    c = await palast.raw()
    await c.send_raw(json.dumps({"type": "hello", "protocol": 1, "name": "a;b", "token": None, "id": 7}))
    err = await c.next_event(timeout=10)
    assert err["type"] == "error" and err["id"] == 7


# ---------------------------------------------------------------- item 5: rate limits
async def test_the_burst_after_hello_is_exactly_50(palast_factory):
    palast = await palast_factory(limits=wide(rate=0.01, burst=50))
    c = await player(palast, "Burst")
    for _ in range(60):
        await c.send_raw('{"type": "tables"}')
    await closed_with(c, "Too many messages")
    assert sum(m["type"] == "tables" for m in c.received) == 50


async def test_a_reconnect_does_not_refill_the_player_bucket(palast_factory):
    palast = await palast_factory(limits=wide(rate=0.01, burst=50))
    c = await player(palast, "Again")
    answers = await asyncio.gather(*(c.request("tables") for _ in range(50)))
    assert all(a["type"] == "tables" for a in answers)
    token = c.token
    await c.close()
    # Signed in again (a new connection, another address even): the bucket is the player's.
    d = await player(palast, "Again", "198.51.100.99", token)
    await d.send_raw('{"type": "tables", "id": 77}')
    assert (await closed_with(d, "Too many messages"))["id"] == 77  # the waiting request hears why
    assert not any(m["type"] == "tables" for m in d.received)


async def test_players_of_one_address_share_its_bucket(palast_factory):
    palast = await palast_factory(limits=wide(rate=0.01, burst=50, address_rate=0.01, address_burst=62))
    a = await player(palast, "SameA", "203.0.113.5")  # hello: 1 of the address's 62
    b = await player(palast, "SameB", "203.0.113.5")  # 2
    other = await player(palast, "Elsewhere", "192.0.2.50")
    assert all(x["type"] == "tables" for x in await asyncio.gather(*(a.request("tables") for _ in range(40))))
    for _ in range(40):
        await b.send_raw('{"type": "tables"}')
    await closed_with(b, "Too many messages")
    assert sum(m["type"] == "tables" for m in b.received) == 20
    assert all(x["type"] == "tables" for x in await asyncio.gather(*(other.request("tables") for _ in range(40))))


async def test_the_default_limits_are_at_least_specs():
    lim = Limits()
    assert lim.rate >= 20 and lim.burst == 50
    assert lim.address_rate >= lim.rate and lim.address_burst >= lim.burst
    assert lim.per_address >= 8 and lim.names >= 8 and lim.tables >= 4  # a family shares an address


@pytest.mark.slow
async def test_a_long_reconnect_flood_stays_near_the_rate(palast_factory):
    """The reported attack: 60 messages, sign in again, repeat (1,044 answers a second before).
    Over 4 s at 30/s with a burst of 50 at most 50 + 4·30 = 170 answers (+ a little slack)."""
    palast = await palast_factory(limits=wide(rate=30, burst=50))
    c = await player(palast, "Hammer")
    token = c.token
    answered = 0
    t0 = time.monotonic()
    while time.monotonic() - t0 < 4:
        for _ in range(60):
            await c.send_raw('{"type": "tables"}')
        await asyncio.wait_for(c.closed.wait(), 10)
        answered += sum(m["type"] == "tables" for m in c.received)
        c = await player(palast, "Hammer", token=token)
    elapsed = time.monotonic() - t0
    assert answered <= 50 + 30 * elapsed + 10


# ---------------------------------------------------------------- item 4: bounded answers
def test_the_outbox_counts_the_message_being_queued():
    """A message that would take the unread bytes past the limit is not queued: the reader is dropped."""
    from types import SimpleNamespace

    from websockets.protocol import State

    from spider_tui.palast.server.server import WRITE_LIMIT, Outbox

    aborted = []
    transport = SimpleNamespace(get_write_buffer_size=lambda: WRITE_LIMIT - 100, abort=lambda: aborted.append(1))
    ws = SimpleNamespace(protocol=SimpleNamespace(state=State.OPEN), transport=transport, send_in_progress=None)
    out = Outbox(ws)  # type: ignore[arg-type]
    out.send({"type": "tables", "tables": ["x" * 300]})
    assert out.dropped and aborted == [1]


class Wire:
    """A transport that keeps what is written to it, one entry a write."""

    def __init__(self) -> None:
        self.writes: list[bytes] = []

    def write(self, data: bytes) -> None:
        self.writes.append(data)

    def get_write_buffer_size(self) -> int:
        return 0

    def is_closing(self) -> bool:
        return False


def frames_of(data: bytes) -> list[str]:
    """The text messages in what a server wrote, read by websockets' own client side."""
    from websockets.protocol import CLIENT, Protocol

    client = Protocol(CLIENT)  # open from the start, as after the handshake
    client.receive_data(data)
    return [frame.data.decode() for frame in client.events_received()]


async def test_the_messages_of_one_loop_turn_leave_in_one_write():
    """SPEC §13's CPU budget: what one action tells a connection is framed in order and
    written once, at the end of the loop turn, not one system call a message."""
    from types import SimpleNamespace

    from websockets.protocol import SERVER, Protocol

    from spider_tui.palast.server.server import Outbox

    protocol = Protocol(SERVER)  # open from the start, as after the handshake
    wire = Wire()
    out = Outbox(SimpleNamespace(protocol=protocol, transport=wire, send_in_progress=None))  # type: ignore[arg-type]
    texts = ['{"type":"played","n":1}', '{"type":"progress","n":2}', '{"type":"round_over","n":3}']
    for text in texts:
        out.send(text)
    assert wire.writes == []  # nothing written inside the turn
    await asyncio.sleep(0)
    assert len(wire.writes) == 1 and out.writes == 1
    assert frames_of(wire.writes[0]) == texts
    out.send(texts[0])  # the next turn: its own write
    await asyncio.sleep(0)
    assert len(wire.writes) == 2 and frames_of(wire.writes[1]) == texts[:1]


async def test_the_lobby_comes_in_pages_with_the_own_table_first(palast):
    from spider_tui.palast.server.lobby import TABLES_PAGE

    hosts = [await palast.player(f"Host{i}", keep=False) for i in range(TABLES_PAGE + 5)]
    for h in hosts:
        await h.open(suits=1, rules="classic", rounds=1, seats=2, private=False)
    last = hosts[-1]
    first = await last.request("tables")
    assert len(first["tables"]) == TABLES_PAGE and first["pages"] == 2 and first["total"] == TABLES_PAGE + 6
    assert first["tables"][0]["host"] == last.name  # the asker's own table first
    second = await last.request("tables", page=1)
    assert second["page"] == 1 and len(second["tables"]) == 6
    ids = [t["id"] for t in first["tables"] + second["tables"]]
    assert len(set(ids)) == TABLES_PAGE + 6
    assert len(json.dumps(first)) < 32 * 1024
    # The app's lobby: the first page, and how many there are.
    from spider_tui.palast.client.session import PalastSession

    session = PalastSession(palast.url, "Browser")
    await session.start()
    try:
        assert len(session.tables) == TABLES_PAGE and session.tables_total == TABLES_PAGE + 6
    finally:
        await session.close()


async def test_the_league_is_the_top_n_and_the_askers_own_row(palast_factory, db_url):
    from spider_tui.palast.server.lobby import LEAGUE_TOP

    palast = await palast_factory()
    players = [await palast.player(f"Ranked{i:02}", keep=False) for i in range(LEAGUE_TOP + 10)]
    _execute(palast.server.store, "UPDATE players SET experience = 1000 - id")
    low = players[-1]
    answer = await low.request("league")
    assert len(answer["players"]) == LEAGUE_TOP and answer["total"] == LEAGUE_TOP + 10
    assert [p["place"] for p in answer["players"]] == list(range(1, LEAGUE_TOP + 1))
    assert answer["me"]["name"] == low.name and answer["me"]["place"] == LEAGUE_TOP + 10
    anonymous = await palast.raw()
    anon = await anonymous.request("league")
    assert len(anon["players"]) == LEAGUE_TOP and anon["me"] is None
    # `spider league` prints the top N and says how many there are.
    import contextlib
    import io

    from spider_tui.palast.cli import cmd_league

    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        assert await asyncio.to_thread(cmd_league, ["--server", palast.url]) == 0
    assert f"The best {LEAGUE_TOP} of {LEAGUE_TOP + 10} players." in out.getvalue()


def _execute(store, sql: str) -> None:
    if hasattr(store, "path"):
        import sqlite3

        with sqlite3.connect(store.path) as db:
            db.execute(sql)
        return
    import psycopg

    with psycopg.connect(store.url) as db:
        db.execute(sql)


async def test_a_table_that_waits_too_long_closes(palast_factory):
    from .conftest import select_all

    palast = await palast_factory(waiting_seconds=1.0)
    host = await palast.player("Patient")
    guest = await palast.player("Guest")
    t = (await host.open(suits=1, rules="classic", rounds=1, seats=3, private=False))["table"]
    await guest.join(table=t["id"])
    closed = await host.wait_for("closed", timeout=10)
    assert closed["table"] == t["id"] and "10 minutes" not in closed["reason"]  # says the real wait
    assert (await guest.wait_for("closed", timeout=10))["table"] == t["id"]
    assert t["id"] not in {x["id"] for x in await host.tables()}
    assert select_all(palast.server.store, f"SELECT id FROM tables WHERE id = {t['id']}") == []
    again = await host.open(suits=1, rules="classic", rounds=1, seats=2, private=False)  # seated nowhere now
    assert again["table"]["players"] == ["Patient"]


async def test_open_and_leave_leaves_no_table_row_behind(palast):
    from .conftest import select_all

    a = await palast.player("Fickle")
    for _ in range(3):
        t = (await a.open(suits=1, rules="classic", rounds=1, seats=2, private=False))["table"]
        await a.leave()
    assert select_all(palast.server.store, "SELECT id FROM tables WHERE standard = 0") == []
    assert t["id"] not in {x["id"] for x in await a.tables()}


async def test_open_tables_per_address_are_limited(palast_factory):
    palast = await palast_factory(limits=wide(tables=2))
    a, b, c = [await player(palast, n, "203.0.113.20") for n in ("OpenA", "OpenB", "OpenC")]
    await a.open(suits=1, rules="classic", rounds=1, seats=2, private=False)
    await b.open(suits=1, rules="classic", rounds=1, seats=2, private=True)
    ans = await c.request("open", check=False, suits=1, rules="classic", rounds=1, seats=2, private=False)
    assert ans["type"] == "refused" and "waiting" in ans["reason"]
    await a.leave()  # one closes: the address may open one again
    assert (await c.open(suits=1, rules="classic", rounds=1, seats=2, private=False))["type"] == "joined"
    elsewhere = await player(palast, "OpenD", "192.0.2.21")
    assert (await elsewhere.open(suits=1, rules="classic", rounds=1, seats=2, private=False))["type"] == "joined"


async def test_open_tables_per_network_are_limited_to_8_times_an_address(palast_factory):
    """SPEC §13: a whole IPv4 /24 (or IPv6 /48) counts together against 8 × the per-address limit,
    so one machine with many addresses can't open tables without end; another /24 still may."""
    palast = await palast_factory(limits=wide(tables=1))
    for i in range(8):  # eight addresses of one /24, each within its own limit of one
        host = await player(palast, f"Net{i}", f"203.0.113.{40 + i}")
        assert (await host.open(suits=1, rules="classic", rounds=1, seats=2, private=False))["type"] == "joined"
    ninth = await player(palast, "Net8", "203.0.113.48")
    ans = await ninth.request("open", check=False, suits=1, rules="classic", rounds=1, seats=2, private=False)
    assert ans["type"] == "refused" and ans["code"] == "too_many" and "network" in ans["reason"]
    v6 = [await player(palast, f"Six{i}", f"2001:db8:7:{i}::1") for i in range(9)]  # nine /64s of one /48
    for c in v6[:8]:
        assert (await c.open(suits=1, rules="classic", rounds=1, seats=2, private=False))["type"] == "joined"
    ans = await v6[8].request("open", check=False, suits=1, rules="classic", rounds=1, seats=2, private=False)
    assert ans["type"] == "refused" and ans["code"] == "too_many"
    other = await player(palast, "Elsewhere", "198.51.100.77")
    assert (await other.open(suits=1, rules="classic", rounds=1, seats=2, private=False))["type"] == "joined"


async def test_new_names_per_address_are_limited(palast_factory):
    palast = await palast_factory(limits=wide(names=3))
    made = [await player(palast, f"Fresh{i}", "203.0.113.30") for i in range(3)]
    c = await connect(palast, "203.0.113.30")
    await c.send_raw(json.dumps({**HELLO, "name": "Fresh3", "id": 1}))
    err = await c.next_event(timeout=10)
    assert err["type"] == "error" and "Too many new names" in err["reason"] and err["id"] == 1
    back = await player(palast, "Fresh0", "203.0.113.30", made[0].token)  # signing in is not limited
    assert back.name == "Fresh0"
    assert (await player(palast, "Fresh3", "192.0.2.31")).name == "Fresh3"


# ---------------------------------------------------------------- item 10: names
@pytest.mark.parametrize("look_alike", [
    "\u0410nna",  # Cyrillic А
    "\u0391nna",  # Greek Α
    "\uff21\uff4e\uff4e\uff41",  # fullwidth
    "\U0001d400\U0001d427\U0001d427\U0001d41a",  # mathematical bold
    "ANNA",
    "\u0430nna",  # Cyrillic а, lower case
])
async def test_a_look_alike_of_a_registered_name_is_refused(palast, look_alike):
    await palast.player("Anna")
    c = await palast.raw()
    await c.send_raw(json.dumps({**HELLO, "name": look_alike, "id": 3}))
    err = await c.next_event(timeout=10)
    assert err["type"] == "error" and "taken" in err["reason"] and err["id"] == 3, err


@pytest.mark.parametrize("name, reason", [
    ("Anna\u3164", "invisible or filler"),  # Hangul filler
    ("An\u115fna", "invisible or filler"),
    ("Anna\uffa0", "invisible or filler"),
    ("\u738b" * 9, "columns wide"),  # 9 CJK letters: 18 columns
    ("３>７", "only letters"),
])
async def test_names_that_hide_or_overflow_are_refused(palast, name, reason):
    c = await palast.raw()
    await c.send_raw(json.dumps({**HELLO, "name": name}))
    err = await c.next_event(timeout=10)
    assert err["type"] == "error" and reason in err["reason"], err


async def test_names_are_stored_nfkc_and_sign_in_by_either_form(palast):
    a = await palast.player("\uff21\uff4c\uff49")  # Ａｌｉ
    assert a.name == "Ali"
    back = await palast.player("\uff21\uff4c\uff49", a.token)
    assert back.name == "Ali"
    wide_name = await palast.player("\u738b" * 8)  # 16 columns: allowed
    assert wide_name.name == "\u738b" * 8


async def test_skeletons_are_unique_in_the_database_itself(palast):
    """The unique index refuses a look-alike whatever the caller checked."""
    from spider_tui.palast.server.server import token_hash

    store = palast.server.store
    assert await store.register("Bob", token_hash("x"), 0.0) is not None
    assert await store.register("B\u043eb", token_hash("y"), 0.0) is None  # Cyrillic о
    with pytest.raises(Exception):
        _execute(store, "INSERT INTO players (name, name_key, skeleton, token_hash, created) "
                        "VALUES ('Bob2', 'bob2', 'bob', 'h', 0)")


def test_an_old_sqlite_database_gets_skeletons_oldest_first(tmp_path):
    """Migration: a database made before skeletons gets them; a later look-alike keeps NULL and
    still signs in, and no new look-alike can register."""
    import asyncio as aio
    import sqlite3

    from spider_tui.palast.server.db.sqlite import SqliteStore
    from spider_tui.palast.server.server import token_hash

    path = tmp_path / "old.sqlite3"
    with sqlite3.connect(path) as db:
        db.execute("CREATE TABLE players (id INTEGER PRIMARY KEY, name TEXT NOT NULL, name_key TEXT NOT NULL UNIQUE, "
                   "token_hash TEXT NOT NULL, created DOUBLE PRECISION NOT NULL, rating_mu DOUBLE PRECISION, "
                   "rating_sigma DOUBLE PRECISION, tables INTEGER NOT NULL DEFAULT 0, wins INTEGER NOT NULL DEFAULT 0, "
                   "experience INTEGER NOT NULL DEFAULT 0)")
        db.execute("INSERT INTO players (name, name_key, token_hash, created) VALUES ('Anna', 'anna', 'h1', 0)")
        db.execute("INSERT INTO players (name, name_key, token_hash, created) VALUES ('\u0410nna', '\u0430nna', 'h2', 1)")

    async def go() -> None:
        store = SqliteStore(path)
        await store.open()
        try:
            assert (await store.player_by_name("\u0410nna")).token_hash == "h2"
            assert await store.register("\u0391nna", token_hash("z"), 2.0) is None
        finally:
            await store.close()

    aio.run(go())
    with sqlite3.connect(path) as db:
        assert db.execute("SELECT name, skeleton FROM players ORDER BY id").fetchall() == [("Anna", "anna"), ("\u0410nna", None)]


# ---------------------------------------------------------------- item 12: smaller
@pytest.mark.parametrize("version", [1.0, True, "1"])
async def test_protocol_must_be_the_whole_number_1(palast, version):
    c = await palast.raw()
    await c.send_raw(json.dumps({**HELLO, "protocol": version, "name": "Pedant", "id": 9}))
    err = await c.next_event(timeout=10)
    assert err["type"] == "error" and "protocol 1" in err["reason"] and err["id"] == 9
    await asyncio.wait_for(c.closed.wait(), 10)


async def test_fullwidth_digits_are_not_read_as_a_move(palast):
    a = await palast.player("Wide")
    b = await palast.player("Narrow")
    t = (await a.open(suits=1, rules="classic", rounds=1, seats=2, private=False))["table"]
    await b.join(table=t["id"])
    await a.start()
    await a.wait_for("round")
    for move in ("\uff13>\uff17", "\u0663>\u0667", "de\u0430l"):  # fullwidth, Arabic-Indic digits, Cyrillic а
        ans = await a.play(move)
        assert ans["type"] == "refused" and "plain digits" in ans["reason"], ans
    assert (await a.play("deal"))["moves"] == 1  # nothing changed before


async def test_binary_frames_are_refused(palast):
    c = await palast.player("Bytes")
    await c.send_raw(b'{"type": "tables", "id": 4}')
    ans = await c.next_event(timeout=10)
    assert ans["type"] == "refused" and "Binary" in ans["reason"]
    raw = await palast.raw()
    await raw.send_raw(json.dumps({**HELLO, "name": "Bin"}).encode())
    err = await raw.next_event(timeout=10)
    assert err["type"] == "error" and "Binary" in err["reason"]


async def test_ipv6_addresses_count_by_their_64(palast_factory):
    palast = await palast_factory(limits=wide(per_address=2))
    held = [await connect(palast, "2001:db8:5:6::1"), await connect(palast, "2001:db8:5:6::abcd")]
    assert "Too many connections" in await turned_away(palast, "2001:db8:5:6:ffff::9", 429)
    other = await player(palast, "V6", "2001:db8:5:7::1")
    assert other.name == "V6" and not any(c.closed.is_set() for c in held)


async def test_an_old_postgresql_database_gets_skeletons_oldest_first(pg_url):
    """Migration on PostgreSQL: a database at schema version 1 (before skeletons and deal codes,
    ``schema_v1.sql`` as it was) gets the skeleton column and its unique index; the older of two
    look-alikes keeps its skeleton, the later one NULL (it still signs in); no new look-alike."""
    import re
    from pathlib import Path

    import psycopg

    from spider_tui.palast.server.db.postgres import PostgresStore
    from spider_tui.palast.server.server import token_hash

    old = (Path(__file__).parent / "schema_v1.sql").read_text()
    old = re.sub(r"\bid INTEGER PRIMARY KEY\b", "id BIGINT GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY", old)
    with psycopg.connect(pg_url, autocommit=True) as db:
        db.execute(old)
        db.execute("CREATE TABLE palast_schema (version INTEGER NOT NULL PRIMARY KEY, applied DOUBLE PRECISION NOT NULL)")
        db.execute("INSERT INTO palast_schema VALUES (1, 0)")
        db.execute("INSERT INTO players (name, name_key, token_hash, created) VALUES ('Anna', 'anna', 'h1', 0)")
        db.execute("INSERT INTO players (name, name_key, token_hash, created) VALUES ('\u0410nna', '\u0430nna', 'h2', 1)")
    store = PostgresStore(pg_url)
    await store.open()
    try:
        assert (await store.player_by_name("\u0410nna")).token_hash == "h2"
        assert await store.register("\u0391nna", token_hash("z"), 2.0) is None
        assert await store.register("Berta", token_hash("b"), 3.0) is not None
    finally:
        await store.close()
    with psycopg.connect(pg_url) as db:
        rows = db.execute("SELECT name, skeleton FROM players ORDER BY id").fetchall()
    assert rows == [("Anna", "anna"), ("\u0410nna", None), ("Berta", "berta")]


async def test_the_league_board_shares_its_top_rows_and_finds_the_asker_by_name(palast_factory):
    # Many ask for the league (issue 29 item 14): an answer is a lookup, not a read and a sort.
    from spider_tui.palast.server.lobby import LEAGUE_TOP

    palast = await palast_factory()
    players = [await palast.player(f"Board{i:02}", keep=False) for i in range(LEAGUE_TOP + 3)]
    _execute(palast.server.store, "UPDATE players SET experience = 1000 - id")
    board = palast.server.palast.league_board
    first, second = await board.answer(players[-1].name.upper()), await board.answer(None)
    assert first.players is second.players  # one list, encoded once
    assert first.me is not None and first.me.name == players[-1].name and first.me.place == LEAGUE_TOP + 3
    assert second.me is None and [p.place for p in second.players] == list(range(1, LEAGUE_TOP + 1))
    board.changed()  # a table ended: the next answer reads the league again
    _execute(palast.server.store, "UPDATE players SET experience = id")
    again = await board.answer(None)
    assert again.players is not first.players and again.players[0].name == players[-1].name


async def test_askers_at_once_share_one_league_read_and_a_change_meanwhile_is_not_lost(tmp_path):
    from spider_tui.palast.server.db import PlayerRow
    from spider_tui.palast.server.league_board import LeagueBoard

    class Store:  # a league read that takes a while, as under load
        reads = 0
        gate: asyncio.Event

        async def league(self):
            Store.reads += 1
            await self.gate.wait()
            return [PlayerRow(1, f"P{Store.reads}", "h", 25.0, 2.0, 3, 1, 10, False)]

    store = Store()
    store.gate = asyncio.Event()
    board = LeagueBoard(store)  # type: ignore[arg-type]
    asks = [asyncio.ensure_future(board.answer(None)) for _ in range(30)]
    while Store.reads == 0:  # the read has begun
        await asyncio.sleep(0)
    board.changed()  # a table ends while the read runs
    store.gate.set()
    answers = await asyncio.gather(*asks)
    assert Store.reads == 1 and {a.players[0].name for a in answers} == {"P1"}
    assert (await board.answer(None)).players[0].name == "P2"  # read again: the change came after the first began
    assert (await board.answer(None)).players[0].name == "P2" and Store.reads == 2  # now fresh
