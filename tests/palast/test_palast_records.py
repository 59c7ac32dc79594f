"""SPEC §16: a Palast keeps every player's record of every finished round in its database and
hands them out (``records {table, round}`` -> ``records {records: [text]}``) after that round's
``round_over``, never before.  Each record replays on the engine to exactly its result."""

from __future__ import annotations

import re
import sqlite3
from importlib import resources
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from spider_tui import records
from spider_tui.engine import Game, deal_code
from spider_tui.palast import messages as m
from spider_tui.palast.protocol import play_rules
from spider_tui.palast.server.db import ResultRow, TableRow, open_store, ActionRow
from spider_tui.palast.server.records import RESULT_OF, round_records
from tests.palast.helpers import play_round


async def _two_at_a_table(palast, rounds=2):
    anna, bo = await palast.player("Anna"), await palast.player("Bo")
    opened = await anna.open(suits=1, rules="classic", rounds=rounds, seats=2, private=False)
    await bo.join(table=opened["table"]["id"])
    await anna.start()
    return anna, bo, opened["table"]["id"]


async def test_records_only_after_round_over_and_each_replays_to_its_standing(palast):
    anna, bo, table = await _two_at_a_table(palast)
    first = await anna.wait_for("round", round=1)
    await bo.wait_for("round", round=1)
    carl = await palast.player("Carl")  # not at the table: may ask too, once the round is over
    for who in (anna, carl):
        early = await who.ask(m.AskRecords(table=table, round=1), check=False)
        assert early["type"] == "refused" and early["code"] == m.Code.ROUND_NOT_OVER.value, early
    assert (await anna.ask(m.AskRecords(table=table, round=2), check=False))["code"] == m.Code.NO_ROUND.value
    await play_round(anna, first["position"], limit=12)  # a dozen hint moves, then give up
    await bo.play("give up")
    over = await carl.ask(m.AskRecords(table=table, round=1), check=False)  # may race the round's end
    ended = await anna.wait_for("round_over", round=1)
    answer = await carl.ask(m.AskRecords(table=table, round=1))
    assert answer["type"] == "records" and isinstance(answer.message, m.Records)
    assert over["type"] == "records" or over["code"] == m.Code.ROUND_NOT_OVER.value
    standings = {s["player"]: s for s in ended["standings"]}
    texts = answer.message.records
    assert len(texts) == 2
    for text in texts:
        record, game = records.read_checked(text)  # replays to exactly its header's result
        s = standings[record.player]
        assert (record.moves, record.score) == (s["moves"], s["score"])
        assert record.result == RESULT_OF[s["state"]] == "gave up"
        assert record.deal == ended["deal"] and record.table == str(table)
        assert record.palast == palast.url and record.rules == play_rules("classic")
    anna_record = records.read(next(t for t in texts if "player: Anna\n" in t))
    assert len(anna_record.actions) == 12 and not any("give up" in t for t in texts)
    # the round after is refused again until it is over
    await anna.request("ready")
    await bo.request("ready")
    await anna.wait_for("round", round=2)
    assert (await carl.ask(m.AskRecords(table=table, round=2), check=False))["code"] == m.Code.ROUND_NOT_OVER.value


async def test_records_of_a_private_table_only_for_its_players(palast):
    anna, bo = await palast.player("Anna"), await palast.player("Bo")
    opened = await anna.open(suits=1, rules="classic", rounds=1, seats=2, private=True)
    await bo.join(code=opened["code"])
    await anna.start()
    await anna.wait_for("round")
    await anna.play("give up")
    await bo.play("give up")
    await anna.wait_for("table_over")
    table = opened["table"]["id"]
    carl = await palast.player("Carl")
    assert (await carl.ask(m.AskRecords(table=table, round=1), check=False))["code"] == m.Code.NO_TABLE.value
    assert len((await bo.ask(m.AskRecords(table=table, round=1))).message.records) == 2


async def test_records_message_bounds_are_checked():
    for bad in ({"table": 0, "round": 1}, {"table": 1, "round": 0}, {"table": 1, "round": 11},
                {"table": 1}, {"table": "1", "round": 1}, {"table": 1, "round": 1, "player": "x"}):
        with pytest.raises(m.Refusal):
            m.read_client('{"type": "records", ' + ", ".join(f'"{k}": {v!r}'.replace("'", '"') for k, v in bad.items()) + "}")
    assert m.read_client('{"type": "records", "table": 3, "round": 2}') == m.AskRecords(table=3, round=2)


def _previous_schema() -> str:
    """``schema.sql`` as it was before records and the daily board (schema version 3)."""
    text = resources.files("spider_tui.palast.server.db").joinpath("schema.sql").read_text()
    text = text[:text.index("CREATE TABLE IF NOT EXISTS records")]
    text = re.sub(r"(full_at DOUBLE PRECISION),(\s*--[^\n]*)\n\s*daily TEXT[^\n]*", r"\1\2", text)
    assert "daily" not in text
    return text


async def test_a_database_of_the_previous_schema_gets_records_and_the_daily_board(tmp_path, db_url):
    old = _previous_schema()
    if db_url.startswith("postgresql:"):
        import psycopg

        old = re.sub(r"\bid INTEGER PRIMARY KEY\b", "id BIGINT GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY", old)
        with psycopg.connect(db_url, autocommit=True) as db:
            db.execute(old)
            db.execute("CREATE TABLE palast_schema (version INTEGER NOT NULL PRIMARY KEY, applied DOUBLE PRECISION NOT NULL)")
            db.execute("INSERT INTO palast_schema VALUES (1, 0), (2, 0), (3, 0)")
            db.execute("ALTER TABLE players ADD COLUMN IF NOT EXISTS skeleton TEXT")
            assert db.execute("SELECT to_regclass('records')").fetchone()[0] is None
    else:
        with sqlite3.connect(db_url) as db:
            db.executescript(old)
            assert not db.execute("SELECT 1 FROM sqlite_master WHERE name = 'records'").fetchone()
    store = open_store(db_url, tmp_path)
    await store.open()
    try:
        anna = await store.register("Anna", "h", 0.0)
        t = await store.create_table(host="Anna", suits=1, rules="classic", rounds=1, seats=2, private=False,
                                     code=None, standard=False, now=1.0)
        assert await store.seat(t.id, anna.id, 1.0) is None
        assert await store.start_round(t.id, 1, deal_code(bytes(16)), 2.0, 1202.0)
        assert await store.records(t.id, 1) == []
        result = ResultRow(t.id, 1, anna.id, "Anna", 0, False, 0, None, "gave up")
        assert await store.end_round(t.id, 1, [result], 3.0, None, records={anna.id: "game: spider\n"})
        assert await store.records(t.id, 1) == ["game: spider\n"]
        code = deal_code(bytes(range(16)))  # the daily board's tables and column
        assert await store.daily_deal("2026-12-02", 2, code) == code
        assert await store.daily_deal("2026-12-02", 2, deal_code(bytes(16))) == code  # the first one stays
        d = await store.create_table(host="Anna", suits=2, rules="classic", rounds=1, seats=1, private=True,
                                     code=None, standard=False, now=4.0, daily="2026-12-02")
        assert (await store.table(d.id)).daily == "2026-12-02" and (await store.table(t.id)).daily is None
        assert await store.daily_try("2026-12-02", 2, anna.id, d.id)
        assert not await store.daily_try("2026-12-02", 2, anna.id, d.id + 1)
        assert await store.daily_board("2026-12-02", 2) == ([], 1)
    finally:
        await store.close()
    if db_url.startswith("postgresql:"):
        import psycopg

        with psycopg.connect(db_url) as db:
            assert db.execute("SELECT max(version) FROM palast_schema").fetchone()[0] == 4


STATES = ("solved", "gave up", "stuck", "out", "left", "idle", "out of time")


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.binary(min_size=16, max_size=16), suits=st.sampled_from((1, 2, 4)),
       plan=st.lists(st.sampled_from(("hint", "hint", "hint", "undo", "deal")), max_size=40),
       gaps=st.lists(st.integers(0, 5000), min_size=40, max_size=40), end=st.sampled_from(STATES))
def test_a_record_made_by_the_palast_replays_to_its_result(seed, suits, plan, gaps, end):
    """Whatever a player did, the record the Palast writes reads back and replays to its result,
    moves and score (``records.read_checked``)."""
    deal = deal_code(seed)
    rules = play_rules("classic")
    g = Game.new(deal, suits=suits, rules=rules)
    actions, at = [], 100.0
    for i, step in enumerate(plan):
        if g.won or g.lost:
            break
        move = None
        if step == "undo":
            move = "undo" if g.copy().undo() else None
        elif step == "deal":
            move = "deal" if any(str(x) == "deal" for x in g.legal_moves()) else None
        hint = g.hint()
        if move is None and hint is not None:
            move = str(hint)
        if move is None:
            break
        if move == "undo":
            g.undo()
        else:
            move = str(g.play(move))
        at += gaps[i] / 1000
        actions.append(ActionRow(7, 1, 3, len(actions) + 1, move, at))
    state = "solved" if g.won else ("stuck" if g.stuck else ("gave up" if end in ("solved", "stuck") else end))
    if state == "gave up":
        g.give_up()
        actions.append(ActionRow(7, 1, 3, len(actions) + 1, "give up", at + 0.5))
    row = TableRow(7, "Anna", suits, "classic", 1, 2, False, None, False, "playing", 1, "over", deal,
                   100.0, 1300.0, None, 1.0, None)
    result = ResultRow(7, 1, 3, "Anna", g.score, g.won, g.moves, None, state)
    text = round_records(palast="ws://127.0.0.1:8765", table=row, n=1, deal=deal, started=100.0,
                         ended=at + 1.0, results=[result], actions=actions)[3]
    record, replayed = records.read_checked(text)
    assert (record.moves, record.score, record.won) == (g.moves, g.score, g.won)
    assert record.result == RESULT_OF[state]
    assert replayed.key() == g.key() if not g.lost else True
    assert [a for _ms, a in record.actions] == [a.move for a in actions if a.move != "give up"]


async def test_the_new_refusals_read_in_german(palast):
    """SPEC §17: the reasons of records, watching and the daily board in the client's language."""
    from spider_tui.i18n import set_language

    try:
        de = await palast.raw()
        await de.hello("Greta", None, lang="de")
        missing = await de.request("records", check=False, table=1)
        assert missing["reason"] == "'records' braucht 'table' und 'round'.", missing
        assert (await de.ask(m.Unwatch(), check=False))["reason"] == "Du siehst keinem Tisch zu."
        assert (await de.ask(m.PlayDaily(suits=1)))["type"] == "joined"
        await de.wait_for("round")
        await de.play("give up")
        await de.wait_for("table_over")
        again = await de.ask(m.PlayDaily(suits=1), check=False)
        assert again["reason"] == "Du hattest deinen heutigen Versuch an diesem Tagestisch; komm morgen wieder."
    finally:
        set_language("en")
