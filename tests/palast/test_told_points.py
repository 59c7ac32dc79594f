"""Issue 33 item 7 (SPEC §15): at the Palast the points of a deal and of a joker, which only the
server's answer brings, show where they were earned (a Training deal took 10 -> 12 unlabelled);
against a real server on loopback."""

from __future__ import annotations

import pytest

from spider_tui.engine.scoring import JOIN_POINTS
from spider_tui.palast.client.session import PalastSession

from tests.waiting import until


@pytest.fixture
async def anna(palast):
    s = PalastSession(palast.url, "Anna")
    await s.start()
    yield s
    await s.close()


async def test_a_deals_joins_show_on_their_columns_when_the_server_tells_the_row(anna):
    assert await anna.open(rules="practice", rounds=1, seats=2)
    await anna.start_table()
    await until(lambda: anna.phase == "race")
    race = anna.race
    for _ in range(5):
        before = race.game.score
        assert race.deal()
        await until(lambda: not anna._pending)
        gained = race.game.score - before
        if gained:
            break
    else:
        pytest.skip("no deal of this round joined a card")  # pragma: no cover - the seeded deals do
    joins = [e for e in race.earned if e.where == "join"]
    assert joins and sum(e.points for e in race.earned) == gained
    for e in joins:
        col = race.game.columns[e.column]
        assert e.points == JOIN_POINTS[1] and col[-2] == col[-1] + 1 and e.index == len(col) - 1
    assert any(s.badge is not None for s in race.column_states())  # drawn beside the card


async def test_a_jokers_points_show_at_its_column(anna):
    assert await anna.open(rules="joker+practice", rounds=1, seats=2)
    await anna.start_table()
    await until(lambda: anna.phase == "race")
    race = anna.race
    target = next(c for c in range(10) if race.game.columns[c][-1] & 15 != 1)
    before = race.game.score
    race.joker()
    race.tap(target)
    await until(lambda: not anna._pending and race.game.moves == 1)
    gained = race.game.score - before
    assert gained > 0  # the joker's card lies on its own suit: a join
    assert race.earned and sum(e.points for e in race.earned) == gained
    assert race.earned[0].where == "join" and race.earned[0].column == target
