"""Issue 10: what a newcomer's play test found, each kept as a test (SPEC §4–§9)."""

from __future__ import annotations

import tomllib

from spider_tui.store.rounds import latest_round
from spider_tui.ui.dialogs import Confirm, Won
from spider_tui.ui.game_screen import GameScreen
from spider_tui.ui.start_screen import DailyScreen, StartScreen

from .conftest import NEARLY_WON, TODAY

SIZE = (100, 30)


def read(data_dir):
    return tomllib.loads((data_dir / "save.toml").read_text())


def status(app) -> str:
    return str(app.screen.query_one("#status").render())


async def saved_round(make_app):
    """`spider --deal 7 --suits 2`, one move, then leave: a round is saved for Continue."""
    app = make_app(deal=7, suits=2)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("d")
        app.store_round()


# 1 -------------------------------------------------------------------------------------------
async def test_daily_over_a_saved_round_ends_it_and_starts_the_daily(make_app, data_dir):
    await saved_round(make_app)
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("d")
        assert isinstance(app.screen, DailyScreen)
        await pilot.press("enter")
        await pilot.pause()
        assert isinstance(app.screen, Confirm)
        await pilot.press("y")
        await pilot.pause()
        assert isinstance(app.screen, GameScreen)
        assert app.table.daily == TODAY
    data = read(data_dir)
    assert data["stats"]["classic"]["2"]["played"] == 1
    assert latest_round(data) is None


# 2 -------------------------------------------------------------------------------------------
async def test_q_in_a_round_goes_to_the_start_screen_and_continue_comes_back(make_app, data_dir):
    app = make_app(deal=7, suits=2)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("d", "q")
        await pilot.pause()
        assert isinstance(app.screen, StartScreen)
        assert app.screen.query_one("#continue").display
        assert latest_round(read(data_dir)) is not None
        await pilot.press("escape")  # Esc on the start screen does not quit
        await pilot.pause()
        assert isinstance(app.screen, StartScreen) and app.is_running
        await pilot.press("c")
        await pilot.pause()
        assert isinstance(app.screen, GameScreen) and app.table.moves == 1
        assert app.table.game.can_undo  # the same round, undo history and all
        await pilot.press("escape")  # nothing held: Esc leaves too
        await pilot.pause()
        assert isinstance(app.screen, StartScreen)
        await pilot.press("q")
        await pilot.pause()
        assert not app.is_running


async def test_esc_with_a_group_held_only_drops_it(make_app):
    app = make_app(deal=7, suits=2)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("1", "escape")
        assert isinstance(app.screen, GameScreen) and app.table.selection is None


async def test_ctrl_q_quits_from_a_round_and_keeps_it(make_app, data_dir):
    app = make_app(deal=7, suits=2)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("d", "ctrl+q")
        await pilot.pause()
        assert not app.is_running
    assert latest_round(read(data_dir)) is not None


async def test_continue_shows_only_with_a_round_to_continue(make_app):
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        assert not app.screen.query_one("#continue").display
        await pilot.press("n")
        await pilot.pause()
        await pilot.press("q")  # no move yet: nothing to continue
        await pilot.pause()
        assert isinstance(app.screen, StartScreen)
        assert not app.screen.query_one("#continue").display
