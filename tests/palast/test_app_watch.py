"""SPEC §16 in the app (Pilot tests against a real server on loopback): the standings' "watch"
(the round's records, opened in the solo replay screen; a bad record is a one-line notice),
watching a running table from the lobby (the players' lines live; back to the lobby), and the
lobby's "Today" (the daily board, its commitment, its top, the one try)."""

from __future__ import annotations

from spider_tui.palast.client import session as session_module
from spider_tui.ui.palast.lobby import PalastScreen
from spider_tui.ui.palast.race import RaceScreen
from spider_tui.ui.screens.records_screen import ReplayScreen
from tests.waiting import until_app as until

from .helpers import hint_move
from .test_app import first_round_to_standings, make_app, sign_in, statics  # noqa: F401 (make_app: a fixture)


def rows(lobby: PalastScreen) -> list[str]:
    ol = lobby.query_one("#p-list")
    return [str(ol.get_option_at_index(i).prompt) for i in range(ol.option_count)]


async def test_the_standings_open_the_rounds_records_in_the_replay(palast, make_app, monkeypatch):
    real = session_module.read_records
    # the server's records are sound; one made bad on its way in must be a notice, no more
    monkeypatch.setattr(session_module, "read_records",
                        lambda n, texts: real(n, [t.replace("moves: ", "moves: 9", 1) if "player: bot-1\n" in t else t
                                                  for t in texts]))
    app = make_app(server=palast.url)
    async with app.run_test(size=(80, 24)) as pilot:
        lobby, bot = await first_round_to_standings(pilot, app, palast)
        assert "w: the records" in statics(lobby)
        await pilot.press("w")
        await until(pilot, lambda: lobby.show_records)
        assert "Records of table" in statics(lobby)
        shown = rows(lobby)
        assert len(shown) == 2
        anna = next(i for i, r in enumerate(shown) if "Anna" in r)
        bad = 1 - anna
        assert "can't be replayed" in shown[bad] and "gave up" in shown[anna]
        ol = lobby.query_one("#p-list")
        ol.highlighted = bad
        await pilot.press("enter")
        await until(pilot, lambda: app._notifications)
        note = list(app._notifications)[-1].message
        assert note.startswith("line ") and "\n" not in note
        assert app.screen is lobby and lobby.show_records  # nothing else changed
        ol.highlighted = anna
        await pilot.press("enter")
        await until(pilot, lambda: isinstance(app.screen, ReplayScreen))
        replay = app.screen
        assert "Anna" in str(replay.query_one("#info").render())
        assert replay.replay.record.deal == lobby.session.deals[0][1]
        await pilot.press("end")
        assert replay.replay.step == replay.replay.last == len(replay.replay.record.actions)
        await pilot.press("q")
        await until(pilot, lambda: app.screen is lobby)
        assert lobby.show_records
        await pilot.press("escape")  # back to the standings, still at the table
        await until(pilot, lambda: not lobby.show_records)
        assert lobby.session.phase == "standings" and "y: Ready" in statics(lobby)
        # the records again, then the next round: its own standings come back, not the old records
        await pilot.press("w")
        await until(pilot, lambda: lobby.show_records)
        await pilot.press("y")
        await bot.ready()
        await until(pilot, lambda: isinstance(app.screen, RaceScreen) and lobby.session.round == 2)
        await bot.wait_for("round", round=2)
        await bot.play("give up")
        await pilot.press("g", "y")
        await until(pilot, lambda: app.screen is lobby and lobby.session.phase == "final")
        assert not lobby.show_records and "Final ranking" in statics(lobby)
        await pilot.press("w")  # at the end: both rounds' records, the last first
        await until(pilot, lambda: lobby.show_records)
        assert [r.split()[0] for r in rows(lobby)] == ["2", "2", "1", "1"]


async def test_watch_a_running_table_from_the_lobby_and_go_back(palast, make_app):
    anna, bo = await palast.player("Anna"), await palast.player("Bo")
    opened = await anna.open(suits=1, rules="classic", rounds=2, seats=2, private=False)
    table = opened["table"]["id"]
    await bo.join(table=table)
    await anna.start()
    first = await anna.wait_for("round", round=1)
    app = make_app(server=palast.url)
    async with app.run_test(size=(80, 24)) as pilot:
        lobby = await sign_in(pilot, app, "Carl")
        await until(pilot, lambda: any(t.id == table for t in lobby.session.tables))
        ol = lobby.query_one("#p-list")
        ol.highlighted = next(i for i, r in enumerate(rows(lobby)) if r.split()[0] == str(table))
        await pilot.press("w")
        await until(pilot, lambda: lobby.session.phase == "watching")
        assert f"Watching table {table}" in statics(lobby)
        assert sorted(r.split()[0] for r in rows(lobby)) == ["Anna", "Bo"]
        view = first["position"]
        from spider_tui.engine import Game

        g = Game.from_text(view)
        for _ in range(3):
            g = Game.from_text((await anna.play(hint_move(g)))["position"])
        await until(pilot, lambda: any(r.startswith("Anna") and "Moves   3" in r for r in rows(lobby)))
        assert not isinstance(app.screen, RaceScreen)  # no cards: no table
        assert "w: the records" not in statics(lobby)  # no round is over: no records yet
        await anna.play("give up")
        await bo.play("give up")
        await until(pilot, lambda: "Round 1/2 is over" in statics(lobby))
        assert sorted(r.split()[0] for r in rows(lobby)) == ["Anna", "Bo"]  # the round's standings
        await pilot.press("w")  # and its records, now that it is over
        await until(pilot, lambda: lobby.show_records)
        assert sorted(r.split()[1] for r in rows(lobby)) == ["Anna", "Bo"]
        await pilot.press("escape")
        await until(pilot, lambda: not lobby.show_records)
        assert lobby.session.phase == "watching"
        await pilot.press("q")
        await until(pilot, lambda: lobby.session.phase == "lobby")
        assert isinstance(app.screen, PalastScreen) and lobby.session.watched is None


async def test_watching_a_private_table_is_a_quiet_status_line(palast, make_app):
    anna, bo = await palast.player("Anna"), await palast.player("Bo")
    opened = await anna.open(suits=1, rules="classic", rounds=1, seats=2, private=True)
    await bo.join(code=opened["code"])
    app = make_app(server=palast.url)
    async with app.run_test(size=(80, 24)) as pilot:
        lobby = await sign_in(pilot, app, "Carl")
        await until(pilot, lambda: lobby.session.tables)
        lobby.session.tables.append(lobby.session.tables[0].__class__(id=opened["table"]["id"], private=True))
        lobby.render_phase()
        lobby.query_one("#p-list").highlighted = len(rows(lobby)) - 1
        await pilot.press("w")
        await until(pilot, lambda: "private" in str(lobby.query_one("#p-status").render()))
        assert lobby.session.phase == "lobby"


async def test_today_shows_the_board_plays_the_try_once(palast, make_app):
    bo = await palast.player("Bo")
    from spider_tui.palast import messages as m

    joined = await bo.ask(m.PlayDaily(suits=1))
    await bo.wait_for("round", table=joined["table"]["id"])
    await bo.play("give up")
    await bo.wait_for("table_over")
    app = make_app(server=palast.url)
    async with app.run_test(size=(80, 24)) as pilot:
        lobby = await sign_in(pilot, app, "Anna")
        await pilot.press("d")
        await until(pilot, lambda: lobby.show_today and lobby.session.daily is not None)
        text = statics(lobby)
        assert "Today" in text and "p: play today's try" in text.replace("Enter or p: play", "p: play")
        shown = rows(lobby)
        commitment = lobby.session.daily_board(1).commitment
        assert f"commitment {commitment}" in "\n".join(shown)
        assert shown[0].startswith("1 suit · 1 try") and "your try is still to play" in shown[0]
        assert any(r.strip().startswith("1. Bo") for r in shown)  # the top of the board
        lobby.query_one("#p-list").highlighted = next(i for i, r in enumerate(shown) if r.startswith("2 suits"))
        await pilot.press("p")
        await until(pilot, lambda: isinstance(app.screen, RaceScreen))
        assert lobby.session.table.suits == 2
        await pilot.press("g", "y")
        await until(pilot, lambda: app.screen is lobby and lobby.session.phase == "final")
        status = str(lobby.query_one("#p-status").render())
        assert "the deal code is told when the day is over" in status and "Warning" not in status
        assert "the deal code is told when the day is over" in statics(lobby)
        assert "You won the table" not in statics(lobby) and "Your try is on today's board (d)" in statics(lobby)
        await pilot.press("w")  # its records wait for the day's end: a quiet line, nothing else
        await until(pilot, lambda: "when its day is over" in str(lobby.query_one("#p-status").render()))
        assert not lobby.show_records and lobby.session.phase == "final"
        await pilot.press("b")
        await until(pilot, lambda: lobby.session.phase == "lobby")
        await pilot.press("d")
        await until(pilot, lambda: lobby.show_today and lobby.session.daily_board(2).me is not None)
        shown = rows(lobby)
        two = next(i for i, r in enumerate(shown) if r.startswith("2 suits"))
        assert "your try: " in shown[two]
        lobby.query_one("#p-list").highlighted = two
        await pilot.press("enter")
        await until(pilot, lambda: "You had today's try at 2 suits" in str(lobby.query_one("#p-status").render()))
        assert lobby.session.phase == "lobby"
        await pilot.press("escape")  # Today closes; the tables again
        await until(pilot, lambda: not lobby.show_today)
        assert isinstance(app.screen, PalastScreen)
