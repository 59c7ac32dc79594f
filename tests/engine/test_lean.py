"""The lean position (engine/lean.py) plays exactly as Game: same legal moves, same tables."""

from hypothesis import given, settings
from hypothesis import strategies as st

from spider_tui.engine import DEAL, Game, Move
from spider_tui.engine import lean

from .helpers import pos

deal_numbers = st.integers(min_value=1, max_value=2147483647)
suit_counts = st.sampled_from([1, 2, 4])
rule_names = st.sampled_from(["classic", "relaxed", "open", "spiderette", "simple-simon", "relaxed+open"])
picks = st.lists(st.integers(min_value=0, max_value=10_000), min_size=0, max_size=200)


def game_move(m) -> Move:
    return DEAL if m is None else Move(m[0], m[1], m[2])


def same_table(board: lean.Board, node: lean.Node, g: Game) -> None:
    assert [(list(c), d) for c, d in zip(g.columns, g.down)] == lean.to_game_columns(node)
    assert list(node[1]) == [g.run_length(i) for i in range(len(g.columns))]
    assert board.stock_left(node) == len(g.stock)
    assert board.done(node) == len(g.done)
    assert board.is_won(node) == g.won


@settings(max_examples=80, deadline=None)
@given(deal_numbers, suit_counts, rule_names, picks)
def test_lean_plays_like_game(number, suits, rules, choices):
    g = Game.new(number, suits=suits, rules=rules)
    board, node = lean.from_game(g)
    same_table(board, node, g)
    for p in choices:
        moves = list(lean.legal_moves(board, node))
        assert [game_move(m) for m in moves] == g.legal_moves()
        if not moves:
            break
        m = moves[p % len(moves)]
        before_down, before_done = sum(g.down), len(g.done)
        if m is None:
            node, completed = lean.play_deal(board, node)
            flipped = 0
        else:
            node, flipped, completed = lean.play_move(node, *m)
        g.play(lean.move_text(m))
        assert completed == len(g.done) - before_done
        if m is not None:
            assert flipped == before_down - sum(g.down)
        same_table(board, node, g)


def test_completing_a_run_flips_the_card_under_it():
    g = pos("Ah | Ks Qs Js Ts 9s 8s 7s 6s 5s 4s 3s 2s", "| As", "| 5h", suits=2)
    board, node = lean.from_game(g)
    child, flipped, completed = lean.play_move(node, 1, 0, 1)
    assert (flipped, completed) == (1, 1)
    assert child[0][0] == bytes([0, 0x11]) and child[0][1] == lean.EMPTY


def test_a_deal_completes_runs_where_it_lands():
    others = ["| 9h", "| 8h", "| 7h", "| 6h"] * 2 + ["| 4h"]
    g = pos("| Ks Qs Js Ts 9s 8s 7s 6s 5s 4s 3s 2s", *others, stock="As " + " ".join(["Ah"] * 4 + ["2h"] * 4 + ["3h"]), suits=2)
    board, node = lean.from_game(g)
    child, completed = lean.play_deal(board, node)
    assert completed == 1 and child[0][0] == lean.EMPTY and board.done(child) == 1
