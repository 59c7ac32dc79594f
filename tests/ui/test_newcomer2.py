"""Issue 22: what hurt a newcomer's first game, each checked as a player meets it."""

from __future__ import annotations

from spider_tui.ui.screens.game_screen import GameScreen
from tests.waiting import until_app

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


def free_address() -> str:
    """A loopback address where nothing listens."""
    import socket

    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    port = s.getsockname()[1]
    s.close()
    return f"ws://127.0.0.1:{port}"


async def test_palast_from_the_start_screen_types_the_name_into_the_name_field(make_app, monkeypatch):
    # Item 3: the cursor started in the Server field with its text selected, so the name replaced
    # the address.  Nothing listens at the default address here: the player is told what to do.
    from textual.widgets import Input

    import spider_tui.ui.palast.connect as connect

    url = free_address()
    monkeypatch.setattr(connect, "DEFAULT_SERVER", url)
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        await pilot.press("p")
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, connect.ConnectScreen)
        await pilot.press(*"Newbie", "enter")
        for _ in range(200):
            await pilot.pause(0.05)
            said = str(screen.query_one("#c-status").render())
            if "Can't reach" in said:
                break
        assert screen.query_one("#c-name", Input).value == "Newbie"
        assert screen.query_one("#c-server", Input).value == url
        assert "spider server" in said and "address" in said, said


def picture_lines(pic) -> list[tuple[str, object]]:
    """Each screen row of a drawn column: its text and the style of its first cell."""
    out = []
    for row in pic.text.split("\n"):
        spans = row.spans
        out.append((row.plain, spans[0].style if spans else row.style))
    return out


def column(cursor: int | None, cursor_here: bool = True):
    from spider_tui.engine.cards import parse_card
    from spider_tui.ui.render import ColumnState

    cards = tuple(parse_card(t) for t in ("Ks", "9h", "8h", "7h"))
    return ColumnState(cards=cards, down=1, movable=3, cursor=cursor, cursor_here=cursor_here)


def test_the_keyboard_cursor_shows_without_colour_and_in_plain_text():
    # Item 4: without colour (NO_COLOR) and in plain text the cursor showed nowhere.
    from spider_tui.ui.render import Look, draw_column

    for look in (Look(color=False), Look(), Look(ascii=True, color=False)):
        here = [t for t, _ in picture_lines(draw_column(column(cursor=1), 4, 10, 20, look))]
        away = [t for t, _ in picture_lines(draw_column(column(cursor=None, cursor_here=False), 4, 10, 20, look))]
        assert "[4]" in here[0] and "[4]" not in away[0]
        assert here[2].startswith(look.marks["cursor"]) and not away[2].startswith(look.marks["cursor"])


def test_without_colour_cards_read_by_reverse_video_and_the_exposed_card_is_whole():
    # Item 10: under NO_COLOR only the held card was reversed, and the exposed card was one line
    # "K♠" with the rest of the card blank.  README: "cards then read by bold and reverse video".
    from spider_tui.ui.render import Look, draw_column

    lines = picture_lines(draw_column(column(cursor=None, cursor_here=False), 4, 10, 20, Look(color=False)))
    faces = [(t, st) for t, st in lines[2:] if t.strip()]
    assert all(st.reverse for _, st in faces), faces
    exposed = [t for t, _ in lines if "7" in t or "♥" == t.strip()]
    assert len(exposed) >= 3, lines  # top corner, suit, bottom corner


async def test_help_uses_the_height_there_is(make_app):
    # Item 5: "Lines 1-8 of 97" at 80×24, 120×40 and 200×50 alike.
    from spider_tui.ui.widgets.dialogs import Help

    shown = {}
    for size in ((80, 24), (120, 40), (200, 50)):
        app = make_app(deal=1, suits=1)
        async with app.run_test(size=size) as pilot:
            await pilot.press("f1")
            await pilot.pause()
            help_ = app.dialog
            assert isinstance(help_, Help)
            text = help_.render().plain
            shown[size] = help_.rows
            assert f"Lines 1-{help_.rows} of" in text
            # Every row of the dialog but its last line (where it says how to go on) shows help.
            assert help_.rows >= size[1] - 4 - 2 - 1, (size, help_.rows)
    assert shown[(80, 24)] < shown[(120, 40)] < shown[(200, 50)]


async def test_the_start_screen_names_the_rules_new_will_play(make_app):
    # Item 9: `spider --rules joker` showed "Special rules (o): classic", then n started joker.
    from spider_tui.ui.screens.start_screen import StartScreen

    app = make_app(rules="joker")
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        assert isinstance(app.screen, StartScreen)
        shown = str(app.screen.query_one("#rules").render())
        assert "joker" in shown and "classic" not in shown, shown
        await pilot.press("n")
        await pilot.pause()
        assert isinstance(app.screen, GameScreen) and app.table.game.rules.name == "joker"


def footer_keys(screen) -> set[str]:
    """The keys the footer offers now (hidden ones are not drawn; dimmed ones are)."""
    return {b.key for (_, b, enabled, _tip) in screen.active_bindings.values()
            if b.show and screen.check_action(b.action.split("(")[0] if "(" not in b.action else "table",
                                              (b.action.split("'")[1],) if "'" in b.action else ()) is not False}


async def test_undo_off_offers_no_undo_and_give_up_has_a_chip(make_app):
    # Item 15: under Undo off the Undo chip and "u Undo" still showed; Give up had no chip.
    app = make_app(deal=3, suits=1, rules="undo-off")
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        screen = app.screen
        assert not screen.query("#undo")
        assert "u" not in footer_keys(screen) and "d" in footer_keys(screen)
        await pilot.click("#giveupchip")
        await pilot.pause()
        assert app.dialog is not None and "Give up" in app.dialog.question
        await pilot.press("y")
        await pilot.pause()
        assert app.table.over and not screen.query_one("#giveupchip").display


async def test_the_joker_count_is_a_chip_and_leaves_the_footer_after_the_round(make_app):
    # Item 15: "Jokers: 3 (J)" could not be clicked (only the footer entry), and "J Joker" stayed
    # in the footer after a win.
    from tests.ui.conftest import NEARLY_WON

    app = make_app(deal=3, suits=1, rules="joker")
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        screen = app.screen
        assert "Jokers: 3" in str(screen.query_one("#jokerchip").render())
        assert "J" in footer_keys(screen)
        await pilot.click("#jokerchip")
        await pilot.pause()
        assert app.table.joker_pending
        # One move from the win, under the Joker rule: won, the footer offers no joker.
    app = make_app(position="rules: joker\njokers: 3\n" + NEARLY_WON)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        screen = app.screen
        assert "J" in footer_keys(screen)
        await pilot.press("2", "1")
        await pilot.pause()
        assert screen.table.won
        assert "J" not in footer_keys(screen)


async def test_s_over_the_won_panel_shows_the_stats_and_they_are_one_box_everywhere(make_app):
    # Item 18: while Won! was up the footer offered s Stats and s did nothing; the start screen's
    # stats were a different, wider box than the round's.
    from spider_tui.ui.screens.start_screen import StatsScreen
    from spider_tui.ui.widgets.dialogs import Stats, Won
    from tests.ui.conftest import NEARLY_WON

    app = make_app(position=NEARLY_WON)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("2", "1")
        await pilot.pause()
        assert isinstance(app.dialog, Won)
        await pilot.press("s")
        await pilot.pause()
        assert isinstance(app.dialog, Stats)
        in_round = app.dialog.region.width
        await pilot.press("escape", "q")
        await pilot.pause()
        await pilot.press("s")
        await pilot.pause()
        assert isinstance(app.screen, StatsScreen) and isinstance(app.screen.dialog, Stats)
        assert app.screen.dialog.region.width == in_round


async def test_notices_in_ascii_mode_draw_no_block_glyphs(make_app):
    # Item 18: ASCII mode still drew ▌ on notices.
    from textual.geometry import Region
    from textual.notifications import Notification
    from textual.widgets._toast import Toast

    app = make_app(deal=1, suits=1, ascii=True)
    async with app.run_test(size=SIZE) as pilot:
        toast = Toast(Notification("A notice.", title="", severity="information"))
        await app.screen.mount(toast)
        await pilot.pause()
        text = "\n".join(strip.text for strip in toast.render_lines(Region(0, 0, *toast.size)))
        assert text.startswith("|")  # the notice's left edge, in ASCII
        assert all(ch.isascii() for ch in text), sorted({ch for ch in text if not ch.isascii()})


async def test_every_line_of_the_rules_menu_fits_on_one_line(make_app):
    # Item 18: "(Enter: next)" wrapped its last word onto a line of its own.
    from textual.widgets import OptionList

    from spider_tui.ui.screens.start_screen import RulesScreen

    app = make_app(rules="simple-simon")
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        await pilot.press("o")
        await pilot.pause()
        assert isinstance(app.screen, RulesScreen)
        ol = app.screen.query_one("#rules-list", OptionList)
        assert "Simple Simon" in str(ol.get_option_at_index(0).prompt)
        assert len(ol._lines) == ol.option_count  # one screen line per option


async def test_a_drag_shows_the_lifted_group_and_its_targets_before_the_release(make_app):
    # Item 14: dragging showed nothing (no lifted card, no marked targets) until the release.
    from textual import events

    from spider_tui.ui.widgets import Tableau

    app = make_app(position="suits: 4\nstock: -\n1: | 9s 8s 7s\n2: | 9h\n3: | 5d\n4: |\n5: |\n6: |\n7: |\n8: |\n9: |\n10: |\n")
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        screen = app.screen
        tableau = screen.query_one(Tableau)
        col1, col2 = tableau.columns[0], tableau.columns[1]
        y = col1.picture().rows.index(1)  # the 8♠'s row
        await pilot.mouse_down(tableau, offset=(col1.x + 2, y))
        # Motion with the button held, over column 2: the group 8♠7♠ is lifted, 9♥ marked.
        tableau.post_message(events.MouseMove(tableau, col2.x + 2, 2, 0, 0, 1, False, False, False,
                                           screen_x=col2.region.x + 2, screen_y=col2.region.y + 2))
        await pilot.pause()
        states = screen.table.column_states()
        assert states[0].held == 2 and states[1].target
        assert "▲" in "".join(strip.text for strip in col1.render_lines(col1.region.reset_offset))
        await pilot.mouse_up(tableau, offset=(col2.x + 2, 2))
        await pilot.pause()
        assert screen.table.moves == 1 and screen.table.game.columns[1][-1] & 15 == 7


async def test_keys_typed_right_after_new_reach_the_new_round_in_order(make_app):
    # Item 2: on the start screen n then ? within 200 ms: no hint (the ? went to the start screen,
    # whose ? is help, before the round was up); the same after c.
    from textual import events

    from spider_tui.ui.screens.start_screen import StartScreen

    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        assert isinstance(app.screen, StartScreen)
        for key, ch in (("n", "n"), ("question_mark", "?")):  # typed together, before any frame
            app.post_message(events.Key(key, ch))
        await until_app(pilot, lambda: isinstance(app.screen, GameScreen) and app.screen.table.hint_move is not None)
        assert app.dialog is None and app.screen.table.status.startswith("Hint:")
        await pilot.press("enter")  # plays it: a round with a move is kept for Continue
        await pilot.pause()
        assert app.screen.table.moves == 1
        hint = app.screen.table.game.hint()
        assert hint is not None and not hint.is_deal
        await pilot.press("q")
        await until_app(pilot, lambda: isinstance(app.screen, StartScreen))
        # c and the hint's two column keys at once: the move is made in the continued round.
        for key in ("c", str((hint.source + 1) % 10), str((hint.target + 1) % 10)):
            app.post_message(events.Key(key, key))
        await until_app(pilot, lambda: isinstance(app.screen, GameScreen) and app.screen.table.moves == 2)


async def test_a_key_typed_once_the_first_screen_is_up_is_never_held_back(make_app):
    # Keys are held from the app's start until its first screen is up.  Once it is, a key goes
    # straight to it, with any keys still held ahead of it, in order: never after the hold's
    # own timer (here it never fires, as on a machine too busy to run it in time).
    from textual.app import App

    app = make_app(deal=1, suits=1)
    real_interval = App.set_interval

    def slow_interval(self, interval, callback=None, **kw):
        return real_interval(self, 3600 if interval == 0.01 else interval, callback, **kw)

    app.set_interval = slow_interval.__get__(app)
    async with app.run_test(size=SIZE) as pilot:
        await until_app(pilot, lambda: isinstance(app.screen, GameScreen) and app.screen.is_mounted)
        await pilot.press("question_mark")
        await until_app(pilot, lambda: app.screen.table.status.startswith("Hint:"))
        await pilot.press("enter")
        await until_app(pilot, lambda: app.screen.table.moves == 1)
