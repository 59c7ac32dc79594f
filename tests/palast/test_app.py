"""The Palast in the app (SPEC §13), Pilot tests against a real server on loopback: getting there,
the lobby, opening and joining, a race against a bot to the end of a 1-round table, standings,
reconnect after the server restarts."""

from __future__ import annotations

import asyncio
import random
from datetime import date

import pytest

from spider_tui.engine.cards import UNKNOWN
from spider_tui.palast.server.db import open_store
from spider_tui.palast.server.server import PalastServer
from spider_tui.store import SaveFile
from spider_tui.store.palast import last_server, server_login
from spider_tui.ui.app import SpiderApp
from spider_tui.ui.palast.connect import ConnectScreen
from spider_tui.ui.palast.lobby import PalastScreen
from spider_tui.ui.palast.race import RaceScreen
from spider_tui.ui_launch import Launch
from tests.waiting import until_app as until

from .conftest import make_options
from .helpers import play_round


@pytest.fixture
def make_app(tmp_path, monkeypatch):
    d = tmp_path / "data"
    monkeypatch.setenv("SPIDER_DATA_DIR", str(d))

    def make(**launch) -> SpiderApp:
        return SpiderApp(SaveFile(d / "save.toml"), Launch(**launch), today=lambda: date(2026, 11, 29),
                         rng=random.Random(5))

    return make


def screen_text(app) -> str:
    """What the screen shows, as plain text."""
    return "\n".join(strip.text for strip in app.screen._compositor.render_update(full=True).strips) \
        if hasattr(app.screen, "_compositor") else ""


def statics(screen) -> str:
    from textual.widgets import Static

    return "\n".join(str(w.render()) for w in screen.query(Static))


async def sign_in(pilot, app, name: str) -> PalastScreen:
    await until(pilot, lambda: isinstance(app.screen, ConnectScreen))
    await pilot.click("#c-name")
    for ch in name:
        await pilot.press(ch if ch != " " else "space")
    await pilot.press("enter")
    await until(pilot, lambda: isinstance(app.screen, PalastScreen))
    return app.screen


async def test_server_flag_name_dialog_token_kept_and_lobby_lists_the_standard_table(palast, make_app):
    app = make_app(server=palast.url)
    async with app.run_test(size=(80, 24)) as pilot:
        lobby = await sign_in(pilot, app, "Anna")
        await until(pilot, lambda: lobby.session.tables)
        text = statics(lobby)
        assert "standard" in str(lobby.query_one("#p-list").get_option_at_index(0).prompt)
        assert "Anna" in text and palast.url in text
        login = server_login(app.book.data, palast.url)
        assert login is not None and login[0] == "Anna" and login == ("Anna", lobby.session.token)
        assert last_server(app.book.data) == palast.url
        # Enter on the highlighted table sits down
        await pilot.press("enter")
        await until(pilot, lambda: lobby.session.phase == "waiting")
        assert "x: leave" in statics(lobby)
        await pilot.press("x")
        await until(pilot, lambda: lobby.session.phase == "lobby")
        await pilot.press("q")
        await until(pilot, lambda: not isinstance(app.screen, PalastScreen))


async def test_a_taken_name_gets_one_line_and_a_way_back(palast, make_app):
    await palast.player("Anna")
    app = make_app(server=palast.url)
    async with app.run_test(size=(80, 24)) as pilot:
        await until(pilot, lambda: isinstance(app.screen, ConnectScreen))
        await pilot.click("#c-name")
        for ch in "anna":
            await pilot.press(ch)
        await pilot.press("enter")
        status = app.screen.query_one("#c-status")
        await until(pilot, lambda: "taken" in str(status.render()))
        assert "\n" not in str(status.render())
        await pilot.press("escape")
        await until(pilot, lambda: not isinstance(app.screen, ConnectScreen))


async def test_an_unreachable_server_gets_one_line(make_app):
    app = make_app(server="ws://127.0.0.1:9")
    async with app.run_test(size=(80, 24)) as pilot:
        await until(pilot, lambda: isinstance(app.screen, ConnectScreen))
        connect = app.screen
        await pilot.click("#c-name")
        await pilot.press("a")
        await pilot.press("enter")
        status = connect.query_one("#c-status")
        await until(pilot, lambda: "Can't reach ws://127.0.0.1:9" in str(status.render()))
        # ... and the offer to play here instead (SPEC §13, the embedded Palast); n declines it.
        from spider_tui.ui.palast.connect import PlayHere

        await until(pilot, lambda: isinstance(app.screen, PlayHere))
        assert "Can't reach ws://127.0.0.1:9" in statics(app.screen)
        await pilot.press("n")
        await until(pilot, lambda: app.screen is connect)
        assert app.here.url is None


async def test_palast_from_the_start_screen_open_a_table_and_race_a_bot_to_the_end(palast, make_app):
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("p")
        await until(pilot, lambda: isinstance(app.screen, ConnectScreen))
        app.screen.query_one("#c-server").value = palast.url
        lobby = await sign_in(pilot, app, "Anna")
        # Open a table: 1 round, 2 seats (seats 4 -> 5 -> 6 -> 2; rounds 3 -> ... -> 1).
        await pilot.press("o")
        await until(pilot, lambda: app.screen.__class__.__name__ == "OpenTableScreen")
        form = app.screen.form
        while form.rounds != 1:
            form.choose("rounds")
        while form.seats != 2:
            form.choose("seats")
        ol = app.screen.query_one("#form")
        ol.highlighted = len(form.lines()) - 1
        await pilot.press("enter")
        await until(pilot, lambda: lobby.session.phase == "waiting")
        assert lobby.session.is_host and lobby.session.table.rounds == 1
        bot = await palast.player("bot-1")
        await bot.join(table=lobby.session.table.id)
        await until(pilot, lambda: len(lobby.session.table.players) == 2)
        await pilot.press("s")
        await until(pilot, lambda: isinstance(app.screen, RaceScreen))
        race = app.screen
        assert "bot-1" in str(race.query_one("#opponents").render())
        assert "Time left:" in str(race.query_one("#done").render())
        # the bot plays; its line changes, the table does not repaint
        version = race.table.version
        ev = await bot.wait_for("round")
        await play_round(bot, ev["position"], limit=5)
        await until(pilot, lambda: "gave up" in str(race.query_one("#opponents").render())
                    or "stuck" in str(race.query_one("#opponents").render()))
        assert race.table.version == version
        # a move by keys shows at once, then the card it turns up
        hint = race.table.game.hint()
        await pilot.press(str((hint.source + 1) % 10), str((hint.target + 1) % 10))
        assert race.table.game.moves == 1
        await until(pilot, lambda: not lobby.session._pending)
        g = race.table.game
        assert UNKNOWN not in [c for col, d in zip(g.columns, g.down) for c in col[d:]]  # told by the server
        # give up: the round (and the table) ends
        await pilot.press("g")
        await pilot.press("y")
        await until(pilot, lambda: lobby.session.phase == "final" and app.screen is lobby)
        text = statics(lobby)
        ol = lobby.query_one("#p-list")
        rows = [str(ol.get_option_at_index(i).prompt) for i in range(ol.option_count)]
        assert "Final ranking" in text and sorted(r.split()[1] for r in rows[:2]) == ["Anna", "bot-1"]
        assert all(r.split()[0] in ("1.", "2.") for r in rows[:2])
        # The end is said to the player (issue 22 item 12): a win, or the place.
        anna = next(r for r in rows[:2] if r.split()[1] == "Anna")
        assert ("You won the table!" in text) == (anna.split()[0] == "1.")
        assert "You won the table!" in text or "You placed 2nd of 2." in text
        assert rows[3] == "Round 1:" and "Solved" in rows[4]  # the last round's standings below
        assert sorted(r.split()[0] for r in rows[5:]) == ["Anna", "bot-1"]
        assert f"deal {lobby.session.deals[0][1]}" in text
        # play it alone: a practice round of that deal
        await pilot.press("p")
        await until(pilot, lambda: app.screen.__class__.__name__ == "GameScreen")
        assert app.table.deal_number == lobby.session.deals[0][1] and app.table.practice
        await pilot.press("q")
        await until(pilot, lambda: app.screen is lobby)


async def open_table(pilot, app, lobby, rounds: int, training: bool = False) -> None:
    await pilot.press("o")
    await until(pilot, lambda: app.screen.__class__.__name__ == "OpenTableScreen")
    form = app.screen.form
    form.rounds, form.seats = rounds, 2
    if training:
        form.options.add("practice")
    app.screen.query_one("#form").highlighted = len(form.lines()) - 1
    await pilot.press("enter")
    await until(pilot, lambda: lobby.session.phase == "waiting")


async def race_against_a_bot(pilot, app, palast, name: str = "Anna", rounds: int = 2):
    """Sign in, open a table of ``rounds``, seat the client ``bot-1`` and start: (lobby, bot)
    once the app shows the race."""
    lobby = await sign_in(pilot, app, name)
    await open_table(pilot, app, lobby, rounds=rounds)
    bot = await palast.player("bot-1")
    await bot.join(table=lobby.session.table.id)
    await until(pilot, lambda: len(lobby.session.table.players) == 2)
    await pilot.press("s")
    await until(pilot, lambda: isinstance(app.screen, RaceScreen))
    return lobby, bot


async def test_each_player_is_one_row_above_the_race_at_80_columns(palast, make_app, monkeypatch):
    # A line wider than the screen wrapped, and the wrapped row pushed the last player out of
    # sight (at 80×24 the house bots' race showed two of its three bots).  Each line is one row,
    # cut with an ellipsis when it must be.
    from spider_tui.ui.palast import lines

    real = lines.opponent_line
    monkeypatch.setattr(lines, "opponent_line", lambda p, total=None: real(p, total) + " and a long tail" * 3)
    app = make_app(server=palast.url)
    async with app.run_test(size=(80, 24)) as pilot:
        await race_against_a_bot(pilot, app, palast)
        await pilot.pause()
        ops = app.screen.query_one("#opponents")
        assert ops.region.height == 2 and ops.region.width == 80  # You, and bot-1
        shown = ["".join(seg.text for seg in ops.render_line(y)) for y in range(2)]
        assert shown[0].lstrip().startswith("You") and shown[1].lstrip().startswith("bot-1"), shown
        assert shown[1].rstrip().endswith("…"), shown


async def first_round_to_standings(pilot, app, palast):
    """A two-round race against ``bot-1``: it plays a few moves of round 1, Anna gives up, and
    the lobby shows the standings; (lobby, bot)."""
    lobby, bot = await race_against_a_bot(pilot, app, palast, rounds=2)
    ev = await bot.wait_for("round")
    await play_round(bot, ev["position"], limit=3)
    await pilot.press("g", "y")
    await until(pilot, lambda: app.screen is lobby and lobby.session.phase == "standings")
    return lobby, bot


async def test_round_standings_with_ready_then_the_next_round(palast, make_app):
    app = make_app(server=palast.url)
    async with app.run_test(size=(80, 24)) as pilot:
        lobby, bot = await first_round_to_standings(pilot, app, palast)
        text = statics(lobby)
        assert "Round 1/2" in text and "y: Ready" in text and f"deal {lobby.session.deals[0][1]}" in text
        ol = lobby.query_one("#p-list")
        rows = [str(ol.get_option_at_index(i).prompt) for i in range(ol.option_count)]
        assert sorted(r.split()[0] for r in rows) == ["Anna", "bot-1"]
        await pilot.press("y")
        await until(pilot, lambda: "waiting for the others" in statics(lobby))
        await bot.ready()
        await until(pilot, lambda: isinstance(app.screen, RaceScreen) and lobby.session.round == 2)
        await until(pilot, lambda: "round 2/2" in str(app.screen.query_one("#info").render()))


async def test_reconnect_after_the_server_restarts(tmp_path, make_app):
    server = PalastServer(open_store(None, tmp_path), "127.0.0.1", 0, options=make_options())
    await server.start()
    port = server.port
    app = make_app(server=f"ws://127.0.0.1:{port}")
    try:
        async with app.run_test(size=(80, 24)) as pilot:
            lobby = await sign_in(pilot, app, "Anna")
            await open_table(pilot, app, lobby, rounds=1, training=True)
            await pilot.press("s")
            await until(pilot, lambda: isinstance(app.screen, RaceScreen))
            race = app.screen
            hint = race.table.game.hint()
            await pilot.press(str((hint.source + 1) % 10), str((hint.target + 1) % 10))
            await until(pilot, lambda: not lobby.session._pending)
            seen = race.table.game.view()
            await server.stop()
            status = race.query_one("#status")
            await until(pilot, lambda: "Offline, reconnecting" in str(status.render()))
            await pilot.press("question_mark")  # a hint doesn't erase it while offline (issue 22 item 12)
            await pilot.pause()
            assert "Offline, reconnecting" in str(status.render())
            server = PalastServer(open_store(None, tmp_path), "127.0.0.1", port, options=make_options())
            await server.start()
            await until(pilot, lambda: not lobby.session.offline and "Offline" not in str(status.render()), 60)
            assert "Back online" in str(status.render())  # the reconnect is said
            assert app.screen is race and race.table.game.view() == seen
            assert "Moves: 1" in str(race.query_one("#moves").render())
            await pilot.press("q")
            await until(pilot, lambda: app.screen is lobby)
            await pilot.press("q")
            await until(pilot, lambda: not isinstance(app.screen, PalastScreen))
    finally:
        await server.stop()


async def test_click_sits_down_league_view_and_join_by_code(palast, make_app):
    # a finished table puts Anna and Carl in the league
    anna, carl = await palast.player("Anna"), await palast.player("Carl")
    t = await anna.open(rounds=1, seats=2)
    await carl.join(table=t["table"]["id"])
    await anna.start()
    for c in (anna, carl):
        ev = await c.wait_for("round")
        await play_round(c, ev["position"], limit=20 if c is anna else 10)  # >= 10 moves each: rated (SPEC §13)
    await anna.wait_for("table_over")
    opened = await anna.open(rounds=1, seats=2, private=True)
    code = opened["code"]
    app = make_app(server=palast.url)
    async with app.run_test(size=(80, 24)) as pilot:
        lobby = await sign_in(pilot, app, "Bo")
        await until(pilot, lambda: lobby.session.tables)
        assert [t.id for t in lobby.session.tables] == [1]  # Anna's private table is not listed
        # the League view
        await pilot.press("l")
        await until(pilot, lambda: "Rating" in str(lobby.query_one("#p-title").render()))
        await until(pilot, lambda: lobby.query_one("#p-list").option_count == 2)
        ol = lobby.query_one("#p-list")
        rows = [str(ol.get_option_at_index(i).prompt).split() for i in range(2)]
        assert [r[:2] for r in rows] == [["1", "Anna"], ["2", "Carl"]]  # Anna scored more: rated first
        assert rows[0][3:5] == ["1", "1"]  # tables, wins
        await pilot.press("l")
        await until(pilot, lambda: "Host" in str(lobby.query_one("#p-title").render()))
        # a click on the standard table sits down
        await pilot.click("#p-list", offset=(10, 0))
        await until(pilot, lambda: lobby.session.phase == "waiting")
        assert lobby.session.table.standard
        await pilot.press("x")
        await until(pilot, lambda: lobby.session.phase == "lobby")
        # join Anna's private table by its code
        await pilot.press("c")
        await until(pilot, lambda: app.screen.query("#ask"))
        for ch in code:
            await pilot.press(ch)
        await pilot.press("enter")
        await until(pilot, lambda: lobby.session.phase == "waiting")
        assert lobby.session.table.id == opened["table"]["id"]
        assert "The host starts the table" in statics(lobby)


def test_server_flag_is_checked():
    from spider_tui.cli import UsageError, parse_app_args

    _, launch = parse_app_args(["--server", "ws://127.0.0.1:8765"])
    assert launch.server == "ws://127.0.0.1:8765"
    for bad in ("http://x", "127.0.0.1:8765", "ws://\x1b[2J"):
        with pytest.raises(UsageError, match="ws://127.0.0.1:8765"):
            parse_app_args(["--server", bad])


async def test_x_leaves_a_running_table_after_a_question(palast, make_app):
    # SPEC §13: a player may leave a running table; in the race x asks first (issue 20 item 8).
    app = make_app(server=palast.url)
    async with app.run_test(size=(80, 24)) as pilot:
        lobby, bot = await race_against_a_bot(pilot, app, palast, rounds=2)
        race = app.screen
        await pilot.press("x")
        await until(pilot, lambda: race.dialog is not None)
        assert "forfeited" in statics(race)
        await pilot.press("n")  # stay
        await until(pilot, lambda: race.dialog is None)
        assert app.screen is race and lobby.session.phase == "race"
        await pilot.press("x")
        await until(pilot, lambda: race.dialog is not None)
        await pilot.press("y")
        await until(pilot, lambda: app.screen is lobby and lobby.session.phase == "lobby")
        seen = await bot.wait_for("progress", player="Anna", state="left", timeout=10)
        assert seen["state"] == "left"


async def test_the_app_lists_the_finished_rounds_after_a_restart(palast_factory, make_app):
    # SPEC §13: after welcome a seated player gets every finished round's round_over (issue 20 item 7).
    palast = await palast_factory(out_seconds=0.3, between_seconds=60)
    app = make_app(server=palast.url)
    async with app.run_test(size=(80, 24)) as pilot:
        lobby, bot = await race_against_a_bot(pilot, app, palast, rounds=3)
        await pilot.press("q")
        await until(pilot, lambda: app.screen is lobby)
        await pilot.press("q")
        await until(pilot, lambda: not isinstance(app.screen, PalastScreen))
    # Anna is away: the bot gives up, and she is out (offline while playing): the round ends.
    await bot.play("give up", check=True)
    told = None
    async with asyncio.timeout(20):
        while told is None:
            ev = await bot.next_event()
            if ev and ev["type"] == "round_over":
                told = ev
    app = make_app(server=palast.url)
    async with app.run_test(size=(80, 24)) as pilot:
        await until(pilot, lambda: isinstance(app.screen, PalastScreen))
        lobby = app.screen
        await until(pilot, lambda: lobby.session.deals == [(1, told["deal"])])
        await until(pilot, lambda: lobby.session.phase == "standings")
        await until(pilot, lambda: f"deal {told['deal']}" in statics(lobby))
        assert "Round 1/3" in statics(lobby)


async def test_between_rounds_x_twice_leaves_the_table(palast, make_app):
    app = make_app(server=palast.url)
    async with app.run_test(size=(80, 24)) as pilot:
        lobby, bot = await race_against_a_bot(pilot, app, palast, rounds=2)
        await bot.wait_for("round")
        await bot.play("give up", check=True)
        await pilot.press("g", "y")
        await until(pilot, lambda: app.screen is lobby and lobby.session.phase == "standings")
        await pilot.press("x")
        await until(pilot, lambda: "forfeited" in statics(lobby))
        assert lobby.session.phase == "standings"  # asked, not left
        await pilot.press("x")
        await until(pilot, lambda: lobby.session.phase == "lobby")
        # The round-2 start doesn't wait for Anna, who left: the bot's ready starts it.
        await bot.ready()
        r2 = await bot.wait_for("round", round=2, timeout=10)
        assert r2["round"] == 2


async def test_a_practice_round_between_rounds_never_takes_over_the_palast(palast_factory, make_app):
    # Issue 22 item 6: between rounds p (play it alone); round 2 came; after giving up as the last
    # player the screen showed the old practice round ("Practice · 1 suit Moves: 0") instead of
    # the final standings, which only appeared after q.
    from spider_tui.ui.screens.game_screen import GameScreen

    # Round 2 starts when both are ready (issue 33 item 9: a 0.5 s pause between rounds raced a
    # loaded machine, and round 2 came before `p` was pressed): the bot and Anna's session say
    # ready while the practice round is on screen.
    palast = await palast_factory(between_seconds=600)
    app = make_app(server=palast.url)
    async with app.run_test(size=(80, 24)) as pilot:
        lobby, bot = await first_round_to_standings(pilot, app, palast)
        await pilot.press("p")  # the deal alone, as practice
        await until(pilot, lambda: isinstance(app.screen, GameScreen) and not isinstance(app.screen, RaceScreen))
        practice = app.screen
        await bot.ready()
        assert await lobby.session.ready()
        await until(pilot, lambda: lobby.session.round == 2 and lobby.session.phase == "race")
        await pilot.pause()
        assert app.screen is practice  # told, not pulled away from the practice
        await pilot.press("q")  # leave the practice, go to the table
        await until(pilot, lambda: app.screen is lobby)
        await pilot.press("t")
        await until(pilot, lambda: isinstance(app.screen, RaceScreen))
        ev = await bot.wait_for("round", round=2)
        await play_round(bot, ev["position"], limit=3)
        await pilot.press("g", "y")
        await until(pilot, lambda: lobby.session.phase == "final")
        await until(pilot, lambda: "Final ranking" in statics(lobby))
        await pilot.pause()
        assert app.screen is lobby, app.screen_stack  # the final standings, not the old practice round
        assert "Final ranking" in statics(lobby)
