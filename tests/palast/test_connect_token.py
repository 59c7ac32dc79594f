"""Issue 22 item 13: "That name is taken; pick another or give your token." and no token field,
no word on what the token is or where it lives.  Against a real server on loopback."""

from __future__ import annotations

import asyncio
import random
from datetime import date

from textual.widgets import Input

from spider_tui.store import SaveFile
from spider_tui.ui.app import SpiderApp
from spider_tui.ui.palast.connect import ConnectScreen
from spider_tui.ui.palast.lobby import PalastScreen
from spider_tui.ui_launch import Launch


async def until(pilot, pred, timeout: float = 30.0) -> None:
    loop = asyncio.get_running_loop()
    end = loop.time() + timeout
    while not pred():
        assert loop.time() < end, "timed out waiting for the screen"
        await pilot.pause(0.02)


async def test_a_taken_name_asks_for_the_token_says_where_it_lives_and_takes_it(palast_factory, tmp_path, monkeypatch):
    palast = await palast_factory()
    first = await palast.player("Ann")  # Ann's first machine: the server gave it a token
    token = first.token
    assert token
    await first.close()
    monkeypatch.setenv("SPIDER_DATA_DIR", str(tmp_path / "second"))
    app = SpiderApp(SaveFile(tmp_path / "second" / "save.toml"), Launch(server=palast.url),
                    today=lambda: date(2026, 11, 29), rng=random.Random(5))
    async with app.run_test(size=(100, 30)) as pilot:
        await until(pilot, lambda: isinstance(app.screen, ConnectScreen))
        screen = app.screen
        assert not screen.query_one("#c-token", Input).display or not screen.has_class("-ask-token")
        await pilot.press(*"Ann", "enter")
        await until(pilot, lambda: screen.has_class("-ask-token"))
        help_text = str(screen.query_one("#c-token-help").render())
        assert "save.toml" in help_text and "[palast]" in help_text and "token" in help_text
        assert screen.query_one("#c-token", Input).has_focus
        for ch in token:
            await pilot.press(ch)
        await pilot.press("enter")
        await until(pilot, lambda: isinstance(app.screen, PalastScreen))
