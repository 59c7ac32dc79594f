"""SPEC §7–§8 at the app level: daily rounds, stats, lost updates, Continue."""

from __future__ import annotations

import json
import tomllib

from spider_tui.cli import main
from spider_tui.engine import Game
from spider_tui.ui.widgets.dialogs import Won
from spider_tui.ui.screens.game_screen import GameScreen
from spider_tui.ui.screens.start_screen import DailyScreen, StartScreen
from spider_tui.ui.widgets.dialogs import Stats

import pytest

from .conftest import NEARLY_WON, TODAY

SIZE = (100, 30)


async def test_start_daily_win_and_stats_show_it(make_app, data_dir, capsys):
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        assert isinstance(app.screen, StartScreen)
        await pilot.press("d")
        assert isinstance(app.screen, DailyScreen)
        await pilot.press("enter")  # the first date listed is today
        await pilot.pause()
        assert isinstance(app.screen, GameScreen)
        t = app.table
        assert t.daily == TODAY and t.deal_number == 20261129 and t.suits == 1
        # Jump to a nearly won position of this round, then win it with keys.
        t.game = Game.from_text(NEARLY_WON)
        await pilot.press("2", "1")
        await pilot.pause()
        assert isinstance(app.dialog, Won)
        await pilot.press("escape")
        await pilot.press("s")
        await pilot.pause()
        # During a round the stats are drawn over the table, which stays on screen behind them.
        assert isinstance(app.dialog, Stats) and isinstance(app.screen, GameScreen)
        lines = "\n".join(line.plain for line in app.dialog.lines)
        assert "Played" in lines and "Daily rounds won" in lines
        assert app.dialog.size.width >= 56  # drawn, not squeezed to nothing
        await pilot.press("s")
        await pilot.pause()
        assert app.dialog is None
    data = tomllib.loads((data_dir / "save.toml").read_text())
    assert data["daily"]["won"]["1"] == ["2026-11-29"]
    assert main(["stats", "--json", "--data-dir", str(data_dir)]) == 0
    stats = json.loads(capsys.readouterr().out)
    assert stats["suits"]["1"]["won"] == 1 and stats["suits"]["1"]["daily"]["won"] == 1
    assert stats["suits"]["1"]["fewest_moves"] == 151
    assert stats["daily_rounds_won"] == 1
    # The start screen now says today is done (at 1 suit), and not at 4 suits.
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        assert "Today done" in str(app.screen.query_one("#daily").render())
        await pilot.press("4")
        assert "Today done" not in str(app.screen.query_one("#daily").render())


async def test_two_instances_lose_no_result(make_app, data_dir):
    """The lost-update case: both load the file, then each ends a round at its own moment."""
    a, b = make_app(deal=1, suits=2), make_app(deal=2, suits=2)
    assert a.book.data == b.book.data  # both loaded the same (empty) file
    async with a.run_test(size=SIZE) as pilot:
        await pilot.press("2", "4", "r", "y")
    async with b.run_test(size=SIZE) as pilot:
        await pilot.press("d", "n", "y")
    data = tomllib.loads((data_dir / "save.toml").read_text())
    assert data["stats"]["classic"]["2"]["played"] == 2


async def test_a_bad_save_file_is_kept_aside_and_said_once(make_app, data_dir):
    data_dir.mkdir(parents=True)
    (data_dir / "save.toml").write_text("this is [not toml")
    app = make_app()
    async with app.run_test(size=SIZE):
        note = str(app.screen.query_one("#note").render())
        assert "could not be read" in note and "save.toml.bad-" in note
    assert list(data_dir.glob("save.toml.bad-*"))
    app = make_app()
    async with app.run_test(size=SIZE):
        assert str(app.screen.query_one("#note").render()) == ""


async def test_suit_setting_applies_from_the_next_round(make_app, data_dir):
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("2", "n")
        await pilot.pause()
        assert isinstance(app.screen, GameScreen) and app.table.suits == 2
        app.book.set_setting("suits", 4)
        assert app.table.suits == 2  # the round on the table keeps its suits
        await pilot.press("n")
        await pilot.pause()
        assert app.table.suits == 4
    assert tomllib.loads((data_dir / "save.toml").read_text())["settings"]["suits"] == 4  # remembered


async def test_time_stops_while_help_covers_the_round(make_app):
    app = make_app(deal=4)
    async with app.run_test(size=SIZE) as pilot:
        now = [0.0]
        t = app.table
        t.pause()
        before = t.seconds
        t.clock = lambda: now[0]
        t.resume()
        now[0] = 10.0
        await pilot.press("f1")
        now[0] = 50.0
        await pilot.press("escape")
        await pilot.pause()
        now[0] = 55.0
        assert t.seconds == pytest.approx(before + 15.0)


async def test_a_bad_save_file_is_reported_also_when_starting_straight_into_a_round(make_app, data_dir):
    data_dir.mkdir(parents=True)
    (data_dir / "save.toml").write_text("version = [broken")
    app = make_app(deal=3)
    async with app.run_test(size=SIZE):
        messages = [n.message for n in app.told]
        assert any("could not be read" in m for m in messages)
    assert list(data_dir.glob("save.toml.bad-*"))
