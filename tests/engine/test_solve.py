"""SPEC §14: the solver. A win it reports replays through Game.play; "not winnable" only after
an exhaustive search, checked against a plain search over Game."""

from hypothesis import given, settings
from hypothesis import strategies as st

from spider_tui.engine import Game
from spider_tui.engine.cards import card_text
from spider_tui.engine.solve import NOT_WINNABLE, UNKNOWN, WINNABLE, solve

from .helpers import pos


def replays_to_a_win(start: Game, moves: list[str]) -> bool:
    g = start.copy()
    for m in moves:
        g.play(m)
    return g.won


def test_a_deal_is_solved_and_the_solution_replays_through_game_play():
    g = Game.new(1, suits=1)
    found = solve(g, max_nodes=200_000)
    assert found.result == WINNABLE
    assert "deal" in found.moves and found.moves.count("deal") == 5
    assert replays_to_a_win(Game.new(1, suits=1), found.moves)
    assert g.to_text() == Game.new(1, suits=1).to_text()  # the game asked about is untouched


def test_a_two_suit_deal_is_solved():
    found = solve(Game.new(5, suits=2), max_nodes=200_000)
    assert found.result == WINNABLE and replays_to_a_win(Game.new(5, suits=2), found.moves)


def test_moves_are_in_spec_move_text():
    found = solve(Game.new(1, suits=1), max_nodes=200_000)
    for m in found.moves:
        assert m == "deal" or (m.count(">") == 1 and m.count(":") == 1), m


def test_a_won_position_needs_no_moves():
    g = pos(suits=1, done="s s s s s s s s")
    assert solve(g).result == WINNABLE and solve(g).moves == []


def test_a_hidden_card_can_be_needed():
    # The Ace is face down under the King: the run must move into an empty column to free it.
    g = pos("As | Ks Qs Js Ts 9s 8s 7s 6s 5s 4s 3s 2s", suits=1, done="s s s s s s s")
    found = solve(g)
    assert found.result == WINNABLE and replays_to_a_win(g, found.moves)


def test_not_winnable_after_an_exhaustive_search():
    # Ten columns, exposed ranks A A 3 3 5 5 7 7 9 9: nothing fits anywhere, no stock.
    g = pos(
        "Ks Qs | As", "Kh Qh | Ah", "Js | 3s", "Jh | 3h", "Ts 2h | 5s", "Th 4s | 5h",
        "8s 4h 6s | 7s", "8h 6h | 7h", "| 9s", "| 2s 9h", suits=2, done="s s s h h h",
    )
    found = solve(g)
    assert found.result == NOT_WINNABLE and found.moves is None and found.exhaustive
    assert not brute_force_winnable(g)


def test_out_of_budget_is_unknown_never_not_winnable():
    found = solve(Game.new(2, suits=4), max_nodes=50)
    assert found.result == UNKNOWN and found.moves is None
    assert solve(Game.new(2, suits=4), stop=lambda: True).result == UNKNOWN


def brute_force_winnable(g: Game, limit: int = 200_000) -> bool:
    """Every legal move over Game, depth first, each position once."""
    seen = set()
    stack = [g.copy()]
    while stack:
        cur = stack.pop()
        if cur.won:
            return True
        key = tuple(sorted(zip(map(tuple, cur.columns), cur.down))) if not cur.stock else cur.key()
        if key in seen:
            continue
        seen.add(key)
        assert len(seen) < limit
        for m in cur.legal_moves():
            nxt = cur.copy()
            nxt.play(m)
            stack.append(nxt)
    return False


@st.composite
def small_positions(draw):
    """One run's worth of spades, or two (spades and hearts), spread over the ten columns with
    some cards face down: a puzzle that may or may not be winnable."""
    suits = draw(st.sampled_from([1, 2]))
    cards = [s * 16 + r for s in range(suits) for r in range(1, 14)]
    order = draw(st.permutations(cards))
    stock, table = [], order
    cuts = sorted(draw(st.lists(st.integers(min_value=0, max_value=len(table)), min_size=9, max_size=9)))
    bounds = [0] + cuts + [len(table)]
    lines = []
    for i in range(10):
        col = table[bounds[i]:bounds[i + 1]]
        down = draw(st.integers(min_value=0, max_value=max(0, len(col) - 1))) if col else 0
        lines.append(" ".join([card_text(c) for c in col[:down]] + ["|"] + [card_text(c) for c in col[down:]]))
    done = "s s s h h h" if suits == 2 else "s s s s s s s"
    return pos(*lines, suits=suits, done=done, stock=" ".join(map(card_text, stock)) or "-")


@settings(max_examples=30, deadline=None)
@given(small_positions())
def test_a_win_replays_and_not_winnable_is_confirmed_by_brute_force(g):
    found = solve(g, max_nodes=20_000)
    if found.result == WINNABLE:
        assert replays_to_a_win(g, found.moves)
    elif found.result == NOT_WINNABLE:
        assert found.exhaustive and not brute_force_winnable(g)


def test_a_four_suit_deal_is_solved_and_the_solution_replays():
    found = solve(Game.new(1, suits=4), max_nodes=1_000_000)
    assert found.result == WINNABLE and replays_to_a_win(Game.new(1, suits=4), found.moves)


# ---------------------------------------------------------------- the beam's ranking and moves
from spider_tui.engine import lean  # noqa: E402
from spider_tui.engine.solve import Ranker, candidate_moves  # noqa: E402


def ranked(g: Game) -> int:
    board, node = lean.from_game(g)
    return Ranker()(board, node)


def test_fewer_same_suit_fragments_rank_higher():
    joined = pos("| Kc 9s 8s 7s", "| 5d", "| 2h")
    broken = pos("| Kc 9s 8h 7s", "| 5d", "| 2h")
    assert ranked(joined) > ranked(broken)


def test_fewer_face_down_cards_rank_higher():
    assert ranked(pos("| Kc 3s", "5d | 4h")) > ranked(pos("Kc | 3s", "5d | 4h"))


def test_a_column_based_on_a_king_or_whose_bottom_fits_elsewhere_counts():
    # The same cards; column 1's bottom card is a King, or a 9 that fits on column 3's ten,
    # or a 9 with nowhere to go.
    king = pos("| Kd 3s", "| 5h", "| Qc")
    fits = pos("| 9d 3s", "| 5h", "| Tc")
    stuck = pos("| 9d 3s", "| 5h", "| Qc")
    assert ranked(king) > ranked(stuck) and ranked(fits) > ranked(stuck)


def test_an_empty_column_counts():
    # The same cards and fragments; a 3 with nowhere to go alone in a column, or on the ten.
    assert ranked(pos("| Tc 3h", "5s | 8d")) > ranked(pos("| Tc", "5s | 8d", "| 3h"))


def test_dealing_earns_nothing_by_itself():
    # The same table with one stock row more or less dealt ranks by the table alone.
    table = ["Qd", "Qc", "Qh", "Qs", "Jd", "Jc", "Jh", "Js", "Td", "Tc"]
    row = ["2s", "2h", "2d", "2c", "3s", "3h", "3d", "3c", "4s", "4h"]
    before = pos(*[f"| {c}" for c in table], stock=" ".join(row))
    after = pos(*[f"| {c} {r}" for c, r in zip(table, row)])
    assert ranked(after) < ranked(before)


def test_a_same_suit_run_is_split_only_for_a_longer_same_suit_run():
    # Column 1: 9h 8s 7s; 8s 7s may go onto 9s (a 3-card spade run, longer than 2) but the 7s
    # alone onto 8d would split the spades for nothing.
    g = pos("Kc | 9h 8s 7s", "Kd | 9s", "Kh | 8d", suits=4)
    board, node = lean.from_game(g)
    moves = [m for m in candidate_moves(board, node, False) if type(m) is tuple]
    assert (0, 1, 2) in moves
    assert (0, 2, 1) not in moves
