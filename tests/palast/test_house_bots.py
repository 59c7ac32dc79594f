"""SPEC §13 "House bots" (issue 20 item 9): a person alone at a standard table gets house bots
that play as the fair bot from their view only, at a set pace; they are marked ``bot: true``
wherever names show, never get a league rating, and a table whose only person played with bots
counts as Training for the league."""

from __future__ import annotations

from spider_tui.engine import Game
from spider_tui.palast.server import house


async def _alone_at_the_standard_table(palast) -> tuple:
    anna = await palast.player("Anna")
    standard = next(t for t in await anna.tables() if t["standard"])
    joined = await anna.join(table=standard["id"])
    assert joined["table"]["players"] == ["Anna"]
    return anna, joined["table"]


async def test_a_person_waiting_alone_gets_house_bots_and_the_table_starts(palast_factory, monkeypatch):
    seen: list[str] = []
    real = house.plan_moves

    def spy(position: str) -> list[str]:
        seen.append(position)
        return real(position)

    monkeypatch.setattr(house, "plan_moves", spy)
    palast = await palast_factory(house_bots_after=0.3, house_bot_pace=0.05, round_seconds=30)
    anna, t = await _alone_at_the_standard_table(palast)
    r = await anna.wait_for("round", timeout=20)
    table = next(m for m in reversed(anna.received) if m["type"] == "table")["table"]
    assert table["id"] == t["id"] and len(table["players"]) == 4
    bots = [s["player"] for s in table["seated"] if s.get("bot")]
    assert len(bots) == 3 and [s for s in table["seated"] if not s.get("bot")] == [{"player": "Anna"}]
    # The bots play (at their pace) and are marked in every progress.
    async def bot_moved() -> bool:
        return any(m["type"] == "progress" and m["player"] in bots and m["moves"] > 0 for m in anna.received)

    while not await bot_moved():
        await anna.next_event(timeout=20)
    progress = [m for m in anna.received if m["type"] == "progress"]
    assert all(m.get("bot") is True for m in progress if m["player"] in bots)
    assert not any("bot" in m for m in progress if m["player"] == "Anna")
    # The fair bot was only ever shown views: every face-down and stock card '??'.
    assert seen and all(Game.from_text(p).view() == p for p in seen)
    assert all("deal:" not in p for p in seen)
    lobby = await anna.tables()
    mine = next(x for x in lobby if x["id"] == t["id"])
    assert sorted(s["player"] for s in mine["seated"] if s.get("bot")) == sorted(bots)
    assert r["table"] == t["id"]


async def test_no_bots_before_the_wait_nor_at_a_table_of_two_people(palast_factory):
    palast = await palast_factory(house_bots_after=60, house_bot_pace=0.05)
    anna, t = await _alone_at_the_standard_table(palast)
    bo = await palast.player("Bo")
    joined = await bo.join(table=t["id"])
    assert joined["table"]["players"] == ["Anna", "Bo"]
    assert all(not s.get("bot") for s in joined["table"]["seated"])


async def test_house_bots_get_no_rating_and_their_table_is_training_for_the_league(palast_factory):
    palast = await palast_factory(house_bots_after=0.2, house_bot_pace=0.01, round_seconds=2, between_seconds=0.2)
    anna, t = await _alone_at_the_standard_table(palast)
    for n in (1, 2, 3):
        await anna.wait_for("round", round=n, timeout=30)
        await anna.play("give up", check=True)
        over = await anna.wait_for("round_over", round=n, timeout=30)
        assert over["deal"].startswith("p-")
        assert sum(1 for s in over["standings"] if s.get("bot") is True) == 3
        assert not any("bot" in s for s in over["standings"] if s["player"] == "Anna")
    ranking = (await anna.wait_for("table_over", timeout=30))["ranking"]
    assert len(ranking) == 4
    league = await anna.league()
    assert not any(p["name"].startswith("House bot") for p in league)  # bots are never in the league
    me = next((p for p in league if p["name"] == "Anna"), None)
    # Anna's only company was bots: Training for the league (a counted table would list her, tables 1)
    assert me is None or me["tables"] == 0


async def test_bots_stop_when_no_person_is_playing_so_nobody_waits_for_them(palast_factory):
    # The person gives up at once: the bots (slow here) give up at their next turn, and the round
    # ends long before its clock (10 minutes) — the "watched Time left count to 0".
    palast = await palast_factory(house_bots_after=0.2, house_bot_pace=0.3)
    anna, t = await _alone_at_the_standard_table(palast)
    await anna.wait_for("round", timeout=30)
    await anna.play("give up", check=True)
    over = await anna.wait_for("round_over", round=1, timeout=30)
    states = {s["player"]: s["state"] for s in over["standings"]}
    assert states.pop("Anna") == "gave up" and set(states.values()) <= {"gave up", "solved", "stuck"}


def test_bots_are_marked_on_the_race_and_standings_lines():
    from spider_tui.ui.palast import lines

    bot = {"player": "House bot 1", "score": 5, "runs": 0, "moves": 3, "state": "playing", "bot": True}
    assert lines.opponent_line(bot).endswith("playing · bot")
    assert not lines.opponent_line({**bot, "bot": False}).endswith("bot")
    row = {"player": "House bot 1", "score": 5, "total": 5, "solved": False, "moves": 3, "seconds": 1.0,
           "state": "gave up", "bot": True}
    assert lines.standings_row(row).endswith("  bot")
    assert lines.standings_row({**row, "bot": None, "state": "left"}).endswith("  left")
