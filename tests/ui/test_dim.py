"""Issue 10, item 12: every dialog of a round is drawn over the table, which stays visible, dimmed."""

from __future__ import annotations

from textual.geometry import Region

from spider_tui.ui.colours import CLOTH
from spider_tui.ui.screens.game_screen import GameScreen
from spider_tui.ui.widgets import Tableau
from spider_tui.ui.widgets.dialogs import Confirm, Help, Stats
from spider_tui.ui.widgets.peek import ColumnPeek

SIZE = (100, 30)
DIALOGS = [  # keys that open it, its kind, the key that closes it leaving the round as it was
    (["f1"], Help, "escape"),
    (["r"], Confirm, "n"),
    (["n"], Confirm, "n"),
    (["g"], Confirm, "n"),
    (["s"], Stats, "escape"),
    (["v", "1"], ColumnPeek, "escape"),
]


def hexes(color) -> str | None:
    return None if color is None or color.triplet is None else color.triplet.hex


def column_look(app, number: int) -> tuple[str, set, set]:
    """Column ``number`` as drawn: its text, and the (fg, bg) colours of its non-blank cells."""
    col = app.screen.query_one(Tableau).columns[number - 1]
    strips = col.render_lines(Region(0, 0, col.size.width, col.size.height))
    text = "\n".join(strip.text for strip in strips)
    inked = {(hexes(seg.style.color), hexes(seg.style.bgcolor)) for strip in strips for seg in strip
             if seg.text.strip() and seg.style is not None}
    return text, {fg for fg, _ in inked}, {bg for _, bg in inked}


async def test_the_table_stays_visible_and_dimmed_behind_every_dialog(make_app):
    app = make_app(deal=1, suits=2)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("9", "5")  # a move: Retry and New ask first
        await pilot.pause()
        text, fgs, bgs = column_look(app, 1)
        assert CLOTH.face in bgs and CLOTH.back in bgs  # a face-up card and the face-down pile, in colour
        for keys, kind, close in DIALOGS:
            await pilot.press(*keys)
            await pilot.pause()
            assert isinstance(app.dialog, kind) and isinstance(app.screen, GameScreen), keys
            dim_text, dim_fgs, dim_bgs = column_look(app, 1)
            assert dim_text == text, keys  # every card still readable behind the dialog
            assert dim_fgs == {CLOTH.muted} and dim_bgs == {CLOTH.cloth}, (keys, dim_fgs, dim_bgs)
            await pilot.press(close)
            await pilot.pause()
            assert app.dialog is None, keys
            assert column_look(app, 1) == (text, fgs, bgs), keys  # the colours are back


async def test_the_won_panel_is_drawn_over_the_dimmed_table(make_app):
    from .conftest import NEARLY_WON

    app = make_app(position=NEARLY_WON)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("2", "1")
        await pilot.pause()
        assert type(app.dialog).__name__ == "Won" and isinstance(app.screen, GameScreen)
        _, fgs, _ = column_look(app, 1)
        assert fgs <= {CLOTH.muted}


async def test_no_color_dims_with_the_faint_attribute(make_app, monkeypatch):
    monkeypatch.setenv("NO_COLOR", "1")
    app = make_app(deal=1, suits=2)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("f1")
        await pilot.pause()
        col = app.screen.query_one(Tableau).columns[0]
        strips = col.render_lines(Region(0, 0, col.size.width, col.size.height))
        inked = [seg.style for strip in strips for seg in strip if seg.text.strip()]
        assert inked and all(style.dim for style in inked)
        assert all(style.color is None or style.color.is_default for style in inked)


def test_stats_over_the_table_show_every_rules_stats_with_whole_ascii_boxes():
    from spider_tui.store import default_data

    data = default_data()
    data.setdefault("stats", {})["scorpion"] = {"1": {"played": 2}}
    lines = [line.plain for line in Stats(data, ascii=True).page_lines(56)]
    assert lines[0] == "Spider stats" and lines[1].startswith("+---") and lines[1].endswith("+")
    at = lines.index("Spider stats (scorpion rules)")
    assert lines[at + 1].startswith("+---") and lines[at - 1] == ""
    assert all(len(line) <= 56 and line.isascii() for line in lines)


async def test_stats_key_during_a_round_opens_them_over_the_table_and_s_closes_them(make_app):
    app = make_app(deal=1, suits=2)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("s")
        await pilot.pause()
        assert isinstance(app.dialog, Stats) and isinstance(app.screen, GameScreen)
        assert app.dialog.size.width <= 80 and app.dialog.size.height <= 24
        await pilot.press("down", "s")
        await pilot.pause()
        assert app.dialog is None and isinstance(app.screen, GameScreen)


async def test_a_click_on_the_close_line_of_help_or_stats_closes_it(make_app):
    app = make_app(deal=1, suits=2)
    async with app.run_test(size=(80, 24)) as pilot:
        for key in ("f1", "s"):
            await pilot.press(key)
            await pilot.pause()
            dialog = app.dialog
            assert dialog is not None
            await pilot.click(dialog, offset=(4, 2))  # on the text: stays open
            await pilot.pause()
            assert app.dialog is dialog
            # the last content line: inside the border (1) and below the page of text
            await pilot.click(dialog, offset=(4, 1 + dialog.rows))
            await pilot.pause()
            assert app.dialog is None, key
