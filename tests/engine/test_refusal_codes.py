"""Every refusal of the engine says why twice: its English sentence (the words a player reads,
unchanged) and its code with the sentence's parameters (what a program decides on and a
translation says by).  Each rule of SPEC §1/§3/§10 that refuses, refused here in a position that
hits it."""

from __future__ import annotations

import pytest

from spider_tui.engine import Game, IllegalMove, Move, Refusal, Why
from spider_tui.engine.game import JokerCode
from tests.engine.test_variants import pos


def refused(game: Game, move: str) -> IllegalMove:
    with pytest.raises(IllegalMove) as e:
        game.play(move)
    assert isinstance(e.value.reason, Refusal) and e.value.code is e.value.reason.code
    assert e.value.params == e.value.reason.params and str(e.value) == e.value.reason
    return e.value


@pytest.mark.parametrize("game, move, code, params, english", [
    (lambda: pos("| 8s", "| 7h", "| Ah", "| 9d", "|", "5s 6s | 7s", rules="classic"), "3>1", Why.NO_FIT,
     {"rank": 1, "onto": 2}, "An Ace goes on a 2."),
    (lambda: pos("| 8s", "| 7h", rules="classic"), "5>1", Why.EMPTY, {"column": 5}, "Column 5 is empty."),
    (lambda: pos("| 8s", "| 7h", rules="classic"), "1>1", Why.OWN_COLUMN, {},
     "A group can't move onto its own column."),
    (lambda: pos("| 8s", "| 7h", rules="classic"), "1>12", Why.NO_COLUMN, {"columns": 10},
     "Columns are numbered 1 to 10."),
    (lambda: pos("| 8s", "5s | 7h", rules="classic"), "2>3:2", Why.FEW_FACE_UP, {"column": 2, "count": 1},
     "Column 2 has only 1 face-up card."),
    (lambda: pos("| 8s 7s", "| 8h 7d", rules="classic"), "2>3:2", Why.NOT_A_RUN, {},
     "Only a same-suit run moves together."),
    (lambda: pos("| 8s", "| Kh", rules="classic"), "2>1", Why.KING_TO_EMPTY, {},
     "A King goes only into an empty column."),
    (lambda: pos("| 8s", "| 7h", "| 7s", rules="scorpion"), "2>1", Why.OWN_SUIT, {"rank": 7, "onto": 8},
     "A 7 goes only on an 8 of its own suit."),
    (lambda: pos("| 8s", "| 7h", rules="scorpion"), "2>5", Why.KING_LED, {},
     "Only a King, or a group led by a King, goes into an empty column."),
    (lambda: pos("| 8s", rules="classic"), "joker>1", Why.NO_JOKERS, {}, "This round is played without jokers."),
    (lambda: pos("| 8h", stock="7s 7c", rules="scorpion+joker"), "joker>1", Why.NO_CARD, {"rank": 7, "suit": 1},
     "No 7 of hearts is left in the stock or on the table for the joker."),
    (lambda: pos("| Ah", stock="7s", rules="joker"), "joker>1", Why.ON_ACE, {}, "Nothing goes on an Ace."),
    (lambda: pos("| 8s", rules="classic"), "3>x", Why.UNREADABLE, {"text": "3>x"},
     "Can't read '3>x': write a move like 3>7, 3>7:2, deal or joker>4."),
    (lambda: pos("| 8s", rules="joker"), " joker>x ", Why.UNREADABLE_JOKER, {"text": "joker>x"},
     "Can't read 'joker>x': write a joker like joker>4."),
    (lambda: pos("| 8s", rules="classic"), "0>1", Why.FROM_ONE, {}, "Columns are numbered from 1."),
    (lambda: pos("| 8s", rules="classic"), "1>2:0", Why.AT_LEAST_ONE, {}, "A move takes at least one card."),
    (lambda: pos("| 8s", stock="-", rules="classic"), "deal", Why.STOCK_EMPTY, {}, "The stock is empty."),
    (lambda: pos("| 8s", stock="2s 3s 4s 5s 6s 7h 8h 9h Th Jh", rules="classic"), "deal", Why.FILL_COLUMNS, {},
     "Fill every empty column before dealing."),
])
def test_a_refusal_has_its_code_its_params_and_its_english(game, move, code, params, english):
    e = refused(game(), move)
    assert (e.code, e.params, e.reason) == (code, params, english)


def test_a_view_refuses_by_code_where_it_does_not_know_the_card():
    view = pos("| ??", "| 8s", "| 9h", rules="joker", stock="?? ??")
    assert (refused(view, "1>2").params, refused(view, "1>2").code) == ({"column": 1}, Why.UNSEEN)
    assert refused(view, "2>1").reason == "Column 1's card isn't known yet."
    assert view.joker_refusal(1).code is Why.VIEW and JokerCode is Why  # the old name is the same Enum
    assert view.joker_refusal(1) == "A view can't play a joker: only the full game knows its card (ask the server)."


def test_a_round_over_or_won_refuses_every_action_by_code():
    g = Game.new(3, suits=1)
    g.give_up()
    assert refused(g, "deal").code is Why.OVER and g.deal_refusal().code is Why.OVER
    assert g.move_refusal(Move(0, 1, 1)) == "The round is over." and g.move_refusal(Move(0, 1, 1)).code is Why.OVER
    simon = Game.new(3, suits=1, rules="simple-simon")
    assert simon.deal_refusal().code is Why.NO_STOCK and simon.deal_refusal() == "Simple Simon has no stock."


def test_a_won_round_and_no_jokers_left_refuse_by_code():
    from tests.positions import NEARLY_WON

    g = Game.from_text(NEARLY_WON)
    g.play("2>1")  # the last run
    assert g.won
    assert refused(g, "deal").code is Why.WON and refused(g, "deal").reason == "The round is won."
    assert g.joker_refusal(0).code is Why.NO_JOKERS  # classic: no jokers before it is won
    spent = pos("| 8s", rules="joker", stock="7h", extra="jokers: 0")
    assert refused(spent, "joker>1").code is Why.NONE_LEFT and spent.joker_refusal(0) == "No jokers left."
