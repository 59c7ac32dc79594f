"""``spider web``'s limits (issue 29, item 8), against a real server on a loopback port: a Host it
doesn't serve (DNS rebinding), sessions at once with a "full" page, the terminal size clamped, idle
tabs closed."""

from __future__ import annotations

import asyncio
import os
from pathlib import Path

import aiohttp
import pytest

from spider_tui.web import MAX_HEIGHT, MAX_WIDTH, clamp_size, served_host

from .conftest import start_server
from .tabs import Tab


@pytest.mark.parametrize(("host", "public", "ok"), [
    ("127.0.0.1:8000", (), True), ("[::1]:8000", (), True), ("192.0.2.7", (), True),
    ("localhost:8000", (), True), ("LOCALHOST", (), True),
    ("evil.example:8000", (), False), ("evil.example", (), False), ("127.0.0.1.evil.example", (), False),
    ("spider.example:443", ("spider.example",), True), ("SPIDER.example.", ("spider.example",), True),
    ("other.example", ("spider.example",), False), ("", (), False), ("a b", (), False),
])
def test_served_host(host, public, ok):
    assert served_host(host, public) is ok


def test_clamp_size():
    assert clamp_size("1500", "1500") == (MAX_WIDTH, MAX_HEIGHT)
    assert clamp_size("100", "30") == (100, 30)
    assert clamp_size("-5", "0") == (1, 1)
    assert clamp_size("x", None) == (80, 24)
    assert clamp_size(10**100, 2.5) == (MAX_WIDTH, 2)


async def status_of(url: str, host: str | None = None, origin: str | None = None, ws: bool = False) -> int:
    headers = {}
    if host:
        headers["Host"] = host
    if origin:
        headers["Origin"] = origin
    async with aiohttp.ClientSession() as session:
        if ws:
            try:
                async with session.ws_connect(url.replace("http://", "ws://") + "ws", headers=headers):
                    return 101
            except aiohttp.WSServerHandshakeError as e:
                return e.status
        async with session.get(url, headers=headers) as r:
            return r.status


def children(pid: int) -> list[int]:
    out = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                stat = (entry / "stat").read_text()
            except OSError:
                continue
            if int(stat.rsplit(")", 1)[1].split()[1]) == pid:
                out.append(int(entry.name))
    return out


def tab_environments(pid: int) -> list[dict[str, str]]:
    """The environment of every app process under the server (the tabs' apps)."""
    found, todo = [], children(pid)
    while todo:
        p = todo.pop()
        todo.extend(children(p))
        try:
            raw = Path(f"/proc/{p}/environ").read_bytes()
            cmd = Path(f"/proc/{p}/cmdline").read_bytes()
        except OSError:
            continue
        if b"spider_tui.web_tab" in cmd:
            found.append(dict(x.split("=", 1) for x in raw.decode(errors="replace").split("\0") if "=" in x))
    return found


async def test_a_foreign_host_is_refused_and_starts_nothing(web_server):
    # What a DNS-rebinding page sends: its own name (now pointing here) as Host and Origin.
    evil = "evil.example:" + web_server.url.split(":")[2].rstrip("/")
    assert await status_of(web_server.url, host=evil) == 421
    assert await status_of(web_server.url, host=evil, origin=f"http://{evil}", ws=True) == 421
    assert tab_environments(web_server.process.pid) == []
    assert await status_of(web_server.url) == 200


def test_a_public_host_is_served(tmp_path):
    server = start_server(tmp_path / "data", "--public-host", "spider.example")
    try:
        assert asyncio.run(status_of(server.url, host="spider.example")) == 200
        assert asyncio.run(status_of(server.url, host="other.example")) == 421
    finally:
        assert server.stop() == 0


def test_sessions_are_capped_with_a_full_page(tmp_path):
    server = start_server(tmp_path / "data", "--max-sessions", "1")

    async def go() -> None:
        async with aiohttp.ClientSession() as session:
            tab = await Tab(session, server.url).open()
            await tab.wait_for("New game", timeout=60)
            async with session.get(server.url) as r:
                assert r.status == 503
                assert "full" in await r.text()
            assert await status_of(server.url, ws=True) == 503
            await tab.close()
            loop = asyncio.get_running_loop()
            end = loop.time() + 60
            while await status_of(server.url) != 200:  # the seat is free again once the tab is gone
                assert loop.time() < end
                await asyncio.sleep(0.1)

    try:
        asyncio.run(go())
    finally:
        assert server.stop() == 0


def test_a_huge_size_is_clamped(tmp_path):
    server = start_server(tmp_path / "data")

    async def go() -> list[dict[str, str]]:
        async with aiohttp.ClientSession() as session:
            ws = await session.ws_connect(server.url.replace("http://", "ws://") + "ws?width=1500&height=1500")
            await ws.receive(timeout=60)  # the app is up
            envs = tab_environments(server.process.pid)
            await ws.close()
            return envs

    try:
        envs = asyncio.run(go())
    finally:
        assert server.stop() == 0
    assert envs and all((e["COLUMNS"], e["ROWS"]) == (str(MAX_WIDTH), str(MAX_HEIGHT)) for e in envs)


def test_an_idle_tab_is_closed(tmp_path):
    server = start_server(tmp_path / "data", "--idle-minutes", "0.03")

    async def go() -> None:
        async with aiohttp.ClientSession() as session:
            tab = await Tab(session, server.url).open()
            await asyncio.wait_for(tab.closed.wait(), 120)  # no key for 1.8 s: closed by the server
            loop = asyncio.get_running_loop()
            end = loop.time() + 60
            while tab_environments(server.process.pid):  # and its app process ends (keeping its round)
                assert loop.time() < end, "the idle tab's app did not end"
                await asyncio.sleep(0.1)

    try:
        asyncio.run(go())
    finally:
        assert server.stop() == 0
    assert "Traceback" not in server.output()
