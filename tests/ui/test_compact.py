"""The compact table (SPEC §17): from 40 to 79 columns each column is 4 cells and the bars take two
lines; a whole 2-suit round is played at 40×20 by taps and by keys; under 40×20 the size is said."""

from __future__ import annotations

from functools import lru_cache

import pytest
from hypothesis import given, settings, strategies as st
from rich.cells import cell_len

from spider_tui.engine import Game
from spider_tui.engine.solve import solve
from spider_tui.table import ColumnState
from spider_tui.ui.render import Look, draw_column
from spider_tui.ui.widgets import Column, Tableau
from spider_tui.ui.widgets.dialogs import Won
from tests.waiting import until_app

DEAL, SUITS = 1, 2


@lru_cache(1)
def winning_line() -> tuple[str, ...]:
    solution = solve(Game.new(DEAL, suits=SUITS), max_nodes=2_000_000)
    assert solution.result == "winnable" and solution.moves
    return tuple(solution.moves)


def columns(app) -> list[Column]:
    return app.screen.query_one(Tableau).columns


@pytest.mark.parametrize("size", [(40, 20), (60, 20), (79, 30)])
async def test_from_40_to_79_columns_each_column_is_4_cells_and_the_bars_two_lines(make_app, size):
    app = make_app(deal=DEAL, suits=SUITS)
    async with app.run_test(size=size) as pilot:
        await pilot.pause()
        screen = app.screen
        assert screen.has_class("-compact") and not screen.has_class("-small")
        views = columns(app)
        assert [v.region.width for v in views] == [4] * 10
        assert views[-1].region.right <= size[0]  # no column beyond the screen: no horizontal scroll
        top = screen.query_one("#top")
        assert top.region.height == 2
        # Every control of the bars is on screen and whole (a tap reaches each).
        for chip in ("#retry", "#new", "#stock", "#undo", "#hintchip", "#giveupchip"):
            region = screen.query_one(chip).region
            assert region.width >= cell_len(str(screen.query_one(chip).render())) and region.right <= size[0], chip
        assert screen.query_one("#moves").region.y == top.region.y + 1


async def test_80_columns_keep_the_wide_table(make_app):
    app = make_app(deal=DEAL, suits=SUITS)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        assert not app.screen.has_class("-compact")
        assert app.screen.query_one("#top").region.height == 1
        assert columns(app)[0].region.width > 4


async def test_under_40x20_the_size_message_says_what_is_needed_and_play_resumes(make_app):
    app = make_app(deal=DEAL, suits=SUITS)
    async with app.run_test(size=(39, 20)) as pilot:
        await pilot.pause()
        assert app.screen.has_class("-small")
        said = str(app.screen.query_one("#toosmall").render())
        assert "at least 40×20" in said and "This one is 39×20" in said
        await pilot.resize_terminal(40, 19)
        await until_app(pilot, lambda: "This one is 40×19" in str(app.screen.query_one("#toosmall").render()))
        await pilot.resize_terminal(40, 20)
        await until_app(pilot, lambda: not app.screen.has_class("-small"))
        await pilot.press("9", "6")
        assert app.table.moves == 1


async def test_a_whole_two_suit_round_at_40x20_by_taps(make_app):
    app = make_app(deal=DEAL, suits=SUITS)
    async with app.run_test(size=(40, 20)) as pilot:
        await pilot.pause()
        for text in winning_line():
            table = app.table
            move = table.game.resolve(text)
            before = table.moves
            if move.is_deal:
                await pilot.click("#stock")
            else:
                src = columns(app)[move.source]
                lead = len(table.game.columns[move.source]) - move.count
                await until_app(pilot, lambda: lead in src.picture().rows)
                await pilot.click(src.tableau, offset=(src.x + 1, src.picture().rows.index(lead)))
                await until_app(pilot, lambda: table.selection is not None)  # the tap has landed
                assert table.selection.column == move.source and table.selection.count == move.count, text
                dst = columns(app)[move.target]
                await pilot.click(dst.tableau, offset=(dst.x + 1, 0))
            await until_app(pilot, lambda: table.moves == before + 1)
        assert app.table.won
        await until_app(pilot, lambda: isinstance(app.screen.dialog, Won))


async def test_a_whole_two_suit_round_at_40x20_by_keys(make_app):
    app = make_app(deal=DEAL, suits=SUITS)
    async with app.run_test(size=(40, 20)) as pilot:
        await pilot.pause()
        for text in winning_line():
            table = app.table
            move = table.game.resolve(text)
            before = table.moves
            if move.is_deal:
                await pilot.press("d")
            else:
                key = str((move.source + 1) % 10)
                await pilot.press(key)
                await until_app(pilot, lambda: table.selection is not None)
                while table.selection.count > move.count:
                    held = table.selection.count
                    await pilot.press(key)  # the same key again: one card fewer
                    await until_app(pilot, lambda: table.selection is not None and table.selection.count < held)
                await pilot.press(str((move.target + 1) % 10))
            await until_app(pilot, lambda: table.moves == before + 1)
        assert app.table.won


def lines(state: ColumnState, look: Look = Look(), height: int = 14) -> list[str]:
    return draw_column(state, 3, 5, height, look).text.plain.split("\n")


def test_a_compact_card_is_three_cells_and_its_mark_the_fourth():
    g = Game.from_text("suits: 2\n1: 5h 3s | Th 9h 8h\n2: |\n3: |\n4: |\n5: |\n6: |\n7: |\n8: |\n9: |\n10: |")
    cards = tuple(g.columns[0])
    plain = lines(ColumnState(cards=cards, down=2, movable=3))
    assert plain[1:] == [" ░2░", " 10♥", " 9♥ ", " 8♥ "]
    held = lines(ColumnState(cards=cards, down=2, movable=3, held=2))
    assert held[3] == "▲9♥ " and held[4] == " 8♥ "  # the held group's top card is marked, not only coloured
    target = lines(ColumnState(cards=cards, down=2, movable=3, target=True))
    assert target[-1] == "▶8♥ "
    ascii = lines(ColumnState(cards=cards, down=2, movable=3), Look(ascii=True))
    assert ascii[1:] == [" #2#", " TH ", " 9H ", " 8H "]
    empty = lines(ColumnState(cards=(), down=0, movable=0, target=True))
    assert empty[1] == " [▶]"
    assert plain[0] == " 3  "


@settings(deadline=None, max_examples=150)
@given(down=st.integers(0, 20), up=st.integers(1, 30), height=st.integers(4, 40),
       held=st.integers(0, 3), cursor=st.booleans())
def test_a_compact_column_fits_4_cells_and_never_hides_the_exposed_or_a_movable_card(down, up, height, held, cursor):
    cards = tuple(Game.new(1, suits=4).columns[0][:1] * (down + up))
    movable = min(up, 3)
    state = ColumnState(cards=cards, down=down, movable=movable, held=min(held, movable),
                        cursor=len(cards) - 1 if cursor else None, cursor_here=cursor)
    pic = draw_column(state, 10, 5, height, Look())
    text = pic.text.plain.split("\n")
    assert all(cell_len(line) == 4 for line in text)
    assert len(text) <= max(height, 1 + (1 if down else 0) + 1)  # number, backs, the exposed card at least
    assert len(cards) - 1 in pic.rows  # the exposed card is always drawn
    if 1 + (1 if down else 0) + 1 + movable <= height:  # room for the number, the backs, "more" and the group
        n = len(cards)
        for i in range(n - movable, n):
            assert i in pic.rows  # every card that can be picked is drawn, so a tap reaches it
