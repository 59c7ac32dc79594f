"""Issue 10: what a newcomer's play test found, each kept as a test (SPEC §4–§9)."""

from __future__ import annotations

import tomllib

from spider_tui.ui.widgets.footer import Footer
from spider_tui.store.rounds import latest_round
from spider_tui.ui.widgets import Tableau
from spider_tui.ui.widgets.dialogs import Confirm, Won
from spider_tui.ui.screens.game_screen import GameScreen
from spider_tui.ui.screens.start_screen import DailyScreen, StartScreen

from tests.positions import LONG

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
        assert isinstance(app.dialog, Confirm)
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


# 9 -------------------------------------------------------------------------------------------
TWO_EMPTY = """\
suits: 4
stock: 2c 3c 4c 5c 6c 7c 8c 9c Tc Jc
1: | Th 7h
2: | Kc
3: | Kc
4: | Kd
5: | Kd
6: | Kh
7: | Kh
8: | Ks
9: |
10: |
"""


async def test_no_hint_with_two_empty_columns_says_fill_them(make_app):
    app = make_app(position=TWO_EMPTY)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("question_mark")
        assert app.table.hint_move is None
        assert status(app) == "No hint. Fill the empty columns to deal again."


# 10 ------------------------------------------------------------------------------------------
async def test_won_panel_stays_on_enter_and_comes_back(make_app):
    app = make_app(position=NEARLY_WON)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("question_mark", "enter")
        await pilot.pause()
        assert isinstance(app.dialog, Won)
        await pilot.press("enter")  # the winning key pressed again does not close it
        await pilot.pause()
        assert isinstance(app.dialog, Won)
        await pilot.click("#won-close")
        await pilot.pause()
        assert isinstance(app.screen, GameScreen)
        won = status(app)
        assert won.startswith("Won: 151 moves, ") and "1 hint" in won
        await pilot.press("u")  # no undo after a win, and the status line stays
        assert status(app) == won and app.table.won
        await pilot.pause()
        footer = " ".join(f"{k.key_display} {k.description}" for k in app.screen.query_one(Footer).items())
        assert "New" in footer
        for word in ("Deal", "Undo", "Hint"):
            assert word not in footer  # the footer no longer offers what a won round can't do
        await pilot.press("enter")  # Enter on the won table brings the panel back
        await pilot.pause()
        assert isinstance(app.dialog, Won)


# 11 ------------------------------------------------------------------------------------------
async def test_deal_with_an_empty_stock_says_so(make_app):
    app = make_app(position="suits: 1\nstock: -\n1: | 9s\n2: | 5s\n" + "".join(f"{i}: |\n" for i in range(3, 11)))
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("d")
        assert status(app) == "The stock is empty."
        await pilot.click("#stock")
        assert status(app) == "The stock is empty."


async def test_undo_under_undo_off_says_so(make_app):
    app = make_app(deal=3, rules="undo-off")
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("d", "u")
        assert status(app) == "Undo is off in this round."
        assert app.table.moves == 1


async def test_a_deal_hint_marks_the_stock(make_app):
    app = make_app(deal=3)
    async with app.run_test(size=SIZE) as pilot:
        t = app.table
        while t.hint() is not None and not t.hint_move.is_deal:
            t.play(t.hint_move)
        app.screen.sync()
        await pilot.press("question_mark")
        assert t.hint_move is not None and t.hint_move.is_deal
        stock = app.screen.query_one("#stock")
        assert stock.has_class("-hint") and str(stock.render()).startswith("◁ Deals:")
        await pilot.press("d")
        assert not stock.has_class("-hint")


# 13 ------------------------------------------------------------------------------------------
async def test_one_move_is_one_move_in_the_question(make_app):
    await saved_round(make_app)
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("n")
        await pilot.pause()
        assert "(Deal 7, 1 move)" in app.dialog.question


async def test_stats_screen_shows_special_rules_stats(make_app, data_dir):
    from spider_tui.store import RoundResult, SaveFile, record_result

    SaveFile(data_dir / "save.toml").update(
        lambda d: record_result(d, RoundResult(suits=2, rules="scorpion", won=True, moves=222, seconds=60)))
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("s")
        await pilot.pause()
        # The round's Stats box (issue 22 item 18), a page at a time: all of it, read whole.
        shown = "\n".join(line.plain for line in app.screen.dialog.lines)
        assert "scorpion" in shown and "222" in shown, shown


# 3 -------------------------------------------------------------------------------------------
async def test_every_start_screen_line_is_clickable(make_app, data_dir):
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await pilot.click("#suits-4")
        assert app.settings.suits == 4
        assert app.screen.query_one("#suits-4").has_class("-on")
        await pilot.click("#suits-2")
        assert app.settings.suits == 2
        await pilot.click("#fourcolor")
        assert app.settings.four_color is False
        await pilot.click("#daily")
        await pilot.pause()
        assert isinstance(app.screen, DailyScreen)
        await pilot.press("escape")
        await pilot.pause()
        await pilot.click("#newgame")
        await pilot.pause()
        assert isinstance(app.screen, GameScreen) and app.table.suits == 2


async def test_drag_a_card_onto_another_column_is_the_move(make_app):
    from textual.events import MouseDown, MouseUp  # noqa: F401

    app = make_app(deal=1, suits=2)
    async with app.run_test(size=SIZE) as pilot:
        t = app.table
        cols = app.screen.query_one(Tableau).columns
        src = cols[1]
        y = src.picture().rows.index(5)  # the exposed 3s of column 2
        await pilot.mouse_down(src.tableau, offset=(src.x + 2, y))
        await pilot.mouse_up(src.tableau, offset=(cols[3].x + 2, 1))  # onto 4s
        await pilot.pause()
        assert t.moves == 1 and len(t.game.columns[3]) == 7 and t.selection is None


async def test_a_drag_that_ends_on_its_own_column_is_a_click(make_app):
    app = make_app(deal=1, suits=2)
    async with app.run_test(size=SIZE) as pilot:
        src = app.screen.query_one(Tableau).columns[1]
        y = src.picture().rows.index(5)
        await pilot.click(src.tableau, offset=(src.x + 2, y))
        assert app.table.moves == 0 and app.table.selection is not None


# 4 -------------------------------------------------------------------------------------------


async def test_the_hidden_middle_of_a_long_column_can_be_seen(make_app):
    from spider_tui.ui.widgets.peek import ColumnPeek

    app = make_app(position=LONG)
    async with app.run_test(size=(80, 24)) as pilot:
        view = app.screen.query_one(Tableau).columns[0]
        pic = view.picture()
        assert pic.more_rows, "column 1 is too long for 80x24: its middle is compressed"
        await pilot.click(view.tableau, offset=(view.x + 2, pic.more_rows[0]))
        await pilot.pause()
        assert isinstance(app.dialog, ColumnPeek)
        shown = app.dialog.render().plain
        for label in ("K♠", "2♠", "9♠", "4♠"):
            assert label in shown
        assert shown.count("♠") == 21  # every face-up card, none hidden
        await pilot.press("x")  # any key closes it and does nothing else
        await pilot.pause()
        assert app.dialog is None and app.table.moves == 0
        await pilot.press("v", "1")
        await pilot.pause()
        assert isinstance(app.dialog, ColumnPeek) and app.dialog.number == 1
        await pilot.click(app.dialog)
        await pilot.pause()
        assert app.dialog is None and app.table.selection is None


# 7 -------------------------------------------------------------------------------------------
def test_an_empty_column_never_shows_a_cut_word():
    from spider_tui.ui.render import ColumnState, Look, draw_column

    for width in range(4, 14):
        for target in (False, True):
            pic = draw_column(ColumnState(cards=(), down=0, movable=0, target=target), 3, width, 10, Look())
            slot = pic.text.plain.splitlines()[1].strip()
            assert slot.startswith("[") and slot.endswith("]")
            inner = slot[1:-1].replace("▶", "").strip()
            assert inner in ("", "empty"), (width, slot)


async def test_status_line_is_never_cut_at_the_minimum_width(make_app):
    app = make_app(position=TWO_EMPTY)
    async with app.run_test(size=(50, 20)) as pilot:
        await pilot.press("question_mark")
        await pilot.pause()
        text = app.export_screenshot()
        for word in "No hint. Fill the empty columns to deal again.".split():
            assert word.replace(".", "") in text, word


async def test_help_fits_80x24_and_pages_every_line(make_app):
    from spider_tui.ui.widgets.dialogs import HELP, Help

    app = make_app(deal=1)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("f1")
        await pilot.pause()
        help = app.dialog
        assert isinstance(help, Help)
        assert help.region.right <= 80 and help.region.bottom <= 24
        assert all(len(line) <= help.region.width - 4 for line in help.lines)
        seen = set()
        for _ in range(40):
            seen.update(help.render().plain.splitlines())
            await pilot.press("pagedown")
        words = set(HELP.split())
        shown_words = set(" ".join(seen).split())
        assert words <= shown_words  # every word of the help can be read
        await pilot.press("escape")
        await pilot.pause()
        assert app.dialog is None


# 8 -------------------------------------------------------------------------------------------
async def test_display_options_are_on_the_start_screen_and_remembered(make_app, data_dir):
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        assert app.look.four_color  # four colours by default: ♠ and ♣ apart at 4 suits
        await pilot.press("a")
        assert app.look.ascii and "ASCII (a): on" in str(app.screen.query_one("#ascii").render())
        await pilot.press("f")
        assert not app.look.four_color
    data = read(data_dir)
    assert data["settings"]["ascii"] is True and data["settings"]["four_color"] is False
    app = make_app(deal=1, suits=4)
    async with app.run_test(size=SIZE) as pilot:
        assert app.look.ascii and not app.look.four_color
        plain = app.screen.query_one(Tableau).columns[0].picture().text.plain
        assert "7C" in plain and "#" in plain and "♣" not in plain


def test_ascii_is_decided_from_the_terminal_and_the_locale():
    from spider_tui.terminal import wants_ascii

    assert wants_ascii({"TERM": "linux", "LANG": "en_US.UTF-8"})
    assert wants_ascii({"TERM": "xterm", "LC_ALL": "de_DE.ISO-8859-1", "LANG": "en_US.UTF-8"})
    assert wants_ascii({"TERM": "xterm", "LC_CTYPE": "en_US.cp1252"})
    assert not wants_ascii({"TERM": "xterm-256color", "LANG": "C"})
    assert not wants_ascii({"TERM": "xterm-256color", "LANG": "POSIX"})
    assert not wants_ascii({"TERM": "xterm-256color", "LANG": "en_US.UTF-8"})
    assert not wants_ascii({"TERM": "xterm", "LANG": "de_DE.utf8@euro"})
    assert wants_ascii({"TERM": "xterm"}, encoding="latin-1")


async def test_a_click_on_a_levels_words_picks_it_not_only_its_digit(make_app, data_dir):
    # Issue 33 item 8: "2 suits" itself is clickable.
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        assert app.settings.suits == 1
        await pilot.click("#level-2", offset=(3, 0))  # on the words "2 suits"
        await pilot.pause()
        assert app.settings.suits == 2 and app.screen.query_one("#suits-2").has_class("-on")
        await pilot.click("#level-4", offset=(20, 0))
        await pilot.pause()
        assert app.settings.suits == 4
