"""Points where they are earned (SPEC §15): each action's points at the place that earned them,
the sign written, gone with the next action; they always add up to the score's change."""

from __future__ import annotations

from hypothesis import given, settings, strategies as st

from spider_tui.engine import Game
from spider_tui.table import Table


def scored(text: str) -> Table:
    return Table(Game.from_text(text), practice=True)


POS = """suits: 2
rules: scoring
1: Ah | 5s
2: 6s
3: 2h | 7h
4: Kh Qh Jh Th 9h 8h 7h 6h 5h 4h 3h 2h
5: Ah
"""


def test_a_turned_card_and_a_join_show_at_their_places():
    t = scored(POS)
    assert t.play("1>2")  # 5♠ onto 6♠: a join (+2), and the A♥ below turns up (+3)
    where = {(e.where, e.column, e.index): e.text for e in t.earned}
    assert where == {("card", 0, 0): "+3", ("join", 1, 1): "+2"}
    states = t.column_states()
    assert states[0].badge == (0, "+3") and states[1].badge == (1, "+2")
    assert states[2].badge is None


def test_gone_with_the_next_action():
    t = scored(POS)
    t.play("1>2")
    t.play("2>3")  # 6♠ 5♠ onto 7♥: no points, across suits
    assert t.earned == ()
    assert all(s.badge is None for s in t.column_states())


def test_a_run_shows_on_its_slot():
    t = scored(POS)
    assert t.play("5>4")  # A♥ completes the hearts: +100 on slot 0
    runs = [e for e in t.earned if e.where == "run"]
    assert [(e.slot, e.text) for e in runs] == [(0, "+100")]


def test_undo_shows_its_cost_in_the_bar_red_and_signed():
    t = scored(POS)
    t.play("1>2")
    t.undo()
    bar = [(e.where, e.text, e.gain) for e in t.earned]
    assert bar == [("bar", "-1 undo", False), ("bar", "-5 taken back", False)]


def test_no_points_without_the_scoring_rule():
    t = Table(Game.from_text(POS.replace("rules: scoring", "rules: classic")), practice=True)
    t.play("1>2")
    assert t.earned == ()


@settings(max_examples=25, deadline=None)
@given(st.integers(1, 10_000), st.sampled_from([1, 2, 4]), st.randoms(use_true_random=False))
def test_shown_points_add_up_to_the_score_change(number, suits, rng):
    t = Table(Game.new(number, suits=suits, rules="scoring"), practice=True)
    for _ in range(60):
        before = t.game.score
        moves = t.game.legal_moves()
        if not moves or t.over:
            break
        if rng.random() < 0.15 and t.game.can_undo:
            t.undo()
        else:
            t.play(rng.choice(moves))
        assert sum(e.points for e in t.earned) == t.game.score - before
        for e in t.earned:
            assert e.text[0] in "+-"


# Issue 33 item 8: the "+N bonus" label is the bonus alone; the last join is its own "+N".
def test_the_bonus_label_does_not_add_in_the_last_join():
    from spider_tui.engine import Game
    from spider_tui.engine.scoring import win_bonus
    from spider_tui.points import earned
    from tests.positions import NEARLY_WON

    g = Game.from_text(NEARLY_WON.replace("deal: 77\n", "rules: scoring\n"))
    before = len(g.done)
    played = g.play("2>1")
    assert g.won
    shown = {e.text for e in earned(played, g, before)}
    bonus = win_bonus(1, g.moves, g.jokers_left)
    assert f"+{bonus} bonus" in shown  # the bonus alone (300 - 151 moves = 149)
    assert sum(e.points for e in earned(played, g, before)) == played.points
