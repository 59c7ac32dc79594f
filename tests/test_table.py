"""SPEC §6: selection and tap semantics, tested without a terminal."""

from spider_tui.engine import Game
from spider_tui.table import STUCK_TEXT, Selection, Table

DEAL_REFUSED = "Fill every empty column before dealing."  # SPEC: the stock won't deal onto an empty column

K = ["| Kc", "| Kc", "| Kd", "| Kd", "| Kh", "| Kh", "| Ks", "| Ks"]


def table(*cols, stock="-", suits=4, **kw):
    lines = [f"suits: {suits}", f"stock: {stock}"]
    for i in range(10):
        lines.append(f"{i + 1}: {cols[i] if i < len(cols) else '|'}")
    t = [0.0]
    tb = Table(Game.from_text("\n".join(lines)), clock=lambda: t[0], **kw)
    tb._t = t
    return tb


def test_click_a_face_up_card_holds_the_group_it_leads():
    tb = table("| 9s 8s 7s", "| Th")
    tb.tap(0, 1)  # 8s leads 8s 7s
    assert tb.selection == Selection(0, 2, True)


def test_click_a_card_that_leads_no_group_holds_the_longest_group():
    tb = table("4c | 9h 8s 7s", "| Th")
    tb.tap(0, 1)  # 9h: 9h 8s 7s is not a run
    assert tb.selection == Selection(0, 2, False)


def test_click_a_target_moves_the_held_group_there():
    tb = table("| 9s 8s 7s", "| 9h")
    tb.tap(0, 1)  # 8s 7s
    assert tb.targets() == [1, 2, 3, 4, 5, 6, 7, 8, 9]
    tb.tap(1, 0)
    assert tb.game.to_text().splitlines()[-10:-8] == ["1: | 9s", "2: | 9h 8s 7s"]
    assert tb.selection is None and tb.moves == 1


def test_click_where_it_cannot_go_moves_the_selection_there():
    tb = table("| 9s 8s", "| 5h 4h", *K)
    tb.tap(0, 1)
    tb.tap(1, 0)  # 5h 4h can't take 8s; 5h leads 5h 4h
    assert tb.selection == Selection(1, 2, True)
    assert tb.moves == 0 and tb.status == ""


def test_click_where_nothing_moves_clears():
    tb = table("| 9s 8s", *K)
    tb.tap(0, 1)
    tb.tap(0, 1)  # same group again: put back
    assert tb.selection is None


def test_digit_key_holds_longest_then_shortens_cycling():
    tb = table("| 9s 8s 7s", "| Th", *K)
    tb.key_column(0)
    assert tb.selection == Selection(0, 3, False)
    tb.key_column(0)
    assert tb.selection == Selection(0, 2, True)
    tb.key_column(0)
    tb.key_column(0)
    assert tb.selection == Selection(0, 3, False)


def test_digit_key_moves_the_part_that_fits():
    tb = table("| 9s 8s 7s", "| 8h", *K)
    tb.key_column(0)
    assert tb.targets() == [1]
    tb.key_column(1)
    assert [len(c) for c in tb.game.columns[:2]] == [2, 2]


def test_shortened_selection_moves_exactly_that_count():
    tb = table("| 9s 8s 7s", "| 8h", "|", *K[:7])
    tb.key_column(0)
    tb.key_column(0)  # 8s 7s
    tb.key_column(1)  # can't go on 8h: selection moves to column 2
    assert tb.selection == Selection(1, 1, False) and tb.moves == 0
    tb.key_column(0)
    tb.key_column(0)
    tb.key_column(2)  # empty column takes 8s 7s
    assert len(tb.game.columns[2]) == 2


def test_double_tap_prefers_same_suit_then_any_then_empty():
    tb = table("| 8s", "| 9h", "| 9s", "|", *K[:6])
    tb.double_tap(0, 0)
    assert tb.game.columns[2][-1] & 15 == 8  # went to 9s, not 9h
    tb = table("| 8s", "| 9h", "|", *K[:7])
    tb.double_tap(0, 0)
    assert len(tb.game.columns[1]) == 2
    tb = table("4c | 8s", "|", *K)
    tb.double_tap(0, 1)
    assert len(tb.game.columns[1]) == 1


def test_double_tap_never_shifts_a_whole_column_into_an_empty_one():
    tb = table("| 8s", "|", *K)
    tb.double_tap(0, 0)
    assert tb.moves == 0 and "nowhere" in tb.status


def test_enter_on_selection_makes_best_move():
    tb = table("| 8s", "| 9h", "| 9s", *K[:7])
    tb.key_column(0)
    tb.best_move()
    assert len(tb.game.columns[2]) == 2


def test_cursor_and_space_pick_up_and_put_down():
    tb = table("| 9s 8s 7s", "| 9h", *K)
    tb.move_cursor(drow=-1)  # onto 8s
    tb.pick_or_put()
    assert tb.selection == Selection(0, 2, True)
    tb.move_cursor(dcol=1)
    tb.pick_or_put()
    assert len(tb.game.columns[1]) == 3


def test_cursor_stays_on_face_up_cards_and_wraps_columns():
    tb = table("3c 4c | 9s 8s", *K)
    for _ in range(5):
        tb.move_cursor(drow=-1)
    assert tb.cursor_card() == 2
    tb.move_cursor(dcol=-1)
    assert tb.cursor_column == 9


def test_refused_deal_says_why_quietly():
    tb = table("| 5h", stock="2c 3c 4c 5c 6c 7c 8c 9c Tc Jc")
    assert tb.deal() is False
    assert tb.status == DEAL_REFUSED and tb.moves == 0


def test_stuck_is_told_once():
    tb = table("| 5h 9c", "| 9s", *K[:-1] + ["|"])
    # 9c -> empty col 10 is a real move; after it, only whole-column shifts remain
    tb.play("1>10:1")
    assert tb.game.stuck and tb.status == STUCK_TEXT
    tb.tap(1, 0)
    assert tb.status == ""
    tb.undo()
    assert tb.status == ""


def test_hint_outlines_and_counts_once_per_hint():
    tb = table("| 9h", "4c | 8s", *K[:8])
    h = tb.hint()
    assert str(h) == "2>1:1" and tb.hint_move == h and tb.hints_used == 1
    tb.hint()
    assert tb.hints_used == 1
    tb.play(h)
    assert tb.hint_move is None


def test_time_counts_only_while_resumed():
    tb = table("| 9h", *K)
    tb.resume()
    tb._t[0] = 10
    tb.pause()
    tb._t[0] = 50
    assert tb.seconds == 10
    tb.resume()
    tb._t[0] = 55
    assert tb.seconds == 15


def test_in_progress_needs_a_move():
    tb = table("| 9h", "| 8h", *K)
    assert not tb.in_progress
    tb.play("2>1")
    assert tb.in_progress


def test_winning_stops_time_and_input():
    tb = table("| Ks Qs Js Ts 9s 8s 7s 6s 5s 4s 3s 2s", "| As", suits=1)
    tb.resume()
    tb._t[0] = 7
    tb.tap(1, 0)
    tb.tap(0, 11)
    assert tb.won and tb.seconds == 7
    tb._t[0] = 20
    assert tb.seconds == 7
    assert tb.undo() is False


def test_enter_plays_the_hint_on_show():
    tb = table("| 9h", "4c | 8s", *K[:8])
    h = tb.hint()
    tb.best_move()
    assert tb.moves == 1 and tb.hint_move is None
    assert tb.game.columns[0][-1] & 15 == 8 and str(h) == "2>1:1"


def test_the_view_of_every_column_comes_from_the_table():
    """Table.column_states: the held group, its targets and the cursor, as the view draws them."""
    tb = Table.new(1, suits=1)
    tb.key_column(0)
    states = tb.column_states()
    assert len(states) == 10
    held = tb.selection
    assert held is not None and states[held.column].held == held.count
    assert [c for c, s in enumerate(states) if s.target] == tb.targets()
    assert all(s.cards == tuple(tb.game.columns[c]) and s.down == tb.game.down[c] for c, s in enumerate(states))
    assert sum(s.cursor_here for s in states) == 1


def test_enter_with_nothing_held_and_no_hint_on_show_makes_the_best_move():
    # Issue 22 item 4: Enter lifted the card under the cursor (5♠ here, which can go nowhere) and
    # said "That group has nowhere to go." while the hint had a move.  The help says Enter is the
    # best move: the hint's move.
    tb = table("| 5s", "| 9h", "4c | 8s", *K[:7])
    assert tb.cursor_column == 0 and tb.hint_move is None and tb.selection is None
    want = tb.game.hint()
    tb.best_move()
    assert tb.moves == 1 and str(want) == "3>2:1"
    assert tb.game.columns[1][-1] & 15 == 8 and tb.selection is None
    assert "nowhere" not in tb.status


def test_a_column_that_takes_only_part_of_the_held_group_says_how_many_cards_go():
    # Issue 22 item 17: holding 3♥2♥ marked ▶3♠, where only 2♥ can go, without a word.
    tb = table("| 3h 2h", "| 3s", "| 4c", *K[:7])
    tb.key_column(0)
    assert tb.selection == Selection(0, 2, False)
    assert set(tb.targets()) == {1, 2}
    assert tb.status == "Holding 2 cards: column 2 takes only the last 1 card."
    tb.key_column(1)
    assert tb.game.columns[1][-1] & 15 == 2 and len(tb.game.columns[0]) == 1
    tb.undo()
    tb.key_column(0)
    tb.clear()
    assert tb.selection is None and tb.status == ""


def test_a_given_up_round_shows_its_face_down_cards():
    # Issue 22 item 18: a given-up round never showed its face-down cards.
    tb = Table.new(1, suits=1)
    assert all(s.down for s in tb.column_states())
    assert tb.give_up()
    states = tb.column_states()
    assert all(s.down == 0 for s in states)
    assert [s.cards for s in states] == [tuple(c) for c in tb.game.columns]


def test_a_drag_is_the_move_two_clicks_make_and_drops_what_was_held_first():
    clicks, drag = table("| 9s 8s 7s", "| 9h", "| 5d"), table("| 9s 8s 7s", "| 9h", "| 5d")
    clicks.tap(0, 1)
    clicks.tap(1, 0)
    drag.tap(2, 0)  # the 5d held
    drag.drag(0, 1, 1)
    assert drag.game.to_text() == clicks.game.to_text() and drag.moves == 1 and drag.selection is None


def test_a_drag_of_a_group_that_can_not_go_there_moves_nothing():
    tb = table("| 9s 8s 7s", "| 4h")
    tb.drag(0, 1, 1)
    assert tb.moves == 0


# Issue 33 item 7 (SPEC §6, seed 004 "die Karten wandern dorthin"): where a moved group landed is
# marked until the next action.
def test_the_group_a_move_put_down_is_marked_until_the_next_action():
    from spider_tui.ui.render import UNICODE_MARKS, Look, draw_column

    t = Table(Game.new(1, suits=2))
    move = next(m for m in t.game.legal_moves() if not m.is_deal)
    assert t.play(move)
    states = t.column_states()
    target = move.target
    assert states[target].landed == move.count
    assert [s.landed for i, s in enumerate(states) if i != target] == [0] * 9
    picture = draw_column(states[target], move.target + 1, 8, 20, Look())
    lead = len(t.game.columns[target]) - move.count
    line = picture.text.plain.split("\n")[picture.rows.index(lead)]
    assert line.startswith(UNICODE_MARKS["landed"])  # the mark is text, not colour alone
    assert t.undo()  # the next action
    assert all(s.landed == 0 for s in t.column_states())
    assert t.play(move) and t.column_states()[target].landed == move.count
    assert t.deal()  # a deal is an action too
    assert all(s.landed == 0 for s in t.column_states())
