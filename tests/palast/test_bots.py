"""SPEC §13/§14: the bot players play as the fair bot, from their view only, at a level, at a
chosen pace."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from spider_tui.engine import Game, Move
from spider_tui.engine.fairbot import plan
from spider_tui.palast.client.bots import bot_line, human_delay


def view_of(game: Game) -> Game:
    return Game.from_text(game.view())


def test_a_bot_plays_the_fair_bots_plan_not_the_hint():
    # Deal 3 (1 suit): the fair bot's first plan is a line of several moves up to the first
    # card it turns up; the old bots played the hint one action at a time.
    view = view_of(Game.new(3, suits=1))
    line = bot_line(view, 2)
    assert line == [str(m) for m in plan(view, level=2)]
    assert len(line) >= 1 and line != ["give up"]


def test_level_0_plays_the_hint():
    view = view_of(Game.new(3, suits=1))
    assert bot_line(view, 0) == [str(view.hint())]


def test_a_stuck_bot_gives_up():
    # Nothing fits anywhere and no stock: the fair bot has no plan.
    lines = ["Ks Qs | As", "Kh Qh | Ah", "Js | 3s", "Jh | 3h", "Ts 2h | 5s", "Th 4s | 5h",
             "8s 4h 6s | 7s", "8h 6h | 7h", "| 9s", "| 2s 9h"]
    text = "suits: 2\nstock: -\ndone: s s s h h h\n" + "".join(f"{i}: {c}\n" for i, c in enumerate(lines, 1))
    view = view_of(Game.from_text(text))
    assert bot_line(view, 3) == ["give up"]


@settings(max_examples=50, deadline=None)
@given(st.integers(min_value=0, max_value=2**32), st.booleans())
def test_a_human_pace_takes_seconds_like_a_person(seed, first):
    d = human_delay(random.Random(seed), first)
    assert (2.0 <= d <= 6.0) if first else (0.6 <= d <= 1.8)


def _played(game: Game, move: str):
    """The server's answer to ``move`` on the full game, as ``LiveTable`` builds it."""
    from spider_tui.engine.cards import card_text
    from spider_tui.palast import messages as msg

    played = game.play(move)
    return msg.Played(
        move=move, position=game.view(), score=game.score, moves=game.moves, state="playing",
        turned_up=[msg.TurnedUp(column=c + 1, card=card_text(card)) for c, card in played.turned_up],  # 1-10 on the wire
        dealt=[card_text(c) for c in played.dealt],
        completed=[c + 1 for c, _suit in played.completed],
    )


@settings(deadline=None, max_examples=40)
@given(st.integers(1, 10**6), st.sampled_from([1, 2, 4]), st.integers(0, 2**32))
def test_a_bots_view_after_its_move_is_the_servers_view(number, suits, seed):
    """The bots play their own move on their view and tell it the cards the answer turned up
    or dealt (cheaper than reading the position again): the view must stay exactly what the
    server says it is, without falling back on reading the position."""
    from spider_tui.palast.client import bots

    read_again = []

    def next_view(view, move, answer):
        real = Game.from_text
        bots.Game.from_text = lambda text: (read_again.append(move), real(text))[1]  # type: ignore[method-assign]
        try:
            return bots.next_view(view, move, answer)
        finally:
            bots.Game.from_text = real  # type: ignore[method-assign]

    rng = random.Random(seed)
    full = Game.new(number, suits=suits)
    view = view_of(full)
    for _ in range(120):
        moves = [str(mv) for mv in view.legal_moves()]
        if not moves or full.over:
            break
        hint = view.hint()
        # the hint as the level-0 bot plays it (the Move itself), or a move's text
        move: Move | str = hint if hint is not None and rng.random() < 0.7 else rng.choice(moves)
        answer = _played(full, str(move))
        view = next_view(view, move, answer)
        assert view.view() == full.view()
        assert view.key() == Game.from_text(full.view()).key()
    assert read_again == []


async def test_bots_at_a_real_server_keep_its_view_after_every_answer_without_reading_the_position(tmp_path, monkeypatch):
    """Level-0 bots against a real `spider server` (its own process): after every answer the
    bot's view, made from its own move and the cards the answer told, is the position the server
    sent, and it never had to read that position instead."""
    import signal

    from spider_tui.palast.client import bots

    from .test_faults import _start_server

    checked: list[tuple[bool, bool]] = []  # (kept its own view, equal to the server's)
    real = bots.next_view

    def next_view(view, move, answer):
        after = real(view, move, answer)
        checked.append((after is view, after.view() == answer.position))
        return after

    monkeypatch.setattr(bots, "next_view", next_view)
    proc, url = _start_server(tmp_path, "--start-wait", "0.5", "--no-house-bots")
    try:
        summary = await bots.run_bots(url, 3, rate=25, seconds=4, level=0)
    finally:
        proc.send_signal(signal.SIGTERM)
        proc.wait(10)
        proc.stdout.close()
        proc.stderr.close()
    assert summary["errors"] == 0 and summary["actions"] > 20
    assert len(checked) > 20
    assert all(kept and same for kept, same in checked)


async def test_a_bots_connection_drops_the_others_progress_but_gets_its_round_and_answers(palast):
    """The bots read only ``round``, ``round_over`` and ``table_over`` events (BOT_EVENTS): the
    others' progress and the ``table`` events are dropped unread (Cid, an ordinary client at the
    same table, gets them); answers always come through."""
    from spider_tui.palast.client.bots import BOT_EVENTS
    from spider_tui.palast.client.client import PalastClient
    from tests.waiting import until

    anna, cid = await palast.player("Anna"), await palast.player("Cid")
    bo = await PalastClient.connect(palast.url, events=BOT_EVENTS)
    bo.keep_received = True
    palast.clients.append(bo)
    await bo.hello("Bo", None)
    opened = await anna.open(suits=1, rules="classic", rounds=1, seats=3, private=True)
    await bo.join(code=opened["code"])
    await cid.join(code=opened["code"])
    await anna.start()
    views = {}
    for c in (anna, bo, cid):
        views[c] = Game.from_text((await c.wait_for("round"))["position"])
    for _ in range(2):
        answer = await anna.play(str(views[anna].hint() or "deal"))
        views[anna] = Game.from_text(answer["position"])
    await until(lambda: sum(m["type"] == "progress" and m["player"] == "Anna" for m in cid.received) >= 1,
                what="Cid to see Anna's progress")
    answer = await bo.play(str(views[bo].hint() or "deal"))
    assert answer["type"] == "played"
    for c in (anna, bo, cid):
        await c.play("give up")
    await bo.wait_for("round_over")
    assert not any(m["type"] == "progress" for m in bo.received)  # on the wire, never read
    assert not any(m["type"] == "table" for m in bo.received)  # Cid sat down after Bo: nor the table


async def test_a_bot_that_already_sits_stops_looking_by_the_code_not_the_words():
    """``already seated`` is read from the refusal's code: a reason in another language (or
    reworded) still ends the search for a seat at once; another refusal keeps looking."""
    import time

    from spider_tui.palast import messages as m
    from spider_tui.palast.client.bots import _sit
    from spider_tui.palast.client.client import Received, Refused

    class Client:
        def __init__(self, code: str) -> None:
            self.code, self.joins = code, 0

        async def ask(self, request):
            tables = m.Tables(tables=[m.TableInfo(id=4, seats=4, standard=True, state="waiting")])
            return Received(tables.to_json(), tables)

        async def join(self, table: int) -> None:
            self.joins += 1
            no = m.Refused(reason="Du sitzt schon an Tisch 4.", code=self.code)
            raise Refused(Received(no.to_json(), no))

    seated = Client(m.Code.ALREADY_SEATED.value)
    await _sit(seated, time.monotonic() + 30)
    assert seated.joins == 1  # it stopped at the first answer (else it asks again until its deadline)
    full = Client(m.Code.TABLE_FULL.value)
    await _sit(full, time.monotonic() + 0.5)  # keeps asking until its deadline
    assert full.joins >= 2
