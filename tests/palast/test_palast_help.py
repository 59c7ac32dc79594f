"""Issue 33 item 7: F1 opens help at its PALAST section in the lobby and in the open-table form
(seed 003: help in the game, at the Palast too), as in the race; Pilot against a real server."""

from __future__ import annotations

from spider_tui.ui.palast.lobby import PalastScreen
from spider_tui.ui.widgets.dialogs import Help
from tests.waiting import until_app as until

from .test_app import make_app, sign_in  # noqa: F401 - the fixture

__all__ = ["make_app"]


async def test_f1_opens_help_at_palast_in_the_lobby_and_in_the_open_table_form(palast, make_app):  # noqa: F811
    app = make_app(server=palast.url)
    async with app.run_test(size=(80, 24)) as pilot:
        lobby = await sign_in(pilot, app, "Anna")
        await until(pilot, lambda: lobby.session.tables)
        await pilot.press("f1")
        await until(pilot, lambda: isinstance(app.dialog, Help))
        assert app.dialog.section == "PALAST"
        lines = app.dialog.page_lines(78)
        assert lines[app.dialog.top].plain == "PALAST"
        await pilot.press("escape")
        await until(pilot, lambda: app.dialog is None and isinstance(app.screen, PalastScreen))
        assert lobby.session.phase == "lobby"  # Esc closed help, not the Palast
        await pilot.press("o")
        await until(pilot, lambda: app.screen.__class__.__name__ == "OpenTableScreen")
        form = app.screen
        await pilot.press("f1")
        await until(pilot, lambda: isinstance(app.dialog, Help))
        assert app.dialog.section == "PALAST"
        await pilot.press("escape")
        await until(pilot, lambda: app.dialog is None)
        assert app.screen is form  # the form is still there, as it was
