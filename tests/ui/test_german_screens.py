"""Every screen in German (SPEC §17): the app under ``LANG=de_DE.UTF-8`` walked with Pilot at
80×24 — start screen, its lists, the help (every line), stats, lessons and a lesson, a round
with its bars, a hint, a refused move, a held group, the confirm and won dialogs, a column
view, the too-small message — and no English sentence is left on any of them
(``tests/german_check.py``).  Under ``LANG=C`` the same start screen is English."""

from __future__ import annotations

import pytest

from spider_tui.engine import Game
from spider_tui.i18n import set_language
from spider_tui.ui.screens.game_screen import GameScreen
from spider_tui.ui.screens.start_screen import StartScreen
from tests.german_check import english_left
from tests.waiting import until_app

from .conftest import NEARLY_WON

SIZE = (80, 24)


@pytest.fixture(autouse=True)
def german(monkeypatch):
    for name in ("LC_ALL", "LC_MESSAGES"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("LANG", "de_DE.UTF-8")
    yield
    set_language("en")


def screen_text(app) -> str:
    """What the terminal shows now, as plain text."""
    return "\n".join(strip.text for strip in app.screen._compositor.render_strips())


seen: list[str] = []


async def look(pilot, what: str) -> str:
    await pilot.pause()
    text = screen_text(pilot.app)
    left = english_left(text)
    assert left == [], f"English left on {what}:\n" + "\n".join(left) + "\n\n" + text
    seen.append(what)
    return text


async def press(pilot, *keys: str) -> None:
    for k in keys:
        await pilot.press(k)
    await pilot.pause()


async def test_the_start_screen_and_its_lists_in_german(make_app):
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await until_app(pilot, lambda: isinstance(app.screen, StartScreen))
        text = await look(pilot, "the start screen")
        assert "Neues Spiel (n)" in text and "Sprache (g): Deutsch" in text
        await press(pilot, "o")
        text = await look(pilot, "the special rules")
        assert "Sonderregeln für neue Runden" in text
        await press(pilot, "escape", "d")
        text = await look(pilot, "the daily challenge")
        assert "Tagesspiel" in text and "(heute)" in text
        await press(pilot, "escape", "s")
        await look(pilot, "the stats")
        await press(pilot, "escape", "l")
        text = await look(pilot, "the lessons")
        assert "Lektionen" in text and "Aufgabe:" in text
        await press(pilot, "enter")
        await until_app(pilot, lambda: isinstance(app.screen, GameScreen))
        text = await look(pilot, "a lesson")
        assert "Lektion 1" in text
        await press(pilot, "q")
        await until_app(pilot, lambda: not isinstance(app.screen, GameScreen))


async def test_a_round_and_its_dialogs_in_german(make_app):
    app = make_app(deal=5, suits=2, rules="joker+scoring+timed")
    async with app.run_test(size=SIZE) as pilot:
        await until_app(pilot, lambda: isinstance(app.screen, GameScreen))
        text = await look(pilot, "the table")
        assert "Züge: 0" in text and "Austeilen: 5" in text and "Joker: 3 (J)" in text
        await press(pilot, "question_mark")
        text = await look(pilot, "a hint")
        assert "Tipp:" in text
        await press(pilot, "escape", "1")
        await look(pilot, "a held group")
        await press(pilot, "1")
        await press(pilot, "1", "1")  # onto its own column: refused, one line says why
        await look(pilot, "a refused move")
        await press(pilot, "escape", "d")
        await press(pilot, "n")
        text = await look(pilot, "the new-deal question")
        assert "Ein neues Spiel beginnen?" in text
        await press(pilot, "escape", "g")
        await look(pilot, "the give-up question")
        await press(pilot, "escape", "v", "3")
        text = await look(pilot, "a column view")
        assert "Spalte 3" in text
        await press(pilot, "escape", "s")
        await look(pilot, "the stats over the table")
        await press(pilot, "escape", "J")
        text = await look(pilot, "a joker")
        assert "Joker (3 übrig)" in text
        await press(pilot, "escape")
        await pilot.resize_terminal(45, 15)
        await pilot.pause()
        text = await look(pilot, "the size message")
        assert "spider braucht ein Terminal" in text


async def test_the_won_dialog_in_german(make_app):
    app = make_app(deal=77, suits=1)
    async with app.run_test(size=SIZE) as pilot:
        await until_app(pilot, lambda: isinstance(app.screen, GameScreen))
        app.table.game = Game.from_text(NEARLY_WON)
        await press(pilot, "2", "1")
        text = await look(pilot, "the won dialog")
        assert "Gewonnen!" in text and "Züge" in text


async def test_every_line_of_the_help_in_german(make_app):
    from spider_tui.ui.widgets.dialogs import help_text

    set_language("de")
    text = help_text()
    assert english_left(text) == []
    assert "REGELN" in text and "TIPPS" in text and "GLOSSAR" in text and "Talon" in text
    app = make_app(deal=5)
    async with app.run_test(size=SIZE) as pilot:
        await until_app(pilot, lambda: isinstance(app.screen, GameScreen))
        await press(pilot, "f1")
        for page in range(30):  # every page, as a player turns them
            await look(pilot, f"help page {page + 1}")
            await press(pilot, "pagedown")


async def test_english_under_the_c_locale(make_app, monkeypatch):
    monkeypatch.setenv("LANG", "C")
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await until_app(pilot, lambda: isinstance(app.screen, StartScreen))
        text = screen_text(app)
        assert "New game (n)" in text and "Language (g): English" in text
        assert english_left(text) != []  # the check does see English


async def _end_a_round(app, pilot, data_dir) -> None:
    """Three best moves and a give-up: the round is over and its record written."""
    from spider_tui.store.records import RecordStore

    for _i in range(3):
        await pilot.press("enter")
    await press(pilot, "g", "y")
    assert app.book.writer.flush(20)
    await until_app(pilot, lambda: len(RecordStore(data_dir).paths()) == 1)


async def test_the_records_list_a_replay_and_its_review_in_german(make_app, data_dir):
    from spider_tui.ui.screens.records_screen import RecordsScreen, ReplayScreen

    app = make_app(deal=11, suits=2)
    async with app.run_test(size=SIZE) as pilot:
        await until_app(pilot, lambda: isinstance(app.screen, GameScreen))
        await _end_a_round(app, pilot, data_dir)
        await look(pilot, "a round given up")
        await press(pilot, "x")
        text = await look(pilot, "the shared line")
        await press(pilot, "q", "r")
        await until_app(pilot, lambda: isinstance(app.screen, RecordsScreen))
        text = await look(pilot, "the records list")
        assert "Datum (UTC)" in text and "Spiel" in text and "Ergebnis" in text and "aufgegeben" in text
        await press(pilot, "enter")
        await until_app(pilot, lambda: isinstance(app.screen, ReplayScreen))
        text = await look(pilot, "a replay")
        assert "Spiel 11 · 2 Farben" in text and "Schritt 0 von" in text and "Pos1/Ende" in text
        await press(pilot, "right", "c")
        text = await look(pilot, "a replay's step with the hidden cards")
        assert "verdeckte Karten gezeigt" in text
        await press(pilot, "f1")
        await look(pilot, "the replay's help")


async def test_a_ghost_race_in_german(make_app, data_dir):
    from spider_tui.ui.screens.ghost_screen import GhostScreen

    app = make_app(deal=11, suits=2)
    async with app.run_test(size=SIZE) as pilot:
        await until_app(pilot, lambda: isinstance(app.screen, GameScreen))
        await _end_a_round(app, pilot, data_dir)
        await press(pilot, "r")
        text = await look(pilot, "a retry's offer of the last try")
        assert "letzten Versuch" in text
        await press(pilot, "t")
        await until_app(pilot, lambda: isinstance(app.screen, GhostScreen))
        text = await look(pilot, "a ghost race")
        assert "letzter Versuch" in text
        await press(pilot, "enter")
        await look(pilot, "a ghost race after a move")


async def test_the_compact_table_at_40x20_in_german(make_app):
    app = make_app(deal=5, suits=2)
    async with app.run_test(size=(40, 20)) as pilot:
        await until_app(pilot, lambda: isinstance(app.screen, GameScreen))
        text = await look(pilot, "the compact table")
        assert "Züge" in text or "Austeilen" in text
        await press(pilot, "question_mark")
        await look(pilot, "a hint at the compact table")
        await press(pilot, "escape", "1")
        await look(pilot, "a held group at the compact table")
        await press(pilot, "escape", "q")
        await until_app(pilot, lambda: isinstance(app.screen, StartScreen))
        await look(pilot, "the start screen at 40x20")
        await pilot.resize_terminal(39, 20)
        await pilot.pause()
        text = await look(pilot, "the size message at 39x20")
