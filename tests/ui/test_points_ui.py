"""Points where they are earned, on screen (SPEC §15): beside the card and on the join, gone
with the next action; an undo's cost in the bar."""

from __future__ import annotations

from textual.widgets import Static

from spider_tui.ui.widgets import Tableau


def column_text(app, col: int) -> str:
    view = app.screen.query_one(Tableau).columns[col]
    return view.picture().text.plain


async def test_points_show_where_earned_and_go_with_the_next_action(make_app):
    app = make_app(deal=1, suits=2, rules="joker+scoring")
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.press("2", "4")  # 3♠ onto 4♠: a join (+2) and a card turned up in column 2 (+3)
        await pilot.pause()
        assert "+3" in column_text(app, 1) and "+2" in column_text(app, 3)
        await pilot.press("J", "5")  # the next action
        await pilot.pause()
        assert "+3" not in column_text(app, 1) and "+2" not in column_text(app, 3)


async def test_undo_cost_in_the_bar(make_app):
    app = make_app(deal=1, suits=2, rules="scoring")
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.press("2", "4", "u")
        await pilot.pause()
        bar = str(app.screen.query_one("#done", Static).content)
        assert "Score: -1" in bar and "-1 undo" in bar and "-5 taken back" in bar
        await pilot.press("2", "4")
        await pilot.pause()
        assert "undo" not in str(app.screen.query_one("#done", Static).content)
