"""SPEC §15 at the Palast, against a real server on loopback: F1 in a race opens help at its
PALAST section, and a move's points show where they were earned."""

from __future__ import annotations

from spider_tui.ui.widgets.dialogs import Help
from tests.waiting import until_app as until

from .test_app import make_app, race_against_a_bot  # noqa: F401  (make_app is a fixture)


async def test_race_help_opens_at_palast_and_points_show_where_earned(palast, make_app):  # noqa: F811
    app = make_app(server=palast.url)
    async with app.run_test(size=(100, 30)) as pilot:
        lobby, bot = await race_against_a_bot(pilot, app, palast, rounds=1)
        race = app.screen
        await pilot.press("f1")
        await until(pilot, lambda: isinstance(race.dialog, Help))
        help_ = race.dialog
        assert help_.lines[help_.top].plain == "PALAST"
        await pilot.press("escape")
        await until(pilot, lambda: race.dialog is None)
        table = race.table
        for _ in range(30):  # play the hint until a move earns points (a deal may come first)
            hint = table.game.hint()
            assert hint is not None
            before = table.game.score
            if hint.is_deal:
                await pilot.press("d")
            else:
                await pilot.press(str((hint.source + 1) % 10), str((hint.target + 1) % 10))
            await pilot.pause()
            if table.game.score != before:
                break
        assert table.earned and sum(e.points for e in table.earned) == table.game.score - before
        assert all(e.text[0] in "+-" for e in table.earned)
