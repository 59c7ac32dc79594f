"""The Palast's screens in German (SPEC §17), against a real server on loopback: the sign-in
screen, the lobby, the "Open a table" form, the waiting table, the race with its opponent line,
the round's standings and the final ranking — no English left on any (``tests/german_check.py``)."""

from __future__ import annotations

import pytest

from spider_tui.i18n import set_language
from spider_tui.ui.palast.connect import ConnectScreen
from spider_tui.ui.palast.race import RaceScreen
from tests.german_check import english_left
from tests.waiting import until_app as until

from .helpers import play_round
from .test_app import make_app, sign_in  # noqa: F401 - the app factory fixture

pytestmark = pytest.mark.pilot


@pytest.fixture(autouse=True)
def german(monkeypatch):
    for name in ("LC_ALL", "LC_MESSAGES"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("LANG", "de_DE.UTF-8")
    yield
    set_language("en")


def screen_text(app) -> str:
    return "\n".join(strip.text for strip in app.screen._compositor.render_strips())


async def look(pilot, what: str) -> str:
    await pilot.pause()
    text = screen_text(pilot.app)
    left = english_left(text)
    assert left == [], f"English left on {what}:\n" + "\n".join(left) + "\n\n" + text
    return text


async def test_the_palast_in_german(palast, make_app):  # noqa: F811
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("p")
        await until(pilot, lambda: isinstance(app.screen, ConnectScreen))
        text = await look(pilot, "the sign-in screen")
        assert "Dein Name" in text
        app.screen.query_one("#c-server").value = palast.url
        lobby = await sign_in(pilot, app, "Anna")
        await until(pilot, lambda: lobby.session.tables)
        text = await look(pilot, "the lobby")
        assert "Enter/Klick: hinsetzen" in text and "Standard" in text
        await pilot.press("l")
        await until(pilot, lambda: lobby.show_league)
        await look(pilot, "the league")
        await pilot.press("l")
        await pilot.press("d")  # Today: the daily board (SPEC §16)
        await until(pilot, lambda: lobby.show_today and lobby.session.daily is not None)
        text = await look(pilot, "Today")
        assert "Heute" in text and "Zusage " in text and "dein Versuch steht noch aus" in text
        await pilot.press("d")
        await until(pilot, lambda: not lobby.show_today)
        await pilot.press("o")
        await until(pilot, lambda: app.screen.__class__.__name__ == "OpenTableScreen")
        text = await look(pilot, "the open-a-table form")
        assert "Tisch eröffnen" in text and "Runden: 3" in text
        form = app.screen.form
        form.rounds, form.seats = 1, 2
        app.screen.query_one("#form").highlighted = len(form.lines()) - 1
        await pilot.press("enter")
        await until(pilot, lambda: lobby.session.phase == "waiting")
        text = await look(pilot, "the waiting table")
        assert "wartet auf Spieler" in text
        bot = await palast.player("bot-1")
        await bot.join(table=lobby.session.table.id)
        await until(pilot, lambda: len(lobby.session.table.players) == 2)
        await pilot.press("s")
        await until(pilot, lambda: isinstance(app.screen, RaceScreen))
        ev = await bot.wait_for("round")
        await play_round(bot, ev["position"], limit=3)
        await pilot.pause(0.3)
        text = await look(pilot, "the race")
        assert "Palast, Runde 1/1" in text and "Summe" in text
        await pilot.press("g")
        await pilot.pause()
        await look(pilot, "the give-up question")
        await pilot.press("y")
        await until(pilot, lambda: lobby.session.phase in ("standings", "final") and app.screen is lobby)
        await until(pilot, lambda: lobby.session.phase == "final")
        text = await look(pilot, "the final ranking")
        assert "Endstand" in text
        await pilot.press("w")  # the table's records (SPEC §16)
        await until(pilot, lambda: lobby.show_records)
        text = await look(pilot, "the records")
        assert "Aufzeichnungen von Tisch" in text and "aufgegeben" in text


async def test_watching_in_german(palast, make_app):  # noqa: F811
    anna, bo = await palast.player("Anna"), await palast.player("Bo")
    opened = await anna.open(suits=1, rules="classic", rounds=2, seats=2, private=False)
    await bo.join(table=opened["table"]["id"])
    await anna.start()
    await anna.wait_for("round")
    app = make_app(server=palast.url)
    async with app.run_test(size=(80, 24)) as pilot:
        lobby = await sign_in(pilot, app, "Carl")
        await until(pilot, lambda: any(t.id == opened["table"]["id"] for t in lobby.session.tables))
        ol = lobby.query_one("#p-list")
        ol.highlighted = next(i for i in range(ol.option_count) if ol.get_option_at_index(i).id == str(opened["table"]["id"]))
        await pilot.press("w")
        await until(pilot, lambda: lobby.session.phase == "watching")
        text = await look(pilot, "a watched table")
        assert "Zuschauen an Tisch" in text and "läuft" in text
