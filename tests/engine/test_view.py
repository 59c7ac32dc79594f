"""The engine's contract for search and fair play (SPEC §14 last paragraph, §13 'position'):
copy(), key(), view() with ``??``, reading a view back, telling it the cards that turn up,
what play() did, undo after a win."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from spider_tui.engine import DEAL, Game, IllegalMove, Move, PositionError
from spider_tui.engine.cards import UNKNOWN, card_text


def tell_from(view: Game, played) -> None:
    """Tell the view what the full game's action turned up (the server's answer)."""
    if played.is_deal:
        view.tell_row(played.dealt)
    if played.turned_up:
        view.tell(played.turned_up)


def test_view_hides_every_unseen_card_and_the_deal_number():
    g = Game.new(1234, suits=2)
    text = g.view()
    assert "deal:" not in text
    lines = {line.split(":")[0]: line.split(":", 1)[1].split() for line in text.splitlines()}
    assert lines["stock"] == ["??"] * 50
    for col in range(10):
        tokens = lines[str(col + 1)]
        bar = tokens.index("|")
        assert tokens[:bar] == ["??"] * g.down[col]
        assert tokens[bar + 1:] == [card_text(c) for c in g.face_up(col)]
    v = Game.from_text(text)
    assert v.card_count() == 104 and v.deal_number is None
    assert v.view() == text


def test_view_plays_like_the_full_game():
    g = Game.new(77, suits=1)
    v = Game.from_text(g.view())
    assert v.legal_moves() == g.legal_moves()
    assert v.hint() == g.hint()
    assert v.stuck == g.stuck is False


def test_a_move_in_a_view_leaves_the_turned_card_unseen_until_told():
    g = Game.from_text("suits: 1\n1: 5s 9s | 7s\n2: | 8s\n3: | Ks\n")
    v = Game.from_text(g.view())
    assert "1: ?? ?? | 7s" in v.view().splitlines()
    done = g.play("1>2")
    assert done.turned_up == ((0, g.columns[0][-1]),) and card_text(done.turned_up[0][1]) == "9s"
    vd = v.play("1>2")
    assert vd == done and vd.turned_up == ((0, UNKNOWN),)
    assert "1: ?? | ??" in v.view()
    # Unknown cards move nowhere and take nothing.
    assert not any(m.source == 0 or m.target == 0 for m in v.legal_moves())
    with pytest.raises(IllegalMove, match="isn't known"):
        v.play("1>3")
    assert v.tell({0: "9s"}) is None
    assert v.view() == g.view()
    assert v.legal_moves() == g.legal_moves()


def test_a_deal_in_a_view_brings_unseen_cards_and_a_told_row_completes_runs_and_scores():
    run = "Ks Qs Js Ts 9s 8s 7s 6s 5s 4s 3s 2s"
    stock = "As 2h 3h 4h 5h 6h 7h 8h 2h 3h"
    tops = "Kh Qh Jh Th Kh Qh Jh Th 9h".split()
    g = Game.from_text(f"suits: 2\nrules: scoring\nstock: {stock}\n1: 9s | {run}\n" + "".join(f"{i}: | {t}\n" for i, t in enumerate(tops, 2)))
    v = Game.from_text(g.view())
    done = g.play("deal")
    assert done.dealt[0] == 1 and done.completed == ((0, 0),) and done.turned_up == ((0, g.columns[0][-1]),)
    assert done.points == 100 + 3 + 2  # a run, the card it turned up, As joining 2s (2 suits)
    vd = v.play("deal")
    assert vd.dealt == (UNKNOWN,) * 10 and vd.completed == ()
    assert v.unknown == list(range(10))
    told = v.tell_row(done.dealt)
    assert told is not None and told.completed == ((0, 0),) and told.turned_up == ((0, UNKNOWN),)
    v.tell(done.turned_up)
    assert v.view() == g.view() and v.score == g.score
    assert v.undo() and g.undo()
    assert v.view() == g.view() and v.score == g.score


def test_view_rejects_a_bad_tell_and_changes_nothing():
    g = Game.new(5, suits=1)
    v = Game.from_text(g.view())
    before = v.view()
    with pytest.raises(ValueError):
        v.tell({0: "9s"})  # nothing unseen face up
    v.play("deal")
    with pytest.raises(ValueError):
        v.tell({0: "9h"})  # no hearts in a 1-suit deck
    with pytest.raises(ValueError):
        v.tell({10: "9s"})
    assert v.unknown == list(range(10)) and v.view() != before


def test_reading_a_view_checks_the_card_total():
    text = Game.new(5, suits=1).view().replace("stock: ", "stock: ?? ?? ?? ?? ?? ?? ?? ?? ?? ?? ")
    with pytest.raises(PositionError, match="deck holds 104"):
        Game.from_text(text)


def test_joker_is_refused_on_a_view():
    g = Game.new(9, suits=1, rules="joker")
    v = Game.from_text(g.view())
    with pytest.raises(IllegalMove, match="full game"):
        v.play("joker>1")


def test_undo_steps_back_from_a_win_and_takes_the_bonus_back():
    g = Game.from_text("suits: 1\nrules: scoring\ndone: s s s s s s s\n1: | Ks Qs Js Ts 9s 8s 7s 6s 5s 4s 3s 2s\n2: | As\n")
    done = g.play("2>1")
    assert g.won and done.completed == ((0, 0),)
    assert done.points == 50 + 1 + (300 - 1)  # run, join, solve bonus
    assert g.score == done.points
    assert g.undo() and not g.won and g.score == -1
    assert g.to_text() == Game.from_text(g.to_text()).to_text()


def test_key_and_copy():
    g = Game.new(3, suits=2)
    h = g.copy()
    assert h.key() == g.key() and hash(h.key()) == hash(g.key())
    m = g.legal_moves()[0]
    g.play(m)
    assert h.key() != g.key()
    g.undo()
    assert h.key() == g.key()
    h.play("deal")
    assert g.stock != h.stock  # independent
    assert {g.key(): 1}[Game.from_text(g.to_text()).key()] == 1


def test_played_equals_the_move():
    g = Game.new(3, suits=1)
    assert g.play("deal") == DEAL
    assert DEAL in {g.copy().play("deal")}


RULES = ["classic", "scoring", "relaxed+scoring", "open", "scorpion+scoring", "spiderette", "undo-off"]


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    number=st.integers(1, 2_000_000_000),
    suits=st.sampled_from([1, 2, 4]),
    rules=st.sampled_from(RULES),
    choices=st.lists(st.integers(0, 10_000), min_size=1, max_size=60),
)
def test_a_view_told_the_real_cards_stays_the_real_games_view(number, suits, rules, choices):
    g = Game.new(number, suits=suits, rules=rules)
    v = Game.from_text(g.view())
    for c in choices:
        if c % 7 == 0 and g.can_undo:
            assert v.undo() == g.undo()
        else:
            moves = g.legal_moves()
            if not moves:
                break
            assert v.legal_moves() == moves
            m = moves[c % len(moves)]
            done = g.play(m)
            seen = v.play(m)
            assert seen == done and seen.points <= done.points
            tell_from(v, done)
        assert v.unknown == []
        assert v.view() == g.view()
        assert v.score == g.score and v.moves == g.moves and v.won == g.won and v.stuck == g.stuck
        assert v.hint() == g.hint()
        assert v.card_count() == g.card_count()
        assert Game.from_text(g.view()).view() == g.view()
