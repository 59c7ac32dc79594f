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
    real = house.HouseBots.think

    async def spy(self, position: str, budget: int, weights=None) -> list[str]:
        seen.append(position)
        return await real(self, position, budget, weights)

    monkeypatch.setattr(house.HouseBots, "think", spy)
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
    # Training says so (issue 33 item 2): the table message once the bots sat, the lobby row (T),
    # the race's own line from the start, and the final words (no league result claimed).
    from spider_tui.palast.messages import Ranked, TableInfo
    from spider_tui.ui.palast import lines

    told = [m["table"] for m in anna.received if m["type"] in ("table", "joined") and len(m["table"]["players"]) == 4]
    assert told and all(x["training"] is True for x in told)
    assert lines.lobby_row(TableInfo.from_json(told[-1])).endswith(" T")
    assert lines.me_line(5, 1, 4, training=True).endswith("Training: not counted in the league")
    mine = next(r for r in ranking if r["player"] == "Anna")
    words = lines.final_words([Ranked.from_json(r) for r in ranking], "Anna", training=told[-1]["training"])
    assert words.endswith("Training: not counted in the league.") and ("won" in words) == (mine["place"] == 1)
    league = await anna.league()
    assert not any(p["name"].startswith("House bot") for p in league)  # bots are never in the league
    me = next((p for p in league if p["name"] == "Anna"), None)
    # Anna's only company was bots: Training for the league (a counted table would list her, tables 1)
    assert me is None or me["tables"] == 0


async def test_bots_stop_when_no_person_is_playing_so_nobody_waits_for_them(palast_factory):
    # The person gives up at once: the bots (slow here) play on briskly for a short while and
    # then stop, shown "stopped" (not a give-up they didn't choose), and the round ends long
    # before its clock (10 minutes) — the "watched Time left count to 0".
    palast = await palast_factory(house_bots_after=0.2, house_bot_pace=30, house_finish_seconds=0.3)
    anna, t = await _alone_at_the_standard_table(palast)
    await anna.wait_for("round", timeout=30)
    await anna.play("give up", check=True)
    over = await anna.wait_for("round_over", round=1, timeout=30)
    states = {s["player"]: s["state"] for s in over["standings"]}
    assert states.pop("Anna") == "gave up" and set(states.values()) == {"stopped"}
    progress = [m for m in anna.received if m["type"] == "progress" and m.get("bot")]
    assert {m["state"] for m in progress if m["state"] != "playing"} == {"stopped"}


async def test_bots_play_on_to_a_real_result_when_there_is_time(palast_factory):
    # The person gives up at once; the bots have long enough to finish: each ends solved, stuck
    # or gave up by its own plan, none "stopped" — and their games differ.
    palast = await palast_factory(house_bots_after=0.2, house_bot_pace=0.02, house_finish_seconds=600,
                                  house_cpu=50)
    anna, t = await _alone_at_the_standard_table(palast)
    await anna.wait_for("round", timeout=30)
    await anna.play("give up", check=True)
    over = await anna.wait_for("round_over", round=1, timeout=240)
    bots = [s for s in over["standings"] if s.get("bot")]
    assert len(bots) == 3 and {s["state"] for s in bots} <= {"solved", "stuck", "gave up"}
    # not three copies: their games part (levels, tastes); a hard deal may still bring two to one end
    assert len({(s["score"], s["moves"]) for s in bots}) >= 2
    finished = [m for m in anna.received if m["type"] == "progress" and m.get("bot") and m["state"] != "playing"]
    assert len({m["player"] for m in finished}) == 3


def test_bots_at_one_table_get_different_levels_and_paces_the_same_for_the_same_table():
    three = house.styles(7, 3, seed=11)
    assert len({s.level for s in three}) == 3 and len({s.pace for s in three}) == 3
    assert len({s.seed for s in three}) == 3
    assert house.styles(7, 3, seed=11) == three  # seeded
    assert house.styles(8, 3, seed=11) != three or house.styles(9, 3, seed=11) != three
    five = house.styles(7, 5, seed=11)
    assert all(s.level in house.BOT_LEVELS for s in five) and five[:3] == three


def test_the_cpu_budget_lets_plans_pay_up_to_their_share_then_makes_them_wait():
    now = [0.0]
    budget = house.CpuBudget(0.25, clock=lambda: now[0])
    assert budget.wait() == 0
    budget.pay(house.CPU_BURST + 1.0)  # a burst and one second more
    assert budget.wait() == 4.0  # one CPU second at a quarter of a core: 4 s
    now[0] += 4.0
    assert budget.wait() == 0
    now[0] += 1000
    budget.pay(0.1)
    assert budget.level == house.CPU_BURST - 0.1  # the bucket holds a burst, no more


def test_bots_are_marked_on_the_race_and_standings_lines():
    from dataclasses import replace

    from spider_tui.palast.messages import Progress, Standing
    from spider_tui.ui.palast import lines

    bot = Progress(player="House bot 1", score=5, runs=0, moves=3, state="playing", bot=True)
    assert lines.opponent_line(bot).endswith("playing · bot")
    assert not lines.opponent_line(replace(bot, bot=False)).endswith("bot")
    row = Standing(player="House bot 1", score=5, total=5, solved=False, moves=3, seconds=1.0,
                   state="gave up", bot=True)
    assert lines.standings_row(row).endswith("  bot")
    assert lines.standings_row(replace(row, bot=False, state="left")).endswith("  left")
    # a bot that stopped when the person finished says so, not "gave up" (issue 33 item 2)
    assert lines.standings_row(replace(row, state="stopped")).endswith("  bot stopped")
    stopped = lines.opponent_line(replace(bot, state="stopped"), (5, 2))
    assert stopped.endswith("stopped · bot") and len(stopped) <= 78
    assert "stopped when you finished" in lines.STOPPED_NOTE
