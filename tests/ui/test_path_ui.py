"""The path on the start screen (SPEC §15): levels with what good play wins and the player's
record; the next level suggested once after 3 wins; the stats screen shows the path."""

from __future__ import annotations

from textual.widgets import Static

from spider_tui.store import RoundResult, SaveFile, record_result
from spider_tui.ui.screens.start_screen import StartScreen


def seed(data_dir, wins: int, suits: int = 1) -> None:
    save = SaveFile(data_dir / "save.toml")

    def change(d):
        for _ in range(wins):
            record_result(d, RoundResult(suits=suits, won=True, moves=140, seconds=600.0, rules="classic"))

    save.update(change)


async def test_start_screen_shows_levels_and_record(make_app, data_dir):
    seed(data_dir, 2)
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, StartScreen)
        one = str(screen.query_one("#level-1", Static).content)
        assert "beginner" in one and "nearly all" in one and "won 2 of 2" in one
        assert "competition" in str(screen.query_one("#level-4", Static).content)
        assert "10–25 minutes" in str(screen.query_one("#suits-keys", Static).content)
        assert screen.query_one("#menu").region.height <= 23  # calm at 80x24: all of it shows


async def test_suggestion_once_after_three_wins(make_app, data_dir):
    seed(data_dir, 3)
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        line = app.screen.query_one("#suits-keys", Static)
        assert "try 2 suits" in str(line.content)
        await pilot.press("s")  # away and back: said once, gone
        await pilot.pause()
        await pilot.press("escape")
        await pilot.pause()
        assert isinstance(app.screen, StartScreen)
        assert "try 2 suits" not in str(app.screen.query_one("#suits-keys", Static).content)
        app.book.flush(timeout=5)
    assert SaveFile(data_dir / "save.toml").load()["path"]["suggested"] == [1]
    app2 = make_app()
    async with app2.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        assert "try 2 suits" not in str(app2.screen.query_one("#suits-keys", Static).content)


async def test_stats_screen_shows_the_path(make_app, data_dir):
    seed(data_dir, 1, suits=2)
    app = make_app()
    async with app.run_test(size=(100, 40)) as pilot:
        await pilot.press("s")
        await pilot.pause()
        svg = app.export_screenshot()
        for word in ("beginner", "competition", "Played", "Win&#160;rate"):
            assert word in svg, word
