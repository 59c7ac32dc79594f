"""Pilot tests that play the game (SPEC §5–§7) with keys and clicks.  The round's life (Retry, New,
Continue, what is recorded) is tested without a screen in tests/test_session.py."""

from __future__ import annotations

from spider_tui.table import STUCK_TEXT
from spider_tui.ui.screens.game_screen import GameScreen
from spider_tui.ui.widgets import Column, Tableau
from spider_tui.ui.widgets.dialogs import Won

from .conftest import NEARLY_WON

DEAL_REFUSED = "Fill every empty column before dealing."  # SPEC: the stock won't deal onto an empty column
SIZE = (100, 30)


def status(app) -> str:
    return str(app.screen.query_one("#status").render())


def column_view(app, col: int) -> Column:
    return app.screen.query_one(Tableau).columns[col]


def row_of(app, col: int, index: int) -> int:
    """The screen row (inside the tableau) where card ``index`` is drawn."""
    return column_view(app, col).picture().rows.index(index)


async def test_hold_by_key_and_move_by_key(make_app):
    app = make_app(deal=1, suits=2)
    async with app.run_test(size=SIZE) as pilot:
        t = app.table
        # Deal 1 (2 suits): column 2 shows 3s, column 4 shows 4s.
        assert str(app.table.game.columns[1][-1] & 15) == "3"
        await pilot.press("2")
        assert t.selection is not None and t.selection.column == 1
        assert 3 in t.targets()
        await pilot.press("4")
        assert t.moves == 1 and len(t.game.columns[3]) == 7
        assert "Moves: 1" in str(app.screen.query_one("#moves").render())


async def test_hold_by_click_at_the_card_and_move_by_click(make_app):
    app = make_app(deal=1, suits=2)
    async with app.run_test(size=SIZE) as pilot:
        t = app.table
        y = row_of(app, 1, 5)  # the exposed 3s of column 2
        src = column_view(app, 1)
        await pilot.click(src.tableau, offset=(src.x + 2, y))
        assert t.selection is not None and (t.selection.column, t.selection.count) == (1, 1)
        view = column_view(app, 3)
        assert "▶" in view.picture().text.plain  # target marked with a marker, not colour alone
        await pilot.click(view.tableau, offset=(view.x + 2, 1))  # anywhere on column 4
        assert t.moves == 1 and t.selection is None


async def test_double_click_makes_the_best_move(make_app):
    app = make_app(deal=1, suits=2)
    async with app.run_test(size=SIZE) as pilot:
        y = row_of(app, 1, 5)
        src = column_view(app, 1)
        await pilot.click(src.tableau, offset=(src.x + 2, y), times=2)
        assert app.table.moves == 1 and len(app.table.game.columns[3]) == 7


async def test_deal_undo_and_the_refused_deal_line(make_app, tmp_path):
    pos = tmp_path / "p.txt"
    pos.write_text("suits: 4\nstock: 2c 3c 4c 5c 6c 7c 8c 9c Tc Jc\n1: | 5h\n2: | 9s\n")
    from spider_tui.cli import parse_app_args

    _, launch = parse_app_args(["--position", str(pos)])
    app = make_app(position=launch.position)
    async with app.run_test(size=SIZE) as pilot:
        stock = app.screen.query_one("#stock")
        assert stock.has_class("-spent")  # muted: the stock can't deal onto an empty column
        await pilot.press("d")
        assert status(app) == DEAL_REFUSED and app.table.moves == 0
    app = make_app(deal=3, suits=1)
    async with app.run_test(size=SIZE) as pilot:
        assert not app.screen.query_one("#stock").has_class("-spent")
        await pilot.press("d")
        assert app.table.game.deals_left == 4 and app.table.moves == 1
        assert "Deals: 4" in str(app.screen.query_one("#stock").render())
        await pilot.press("u")
        assert app.table.game.deals_left == 5 and app.table.moves == 0
        assert "Deals: 5" in str(app.screen.query_one("#stock").render())


async def test_click_the_stock_deals(make_app):
    app = make_app(deal=3, suits=1)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.click("#stock")
        assert app.table.game.deals_left == 4


async def test_hint_outlines_the_group_and_the_receiving_card(make_app):
    app = make_app(deal=1, suits=2)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("question_mark")
        h = app.table.hint_move
        assert h is not None and str(h) == str(app.table.game.hint())
        src = column_view(app, h.source).picture().text.plain
        dst = column_view(app, h.target).picture().text.plain
        assert "?" in src and "◁" in dst
        others = [column_view(app, c).picture().text.plain for c in range(10) if c not in (h.source, h.target)]
        assert not any("?" in o or "◁" in o for o in others)
        assert status(app).startswith("Hint: move")


async def test_won_panel_from_a_nearly_won_position(make_app):
    app = make_app(position=NEARLY_WON)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("2", "1")
        await pilot.pause()
        assert isinstance(app.dialog, Won)
        body = str(app.screen.query_one("#won-body").render())
        assert "Moves  151" in body and "Hints  0" in body and "Time" in body
        await pilot.press("r")
        await pilot.pause()
        assert isinstance(app.screen, GameScreen) and app.table.moves == 150  # practice: same position


async def test_stuck_line(make_app):
    text = "suits: 4\nstock: 2c 3c 4c 5c 6c 7c 8c 9c Tc Jc\n1: | 5h 9c\n2: | 9s\n" + "".join(
        f"{i}: | {k}\n" for i, k in zip(range(3, 9), ["Kc", "Kc", "Kd", "Kd", "Kh", "Kh"])
    )  # columns 9 and 10 empty: after 9c goes to 10, only whole-column shifts are left
    app = make_app(position=text)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("1", "0")
        assert app.table.moves == 1
        assert status(app) == STUCK_TEXT


async def test_too_small_terminal_says_the_size_and_resumes(make_app):
    app = make_app(deal=1)
    async with app.run_test(size=(40, 12)) as pilot:
        assert app.screen.has_class("-small")
        assert "at least 40×20" in str(app.screen.query_one("#toosmall").render())
        await pilot.resize_terminal(100, 30)
        await pilot.pause()
        assert not app.screen.has_class("-small")
        await pilot.press("2", "4")
        assert app.table.moves == 1


async def test_help_and_escape(make_app):
    app = make_app(deal=1)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("f1")
        assert type(app.dialog).__name__ == "Help"
        await pilot.press("escape")
        assert isinstance(app.screen, GameScreen)


async def test_a_tap_outside_every_column_puts_the_held_cards_back(make_app):
    # Issue 33 item 7 (seed 004: a wrong tap jumps or clears): the top bar, the runs slots and
    # the gap between columns take no card, so a tap there clears the hold.
    app = make_app(deal=1, suits=2)
    async with app.run_test(size=SIZE) as pilot:
        t = app.table
        first, second = column_view(app, 0), column_view(app, 1)
        gap_x = first.region.right  # the cell between two columns
        assert gap_x < second.region.x  # a real gap, not the next column
        for target, offset in (("#moves", (1, 0)), ("#done", (1, 0)), ("#tableau", (gap_x - app.screen.query_one("#tableau").region.x, 1))):
            await pilot.press("2")
            assert t.selection is not None
            await pilot.click(target, offset=offset)
            assert t.selection is None and t.moves == 0, target
