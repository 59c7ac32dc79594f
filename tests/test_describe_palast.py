"""The Palast's line front end without a server (SPEC §17): the others' progress is said after an
answer, at most once every 30 seconds and only when it changed; network names can't inject."""

from __future__ import annotations

from spider_tui.describe_palast import PROGRESS_EVERY, PalastLines
from spider_tui.engine import Game
from spider_tui.palast.client.session import PalastSession, RaceTable
from spider_tui.palast.messages import Progress, TableInfo


def racing(now: list[float]) -> tuple[PalastSession, PalastLines, list[str]]:
    p = PalastSession("ws://127.0.0.1:1", "Anna")
    p.table = TableInfo(id=1, players=["Anna", "Bo"], rounds=1, seats=2, state="playing")
    p.race = RaceTable(Game.new(1), p, ends_at=1e12)
    said: list[str] = []
    front = PalastLines(p, said.extend, clock=lambda: now[0])
    p.opponents = {"Bo": Progress(player="Bo", score=3, runs=0, moves=1, state="playing")}
    return p, front, said


def test_progress_is_said_at_most_once_every_30_seconds_and_only_when_it_changed():
    now = [100.0]
    p, front, said = racing(now)
    assert front.news() == []  # nothing changed yet
    front.changed("progress")
    assert said == []  # never in the middle of a line: only after an answer
    assert front.news() == ["Bo: 3 points, 0 runs, 1 moves, playing."]
    front.changed("progress")
    now[0] += PROGRESS_EVERY - 1
    assert front.news() == []
    now[0] += 1
    assert front.news() == ["Bo: 3 points, 0 runs, 1 moves, playing."]
    now[0] += PROGRESS_EVERY * 2
    assert front.news() == []  # no progress since


def test_a_name_from_the_network_is_shown_not_obeyed():
    now = [0.0]
    p, front, said = racing(now)
    p.opponents = {"x": Progress(player="\x1b]0;PWNED\x07", score=0, runs=0, moves=0, state="playing")}
    [line] = front.progress_lines()
    assert "\x1b" not in line and "\x07" not in line and "\\x1b" in line


def test_the_round_beginning_is_said_with_the_table():
    now = [0.0]
    p, front, said = racing(now)
    p.round = 1
    front.changed("round")
    assert said[0].startswith("Round 1 of 1 begins: ")
    assert said[1].startswith("Column 1: ") and said[-1].startswith("Stock: 5 deals left.")
    assert len(said) == 12


async def test_new_and_retry_are_not_offered_in_a_race():
    now = [0.0]
    p, front, said = racing(now)
    before = p.race.game.to_text()
    assert await front.handle("n") == ["A Palast table plays its own rounds: no new deal, no retry."]
    assert await front.handle("r") == ["A Palast table plays its own rounds: no new deal, no retry."]
    assert p.race.game.to_text() == before and not p.race.over
