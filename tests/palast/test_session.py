"""The Palast session (SPEC §13, the player's side) against a real server on loopback: sign in,
lobby, open, join, the race table (moves shown at once, cards told by the server's answer,
refusals put the table back), progress, standings, the final ranking, faults."""

from __future__ import annotations

import asyncio
import socket

import pytest

from spider_tui.engine import Game, deal_code
from spider_tui.engine.cards import UNKNOWN
from spider_tui.palast.messages import Play
from spider_tui.palast.server.db import open_store
from spider_tui.palast.server.server import PalastServer
from spider_tui.palast.client.session import BACK_ONLINE_TEXT, PalastError, PalastSession

from tests.waiting import until

from .conftest import HINT_SOLVES, make_options
from .helpers import play_round


async def test_sign_in_registers_and_keeps_the_token(palast, sessions):
    s = await sessions(palast.url, "Anna")
    assert s.token and len(s.token) > 20
    assert s.phase == "lobby"
    assert any(t.standard for t in s.tables)  # the standard table is always open
    await s.close()
    again = await sessions(palast.url, "anna", s.token)  # names are case-insensitive
    assert again.name == "Anna"


async def test_a_taken_name_and_a_wrong_token_are_one_line(palast, sessions):
    await sessions(palast.url, "Anna")
    with pytest.raises(PalastError, match="taken"):
        await PalastSession(palast.url, "ANNA").start()
    with pytest.raises(PalastError, match="token"):
        await PalastSession(palast.url, "Anna", "not-the-token").start()


async def test_an_unreachable_server_is_one_line():
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    with pytest.raises(PalastError) as e:
        await PalastSession(f"ws://127.0.0.1:{port}", "Anna").start()
    assert str(e.value).startswith(f"Can't reach ws://127.0.0.1:{port}")
    assert "\n" not in str(e.value)
    with pytest.raises(PalastError, match="not a server address"):
        await PalastSession("http//nowhere", "Anna").start()


async def test_a_server_that_is_not_a_palast_is_one_line(tmp_path):
    async def handler(reader, writer):
        await reader.read(1000)
        writer.write(b"HTTP/1.1 404 Not Found\r\nContent-Length: 0\r\n\r\n")
        await writer.drain()
        writer.close()

    server = await asyncio.start_server(handler, "127.0.0.1", 0)
    port = server.sockets[0].getsockname()[1]
    try:
        with pytest.raises(PalastError, match="not a Palast server"):
            await PalastSession(f"ws://127.0.0.1:{port}", "Anna").start()
    finally:
        server.close()
        await server.wait_closed()


async def test_open_join_by_code_start_and_race_one_round_to_the_final_ranking(palast_factory, sessions):
    palast = await palast_factory(draw=lambda: HINT_SOLVES)  # a deal whose first hint is a move, not a deal
    anna = await sessions(palast.url, "Anna")
    assert await anna.open(suits=1, rules="classic", rounds=1, seats=2, private=True)
    assert anna.phase == "waiting" and anna.is_host and anna.code
    bo = await sessions(palast.url, "Bo")
    assert not any(t.id == anna.table.id for t in bo.tables)  # private: not in Bo's lobby
    assert await bo.join(code=anna.code)
    await until(lambda: anna.table.players == ["Anna", "Bo"])
    assert not bo.is_host
    assert await anna.start_table()
    await until(lambda: anna.phase == "race" and bo.phase == "race")
    assert set(anna.opponents) == {"Bo"}
    race = anna.race
    assert 590 < race.time_left <= 600  # the round's countdown (make_options: 600 s)

    # Anna's move shows at once; the card it turns up arrives with the server's answer.
    hint = race.game.hint()
    assert hint is not None and not hint.is_deal
    race.key_column(hint.source)
    race.key_column(hint.target)
    assert race.game.moves == 1  # shown before any answer
    await until(lambda: not anna._pending)
    assert UNKNOWN not in [c for col, d in zip(race.game.columns, race.game.down) for c in col[d:]]
    assert race.game.view() == anna._confirmed  # the same as the server's position

    # Bo's progress reaches Anna; it does not change her table.
    version = race.version
    await bo._request(Play(move=str(bo.race.game.hint())))
    await until(lambda: anna.opponents["Bo"].moves == 1)
    assert race.version == version

    # A deal brings a row the server tells.
    race.deal()
    await until(lambda: not anna._pending)
    assert race.game.deals_left == 4
    assert UNKNOWN not in [col[-1] for col in race.game.columns]

    race.give_up()
    bo.race.give_up()
    await until(lambda: anna.phase == "final" and bo.phase == "final")
    assert anna.standings.round == 1
    assert {s.player for s in anna.standings.standings} == {"Anna", "Bo"}
    assert len(anna.deals) == 1 and anna.deals[0][0] == 1 and anna.deals[0][1] == deal_code(HINT_SOLVES)
    assert sorted(r.player for r in anna.ranking) == ["Anna", "Bo"]
    assert {r.place for r in anna.ranking} <= {1, 2}
    anna.back_to_lobby()
    assert anna.phase == "lobby"


async def test_a_refused_action_puts_the_table_back_and_says_why(palast, sessions):
    anna = await sessions(palast.url, "Anna")
    await anna.open(rules="practice", rounds=1, seats=2)
    await anna.start_table()  # a Training table may start alone
    await until(lambda: anna.phase == "race")
    race = anna.race
    before = race.game.view()
    race.game.play(race.game.hint())  # the view drifts from the server's (never sent)
    anna._send("1>1")  # and the server refuses this
    await until(lambda: not anna._pending and race.status)
    assert race.game.view() == before
    assert race.status and "\n" not in race.status


async def test_undo_without_a_remembered_move_asks_the_server(palast, sessions):
    anna = await sessions(palast.url, "Anna")
    await anna.open(rules="practice", rounds=1, seats=2)
    await anna.start_table()
    await until(lambda: anna.phase == "race")
    race = anna.race
    start = race.game.view()
    race.play(race.game.hint())
    await until(lambda: not anna._pending)
    race.game._log.clear()  # as after a resync from the server's position
    assert race.undo()
    await until(lambda: not anna._pending)
    assert race.game.columns == Game.from_text(start).columns  # the server's position after undo
    assert race.game.score == Game.from_text(start).score - 1  # undo costs 1 point


async def test_a_bot_races_the_session_to_the_end(palast, sessions):
    anna = await sessions(palast.url, "Anna")
    await anna.open(rounds=1, seats=2)
    bot = await palast.player("bot-1")
    await bot.join(table=anna.table.id)
    await anna.start_table()
    ev = await bot.wait_for("round")
    await play_round(bot, ev["position"], limit=30)
    await until(lambda: "bot-1" in anna.opponents and anna.opponents["bot-1"].state in ("gave up", "stuck", "solved"))
    while anna.race.game.hint() is not None and anna.race.game.moves < 20 and not anna.race.over:
        anna.race.play(anna.race.game.hint())
        await until(lambda: not anna._pending)
    anna.race.give_up()
    await until(lambda: anna.phase == "final")
    assert [r.player for r in anna.ranking] and anna.standings.deal == anna.deals[-1][1]


async def test_reconnect_after_the_server_restarts_resumes_the_same_position(tmp_path, sessions):
    server = PalastServer(open_store(None, tmp_path), "127.0.0.1", 0, options=make_options())
    await server.start()
    port = server.port
    url = f"ws://127.0.0.1:{port}"
    anna = await sessions(url, "Anna")
    await anna.open(rules="practice", rounds=1, seats=2)
    await anna.start_table()
    await until(lambda: anna.phase == "race")
    anna.race.play(anna.race.game.hint())
    await until(lambda: not anna._pending)
    seen = anna.race.game.view()
    ends_at = anna.race.ends_at
    await server.stop()
    await until(lambda: anna.offline)
    assert not anna.race.play(anna.race.game.hint() or "deal")  # offline: nothing is played
    assert anna.race.status == "Offline, reconnecting…"
    server = PalastServer(open_store(None, tmp_path), "127.0.0.1", port, options=make_options())
    await server.start()
    try:
        await until(lambda: not anna.offline and anna.race.status == BACK_ONLINE_TEXT, timeout=60)  # said (issue 22 item 12)
        assert anna.race.game.view() == seen
        assert abs(anna.race.ends_at - ends_at) < 1  # the clock kept running
    finally:
        await anna.close()
        await server.stop()


async def test_signing_in_elsewhere_takes_the_seat_without_a_tug_of_war(palast, sessions):
    first = await sessions(palast.url, "Anna")
    second = await sessions(palast.url, "Anna", first.token)
    await until(lambda: first.closed)
    assert "another terminal" in first.status
    assert not second.offline and not second.closed
    assert await second.open(rounds=1, seats=2)  # the newer sign-in works on


async def test_a_joker_is_played_at_once_and_the_server_agrees(palast, sessions):
    anna = await sessions(palast.url, "Anna")
    await anna.open(rules="joker+practice", rounds=1, seats=2)
    await anna.start_table()
    await until(lambda: anna.phase == "race")
    race = anna.race
    jokers = race.game.jokers_left
    assert jokers > 0
    # A view can't know the card a joker brings: the table asks the server and shows its answer.
    target = next(c for c in range(10) if race.game.columns[c][-1] & 15 != 1)
    race.joker()
    race.tap(target)
    assert anna._pending
    await until(lambda: not anna._pending)
    assert race.game.moves == 1 and race.game.jokers_left == jokers - 1
    assert race.game.view() == anna._confirmed and race.status == f"Joker onto column {target + 1}."


async def test_the_race_behind_the_round_face(palast, sessions):
    from spider_tui.palast.client.session import PalastRound
    from spider_tui.session import Session

    anna = await sessions(palast.url, "Anna")
    await anna.open(rules="practice", rounds=2, seats=2)
    await anna.start_table()
    await until(lambda: anna.phase == "race")
    face = PalastRound(anna)
    assert isinstance(face, Session)
    assert face.table is anna.race and face.title == "Palast round 1/2"
    assert not face.needs_asking() and face.retry() is None and not face.counts()
    assert not face.offers & {"new", "retry", "still_winnable"}  # said, not raised
    anna.race.play(anna.race.game.hint())
    assert face.changed() == "keep" and not face.recorded
    assert "keep your seat" in face.give_up_question()
    assert face.give_up()
    assert face.recorded and face.changed() == ""
    await until(lambda: anna.phase == "standings")  # the server took the give-up: the round ended


# Issue 33 item 8: the open-table form's Fast line says the server's real clock.
async def test_the_open_table_forms_fast_line_says_the_servers_clock(palast_factory, sessions):
    from spider_tui.ui.palast.open_form import OpenForm

    palast = await palast_factory(fast_seconds=300)
    anna = await sessions(palast.url, "Anna")
    told = {t.fast_seconds for t in anna.tables}
    assert told == {300}
    lines = dict(OpenForm(fast_seconds=300).lines())
    assert lines["fast"].endswith("Fast (5 min rounds)")
    assert dict(OpenForm(fast_seconds=450).lines())["fast"].endswith("Fast (7.5 min rounds)")
