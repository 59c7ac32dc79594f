"""Issue 9, item 4: a chip acts once; a dismissed dialog ignores further clicks."""

from __future__ import annotations

import pytest
from textual.events import MouseDown, MouseUp
from textual.pilot import _get_mouse_message_arguments

from spider_tui.engine import Game
from spider_tui.store import summary
from spider_tui.ui.widgets.dialogs import Confirm, Won
from spider_tui.ui.screens.game_screen import GameScreen

from .conftest import NEARLY_WON

SIZE = (100, 30)


async def burst_click(pilot, selector: str, times: int) -> None:
    """Press and release on ``selector`` ``times`` times as one burst from the terminal: the events
    reach the app before it has handled the first click (unlike ``pilot.click``, which pauses)."""
    app = pilot.app
    kwargs = _get_mouse_message_arguments(app.screen.query_one(selector), (1, 0), button=1)
    for _ in range(times):
        app.post_message(MouseDown(**kwargs))
        app.post_message(MouseUp(**kwargs))
    await pilot.pause()
    await pilot.pause()


def played(app):
    return summary(app.book.save.load())["suits"]["1"]["played"]


@pytest.mark.parametrize("key, chip", [("g", "#yes"), ("r", "#yes"), ("n", "#yes"),
                                       ("g", "#no"), ("r", "#no"), ("n", "#no")])
@pytest.mark.parametrize("times", [3])  # a burst of 3 holds the double click and one more
async def test_confirm_chips_act_once(make_app, key, chip, times):
    app = make_app(deal=5, suits=1, rules="classic")
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("d")  # a deal is a move: the round is in progress, so New/Retry/Give up ask
        await pilot.pause()
        assert app.table.moves > 0
        first = app.table
        await pilot.press(key)
        await pilot.pause()
        assert isinstance(app.dialog, Confirm)
        await burst_click(pilot, chip, times)
        assert isinstance(app.screen, GameScreen) and app.dialog is None, app.screen_stack
        assert len(app.screen_stack) == 2
        if chip == "#no":
            assert app.table is first and not first.over
        elif key == "g":
            assert app.table is first and first.over
        else:
            assert app.table is not first
        assert played(app) == (0 if chip == "#no" else 1)
        await pilot.press("u")  # the app still answers keys
        await pilot.pause()


@pytest.mark.parametrize("chip", ["#won-new", "#won-retry"])
@pytest.mark.parametrize("times", [3])  # a burst of 3 holds the double click and one more
async def test_won_chips_act_once(make_app, chip, times):
    app = make_app(deal=77, suits=1)
    async with app.run_test(size=SIZE) as pilot:
        app.table.game = Game.from_text(NEARLY_WON)
        await pilot.press("2", "1")
        await pilot.pause()
        assert isinstance(app.dialog, Won)
        won_table = app.table
        await burst_click(pilot, chip, times)
        assert isinstance(app.screen, GameScreen) and app.dialog is None, app.screen_stack
        assert len(app.screen_stack) == 2
        assert app.table is not won_table and app.table.moves == 0
        assert played(app) == 1
