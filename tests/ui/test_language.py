"""The language on the start screen (SPEC §17): a chip and a key, remembered in the save file,
over the locale; --lang over both."""

from __future__ import annotations

from spider_tui.i18n import language, set_language
from spider_tui.store import SaveFile
from spider_tui.ui.screens.start_screen import StartScreen
from spider_tui.ui.widgets import Chip
from tests.waiting import until_app

SIZE = (80, 24)


def chip(app, id_: str) -> str:
    return str(app.screen.query_one(f"#{id_}", Chip).content)


def saved_language(data_dir) -> str:
    return SaveFile(data_dir / "save.toml").load()["settings"].get("language", "")


async def test_the_language_chip_switches_and_is_remembered(make_app, data_dir, monkeypatch):
    monkeypatch.setenv("LANG", "C.UTF-8")
    monkeypatch.delenv("LC_ALL", raising=False)
    monkeypatch.delenv("LC_MESSAGES", raising=False)
    app = make_app()
    try:
        async with app.run_test(size=SIZE) as pilot:
            await until_app(pilot, lambda: isinstance(app.screen, StartScreen))
            assert chip(app, "language") == "Language (g): English"
            assert chip(app, "newgame") == "New game (n)"
            await pilot.press("g")
            await until_app(pilot, lambda: isinstance(app.screen, StartScreen) and app.screen.is_mounted
                            and chip(app, "language").startswith("Sprache"))
            assert language() == "de"
            assert chip(app, "language") == "Sprache (g): Deutsch"
            assert chip(app, "newgame") == "Neues Spiel (n)"
            assert chip(app, "quit") == "Beenden (q)"
            app.book.flush(timeout=5)
        assert saved_language(data_dir) == "de"

        again = make_app()  # the next start speaks the saved choice, whatever the locale says
        async with again.run_test(size=SIZE) as pilot:
            await until_app(pilot, lambda: isinstance(again.screen, StartScreen))
            assert chip(again, "language") == "Sprache (g): Deutsch"
            await pilot.click("#language")  # the chip does what its key does
            await until_app(pilot, lambda: isinstance(again.screen, StartScreen) and again.screen.is_mounted
                            and chip(again, "language").startswith("Language"))
            assert chip(again, "newgame") == "New game (n)"
            again.book.flush(timeout=5)
        assert saved_language(data_dir) == "en"
    finally:
        set_language("en")


async def test_lang_and_locale(make_app, data_dir, monkeypatch):
    monkeypatch.delenv("LC_ALL", raising=False)
    monkeypatch.delenv("LC_MESSAGES", raising=False)
    monkeypatch.setenv("LANG", "de_DE.UTF-8")
    try:
        app = make_app()
        async with app.run_test(size=SIZE) as pilot:
            await until_app(pilot, lambda: isinstance(app.screen, StartScreen))
            assert chip(app, "newgame") == "Neues Spiel (n)"  # the locale's language
        app = make_app(lang="en")
        async with app.run_test(size=SIZE) as pilot:
            await until_app(pilot, lambda: isinstance(app.screen, StartScreen))
            assert chip(app, "newgame") == "New game (n)"  # --lang over the locale
    finally:
        set_language("en")
