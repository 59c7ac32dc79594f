"""The Palast at the compact table (SPEC §17): a race at 40×20 against a real server on loopback,
played by taps (a card, then its target; the stock) and by keys, the opponents' rows in sight."""

from __future__ import annotations

from spider_tui.ui.widgets import Tableau
from tests.waiting import until_app as until

from .test_app import make_app, race_against_a_bot  # noqa: F401  (make_app is a fixture)


async def test_a_race_at_40x20_by_taps_and_keys(palast, make_app):  # noqa: F811
    app = make_app(server=palast.url)
    async with app.run_test(size=(40, 20)) as pilot:
        lobby, bot = await race_against_a_bot(pilot, app, palast, rounds=1)
        race = app.screen
        await pilot.pause()
        assert race.has_class("-compact") and not race.has_class("-small")
        views = race.query_one(Tableau).columns
        assert [v.region.width for v in views] == [4] * 10
        ops = race.query_one("#opponents")
        assert ops.region.height == 2 and ops.region.right <= 40  # You, and bot-1
        session = lobby.session
        table = race.table
        moves = 0
        for _ in range(6):  # taps and keys in turn, each move confirmed by the server
            hint = table.game.hint()
            assert hint is not None
            if hint.is_deal:
                await pilot.click("#stock")
            elif moves % 2 == 0:
                src = views[hint.source]
                lead = len(table.game.columns[hint.source]) - hint.count
                await pilot.click(src.tableau, offset=(src.x + 1, src.picture().rows.index(lead)))
                dst = views[hint.target]
                await pilot.click(dst.tableau, offset=(dst.x + 1, 0))
            else:
                await pilot.press(str((hint.source + 1) % 10), str((hint.target + 1) % 10))
            moves += 1
            await until(pilot, lambda: table.moves == moves)
        assert session.opponents  # the race goes on: the bot's row is there
        await bot.close()
