"""Engine tests written only from SPEC.md §1–§4 (not from the implementation).

The file carries its own small reference implementation of the deal algorithm (§2) and a
parser for the position notation (§3), so every expectation below comes from the spec text.
Positions for the rule and hint tests are partial positions (§3 allows them) with all 10
column lines written out.
"""

from __future__ import annotations

import re
from collections import Counter

import pytest

from spider_tui.engine import Game, IllegalMove, Move, PositionError

RANKS = "A23456789TJQK"
SLOT_SUITS = {1: "ssss", 2: "hshs", 4: "cdhs"}
DECK_SUITS = {1: "s", 2: "hs", 4: "cdhs"}


# ---------------------------------------------------------------------------
# Reference implementation of SPEC §2
# ---------------------------------------------------------------------------

def ref_build(suits: int) -> list[str]:
    """§2.1: for copy in 1..2, for rank in A..K, for slot in 0..3."""
    slots = SLOT_SUITS[suits]
    return [rank + slots[slot] for _copy in range(2) for rank in RANKS for slot in range(4)]


def ref_shuffle(cards: list, seed: int) -> list:
    """§2.2: Microsoft FreeCell LCG, 32-bit unsigned; swap i-1 and r % i for i = n..2."""
    result = list(cards)
    for i in range(len(result), 1, -1):
        seed = (214013 * seed + 2531011) % 2**32
        r = (seed >> 16) & 0x7FFF
        result[i - 1], result[r % i] = result[r % i], result[i - 1]
    return result


def ref_deal(number: int, suits: int):
    """§2.3. Returns (columns, stock): columns[c] = (face_down, face_up) for c in 1..10,
    stock in dealing order (the first 10 are the next deal, column 1 first)."""
    deck = ref_shuffle(ref_build(suits), number)
    down = {c: [] for c in range(1, 11)}
    up = {c: [] for c in range(1, 11)}
    col = 0
    for _ in range(44):
        down[col + 1].append(deck.pop())
        col = (col + 1) % 10
    for _ in range(10):
        up[col + 1].append(deck.pop())
        col = (col + 1) % 10
    packets = [[deck.pop() for _ in range(10)] for _ in range(5)]
    assert not deck
    stock = []
    for packet in packets:
        # column 1 gets the LAST card that went into the packet, column 2 the one before, ...
        stock.extend(reversed(packet))
    return {c: (down[c], up[c]) for c in range(1, 11)}, stock


# ---------------------------------------------------------------------------
# Notation helpers (SPEC §3)
# ---------------------------------------------------------------------------

def parse(text: str) -> dict:
    """Parse position notation into {'suits', 'moves', 'stock', 'done', 'cols'}."""
    out = {"suits": None, "moves": None, "stock": [], "done": [], "cols": {}}
    for raw in text.splitlines():
        line = raw.split("#", 1)[0].strip()
        if not line:
            continue
        key, sep, val = line.partition(":")
        assert sep, f"line without a colon in to_text(): {raw!r}"
        key, val = key.strip(), val.strip()
        if key == "suits":
            out["suits"] = int(val)
        elif key == "moves":
            out["moves"] = int(val)
        elif key == "stock":
            out["stock"] = [] if val in ("", "-") else val.split()
        elif key == "done":
            out["done"] = [] if val in ("", "-") else val.split()
        elif key.isdigit():
            left, bar, right = val.partition("|")
            assert bar, f"column line without '|': {raw!r}"
            out["cols"][int(key)] = (left.split(), right.split())
    return out


def cols_of(game: Game) -> dict:
    return parse(game.to_text())["cols"]


def col(game: Game, c: int) -> tuple[list[str], list[str]]:
    return cols_of(game)[c]


def position(cols: dict, stock: str = "", suits: int = 4, done: str = "", moves=None) -> str:
    """Build notation. Lines: 1 suits, 2 rules, 3 stock, 4 done, then column k on line k+4
    (moves, when given, comes last so the line numbers above stay put)."""
    lines = [f"suits: {suits}", "rules: classic"]
    lines.append("stock: " + (stock if stock.strip() else "-"))
    lines.append("done: " + (done if done.strip() else "-"))
    for i in range(1, 11):
        lines.append(f"{i}: {cols.get(i, '|')}")
    if moves is not None:
        lines.append(f"moves: {moves}")
    return "\n".join(lines) + "\n"


def load(cols: dict, **kw) -> Game:
    return Game.from_text(position(cols, **kw))


def hint_text(game: Game):
    m = game.hint()
    return None if m is None else str(m)


def legal_texts(game: Game) -> set[str]:
    return {str(m) for m in game.legal_moves()}


SPADE_K_TO_2 = "Ks Qs Js Ts 9s 8s 7s 6s 5s 4s 3s 2s"  # 12 cards, needs As to complete
HEART_K_TO_2 = "Kh Qh Jh Th 9h 8h 7h 6h 5h 4h 3h 2h"
SPADE_Q_TO_A = "Qs Js Ts 9s 8s 7s 6s 5s 4s 3s 2s As"  # 12 cards
TEN_INERT = "2c 3c 4c 6c 8c 2d 3d 4d 6d 8d"  # a stock row used where the deal must not matter
# Ten single face-up cards with no legal move among them (no card is one rank below another).
STUCK_COLS = {1: "| Ks", 2: "| Ks", 3: "| Kh", 4: "| Kh", 5: "| Jd",
              6: "| Jd", 7: "| 9c", 8: "| 9c", 9: "| 7s", 10: "| 5h"}


# ---------------------------------------------------------------------------
# §2 Deals
# ---------------------------------------------------------------------------

def test_reference_shuffle_matches_kpat_published_vectors():
    # kpat autotests/shuffle_test.cpp: 52 cards "AC AD AH AS 2C ..." shuffled with seeds 1 and 24.
    deck52 = [r + s for r in "A23456789TJQK" for s in "CDHS"]
    assert ref_shuffle(deck52, 1) == (
        "6H 2H 9C 6S TC 8C 3D 6C QS 8D 8S 6D 7D JH 2C 8H TH 4S TD 3S 7S 4D AC 4H QH TS "
        "5C 4C 3C AH AS JS QD 9D KS 2S 3H KH QC AD 5S 9S KC KD 5H 7C 7H 5D JC 9H 2D JD"
    ).split()
    assert ref_shuffle(deck52, 24)[:6] == ["AS", "3D", "QD", "2H", "9D", "JD"]


DEAL_NUMBERS = [1, 2, 1234, 2147483647, 20261129]


@pytest.mark.parametrize("suits", [1, 2, 4])
@pytest.mark.parametrize("number", DEAL_NUMBERS)
def test_new_game_places_cards_exactly_like_reference(number, suits):
    game = Game.new(number, suits=suits)
    got = parse(game.to_text())
    want_cols, want_stock = ref_deal(number, suits)
    for c in range(1, 11):
        assert got["cols"][c] == want_cols[c], f"deal {number}, {suits} suits, column {c}"
    assert got["stock"] == want_stock, f"deal {number}, {suits} suits, stock"
    assert got["done"] == []


@pytest.mark.parametrize("number", DEAL_NUMBERS)
def test_ranks_identical_across_suit_counts(number):
    def ranks_only(game):
        p = parse(game.to_text())
        cols = {c: ([x[0] for x in d], [x[0] for x in u]) for c, (d, u) in p["cols"].items()}
        return cols, [x[0] for x in p["stock"]]

    one, two, four = (ranks_only(Game.new(number, suits=k)) for k in (1, 2, 4))
    assert one == two == four
    # and the suit counts differ in suits only where the slot says so (2 suits: h,s only)
    assert {card[1] for card in parse(Game.new(number, suits=2).to_text())["stock"]} <= {"h", "s"}


def test_deal_1_hand_checked_bottom_cards():
    # Hand computation of the first three LCG steps for number 1 (SPEC §2.2):
    #   step i=104: seed = 214013*1 + 2531011 = 2745024;            2745024 >> 16 = 41;
    #               41 & 0x7fff = 41;  41 % 104 = 41  -> swap 103 <-> 41
    #   step i=103: seed = (214013*2745024 + 2531011) mod 2^32
    #                    = 587473352323 - 136*4294967296 = 3357800067;
    #               3357800067 >> 16 = 51235; 51235 & 0x7fff = 18467; 18467 % 103 = 30
    #               -> swap 102 <-> 30
    #   step i=102: seed = 415139642; >> 16 = 6334; 6334 % 102 = 10 -> swap 101 <-> 10
    # Later steps only touch positions < 101, so positions 103, 102, 101 are final:
    #   pos 103 = built[41], pos 102 = built[30], pos 101 = built[10].
    # Built order (§2.1) index = 4*rank_index + slot (first copy):
    #   41 = 4*10 + 1 -> J, slot 1;  30 = 4*7 + 2 -> 8, slot 2;  10 = 4*2 + 2 -> 3, slot 2.
    # Dealing takes cards off the END: pos 103 is the first card dealt (column 1, bottom,
    # face down), pos 102 the bottom of column 2, pos 101 the bottom of column 3.
    # Slot 1 / slot 2 suits: 4 suits -> d / h;  2 suits -> s / h;  1 suit -> s / s.
    expected = {4: ("Jd", "8h", "3h"), 2: ("Js", "8h", "3h"), 1: ("Js", "8s", "3s")}
    for suits, (c1, c2, c3) in expected.items():
        cols = cols_of(Game.new(1, suits=suits))
        assert cols[1][0][0] == c1, f"{suits} suits"
        assert cols[2][0][0] == c2, f"{suits} suits"
        assert cols[3][0][0] == c3, f"{suits} suits"


def test_deal_1_first_face_up_card_goes_to_column_5_and_stock_order():
    # 44 face-down cards round-robin end at column 4 (44 = 4*10 + 4), so the 45th card taken
    # off the end (shuffled position 104-45 = 59) is the first face-up card, on column 5.
    # Packet 1 receives positions 49, 48, ..., 40 (cards 55..64 off the end); column 1 gets
    # the LAST one that went in (position 40), so the stock line starts with position 40,
    # then 41, ..., 49.
    shuffled = ref_shuffle(ref_build(4), 1)
    cols = cols_of(Game.new(1, suits=4))
    assert cols[5][1] == [shuffled[59]]
    assert cols[4][1] == [shuffled[50]]  # the 54th card off the end (10th face-up) -> column 4
    assert parse(Game.new(1, suits=4).to_text())["stock"][:10] == shuffled[40:50]


@pytest.mark.parametrize("suits", [1, 2, 4])
@pytest.mark.parametrize("number", [1, 2147483647])
def test_new_game_layout(number, suits):
    game = Game.new(number, suits=suits)
    p = parse(game.to_text())
    sizes = [len(p["cols"][c][0]) + len(p["cols"][c][1]) for c in range(1, 11)]
    assert sizes == [6, 6, 6, 6, 5, 5, 5, 5, 5, 5]
    assert all(len(p["cols"][c][1]) == 1 for c in range(1, 11))
    assert len(p["stock"]) == 50
    assert game.deals_left == 5
    assert game.moves == 0
    assert not game.won and not game.stuck
    everything = Counter(p["stock"] + [x for c in p["cols"].values() for x in c[0] + c[1]])
    per_card = 8 // len(DECK_SUITS[suits])
    assert everything == Counter({r + s: per_card for r in RANKS for s in DECK_SUITS[suits]})


# ---------------------------------------------------------------------------
# §1 Rules
# ---------------------------------------------------------------------------

def test_single_card_onto_one_rank_higher_any_suit():
    g = load({1: "| 9h", 2: "| Ts"})
    g.play("1>2")
    assert col(g, 2) == ([], ["Ts", "9h"])
    assert col(g, 1) == ([], [])
    assert g.moves == 1


def test_wrong_rank_refused_and_state_unchanged():
    g = load({1: "Ad | 9h", 2: "| Js", 3: "| 9c"})
    before = g.to_text()
    for text in ("1>2", "1>2:1", "1>3:1"):
        with pytest.raises(IllegalMove):
            g.play(text)
        assert g.to_text() == before
    assert g.moves == 0


def test_mixed_suit_group_refused_as_group():
    g = load({1: "| 9h 8s", 2: "| Td", 3: "| 9d"})
    before = g.to_text()
    with pytest.raises(IllegalMove):
        g.play("1>2:2")
    assert g.to_text() == before
    assert "1>2:2" not in legal_texts(g)
    # the top card alone is still movable
    g.play("1>3:1")
    assert col(g, 3) == ([], ["9d", "8s"])


def test_same_suit_group_of_twelve_moves_in_one_action():
    g = load({1: "| " + SPADE_Q_TO_A, 2: "| Kh", 3: "| 5c"})
    assert "1>2:12" in legal_texts(g)
    g.play("1>2:12")
    assert col(g, 2) == ([], ["Kh"] + SPADE_Q_TO_A.split())
    assert col(g, 1) == ([], [])
    assert g.moves == 1


def test_twelve_card_group_completing_a_run_leaves_at_once():
    g = load({1: "| " + SPADE_Q_TO_A, 2: "4h | Ks", 3: "| 5c"})
    g.play("1>2:12")
    p = parse(g.to_text())
    assert p["done"] == ["s"]
    assert p["cols"][2] == ([], ["4h"])  # run left, the face-down card flipped
    assert p["cols"][1] == ([], [])
    assert g.moves == 1


def test_empty_column_takes_any_card_or_group():
    g = load({1: "| 9d 5h 4h 3h", 2: "|", 3: "| Kc"})
    moves = legal_texts(g)
    assert {"1>2:1", "1>2:2", "1>2:3"} <= moves
    assert "1>2:4" not in moves
    g.play("1>2:2")
    assert col(g, 2) == ([], ["4h", "3h"])
    assert col(g, 1) == ([], ["9d", "5h"])


def test_empty_column_takes_a_king():
    g = load({1: "| 9d 5h 4h 3h", 2: "|", 3: "| Kc"})
    with pytest.raises(IllegalMove):
        g.play("3>1")  # K onto 3h
    g.play("3>2")
    assert col(g, 2) == ([], ["Kc"])
    assert col(g, 3) == ([], [])


def test_face_down_card_flips_when_exposed():
    g = load({1: "Ah 2c | 9h", 2: "| Ts"})
    g.play("1>2")
    assert col(g, 1) == (["Ah"], ["2c"])


def test_completed_run_leaves_after_move_and_reveals():
    g = load({1: "5h | " + SPADE_K_TO_2, 2: "| 9d As", 3: "| Kc"})
    g.play("2>1")
    p = parse(g.to_text())
    assert p["done"] == ["s"]
    assert p["cols"][1] == ([], ["5h"])
    assert p["cols"][2] == ([], ["9d"])
    assert g.moves == 1
    assert not g.won


def test_completed_run_leaves_after_deal():
    fillers = ["9c", "9d", "9h", "7c", "7d", "7h", "5c", "5d", "5h"]
    others = {c: "| " + fillers[c - 2] for c in range(2, 11)}
    g = load({1: "| " + SPADE_K_TO_2, **others}, stock="As 2c 3c 4c 5c 6c 7c 8c 9c Tc")
    g.play("deal")
    p = parse(g.to_text())
    assert p["done"] == ["s"]
    assert p["cols"][1] == ([], [])
    assert p["cols"][2] == ([], ["9c", "2c"])
    assert p["cols"][10] == ([], ["5h", "Tc"])
    assert g.deals_left == 0
    assert g.moves == 1


def test_two_runs_leave_at_once_from_one_deal():
    others = {c: "| " + ["Jc", "Jd", "Qc", "Qd"][c % 4] for c in range(3, 11)}
    g = load(
        {1: "| " + SPADE_K_TO_2, 2: "7c | " + HEART_K_TO_2, **others},
        stock="As Ah 3c 4c 5c 6c 7d 8c 9c Tc",
    )
    g.play("deal")
    p = parse(g.to_text())
    assert sorted(p["done"]) == ["h", "s"]
    assert p["cols"][1] == ([], [])
    assert p["cols"][2] == ([], ["7c"])
    assert g.moves == 1


def test_no_deal_with_an_empty_column():
    g = load({**STUCK_COLS, 3: "|"}, stock=TEN_INERT)
    before = g.to_text()
    assert "deal" not in legal_texts(g)
    with pytest.raises(IllegalMove) as exc:
        g.play("deal")
    assert "Fill every empty column before dealing." in str(exc.value)
    assert g.to_text() == before
    assert g.deals_left == 1
    assert g.moves == 0


def test_deal_puts_one_face_up_card_on_each_column_column_1_first():
    row1 = "2c 3c 4c 5c 6c 7c 8c Tc Jc Qc".split()
    row2 = "2d 3d 4d 5d 6d 7d 8d 9d Td Qd".split()
    g = load(STUCK_COLS, stock=" ".join(row1 + row2))
    assert g.deals_left == 2
    assert "deal" in legal_texts(g)
    g.play("deal")
    p = parse(g.to_text())
    assert [p["cols"][c][1] for c in range(1, 11)] == [
        [STUCK_COLS[c].split()[-1], row1[c - 1]] for c in range(1, 11)]
    assert p["stock"] == row2
    assert g.deals_left == 1
    g.play("deal")
    assert g.deals_left == 0
    assert "deal" not in legal_texts(g)
    with pytest.raises(IllegalMove):
        g.play("deal")


def test_won_when_table_and_stock_empty():
    g = load({1: "| " + SPADE_K_TO_2, 2: "| As"})
    assert not g.won
    g.play("2>1")
    assert g.won
    assert parse(g.to_text())["done"] == ["s"]
    assert g.hint() is None


def test_no_undo_offered_after_a_win_but_engine_steps_back():
    g = load({1: "| " + SPADE_K_TO_2, 2: "| As"})
    g.play("2>1")
    assert g.won
    assert not g.can_undo  # the table offers none (SPEC §1)
    assert g.undo() is True  # programs that search may step back (SPEC §1, §14)
    assert not g.won


def test_stuck_without_stock():
    g = load(STUCK_COLS)
    assert g.legal_moves() == []
    assert g.stuck
    assert not g.won
    assert g.hint() is None


def test_not_stuck_when_a_deal_is_possible():
    g = load(STUCK_COLS, stock=TEN_INERT)
    assert not g.stuck
    assert legal_texts(g) == {"deal"}
    assert hint_text(g) == "deal"


def test_stuck_with_stock_left_when_only_whole_columns_could_fill_the_gap():
    cols = dict(STUCK_COLS)
    cols[1] = "|"
    g = load(cols, stock=TEN_INERT)
    assert g.stuck
    assert not g.won
    assert g.hint() is None


def test_not_stuck_when_moving_into_the_gap_reveals_a_card():
    cols = dict(STUCK_COLS)
    cols[1] = "|"
    cols[2] = "4d | Ks"
    g = load(cols, stock=TEN_INERT)
    assert not g.stuck


def test_not_stuck_when_moving_into_the_gap_leaves_cards_behind():
    cols = dict(STUCK_COLS)
    cols[1] = "|"
    cols[2] = "| 4d Ks"
    g = load(cols, stock=TEN_INERT)
    assert not g.stuck


def test_undo_reverts_a_flip_and_the_move_counter():
    g = load({1: "Ah 2c | 9h", 2: "| Ts"})
    start = g.to_text()
    assert g.undo() is False
    g.play("1>2")
    assert g.moves == 1
    assert g.undo() is True
    assert g.moves == 0
    assert g.to_text() == start
    assert col(g, 1) == (["Ah", "2c"], ["9h"])
    assert g.undo() is False


def test_undo_returns_a_completed_run_and_turns_the_card_back():
    g = load({1: "5h | " + SPADE_K_TO_2, 2: "| 9d As", 3: "| Kc"})
    start = g.to_text()
    g.play("2>1")
    assert parse(g.to_text())["done"] == ["s"]
    assert g.undo() is True
    assert g.to_text() == start
    p = parse(g.to_text())
    assert p["done"] == []
    assert p["cols"][1] == (["5h"], SPADE_K_TO_2.split())
    assert g.moves == 0


def test_undo_returns_a_dealt_row_and_its_runs_to_the_stock():
    others = {c: "| " + ["Jc", "Jd", "Qc", "Qd"][c % 4] for c in range(3, 11)}
    g = load(
        {1: "| " + SPADE_K_TO_2, 2: "7c | " + HEART_K_TO_2, **others},
        stock="As Ah 3c 4c 5c 6c 7d 8c 9c Tc " + TEN_INERT,
    )
    start = g.to_text()
    g.play("deal")
    assert g.deals_left == 1
    assert g.undo() is True
    assert g.to_text() == start
    assert g.deals_left == 2
    assert g.moves == 0
    assert len(parse(g.to_text())["stock"]) == 20


def test_moves_counts_one_per_action():
    g = load({1: "| " + SPADE_Q_TO_A, 2: "Ah | Kh", 3: "| 5c", 4: "| Kd",
              **{c: "| Kc" for c in (5, 6)}, **{c: "| Ks" for c in (7, 8)},
              9: "| Kd", 10: "| 5d 9s"}, stock=TEN_INERT, moves=17)
    assert g.moves == 17
    g.play("1>2")  # 12 cards, one action
    assert g.moves == 18
    g.play("10>1")  # 9s into the empty column
    assert g.moves == 19
    g.play("deal")
    assert g.moves == 20
    assert g.undo() is True
    assert g.moves == 19
    assert g.undo() is True and g.undo() is True
    assert g.moves == 17
    assert g.undo() is False  # loaded position: nothing to undo


# ---------------------------------------------------------------------------
# §3 Move text
# ---------------------------------------------------------------------------

def test_move_without_count_picks_the_group_that_fits():
    g = load({3: "| 9h 8s 7s", 7: "| 9d", 1: "| Kc"})
    g.play("3>7")
    assert col(g, 7) == ([], ["9d", "8s", "7s"])
    assert col(g, 3) == ([], ["9h"])


def test_move_without_count_picks_the_group_that_fits_short_group():
    g = load({3: "| 9h 8s 7s", 7: "| 8d", 1: "| Kc"})
    g.play("3>7")
    assert col(g, 7) == ([], ["8d", "7s"])
    assert col(g, 3) == ([], ["9h", "8s"])


def test_move_without_count_into_empty_column_takes_longest_movable_group():
    g = load({3: "5c | 9h 8s 7s 6s", 1: "| Kc"})
    g.play("3>7")
    assert col(g, 7) == ([], ["8s", "7s", "6s"])
    assert col(g, 3) == (["5c"], ["9h"])


def test_canonical_move_text():
    g = load(with_kings({3: "| 9h 8s 7s", 7: "| 9d"}), stock=TEN_INERT)
    assert legal_texts(g) == {"3>7:2", "deal"}
    moves = g.legal_moves()
    assert all(isinstance(m, Move) for m in moves)
    # a Move object is accepted by play()
    g.play(next(m for m in moves if str(m) == "3>7:2"))
    assert col(g, 7) == ([], ["9d", "8s", "7s"])


def test_deal_move_text_and_play_with_move_object():
    g = load(STUCK_COLS, stock=TEN_INERT)
    (deal,) = g.legal_moves()
    assert str(deal) == "deal"
    g.play(deal)
    assert g.deals_left == 0
    assert parse(g.to_text())["stock"] == []


def test_bad_move_texts_and_wrong_counts_are_refused_without_change():
    g = load({1: "| 9h 8s 7s", 2: "| 9d", 3: "| Kc"})
    before = g.to_text()
    for text in ("1>1", "1>1:1", "0>2", "11>2", "1>2:3", "1>2:1", "1>2:0", "1>3", "2>3",
                 "nonsense"):
        with pytest.raises(IllegalMove):
            g.play(text)
        assert g.to_text() == before, text
    assert g.moves == 0
    g.play("1>2:2")
    assert col(g, 2) == ([], ["9d", "8s", "7s"])


def test_columns_10_in_move_text():
    g = load({10: "| 9h", 2: "| Ts"})
    assert "10>2:1" in legal_texts(g)
    g.play("10>2")
    assert col(g, 2) == ([], ["Ts", "9h"])


# ---------------------------------------------------------------------------
# §3 Notation
# ---------------------------------------------------------------------------

@pytest.mark.parametrize("suits", [1, 2, 4])
def test_round_trip_new_game(suits):
    g = Game.new(1234, suits=suits)
    text = g.to_text()
    g2 = Game.from_text(text)
    assert g2.to_text() == text
    assert g2.deals_left == 5
    assert parse(text)["suits"] == suits


def test_round_trip_mid_game_with_done_and_moves():
    text = position(
        {1: "Qh 3s 7h | 9s 8s", 2: "| Kh", 4: "5h | 5s", 10: "5s | 4h"},
        stock="7h 2s Ks 9h 4s Qh Ah 3s 5h Ts",
        suits=2, done="s h", moves=17,
    )
    g = Game.from_text(text)
    assert g.moves == 17
    assert g.deals_left == 1
    p = parse(g.to_text())
    assert p["done"] == ["s", "h"]
    assert p["stock"] == "7h 2s Ks 9h 4s Qh Ah 3s 5h Ts".split()
    assert p["cols"][1] == (["Qh", "3s", "7h"], ["9s", "8s"])
    assert p["cols"][3] == ([], [])
    assert Game.from_text(g.to_text()).to_text() == g.to_text()


def test_notation_comments_and_blank_lines_ignored():
    text = "# a puzzle\n\n" + position({1: "| 9h", 2: "| Ts"}).replace(
        "rules: classic", "rules: classic   # the default\n\n")
    g = Game.from_text(text)
    assert col(g, 1) == ([], ["9h"])
    assert col(g, 2) == ([], ["Ts"])


def _error_names_line(text: str, line_no: int):
    with pytest.raises(PositionError) as exc:
        Game.from_text(text)
    msg = str(exc.value)
    assert re.search(rf"\b{line_no}\b", msg), f"line {line_no} not named in: {msg!r}"


def test_position_error_unknown_token():
    _error_names_line(position({1: "| 9h", 7: "| 9x"}), 11)  # column 7 is line 11


def test_position_error_unknown_rank():
    _error_names_line(position({1: "| 9h", 6: "| 1s"}), 10)


def test_position_error_suit_not_in_deck_two_suits():
    _error_names_line(position({1: "| 9h", 5: "| 9d"}, suits=2), 9)


def test_position_error_suit_not_in_deck_one_suit():
    _error_names_line(position({1: "| 9s", 8: "| 9h"}, suits=1), 12)


def test_position_error_too_many_copies():
    # 4 suits: two copies of each card; the third As is on column 3 = line 7
    _error_names_line(position({1: "| As", 2: "| As", 3: "| As"}), 7)


def test_two_copies_are_fine_in_four_suits_and_eight_in_one_suit():
    Game.from_text(position({1: "| As", 2: "| As"}))
    Game.from_text(position({c: "| As" for c in range(1, 9)}, suits=1))
    _error_names_line(position({c: "| As" for c in range(1, 10)}, suits=1), 13)


def test_position_error_column_without_face_up_card():
    _error_names_line(position({1: "| 9h", 6: "9s |"}), 10)


def test_position_error_stock_not_whole_deals():
    _error_names_line(position({1: "| 9h"}, stock="2c 4c 6c 8c Tc Qc 2d"), 3)


def test_partial_position_stock_of_two_deals():
    g = load({1: "| 9h"}, stock=TEN_INERT + " 5c 7c 9c Jc Kc 5d 7d 9d Jd Kd")
    assert g.deals_left == 2


# ---------------------------------------------------------------------------
# §4 Hint
# ---------------------------------------------------------------------------
# Filler columns hold a single face-up King: only a Queen-led group could go onto it (none is
# movable in these positions, or the move would split), and a King can only move to an empty
# column, which moves the whole column (never a candidate).

KINGS = ["Kc", "Kd", "Kh", "Ks", "Kc", "Kd", "Kh", "Ks"]


def with_kings(cols: dict, used=(), extra=()) -> dict:
    """Fill the columns not given with single face-up Kings (the 8 of a 4-suit deck minus
    `used`), then with the cards of `extra`."""
    pool = Counter(KINGS) - Counter(used)
    fillers = sorted(pool.elements()) + list(extra)
    out = dict(cols)
    for c in range(1, 11):
        if c not in out:
            out[c] = "| " + fillers.pop(0)
    return out


JACKS = ("Jc", "Jd")  # extra inert fillers: no Queen is exposed and no Ten can move


def test_hint_tier1_completes():
    # 1>2 reveals 4c (tier 2, lower S); 5>4 completes the spade run (tier 1).
    cols = with_kings({1: "4c | 9h", 2: "| Td", 3: "| Kd", 4: "| " + SPADE_K_TO_2,
                       5: "| 5d As"}, used=["Kd", "Ks"])
    g = load(cols)
    assert hint_text(g) == "5>4:1"


def test_hint_tier2_reveals_onto_non_empty():
    # 1>2 empties column 1 (tier 3), 2>3 empties column 2 (tier 3); 3>4 reveals Ac (tier 2).
    g = load(with_kings({1: "| 4h", 2: "| 5c", 3: "Ac | 6d", 4: "| 7s"}))
    assert hint_text(g) == "3>4:1"


def test_hint_tier3_empties():
    # 1>2 extends (tier 4, lower S); 3>4 empties column 3 (tier 3).
    g = load(with_kings({1: "| 9s 8h", 2: "| 9h", 3: "| 3d", 4: "| 4c"}))
    assert hint_text(g) == "3>4:1"


def test_hint_tier4_extends():
    # 1>2 is sideways (excluded); 6>5 reveals into an empty column (tier 5);
    # 3>4 extends (tier 4).
    g = load({1: "| Ts 6h", 2: "| Kd 7c", 3: "| Ts 7d", 4: "| Kc 8d", 5: "|",
              6: "2c | Jh", 7: "| Kh", 8: "| Kh", 9: "| Ks", 10: "| Ks"})
    assert hint_text(g) == "3>4:1"


def test_hint_tier5_reveals_into_empty_column():
    # Column 1 is the last empty column and the stock has cards:
    # 2>1 would be the fill-the-last-gap exception (tier 6); 3>1 reveals 5c (tier 5).
    cols = with_kings({1: "|", 2: "| 9s 4h", 3: "5c | Jd"})
    g = load(cols, stock=TEN_INERT)
    assert hint_text(g) == "3>1:1"


def test_hint_tier6_fills_last_empty_column():
    # 2>1 moves a whole column (only shifts the gap: excluded);
    # 3>1 leaves 9s behind and fills the last gap while the stock has cards (tier 6).
    cols = with_kings({1: "|", 2: "| 8d", 3: "| 9s 4h"})
    g = load(cols, stock=TEN_INERT)
    assert hint_text(g) == "3>1:1"


def test_hint_tier7_deal():
    g = load(with_kings({1: "| Kd 7c", 2: "| Kc 9h"}, used=["Kd", "Kc"], extra=JACKS),
             stock=TEN_INERT)
    assert legal_texts(g) == {"deal"}
    assert hint_text(g) == "deal"


def test_hint_tier8_nothing():
    g = load(with_kings({1: "| Kd 7c", 2: "| Kc 9h"}, used=["Kd", "Kc"], extra=JACKS))
    assert g.hint() is None
    assert g.stuck


def test_hint_sideways_move_is_never_proposed():
    # 1>2 (7c onto 8h) reveals nothing, extends nothing, empties nothing, completes nothing.
    cols = with_kings({1: "| Kd 7c", 2: "| Kc 8h"}, used=["Kd", "Kc"], extra=JACKS)
    g = load(cols, stock=TEN_INERT)
    assert legal_texts(g) == {"1>2:1", "deal"}
    assert hint_text(g) == "deal"
    g2 = load(cols)
    assert g2.hint() is None
    assert not g2.stuck


def test_hint_split_is_never_proposed():
    # 8h onto 9h would extend, but it leaves 9h (same suit, one higher) exposed: a split.
    g = load(with_kings({1: "| Kc 9h 8h", 2: "| Kd 9h"}, used=["Kd", "Kc"], extra=JACKS),
             stock=TEN_INERT)
    assert "1>2:1" in legal_texts(g)
    assert hint_text(g) == "deal"


def test_hint_split_allowed_when_it_completes():
    # As leaves 2s (same suit, one higher) behind: a split, but it completes the run.
    g = load(with_kings({1: "| " + SPADE_K_TO_2, 2: "| Kd 2s As"}, used=["Ks", "Kd"],
                        extra=JACKS), stock=TEN_INERT)
    assert hint_text(g) == "2>1:1"


def test_hint_no_exception_when_not_the_last_empty_column():
    g = load(with_kings({1: "|", 2: "|", 3: "| 9s 4h"}), stock=TEN_INERT)
    assert g.hint() is None


def test_hint_no_exception_without_stock():
    g = load(with_kings({1: "|", 3: "| 9s 4h"}))
    assert g.hint() is None


def test_hint_gap_shift_is_no_exception():
    # Moving a whole column into the only empty column empties its own source: no exception.
    g = load(with_kings({1: "|", 2: "| 8d"}), stock=TEN_INERT)
    assert "2>1:1" in legal_texts(g)
    assert g.hint() is None
    assert g.stuck


def test_hint_tiebreak_extending_before_not():
    # Both reveal onto a non-empty column (tier 2): 1>4 moves 2 cards without extending,
    # 3>2 moves 1 card and extends -> extending first.
    g = load(with_kings({1: "Ad | 6s 5s", 2: "| Kd 7d", 3: "Ac | 6d", 4: "| Kc 7h"},
                        used=["Kd", "Kc"]))
    assert hint_text(g) == "3>2:1"


def test_hint_tiebreak_more_cards_before_fewer():
    # Both extend (tier 4): 1>3 one card, 2>4 two cards -> more cards first.
    g = load(with_kings({1: "| Kc 7h", 2: "| Kd 7s 6s", 3: "| Qd 8h", 4: "| Qc 8s"},
                        used=["Kd", "Kc"]))
    assert hint_text(g) == "2>4:2"


def test_hint_tiebreak_lower_source():
    # Both extend with one card: 3>8 and 5>2 -> lower S first.
    g = load(with_kings({3: "| Kc 7h", 8: "| Qc 8h", 5: "| Kd 7s", 2: "| Qd 8s"},
                        used=["Kd", "Kc"]))
    assert hint_text(g) == "3>8:1"


def test_hint_tiebreak_lower_target():
    # 5>8 and 5>3 both extend with one card from the same column -> lower T first.
    g = load(with_kings({5: "| Kc 7h", 8: "| Qc 8h", 3: "| Qd 8h"}, used=["Kc"]))
    assert hint_text(g) == "5>3:1"


def test_hint_is_deterministic():
    g = Game.new(20261129, suits=4)
    first = hint_text(g)
    assert hint_text(g) == first
    assert hint_text(Game.from_text(g.to_text())) == first
    assert first is not None
    assert first in legal_texts(g)
