"""SPEC §1: the rules of classic Spider, one test per rule."""

import pytest

from spider_tui.engine import DEAL, Game, IllegalMove, Move

from .helpers import pos

STOCK10 = "2c 3c 4c 5c 6c 7c 8c 9c Tc Jc"
KINGS = ["Kc", "Kc", "Kd", "Kd", "Kh", "Kh", "Ks", "Ks"]


def test_single_card_onto_one_rank_higher_any_suit():
    g = pos("| 8s", "| 7h")
    g.play("2>1")
    assert g.to_text().splitlines()[5:7] == ["1: | 8s 7h", "2: |"]
    assert g.moves == 1


def test_wrong_rank_refused_with_reason_and_state_unchanged():
    g = pos("| 8s", "| 6h")
    before = g.to_text()
    with pytest.raises(IllegalMove) as e:
        g.play("2>1:1")
    assert e.value.reason == "A 6 goes on a 7."
    assert g.to_text() == before


def test_reason_names_ranks_with_articles():
    g = pos("| 9s", "| 7h", "| Ks", "| Qh")
    with pytest.raises(IllegalMove, match=r"^A 7 goes on an 8\.$"):
        g.play("2>1:1")
    with pytest.raises(IllegalMove, match=r"^A King goes only into an empty column\.$"):
        g.play("3>1:1")
    with pytest.raises(IllegalMove, match=r"^A Queen goes on a King\.$"):
        g.play("4>1:1")


def test_mixed_suit_group_does_not_move_together():
    g = pos("| 9s", "| 8h 7s")
    with pytest.raises(IllegalMove, match="Only a same-suit run moves together."):
        g.play("2>1:2")


def test_same_suit_group_moves_with_no_carry_limit():
    g = pos("| Kh", "Kc | Qs Js Ts 9s 8s 7s 6s 5s 4s 3s 2s As")
    g.play("2>1")
    assert len(g.columns[0]) == 13 and g.moves == 1
    assert g.columns[1] == [g.columns[1][0]] and g.down[1] == 0  # Kc flipped


def test_group_must_end_at_exposed_card():
    g = pos("| 9h", "| 8s 7s 6h")
    # 8s 7s is same-suit but 6h sits on it: only 6h moves alone
    assert g.group_fitting(1, 0) is None
    assert g.movable(1) == 1


def test_empty_column_takes_any_card_or_group():
    g = pos("| 5h", "| 9s 8s 7s")
    g.play("2>3:3")
    assert g.columns[1] == [] and len(g.columns[2]) == 3
    g.play("1>2:1")
    assert len(g.columns[1]) == 1


def test_no_count_means_fitting_group_or_longest():
    g = pos("| Th", "| 9s 8s 7s")
    m = g.play("2>3")  # empty: longest movable group
    assert str(m) == "2>3:3"
    g.undo()
    assert str(g.play("2>1")) == "2>1:3"


def test_face_down_card_turns_up_when_exposed():
    g = pos("| 9h", "4c 5c | 8s")
    g.play("2>1")
    assert g.down[1] == 1 and g.face_up(1) == [g.columns[1][1]]


def test_completed_run_leaves_at_once_after_a_move_and_flips():
    g = pos("3d | Ks Qs Js Ts 9s 8s 7s 6s 5s 4s 3s 2s", "| As")
    g.play("2>1")
    assert g.done == [0]
    assert g.columns[0] != [] and g.down[0] == 0  # 3d flipped
    assert g.moves == 1


def test_completed_runs_leave_after_a_deal_several_at_once():
    run = "Ks Qs Js Ts 9s 8s 7s 6s 5s 4s 3s 2s"
    runh = run.replace("s", "h")
    stock = "As Ah 5c 5c 5c 5c 5c 5c 5c 5c".replace("5c 5c 5c 5c 5c 5c 5c 5c", "5c 5c 6c 6c 7c 7c 8c 8c")
    g = Game.from_text(
        "suits: 4\nstock: " + stock + "\ndone: -\n"
        f"1: | {run}\n2: 4d | {runh}\n" + "".join(f"{i}: | {k}\n" for i, k in zip(range(3, 11), ["Kc", "Kc", "Kd", "Kd", "Qc", "Qc", "Qd", "Qd"]))
    )
    count = g.card_count()
    g.play("deal")
    assert sorted(g.done) == [0, 1]
    assert g.columns[0] == [] and g.down[1] == 0 and len(g.columns[1]) == 1
    assert g.card_count() == count == 43  # 12 + 13 + 8 + 10: conserved
    assert g.undo()
    assert g.done == [] and len(g.columns[0]) == 12 and g.down[1] == 1


def test_deal_puts_one_face_up_card_on_each_column_column_1_first():
    g = Game.new(3, suits=4)
    row = list(g.stock[:10])
    g.play(DEAL)
    assert [c[-1] for c in g.columns] == row
    assert g.deals_left == 4 and g.moves == 1
    assert all(len(c) - d >= 1 for c, d in zip(g.columns, g.down))


def test_no_deal_while_a_column_is_empty():
    g = pos("| 5h", stock=STOCK10)
    with pytest.raises(IllegalMove, match=r"^Fill every empty column before dealing\.$"):
        g.play("deal")
    assert DEAL not in g.legal_moves()


def test_stock_runs_out_after_five_deals():
    g = Game.new(11)
    for _ in range(5):
        g.play("deal")
    assert g.deals_left == 0
    with pytest.raises(IllegalMove, match="stock is empty"):
        g.play("deal")


def test_won_when_all_runs_complete_and_undo_only_for_programs():
    g = pos("| Ks Qs Js Ts 9s 8s 7s 6s 5s 4s 3s 2s", "| As", suits=1, done="s s s s s s s")
    g.play("2>1")
    assert g.won and g.done == [0] * 8 and g.card_count() == 104
    assert not g.stuck
    # SPEC §1: the table offers no undo after a win, the engine's undo() still steps back.
    assert not g.can_undo
    assert g.undo() is True and not g.won and g.done == [0] * 7


def test_stuck_with_stock_left():
    # Column 2 is empty; nothing can fill it usefully (column 1 is a single card: moving it
    # across is the same table), so the deal is blocked and no move helps.
    g = pos("| 5h", stock=STOCK10, suits=4)
    assert g.legal_moves()  # 1>k moves exist but are whole-column shifts
    assert g.stuck


def test_not_stuck_when_a_partial_group_can_go_to_an_empty_column():
    g = pos("3c | 5h", stock=STOCK10)
    assert not g.stuck  # moving 5h reveals 3c


def test_stuck_without_stock():
    g = pos("| 5h", "| 9s", *(f"| {k}" for k in KINGS))
    assert g.legal_moves() == [] and g.stuck


def test_not_stuck_when_a_deal_is_possible():
    g = pos("| 5h", "| 9s", *(f"| {k}" for k in KINGS), stock=STOCK10)
    assert not g.stuck


def test_undo_reverts_move_flip_and_counter():
    g = pos("| 9h", "4c 5c | 8s")
    before = g.to_text()
    g.play("2>1")
    assert g.undo() is True
    assert g.to_text() == before and g.moves == 0
    assert g.undo() is False


def test_undo_reverts_completion_and_its_flip():
    g = pos("3d | Ks Qs Js Ts 9s 8s 7s 6s 5s 4s 3s 2s", "| As")
    before = g.to_text()
    g.play("2>1")
    g.undo()
    assert g.to_text() == before


def test_undo_returns_a_dealt_row_to_the_stock():
    g = Game.new(42, suits=2)
    before = g.to_text()
    g.play("deal")
    g.undo()
    assert g.to_text() == before


def test_moves_count_actions_not_cards():
    g = pos("| Kh", "| Qs Js Ts", "| 9h")
    g.play("2>1")
    g.play("3>1")
    assert g.moves == 2


def test_move_text():
    assert str(Move(2, 6, 2)) == "3>7:2"
    assert str(DEAL) == "deal"
    assert Move.parse("3>7:2") == Move(2, 6, 2)
    assert Move.parse(" deal ") == DEAL
    for bad in ("3-7", "x>y", "3>7:0", ""):
        with pytest.raises(IllegalMove):
            Move.parse(bad)


def test_out_of_range_and_own_column():
    g = pos("| 5h", "| 6h")
    with pytest.raises(IllegalMove, match="numbered 1 to 10"):
        g.play("1>11")
    with pytest.raises(IllegalMove, match="own column"):
        g.play("1>1")
    with pytest.raises(IllegalMove, match="Column 3 is empty"):
        g.play("3>1")
    with pytest.raises(IllegalMove, match="only 1 face-up card"):
        g.play("1>2:2")


def test_legal_moves_lists_every_group_size_into_an_empty_column():
    g = pos("| 9s 8s 7s", *(f"| {k}" for k in KINGS))
    moves = {str(m) for m in g.legal_moves()}
    assert {"1>10:1", "1>10:2", "1>10:3"} <= moves
    assert all(g.is_legal(m) for m in g.legal_moves())
