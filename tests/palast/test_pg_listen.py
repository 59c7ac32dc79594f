"""LISTEN/NOTIFY fan-out between processes: delivered after commit, survives a PostgreSQL restart."""

from __future__ import annotations

import asyncio

import psycopg
import pytest

from spider_tui.palast.server.db.pg_listen import MAX_PAYLOAD, PgListener, notify
from tests.pgcluster import PgCluster


async def _collect(url: str, channel: str = "palast") -> tuple[PgListener, list[str], asyncio.Event]:
    got: list[str] = []
    arrived = asyncio.Event()

    def on_message(payload: str) -> None:
        got.append(payload)
        arrived.set()

    listener = PgListener(url, channel, on_message)
    await listener.start()
    return listener, got, arrived


async def _wait_for(got: list[str], n: int, timeout: float = 10) -> None:
    async with asyncio.timeout(timeout):
        while len(got) < n:
            await asyncio.sleep(0.01)


async def test_notification_arrives_only_after_commit_in_commit_order(pg_url: str) -> None:
    listener, got, _ = await _collect(pg_url)
    try:
        async with await psycopg.AsyncConnection.connect(pg_url) as conn:
            await notify(conn, "palast", "first")
            await asyncio.sleep(0.2)
            assert got == []  # not committed yet
            await conn.commit()
            await notify(conn, "palast", "rolled back")
            await conn.rollback()
            await notify(conn, "palast", "second")
            await conn.commit()
        await _wait_for(got, 2)
        await asyncio.sleep(0.1)
        assert got == ["first", "second"]
    finally:
        await listener.close()


async def test_every_listening_process_gets_each_notification(pg_url: str) -> None:
    a, got_a, _ = await _collect(pg_url)
    b, got_b, _ = await _collect(pg_url)
    other, got_other, _ = await _collect(pg_url, channel="elsewhere")
    try:
        async with await psycopg.AsyncConnection.connect(pg_url, autocommit=True) as conn:
            for i in range(20):
                await notify(conn, "palast", f"move {i}")
        await _wait_for(got_a, 20)
        await _wait_for(got_b, 20)
        assert got_a == got_b == [f"move {i}" for i in range(20)]
        assert got_other == []
    finally:
        for listener in (a, b, other):
            await listener.close()


async def test_listener_reconnects_after_postgresql_restart(pg_cluster: PgCluster, pg_url: str) -> None:
    resynced = asyncio.Event()
    got: list[str] = []
    listener = PgListener(pg_url, "palast", got.append, on_reconnect=resynced.set, retry_max=0.2)
    await listener.start()
    try:
        await asyncio.to_thread(pg_cluster.restart, "immediate")
        async with asyncio.timeout(20):
            await resynced.wait()
        assert listener.listening and listener.reconnects == 1
        async with await psycopg.AsyncConnection.connect(pg_url, autocommit=True) as conn:
            await notify(conn, "palast", "after restart")
        await _wait_for(got, 1)
        assert got == ["after restart"]
    finally:
        await listener.close()


async def test_a_failing_handler_does_not_stop_the_listener(pg_url: str) -> None:
    got: list[str] = []

    def on_message(payload: str) -> None:
        if payload == "bad":
            raise ValueError("bad payload")
        got.append(payload)

    listener = PgListener(pg_url, "palast", on_message)
    await listener.start()
    try:
        async with await psycopg.AsyncConnection.connect(pg_url, autocommit=True) as conn:
            await notify(conn, "palast", "bad")
            await notify(conn, "palast", "good")
        await _wait_for(got, 1)
        assert got == ["good"]
    finally:
        await listener.close()


async def test_oversized_payload_is_refused_before_postgresql(pg_url: str) -> None:
    async with await psycopg.AsyncConnection.connect(pg_url, autocommit=True) as conn:
        with pytest.raises(ValueError, match="over"):
            await notify(conn, "palast", "x" * (MAX_PAYLOAD + 1))
