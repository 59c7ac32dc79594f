"""Issue 9, item 8: a storm of resizes (hundreds of sizes from 1x1 to 220x70 at once) never hangs
the app or loses the round; it draws the last size and plays on."""

from __future__ import annotations

import asyncio
import os
import random

from textual.events import Resize
from textual.geometry import Size

from spider_tui.ui.screens.game_screen import GameScreen
from spider_tui.ui.screens.start_screen import StartScreen


#: Sizes per storm: a few dozen in CI; hundreds with SPIDER_FUZZ_LONG=1.
N = 400 if os.environ.get("SPIDER_FUZZ_LONG") else 24


def sizes(rng: random.Random, n: int) -> list[Size]:
    out = [Size(1, 1), Size(220, 70), Size(2, 200), Size(300, 1)]
    out += [Size(rng.randint(1, 220), rng.randint(1, 70)) for _ in range(n)]
    return out


async def storm(app, pilot, rng: random.Random, n: int, burst: bool) -> None:
    for size in sizes(rng, n):
        app._driver._size = size
        app.post_message(Resize(size, size))
        if not burst and rng.random() < 0.3:
            await pilot.pause()
    app._driver._size = Size(100, 30)
    app.post_message(Resize(Size(100, 30), Size(100, 30)))
    # A bound on waiting, not a timing: a hang fails here instead of blocking the suite.
    await asyncio.wait_for(pilot.pause(), 60)
    await asyncio.wait_for(pilot.pause(), 60)


async def test_resize_storm_in_a_round(make_app):
    app = make_app(deal=3)
    async with app.run_test(size=(100, 30)) as pilot:
        rng = random.Random(9)
        await pilot.press("d")
        for burst in (True, False):
            await storm(app, pilot, rng, N, burst)
        assert isinstance(app.screen, GameScreen)
        assert not app.screen.has_class("-small")
        assert app.screen.size == Size(100, 30)
        await pilot.press("u")
        await asyncio.wait_for(pilot.pause(), 60)
        assert app.table.moves == 0 or app.table.moves == 1
        assert app.table.game.to_text()  # still a whole game


async def test_resize_storm_on_the_start_screen_and_a_dialog(make_app):
    app = make_app()
    async with app.run_test(size=(100, 30)) as pilot:
        rng = random.Random(4)
        await storm(app, pilot, rng, N, True)
        assert isinstance(app.screen, StartScreen)
        await pilot.press("f1")
        await storm(app, pilot, rng, N, False)
        await pilot.press("escape", "n")
        await asyncio.wait_for(pilot.pause(), 60)
        assert isinstance(app.screen, GameScreen)
