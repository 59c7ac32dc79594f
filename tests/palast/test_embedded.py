"""SPEC §13 "the embedded Palast" (issue 20 item 9): with no server to reach, the app offers to
play here: a Palast on 127.0.0.1 (a free port), its SQLite file in the data dir, house bots,
stopped with the app."""

from __future__ import annotations

import asyncio
import random
from datetime import date

from spider_tui.palast.client.client import PalastClient
from spider_tui.palast.embedded import DB_FILE, LOGIN_KEY, EmbeddedPalast
from spider_tui.store import SaveFile
from spider_tui.store.palast import last_server, server_login
from spider_tui.ui.app import SpiderApp
from spider_tui.ui.palast.connect import ConnectScreen, PlayHere
from spider_tui.ui.palast.lobby import PalastScreen
from spider_tui.ui_launch import Launch


async def test_the_embedded_palast_seats_house_bots_on_loopback_and_stops(tmp_path):
    here = EmbeddedPalast(tmp_path, house_bots_after=0.3)
    url = await asyncio.to_thread(here.start)
    proc = here.proc
    try:
        assert url.startswith("ws://127.0.0.1:") and (tmp_path / DB_FILE).exists()
        c = await PalastClient.connect(url)
        c.keep_received = True
        await c.hello("Anna", None)
        standard = next(t for t in await c.tables() if t["standard"])
        await c.join(table=standard["id"])
        r = await c.wait_for("round", timeout=30)
        table = next(m for m in reversed(c.received) if m["type"] == "table")["table"]
        assert r["table"] == standard["id"] and sum(1 for s in table["seated"] if s.get("bot")) == 3
        await c.close()
    finally:
        await asyncio.to_thread(here.stop)
    assert proc is not None and proc.poll() is not None  # stopped


async def test_an_unreachable_server_offers_to_play_here(tmp_path, monkeypatch):
    d = tmp_path / "data"
    monkeypatch.setenv("SPIDER_DATA_DIR", str(d))
    app = SpiderApp(SaveFile(d / "save.toml"), Launch(server="ws://127.0.0.1:9"), today=lambda: date(2026, 11, 29),
                    rng=random.Random(5))
    async with app.run_test(size=(80, 24)) as pilot:
        async def until(pred, timeout: float = 30.0) -> None:
            async with asyncio.timeout(timeout):
                while not pred():
                    await pilot.pause(0.02)

        await until(lambda: isinstance(app.screen, ConnectScreen))
        await pilot.click("#c-name")
        for ch in "Anna":
            await pilot.press(ch)
        await pilot.press("enter")
        await until(lambda: isinstance(app.screen, PlayHere))
        await pilot.press("y")
        await until(lambda: isinstance(app.screen, PalastScreen))
        url = app.here.url
        assert url is not None and url.startswith("ws://127.0.0.1:") and app.screen.session.url == url
        # Its login is kept under a name of its own (the port changes); the last server stays.
        login = server_login(app.book.data, LOGIN_KEY)
        assert login is not None and login[0] == "Anna"
        assert last_server(app.book.data) != url
        proc = app.here.proc
    assert proc is not None and await asyncio.to_thread(proc.wait, 15) is not None  # it stops with the app
