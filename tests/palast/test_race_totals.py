"""Issue 33 item 1: during round N each running Total and place is the total after round N-1 plus
this round's score (SPEC §13), also after a reconnect and for a player who left; against a real
server on loopback."""

from __future__ import annotations

import pytest

from spider_tui.palast.client.session import PalastSession
from spider_tui.ui.palast import lines

from tests.waiting import until


async def _play_some(s: PalastSession, moves: int) -> None:
    race = s.race
    for _ in range(moves):
        hint = race.game.hint()
        if hint is None:
            break
        race.play(hint)
        await until(lambda: not s._pending)


def _running(s: PalastSession) -> dict[str, tuple[int, int]]:
    """What the race screen shows: the totals before plus this round's scores (own and opponents')."""
    scores = {p: o.score or 0 for p, o in s.opponents.items()}
    scores[s.name] = int(s.race.game.score or 0)
    return lines.race_totals(s.totals_before(), scores)


def _screen_lines(s: PalastSession) -> list[str]:
    from types import SimpleNamespace

    from spider_tui.ui.palast.race import RaceScreen

    return RaceScreen.opponents_text(SimpleNamespace(palast=s, table=s.race)).splitlines()  # type: ignore[arg-type]


async def test_round_two_starts_from_round_ones_totals_also_after_a_reconnect_and_a_leave(palast, sessions):
    anna = await sessions(palast.url, "Anna")
    assert await anna.open(suits=1, rules="classic", rounds=3, seats=3)
    bo = await sessions(palast.url, "Bo")
    cy = await sessions(palast.url, "Cy")
    assert await bo.join(table=anna.table.id) and await cy.join(table=anna.table.id)
    await until(lambda: len(anna.table.players) == 3)
    assert await anna.start_table()
    await until(lambda: all(s.phase == "race" for s in (anna, bo, cy)))
    assert _screen_lines(anna)[0].endswith("Total     0  1st of 3")  # round 1: nothing before
    await _play_some(anna, 6)
    await _play_some(bo, 2)
    for s in (anna, bo, cy):
        s.race.give_up()
    await until(lambda: all(s.phase == "standings" for s in (anna, bo, cy)))
    after_one = {r.player: r.total for r in anna.standings.standings}
    assert after_one["Anna"] > 0 and after_one["Anna"] != after_one["Cy"]  # a real difference to keep
    for s in (anna, bo, cy):
        assert await s.ready()
    await until(lambda: all(s.phase == "race" and s.round == 2 for s in (anna, bo, cy)))

    # Round 2 at its start: each total is round 1's, ranked by it (the bug showed Total 0 for all).
    shown = _screen_lines(anna)  # the race screen's own lines
    assert shown[0].endswith(f"Total {after_one['Anna']:>5}  1st of 3")
    assert any(line.startswith("Cy") and f"Total {after_one['Cy']:>5} 3rd" in line for line in shown)
    assert anna.standings is None and anna.totals_before() == after_one
    start = _running(anna)
    assert {p: t for p, (t, _) in start.items()} == after_one
    assert start["Anna"][1] == 1 and start["Cy"][1] == 3
    await _play_some(cy, 3)
    await until(lambda: anna.opponents["Cy"].moves == 3)
    assert _running(anna)["Cy"][0] == after_one["Cy"] + anna.opponents["Cy"].score

    # A reconnect (a new session with the token): the same totals.
    again = await sessions(palast.url, "Anna", anna.token)
    await until(lambda: again.phase == "race" and again.round == 2)
    assert again.totals_before() == after_one
    assert _running(again)["Anna"][0] == after_one["Anna"] + again.race.game.score

    # Bo leaves the running table: his total stands and is still ranked.
    assert await bo.leave()
    assert _running(again)["Bo"][0] == after_one["Bo"]
    assert len(_running(again)) == 3
