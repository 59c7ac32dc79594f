"""SPEC §2: numbered deals, as KDE Patience deals them."""

import pytest

from spider_tui.engine import Game
from spider_tui.engine.deal import ms_shuffle, shuffled_deck


def lcg(seed, n):
    out = []
    for _ in range(n):
        seed = (214013 * seed + 2531011) % 2**32
        out.append((seed >> 16) & 0x7FFF)
    return out


def test_generator_first_values_by_hand():
    # seed 1: 214013*1 + 2531011 = 2745024 -> >>16 = 41; next: 214013*2745024+2531011 mod 2^32
    assert lcg(1, 1) == [41]
    s2 = (214013 * 2745024 + 2531011) % 2**32
    assert lcg(1, 2)[1] == (s2 >> 16) & 0x7FFF


def test_shuffle_swaps_by_hand():
    # With 3 items and seed 1: i=3: r=41, swap 2 and 41%3=2 (no-op); i=2: r2 % 2
    r = lcg(1, 2)
    items = ["a", "b", "c"]
    expect = list(items)
    j = r[0] % 3
    expect[2], expect[j] = expect[j], expect[2]
    j = r[1] % 2
    expect[1], expect[j] = expect[j], expect[1]
    assert ms_shuffle(items, 1) == expect


def test_deal_1_by_hand_first_face_down_and_stock():
    """Derive the end of the shuffled deck for deal 1 at 4 suits independently."""
    slots = ["c", "d", "h", "s"]
    deck = [("A23456789TJQK"[r]) + slots[s] for _ in range(2) for r in range(13) for s in range(4)]
    seed = 1
    for i in range(104, 1, -1):
        seed = (214013 * seed + 2531011) % 2**32
        j = ((seed >> 16) & 0x7FFF) % i
        deck[i - 1], deck[j] = deck[j], deck[i - 1]
    g = Game.new(1, suits=4)
    text = g.to_text()
    col1 = next(line for line in text.splitlines() if line.startswith("1:"))
    # The first card off the end goes face down to the bottom of column 1.
    assert col1.split()[1] == deck[-1]
    # Column 5's face-up card is the 45th card off the end.
    col5 = next(line for line in text.splitlines() if line.startswith("5:"))
    assert col5.split()[-1] == deck[-45]
    # Packet 1 holds cards 55..64 off the end; column 1 gets the last of them.
    stock = next(line for line in text.splitlines() if line.startswith("stock:")).split()[1:]
    assert stock[0] == deck[-64]
    assert stock[9] == deck[-55]


@pytest.mark.parametrize("suits", [1, 2, 4])
def test_layout(suits):
    g = Game.new(7, suits=suits)
    assert [len(c) for c in g.columns] == [6, 6, 6, 6, 5, 5, 5, 5, 5, 5]
    assert g.down == [5, 5, 5, 5, 4, 4, 4, 4, 4, 4]
    assert len(g.stock) == 50 and g.deals_left == 5 and g.moves == 0 and g.done == []
    assert g.card_count() == 104


@pytest.mark.parametrize("number", [1, 2, 1234, 20261129, 2147483647])
def test_same_ranks_at_every_suit_count(number):
    ranks = {}
    for suits in (1, 2, 4):
        g = Game.new(number, suits=suits)
        ranks[suits] = ([[c & 15 for c in col] for col in g.columns], [c & 15 for c in g.stock])
    assert ranks[1] == ranks[2] == ranks[4]


@pytest.mark.parametrize("suits, allowed", [(1, {0}), (2, {0, 1}), (4, {0, 1, 2, 3})])
def test_suits_in_the_deck(suits, allowed):
    deck = shuffled_deck(99, suits)
    assert {c >> 4 for c in deck} == allowed
    for c in set(deck):
        assert deck.count(c) == 8 // len(allowed)


def test_two_suit_slots_map_to_hearts_and_spades_like_four_suit_slots():
    # Slot order 4 suits: c d h s; 2 suits: h s h s. Slot 2 (hearts) and 3 (spades) agree.
    d4, d2 = shuffled_deck(5, 4), shuffled_deck(5, 2)
    for a, b in zip(d4, d2):
        if a >> 4 in (0, 1):  # spades/hearts in 4 suits stay the same in 2 suits
            assert a == b


@pytest.mark.parametrize("bad", [0, -1, 2147483648])
def test_deal_number_range(bad):
    with pytest.raises(ValueError):
        Game.new(bad)


def test_bad_suits():
    with pytest.raises(ValueError):
        Game.new(1, suits=3)


def test_different_numbers_differ():
    assert Game.new(1).to_text() != Game.new(2).to_text()
