"""Playing and checking helpers for the Palast tests."""

from __future__ import annotations

import asyncio

from spider_tui.engine import Game
from spider_tui.palast.client.client import PalastClient


def hint_move(view: Game) -> str:
    m = view.hint()
    return str(m) if m is not None else "give up"


async def play_round(c: PalastClient, position: str, limit: int | None = None) -> dict:
    """Play one round by the hint on the view the server sent, until solved, given up or stuck
    (or give up after ``limit`` actions); the last ``played`` answer."""
    view = Game.from_text(position)
    n = 0
    while True:
        move = "give up" if limit is not None and n >= limit else hint_move(view)
        answer = await c.play(move)
        assert answer["type"] == "played", answer
        n += 1
        view = Game.from_text(answer["position"])
        assert view.view() == answer["position"]
        if answer["state"] != "playing":
            return answer


async def play_table(c: PalastClient, limit: int | None = None) -> dict:
    """Play every round of the player's table; returns the ``table_over`` event."""
    while True:
        ev = await c.next_event(timeout=60)
        assert ev is not None, "connection closed"
        if ev["type"] == "round":
            await play_round(c, ev["position"], limit)
        elif ev["type"] == "round_over":
            await asyncio.sleep(0)
            answer = await c.request("ready", check=False)
            assert answer["type"] in ("ready", "refused")
        elif ev["type"] == "table_over":
            return ev


def shown(deal: int | str, suits: int) -> Game:
    """Deal ``deal`` as ``spider show N --suits K`` prints it."""
    import contextlib
    import io

    from spider_tui.cli import main

    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        assert main(["show", str(deal), "--suits", str(suits)]) == 0
    return Game.from_text(out.getvalue())


def check_no_leaks(messages: list[dict], suits: int = 1, rules: str = "scoring") -> int:
    """Replay what one player received against the real deals (told at ``round_over``): every
    position the player got is exactly the real game's view (``??`` for every face-down and stock
    card, no ``deal:`` line), every card told to them was really turned up, and no message before
    ``round_over`` names the deal.  Returns the number of rounds checked."""
    import json
    import re

    rounds: list[list[dict]] = []
    current: list[dict] | None = None
    for m in messages:
        if m["type"] == "round":
            current = [m]
            rounds.append(current)
        elif current is not None:
            current.append(m)
            if m["type"] == "round_over":
                current = None
    checked = 0
    for msgs in rounds:
        over = next((m for m in msgs if m["type"] == "round_over"), None)
        if over is None:
            continue
        deal = over["deal"]
        # SPEC §2, §13: a Palast round is dealt from a deal code, never from a number
        assert isinstance(deal, str) and re.fullmatch(r"p-[a-z2-7]{26}", deal), deal
        g = Game.new(deal, suits=suits, rules=rules)
        # `spider show N` prints Spider deals; the one-deck games deal from the same number.
        real = shown(deal, suits) if g.rules.variant == "spider" else Game.new(deal, suits, g.rules.variant)
        assert (g.columns, g.down, g.stock) == (real.columns, real.down, real.stock)
        for m in msgs:
            if m is over:
                break
            text = json.dumps(m)
            assert "deal:" not in text and "deal" not in m
            assert deal not in text and deal[2:] not in text, m
            if m["type"] == "round":
                assert m["position"] == g.view()
            elif m["type"] == "played":
                if m["move"] == "undo":
                    assert g.undo()
                elif m["move"] == "give up":
                    assert g.give_up()
                else:
                    done = g.play(m["move"])
                    assert [(t["column"], t["card"]) for t in m["turned_up"]] == [
                        (c + 1, card_text(card)) for c, card in done.turned_up]
                    from spider_tui.engine.cards import card_text as ct

                    assert m["dealt"] == [ct(c) for c in done.dealt]
                assert m["position"] == g.view(), (m["move"], m["position"], g.view())
                assert m["score"] == g.score
            elif m["type"] == "progress":
                assert set(m) <= {"type", "table", "player", "score", "runs", "moves", "state", "seconds"}
        checked += 1
    return checked


from spider_tui.engine.cards import card_text  # noqa: E402
