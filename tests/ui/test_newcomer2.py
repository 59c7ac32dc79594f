"""Issue 22: what hurt a newcomer's first game, each checked as a player meets it."""

from __future__ import annotations

from spider_tui.ui.screens.game_screen import GameScreen

SIZE = (100, 30)


def row_text(widget) -> str:
    """What a one-line widget shows on screen (as painted, cut to its width)."""
    return "".join(seg.text for seg in widget.render_line(0)).rstrip()


async def test_the_top_bar_shows_the_whole_title_after_asking_the_solver(make_app):
    # Item 1: "Deal 7 · 2 suits" became "Deal 7 · practice · 2 suits", drawn in the old width:
    # the bar read "Deal 7 ·" and nothing more.
    app = make_app(deal=7, suits=2)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("w", "y")
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, GameScreen) and "practice" in screen.title_text
        await pilot.pause()
        shown = row_text(screen.query_one("#info"))
        assert "practice" in shown and "2 suits" in shown, shown
        assert screen.query_one("#moves").region.x > screen.query_one("#info").region.x + len(shown) - 1
